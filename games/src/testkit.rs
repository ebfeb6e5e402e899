//! Generic checks that every game must pass, shared by the per-game property tests.
//!
//! These are plain functions returning `Err(description)` so that proptest (or a benchmark) can
//! drive them with any seed.

use super::{Game, Observation, Seat};
use crate::rng::{Rng, Stream};

/// A whole match played with uniformly random legal actions: the final state and every
/// `(seat, action)` in order.
pub struct Playout<G: Game> {
    /// The finished state.
    pub state: G,
    /// Every action played, in order.
    pub actions: Vec<(Seat, String)>,
}

/// Plays `variant` from `seed` with uniformly random legal moves (randomness from `pick_seed`),
/// checking on the way that:
/// - while the match is not over, somebody is to act, and every seat to act has a legal action;
/// - every listed legal action is accepted by the checked [`Game::play`];
/// - a seat not to act has no legal actions and its observation's `legal` is empty;
/// - the observation's `legal` equals `legal_strings`;
/// - the match ends within `max_actions`, and the outcome has one point and rank per seat.
///
/// # Errors
/// A description of the first broken invariant.
pub fn random_playout<G: Game>(
    variant: G::Variant,
    seed: u64,
    pick_seed: u64,
    max_actions: usize,
) -> Result<Playout<G>, String> {
    let mut state = G::new(variant, seed);
    let mut rng = Rng::new(pick_seed, Stream::Arena);
    let mut actions = Vec::new();
    while !state.is_over() {
        if actions.len() >= max_actions {
            return Err(format!("no end after {max_actions} actions"));
        }
        let to_act = state.to_act();
        if to_act.is_empty() {
            return Err("not over but nobody is to act".into());
        }
        for seat in 0..G::PLAYERS {
            let legal = state.legal_strings(seat);
            let obs = state.observe(seat);
            if obs.seat() != seat {
                return Err(format!("observation for seat {seat} says seat {}", obs.seat()));
            }
            if obs.legal() != legal.as_slice() {
                return Err(format!(
                    "seat {seat}: observation legal {:?} != legal_strings {legal:?}",
                    obs.legal()
                ));
            }
            if !to_act.contains(&seat) && !legal.is_empty() {
                return Err(format!("seat {seat} is not to act but has legal actions {legal:?}"));
            }
        }
        // Every seat to act chooses before any choice is applied (as the runner does).
        let mut chosen = Vec::new();
        for &seat in &to_act {
            let legal = state.legal_strings(seat);
            if legal.is_empty() {
                return Err(format!("seat {seat} is to act but has no legal action"));
            }
            chosen.push((seat, legal[rng.below(legal.len())].clone()));
        }
        for (seat, action) in chosen {
            state.play(seat, &action).map_err(|e| format!("listed legal action refused: {e}"))?;
            actions.push((seat, action));
        }
    }
    let outcome = state.outcome().expect("over");
    if outcome.points.len() != G::PLAYERS || outcome.ranks.len() != G::PLAYERS {
        return Err(format!("outcome has the wrong number of seats: {outcome:?}"));
    }
    if !state.to_act().is_empty() {
        return Err("match over but somebody is still to act".into());
    }
    Ok(Playout { state, actions })
}

/// Replays `actions` on a fresh state from `setup`, stopping at the first refused action.
///
/// # Errors
/// The setup is invalid or an action is refused.
pub fn replay<G: Game>(setup: G::Setup, actions: &[(Seat, String)]) -> Result<G, String> {
    let mut state = G::from_setup(setup).map_err(|e| e.to_string())?;
    for (seat, action) in actions {
        state.play(*seat, action).map_err(|e| e.to_string())?;
    }
    Ok(state)
}

/// The observation of `seat` as the exact JSON a bot receives.
pub fn observation_json<G: Game>(state: &G, seat: Seat) -> String {
    serde_json::to_string(&state.observe(seat)).expect("observations serialize")
}

/// The observation of the eighth decision of Blade (default variant, seed 7) between two
/// `random` bots: a typical mid-match observation, for benchmarks and profiles. (It replays the
/// built-in `random` bot's choices: each seat draws from its own [`Stream::Bot`] stream.)
pub fn blade_observation() -> <crate::blade::Blade as Game>::Observation {
    use crate::blade::Blade;
    let mut state = Blade::new(Blade::variants()[0], 7);
    let mut rngs: Vec<Rng> = (0..2).map(|seat| Rng::new(7, Stream::Bot(seat))).collect();
    let mut last = None;
    for _ in 0..8 {
        let Some(&seat) = state.to_act().first() else { break };
        let obs = state.observe(seat);
        let action = rngs[seat].choose(obs.legal()).cloned().expect("a seat to act has a legal action");
        last = Some(obs);
        state.play(seat, &action).expect("legal");
    }
    last.expect("a blade match has decisions")
}
