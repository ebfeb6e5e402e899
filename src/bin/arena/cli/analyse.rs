//! `arena analyse`: a seat's decisions in a replay, valued from what the seat could know.

use std::path::PathBuf;

use anyhow::Context;

use super::print_out;
use cardarena::analyse::{analyse, Analysis};
use cardarena::games::Seat;
use cardarena::play::runner::Replay;
use cardarena::play::with_game;

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  arena play --game blade --bots mybot.lua,strong --replay m.json
  arena analyse m.json --seat 0             each decision of seat 0: values, loss, marks
  arena analyse m.json --seat 0 --json      the same as JSON
  arena analyse m.json --seat 0 --budget 2000   more samples per decision: smaller errors

Marks: ?! inaccuracy, ? mistake, ?? blunder (thresholds per game in `arena docs tools`).
The values use only what the seat observed, never the replay's hidden cards.")]
pub(super) struct AnalyseArgs {
    /// A replay file (written by `arena play --replay` or `arena replay --db … ID`).
    replay: PathBuf,
    /// The seat whose decisions to analyse.
    #[arg(long, value_name = "N")]
    seat: Seat,
    /// Print `{"game", "variant", "seat", "decisions": [...], "total_loss"}` instead of text.
    #[arg(long)]
    json: bool,
    /// Samples (determinizations) per decision; default: the game's (within 2 s a match per
    /// seat on one core).
    #[arg(long, value_name = "B", value_parser = clap::value_parser!(u32).range(1..))]
    budget: Option<u32>,
}

pub(super) fn analyse_cmd(args: AnalyseArgs) -> anyhow::Result<()> {
    let replay = cardarena::play::resim::load_file(&args.replay)?;
    let source = args.replay.display().to_string();
    let analysis = analyse_any(&replay, &source, args.seat, args.budget)?;
    print_out(&if args.json { analysis.to_json() } else { analysis.to_text() })
}

/// The one per-game dispatch of the analysis.
pub(crate) fn analyse_any(
    replay: &Replay,
    source: &str,
    seat: Seat,
    budget: Option<u32>,
) -> anyhow::Result<Analysis> {
    let id = replay.game.parse::<cardarena::play::GameId>().with_context(|| source.to_string())?;
    Ok(with_game!(id, G => analyse::<G>(replay, source, seat, budget))?)
}
