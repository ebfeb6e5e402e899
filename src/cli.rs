//! The `arena` command line. Only this module knows clap.
//!
//! Exit codes: 0 success, 2 an error (bad arguments, unreadable files); a broken pipe on stdout
//! counts as success.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context};
use clap::{Parser, Subcommand};
use serde::Serialize;

use crate::bots::Greedy;
use crate::games::{self, Game, Outcome, Seat};
use crate::registry::{self, BotSource};
use crate::runner::{run_match, DecisionRecord, FaultRecord, MatchObserver, MatchSpec, Quiet, Replay};
use crate::with_game;

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
}

#[derive(Debug, clap::Args)]
struct PlayArgs {
    /// The game: blade, ecard, lost-cities or intensity.
    #[arg(long)]
    game: String,
    /// The variant (default: the game's first variant, see `arena games`).
    #[arg(long)]
    variant: Option<String>,
    /// The bots in seat order, comma-separated: `random`, `greedy`, or a path to a .lua/.wasm/.wat file.
    #[arg(long, value_delimiter = ',', required = true)]
    bots: Vec<String>,
    /// The match seed; the same seed, variant and bots give the same match.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Print exactly one JSON object with the result instead of the game log.
    #[arg(long)]
    json: bool,
    /// Also write the full replay (JSON) to this file.
    #[arg(long, value_name = "FILE")]
    replay: Option<PathBuf>,
}

/// Runs the command line; the error chain is printed by `main`.
///
/// # Errors
/// Whatever the subcommand fails with.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Games => games_cmd(),
        Command::Play(args) => play_cmd(args),
    }
}

fn games_cmd() -> anyhow::Result<()> {
    let mut out = String::new();
    for g in games::GAMES {
        out.push_str(&format!(
            "{:<12} {} players  variants: {} (default {})\n    {}\n",
            g.name,
            g.players,
            g.variants.join(", "),
            g.variants[0],
            g.about
        ));
    }
    print_out(&out)
}

/// Writes to stdout, treating a closed pipe as success.
fn print_out(s: &str) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(s.as_bytes()).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("cannot write to stdout"),
    }
}

fn play_cmd(args: PlayArgs) -> anyhow::Result<()> {
    let game = args.game.clone();
    with_game!(game.as_str(), G => play_game::<G>(&args))?
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
}

fn play_game<G: Greedy>(args: &PlayArgs) -> anyhow::Result<()> {
    let variant = registry::variant::<G>(args.variant.as_deref())?;
    if args.bots.len() != G::PLAYERS {
        bail!(
            "{} is a {}-player game but --bots names {} bot(s); name one per seat, comma-separated",
            G::NAME,
            G::PLAYERS,
            args.bots.len()
        );
    }
    let sources = args.bots.iter().map(|b| BotSource::resolve(b)).collect::<anyhow::Result<Vec<_>>>()?;
    let spec = MatchSpec::<G> {
        variant,
        seed: args.seed,
        entries: sources.iter().map(BotSource::entry).collect(),
    };
    let mut bots: Vec<_> = sources.iter().enumerate().map(|(seat, s)| s.instantiate::<G>(args.seed, seat)).collect();
    let replay = if args.json {
        run_match(&spec, &mut bots, &mut Quiet)
    } else {
        let mut log = TextLog { names: args.bots.clone(), out: String::new() };
        log.out.push_str(&format!(
            "{} ({}), seed {}: {}\n",
            G::NAME,
            variant,
            args.seed,
            args.bots.iter().enumerate().map(|(s, b)| format!("seat {s} {b}")).collect::<Vec<_>>().join(", ")
        ));
        let replay = run_match(&spec, &mut bots, &mut log);
        print_out(&log.out)?;
        replay
    };
    if let Some(path) = &args.replay {
        let text = serde_json::to_string_pretty(&replay)?;
        std::fs::write(path, text + "\n").with_context(|| format!("cannot write replay {}", path.display()))?;
    }
    if args.json {
        print_out(&(serde_json::to_string(&play_result(&replay))? + "\n"))?;
    }
    Ok(())
}

fn play_result(replay: &Replay) -> PlayResult<'_> {
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
                    .map(|f| SeatFault { verdict: f.verdict.name(), decision: f.decision, message: &f.message })
                    .collect(),
            })
            .collect(),
    }
}

/// The readable game log of `arena play`.
struct TextLog {
    names: Vec<String>,
    out: String,
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
        for line in &record.log {
            self.out.push_str(&format!("      log: {line}\n"));
        }
    }

    fn applied(&mut self, state: &G) {
        self.out.push_str(&indent(&state.summary()));
    }

    fn fault(&mut self, seat: Seat, fault: &FaultRecord) {
        self.out.push_str(&format!(
            "      FAULT seat {seat} ({}): {}: {}\n",
            self.names[seat], fault.verdict, fault.message
        ));
        if let Some(trace) = &fault.trace {
            self.out.push_str(&indent(trace));
        }
    }

    fn end(&mut self, outcome: &Outcome, _state: &G) {
        self.out.push_str("Result:\n");
        for (seat, name) in self.names.iter().enumerate() {
            self.out.push_str(&format!(
                "  seat {seat} {name}: {} points, rank {}\n",
                outcome.points[seat], outcome.ranks[seat]
            ));
        }
    }
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("      {l}\n")).collect()
}
