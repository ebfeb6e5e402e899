//! A leaderboard: the board's stored matches summed up by the tournament's standings (the same
//! rank order, Plackett–Luce ratings with 95% intervals, W/D/L, faults), each version of a bot
//! an entrant of its own; the rating-history chart and the win matrix drawn as SVG.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use super::config::Board;
use super::db::{Db, DbError, MatchRow};
use cardarena::play::limits::LimitsConfig;
use cardarena::play::runner::BotEntry;
use cardarena::tournament::config::{Event, Format};
use cardarena::tournament::schedule::MatchPlan;
use cardarena::tournament::standings::{self, EventStandings};
use cardarena::tournament::MatchSummary;

/// A board's standings and which version each entrant is.
pub struct Standings {
    /// The tournament's standings of the board's matches.
    pub event: EventStandings,
    /// Entrant label (`<bot>@v<N>.<lang>`, as in the replays) → version id.
    pub versions: BTreeMap<String, i64>,
}

/// The entrants, plans and summaries of a board's matches (entrants in order of first match).
fn inputs(rows: &[MatchRow]) -> (Vec<BotEntry>, Vec<i64>, Vec<MatchPlan>, Vec<MatchSummary>) {
    let mut entries = Vec::new();
    let mut ids: Vec<i64> = Vec::new();
    let mut plans = Vec::new();
    let mut summaries = Vec::new();
    for (deal, row) in rows.iter().enumerate() {
        let Ok(summary) = serde_json::from_str::<MatchSummary>(&row.summary) else { continue };
        if summary.bots.len() != row.seats.len() {
            continue;
        }
        let seats = row
            .seats
            .iter()
            .zip(&summary.bots)
            .map(|(&v, entry)| {
                ids.iter().position(|&i| i == v).unwrap_or_else(|| {
                    ids.push(v);
                    entries.push(entry.clone());
                    ids.len() - 1
                })
            })
            .collect();
        plans.push(MatchPlan { round: 0, deal: deal as u32, seed: row.seed, seats });
        summaries.push(summary);
    }
    (entries, ids, plans, summaries)
}

fn event(board: &Board) -> Event {
    Event {
        name: format!("{} {}", board.game.name(), board.variant),
        game: board.game.name().to_string(),
        variant: Some(board.variant.clone()),
        bots: Vec::new(),
        bot_paths: Vec::new(),
        format: Format::RoundRobin,
        champion: None,
        rounds: 0,
        deals: 0,
        seed: 0,
        duplicate: true,
        max_tables: 0,
        limits: LimitsConfig::default(),
    }
}

fn standings_of(board: &Board, rows: &[MatchRow]) -> Standings {
    let (entries, ids, plans, summaries) = inputs(rows);
    let event = standings::compute(&event(board), board.game, &board.variant, &entries, &plans, &summaries);
    let versions = entries.iter().zip(ids).map(|(e, id)| (e.name.clone(), id)).collect();
    Standings { event, versions }
}

/// The standings of a board from its stored matches.
///
/// # Errors
/// Database errors.
pub fn standings(db: &Db, board: &Board) -> Result<Standings, DbError> {
    Ok(standings_of(board, &db.board_matches(board.game.name(), &board.variant)?))
}

/// A board's standings with what the pages draw from them, as of one state of its matches.
pub struct Summed {
    /// The standings.
    pub standings: Standings,
    /// The win matrix ([`matrix_svg`]).
    pub matrix: String,
    /// Rating histories asked for so far ([`history`]), by entrant label and number of points.
    histories: Mutex<Histories>,
}

/// Rating histories by entrant label and number of points.
type Histories = BTreeMap<(String, usize), Arc<Vec<HistoryPoint>>>;

impl Summed {
    /// The rating history of `label` in up to `points` points, drawn once per state of the
    /// board.
    ///
    /// # Errors
    /// Database errors.
    pub fn history(
        &self,
        db: &Db,
        board: &Board,
        label: &str,
        points: usize,
    ) -> Result<Arc<Vec<HistoryPoint>>, DbError> {
        let key = (label.to_string(), points);
        if let Some(h) = self.histories.lock().unwrap_or_else(PoisonError::into_inner).get(&key) {
            return Ok(h.clone());
        }
        let h = Arc::new(history(db, board, label, points)?);
        self.histories.lock().unwrap_or_else(PoisonError::into_inner).insert(key, h.clone());
        Ok(h)
    }
}

/// One board's slot in the [`Cache`]: its generation (bumped when a result of the board is
/// taken in) and what was summed up at which generation.
#[derive(Default)]
struct Slot {
    generation: AtomicU64,
    summed: Mutex<Option<(u64, Arc<Summed>)>>,
}

/// Each board's standings and charts, summed up once and kept until the next result of that
/// board is taken in ([`Cache::invalidate`], called where results are stored): a leaderboard
/// view does not fit the ratings again. Requests that find a board out of date wait for one of
/// them to sum it up instead of all doing it at once.
#[derive(Default)]
pub struct Cache {
    slots: Mutex<BTreeMap<(String, String), Arc<Slot>>>,
}

impl Cache {
    fn slot(&self, game: &str, variant: &str) -> Arc<Slot> {
        let mut slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        slots.entry((game.to_string(), variant.to_string())).or_default().clone()
    }

    /// The board's standings and charts, summed up again only if a result came in since.
    ///
    /// # Errors
    /// Database errors.
    pub fn get(&self, db: &Db, board: &Board) -> Result<Arc<Summed>, DbError> {
        let slot = self.slot(board.game.name(), &board.variant);
        let mut summed = slot.summed.lock().unwrap_or_else(PoisonError::into_inner);
        // Read before the matches: a result taken in while they are summed up makes this
        // generation old, so what is summed now is used once and not kept.
        let generation = slot.generation.load(Ordering::SeqCst);
        if let Some((g, s)) = summed.as_ref() {
            if *g == generation {
                return Ok(s.clone());
            }
        }
        let standings = standings(db, board)?;
        let matrix = matrix_svg(&standings.event);
        let fresh = Arc::new(Summed { standings, matrix, histories: Mutex::default() });
        *summed = Some((generation, fresh.clone()));
        Ok(fresh)
    }

    /// Forgets what was summed up of the board `game`/`variant` (a result of it was stored).
    pub fn invalidate(&self, game: &str, variant: &str) {
        self.slot(game, variant).generation.fetch_add(1, Ordering::SeqCst);
    }
}

/// One point of a rating history: after `matches` matches of the board, the version's rating
/// and its 95% interval.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct HistoryPoint {
    /// Matches of the board so far.
    pub matches: usize,
    /// Rating.
    pub rating: f64,
    /// 95% interval, low end.
    pub low: f64,
    /// 95% interval, high end.
    pub high: f64,
}

/// The rating of entrant `label` after each of up to `points` evenly spaced prefixes of the
/// board's matches (the standings fitted again on each prefix).
///
/// # Errors
/// Database errors.
pub fn history(db: &Db, board: &Board, label: &str, points: usize) -> Result<Vec<HistoryPoint>, DbError> {
    let rows = db.board_matches(board.game.name(), &board.variant)?;
    let n = rows.len();
    let mut out = Vec::new();
    let mut last = 0;
    for k in 1..=points.max(1) {
        let end = n * k / points.max(1);
        if end == last || end == 0 {
            continue;
        }
        last = end;
        let s = standings_of(board, &rows[..end]);
        if let Some(row) = s.event.standings.iter().find(|r| r.bot == label) {
            out.push(HistoryPoint { matches: end, rating: row.rating, low: row.ci_low, high: row.ci_high });
        }
    }
    Ok(out)
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The rating history as an SVG line with its interval as a band (no script).
pub fn history_svg(points: &[HistoryPoint]) -> String {
    let (w, h, pad) = (480.0, 160.0, 30.0);
    if points.is_empty() {
        return format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" role=\"img\"><text x=\"10\" y=\"20\">no matches yet</text></svg>");
    }
    let lo = points.iter().map(|p| p.low).fold(f64::INFINITY, f64::min);
    let hi = points.iter().map(|p| p.high).fold(f64::NEG_INFINITY, f64::max);
    let span = (hi - lo).max(1.0);
    let max_x = points.last().map_or(1, |p| p.matches).max(1) as f64;
    let x = |m: usize| pad + (w - 2.0 * pad) * m as f64 / max_x;
    let y = |r: f64| h - pad - (h - 2.0 * pad) * (r - lo) / span;
    let line: Vec<String> =
        points.iter().map(|p| format!("{:.1},{:.1}", x(p.matches), y(p.rating))).collect();
    let band: Vec<String> = points
        .iter()
        .map(|p| format!("{:.1},{:.1}", x(p.matches), y(p.high)))
        .chain(points.iter().rev().map(|p| format!("{:.1},{:.1}", x(p.matches), y(p.low))))
        .collect();
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" role=\"img\" aria-label=\"rating history\">\
         <polygon points=\"{}\" fill=\"#cde\" stroke=\"none\"/>\
         <polyline points=\"{}\" fill=\"none\" stroke=\"#246\" stroke-width=\"2\"/>\
         <text x=\"2\" y=\"{:.0}\" font-size=\"10\">{:.0}</text><text x=\"2\" y=\"{:.0}\" font-size=\"10\">{:.0}</text>\
         <text x=\"{:.0}\" y=\"{:.0}\" font-size=\"10\" text-anchor=\"end\">{} matches</text></svg>",
        band.join(" "),
        line.join(" "),
        y(hi) + 10.0,
        hi,
        y(lo),
        lo,
        w - pad,
        h - 4.0,
        max_x
    )
}

/// The win matrix as an SVG grid: cell (row, column) is how often the row's bot finished ahead
/// of the column's, shaded by its share of their decided meetings.
pub fn matrix_svg(ev: &EventStandings) -> String {
    let n = ev.matrix_bots.len();
    let (cell, label) = (34.0, 130.0);
    let size = label + cell * n as f64 + 4.0;
    // The column names lean right (60° up): room for the last one's beyond the grid.
    let width = size + label * 0.5;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{size}\" role=\"img\" aria-label=\"win matrix\" font-size=\"11\">"
    );
    for (i, name) in ev.matrix_bots.iter().enumerate() {
        let pos = label + cell * i as f64;
        out += &format!(
            "<text x=\"{:.0}\" y=\"{:.0}\" text-anchor=\"end\">{}</text>",
            label - 4.0,
            pos + cell * 0.65,
            esc(name)
        );
        out += &format!(
            "<text transform=\"translate({:.0},{:.0}) rotate(-60)\">{}</text>",
            pos + cell * 0.5,
            label - 4.0,
            esc(name)
        );
        for j in 0..n {
            let (a, b) = (ev.matrix[i][j], ev.matrix[j][i]);
            let x = label + cell * j as f64;
            let fill = if i == j || a + b == 0 {
                "#eee".to_string()
            } else {
                let share = a as f64 / (a + b) as f64;
                format!("hsl({:.0},60%,{:.0}%)", 120.0 * share, 85.0 - 25.0 * (share - 0.5).abs())
            };
            out += &format!("<rect x=\"{x:.0}\" y=\"{pos:.0}\" width=\"{cell}\" height=\"{cell}\" fill=\"{fill}\" stroke=\"#fff\"/>");
            if i != j {
                out += &format!(
                    "<text x=\"{:.0}\" y=\"{:.0}\" text-anchor=\"middle\">{a}</text>",
                    x + cell / 2.0,
                    pos + cell * 0.62
                );
            }
        }
    }
    out + "</svg>"
}
