//! Tournaments: an `arena.toml` of events, played in parallel, stored in SQLite, resumable, and
//! summed up in standings with ratings and 95% intervals.
//!
//! **Invariant:** the results (standings, JSON, CSV) depend only on the file, the bots and the
//! stored matches, never on the thread count or on which match finished first: every match is
//! deterministic given its plan, and results are read back in plan order.

pub mod config;
pub mod grade;
pub mod queue;
pub mod report;
pub mod schedule;
pub mod standings;
pub mod store;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::bots::bot::{Around, Fault, Verdict};
use crate::games::Game;
use crate::play::games::Find;
use crate::play::registry::{self, BotSource, Loader};
use crate::play::runner::{BotEntry, Replay};
use crate::play::Match;
use crate::play::{HostError, Hosted};

pub use config::{Config, Event, Format};
use schedule::MatchPlan;
pub use standings::{EventStandings, Standing};
use store::Store;

/// What is kept of a match for the standings (the full replay is stored beside it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchSummary {
    /// The bots in seat order.
    pub bots: Vec<BotEntry>,
    /// The game's points per seat.
    pub points: Vec<i64>,
    /// Ranks per seat.
    pub ranks: Vec<u32>,
    /// Fault verdicts per seat.
    pub faults: Vec<Vec<Verdict>>,
    /// Total fuel per seat (0 for native bots).
    pub fuel: Vec<u64>,
    /// Decisions per seat that reported fuel.
    pub metered_decisions: Vec<u64>,
    /// Peak memory per seat in bytes (sandboxed bots), where the match measured it: a queue
    /// worker's matches (the ladder's, and the garage's checks). Empty when made from a replay
    /// alone, which does not record memory.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub memory_peak: Vec<Option<u64>>,
}

impl MatchSummary {
    /// The summary of a played match.
    pub fn of(replay: &Replay) -> MatchSummary {
        let n = replay.bots.len();
        let mut fuel = vec![0; n];
        let mut metered = vec![0; n];
        for d in &replay.decisions {
            if let Some(f) = d.fuel {
                fuel[d.seat] += f;
                metered[d.seat] += 1;
            }
        }
        MatchSummary {
            bots: replay.bots.clone(),
            points: replay.outcome.points.clone(),
            ranks: replay.outcome.ranks.clone(),
            faults: replay.faults.iter().map(|fs| fs.iter().map(|f| f.verdict).collect()).collect(),
            fuel,
            metered_decisions: metered,
            memory_peak: Vec::new(),
        }
    }

    /// The summary of a played match whose seats peaked at `memory_peak` bytes.
    pub fn measured(replay: &Replay, memory_peak: Vec<Option<u64>>) -> MatchSummary {
        MatchSummary { memory_peak, ..MatchSummary::of(replay) }
    }
}

/// A seat's result in one match, as the standings count it: a win is first place alone, a draw
/// first place shared, anything else a loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MatchResult {
    /// First, alone.
    Win,
    /// First, with another seat.
    Draw,
    /// Not first.
    Loss,
}

impl MatchResult {
    /// The result of `seat` in a match whose seats ranked `ranks` (1 is first).
    pub fn of(ranks: &[u32], seat: usize) -> MatchResult {
        let first_shared = ranks.iter().filter(|&&r| r == 1).count() > 1;
        match (ranks[seat], first_shared) {
            (1, false) => MatchResult::Win,
            (1, true) => MatchResult::Draw,
            _ => MatchResult::Loss,
        }
    }

    /// `win`, `draw` or `loss`.
    pub fn name(self) -> &'static str {
        match self {
            MatchResult::Win => "win",
            MatchResult::Draw => "draw",
            MatchResult::Loss => "loss",
        }
    }
}

/// How to run a tournament.
#[derive(Clone)]
pub struct RunOptions {
    /// The games a tournament file may name, and how each plays an event (`cardarena::Games`).
    pub games: Arc<dyn Find<EventOps>>,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Told of each event's start and of every finished match ([`Silent`]: nothing shown).
    pub progress: Arc<dyn Progress>,
    /// Set (by a second Ctrl-C) to stop at once: matches in play are dropped, not stored.
    pub stop_now: Option<Arc<AtomicBool>>,
}

impl std::fmt::Debug for RunOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunOptions")
            .field("threads", &self.threads)
            .field("stop_now", &self.stop_now)
            .finish_non_exhaustive()
    }
}

/// The results of a whole tournament file.
#[derive(Clone, Debug, Serialize)]
pub struct TournamentResult {
    /// Per event, in file order.
    pub events: Vec<EventStandings>,
    /// Matches played in this run.
    #[serde(skip)]
    pub played_now: u64,
    /// Matches found already stored.
    #[serde(skip)]
    pub resumed: u64,
    /// Whether the run was stopped before the end (Ctrl-C).
    #[serde(skip)]
    pub interrupted: bool,
    /// The events not started because the run was stopped (they have no table).
    #[serde(skip)]
    pub not_started: Vec<String>,
    /// The faults of the matches played in this run, one per distinct failure (bot, verdict,
    /// site), in event and plan order of their first occurrence.
    #[serde(skip)]
    pub faults: Vec<FaultNote>,
}

/// A distinct failure in the matches played by this run: its first occurrence in plan order,
/// with its crash capsule, and how often it happened.
#[derive(Clone, Debug, PartialEq)]
pub struct FaultNote {
    /// The event.
    pub event: String,
    /// The match's id in the database (`arena replay --db DB ID`).
    pub match_id: Option<i64>,
    /// The faulty seat.
    pub seat: usize,
    /// Its bot, as named in the file.
    pub bot: String,
    /// The verdict.
    pub verdict: Verdict,
    /// The failing decision (`None`: at start).
    pub decision: Option<usize>,
    /// The message.
    pub message: String,
    /// The crash capsule written for it (file bots that loaded only).
    pub capsule: Option<PathBuf>,
    /// Where in the bot it failed (see [`fault_site`]; empty when unknown).
    pub site: String,
    /// Faults of this bot with this verdict at this site in the matches played now.
    pub count: u64,
    /// Event index, plan index, seat and decision, for a choice that does not depend on timing.
    order: (usize, usize, usize, Option<usize>),
}

/// Where in a bot a fault happened, to group its faults: the `file:line` a Lua error starts
/// with, else the first line of the trace (a WASM backtrace's innermost function), else empty
/// (the faults of one bot and verdict then form one group).
pub fn fault_site(message: &str, trace: Option<&str>) -> String {
    let mut parts = message.splitn(3, ':');
    if let (Some(file), Some(line), Some(_)) = (parts.next(), parts.next(), parts.next()) {
        if !file.is_empty()
            && !file.contains(char::is_whitespace)
            && !line.is_empty()
            && line.bytes().all(|b| b.is_ascii_digit())
        {
            return format!("{file}:{line}");
        }
    }
    trace.and_then(|t| t.lines().map(str::trim).find(|l| !l.is_empty())).unwrap_or_default().to_string()
}

/// The folder where a tournament writes crash capsules: `capsules/` beside its database.
pub fn capsule_dir(db: &Path) -> PathBuf {
    db.parent().unwrap_or(Path::new("")).join("capsules")
}

/// The default results database of a tournament file: beside it, `<stem>.db`.
pub fn default_db_path(config: &Path) -> PathBuf {
    config.with_extension("db")
}

/// Runs (or resumes) every event of `config`, storing each finished match in `store` at once.
///
/// # Errors
/// A bot cannot be loaded, or the database cannot be written.
pub fn run(
    config: &Config,
    store: &Store,
    opts: &RunOptions,
    stop: &AtomicBool,
) -> Result<TournamentResult, HostError> {
    run_with(config, Backend::Local { store, shard: None }, opts, stop)
}

/// Shard `index` of `count` of a tournament (a batch system's array job): plays only the
/// matches whose place in each event's plan is `index` modulo `count`, into `store`. The shards'
/// databases are merged with [`store::Store::merge`]; a run over the merged database then finds
/// every match stored and prints the standings. Swiss events are refused (a round's pairings
/// depend on the results of the rounds before).
///
/// # Errors
/// As [`run`], and a Swiss event.
pub fn run_shard(
    config: &Config,
    store: &Store,
    (index, count): (u32, u32),
    opts: &RunOptions,
    stop: &AtomicBool,
) -> Result<TournamentResult, HostError> {
    if let Some(e) = config.events.iter().find(|e| e.format == Format::Swiss) {
        return Err(HostError::Request(format!(
            "event {:?} is Swiss: its rounds depend on each other's results, so it cannot be split into shards; run it whole, or through a job queue (--db URL)",
            e.name
        )));
    }
    run_with(config, Backend::Local { store, shard: Some((index, count)) }, opts, stop)
}

/// Runs every event of `config` with its matches played by `dispatch` (a job queue's workers)
/// instead of this process's pool.
///
/// # Errors
/// As [`run`], and whatever `dispatch` reports.
pub fn run_dispatched(
    config: &Config,
    dispatch: &dyn Dispatch,
    opts: &RunOptions,
    stop: &AtomicBool,
) -> Result<TournamentResult, HostError> {
    run_with(config, Backend::Remote(dispatch), opts, stop)
}

/// Plays an event's matches elsewhere (a job queue, `crate::tournament::queue::tournament`).
pub trait Dispatch {
    /// Has `plans` of the event played (or finds them played) and returns the summaries of the
    /// longest finished prefix of `plans`, in plan order (all of them unless stopped).
    ///
    /// # Errors
    /// The matches cannot be handed out or their results read.
    fn play(&self, event: &DispatchEvent, plans: &[MatchPlan]) -> Result<Vec<MatchSummary>, HostError>;
}

/// What [`Dispatch::play`] is told about an event.
pub struct DispatchEvent<'a> {
    /// The event, as in the file.
    pub event: &'a Event,
    /// The game's name.
    pub game: &'static str,
    /// The variant's name.
    pub variant: String,
    /// The entrants as recorded (names as written in the file, content hashes).
    pub entries: &'a [BotEntry],
    /// The entrants as loaded.
    pub sources: &'a [BotSource],
}

/// Where a run's matches are played and stored.
#[derive(Clone, Copy)]
enum Backend<'a> {
    /// Here, on the pool, into `store` (only every `count`-th match from `index` with a shard).
    Local { store: &'a Store, shard: Option<(u32, u32)> },
    /// By a [`Dispatch`].
    Remote(&'a dyn Dispatch),
}

fn run_with(
    config: &Config,
    backend: Backend,
    opts: &RunOptions,
    stop: &AtomicBool,
) -> Result<TournamentResult, HostError> {
    let loader = Loader::new();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads.max(1))
        // sandboxed guest calls want a few MiB of native stack (see the sandbox crate docs)
        .stack_size(8 << 20)
        .build()
        .map_err(|e| HostError::Host(format!("cannot start the worker threads: {e}")))?;
    let bar = opts.progress.as_ref();
    let mut result = TournamentResult {
        events: Vec::new(),
        played_now: 0,
        resumed: 0,
        interrupted: false,
        not_started: Vec::new(),
        faults: Vec::new(),
    };
    let never = Arc::new(AtomicBool::new(false));
    let stop_now = opts.stop_now.as_ref().unwrap_or(&never);
    let played = (|| {
        for event in &config.events {
            if stop.load(Ordering::SeqCst) {
                result.not_started.push(event.name.clone());
                continue;
            }
            let EventOps(run_event) = opts.games.find(&event.game)?;
            let standings = run_event(event, &loader, backend, &pool, bar, stop, stop_now, &mut result)?;
            result.events.push(standings);
        }
        Ok::<(), HostError>(())
    })();
    bar.finished();
    played?;
    result.interrupted = stop.load(Ordering::SeqCst);
    result.faults.sort_by_key(|f| f.order);
    Ok(result)
}

/// What a run tells whoever started it while it plays: the `arena` binary draws a bar from it,
/// an embedder shows its own progress (or nothing: [`Silent`]). Called from the run's thread.
pub trait Progress: Send + Sync {
    /// An event (a Swiss event: each of its rounds) with `total` matches to play starts (not
    /// called when none is left to play).
    fn event_started(&self, event: &str, total: u64) {
        let _ = (event, total);
    }

    /// `n` more matches of the current event finished.
    fn matches_finished(&self, n: u64) {
        let _ = n;
    }

    /// Something the person running it should know that does not stop the run (a crash
    /// capsule that could not be written). By default it goes to stderr.
    fn warning(&self, text: &str) {
        eprintln!("{text}");
    }

    /// The run ended (finished, stopped or failed).
    fn finished(&self) {}
}

/// No progress shown; warnings still go to stderr.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Progress for Silent {}

/// How a game plays a tournament's event: what the list of games keeps per game for
/// [`RunOptions::games`].
#[derive(Clone, Copy)]
pub struct EventOps(RunEvent);

type RunEvent = fn(
    &Event,
    &Loader,
    Backend<'_>,
    &rayon::ThreadPool,
    &dyn Progress,
    &AtomicBool,
    &Arc<AtomicBool>,
    &mut TournamentResult,
) -> Result<EventStandings, HostError>;

impl EventOps {
    /// Game `G`'s.
    pub fn of<G: Hosted>() -> EventOps {
        EventOps(run_event::<G>)
    }
}

struct EventCtx<G: Game> {
    variant: G::Variant,
    /// The entrants, with a lane per worker thread.
    bots: registry::Lanes,
    entries: Vec<BotEntry>,
    fingerprint: String,
    limits: crate::play::limits::LimitsConfig,
    /// Per entrant: whether it could not be loaded (it gets no capsules).
    failed: Vec<bool>,
}

#[allow(clippy::too_many_arguments)]
fn run_event<G: Hosted>(
    event: &Event,
    loader: &Loader,
    backend: Backend,
    pool: &rayon::ThreadPool,
    bar: &dyn Progress,
    stop: &AtomicBool,
    stop_now: &Arc<AtomicBool>,
    result: &mut TournamentResult,
) -> Result<EventStandings, HostError> {
    let variant = registry::variant::<G>(event.variant.as_deref())?;
    let sources = event
        .bot_paths
        .iter()
        .map(|b| loader.resolve_entrant::<G>(b))
        .collect::<Result<Vec<_>, HostError>>()
        .map_err(|e| HostError::InEvent { event: event.name.clone(), source: Box::new(e) })?;
    let mut entries: Vec<BotEntry> = sources.iter().map(BotSource::entry).collect();
    for (entry, name) in entries.iter_mut().zip(&event.bots) {
        entry.name = name.clone(); // as written in the file, not resolved against its folder
    }
    // The sandbox's cost model is part of it: a file bot's results depend on it.
    let fingerprint = crate::bots::bot::content_hash(
        format!(
            "{}|{}|{}|{}",
            G::NAME,
            variant,
            serde_json::to_string(&event.limits).expect("limits are numbers, which serialize"),
            cardarena_sandbox::COST_MODEL
        )
        .as_bytes(),
    )[..16]
        .to_string();
    let not_loaded: Vec<standings::NotLoaded> = sources
        .iter()
        .zip(&event.bots)
        .filter_map(|(s, name)| {
            s.load_error().map(|e| standings::NotLoaded { bot: name.clone(), error: e.to_string() })
        })
        .collect();
    let failed = sources.iter().map(|s| s.load_error().is_some()).collect();
    let bots = registry::Lanes::new(loader.started_sandbox(), sources, pool.current_num_threads());
    let ctx = EventCtx::<G> { variant, bots, entries, fingerprint, limits: event.limits.clone(), failed };
    let run = Run { backend, pool, bar, stop, stop_now };
    let variant_name = ctx.variant.to_string();
    let remote = DispatchEvent {
        event,
        game: G::NAME,
        variant: variant_name,
        entries: &ctx.entries,
        sources: ctx.bots.shared(),
    };
    let play = |plans: &[MatchPlan], result: &mut TournamentResult| match backend {
        Backend::Remote(dispatch) => dispatch.play(&remote, plans),
        Backend::Local { .. } => play_all(&ctx, event, plans, &run, result),
    };

    let mut plans: Vec<MatchPlan> = Vec::new();
    let mut summaries: Vec<MatchSummary> = Vec::new();
    let mut planned = 0;
    if event.format == Format::Swiss {
        let n = event.bots.len();
        let mut met: Vec<Vec<usize>> = Vec::new();
        let mut byes = Vec::new();
        for round in 0..event.rounds {
            let mut scores = vec![0.0; n];
            for (p, s) in plans.iter().zip(&summaries) {
                for (seat, &entrant) in p.seats.iter().enumerate() {
                    scores[entrant] += standings::match_score(&s.ranks, seat);
                }
            }
            let (round_plans, out) =
                schedule::plan_swiss_round(event, G::PLAYERS, round, &scores, &met, &byes);
            byes.extend(out);
            for p in round_plans.iter().step_by(if event.duplicate { G::PLAYERS } else { 1 }) {
                let mut t = p.seats.clone();
                t.sort();
                if !met.contains(&t) {
                    met.push(t);
                }
            }
            planned = planned.max(round_plans.len() as u64 * u64::from(event.rounds));
            let done = play(&round_plans, result)?;
            let complete = done.len() == round_plans.len();
            plans.extend(round_plans.into_iter().take(done.len()));
            summaries.extend(done);
            if !complete {
                break;
            }
        }
    } else {
        let all = schedule::plan(event, G::PLAYERS);
        planned = all.len() as u64;
        let done = play(&all, result)?;
        plans = all.into_iter().take(done.len()).collect();
        summaries = done;
    }
    // In the pool: the standings' rating passes run side by side on its threads.
    let variant = ctx.variant.to_string();
    let mut standings = pool.install(|| {
        standings::compute(event, crate::play::GameId::of::<G>(), &variant, &ctx.entries, &plans, &summaries)
    });
    standings.planned = planned.max(standings.matches);
    standings.not_loaded = not_loaded;
    Ok(standings)
}

/// What every event of a run shares.
struct Run<'a> {
    backend: Backend<'a>,
    pool: &'a rayon::ThreadPool,
    bar: &'a dyn Progress,
    stop: &'a AtomicBool,
    stop_now: &'a Arc<AtomicBool>,
}

fn key<G: Game>(ctx: &EventCtx<G>, event: &Event, plan: &MatchPlan) -> String {
    let seats: Vec<String> =
        plan.seats.iter().map(|&e| format!("{}#{}", ctx.entries[e].name, ctx.entries[e].hash)).collect();
    format!("{}|{}|{}|{}", event.name, ctx.fingerprint, plan.seed, seats.join(","))
}

/// How long the writer gathers finished matches into one transaction.
const GROUP_COMMIT: std::time::Duration = std::time::Duration::from_millis(20);

/// Plays every plan not yet stored; returns the summaries of the longest finished prefix of
/// `plans` (all of them unless the run was stopped). Faults are grouped by (bot, verdict, site):
/// one capsule per group, of its first fault in plan order.
fn play_all<G: Hosted>(
    ctx: &EventCtx<G>,
    event: &Event,
    plans: &[MatchPlan],
    run: &Run,
    result: &mut TournamentResult,
) -> Result<Vec<MatchSummary>, HostError> {
    let Run { backend, pool, bar, stop, stop_now } = *run;
    let Backend::Local { store, shard } = backend else { unreachable!("only a local run plays on the pool") };
    let keys: Vec<String> = plans.iter().map(|p| key(ctx, event, p)).collect();
    let mut done: Vec<Option<MatchSummary>> = Vec::with_capacity(plans.len());
    let mut pending = Vec::new();
    let mut stored = store.summaries(&event.name)?;
    let ours = |i: usize| shard.is_none_or(|(index, count)| i as u64 % u64::from(count) == u64::from(index));
    for (i, k) in keys.iter().enumerate() {
        let s = stored.remove(k);
        if s.is_none() {
            if ours(i) {
                pending.push(i);
            }
        } else {
            result.resumed += 1;
        }
        done.push(s);
    }
    if !pending.is_empty() {
        bar.event_started(&event.name, pending.len() as u64);
    }
    let mut failure: Option<HostError> = None;
    let event_index = result.events.len();
    let capsules_in = capsule_dir(store.path());
    // (bot, verdict, site) -> the first fault in plan order, its capsule, and the count
    let mut groups: BTreeMap<(String, &'static str, String), (FaultNote, Option<Capsule>)> = BTreeMap::new();
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(usize, MatchSummary, store::Packed, Vec<Faulted>)>();
        let pending = &pending;
        scope.spawn(move || {
            pool.install(|| {
                pending.par_iter().for_each_init(
                    || (tx.clone(), store::Packer::new()),
                    |(tx, packer), &i| {
                        if stop.load(Ordering::SeqCst) {
                            return;
                        }
                        let bots = ctx.bots.for_worker(rayon::current_thread_index());
                        let replay = play_one(ctx, bots, &plans[i], stop_now);
                        if stop_now.load(Ordering::SeqCst) {
                            return; // cut short: dropped, played again on resume
                        }
                        let summary = MatchSummary::of(&replay);
                        let packed = packer.pack(&summary, &replay);
                        // Only a match with a fault does more work: its capsules.
                        let faulted = if replay.faults.iter().all(Vec::is_empty) {
                            Vec::new()
                        } else {
                            let failed: Vec<bool> = plans[i].seats.iter().map(|&e| ctx.failed[e]).collect();
                            faulted::<G>(&replay, event, &failed)
                        };
                        let _ = tx.send((i, summary, packed, faulted));
                    },
                );
            });
        });
        // Group commit: each commit holds the matches that finished within GROUP_COMMIT of
        // the first one (at most 512). A transaction costs the writer far more than a row (file
        // locks, WAL frames), and the writer shares the cores with the workers; a match that
        // is not yet committed when the run stops is simply played again on resume. The writer
        // sleeps through the window instead of waiting on the channel: a waiting receiver is
        // woken by every send (a futex call on the worker, a context switch on the writer,
        // thousands a second), a sleeping one by none.
        loop {
            let first = match rx.recv_timeout(Duration::from_millis(100)) {
                Ok(first) => first,
                Err(mpsc::RecvTimeoutError::Timeout) if !stop_now.load(Ordering::SeqCst) => continue,
                Err(_) => break,
            };
            if stop_now.load(Ordering::SeqCst) {
                break;
            }
            let mut batch = vec![first];
            let until = std::time::Instant::now() + GROUP_COMMIT;
            loop {
                let mut finished = false;
                while batch.len() < 512 {
                    match rx.try_recv() {
                        Ok(next) => batch.push(next),
                        Err(e) => {
                            // Disconnected: every worker is done, nothing more will come.
                            finished = e == mpsc::TryRecvError::Disconnected;
                            break;
                        }
                    }
                }
                let left = until.saturating_duration_since(std::time::Instant::now());
                if finished || batch.len() >= 512 || left.is_zero() || stop.load(Ordering::SeqCst) {
                    break;
                }
                std::thread::sleep(left.min(std::time::Duration::from_millis(5)));
            }
            if failure.is_none() {
                let rows: Vec<(&str, &str, &store::Packed)> =
                    batch.iter().map(|(i, _, p, _)| (keys[*i].as_str(), event.name.as_str(), p)).collect();
                if let Err(e) = store.insert(&rows) {
                    failure = Some(e);
                    stop.store(true, Ordering::SeqCst);
                }
            }
            for (i, _, _, faulted) in &mut batch {
                if faulted.is_empty() || failure.is_some() {
                    continue;
                }
                let match_id = store.id_of(&keys[*i]).ok().flatten();
                for f in faulted.drain(..) {
                    let note = FaultNote {
                        match_id,
                        order: (event_index, *i, f.note.seat, f.note.decision),
                        ..f.note
                    };
                    let key = (note.bot.clone(), note.verdict.name(), note.site.clone());
                    match groups.get_mut(&key) {
                        Some((first, capsule)) => {
                            let count = first.count + 1;
                            if note.order < first.order {
                                (*first, *capsule) = (note, f.capsule);
                            }
                            first.count = count;
                        }
                        None => {
                            groups.insert(key, (note, f.capsule));
                        }
                    }
                }
            }
            let n = batch.len() as u64;
            for (i, summary, _, _) in batch {
                done[i] = Some(summary);
            }
            result.played_now += n;
            bar.matches_finished(n);
        }
        // stopping now: the workers' next send fails, and they start no new match
        drop(rx);
    });
    if let Some(e) = failure {
        return Err(e);
    }
    for (_, (mut note, capsule)) in groups {
        // a later Swiss round adds to the group of an earlier one
        let same = |f: &&mut FaultNote| {
            (&f.event, &f.bot, f.verdict, &f.site) == (&note.event, &note.bot, note.verdict, &note.site)
        };
        if let Some(earlier) = result.faults.iter_mut().find(same) {
            earlier.count += note.count;
            continue;
        }
        note.capsule = capsule.and_then(|(name, text)| {
            let path = capsules_in.join(name);
            let written = std::fs::create_dir_all(&capsules_in).and_then(|()| std::fs::write(&path, text));
            match written {
                Ok(()) => Some(path),
                Err(e) => {
                    bar.warning(&format!("warning: cannot write capsule {}: {e}", path.display()));
                    None
                }
            }
        });
        result.faults.push(note);
    }
    Ok(done.into_iter().map_while(|s| s).collect())
}

/// A crash capsule's file name and text.
type Capsule = (String, String);

/// One fault of a match, with its capsule (file bots only), made on the worker thread; the
/// capsule of each group's first fault is written once the event is played.
struct Faulted {
    note: FaultNote,
    capsule: Option<Capsule>,
}

fn faulted<G: Game>(replay: &Replay, event: &Event, failed: &[bool]) -> Vec<Faulted> {
    let mut capsules =
        crate::play::capsule::build::<G>(replay, Some(&event.name)).unwrap_or_default().into_iter();
    let mut out = Vec::new();
    for (seat, faults) in replay.faults.iter().enumerate() {
        let file_bot = !crate::bots::bot::is_builtin_name(&replay.bots[seat].name);
        for f in faults {
            // `build` makes one capsule per fault of a file bot, in this same order; a bot that
            // could not be loaded has nothing to rerun.
            let capsule =
                if file_bot { capsules.next().map(|c| crate::play::capsule::encode(&c)) } else { None };
            let capsule = capsule.filter(|_| !failed[seat]).map(|(text, name)| (name, text));
            out.push(Faulted {
                note: FaultNote {
                    event: event.name.clone(),
                    match_id: None,
                    seat,
                    bot: replay.bots[seat].name.clone(),
                    verdict: f.verdict,
                    decision: f.decision,
                    message: f.message.clone(),
                    capsule: None,
                    site: fault_site(&f.message, f.trace.as_deref()),
                    count: 1,
                    order: (0, 0, 0, None),
                },
                capsule,
            });
        }
    }
    out
}

/// Plays one match; once `stop_now` is set, every bot's next decision fails at once, so the
/// match ends within the decision in progress (its replay is then dropped, never stored).
fn play_one<G: Hosted>(
    ctx: &EventCtx<G>,
    bots: &[BotSource],
    plan: &MatchPlan,
    stop_now: &Arc<AtomicBool>,
) -> Replay {
    let table = Match::<G>::new(ctx.variant, plan.seed);
    plan.seats
        .iter()
        .fold(table, |t, &e| {
            let stop_now = stop_now.clone();
            let stopped = move || match stop_now.load(Ordering::Relaxed) {
                true => Err(Fault::new(Verdict::Wallclock, "the run was stopped; this match is dropped")),
                false => Ok(()),
            };
            t.seat_wrapped(ctx.entries[e].clone(), &bots[e], bots[e].limits(&ctx.limits).as_ref(), |bot| {
                Around::wrap(bot, stopped, |_| ())
            })
        })
        .play()
}

#[cfg(test)]
mod tests {
    use super::fault_site;

    #[test]
    fn a_fault_site_is_the_lua_line_or_the_first_trace_line() {
        assert_eq!(fault_site("carol.lua:2: I give up", None), "carol.lua:2");
        assert_eq!(
            fault_site("bots/x.lua:17: attempt to index a nil value", Some("ignored")),
            "bots/x.lua:17"
        );
        assert_eq!(fault_site("wasm trap: unreachable", Some("\n  0: bot::act\n  1: main")), "0: bot::act");
        assert_eq!(fault_site("illegal action \"play 3Q\": no such card", None), "");
        assert_eq!(fault_site("fuel: 1000 per decision exhausted", None), "");
    }
}
