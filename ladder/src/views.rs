//! The pages' view models: what each page shows, as typed structs built from the database
//! (off the async threads) and handed to its template as they are. Handlers fetch one and
//! render it.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::board;
use crate::config::Board;
use crate::db::{BotRow, Db, DbError, MatchRow, User};
use crate::jobs::{label, Check, Jobs};
use cardarena::tournament::{fault_site, MatchResult, MatchSummary};

type Result<T> = std::result::Result<T, DbError>;

/// Whether `me` may read `bot`'s source: published, or theirs, or they are an admin.
pub fn can_read(me: Option<&User>, bot: &BotRow) -> bool {
    bot.published || me.is_some_and(|u| u.admin || u.id == bot.owner)
}

/// The replay viewer (HTML) of `replay`, saved as `name` and downloaded from `at`/replay.json,
/// with one seat's `analysis` as its strip; `None` when its frames cannot be made.
pub fn viewer(
    games: &cardarena::Games,
    replay: &cardarena::play::runner::Replay,
    name: &str,
    at: &str,
    analysis: Option<cardarena::analyse::Analysis>,
) -> Option<String> {
    let frames = games.frames(replay, name).ok()?;
    let options = cardarena::replay::viewer::ViewerOptions {
        replay_text: None,
        replay_url: Some(format!("{at}/replay.json")),
        verify_command: Some(format!("arena replay {name} --verify")),
        replay_name: Some(name.to_string()),
        analysis,
    };
    Some(cardarena::replay::viewer::fragment(&frames, &options))
}

/// A board as the pages link to it.
#[derive(Serialize)]
pub struct BoardLink {
    /// The game's name.
    pub game: String,
    /// The variant.
    pub variant: String,
}

/// A line of the front page: a board and how much it has.
#[derive(Serialize)]
pub struct BoardLine {
    /// The game's name.
    pub game: String,
    /// The variant.
    pub variant: String,
    /// Matches played on it.
    pub matches: usize,
    /// Bots playing it now.
    pub bots: usize,
}

/// The front page (`index.html`).
#[derive(Serialize)]
pub struct Index {
    /// Every board.
    pub boards: Vec<BoardLine>,
}

/// The front page of a ladder of `boards`.
///
/// # Errors
/// Database errors.
pub fn index(db: &Db, boards: &[Board]) -> Result<Index> {
    let boards = boards
        .iter()
        .map(|b| {
            Ok(BoardLine {
                game: b.game.name().to_string(),
                variant: b.variant.clone(),
                matches: db.board_matches(b.game.name(), &b.variant)?.len(),
                bots: db.players(b.game.name())?.len(),
            })
        })
        .collect::<Result<_>>()?;
    Ok(Index { boards })
}

/// A row of a leaderboard.
#[derive(Serialize)]
pub struct BoardRow {
    /// Place.
    pub rank: u32,
    /// The version's label (`<bot>@v<N>.<lang>`).
    pub label: String,
    /// The bot's id (its page).
    pub bot_id: i64,
    /// The owner's name.
    pub owner: String,
    /// Whether it is the bot's newest version (older ones are greyed).
    pub current: bool,
    /// Rating, and its 95% interval.
    pub rating: String,
    /// Low end.
    pub low: String,
    /// High end.
    pub high: String,
    /// Matches, wins, draws, losses.
    pub matches: u64,
    /// Wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// Share of its matches with a fault, as text.
    pub fault_rate: String,
}

/// A leaderboard (`board.html`).
#[derive(Serialize)]
pub struct BoardPage {
    /// The game's name.
    pub game: String,
    /// The variant.
    pub variant: String,
    /// Matches on it.
    pub matches: u64,
    /// What the ranking sorts by.
    pub ranked_by: &'static str,
    /// The rows, in rank order.
    pub rows: Vec<BoardRow>,
    /// The win matrix (SVG).
    pub matrix: String,
}

/// The leaderboard of `board` (its standings from the cache of `jobs`).
///
/// # Errors
/// Database errors.
pub fn board_page(db: &Db, jobs: &Jobs, board: &Board) -> Result<BoardPage> {
    let summed = jobs.boards().get(db, board)?;
    let s = &summed.standings;
    let current: Vec<i64> = db.players(board.game.name())?.iter().map(|(_, v)| v.id).collect();
    let mut rows = Vec::new();
    for r in &s.event.standings {
        let Some(&vid) = s.versions.get(&r.bot) else { continue };
        let Some(v) = db.version(vid)? else { continue };
        let Some(bot) = db.bot(v.bot)? else { continue };
        rows.push(BoardRow {
            rank: r.rank,
            label: r.bot.clone(),
            bot_id: bot.id,
            owner: bot.owner_name,
            current: current.contains(&vid),
            rating: format!("{:.0}", r.rating),
            low: format!("{:.0}", r.ci_low),
            high: format!("{:.0}", r.ci_high),
            matches: r.matches,
            wins: r.wins,
            draws: r.draws,
            losses: r.losses,
            fault_rate: if r.matches == 0 {
                "–".to_string()
            } else {
                format!("{:.1}%", 100.0 * r.faulted_matches as f64 / r.matches as f64)
            },
        });
    }
    Ok(BoardPage {
        game: board.game.name().to_string(),
        variant: board.variant.clone(),
        matches: s.event.matches,
        ranked_by: cardarena::tournament::standings::RANKED_BY,
        rows,
        matrix: summed.matrix.clone(),
    })
}

/// A version on its bot's page, with its validation checks.
#[derive(Serialize)]
pub struct VersionLine {
    /// 1, 2, ...
    pub number: i64,
    /// `lua`, `wasm`, `wat`.
    pub lang: String,
    /// `pending`, `ready`, `failed`.
    pub state: String,
    /// The file's SHA-256.
    pub hash: String,
    /// The validation's checks.
    pub checks: Vec<Check>,
}

/// A rating history chart of one board.
#[derive(Serialize)]
pub struct History {
    /// The board's variant.
    pub variant: String,
    /// The chart (SVG).
    pub svg: String,
}

/// A recent match on a bot page.
#[derive(Serialize)]
pub struct RecentMatch {
    /// The match's id.
    pub id: i64,
    /// The seats with their points.
    pub line: String,
    /// `win`, `draw` or `loss` for the bot, as the leaderboard counts it.
    pub result: Option<&'static str>,
    /// `game · variant`.
    pub board: String,
}

/// The faults of one kind at one place in the code, in the recent matches.
#[derive(Serialize)]
pub struct FaultGroup {
    /// The verdict.
    pub verdict: String,
    /// Where in the bot's code.
    pub site: String,
    /// How many times.
    pub count: u64,
    /// The first match it happened in.
    pub match_id: i64,
    /// The bot's seat there.
    pub seat: usize,
    /// Its message.
    pub message: String,
    /// The bot's language (the file name `arena repro` is given).
    pub lang: String,
    /// The crash capsule's file name.
    pub capsule_name: String,
}

/// The fuel a version used in the recent matches, and its limits.
#[derive(Serialize)]
pub struct Usage {
    /// The version's label.
    pub label: String,
    /// Metered decisions.
    pub decisions: u64,
    /// Mean fuel a decision.
    pub mean_fuel: u64,
    /// Most fuel of a decision.
    pub max_fuel: u64,
    /// The limit a decision.
    pub fuel_limit: u64,
    /// The memory limit, as text.
    pub memory_limit: String,
}

/// A bot's page (`bot.html`).
#[derive(Serialize)]
pub struct BotPage {
    /// The bot.
    pub bot: BotRow,
    /// Whether the visitor owns it.
    pub owner: bool,
    /// Whether the visitor may read its source.
    pub can_read: bool,
    /// The boards it plays on.
    pub leaderboards: Vec<BoardLink>,
    /// Its versions, newest first.
    pub versions: Vec<VersionLine>,
    /// The newest version's rating history on each board.
    pub histories: Vec<History>,
    /// Its recent matches.
    pub matches: Vec<RecentMatch>,
    /// Its faults in them.
    pub faults: Vec<FaultGroup>,
    /// Its fuel in them, by version.
    pub usage: Vec<Usage>,
}

/// The page of bot `id` as `me` sees it, on a ladder of `boards`; `None`: no such bot.
///
/// # Errors
/// Database errors.
pub fn bot_page(
    db: &Db,
    jobs: &Jobs,
    boards: &[Board],
    id: i64,
    me: Option<&User>,
) -> Result<Option<BotPage>> {
    let Some(bot) = db.bot(id)? else { return Ok(None) };
    let versions = db.versions(id)?;
    let ids: Vec<i64> = versions.iter().map(|v| v.id).collect();
    let labels: BTreeMap<i64, String> = versions.iter().map(|v| (v.id, label(&bot.name, v))).collect();
    let version_lines = versions
        .iter()
        .map(|v| VersionLine {
            number: v.number,
            lang: v.lang.clone(),
            state: v.state.clone(),
            hash: v.hash.clone(),
            checks: serde_json::from_str(&v.verdicts).unwrap_or_default(),
        })
        .collect();
    let mine: Vec<&Board> = boards.iter().filter(|b| b.game.name() == bot.game).collect();
    let mut histories = Vec::new();
    if let Some(newest) = versions.first() {
        for b in &mine {
            let h = jobs.boards().get(db, b)?.history(db, b, &labels[&newest.id], 12)?;
            if !h.is_empty() {
                histories.push(History { variant: b.variant.clone(), svg: board::history_svg(&h) });
            }
        }
    }
    let lang = versions.first().map_or("lua".to_string(), |v| v.lang.clone());
    let mut matches = Vec::new();
    let mut faults: Vec<FaultGroup> = Vec::new();
    // Per version: metered decisions, their fuel, the most of one, the fuel and memory limits.
    let mut usage: BTreeMap<i64, (u64, u64, u64, u64, u64)> = BTreeMap::new();
    for m in &db.matches_of(&ids, 30)? {
        if let Ok(s) = serde_json::from_str::<MatchSummary>(&m.summary) {
            matches.push(recent_match(m, &s, &ids));
        }
        let Some((_, blob)) = db.match_row(m.id)? else { continue };
        let Some(replay) = super::db::replay_of(&blob) else { continue };
        for (seat, vid) in m.seats.iter().enumerate() {
            if !ids.contains(vid) {
                continue;
            }
            let u = usage.entry(*vid).or_insert((0, 0, 0, 0, 0));
            for d in replay.decisions.iter().filter(|d| d.seat == seat) {
                if let Some(f) = d.fuel {
                    u.0 += 1;
                    u.1 += f;
                    u.2 = u.2.max(f);
                }
            }
            if let Some(Some(l)) = replay.limits.get(seat) {
                u.3 = l.fuel_per_decision;
                u.4 = l.memory_bytes;
            }
            for f in replay.faults.get(seat).into_iter().flatten() {
                let site = fault_site(&f.message, f.trace.as_deref());
                let verdict = f.verdict.name().to_string();
                match faults.iter_mut().find(|g| g.verdict == verdict && g.site == site) {
                    Some(g) => g.count += 1,
                    None => faults.push(FaultGroup {
                        verdict,
                        site,
                        count: 1,
                        match_id: m.id,
                        seat,
                        message: f.message.clone(),
                        lang: lang.clone(),
                        capsule_name: format!("match-{}-seat{seat}.json", m.id),
                    }),
                }
            }
        }
    }
    let usage = usage
        .iter()
        .map(|(vid, &(n, sum, max, fuel_limit, mem))| Usage {
            label: labels[vid].clone(),
            decisions: n,
            mean_fuel: sum.checked_div(n).unwrap_or(0),
            max_fuel: max,
            fuel_limit,
            memory_limit: format!("{} MiB", mem >> 20),
        })
        .collect();
    let leaderboards = mine
        .iter()
        .map(|b| BoardLink { game: b.game.name().to_string(), variant: b.variant.clone() })
        .collect();
    Ok(Some(BotPage {
        owner: me.is_some_and(|u| u.id == bot.owner),
        can_read: can_read(me, &bot),
        bot,
        leaderboards,
        versions: version_lines,
        histories,
        matches,
        faults,
        usage,
    }))
}

/// A line of a bot page's recent matches: the seats with their points, and the match's result
/// for the bot (its versions `ids`) as the leaderboard counts it (`win`, `draw`, `loss`).
fn recent_match(m: &MatchRow, s: &MatchSummary, ids: &[i64]) -> RecentMatch {
    let names: Vec<String> = s.bots.iter().zip(&s.points).map(|(b, p)| format!("{} {p}", b.name)).collect();
    let result = m
        .seats
        .iter()
        .position(|v| ids.contains(v))
        .filter(|&seat| seat < s.ranks.len())
        .map(|seat| MatchResult::of(&s.ranks, seat).name());
    RecentMatch { id: m.id, line: names.join(" · "), result, board: format!("{} · {}", m.game, m.variant) }
}

/// A seat of a match page.
#[derive(Serialize)]
pub struct SeatLine {
    /// The bot's name in the replay (`<bot>@v<N>.<lang>`, or a built-in's).
    pub name: String,
    /// Its file's SHA-256.
    pub hash: String,
    /// Its bot's page, when it is a ladder bot.
    pub bot_id: Option<i64>,
    /// Where to download the file that played, if the visitor may read it.
    pub file: Option<String>,
    /// Points.
    pub points: i64,
    /// Rank.
    pub rank: u32,
    /// Its faults' verdicts.
    pub faults: String,
}

/// A match page (`match.html`).
#[derive(Serialize)]
pub struct MatchPage {
    /// The match.
    pub m: MatchRow,
    /// Its seats.
    pub seats: Vec<SeatLine>,
    /// The replay viewer (HTML), unless the replay is damaged.
    pub viewer: Option<String>,
    /// The analyses of its seats, and the one shown in the viewer.
    pub analysis: crate::analysis::AnalysisPart,
}

/// The page of match `id` as `me` sees it, the viewer with seat `shown`'s analysis if done;
/// `None`: no such match.
///
/// # Errors
/// Database errors.
pub fn match_page(
    db: &Db,
    games: &cardarena::Games,
    id: i64,
    me: Option<&User>,
    shown: Option<usize>,
) -> Result<Option<MatchPage>> {
    let Some((m, blob)) = db.match_row(id)? else { return Ok(None) };
    let replay = super::db::replay_of(&blob);
    let names: Vec<String> =
        replay.as_ref().map(|r| r.bots.iter().map(|b| b.name.clone()).collect()).unwrap_or_default();
    let (analysis, shown_analysis) = crate::analysis::part(db, games, id, &m.game, &names, shown)?;
    let viewer = replay.and_then(|r| {
        viewer(games, &r, &format!("match-{id}.json"), &format!("/matches/{id}"), shown_analysis)
    });
    let mut seats = Vec::new();
    if let Ok(s) = serde_json::from_str::<MatchSummary>(&m.summary) {
        for (k, entry) in s.bots.iter().enumerate() {
            let version = match m.seats.get(k) {
                Some(&v) => db.version(v)?,
                None => None,
            };
            let bot = match &version {
                Some(v) => db.bot(v.bot)?,
                None => None,
            };
            // The file that played, where its owner published it (or to them and admins),
            // under the name the replay gives it.
            let file = match (&version, &bot) {
                (Some(v), Some(b)) if can_read(me, b) => {
                    Some(format!("/bots/{}/v/{}/source", b.id, v.number))
                }
                _ => None,
            };
            let faults: Vec<&str> = s.faults[k].iter().map(|v| v.name()).collect();
            seats.push(SeatLine {
                name: entry.name.clone(),
                hash: entry.hash.clone(),
                bot_id: bot.as_ref().map(|b| b.id),
                file,
                points: s.points[k],
                rank: s.ranks[k],
                faults: faults.join(", "),
            });
        }
    }
    Ok(Some(MatchPage { m, seats, viewer, analysis }))
}
