//! The `arena` command line. Only this module knows clap.
//!
//! Exit codes: 0 success, 2 an error (bad arguments, unreadable files); a broken pipe on stdout
//! counts as success.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context};
use clap::{Parser, Subcommand};
use serde::Serialize;

use cardarena::games::{Game, Outcome, Seat};
use cardarena::play::limits::LimitsConfig;
use cardarena::play::registry::{self, BotSource, Loader};
use cardarena::play::runner::{decision_place, DecisionRecord, FaultRecord, MatchObserver, Replay};
use cardarena::play::Hosted;
use cardarena::play::Match;

use cardarena::{GameId, HostedGame, UnknownGame};

pub(crate) mod analyse;
pub(crate) mod authoring;
mod docs;
mod new;
mod queue;
mod replay;
pub(crate) mod serve;
pub use queue::DeterminismAlarm;
pub use replay::Mismatch;

/// What a command does for one game type (filled for each game of the list by `crate::games`).
#[derive(Clone, Copy)]
pub(crate) struct Commands {
    pub(crate) play: fn(&PlayArgs) -> anyhow::Result<()>,
    pub(crate) sprt: fn(&SprtArgs) -> anyhow::Result<()>,
    pub(crate) check: fn(&authoring::CheckArgs, &cardarena::Games) -> anyhow::Result<()>,
    pub(crate) grade: fn(&authoring::GradeArgs) -> anyhow::Result<()>,
    pub(crate) timing:
        fn(&cardarena::tournament::config::Event, &Loader, u32) -> anyhow::Result<crate::timing::EventTiming>,
    pub(crate) bench: crate::bench::GameBench,
}

impl Commands {
    /// Game `G`'s.
    pub(crate) fn of<G: Hosted>() -> Commands {
        Commands {
            play: play_game::<G>,
            sprt: sprt_game::<G>,
            check: authoring::check_game::<G>,
            grade: authoring::grade_game::<G>,
            timing: crate::timing::time_event::<G>,
            bench: crate::bench::game_bench::<G>(),
        }
    }
}

/// The games of a run, as the commands see them: the library's list and each game's
/// [`Commands`].
#[derive(Clone, Copy)]
pub(crate) struct GameSet<'a> {
    pub(crate) lib: &'a cardarena::Games,
    pub(crate) commands: &'a [(&'static str, Commands)],
}

impl GameSet<'_> {
    /// The library's list.
    pub(crate) fn lib(&self) -> &cardarena::Games {
        self.lib
    }

    /// The game named `name`.
    pub(crate) fn get(&self, name: &str) -> Result<&HostedGame, UnknownGame> {
        self.lib.get(name)
    }

    /// The game named `name`'s handle.
    pub(crate) fn id(&self, name: &str) -> Result<GameId, UnknownGame> {
        self.lib.get(name).map(HostedGame::id)
    }

    /// The commands of the game named `name`.
    pub(crate) fn commands(&self, name: &str) -> Result<Commands, UnknownGame> {
        self.commands
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, c)| *c)
            .ok_or_else(|| UnknownGame { name: name.to_string(), known: self.lib.names() })
    }
}

/// cardarena: a bot arena for hidden-information card games.
#[derive(Debug, Parser)]
#[command(name = "arena", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List the games and their variants.
    Games,
    /// Play one match and print a readable game log (or one JSON object with --json).
    Play(PlayArgs),
    /// Run (or resume) the tournament of an arena.toml and print the standings; with --db URL,
    /// through a job queue that `arena worker` processes anywhere help with (docs/scale-out.md).
    Tournament(TournamentArgs),
    /// Play the jobs of a job queue (--db sqlite:PATH or postgres://…) until stopped
    /// (docs/scale-out.md).
    Worker(queue::WorkerArgs),
    /// Merge the results databases of `arena tournament --shard i/n` runs into one.
    Merge(queue::MergeArgs),
    /// Sequential probability ratio test: is NEW stronger than OLD? Plays duplicate pairs until decided.
    Sprt(SprtArgs),
    /// Check a bot: duplicate matches against every built-in; verdicts, fuel, memory, win rate.
    Check(authoring::CheckArgs),
    /// Grade a folder of bots against reference bots into a CSV (one row per bot file).
    Grade(authoring::GradeArgs),
    /// Create a ready-to-run bot project: NAME/ with a bot for the game and language, and a README.
    New(authoring::NewArgs),
    /// Write a game's tutorial into a folder (README.md and its step bots), to run with this arena.
    Tutorial(authoring::TutorialArgs),
    /// Print a page of the documentation: the bot API, a game's rules and observation, the
    /// sandbox, the ladder… (`arena docs` lists them).
    Docs(docs::DocsArgs),
    /// Print the JSON Schema of a game's observation (or: --lua LuaLS annotations, --ts TypeScript
    /// declarations, --python TypedDict type hints).
    Schema(authoring::SchemaArgs),
    /// Show a recorded match turn by turn with a board per decision (or as one seat saw it), or
    /// check it by playing it again (--verify); from a replay file or a tournament database.
    Replay(replay::ReplayArgs),
    /// Run a bot again on the observations of a crash capsule: the same failure, or what a fixed
    /// bot (--bot) does now.
    Repro(replay::ReproArgs),
    /// Value every decision of one seat in a replay from what that seat could know: each legal
    /// action's expected points, the loss of the move played, marks ?! ? ?? and the worst three.
    Analyse(analyse::AnalyseArgs),
    /// Measure in-process bots against a process per decision, and the performance targets.
    Bench(BenchCmd),
    /// Run a web ladder: people upload bots from a browser or `arena submit`, workers play them,
    /// leaderboards update (docs/ladder.md).
    Serve(serve::ServeArgs),
    /// Upload a bot to a ladder run by `arena serve` (a new version if the name is yours).
    Submit(serve::SubmitArgs),
    /// Time every bot of a tournament file: CPU milliseconds per decision against `greedy`
    /// (JSON on stdout; docs/zoo.md's time column).
    Timing(TimingArgs),
}

#[derive(Debug, clap::Args)]
struct TimingArgs {
    /// The tournament file.
    #[arg(default_value = "arena.toml")]
    file: PathBuf,
    /// Deals per bot, each played once from every seat.
    #[arg(long, default_value_t = 10)]
    deals: u32,
}

#[derive(Debug, clap::Args)]
struct TournamentArgs {
    /// The tournament file.
    #[arg(default_value = "arena.toml")]
    file: PathBuf,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Write the standings as JSON to this file (`-` for stdout).
    #[arg(long, value_name = "OUT")]
    json: Option<PathBuf>,
    /// Write the standings as CSV to this file (`-` for stdout).
    #[arg(long, value_name = "OUT")]
    csv: Option<PathBuf>,
    /// Write a self-contained HTML report (standings, win matrix, ratings, faults) to this file.
    #[arg(long, value_name = "OUT")]
    html: Option<PathBuf>,
    /// The results database (default: beside the file, with the extension .db), or a job queue:
    /// sqlite:PATH or postgres://USER@HOST:PORT/DB, whose workers play the matches.
    #[arg(long, value_name = "FILE|URL")]
    db: Option<PathBuf>,
    /// With a job queue: only plan the matches as jobs and return (workers play them).
    #[arg(long, requires = "db")]
    enqueue: bool,
    /// With a job queue: show its jobs (queued, running, done, failed), workers and
    /// determinism alarms, and exit (3 if there are alarms).
    #[arg(long, requires = "db")]
    status: bool,
    /// Play only shard I of N (I from 0) into --db, for batch systems; merge the shards'
    /// databases with `arena merge`.
    #[arg(long, value_name = "I/N", value_parser = queue::parse_shard, conflicts_with_all = ["enqueue", "status"])]
    shard: Option<(u32, u32)>,
    /// With a job queue: the lease of this process's workers, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    lease: f64,
    /// With a job queue: how long to keep retrying while the database is out of reach
    /// (connection refused or lost, file locked) before giving up: 300s, 5m, 90 (seconds).
    #[arg(long, value_name = "TIME", default_value = "300s", value_parser = queue::parse_time)]
    give_up_after: std::time::Duration,
    /// Do not show progress.
    #[arg(long)]
    quiet: bool,
    /// Which ratings the tables show: `fitted` (the Plackett–Luce fit with its interval) or
    /// `all` (Elo, Glicko-2 and TrueSkill too; the JSON and CSV always have them all).
    #[arg(long, value_name = "WHICH", default_value = "fitted", value_parser = ["fitted", "all"])]
    ratings: String,
}

#[derive(Debug, clap::Args)]
pub(crate) struct SprtArgs {
    /// The game (two-player games only).
    #[arg(long)]
    game: String,
    /// The variant (default: the game's first).
    #[arg(long)]
    variant: Option<String>,
    /// NEW,OLD: the candidate and the baseline.
    #[arg(long, value_delimiter = ',', required = true, value_parser = trimmed)]
    bots: Vec<String>,
    /// How --elo0/--elo1 and the estimate read Elo: normalized (fishtest's default: the same
    /// bounds cost about the same number of pairs whatever the draw rate) or logistic.
    #[arg(long, value_enum, default_value_t = EloModelArg::Normalized)]
    elo_model: EloModelArg,
    /// Elo difference of H0.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    elo0: f64,
    /// Elo difference of H1.
    #[arg(long, default_value_t = 10.0, allow_negative_numbers = true)]
    elo1: f64,
    /// False positive rate.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// False negative rate.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// Seed of the deals.
    #[arg(long, default_value_t = 0, value_parser = parse_seed, allow_hyphen_values = true)]
    seed: u64,
    /// Give up after this many pairs.
    #[arg(long, default_value_t = 100_000)]
    max_pairs: u64,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    #[command(flatten)]
    limits: LimitArgs,
}

/// `--elo-model` (`cardarena::stats::sprt::EloModel`).
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum EloModelArg {
    Logistic,
    Normalized,
}

/// Sandbox limits for Lua/WASM bots; unset ones keep the defaults of the bot's kind (docs/sandbox.md).
#[derive(Debug, Clone, clap::Args)]
struct LimitArgs {
    /// Fuel per decision for every Lua/WASM bot (Lua: instructions; WASM: wasmtime fuel).
    #[arg(long, value_name = "N")]
    fuel_per_decision: Option<u64>,
    /// Fuel per match for every Lua/WASM bot.
    #[arg(long, value_name = "N")]
    fuel_per_match: Option<u64>,
    /// Memory per Lua/WASM bot, in MiB.
    #[arg(long, value_name = "MIB")]
    memory_mb: Option<u64>,
}

impl LimitArgs {
    fn config(&self) -> LimitsConfig {
        LimitsConfig {
            fuel_per_decision: self.fuel_per_decision,
            fuel_per_match: self.fuel_per_match,
            memory_mb: self.memory_mb,
            lua: None,
            wasm: None,
            js: None,
            python: None,
        }
    }
}

/// Arguments of `arena bench`.
#[derive(Debug, Clone, clap::Args)]
struct BenchCmd {
    /// Print one JSON object (keys documented in BENCHMARKS.md) instead of the table.
    #[arg(long)]
    json: bool,
    /// A few seconds instead of about a minute: every measure, with few samples (a smoke test;
    /// the numbers are rough).
    #[arg(long)]
    quick: bool,
    /// Threads for the throughput measures (default 2, the targets' thread count).
    #[arg(long, default_value_t = 2)]
    threads: usize,
}

#[derive(Debug, clap::Args)]
pub(crate) struct PlayArgs {
    /// The game: blade, ecard, lost-cities or intensity.
    #[arg(long)]
    game: String,
    /// The variant (default: the game's first variant, see `arena games`).
    #[arg(long)]
    variant: Option<String>,
    /// The bots in seat order, comma-separated: a built-in (`random`, `greedy`, …), a path to a
    /// .lua/.js/.wasm/.wat file, or `human` (you, at the terminal).
    #[arg(long, value_delimiter = ',', required = true, value_parser = trimmed)]
    bots: Vec<String>,
    /// The match seed; the same seed, variant and bots give the same match.
    #[arg(long, default_value_t = 0, value_parser = parse_seed, allow_hyphen_values = true)]
    seed: u64,
    /// Print exactly one JSON object with the result instead of the game log.
    #[arg(long)]
    json: bool,
    /// Also write the full replay (JSON) to this file.
    #[arg(long, value_name = "FILE")]
    replay: Option<PathBuf>,
    /// Where a Lua/WASM bot's faults write their crash capsules (default: `capsules/` beside
    /// the --replay file, else in the current folder); see `arena repro`.
    #[arg(long, value_name = "DIR")]
    capsules: Option<PathBuf>,
    #[command(flatten)]
    limits: LimitArgs,
}

/// A comma-separated list's item without the spaces around it (`--bots "greedy, random"`).
fn trimmed(item: &str) -> Result<String, String> {
    Ok(item.trim().to_string())
}

/// A match seed: a whole number 0..2^64-1.
fn parse_seed(text: &str) -> Result<u64, String> {
    text.trim().parse().map_err(|_| {
        format!("{text:?} is not a seed: seeds are whole numbers from 0 to 2^64-1 ({})", u64::MAX)
    })
}

/// Runs the command line; the error chain is printed by `main`.
///
/// # Errors
/// Whatever the subcommand fails with.
pub(crate) fn run(cli: Cli, games: GameSet<'_>) -> anyhow::Result<()> {
    let games = &games;
    match cli.command {
        Command::Games => games_cmd(games),
        Command::Play(args) => (games.commands(&args.game)?.play)(&args),
        Command::Tournament(args) => tournament_cmd(args, games),
        Command::Worker(args) => queue::worker_cmd(args, games),
        Command::Merge(args) => queue::merge_cmd(args),
        Command::Timing(args) => {
            let config = cardarena::tournament::config::load(&args.file, games.lib())?;
            let loader = Loader::new();
            let mut timings = Vec::new();
            for event in &config.events {
                timings.push((games.commands(&event.game)?.timing)(event, &loader, args.deals)?);
            }
            print_out(&format!("{}\n", serde_json::to_string_pretty(&timings)?))
        }
        Command::Sprt(args) => (games.commands(&args.game)?.sprt)(&args),
        Command::Check(args) => (games.commands(&args.game)?.check)(&args, games.lib()),
        Command::Grade(args) => (games.commands(&args.game)?.grade)(&args),
        Command::New(args) => authoring::new_cmd(args, games),
        Command::Tutorial(args) => authoring::tutorial_cmd(args, games),
        Command::Schema(args) => authoring::schema_cmd(args, games),
        Command::Docs(args) => docs::docs_cmd(args),
        Command::Replay(args) => replay::replay_cmd(args, games),
        Command::Repro(args) => replay::repro_cmd(args, games),
        Command::Analyse(args) => analyse::analyse_cmd(args, games),
        Command::Serve(args) => serve::serve_cmd(args, games),
        Command::Submit(args) => serve::submit_cmd(args),
        Command::Bench(a) => print_out(&crate::bench::run(
            &crate::bench::BenchArgs { json: a.json, quick: a.quick, threads: a.threads },
            games.lib(),
            &games.commands.iter().map(|(_, c)| c.bench).collect::<Vec<_>>(),
        )?),
    }
}

fn games_cmd(games: &GameSet) -> anyhow::Result<()> {
    let mut out = String::new();
    for g in games.lib().ids() {
        let variants = g.variants();
        out.push_str(&format!(
            "{:<12} {} players  variants: {} (default {})\n    {}\n",
            g.name(),
            g.players(),
            variants.join(", "),
            variants[0],
            g.about()
        ));
    }
    print_out(&out)
}

/// `s` with every control character but newline and tab written as an escape (`\x1b`,
/// `\u{9b}`): bot output and file names reach the terminal through this, so a bot cannot clear
/// the screen, ring the bell or overwrite a line (CR) of the arena's output.
pub fn terminal_safe(s: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !s.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            c if !unsafe_char(c) => out.push(c),
            c if (c as u32) < 0x80 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Writes to stdout (control characters escaped, see [`terminal_safe`]), treating a closed pipe
/// as success.
fn print_out(s: &str) -> anyhow::Result<()> {
    let s = terminal_safe(s);
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(s.as_bytes()).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("cannot write to stdout"),
    }
}

/// The `--json` result of `arena play`.
#[derive(Serialize)]
struct PlayResult<'a> {
    game: &'a str,
    variant: &'a str,
    seed: u64,
    seats: Vec<SeatResult<'a>>,
}

#[derive(Serialize)]
struct SeatResult<'a> {
    bot: &'a str,
    points: i64,
    rank: u32,
    faults: Vec<SeatFault<'a>>,
}

#[derive(Serialize)]
struct SeatFault<'a> {
    verdict: &'a str,
    decision: Option<usize>,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    capsule: Option<String>,
}

pub(crate) fn play_game<G: Hosted>(args: &PlayArgs) -> anyhow::Result<()> {
    let variant = registry::variant::<G>(args.variant.as_deref())?;
    if args.bots.len() != G::PLAYERS {
        bail!(
            "{} is a {}-player game but --bots names {} bot(s); name one per seat, comma-separated",
            G::NAME,
            G::PLAYERS,
            args.bots.len()
        );
    }
    let humans: Vec<usize> = (0..args.bots.len()).filter(|&s| args.bots[s] == registry::HUMAN).collect();
    if humans.len() > 1 {
        bail!("only one seat can be `human` (each person would see the other's cards); name bots for the other seats");
    }
    if !humans.is_empty() && args.json {
        bail!("--json prints only the result; play as `human` without --json (add --replay FILE to keep the match)");
    }
    let loader = Loader::new();
    // `None` for the human seat
    let sources = args
        .bots
        .iter()
        .map(|b| if b == registry::HUMAN { Ok(None) } else { loader.resolve::<G>(b).map(Some) })
        .collect::<Result<Vec<_>, _>>()?;
    let limits = args.limits.config();
    let capsule_dir =
        args.capsules.clone().unwrap_or_else(|| match args.replay.as_deref().and_then(|p| p.parent()) {
            Some(dir) => dir.join("capsules"),
            None => PathBuf::from("capsules"),
        });
    let capsules;
    let table = sources.iter().fold(Match::<G>::new(variant, args.seed), |t, s| match s {
        Some(s) => t.seat(s, &limits),
        None => t.seat_bot(
            cardarena::play::person::person_entry(""),
            Box::new(cardarena::play::person::PersonBot::new(Box::new(crate::human::HumanBot::stdio()))),
        ),
    });
    let replay = if let Some(&seat) = humans.first() {
        print_out(&format!(
            "{} ({}), seed {}: you are seat {seat}; {}\n(moves: `arena docs {}`; type a number or the move, Ctrl-D to leave)\n",
            G::NAME,
            variant,
            args.seed,
            args.bots
                .iter()
                .enumerate()
                .filter(|&(s, _)| s != seat)
                .map(|(s, b)| format!("seat {s} {b}"))
                .collect::<Vec<_>>()
                .join(", "),
            G::NAME
        ))?;
        let mut log =
            crate::human::HumanLog { seat, names: args.bots.clone(), output: Box::new(std::io::stdout()) };
        let replay = table.play_observed(&mut log);
        capsules = write_capsules::<G>(&replay, &capsule_dir);
        replay
    } else if args.json {
        let replay = table.play();
        capsules = write_capsules::<G>(&replay, &capsule_dir);
        replay
    } else {
        let mut log = TextLog {
            names: args.bots.clone(),
            out: String::new(),
            fault_ends: Vec::new(),
            decided: vec![0; args.bots.len()],
        };
        log.out.push_str(&format!(
            "{} ({}), seed {}: {}\n",
            G::NAME,
            variant,
            args.seed,
            args.bots.iter().enumerate().map(|(s, b)| format!("seat {s} {b}")).collect::<Vec<_>>().join(", ")
        ));
        let replay = table.play_observed(&mut log);
        capsules = write_capsules::<G>(&replay, &capsule_dir);
        // Each fault line is followed by its capsule's path.
        for (at, seat, decision) in log.fault_ends.iter().rev() {
            if let Some((_, _, path)) = capsules.iter().find(|(s, d, _)| s == seat && d == decision) {
                log.out
                    .insert_str(*at, &format!("      capsule: {} (arena repro to rerun)\n", path.display()));
            }
        }
        print_out(&log.out)?;
        replay
    };
    if let Some(path) = &args.replay {
        let text = serde_json::to_string_pretty(&replay)?;
        std::fs::write(path, text + "\n")
            .with_context(|| format!("cannot write replay {}", path.display()))?;
    }
    if args.json {
        print_out(&(serde_json::to_string(&play_result(&replay, &capsules))? + "\n"))?;
    }
    Ok(())
}

/// Writes the crash capsules of a match's file-bot faults; returns `(seat, decision, path)` per
/// capsule written. A capsule that cannot be written is a warning, not an error: the match stands.
fn write_capsules<G: Game>(replay: &Replay, dir: &std::path::Path) -> Vec<(Seat, Option<usize>, PathBuf)> {
    let built = match cardarena::play::capsule::build::<G>(replay, None) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("warning: no crash capsule: {e:#}");
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    for c in built {
        match cardarena::play::capsule::write(&c, dir) {
            Ok(path) => out.push((c.seat, c.fault.decision, path)),
            Err(e) => eprintln!("warning: {e:#}"),
        }
    }
    out
}

fn play_result<'a>(replay: &'a Replay, capsules: &[(Seat, Option<usize>, PathBuf)]) -> PlayResult<'a> {
    PlayResult {
        game: &replay.game,
        variant: &replay.variant,
        seed: replay.seed,
        seats: replay
            .bots
            .iter()
            .enumerate()
            .map(|(seat, bot)| SeatResult {
                bot: &bot.name,
                points: replay.outcome.points[seat],
                rank: replay.outcome.ranks[seat],
                faults: replay.faults[seat]
                    .iter()
                    .map(|f| SeatFault {
                        verdict: f.verdict.name(),
                        decision: f.decision,
                        message: &f.message,
                        capsule: capsules
                            .iter()
                            .find(|(s, d, _)| *s == seat && *d == f.decision)
                            .map(|(_, _, p)| p.display().to_string()),
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// The readable game log of `arena play`.
struct TextLog {
    names: Vec<String>,
    out: String,
    /// Where each fault's lines end in `out`, with its seat and decision: the capsule's path is
    /// inserted there after the match.
    fault_ends: Vec<(usize, Seat, Option<usize>)>,
    /// Decisions made so far, per seat.
    decided: Vec<usize>,
}

impl<G: Game> MatchObserver<G> for TextLog {
    fn start(&mut self, state: &G) {
        self.out.push_str(&indent(&state.summary()));
    }

    fn decision(&mut self, index: usize, record: &DecisionRecord) {
        let who = format!("seat {} ({})", record.seat, self.names[record.seat]);
        let what = match (&record.played, &record.fault) {
            (Some(p), None) => p.clone(),
            (Some(p), Some(_)) => format!("{p} (played by the arena after the fault)"),
            (None, _) => "no move".to_string(),
        };
        self.out.push_str(&format!("#{index:<3} {who}: {what}\n"));
        self.decided[record.seat] += 1;
        if let Some(fault) = &record.fault {
            self.write_fault(record.seat, fault, Some((self.decided[record.seat], index)));
        }
        for line in &record.log {
            self.out.push_str(&format!("      log: {line}\n"));
        }
    }

    fn applied(&mut self, state: &G) {
        self.out.push_str(&indent(&state.summary()));
    }

    fn fault(&mut self, seat: Seat, fault: &FaultRecord) {
        // Faults of decisions are shown with their decision; this is a failed start.
        if fault.decision.is_none() {
            self.write_fault(seat, fault, None);
        }
    }

    fn end(&mut self, outcome: &Outcome, _state: &G) {
        self.out.push_str("Result:\n");
        for (seat, name) in self.names.iter().enumerate() {
            self.out.push_str(&format!(
                "  seat {seat} {name}: {} {}, rank {}\n",
                outcome.points[seat],
                cardarena::play::games::points_word(G::FEWER_POINTS_BETTER),
                outcome.ranks[seat]
            ));
        }
    }
}

impl TextLog {
    /// A fault's lines; `at` is the decision (the seat's own count, the match's index).
    fn write_fault(&mut self, seat: Seat, fault: &FaultRecord, at: Option<(usize, usize)>) {
        let at = at.map_or_else(
            || " at its start".to_string(),
            |(own, i)| format!(" at its {}", decision_place(own, i)),
        );
        self.out.push_str(&format!(
            "      FAULT seat {seat} ({}){at}: {}: {}\n",
            self.names[seat], fault.verdict, fault.message
        ));
        if let Some(trace) = &fault.trace {
            self.out.push_str(&indent(trace));
        }
        self.fault_ends.push((self.out.len(), seat, fault.decision));
    }
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("      {l}\n")).collect()
}

fn default_threads() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

fn tournament_cmd(args: TournamentArgs, games: &GameSet) -> anyhow::Result<()> {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    let url =
        args.db.as_deref().and_then(|d| d.to_str()).filter(|d| cardarena::tournament::queue::is_queue_url(d));
    if args.status {
        return queue::status_cmd(
            url.context("--status needs a job queue: --db sqlite:PATH or postgres://…")?,
            args.give_up_after,
        );
    }
    if args.shard.is_some() && url.is_some() {
        bail!("--shard splits a local run into results database files (--db FILE); a job queue needs no shards: start more `arena worker`s");
    }
    if args.enqueue && url.is_none() {
        bail!("--enqueue needs a job queue: --db sqlite:PATH or postgres://USER@HOST:PORT/DB");
    }
    let config = cardarena::tournament::config::load(&args.file, games.lib())?;
    let db = args.db.clone().unwrap_or_else(|| cardarena::tournament::default_db_path(&args.file));
    let threads = args.threads.unwrap_or_else(default_threads);
    if threads == 0 && url.is_none() {
        bail!("--threads must be at least 1");
    }
    let stop = Arc::new(AtomicBool::new(false));
    let stop_now = Arc::new(AtomicBool::new(false));
    {
        let (stop, stop_now) = (stop.clone(), stop_now.clone());
        // First Ctrl-C: finish the matches being played, keep everything, print the standings so far.
        // Second: stop now, dropping the matches in play, and print the same summary.
        let _ = ctrlc::set_handler(move || {
            if stop.swap(true, Ordering::SeqCst) {
                stop_now.store(true, Ordering::SeqCst);
                eprintln!("\nstopping now: the matches in play are dropped (every finished match is kept)");
            } else {
                eprintln!("\nstopping: finishing the matches in play (Ctrl-C again to stop now)");
            }
        });
    }
    let opts = cardarena::tournament::RunOptions {
        games: Arc::new(games.lib().clone()),
        threads: threads.max(1),
        progress: std::sync::Arc::new(crate::progress::Bar::new(!args.quiet)),
        stop_now: Some(stop_now),
    };
    let started = std::time::Instant::now();
    let mut alarms = Vec::new();
    let result = if let Some(url) = url {
        let ran = queue::tournament_via_queue(&config, url, &args, threads, &opts, &stop, games)?;
        if ran.enqueued {
            return Ok(());
        }
        alarms = ran.alarms;
        ran.result
    } else {
        let store = cardarena::tournament::store::Store::open(&db)?;
        if let Some(shard) = args.shard {
            let result = cardarena::tournament::run_shard(&config, &store, shard, &opts, &stop)?;
            eprintln!(
                "shard {}/{}: {} matches played now, {} found in {} ({:.1} s); merge the shards with `arena merge OUT.db SHARD.db…`, then `arena tournament FILE --db OUT.db` prints the standings",
                shard.0,
                shard.1,
                result.played_now,
                result.resumed,
                store.path().display(),
                started.elapsed().as_secs_f64()
            );
            return Ok(());
        }
        cardarena::tournament::run(&config, &store, &opts, &stop)?
    };
    let store_path = db.as_path();
    let mut text = String::new();
    for ev in &result.events {
        if ev.matches == 0 && ev.planned > 0 {
            continue; // stopped before its first match: nothing to show
        }
        text.push_str(&cardarena::tournament::standings::render(ev, args.ratings == "all"));
        text.push('\n');
    }
    let to_stdout = |p: &Option<PathBuf>| p.as_deref() == Some(std::path::Path::new("-"));
    if !to_stdout(&args.json) && !to_stdout(&args.csv) {
        print_out(&text)?;
    }
    if url.is_none() {
        eprintln!(
            "{} matches played now, {} found in {} ({:.1} s, {} threads)",
            result.played_now,
            result.resumed,
            store_path.display(),
            started.elapsed().as_secs_f64(),
            threads,
        );
    }
    if result.interrupted {
        eprint!("{}", stopped_summary(&result));
    }
    eprint!("{}", terminal_safe(&fault_summary(&result.faults, store_path)));
    if let Some(out) = &args.json {
        let json = serde_json::to_string_pretty(&result)? + "\n";
        write_out(out, &json)?;
    }
    if let Some(out) = &args.csv {
        write_out(out, &standings_csv(&result))?;
    }
    if let Some(out) = &args.html {
        let faults: Vec<cardarena::tournament::report::ReportFault> = result
            .faults
            .iter()
            .map(|f| cardarena::tournament::report::ReportFault {
                event: f.event.clone(),
                bot: f.bot.clone(),
                verdict: f.verdict.name().to_string(),
                at: f.decision.map(|d| format!("decision {d}")).unwrap_or_else(|| "start".into()),
                message: f.message.clone(),
                command: match (f.match_id, &f.capsule) {
                    (_, Some(c)) => format!("arena repro {}", c.display()),
                    (Some(id), None) => format!("arena replay --db {} {id}", store_path.display()),
                    (None, None) => String::new(),
                },
            })
            .collect();
        let title = format!("cardarena tournament: {}", args.file.display());
        write_out(out, &cardarena::tournament::report::html(&title, &result.events, &faults))?;
    }
    if !alarms.is_empty() {
        return Err(DeterminismAlarm(queue::alarms_text(&alarms)).into());
    }
    Ok(())
}

/// What the tables of a stopped run cover: per event, the prefix of the plan counted.
fn stopped_summary(result: &cardarena::tournament::TournamentResult) -> String {
    let mut out = String::from("stopped early; run the same command again to resume:\n");
    for ev in &result.events {
        if ev.matches < ev.planned {
            out.push_str(&format!(
                "  {}: the table counts the first {} of {} matches in plan order (later matches that finished are stored and kept)\n",
                ev.name, ev.matches, ev.planned
            ));
        }
    }
    for name in &result.not_started {
        out.push_str(&format!("  {name}: not started, no table\n"));
    }
    out
}

/// The faults of the matches played now, one line per distinct failure (bot, verdict, site)
/// with its count, first match id and crash capsule (at most 20 listed).
fn fault_summary(faults: &[cardarena::tournament::FaultNote], db: &std::path::Path) -> String {
    const SHOWN: usize = 20;
    if faults.is_empty() {
        return String::new();
    }
    let total: u64 = faults.iter().map(|f| f.count).sum();
    let mut out = format!(
        "{total} fault(s) in the matches played now, {} distinct, each with a crash capsule (bots that loaded) in {} (rerun one with `arena repro CAPSULE`):\n",
        faults.len(),
        cardarena::tournament::capsule_dir(db).display()
    );
    for f in faults.iter().take(SHOWN) {
        let id = f.match_id.map(|id| format!("match {id}")).unwrap_or_else(|| "match ?".into());
        let at = f.decision.map(|d| format!("decision {d}")).unwrap_or_else(|| "start".into());
        let first = f.message.lines().next().unwrap_or_default();
        out.push_str(&format!(
            "  {} {}: {} ×{} (first: {id}, seat {}, {at}): {first}\n",
            f.event, f.bot, f.verdict, f.count, f.seat
        ));
        if let Some(c) = &f.capsule {
            out.push_str(&format!("      capsule: {}\n", c.display()));
        }
    }
    if faults.len() > SHOWN {
        out.push_str(&format!("  … and {} more\n", faults.len() - SHOWN));
    }
    out.push_str(&format!(
        "  (see a match with `arena replay --db {} ID`; list them with `arena replay --db {} --list`)\n",
        db.display(),
        db.display()
    ));
    out
}

fn write_out(path: &std::path::Path, text: &str) -> anyhow::Result<()> {
    if path == std::path::Path::new("-") {
        print_out(text)
    } else {
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
    }
}

use cardarena::tournament::grade::csv_field;

fn standings_csv(result: &cardarena::tournament::TournamentResult) -> String {
    let mut out = String::from(
        "event,game,variant,rank,bot,hash,matches,score,points,wins,draws,losses,rating,ci_low,ci_high,vs_leader,vs_leader_low,vs_leader_high,elo,glicko2,trueskill,mean_fuel_per_decision,faults\n",
    );
    for ev in &result.events {
        for s in &ev.standings {
            let faults = s.faults.iter().map(|(k, v)| format!("{k}:{v}")).collect::<Vec<_>>().join(" ");
            let vs_leader = s
                .vs_leader
                .map(|d| format!("{:.1},{:.1},{:.1}", d.diff, d.low, d.high))
                .unwrap_or_else(|| ",,".into());
            out.push_str(&format!(
                "{},{},{},{},{},{},{},{},{},{},{},{},{:.1},{:.1},{:.1},{},{:.1},{:.1},{:.3},{},{}\n",
                csv_field(&ev.name),
                ev.game,
                ev.variant,
                s.rank,
                csv_field(&s.bot),
                s.hash,
                s.matches,
                s.score,
                s.points,
                s.wins,
                s.draws,
                s.losses,
                s.rating,
                s.ci_low,
                s.ci_high,
                vs_leader,
                s.elo,
                s.glicko2,
                s.trueskill,
                s.mean_fuel_per_decision.map(|f| format!("{f:.1}")).unwrap_or_default(),
                csv_field(&faults)
            ));
        }
    }
    out
}

pub(crate) fn sprt_game<G: Hosted>(args: &SprtArgs) -> anyhow::Result<()> {
    use cardarena::stats::sprt::{EloModel, Sprt, SprtDecision, SprtParams};
    use rayon::prelude::*;

    if G::PLAYERS != 2 {
        bail!("sprt compares two bots head to head, in two-player games only; for {} use a gauntlet in arena.toml", G::NAME);
    }
    if args.bots.len() != 2 {
        bail!("--bots takes NEW,OLD: exactly two bots");
    }
    let model = match args.elo_model {
        EloModelArg::Logistic => EloModel::Logistic,
        EloModelArg::Normalized => EloModel::Normalized,
    };
    let params = SprtParams { model, elo0: args.elo0, elo1: args.elo1, alpha: args.alpha, beta: args.beta };
    if !(params.alpha > 0.0 && params.alpha < 0.5 && params.beta > 0.0 && params.beta < 0.5) {
        bail!("--alpha and --beta must be between 0 and 0.5");
    }
    if params.elo1 <= params.elo0 {
        bail!("--elo1 must be greater than --elo0");
    }
    let variant = registry::variant::<G>(args.variant.as_deref())?;
    let loader = Loader::new();
    let sources = args.bots.iter().map(|b| loader.resolve::<G>(b)).collect::<Result<Vec<_>, _>>()?;
    let limits = args.limits.config();
    let entries: Vec<_> = sources.iter().map(BotSource::entry).collect();
    let threads = args.threads.unwrap_or_else(default_threads).max(1);
    let lanes = registry::Lanes::new(loader.started_sandbox(), sources, threads);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    let (lower, upper) = params.bounds();
    let model_name = match model {
        EloModel::Logistic => "logistic",
        EloModel::Normalized => "normalized",
    };
    println!(
        "SPRT {} ({variant}): {} (new) vs {} (old), H0 elo {} / H1 elo {} ({} Elo), alpha {} beta {}, bounds [{lower:.2}, {upper:.2}] before the overshoot correction",
        G::NAME, args.bots[0], args.bots[1], params.elo0, params.elo1, model_name, params.alpha, params.beta
    );
    // One game's score for NEW (seat `new_seat`): 1 win, 0.5 draw, 0 loss.
    let play = |pair: u64, new_seat: usize| -> u32 {
        let seed = cardarena::tournament::schedule::deal_seed(args.seed, pair as u32);
        let order = if new_seat == 0 { [0, 1] } else { [1, 0] };
        let sources = lanes.for_worker(rayon::current_thread_index());
        let r = order
            .iter()
            .fold(Match::<G>::new(variant, seed), |t, &i| {
                t.seat_with(entries[i].clone(), &sources[i], sources[i].limits(&limits).as_ref())
            })
            .play();
        match (r.outcome.ranks[new_seat], r.outcome.ranks[1 - new_seat]) {
            (1, 1) => 1,
            (1, _) => 2,
            _ => 0,
        }
    };
    let mut test = Sprt::new(params);
    let mut pair = 0u64;
    let batch = (threads * 16) as u64;
    let mut next_report = 100u64;
    let mut decision = SprtDecision::Continue;
    while decision == SprtDecision::Continue && pair < args.max_pairs {
        let end = (pair + batch).min(args.max_pairs);
        let scores: Vec<u32> =
            pool.install(|| (pair..end).into_par_iter().map(|p| play(p, 0) + play(p, 1)).collect());
        for s in scores {
            pair += 1;
            decision = test.record(s as usize);
            if pair >= next_report || decision != SprtDecision::Continue {
                let (lo, hi) = test.bounds();
                println!(
                    "pairs {pair:>6}  [0, ½, 1, 1½, 2] = {:?}  LLR {:>6.2}  bounds [{lo:.2}, {hi:.2}]",
                    test.counts, test.llr
                );
                next_report = pair + 100;
            }
            if decision != SprtDecision::Continue {
                break;
            }
        }
    }
    let verdict = match decision {
        SprtDecision::AcceptH1 => {
            format!(
                "H1 accepted: {} is stronger (by about {} {model_name} Elo or more)",
                args.bots[0], params.elo1
            )
        }
        SprtDecision::AcceptH0 => {
            format!("H0 accepted: {} is not stronger by {} {model_name} Elo", args.bots[0], params.elo1)
        }
        SprtDecision::Continue => {
            format!("no decision after {pair} pairs (LLR {:.2}); raise --max-pairs", test.llr)
        }
    };
    let estimate = match params.estimate(&test.counts) {
        Some((elo, lo, hi)) => format!(
            "\n{model_name} Elo of {} over {}: {elo:+.1} (95% CI {lo:+.1}..{hi:+.1}), from {pair} pairs{}",
            args.bots[0],
            args.bots[1],
            if decision == SprtDecision::Continue {
                ""
            } else {
                " (a stopped test's estimate leans towards its verdict)"
            }
        ),
        None => String::new(),
    };
    print_out(&format!("{verdict}{estimate}\n"))
}
