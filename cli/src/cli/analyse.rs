//! `arena analyse`: a seat's decisions in a replay, valued from what the seat could know.

use std::path::PathBuf;

use anyhow::Context;

use super::print_out;
use cardarena::analyse::Analysis;
use cardarena::games::Seat;
use cardarena::play::runner::Replay;

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

pub(super) fn analyse_cmd(args: AnalyseArgs, games: &super::GameSet) -> anyhow::Result<()> {
    let replay = cardarena::play::resim::load_file(&args.replay)?;
    let source = args.replay.display().to_string();
    let analysis = analyse_any(games.lib(), &replay, &source, args.seat, args.budget)?;
    print_out(&if args.json { analysis.to_json() } else { analysis.to_text() })
}

/// The one per-game dispatch of the analysis.
pub(crate) fn analyse_any(
    games: &cardarena::Games,
    replay: &Replay,
    source: &str,
    seat: Seat,
    budget: Option<u32>,
) -> anyhow::Result<Analysis> {
    let game = games.get(&replay.game).with_context(|| source.to_string())?;
    Ok(game.analyse(replay, source, seat, budget)?)
}

/// `arena check --analyse`: the bot's most costly situations over `analyses` (one per match):
/// its decisions grouped by (phase, what it played, what was better), by total loss.
pub(crate) fn situations_text(analyses: &[Analysis]) -> String {
    use std::collections::BTreeMap;
    use std::fmt::Write as _;
    let decisions: Vec<_> = analyses.iter().flat_map(|a| &a.decisions).collect();
    let total: f64 = decisions.iter().map(|d| d.loss).sum();
    let mut out = format!(
        "analysis of {} matches: {} decisions with a choice, expected loss {:.2} points ({:.3} a decision)\n",
        analyses.len(),
        decisions.len(),
        total,
        total / decisions.len().max(1) as f64
    );
    // (phase, chosen, better) -> (times, marked ? or ??, total loss)
    let mut groups: BTreeMap<(String, String, String), (usize, usize, f64)> = BTreeMap::new();
    for d in decisions.iter().filter(|d| d.loss > 0.0 && d.mark.is_some()) {
        let key = (d.phase.clone().unwrap_or_default(), d.chosen.clone(), d.best.clone());
        let g = groups.entry(key).or_default();
        g.0 += 1;
        g.1 += usize::from(matches!(d.mark, Some("?" | "??")));
        g.2 += d.loss;
    }
    let mut order: Vec<_> = groups.into_iter().collect();
    order.sort_by(|a, b| b.1 .2.total_cmp(&a.1 .2).then(a.0.cmp(&b.0)));
    if order.is_empty() {
        out.push_str("  no marked decisions\n");
    }
    for ((phase, chosen, best), (times, mistakes, loss)) in order.iter().take(8) {
        let phase = if phase.is_empty() { String::new() } else { format!("{phase}: ") };
        let _ = writeln!(
            out,
            "  {phase}played {chosen} where {best} was better: {times}× ({mistakes} mistakes or blunders), {loss:.2} points"
        );
    }
    out
}
