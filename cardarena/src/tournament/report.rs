//! The HTML report of `arena tournament --html` and `arena grade --html`: one self-contained
//! file (inline CSS and SVG, no script, nothing fetched) built from the standings.
//!
//! Per event: the standings table, the win matrix as a heat map, the ratings with their 95%
//! intervals as a chart, a histogram per bot of its points per match; then the faults with their
//! messages and the commands that replay them.

use crate::tournament::grade::{ranking, shell_word, GradeRow, GradeSetup, Grades, Status};
use crate::tournament::standings::EventStandings;

/// One fault as the report lists it.
pub struct ReportFault {
    /// The event (empty in a grade's report, which has no event column).
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

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:75em}\
@media (max-width:40em){body{margin:.6em}}\
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:right;white-space:nowrap}\
th{background:#f3f3f3}td.name,th.name{text-align:left}.legend{color:#555;font-size:.9em}\
.heat td{width:3.5em;text-align:center}code{background:#f3f3f3;padding:.1em .3em}\
.scroll{overflow-x:auto;max-width:100%}.scroll table{margin:0}\
td.wrap{white-space:normal;overflow-wrap:anywhere;text-align:left;min-width:14em}\
td.wrap code{white-space:pre-wrap;word-break:break-all}\
h1,h2,p,li{overflow-wrap:anywhere}\
tr.reference td{background:#f6f6fb;color:#444}td.none{color:#999;text-align:center}\
@media (max-width:40em){table.faults tr{display:block;border-top:1px solid #ccc;padding:.4em 0}\
table.faults tr:first-child{display:none}table.faults td{display:block;border:none;padding:.1em .3em;min-width:0}\
table.faults td:first-child{font-weight:bold}\
table.faults td:nth-child(2),table.faults td:nth-child(3){display:inline-block}}\
.matrix td{text-align:center}.matrix th.name{position:sticky;left:0}.faults td{vertical-align:top}";

/// The page's head: title, viewport (a phone shows it at its own width), style.
fn head(title: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>{}</title><style>{STYLE}</style></head><body>\n<h1>{}</h1>\n",
        esc(title),
        esc(title)
    )
}

/// A bot's name for a label: a file bot's file name without its folder.
fn short(name: &str) -> String {
    std::path::Path::new(name)
        .file_name()
        .map_or_else(|| name.to_string(), |f| f.to_string_lossy().into_owned())
}

/// The whole report.
pub fn html(title: &str, events: &[EventStandings], faults: &[ReportFault]) -> String {
    let mut out = head(title);
    for (i, ev) in events.iter().enumerate() {
        out.push_str(&event_section(i, ev));
    }
    out.push_str(&faults_section(faults, ""));
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
    let points = crate::play::games::points_heading(ev.fewer_points_better);
    out.push_str(&format!("<div class=\"scroll\"><table class=\"standings\"><tr><th>rank</th><th class=\"name\">bot</th><th>rating (95% interval)</th><th>vs leader (95% interval)</th><th>matches</th><th>W-D-L</th><th>{points}</th><th class=\"name\">faults</th></tr>\n"));
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
        "</table></div>\n<p class=\"legend\">rating: Plackett–Luce on the Elo scale with its 95% interval; vs leader: rating minus the first's, with the interval of that difference; {points}: {}.</p>\n",
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
        "<h3>Wins of the row's bot against the column's</h3>\n<div class=\"scroll\"><table class=\"heat\"><tr><th></th>",
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
            out.push_str(&format!(
                "<td class=\"cell\" style=\"background:{}\" title=\"{:.0}%\">{won}</td>",
                shade(share),
                share * 100.0
            ));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table></div>\n");
    out
}

/// A cell's colour for a share of wins: red (0) through white (½) to green (1).
fn shade(share: f64) -> String {
    let (red, green) =
        if share < 0.5 { (255, (510.0 * share) as u8) } else { ((510.0 * (1.0 - share)) as u8, 255) };
    let blue = red.min(green);
    format!("rgb({red},{green},{blue})")
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
        "<h3>Ratings with their 95% intervals</h3>\n<div class=\"scroll\"><svg class=\"ratings\" width=\"{}\" height=\"{height}\">\n",
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
        "<text x=\"{left}\" y=\"{axis_y}\" font-size=\"11\">{lo:.0}</text><text x=\"{:.1}\" y=\"{axis_y}\" font-size=\"11\" text-anchor=\"end\">{hi:.0}</text></svg></div>\n",
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
    let word = crate::play::games::points_word(ev.fewer_points_better);
    let (left, width, row, gap) = (160.0, 480.0, 44.0, 8.0);
    let bar = width / bins.count as f64;
    let height = row * ev.standings.len() as f64 + 24.0;
    let mut out = format!(
        "<h3>{} per match, per bot</h3>\n<div class=\"scroll\"><svg class=\"histograms\" width=\"{}\" height=\"{height}\">\n",
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
        "<text x=\"{left}\" y=\"{axis_y}\" font-size=\"11\">{:.0}</text><text x=\"{:.1}\" y=\"{axis_y}\" font-size=\"11\" text-anchor=\"end\">{high:.0} {word}</text></svg></div>\n",
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

/// The faults, a row each; `intro` (HTML) says what the list holds; the event column only when
/// a fault names one (a tournament's, not a grade's).
fn faults_section(faults: &[ReportFault], intro: &str) -> String {
    let mut out = format!("<section id=\"faults\"><h2>Faults</h2>\n{intro}");
    if faults.is_empty() {
        out.push_str("<p>No faults.</p></section>\n");
        return out;
    }
    let events = faults.iter().any(|f| !f.event.is_empty());
    out.push_str("<div class=\"scroll\"><table class=\"faults\"><tr>");
    if events {
        out.push_str("<th class=\"name\">event</th>");
    }
    out.push_str("<th class=\"name\">bot</th><th class=\"name\">verdict</th><th class=\"name\">at</th><th class=\"name\">message</th><th class=\"name\">see it again</th></tr>\n");
    for f in faults {
        out.push_str("<tr>");
        if events {
            out.push_str(&format!("<td class=\"name\">{}</td>", esc(&f.event)));
        }
        let command =
            if f.command.is_empty() { String::new() } else { format!("<code>{}</code>", esc(&f.command)) };
        out.push_str(&format!(
            "<td class=\"name\">{}</td><td class=\"name\">{}</td><td class=\"name\">{}</td><td class=\"wrap\">{}</td><td class=\"wrap\">{command}</td></tr>\n",
            esc(&f.bot),
            esc(&f.verdict),
            esc(&f.at),
            esc(&f.message),
        ));
    }
    out.push_str("</table></div></section>\n");
    out
}

// ---- the grade report ------------------------------------------------------------------------

/// `n` as a percentage.
fn percent(share: f64) -> String {
    format!("{:.0}%", share * 100.0)
}

/// A table cell of wins, draws and losses, shaded by the score they make; `–` when none were
/// played (not `0`: nothing was lost).
fn results_cell((w, d, l): (u64, u64, u64), what: &str) -> String {
    let n = w + d + l;
    if n == 0 {
        return "<td class=\"none\" title=\"not played\">–</td>".into();
    }
    let share = (w as f64 + d as f64 / 2.0) / n as f64;
    // a lighter shade than the tournament's heat map: most cells of a class are far from even
    let share = 0.5 + (share - 0.5) * 0.6;
    format!(
        "<td class=\"cell\" style=\"background:{}\" title=\"{}: {w} won, {d} drawn, {l} lost of {n}\">{w}–{d}–{l}</td>",
        shade(share),
        esc(what)
    )
}

/// The HTML report of `arena grade --html`: the graded files ranked (and those that did not load,
/// last, with why), the reference bots apart, each file's results against each opponent, the
/// copies, the faults. `folder` is the graded folder as the user named it.
pub fn grade_html(title: &str, folder: &str, setup: &GradeSetup, grades: &Grades) -> String {
    let rows = &grades.rows;
    let order = ranking(rows);
    let mut out = head(title);
    let played_each =
        if setup.round_robin { ", and the other files on the same deals".to_string() } else { String::new() };
    out.push_str(&format!(
        "<p>{} files of <code>{}</code> graded in {} ({}). Each file played {} deals against each reference bot ({}), once from every seat{played_each}; seed {}.</p>\n",
        rows.len(),
        esc(folder),
        esc(setup.game.name()),
        esc(&setup.variant),
        setup.deals,
        esc(&setup.against.join(", ")),
        setup.seed
    ));
    // the ranking
    out.push_str("<section id=\"ranking\"><h2>Ranking</h2>\n<p class=\"how\">The files are ranked by their <b>score</b> against the reference bots: the share of those matches they won, a draw counting half. Every file played the same reference bots on the same deals, so the scores compare directly. The range after a score is where the file's true score lies with 95% confidence: files whose ranges overlap may be equally strong. Files that faulted (crashed, ran out of time or memory, replied illegally) in every match come after the others; files that did not load come last.</p>\n");
    out.push_str("<div class=\"scroll\"><table class=\"ranking\"><tr><th>rank</th><th class=\"name\">file</th><th>score (95% range)</th><th>matches</th><th>won</th><th>drawn</th><th>lost</th><th>matches with a fault</th><th class=\"name\">notes</th></tr>\n");
    let mut rank = 0;
    let mut last: Option<(Status, f64)> = None;
    for (place, &i) in order.iter().enumerate() {
        let r = &rows[i];
        let status = r.status();
        if status == Status::LoadError {
            out.push_str(&format!(
                "<tr class=\"not-loaded\"><td>–</td><td class=\"name\">{}</td><td class=\"wrap\" colspan=\"6\">did not load: {}</td><td class=\"wrap\">{}</td></tr>\n",
                esc(&r.file),
                esc(load_reason(r)),
                copies_note(r)
            ));
            continue;
        }
        let s = &r.stats;
        let (score, lo, hi) = s.score();
        // equal scores share a rank
        if last != Some((status, score)) {
            rank = place + 1;
            last = Some((status, score));
        }
        let mut notes = Vec::new();
        if status == Status::Faulted {
            let faults: Vec<String> = s.faults.iter().map(|(v, n)| format!("{v} {n} times")).collect();
            notes.push(format!("faulted in every match ({})", esc(&faults.join(", "))));
        }
        let copies = copies_note(r);
        if !copies.is_empty() {
            notes.push(copies);
        }
        out.push_str(&format!(
            "<tr class=\"graded\"><td>{rank}</td><td class=\"name\">{}</td><td>{} ({}–{})</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"wrap\">{}</td></tr>\n",
            esc(&r.file),
            percent(score),
            percent(lo),
            percent(hi),
            s.matches,
            s.wins,
            s.draws,
            s.losses,
            s.faulted_matches,
            notes.join("; ")
        ));
    }
    out.push_str("</table></div></section>\n");
    // the reference bots, apart
    out.push_str("<section id=\"references\"><h2>Reference bots (not ranked)</h2>\n<p class=\"how\">The built-in bots every file played. A reference bot wins every match a file loses by faulting, so its score here says more about the class than about the bot.</p>\n");
    out.push_str("<div class=\"scroll\"><table class=\"references\"><tr><th class=\"name\">bot</th><th>score</th><th>matches</th><th>won</th><th>drawn</th><th>lost</th></tr>\n");
    for (name, s) in setup.against.iter().zip(&grades.reference_stats) {
        let score = s.score().0;
        out.push_str(&format!(
            "<tr class=\"reference\"><td class=\"name\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
            esc(name),
            percent(score),
            s.matches,
            s.wins,
            s.draws,
            s.losses
        ));
    }
    out.push_str("</table></div></section>\n");
    out.push_str(&results_matrix(setup, grades, &order));
    out.push_str(&copies_section(rows));
    out.push_str(&faults_section(
        &grade_faults(rows, folder),
        "<p class=\"how\">Each file that did not load, with why, and each file that faulted, with its first fault: the first command plays that match again, <code>arena repro</code> reruns the fault's decisions (and tries a fix with <code>--bot FIXED.lua</code>).</p>\n",
    ));
    out.push_str("</body></html>\n");
    out
}

/// Why a file did not load, without the loader's `bot "FILE" cannot be loaded: ` before it.
fn load_reason(r: &GradeRow) -> &str {
    let e = r.load_error.as_deref().unwrap_or_default();
    e.strip_prefix(&format!("bot {:?} cannot be loaded: ", r.file)).unwrap_or(e)
}

/// A row's copies in words, or empty.
fn copies_note(r: &GradeRow) -> String {
    let mut notes = Vec::new();
    if !r.same_hash.is_empty() {
        notes.push(format!("the same file as {}", esc(&r.same_hash.join(", "))));
    }
    let replies: Vec<&String> = r.same_replies.iter().filter(|f| !r.same_hash.contains(f)).collect();
    if !replies.is_empty() {
        let names: Vec<&str> = replies.iter().map(|f| f.as_str()).collect();
        notes.push(format!("the same replies as {}", esc(&names.join(", "))));
    }
    notes.join("; ")
}

/// Each graded file's wins, draws and losses against each reference bot and (with a round
/// robin) each other file; `–` where they did not play.
fn results_matrix(setup: &GradeSetup, grades: &Grades, order: &[usize]) -> String {
    let rows = &grades.rows;
    // the graded entrant of each row (the rows that loaded, in file order)
    let mut entrant = vec![None; rows.len()];
    let mut next = 0;
    for (i, r) in rows.iter().enumerate() {
        if r.load_error.is_none() {
            entrant[i] = Some(next);
            next += 1;
        }
    }
    let mut out = String::from("<section id=\"results\"><h2>Results against each opponent</h2>\n<p class=\"how\">Won–drawn–lost of the row's file against the column's bot, greener the better; – where they did not play.");
    if setup.round_robin {
        out.push_str(" Against another file: the matches in which the row's file finished ahead of, level with and behind it.");
    } else {
        out.push_str(" The files did not play each other (grade with <code>--round-robin</code> for that).");
    }
    out.push_str("</p>\n<div class=\"scroll\"><table class=\"matrix\"><tr><th class=\"name\">file</th>");
    for a in &setup.against {
        out.push_str(&format!("<th class=\"reference\">{}</th>", esc(a)));
    }
    let others: Vec<usize> = if setup.round_robin { order.to_vec() } else { Vec::new() };
    for &j in &others {
        out.push_str(&format!("<th>{}</th>", esc(&rows[j].file)));
    }
    out.push_str("</tr>\n");
    for &i in order {
        let r = &rows[i];
        out.push_str(&format!("<tr><th class=\"name\">{}</th>", esc(&r.file)));
        for (k, a) in setup.against.iter().enumerate() {
            let cell = r.vs.get(k).copied().unwrap_or_default();
            out.push_str(&results_cell(cell, &format!("{} against {a}", r.file)));
        }
        for &j in &others {
            let cell = match (entrant[i], entrant[j]) {
                (Some(a), Some(b)) if a != b => grades.head_to_head[a][b],
                _ => (0, 0, 0),
            };
            out.push_str(&results_cell(cell, &format!("{} against {}", r.file, rows[j].file)));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table></div></section>\n");
    out
}

/// The pairs of files that are copies of each other.
fn copies_section(rows: &[GradeRow]) -> String {
    let mut out = String::from("<section id=\"copies\"><h2>Copies</h2>\n<p class=\"how\">Two files are listed when they are the same file (the same bytes under another name), or when they gave the same reply at every decision of every match: the same program with other comments, other names or its functions in another order. Files that replied alike in at least 90% of the matches are listed with that share. Each program draws its own random numbers, made from its code, so bots written apart do not reply alike even when they play at random. Read the files before you conclude.</p>\n");
    let mut items = Vec::new();
    for (i, a) in rows.iter().enumerate() {
        for b in &rows[i + 1..] {
            let how = if a.same_hash.contains(&b.file) {
                "the same file".to_string()
            } else if a.same_replies.contains(&b.file) {
                format!("the same reply at every decision of all {} matches", a.stats.matches)
            } else if let Some((_, n)) = a.mostly_same_replies.iter().find(|(f, _)| *f == b.file) {
                format!(
                    "the same replies in {n} of {} matches ({}): a near copy, or a simple strategy both wrote",
                    a.stats.matches,
                    percent(*n as f64 / a.stats.matches.max(1) as f64)
                )
            } else {
                continue;
            };
            items.push(format!("<li><b>{}</b> and <b>{}</b>: {how}</li>", esc(&a.file), esc(&b.file)));
        }
    }
    if items.is_empty() {
        out.push_str("<p>No copies found.</p>");
    } else {
        out.push_str(&format!("<ul class=\"copies\">{}</ul>", items.join("\n")));
    }
    out.push_str("</section>\n");
    out
}

/// The faults of the grade, a row per file: why it did not load, or its first fault with the
/// command that plays it again and its crash capsule.
fn grade_faults(rows: &[GradeRow], folder: &str) -> Vec<ReportFault> {
    rows.iter()
        .filter_map(|r| {
            let (at, verdict, message) = match (&r.load_error, &r.stats.first_fault) {
                (Some(_), _) => ("load".to_string(), "load".to_string(), load_reason(r).to_string()),
                (None, Some(f)) => (
                    f.decision.map(|d| format!("decision {d}")).unwrap_or_else(|| "start".into()),
                    f.verdict.name().to_string(),
                    format!(
                        "{} (first of its faults; faults in {} of its {} matches)",
                        f.message, r.stats.faulted_matches, r.stats.matches
                    ),
                ),
                (None, None) => return None,
            };
            // the replay runs in the graded folder, the capsule where the grade was run
            let mut lines: Vec<String> =
                r.replay.iter().map(|c| format!("(cd {} && {c})", shell_word(folder))).collect();
            if let Some(c) = &r.capsule {
                lines.push(format!("arena repro {}", shell_word(&c.display().to_string())));
            }
            let command = lines.join("\n");
            Some(ReportFault { event: String::new(), bot: r.file.clone(), verdict, at, message, command })
        })
        .collect()
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
