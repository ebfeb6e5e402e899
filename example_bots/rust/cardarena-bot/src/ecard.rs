//! E-card: the arena's own observation types (`cardarena-games`), as documented in
//! `docs/games/ecard.md`, read from the JSON the bot receives.
//!
//! An action is a card's letter: `card.letter()` (`"E"`, `"C"`, `"S"`).

pub use cardarena_games::ecard::{
    Card, EcardObservation as Observation, Phase, RoundRecord, RoundResult, Side, Variant,
};
