//! Intensity: the observation, as documented in `docs/games/intensity.md`.

use serde::Deserialize;

/// A card is its number, 10..49 (a JSON number in the observation).
pub type Card = u8;

/// The buffalo: taking it costs 7 points.
pub const BUFFALO: Card = 47;

/// The suit of a card: its tens digit, 1..4.
pub fn suit(card: Card) -> u8 {
    card / 10
}

/// The rank of a card within its suit: its units digit, 0..9.
pub fn rank(card: Card) -> u8 {
    card % 10
}

/// Whether the card is a calf (30..39): 1 penalty point to whoever takes it.
pub fn is_calf(card: Card) -> bool {
    suit(card) == 3
}

/// The penalty points of a card: 1 for a calf, 7 for the buffalo, else 0.
pub fn penalty(card: Card) -> i64 {
    if card == BUFFALO {
        7
    } else if is_calf(card) {
        1
    } else {
        0
    }
}

/// The pass action for three cards (any order): `"pass 12 33 47"`, ascending.
pub fn pass_action(mut cards: [Card; 3]) -> String {
    cards.sort_unstable();
    format!("pass {} {} {}", cards[0], cards[1], cards[2])
}

/// The play action for a card: `"play 33"`.
pub fn play_action(card: Card) -> String {
    format!("play {card}")
}

/// `phase`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Choosing the three cards to pass.
    Pass,
    /// The tricks.
    Play,
    /// The game is over.
    Over,
}

/// The trick in progress.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[cfg_attr(test, serde(deny_unknown_fields))]
pub struct CurrentTrick {
    /// The seat that leads it.
    pub leader: usize,
    /// The cards played so far; card `i` was played by seat `(leader + i) % 4`.
    pub cards: Vec<Card>,
}

/// A finished trick.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[cfg_attr(test, serde(deny_unknown_fields))]
pub struct Trick {
    /// The seat that led it.
    pub leader: usize,
    /// The 4 cards in play order (the first is the lead).
    pub cards: Vec<Card>,
    /// The seat that took it.
    pub winner: usize,
    /// The points it cost the winner.
    pub penalty: i64,
}

/// What an Intensity bot sees at each decision (`docs/games/intensity.md`, "Observation").
/// Arrays of 4 are by seat, seat 0 first.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[cfg_attr(test, serde(deny_unknown_fields))]
pub struct Observation {
    /// Always `"intensity"`.
    pub game: String,
    /// Always `"standard"`.
    pub variant: String,
    /// Your seat, 0..3.
    pub seat: usize,
    /// Pass, play or over.
    pub phase: Phase,
    /// Your legal actions: the 120 pass triples, or the playable cards ascending.
    pub legal: Vec<String>,
    /// Your cards, ascending.
    pub hand: Vec<Card>,
    /// The seat you pass to: `(seat + 1) % 4`.
    pub pass_to: usize,
    /// The seat you receive from: `(seat + 3) % 4`.
    pub receive_from: usize,
    /// The 3 cards you passed, ascending; empty until the pass is resolved.
    pub passed: Vec<Card>,
    /// The 3 cards you received, ascending; empty until the pass is resolved.
    pub received: Vec<Card>,
    /// The seat to play a card now; `None` in the pass phase and once over.
    pub turn: Option<usize>,
    /// The trick in progress.
    pub trick: CurrentTrick,
    /// Every finished trick, in order.
    pub tricks: Vec<Trick>,
    /// Penalty points per seat so far (tricks and faults).
    pub penalties: [i64; 4],
    /// The part of `penalties` that comes from faults (+5 each).
    pub fault_penalties: [i64; 4],
    /// Whether a calf has been played in a finished trick (calves may now be led).
    pub calves_broken: bool,
    /// Cards in each hand.
    pub cards_left: [usize; 4],
}
