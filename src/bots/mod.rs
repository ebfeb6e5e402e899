//! Built-in native bots: `random` (uniform over legal, seeded) and `greedy` (a one-ply heuristic
//! per game). They see exactly what a sandboxed bot sees: the seat's observation, nothing more.

use crate::games::Game;
use crate::rng::Rng;

// One line per game; the lines between keep the games' branches from touching each other.
mod blade;
// --
mod ecard;
// --
mod intensity;
// --
mod lost_cities;
// --

/// A game's `greedy` bot: a sensible one-ply heuristic that decides from the observation alone.
pub trait Greedy: Game {
    /// The greedy choice for this observation; must be one of `obs.legal()`.
    /// `rng` is the bot's own seeded stream, for tie-breaks.
    fn greedy_action(obs: &Self::Observation, rng: &mut Rng) -> Self::Action;
}
