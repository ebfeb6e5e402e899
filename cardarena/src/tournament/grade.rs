//! Grading a class's bots: `arena grade` and the web ladder's class mode compute their table
//! and CSV here, one way for both.
//!
//! The graded bots (entrants `0..graded`) play duplicate deals against reference bots (the
//! entrants after them): deal `d` has the seed `deal_seed(seed, d)` and is played once per seat
//! rotation ([`plans_against`]); with a round robin they also play each other on the same deals
//! ([`GradeSetup::plans`]). Whoever plays the matches (threads of `arena grade`, the ladder's
//! worker processes) reduces each to a [`Played`] ([`Played::of`] its replay); [`grade`] turns
//! them, in plan order, into one [`GradeRow`] per graded file, [`grade_csv`] and
//! [`grade_table`] write them. The result depends only on the setup, the bots and the matches.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::bots::bot::{content_hash, Verdict};
use crate::play::limits::LimitsConfig;
use crate::play::runner::{BotEntry, FaultRecord, Replay};
use crate::tournament::config::{Event, Format};
use crate::tournament::schedule::{deal_seed, MatchPlan};
use crate::tournament::standings::{self, match_score, EventStandings};
use crate::tournament::{MatchResult, MatchSummary};

/// What a grade plays: the game, the reference bots, the deals and whether the graded bots
/// also play each other.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GradeSetup {
    /// The game.
    pub game: crate::play::GameId,
    /// The variant's name.
    pub variant: String,
    /// Seats at a table.
    pub players: usize,
    /// The reference bots (built-in names) every graded bot plays.
    pub against: Vec<String>,
    /// Deals per reference bot (and per pairing of the round robin).
    pub deals: u32,
    /// Seed of the deals.
    pub seed: u64,
    /// Whether the graded bots also play each other (a round robin on the same deals; in
    /// Intensity at most 35 tables of four).
    pub round_robin: bool,
}

impl GradeSetup {
    /// Every match of a grade of `graded` bots, in the order their results are read: first
    /// against the references ([`plans_against`]; the references are entrants
    /// `graded..graded + against.len()`), then the round robin. Returns the plans and how many
    /// of them are against the references.
    pub fn plans(&self, graded: usize) -> (Vec<MatchPlan>, usize) {
        let mut plans = plans_against(
            &(0..graded).collect::<Vec<_>>(),
            &(graded..graded + self.against.len()).collect::<Vec<_>>(),
            self.players,
            self.deals,
            self.seed,
        );
        let against_refs = plans.len();
        if self.round_robin {
            // the graded bots are entrants 0..graded: a round robin of them on the same deals
            let names: Vec<String> = (0..graded).map(|i| i.to_string()).collect();
            let mut rr = event_for(self.game.name(), "grade", &names);
            (rr.format, rr.deals, rr.seed, rr.max_tables) = (Format::RoundRobin, self.deals, self.seed, 35);
            plans.extend(crate::tournament::schedule::plan(&rr, self.players));
        }
        (plans, against_refs)
    }
}

/// A grade's result: a row per graded file, the references' ratings, the standings they come
/// from.
#[derive(Clone, Debug)]
pub struct Grades {
    /// One row per graded file, in the order given.
    pub rows: Vec<GradeRow>,
    /// Each reference bot's rating with its 95% interval: `(name, rating, low, high)`.
    pub references: Vec<(String, f64, f64, f64)>,
    /// The standings of every entrant over every match (ratings and intervals).
    pub table: EventStandings,
    /// What each reference bot did against the graded bots, in `--against` order (a reference
    /// wins the matches a graded bot forfeits by its faults).
    pub reference_stats: Vec<Stats>,
    /// With a round robin, `head_to_head[i][j]` (graded entrants): the matches in which `i`
    /// finished ahead of, level with and behind `j` at the same table. Empty without one.
    pub head_to_head: Vec<Vec<(u64, u64, u64)>>,
}

/// Grades the graded files `rows` (`row_entrant[i]`: the entrant of row `i`, `None` for a file
/// that did not load) from the `played` matches of `setup.plans(graded)`, in plan order.
/// `entries`: the graded entrants, then the references, as [`GradeSetup::plans`] numbers them.
/// `replay_flags` ends the command that replays a first fault (limit flags, or empty).
/// The capsule of each row is left for the caller (it writes files).
pub fn grade(
    setup: &GradeSetup,
    mut rows: Vec<GradeRow>,
    row_entrant: &[Option<usize>],
    entries: &[BotEntry],
    played: &[Played],
    against_refs: usize,
    replay_flags: &str,
) -> Grades {
    let game = setup.game;
    let graded = entries.len() - setup.against.len();
    let names: Vec<String> = entries.iter().map(|e| e.name.clone()).collect();
    let mut stats = vec![Stats::default(); graded];
    let mut vs = vec![vec![Stats::default(); setup.against.len()]; graded];
    let mut rr = vec![Stats::default(); graded];
    let mut reference_stats = vec![Stats::default(); setup.against.len()];
    for p in &played[..against_refs] {
        let (seat, &e) = p.plan.seats.iter().enumerate().find(|(_, &e)| e < graded).expect("a graded bot");
        stats[e].add(game, p, seat, &names);
        let (ref_seat, opp) =
            p.plan.seats.iter().copied().enumerate().find(|&(_, o)| o >= graded).expect("a reference bot");
        vs[e][opp - graded].add(game, p, seat, &names);
        reference_stats[opp - graded].add(game, p, ref_seat, &names);
    }
    let mut head_to_head = if setup.round_robin { vec![vec![(0, 0, 0); graded]; graded] } else { Vec::new() };
    for p in &played[against_refs..] {
        let seats = &p.plan.seats;
        for (seat, &e) in seats.iter().enumerate() {
            rr[e].add(game, p, seat, &names);
            for (other, &o) in seats.iter().enumerate() {
                if o != e {
                    let cell = &mut head_to_head[e][o];
                    match p.summary.ranks[seat].cmp(&p.summary.ranks[other]) {
                        std::cmp::Ordering::Less => cell.0 += 1,
                        std::cmp::Ordering::Equal => cell.1 += 1,
                        std::cmp::Ordering::Greater => cell.2 += 1,
                    }
                }
            }
        }
    }
    let event = event_for(game.name(), "grade", &names);
    let plans: Vec<MatchPlan> = played.iter().map(|p| p.plan.clone()).collect();
    let summaries: Vec<MatchSummary> = played.iter().map(|p| p.summary.clone()).collect();
    let table: EventStandings = standings::compute(&event, game, &setup.variant, entries, &plans, &summaries);
    for (row, entrant) in rows.iter_mut().zip(row_entrant) {
        if let Some(e) = *entrant {
            row.stats = stats[e].clone();
            row.rr = rr[e].clone();
            row.rating =
                table.standings.iter().find(|s| s.bot == names[e]).map(|s| (s.rating, s.ci_low, s.ci_high));
            row.vs = vs[e].iter().map(|s| (s.wins, s.draws, s.losses)).collect();
            row.replay = row.stats.first_fault.as_ref().map(|f| {
                format!(
                    "arena play --game {game} --variant {} --seed {} --bots {}{replay_flags}",
                    setup.variant,
                    f.seed,
                    shell_word(&f.seat_names.join(",")),
                )
            });
        }
    }
    mark_copies(&mut rows);
    let references = setup
        .against
        .iter()
        .filter_map(|r| {
            table.standings.iter().find(|s| &s.bot == r).map(|s| (r.clone(), s.rating, s.ci_low, s.ci_high))
        })
        .collect();
    Grades { rows, references, table, reference_stats, head_to_head }
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

impl Played {
    /// The match of `plan` reduced from its replay; `memory` (per seat, if measured) and
    /// `unknown_fields` (per seat, the observation fields read that did not exist) are not in a
    /// replay: empty when the player did not measure them.
    pub fn of(
        plan: &MatchPlan,
        replay: &Replay,
        memory: Vec<Option<u64>>,
        unknown_fields: Vec<BTreeMap<String, u64>>,
    ) -> Played {
        let n = replay.bots.len();
        let mut fuel = vec![Vec::new(); n];
        let mut replies = vec![String::new(); n];
        for d in &replay.decisions {
            if let Some(f) = d.fuel {
                fuel[d.seat].push(f);
            }
            let verdict = d.fault.as_ref().map_or("", |f| f.verdict.name());
            replies[d.seat].push_str(&format!("{:?} {verdict}\n", d.reply));
        }
        Played {
            plan: plan.clone(),
            summary: MatchSummary::of(replay),
            fuel,
            memory: if memory.is_empty() { vec![None; n] } else { memory },
            faults: replay.faults.clone(),
            replies: replies.iter().map(|r| content_hash(r.as_bytes())).collect(),
            unknown_fields: if unknown_fields.is_empty() { vec![BTreeMap::new(); n] } else { unknown_fields },
        }
    }
}

/// One match, reduced to what the reports need.
#[derive(Clone, Debug)]
pub struct Played {
    pub plan: MatchPlan,
    pub summary: MatchSummary,
    /// Fuel of every metered decision, per seat.
    pub fuel: Vec<Vec<u64>>,
    /// Peak memory per seat (sandboxed bots).
    pub memory: Vec<Option<u64>>,
    /// Faults per seat.
    pub faults: Vec<Vec<FaultRecord>>,
    /// Per seat, a digest of every reply the seat gave (copies of a bot give the same).
    pub replies: Vec<String>,
    /// Per seat, the observation fields read that did not exist: key -> decisions that read it.
    pub unknown_fields: Vec<BTreeMap<String, u64>>,
}

/// The matches of `candidates` against each of `opponents` (entrant indices): per deal, per
/// candidate, per opponent, every seat rotation of the table (candidate, opponent × the rest).
pub fn plans_against(
    candidates: &[usize],
    opponents: &[usize],
    players: usize,
    deals: u32,
    seed: u64,
) -> Vec<MatchPlan> {
    let mut out = Vec::new();
    for deal in 0..deals {
        let seed = deal_seed(seed, deal);
        for &c in candidates {
            for &o in opponents {
                let table: Vec<usize> =
                    std::iter::once(c).chain(std::iter::repeat_n(o, players - 1)).collect();
                for r in 0..players {
                    let seats = (0..players).map(|s| table[(s + players - r) % players]).collect();
                    out.push(MatchPlan { round: 0, deal, seed, seats });
                }
            }
        }
    }
    out
}

/// The first fault of a bot, with what reproduces it.
#[derive(Clone, Debug)]
pub struct FirstFault {
    pub verdict: Verdict,
    pub message: String,
    pub seed: u64,
    pub seat: usize,
    pub decision: Option<usize>,
    pub seat_names: Vec<String>,
    /// The match it happened in (played again for its crash capsule).
    pub plan: MatchPlan,
}

/// What one bot did against one group of opponents.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub matches: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub points: f64,
    /// Score per deal (mean over its rotations), in deal order.
    pub deal_scores: BTreeMap<u32, (f64, u32)>,
    pub faults: BTreeMap<Verdict, u64>,
    /// Matches with at least one fault of this bot.
    pub faulted_matches: u64,
    pub first_fault: Option<FirstFault>,
    pub fuel: Vec<u64>,
    pub fuel_match_max: u64,
    pub memory_peak: Option<u64>,
    /// The reply digest of every match, in plan order.
    pub replies: Vec<String>,
    /// Observation fields read that did not exist: key -> decisions that read it.
    pub unknown_fields: BTreeMap<String, u64>,
}

impl Stats {
    pub fn add(&mut self, game: crate::play::GameId, p: &Played, seat: usize, names: &[String]) {
        let s = &p.summary;
        self.matches += 1;
        self.points += standings::game_points(game, s, seat);
        match MatchResult::of(&s.ranks, seat) {
            MatchResult::Win => self.wins += 1,
            MatchResult::Draw => self.draws += 1,
            MatchResult::Loss => self.losses += 1,
        }
        let e = self.deal_scores.entry(p.plan.deal).or_insert((0.0, 0));
        e.0 += match_score(&s.ranks, seat);
        e.1 += 1;
        if !p.faults[seat].is_empty() {
            self.faulted_matches += 1;
        }
        for f in &p.faults[seat] {
            *self.faults.entry(f.verdict).or_insert(0) += 1;
            if self.first_fault.is_none() {
                self.first_fault = Some(FirstFault {
                    verdict: f.verdict,
                    message: f.message.clone(),
                    seed: p.plan.seed,
                    seat,
                    decision: f.decision,
                    seat_names: p.plan.seats.iter().map(|&e| names[e].clone()).collect(),
                    plan: p.plan.clone(),
                });
            }
        }
        self.fuel.extend(&p.fuel[seat]);
        self.replies.push(p.replies[seat].clone());
        for (k, n) in &p.unknown_fields[seat] {
            *self.unknown_fields.entry(k.clone()).or_insert(0) += n;
        }
        self.fuel_match_max = self.fuel_match_max.max(p.fuel[seat].iter().sum());
        if let Some(m) = p.memory[seat] {
            self.memory_peak = Some(self.memory_peak.unwrap_or(0).max(m));
        }
    }

    /// Mean score and its 95% interval (`ratings::score_ci95`), from the per-deal means
    /// (the rotations of one deal are not independent; deals are).
    pub fn score(&self) -> (f64, f64, f64) {
        let xs: Vec<f64> = self.deal_scores.values().map(|(s, n)| s / f64::from(*n)).collect();
        crate::stats::ratings::score_ci95(&xs).unwrap_or((0.0, 0.0, 1.0))
    }

    pub fn fault_total(&self) -> u64 {
        self.faults.values().sum()
    }

    /// The report's memory line: the peak against `limit_bytes` when known (`arena check`, the
    /// garage's check).
    pub fn memory_text(&self, limit_bytes: Option<u64>) -> String {
        match (self.memory_peak, limit_bytes) {
            (Some(m), Some(limit)) => format!(
                "memory peak: {} of {} ({:.1}% of the limit)",
                size_text(m),
                size_text(limit),
                100.0 * m as f64 / limit.max(1) as f64
            ),
            (Some(m), None) => format!("memory peak: {}", size_text(m)),
            (None, _) => "memory peak: not measured (the bot never started)".to_string(),
        }
    }

    /// `(mean, p99, max)` fuel per decision, if any decision was metered.
    pub fn fuel_stats(&self) -> Option<(f64, u64, u64)> {
        if self.fuel.is_empty() {
            return None;
        }
        let mut sorted = self.fuel.clone();
        sorted.sort_unstable();
        let n = sorted.len();
        let mean = sorted.iter().map(|&f| f as f64).sum::<f64>() / n as f64;
        let p99 = sorted[(n * 99).div_ceil(100).max(1) - 1];
        Some((mean, p99, sorted[n - 1]))
    }

    pub fn merge(&mut self, other: &Stats) {
        self.matches += other.matches;
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        self.points += other.points;
        self.faulted_matches += other.faulted_matches;
        for (k, v) in &other.faults {
            *self.faults.entry(*k).or_insert(0) += v;
        }
        if self.first_fault.is_none() {
            self.first_fault = other.first_fault.clone();
        }
        // deals of different opponents are different samples: key them apart
        let base = self.deal_scores.len() as u32;
        for (i, v) in other.deal_scores.values().enumerate() {
            self.deal_scores.insert(base + i as u32, *v);
        }
        self.fuel.extend(&other.fuel);
        for (k, n) in &other.unknown_fields {
            *self.unknown_fields.entry(k.clone()).or_insert(0) += n;
        }
        self.fuel_match_max = self.fuel_match_max.max(other.fuel_match_max);
        self.memory_peak = match (self.memory_peak, other.memory_peak) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
    }
}

pub fn faults_text(stats: &Stats) -> String {
    if stats.faults.is_empty() {
        "-".into()
    } else {
        stats.faults.iter().map(|(k, v)| format!("{k}:{v}")).collect::<Vec<_>>().join(" ")
    }
}

pub fn event_for(game: &str, name: &str, bots: &[String]) -> Event {
    Event {
        name: name.to_string(),
        game: game.to_string(),
        variant: None,
        bots: bots.to_vec(),
        bot_paths: bots.to_vec(),
        format: Format::Gauntlet,
        champion: None,
        rounds: 1,
        deals: 0,
        seed: 0,
        duplicate: true,
        max_tables: u32::MAX,
        limits: LimitsConfig::default(),
    }
}

/// One graded file.
#[derive(Clone, Debug)]
pub struct GradeRow {
    pub file: String,
    pub hash: String,
    /// `None` when loaded; else why not.
    pub load_error: Option<String>,
    pub stats: Stats,
    pub rating: Option<(f64, f64, f64)>,
    /// Wins, draws and losses against each reference bot, in `--against` order.
    pub vs: Vec<(u64, u64, u64)>,
    /// Other files with the same content hash.
    pub same_hash: Vec<String>,
    /// Other files that gave the same reply at every decision of their graded matches.
    pub same_replies: Vec<String>,
    /// Other files that gave the same replies as this one in most of the graded matches (at
    /// least [`MOSTLY_SAME`] of them) but not all, with in how many: a near copy, or a program
    /// alike by chance (a simple strategy written twice).
    pub mostly_same_replies: Vec<(String, u64)>,
    /// The command that plays the match of the first fault again (run in the folder of bots).
    pub replay: Option<String>,
    /// The crash capsule of the first fault (`arena repro` reruns it).
    pub capsule: Option<PathBuf>,
    /// With `--round-robin`: what it did against the other graded bots.
    pub rr: Stats,
}

/// What became of a graded file, for the CSV's `status` and the report's ranking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// It played, with at most some of its matches faulted.
    Ok,
    /// It faulted in every match it played (it scores only what its opponents' faults give).
    Faulted,
    /// It did not load, so it played nothing.
    LoadError,
}

impl GradeRow {
    /// Whether it loaded, and whether it faulted in every match.
    pub fn status(&self) -> Status {
        if self.load_error.is_some() {
            Status::LoadError
        } else if self.stats.matches > 0 && self.stats.faulted_matches == self.stats.matches {
            Status::Faulted
        } else {
            Status::Ok
        }
    }

    /// The CSV's `status`: `ok`, `faulted` (in every match) or `load error: <why>`.
    pub fn status_text(&self) -> String {
        match (self.status(), &self.load_error) {
            (Status::Ok, _) => "ok".into(),
            (Status::Faulted, _) => "faulted".into(),
            (Status::LoadError, e) => format!("load error: {}", e.as_deref().unwrap_or_default()),
        }
    }

    /// A file's row before its matches are counted.
    pub fn new(file: String, hash: String, load_error: Option<String>) -> GradeRow {
        GradeRow {
            file,
            hash,
            load_error,
            stats: Stats::default(),
            rating: None,
            vs: Vec::new(),
            same_hash: Vec::new(),
            same_replies: Vec::new(),
            mostly_same_replies: Vec::new(),
            replay: None,
            capsule: None,
            rr: Stats::default(),
        }
    }
}

/// The share of the graded matches in which two files must have replied alike to be listed in
/// [`GradeRow::mostly_same_replies`].
pub const MOSTLY_SAME: f64 = 0.9;

/// Fills in which files are copies of which: the same bytes, or the same reply at every
/// decision of the graded matches (a copy under another name, with other comments, names or
/// order of functions: such a copy also draws the same random numbers, docs/sandbox.md), and
/// which reply alike in most matches.
pub fn mark_copies(rows: &mut [GradeRow]) {
    for i in 0..rows.len() {
        let (mut hash, mut replies, mut mostly) = (Vec::new(), Vec::new(), Vec::new());
        for j in 0..rows.len() {
            if i == j {
                continue;
            }
            if !rows[i].hash.is_empty() && rows[i].hash == rows[j].hash {
                hash.push(rows[j].file.clone());
            }
            // bots that faulted in every match are not compared: two programs that both fail
            // at their first decision reply alike without being alike
            let played = |r: &GradeRow| r.status() == Status::Ok && !r.stats.replies.is_empty();
            let (a, b) = (&rows[i].stats.replies, &rows[j].stats.replies);
            if !played(&rows[i]) || !played(&rows[j]) || a.len() != b.len() {
                continue;
            }
            let same = a.iter().zip(b).filter(|(x, y)| x == y).count() as u64;
            if same == a.len() as u64 {
                replies.push(rows[j].file.clone());
            } else if same as f64 >= MOSTLY_SAME * a.len() as f64 {
                mostly.push((rows[j].file.clone(), same));
            }
        }
        rows[i].same_hash = hash;
        rows[i].same_replies = replies;
        rows[i].mostly_same_replies = mostly;
    }
}

/// The order of the report's ranking, as indices into `rows`: the files that played, by their
/// score against the reference bots (the same opponents on the same deals for every file),
/// highest first, then those that faulted in every match, then those that did not load; ties
/// in file order.
pub fn ranking(rows: &[GradeRow]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|&a, &b| {
        let (ra, rb) = (&rows[a], &rows[b]);
        ra.status().cmp(&rb.status()).then_with(|| rb.stats.score().0.total_cmp(&ra.stats.score().0))
    });
    order
}

pub fn grade_csv(rows: &[GradeRow], against: &[String], round_robin: bool) -> String {
    let mut out = String::from("file,hash,status,matches,points,wins,draws,losses,score,score_low,score_high,rating,rating_low,rating_high");
    for v in Verdict::ALL {
        out.push_str(&format!(",faults_{v}"));
    }
    out.push_str(",fuel_mean,fuel_p99,fuel_max,memory_peak");
    for a in against {
        let a = csv_field(a);
        out.push_str(&format!(",vs_{a}_wins,vs_{a}_draws,vs_{a}_losses"));
    }
    out.push_str(
        ",first_fault_verdict,first_fault_decision,first_fault_message,replay_command,first_fault_capsule,same_hash_as,same_replies_as,mostly_same_replies_as",
    );
    if round_robin {
        out.push_str(",rr_matches,rr_wins,rr_draws,rr_losses,rr_score,rr_score_low,rr_score_high");
    }
    out.push('\n');
    // the round robin's columns, or as many empty ones
    let rr = |r: &GradeRow| -> String {
        match (round_robin, r.load_error.is_some() || r.rr.matches == 0) {
            (false, _) => String::new(),
            (true, true) => ",".repeat(7),
            (true, false) => {
                let s = &r.rr;
                let (score, lo, hi) = s.score();
                format!(",{},{},{},{},{score:.4},{lo:.4},{hi:.4}", s.matches, s.wins, s.draws, s.losses)
            }
        }
    };
    // lists of files in one cell: `;` between them (a file name may hold spaces and commas)
    let copies = |r: &GradeRow| {
        let mostly: Vec<String> =
            r.mostly_same_replies.iter().map(|(f, n)| format!("{f} ({n} of {})", r.stats.matches)).collect();
        let lists = [r.same_hash.join(";"), r.same_replies.join(";"), mostly.join(";")];
        lists.map(|l| csv_field(&l)).join(",")
    };
    for r in rows {
        out.push_str(&format!("{},{},{}", csv_field(&r.file), r.hash, csv_field(&r.status_text())));
        if r.load_error.is_some() {
            out.push_str(&",".repeat(11 + Verdict::ALL.len() + 4 + 3 * against.len() + 5));
            out.push_str(&format!(",{}{}\n", copies(r), rr(r)));
            continue;
        }
        let s = &r.stats;
        let (score, lo, hi) = s.score();
        let (rating, rlo, rhi) = r.rating.unwrap_or((0.0, 0.0, 0.0));
        out.push_str(&format!(
            ",{},{:.1},{},{},{},{score:.4},{lo:.4},{hi:.4},{rating:.1},{rlo:.1},{rhi:.1}",
            s.matches, s.points, s.wins, s.draws, s.losses
        ));
        for v in Verdict::ALL {
            out.push_str(&format!(",{}", s.faults.get(&v).copied().unwrap_or(0)));
        }
        match s.fuel_stats() {
            Some((mean, p99, max)) => out.push_str(&format!(",{mean:.1},{p99},{max}")),
            None => out.push_str(",,,"),
        }
        out.push_str(&format!(",{}", s.memory_peak.map(|m| m.to_string()).unwrap_or_default()));
        for i in 0..against.len() {
            let (w, d, l) = r.vs.get(i).copied().unwrap_or_default();
            out.push_str(&format!(",{w},{d},{l}"));
        }
        match &s.first_fault {
            Some(f) => out.push_str(&format!(
                ",{},{},{},{},{}",
                f.verdict,
                f.decision.map(|d| d.to_string()).unwrap_or_else(|| "init".into()),
                csv_field(&f.message),
                csv_field(r.replay.as_deref().unwrap_or_default()),
                csv_field(&r.capsule.as_ref().map(|c| c.display().to_string()).unwrap_or_default())
            )),
            None => out.push_str(",,,,,"),
        }
        out.push_str(&format!(",{}{}\n", copies(r), rr(r)));
    }
    out
}

pub fn grade_table(setup: &GradeSetup, bots: &str, grades: &Grades) -> String {
    let (game, variant, rows) = (setup.game.name(), setup.variant.as_str(), grades.rows.as_slice());
    let mut out = format!(
        "grade {bots} ({game} {variant}) against {}, {} deals each, seed {}\n",
        setup.against.join(","),
        setup.deals,
        setup.seed
    );
    let width = rows.iter().map(|r| r.file.len()).max().unwrap_or(4).clamp(4, 40);
    out.push_str(&format!(
        "{:<width$}  {:<12}  {:>7}  {:>9}  {:>19}  {:>18}  {:>22}  faults\n",
        "file",
        "hash",
        "matches",
        setup.game.points_heading(),
        "score (95% CI)",
        "rating (95% CI)",
        "fuel mean/p99/max"
    ));
    for r in rows {
        if let Some(e) = &r.load_error {
            let hash = crate::play::runner::prefix(&r.hash, 12);
            out.push_str(&format!("{:<width$}  {hash:<12}  LOAD ERROR: {e}\n", r.file));
            continue;
        }
        let s = &r.stats;
        let (score, lo, hi) = s.score();
        let (rating, rlo, rhi) = r.rating.unwrap_or((0.0, 0.0, 0.0));
        let fuel = s.fuel_stats().map(|(m, p, x)| format!("{m:.0}/{p}/{x}")).unwrap_or_else(|| "-".into());
        out.push_str(&format!(
            "{:<width$}  {:<12}  {:>7}  {:>9.1}  {score:>5.3} ({lo:.3}..{hi:.3})  {rating:>5.0} ({rlo:>4.0}..{rhi:<4.0})  {fuel:>22}  {}\n",
            r.file,
            &r.hash[..12],
            s.matches,
            s.points,
            faults_text(s) + if r.status() == Status::Faulted { " (a fault in every match)" } else { "" }
        ));
    }
    for (name, rating, lo, hi) in &grades.references {
        out.push_str(&format!("reference {name}: rating {rating:.0} ({lo:.0}..{hi:.0})\n"));
    }
    if setup.round_robin {
        out.push_str(
            "round robin of the graded bots (W-D-L, score with its 95% CI; the ratings above include it):\n",
        );
        for r in rows.iter().filter(|r| r.load_error.is_none() && r.rr.matches > 0) {
            let s = &r.rr;
            let (score, lo, hi) = s.score();
            out.push_str(&format!(
                "  {:<width$}  {:>13}  {score:.3} ({lo:.3}..{hi:.3})  {}\n",
                r.file,
                format!("{}-{}-{}", s.wins, s.draws, s.losses),
                faults_text(s)
            ));
        }
    }
    for r in rows {
        if let Some(f) = &r.stats.first_fault {
            let at = f.decision.map(|d| format!("decision #{d}")).unwrap_or_else(|| "start (init)".into());
            out.push_str(&format!("{}: first fault {} at {at}: {}\n", r.file, f.verdict, f.message));
            if let Some(cmd) = &r.replay {
                out.push_str(&format!("  replay it (in {bots}): {cmd}\n"));
            }
            if let Some(c) = &r.capsule {
                out.push_str(&format!("  crash capsule: {} (arena repro to rerun)\n", c.display()));
            }
        }
        if !r.same_hash.is_empty() {
            out.push_str(&format!("{}: the same file as {}\n", r.file, r.same_hash.join(", ")));
        } else if !r.same_replies.is_empty() {
            out.push_str(&format!(
                "{}: the same reply as {} at every decision (a copy?)\n",
                r.file,
                r.same_replies.join(", ")
            ));
        }
    }
    out
}

/// `word` quoted for a POSIX shell when it needs it.
pub fn shell_word(word: &str) -> String {
    if word.chars().all(|c| c.is_ascii_alphanumeric() || "-_./,:=+@%".contains(c)) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// `bytes` for a person: bytes, KiB or MiB.
pub fn size_text(bytes: u64) -> String {
    if bytes < 1024 {
        format!("{bytes} bytes")
    } else if bytes >= 1 << 20 {
        format!("{:.1} MiB", bytes as f64 / f64::from(1 << 20))
    } else {
        format!("{:.0} KiB", bytes as f64 / 1024.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_put_the_candidate_in_every_seat_of_every_deal() {
        let p = plans_against(&[0], &[1, 2], 4, 2, 9);
        assert_eq!(p.len(), 2 * 2 * 4);
        for chunk in p.chunks(4) {
            let mut seats: Vec<usize> =
                chunk.iter().map(|m| m.seats.iter().position(|&e| e == 0).unwrap()).collect();
            seats.sort();
            assert_eq!(seats, vec![0, 1, 2, 3]);
            assert!(chunk.iter().all(|m| m.seed == chunk[0].seed));
        }
        assert_eq!(p[0].seats, vec![0, 1, 1, 1]);
        assert_ne!(p[0].seed, p[8].seed);
    }

    #[test]
    fn a_grade_plays_the_references_first_then_the_round_robin_on_the_same_deals() {
        let mut setup = GradeSetup {
            game: crate::play::GameId::of::<crate::games::blade::Blade>(),
            variant: "readme".into(),
            players: 2,
            against: vec!["random".into(), "greedy".into()],
            deals: 2,
            seed: 5,
            round_robin: false,
        };
        let (plans, refs) = setup.plans(3);
        assert_eq!((plans.len(), refs), (2 * 3 * 2 * 2, 2 * 3 * 2 * 2));
        setup.round_robin = true;
        let (all, refs) = setup.plans(3);
        assert_eq!(&all[..refs], &plans[..]);
        // every pair of the 3 graded bots, both seatings, on each deal
        let rr = &all[refs..];
        assert_eq!(rr.len(), 3 * 2 * 2);
        assert!(rr.iter().all(|p| p.seats.iter().all(|&e| e < 3)));
        let deals: std::collections::BTreeSet<u64> = plans.iter().map(|p| p.seed).collect();
        assert!(rr.iter().all(|p| deals.contains(&p.seed)), "the round robin is dealt the same deals");
        // Intensity: at most 35 tables of four in the round robin
        setup.players = 4;
        setup.deals = 1;
        let (all, refs) = setup.plans(8);
        assert_eq!(all.len() - refs, 35 * 4);
    }

    #[test]
    fn replay_commands_quote_what_the_shell_would_split() {
        assert_eq!(shell_word("bots/a.lua,random"), "bots/a.lua,random");
        assert_eq!(shell_word("my bots/it's.lua,random"), "'my bots/it'\\''s.lua,random'");
    }

    #[test]
    fn match_score_halves_ties() {
        assert_eq!(match_score(&[1, 2], 0), 1.0);
        assert_eq!(match_score(&[1, 1], 1), 0.5);
        assert_eq!(match_score(&[1, 2, 2, 4], 1), 0.5);
        assert_eq!(match_score(&[1, 2, 2, 4], 3), 0.0);
    }

    #[test]
    fn csv_rows_have_as_many_fields_as_the_header() {
        let rows = vec![
            GradeRow::new("a,b.lua".into(), "0".repeat(64), Some("bad \"syntax\"".into())),
            GradeRow::new("c.lua".into(), "1".repeat(64), None),
        ];
        for round_robin in [false, true] {
            let csv = grade_csv(&rows, &["random".to_string()], round_robin);
            let header = csv.lines().next().unwrap().split(',').count();
            assert!(
                csv.contains("\"a,b.lua\",") && csv.contains("\"load error: bad \"\"syntax\"\"\""),
                "{csv}"
            );
            assert_fields(&csv, header);
        }
    }

    #[test]
    fn copies_are_alike_replies_of_bots_that_played_not_alike_faults() {
        let row = |file: &str, hash: &str, replies: &[&str], faulted: u64| {
            let mut r = GradeRow::new(file.into(), hash.into(), None);
            r.stats.matches = replies.len() as u64;
            r.stats.faulted_matches = faulted;
            r.stats.replies = replies.iter().map(|s| s.to_string()).collect();
            r
        };
        fn ten(last: &str) -> Vec<&str> {
            ["x"; 9].into_iter().chain([last]).collect()
        }
        let mut rows = vec![
            row("a.lua", "1", &["p", "q"], 0),
            row("b.lua", "2", &["p", "q"], 0),
            row("crash1.lua", "3", &["c", "c"], 2),
            row("crash2.lua", "4", &["c", "c"], 2),
            row("near1.lua", "5", &ten("y"), 0),
            row("near2.lua", "6", &ten("z"), 0),
            row("big1.lua", "", &["u"], 0),
            row("big2.lua", "", &["v"], 0),
        ];
        mark_copies(&mut rows);
        assert_eq!(rows[0].same_replies, ["b.lua"]);
        assert!(rows[2].same_replies.is_empty() && rows[3].same_replies.is_empty(), "faulted alike");
        assert_eq!(rows[4].mostly_same_replies, [("near2.lua".to_string(), 9)]);
        assert!(rows[0].mostly_same_replies.is_empty());
        assert!(rows[6].same_hash.is_empty(), "files not read have no hash to share");
        assert_eq!(rows[2].status(), Status::Faulted);
        // ranked by score, the bots that faulted in every match after, those not loaded last
        let mut graded = rows[..4].to_vec();
        graded.insert(0, GradeRow::new("broken.lua".into(), "7".into(), Some("syntax".into())));
        graded[1].stats.deal_scores.insert(0, (0.2, 1));
        graded[2].stats.deal_scores.insert(0, (0.8, 1));
        assert_eq!(ranking(&graded), [2, 1, 3, 4, 0]);
        let csv = grade_csv(&graded, &["random".to_string()], false);
        assert!(csv.lines().nth(4).unwrap().starts_with("crash1.lua,3,faulted,2,"), "{csv}");
    }

    /// Every row of `csv` has `header` fields (commas inside quotes do not count).
    fn assert_fields(csv: &str, header: usize) {
        for line in csv.lines().skip(1) {
            // fields outside quotes
            let mut n = 1;
            let mut quoted = false;
            for c in line.chars() {
                match c {
                    '"' => quoted = !quoted,
                    ',' if !quoted => n += 1,
                    _ => {}
                }
            }
            assert_eq!(n, header, "{line}");
        }
    }
}
