//! Intensity: the arena's own observation types (`cardarena-games`), as documented in
//! `docs/games/intensity.md`, read from the JSON the bot receives.
//!
//! A card is a number 10..49 (`card.number()`, `card.suit()`, `card.rank()`, `card.penalty()`);
//! an action is `Action::Play(card).to_string()` (`"play 33"`) or
//! `Action::Pass([a, b, c]).to_string()` (`"pass 12 33 47"`, ascending).

pub use cardarena_games::intensity::{
    Action, Card, CurrentTrick, IntensityObservation as Observation, Phase, Trick, Variant,
};
