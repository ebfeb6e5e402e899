//! Drawing a replay for `arena replay` ([`render`]), for a spectator or as one seat saw it, from
//! its re-simulation ([`crate::play::resim::walk`]).

use crate::games::view::View;
use crate::games::Seat;
use crate::play::resim::walk;
use crate::play::runner::prefix;
use crate::play::runner::{DecisionRecord, FaultRecord, Replay};
use crate::play::HostError;

/// What `arena replay` shows.
#[derive(Clone, Debug, Default)]
pub struct RenderOptions {
    /// Show only what this seat saw.
    pub as_seat: Option<Seat>,
    /// Show decisions from this index on.
    pub from: Option<usize>,
    /// Show decisions up to this index (inclusive).
    pub to: Option<usize>,
}

/// Draws a replayed match: a header, the start, every decision (seat, bot, move, fuel, fault,
/// log lines) with the board after each decision point, and the result. With
/// [`RenderOptions::as_seat`], only that seat's observations are drawn (so nothing hidden from it
/// appears) and only its own moves are listed.
///
/// # Errors
/// As [`walk`]; or the seat does not exist.
pub fn render<G: View>(replay: &Replay, source: &str, opts: &RenderOptions) -> Result<String, HostError> {
    let walk = walk::<G>(replay, source)?;
    if let Some(seat) = opts.as_seat {
        if seat >= G::PLAYERS {
            return Err(HostError::Request(format!(
                "--as-seat {seat}: {} has seats 0 to {}",
                G::NAME,
                G::PLAYERS - 1
            )));
        }
    }
    let shown = |i: usize| opts.from.is_none_or(|f| i >= f) && opts.to.is_none_or(|t| i <= t);
    let name = |s: Seat| replay.bots[s].name.as_str();
    let mut out = format!("{} ({}), seed {}\n", replay.game, replay.variant, replay.seed);
    for (s, bot) in replay.bots.iter().enumerate() {
        out.push_str(&format!("  seat {s}: {} ({})\n", bot.name, prefix(&bot.hash, 12)));
    }
    for (s, faults) in replay.faults.iter().enumerate() {
        for f in faults.iter().filter(|f| f.decision.is_none()) {
            if opts.as_seat.is_none_or(|me| me == s) {
                out.push_str(&format!("seat {s} ({}) failed to start:\n", name(s)));
                out.push_str(&fault_lines(f));
            }
        }
    }
    match opts.as_seat {
        None => {
            if opts.from.is_none() {
                out.push_str("start:\n");
                out.push_str(&indent(&walk.start.render_state()));
            }
            for p in &walk.points {
                let range = p.first..p.first + p.seats.len();
                if !range.clone().any(shown) {
                    continue;
                }
                for i in range {
                    out.push_str(&decision_lines(i, &replay.decisions[i], name(replay.decisions[i].seat)));
                }
                match &p.after {
                    Some(after) => out.push_str(&indent(&after.render_state())),
                    None => out.push_str("      the match ends here: the fault forfeits it\n"),
                }
            }
        }
        Some(me) => {
            out.push_str(&format!(
                "as seat {me} ({}) saw it: other seats' moves show only on the board\n",
                name(me)
            ));
            for p in &walk.points {
                let range = p.first..p.first + p.seats.len();
                if !range.clone().any(shown) {
                    continue;
                }
                let acting = p.seats.contains(&me);
                let others: Vec<String> =
                    p.seats.iter().filter(|&&s| s != me).map(|s| s.to_string()).collect();
                let who = match (acting, others.is_empty()) {
                    (true, true) => format!("seat {me} (you) to act"),
                    (true, false) => format!("seat {me} (you) and seat {} to act", others.join(", ")),
                    (false, _) => format!("seat {} to act", others.join(", ")),
                };
                out.push_str(&format!("#{:<4} {who}\n", p.first));
                out.push_str(&indent(&G::render_observation(&p.before.observe(me))));
                if acting {
                    let k = p.seats.iter().position(|&s| s == me).expect("acting");
                    let i = p.first + k;
                    out.push_str(&decision_lines(i, &replay.decisions[i], name(me)));
                }
            }
            if opts.to.is_none() {
                out.push_str("end:\n");
                out.push_str(&indent(&G::render_observation(&walk.end.observe(me))));
            }
        }
    }
    if opts.to.is_none() {
        out.push_str("Result:\n");
        for s in 0..G::PLAYERS {
            out.push_str(&format!(
                "  seat {s} {}: {} {}, rank {}\n",
                name(s),
                replay.outcome.points[s],
                crate::play::games::points_word(G::FEWER_POINTS_BETTER),
                replay.outcome.ranks[s]
            ));
        }
    }
    Ok(out)
}

/// One decision as `arena replay` prints it: index, seat, bot, move, fuel, then fault and log.
pub fn decision_lines(index: usize, d: &DecisionRecord, bot: &str) -> String {
    let what = match (&d.reply, &d.played, &d.fault) {
        (_, Some(p), None) => p.clone(),
        (Some(r), Some(p), Some(_)) => format!("{r:?} refused; the arena played {p}"),
        (None, Some(p), Some(_)) => format!("no reply; the arena played {p}"),
        (Some(r), None, _) => format!("{r:?} (the match ends)"),
        (None, None, _) => "no reply (the match ends)".to_string(),
    };
    let fuel = d.fuel.map(|f| format!("   fuel {f}")).unwrap_or_default();
    let mut out = format!("#{index:<4} seat {} ({bot}): {what}{fuel}\n", d.seat);
    for line in &d.log {
        out.push_str(&format!("      log: {line}\n"));
    }
    if let Some(f) = &d.fault {
        out.push_str(&fault_lines(f));
    }
    out
}

/// A fault as printed under its decision.
pub fn fault_lines(f: &FaultRecord) -> String {
    let mut out = format!("      FAULT {}: {}\n", f.verdict, f.message);
    if let Some(trace) = &f.trace {
        out.push_str(&indent(&indent(trace)));
    }
    out
}

/// Indents every line by six spaces.
pub fn indent(text: &str) -> String {
    text.lines().map(|l| format!("      {l}\n")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::bot::{builtin, Bot};
    use crate::games::blade::Blade;
    use crate::games::ecard::Ecard;
    use crate::games::intensity::Intensity;
    use crate::games::lost_cities::LostCities;
    use crate::games::Game;
    use crate::play::runner::{run_match, BotEntry, MatchSpec, Quiet};
    use crate::play::Hosted;

    fn played<G: Hosted>(seed: u64) -> Replay {
        let names = ["greedy", "random", "random", "greedy"];
        let spec = MatchSpec::<G> {
            variant: G::variants()[0],
            seed,
            entries: names[..G::PLAYERS]
                .iter()
                .map(|n| BotEntry { name: n.to_string(), hash: "h".into() })
                .collect(),
        };
        let mut bots: Vec<Box<dyn Bot<G>>> =
            (0..G::PLAYERS).map(|s| builtin::<G>(names[s], seed, s).unwrap()).collect();
        run_match(&spec, &mut bots, &mut Quiet)
    }

    fn walks_to_the_recorded_outcome<G: Hosted + View>() {
        for seed in 0..3 {
            let replay = played::<G>(seed);
            let w = walk::<G>(&replay, "test").unwrap();
            assert_eq!(w.end.outcome().unwrap(), replay.outcome);
            let covered: usize = w.points.iter().map(|p| p.seats.len()).sum();
            assert_eq!(covered, replay.decisions.len());
            // every seat's view and the spectator's board render at every point
            for p in &w.points {
                assert!(!p.before.render_state().is_empty());
                for s in &p.seats {
                    let text = G::render_observation(&p.before.observe(*s));
                    assert!(text.contains("<- you") || G::NAME == "ecard", "{text}");
                    assert!(!text.contains("legal"), "the view leaves the legal list out: {text}");
                }
            }
        }
    }

    #[test]
    fn every_game_walks_its_replays_to_the_recorded_outcome() {
        walks_to_the_recorded_outcome::<Blade>();
        walks_to_the_recorded_outcome::<Ecard>();
        walks_to_the_recorded_outcome::<LostCities>();
        walks_to_the_recorded_outcome::<Intensity>();
    }

    #[test]
    fn a_move_that_is_not_legal_names_the_decision() {
        let mut replay = played::<Blade>(1);
        replay.decisions[2].played = Some("M".repeat(3));
        let err = format!("{:#}", walk::<Blade>(&replay, "r.json").unwrap_err());
        assert!(err.starts_with("r.json: decision #2 (seat"), "{err}");
        let mut replay = played::<Blade>(1);
        replay.decisions[1].seat = 1 - replay.decisions[1].seat;
        let err = format!("{:#}", walk::<Blade>(&replay, "r.json").unwrap_err());
        assert!(err.contains("decision #1 is by seat"), "{err}");
    }

    #[test]
    fn the_spectator_board_shows_every_hand_and_a_seat_view_only_its_own() {
        // Lost Cities hands are hidden (seed-games.md §3(b)).
        let state = LostCities::new(LostCities::variants()[0], 7);
        let board = state.render_state();
        for s in 0..2 {
            for c in state.hand(s) {
                assert!(board.contains(&c.to_string()), "{c} missing in\n{board}");
            }
        }
        let mine = LostCities::render_observation(&state.observe(0));
        let hand1: Vec<String> = state.hand(1).iter().map(|c| c.to_string()).collect();
        let words: Vec<&str> = mine.split_whitespace().collect();
        assert!(hand1.iter().all(|c| !words.contains(&c.as_str())), "{mine}");
        assert!(mine.contains("seat 1 hand: 8 cards"), "{mine}");
    }
}
