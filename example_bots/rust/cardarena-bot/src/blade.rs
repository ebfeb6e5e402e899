//! Blade: the arena's own observation types (`cardarena-games`), as documented in
//! `docs/games/blade.md`, read from the JSON the bot receives.
//!
//! An action is a card's notation: `card.to_string()` (or `card.as_str()`); `"7".parse::<Card>()`
//! reads one back. Arrays "by seat" have seat 0's entry first: yours is `[obs.seat]`.

pub use cardarena_games::blade::{
    Action, BladeObservation as Observation, Card, EndReason, Ending, Event, FieldCard, Phase, Source,
    Variant,
};
