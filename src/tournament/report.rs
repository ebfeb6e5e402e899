//! The HTML report of `arena tournament --html` and `arena grade --html`: one self-contained
//! file (inline CSS and SVG, no script, nothing fetched) built from the standings.
//!
//! Per event: the standings table, the win matrix as a heat map, the ratings with their 95%
//! intervals as a chart, a histogram per bot of its points per match; then the faults with their
//! messages and the commands that replay them.

use crate::tournament::standings::EventStandings;

/// One fault as the report lists it.
pub struct ReportFault {
    /// The event (or `grade`).
    pub event: String,
    /// The bot that faulted.
    pub bot: String,
    /// The verdict's name.
    pub verdict: String,
    /// Where: `decision 12` or `start`.
    pub at: String,
    /// The fault's message.
    pub message: String,
    /// The command that shows or replays it.
    pub command: String,
}

/// `text` with the HTML special characters escaped.
fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2em;color:#222}\
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:right;white-space:nowrap}\
th{background:#f3f3f3}td.name,th.name{text-align:left}.legend{color:#555;font-size:.9em}\
.heat td{width:3.5em;text-align:center}code{background:#f3f3f3;padding:.1em .3em}";

/// A bot's name for a label: a file bot's file name without its folder.
fn short(name: &str) -> String {
    std::path::Path::new(name)
        .file_name()
        .map_or_else(|| name.to_string(), |f| f.to_string_lossy().into_owned())
}

/// The whole report.
pub fn html(title: &str, events: &[EventStandings], faults: &[ReportFault]) -> String {
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{STYLE}</style></head><body>\n<h1>{}</h1>\n",
        esc(title),
        esc(title)
    );
    for (i, ev) in events.iter().enumerate() {
        out.push_str(&event_section(i, ev));
    }
    out.push_str(&faults_section(faults));
    out.push_str("</body></html>\n");
    out
}

fn event_section(i: usize, ev: &EventStandings) -> String {
    let mut out = format!(
        "<section class=\"event\" id=\"event-{i}\"><h2>{} ({} {}, {}, {} matches)</h2>\n",
        esc(&ev.name),
        esc(&ev.game),
        esc(&ev.variant),
        esc(&ev.format),
        ev.matches
    );
    let points = crate::tournament::standings::points_heading(&ev.game);
    out.push_str(&format!("<table class=\"standings\"><tr><th>rank</th><th class=\"name\">bot</th><th>rating (95% interval)</th><th>vs leader (95% interval)</th><th>matches</th><th>W-D-L</th><th>{points}</th><th class=\"name\">faults</th></tr>\n"));
    for s in &ev.standings {
        let faults = s.faults.iter().map(|(k, v)| format!("{k}: {v}")).collect::<Vec<_>>().join(", ");
        let vs_leader = s
            .vs_leader
            .map(|d| format!("{:+.0} ({:+.0}..{:+.0})", d.diff, d.low, d.high))
            .unwrap_or_else(|| "-".into());
        out.push_str(&format!(
            "<tr><td>{}</td><td class=\"name\">{}</td><td>{:.0} ({:.0}..{:.0})</td><td>{}</td><td>{}</td><td>{}-{}-{}</td><td>{:.1}</td><td class=\"name\">{}</td></tr>\n",
            s.rank,
            esc(&s.bot),
            s.rating,
            s.ci_low,
            s.ci_high,
            vs_leader,
            s.matches,
            s.wins,
            s.draws,
            s.losses,
            s.points,
            esc(&faults)
        ));
    }
    out.push_str(&format!(
        "</table>\n<p class=\"legend\">rating: Plackett–Luce on the Elo scale with its 95% interval; vs leader: rating minus the first's, with the interval of that difference; {points}: {}.</p>\n",
        esc(&ev.points_are)
    ));
    out.push_str(&heat_map(ev));
    out.push_str(&rating_chart(ev));
    out.push_str(&histograms(ev));
    out.push_str("</section>\n");
    out
}

/// The win matrix: row bot's wins against the column bot, shaded by its share of the pair's
/// decided matches.
fn heat_map(ev: &EventStandings) -> String {
    let n = ev.matrix_bots.len();
    if n == 0 {
        return String::new();
    }
    let mut out = String::from(
        "<h3>Wins of the row's bot against the column's</h3>\n<table class=\"heat\"><tr><th></th>",
    );
    for b in &ev.matrix_bots {
        out.push_str(&format!("<th title=\"{}\">{}</th>", esc(b), esc(&short(b))));
    }
    out.push_str("</tr>\n");
    for r in 0..n {
        let b = &ev.matrix_bots[r];
        out.push_str(&format!("<tr><th class=\"name\" title=\"{}\">{}</th>", esc(b), esc(&short(b))));
        for c in 0..n {
            if r == c {
                out.push_str("<td style=\"background:#eee\"></td>");
                continue;
            }
            let won = ev.matrix[r][c];
            let lost = ev.matrix[c][r];
            let share = if won + lost == 0 { 0.5 } else { won as f64 / (won + lost) as f64 };
            // red (0) through white (½) to green (1)
            let (red, green) =
                if share < 0.5 { (255, (510.0 * share) as u8) } else { ((510.0 * (1.0 - share)) as u8, 255) };
            let blue = red.min(green);
            out.push_str(&format!(
                "<td class=\"cell\" style=\"background:rgb({red},{green},{blue})\" title=\"{:.0}%\">{won}</td>",
                share * 100.0
            ));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
    out
}

/// The ratings as points with their intervals, one row per bot, as inline SVG.
fn rating_chart(ev: &EventStandings) -> String {
    if ev.standings.is_empty() {
        return String::new();
    }
    let lo = ev.standings.iter().map(|s| s.ci_low).fold(f64::INFINITY, f64::min);
    let hi = ev.standings.iter().map(|s| s.ci_high).fold(f64::NEG_INFINITY, f64::max);
    let span = (hi - lo).max(1.0);
    let (left, width, row) = (160.0, 480.0, 26.0);
    let x = |v: f64| left + (v - lo) / span * width;
    let height = row * ev.standings.len() as f64 + 30.0;
    let mut out = format!(
        "<h3>Ratings with their 95% intervals</h3>\n<svg class=\"ratings\" width=\"{}\" height=\"{height}\">\n",
        left + width + 40.0
    );
    for (i, s) in ev.standings.iter().enumerate() {
        let y = row * i as f64 + 18.0;
        out.push_str(&format!(
            "<text x=\"4\" y=\"{:.1}\" font-size=\"13\">{}</text><line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"#36c\" stroke-width=\"3\"/><circle class=\"rating\" cx=\"{:.1}\" cy=\"{y:.1}\" r=\"5\" fill=\"#036\"><title>{} {:.0} ({:.0}..{:.0})</title></circle>\n",
            y + 4.0,
            esc(&short(&s.bot)),
            x(s.ci_low),
            x(s.ci_high),
            x(s.rating),
            esc(&s.bot),
            s.rating,
            s.ci_low,
            s.ci_high
        ));
    }
    let axis_y = height - 6.0;
    out.push_str(&format!(
        "<text x=\"{left}\" y=\"{axis_y}\" font-size=\"11\">{lo:.0}</text><text x=\"{:.1}\" y=\"{axis_y}\" font-size=\"11\" text-anchor=\"end\">{hi:.0}</text></svg>\n",
        left + width
    ));
    out
}

/// Per bot, how many matches it made how many points (the game's own, bins shared by every bot),
/// as bars in inline SVG; each bot's bars are scaled to its own tallest.
fn histograms(ev: &EventStandings) -> String {
    let bins = ev.points_bins;
    if bins.count == 0 {
        return String::new();
    }
    let word = crate::tournament::standings::points_word(&ev.game);
    let (left, width, row, gap) = (160.0, 480.0, 44.0, 8.0);
    let bar = width / bins.count as f64;
    let height = row * ev.standings.len() as f64 + 24.0;
    let mut out = format!(
        "<h3>{} per match, per bot</h3>\n<svg class=\"histograms\" width=\"{}\" height=\"{height}\">\n",
        esc(&capitalized(word)),
        left + width + 40.0
    );
    for (i, s) in ev.standings.iter().enumerate() {
        let base = row * (i + 1) as f64;
        let tallest = s.points_histogram.iter().copied().max().unwrap_or(0).max(1) as f64;
        out.push_str(&format!(
            "<text x=\"4\" y=\"{:.1}\" font-size=\"13\">{}</text>\n",
            base - 6.0,
            esc(&short(&s.bot))
        ));
        for (k, &count) in s.points_histogram.iter().enumerate() {
            let h = (row - gap) * count as f64 / tallest;
            let from = bins.low + k as f64 * bins.width;
            let to = from + bins.width - 1.0;
            let range = if to > from { format!("{from:.0} to {to:.0}") } else { format!("{from:.0}") };
            out.push_str(&format!(
                "<rect class=\"hist-bar\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{h:.1}\" fill=\"#36c\"><title>{}: {count} matches with {range} {word}</title></rect>\n",
                left + k as f64 * bar + 1.0,
                base - h,
                (bar - 2.0).max(1.0),
                esc(&s.bot)
            ));
        }
    }
    let high = bins.low + bins.count as f64 * bins.width - 1.0;
    let axis_y = height - 6.0;
    out.push_str(&format!(
        "<text x=\"{left}\" y=\"{axis_y}\" font-size=\"11\">{:.0}</text><text x=\"{:.1}\" y=\"{axis_y}\" font-size=\"11\" text-anchor=\"end\">{high:.0} {word}</text></svg>\n",
        bins.low,
        left + width
    ));
    out
}

/// `text` with its first letter in capitals.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

fn faults_section(faults: &[ReportFault]) -> String {
    let mut out = String::from("<section id=\"faults\"><h2>Faults</h2>\n");
    if faults.is_empty() {
        out.push_str("<p>No faults.</p></section>\n");
        return out;
    }
    out.push_str("<table class=\"faults\"><tr><th class=\"name\">event</th><th class=\"name\">bot</th><th class=\"name\">verdict</th><th class=\"name\">at</th><th class=\"name\">message</th><th class=\"name\">see it again</th></tr>\n");
    for f in faults {
        out.push_str(&format!(
            "<tr><td class=\"name\">{}</td><td class=\"name\">{}</td><td class=\"name\">{}</td><td class=\"name\">{}</td><td class=\"name\">{}</td><td class=\"name\"><code>{}</code></td></tr>\n",
            esc(&f.event),
            esc(&f.bot),
            esc(&f.verdict),
            esc(&f.at),
            esc(&f.message),
            esc(&f.command)
        ));
    }
    out.push_str("</table></section>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_from_bots_cannot_become_markup() {
        assert_eq!(
            esc("<script>\"a\" & 'b'</script>"),
            "&lt;script&gt;&quot;a&quot; &amp; &#39;b&#39;&lt;/script&gt;"
        );
        let f = ReportFault {
            event: "e".into(),
            bot: "<b>.lua".into(),
            verdict: "crash".into(),
            at: "decision 1".into(),
            message: "<img src=x>".into(),
            command: "arena replay".into(),
        };
        let page = html("t", &[], &[f]);
        assert!(!page.contains("<img") && !page.contains("<b>"), "{page}");
    }
}
