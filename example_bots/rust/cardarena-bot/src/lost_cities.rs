//! Lost Cities: the arena's own observation types (`cardarena-games`), as documented in
//! `docs/games/lost-cities.md`, read from the JSON the bot receives, and the rules' pure helpers.
//!
//! An action is `Action::Play(card).to_string()` (`"play 7D"`), `Action::Discard(card)`,
//! `Action::Draw(Source::Deck)` (`"draw deck"`) or `Action::Draw(Source::Pile(suit))` (`"draw D"`).

pub use cardarena_games::lost_cities::{
    can_extend, expedition_score, Action, BySuit, Card, Event, LostCitiesObservation as Observation, Phase,
    Source, Suit, Value, Variant,
};
