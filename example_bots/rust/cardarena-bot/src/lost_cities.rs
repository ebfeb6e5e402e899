//! Lost Cities: the observation, as documented in `docs/games/lost-cities.md`.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;

/// A suit: D O M J V (and P in `six-suits`), in suit order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
pub enum Suit {
    /// Deserts.
    D,
    /// Oceans.
    O,
    /// Mountains.
    M,
    /// Jungles.
    J,
    /// Volcanoes.
    V,
    /// Purple (`six-suits` only).
    P,
}

impl Suit {
    /// Every suit, in suit order.
    pub const ALL: [Suit; 6] = [Suit::D, Suit::O, Suit::M, Suit::J, Suit::V, Suit::P];

    /// The suit letter.
    pub fn letter(self) -> char {
        ['D', 'O', 'M', 'J', 'V', 'P'][self as usize]
    }

    /// The suit for a letter.
    pub fn from_letter(c: char) -> Option<Suit> {
        Suit::ALL.into_iter().find(|s| s.letter() == c)
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A card: written value then suit, `"ID"` (an investment), `"2D"` … `"10D"`. Ordered as in
/// a hand: by suit, then investments before 2..10.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(try_from = "String")]
pub struct Card {
    /// The suit.
    pub suit: Suit,
    /// 2..10, or 0 for an investment.
    pub value: u8,
}

impl Card {
    /// Whether it is an investment card.
    pub fn is_investment(self) -> bool {
        self.value == 0
    }

    /// Parses the notation (`"ID"`, `"7D"`, `"10P"`).
    pub fn parse(s: &str) -> Option<Card> {
        let suit = Suit::from_letter(s.chars().last()?)?;
        let value = match &s[..s.len() - 1] {
            "I" => 0,
            n => n.parse::<u8>().ok().filter(|v| (2..=10).contains(v))?,
        };
        Some(Card { suit, value })
    }
}

impl TryFrom<String> for Card {
    type Error = String;
    fn try_from(s: String) -> Result<Card, String> {
        Card::parse(&s).ok_or_else(|| format!("not a Lost Cities card: {s:?}"))
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_investment() {
            write!(f, "I{}", self.suit)
        } else {
            write!(f, "{}{}", self.value, self.suit)
        }
    }
}

/// `phase`: the part of the turn in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Play or discard a card: `"play 7D"`, `"discard 7D"`.
    Play,
    /// Draw: `"draw deck"` or `"draw D"`.
    Draw,
    /// The game has ended.
    Over,
}

/// One decision of `history`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[cfg_attr(test, serde(deny_unknown_fields))]
pub struct Event {
    /// Who decided.
    pub seat: usize,
    /// The action, e.g. `"play 7D"`, `"draw deck"`.
    pub action: String,
    /// The card played, discarded or picked up from a pile; `None` for a draw from the deck.
    pub card: Option<Card>,
}

/// What a Lost Cities bot sees at each decision (`docs/games/lost-cities.md`,
/// "Observation"). Arrays "per seat" have seat 0's entry first; maps "per suit" are keyed
/// by suit, with every suit of the variant present.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[cfg_attr(test, serde(deny_unknown_fields))]
pub struct Observation {
    /// Always `"lost-cities"`.
    pub game: String,
    /// `"classic"` or `"six-suits"`.
    pub variant: String,
    /// Your seat, 0 or 1.
    pub seat: usize,
    /// The phase of the turn in progress.
    pub phase: Phase,
    /// The seat whose turn it is, `None` once over.
    pub to_move: Option<usize>,
    /// Your legal actions, in the documented order (`"draw deck"` first in the draw phase).
    pub legal: Vec<String>,
    /// The suits in play, in suit order.
    pub suits: Vec<Suit>,
    /// Your hand, sorted.
    pub hand: Vec<Card>,
    /// Cards in each hand, per seat.
    pub hand_sizes: [usize; 2],
    /// Cards each seat picked up from discard piles and still holds, per seat.
    pub known_hands: [Vec<Card>; 2],
    /// Each seat's expeditions, per seat, per suit, bottom..top.
    pub expeditions: [BTreeMap<Suit, Vec<Card>>; 2],
    /// Each discard pile, per suit, bottom..top (the last card can be drawn).
    pub discards: BTreeMap<Suit, Vec<Card>>,
    /// The suit the mover discarded on in this turn (it may not draw from it).
    pub discarded_this_turn: Option<Suit>,
    /// Cards left in the deck.
    pub deck_size: usize,
    /// Each seat's score as it stands, per seat.
    pub scores: [i64; 2],
    /// Completed turns, both seats together.
    pub turn: u32,
    /// The game ends after this many turns if the deck lasts (200).
    pub max_turns: u32,
    /// Every decision so far, oldest first.
    pub history: Vec<Event>,
}

impl Observation {
    /// `seat`'s expedition of `suit`, bottom..top (empty if not started).
    pub fn expedition(&self, seat: usize, suit: Suit) -> &[Card] {
        self.expeditions[seat].get(&suit).map_or(&[], Vec::as_slice)
    }

    /// The discard pile of `suit`, bottom..top.
    pub fn pile(&self, suit: Suit) -> &[Card] {
        self.discards.get(&suit).map_or(&[], Vec::as_slice)
    }
}

/// Whether `card` may go on top of `expedition`: numbers strictly up; investments only before
/// the first number.
pub fn can_extend(expedition: &[Card], card: Card) -> bool {
    let top = expedition.iter().map(|c| c.value).max().unwrap_or(0);
    if card.is_investment() {
        top == 0
    } else {
        card.value > top
    }
}

/// The score of one expedition: `(sum - 20) * (1 + investments)`, plus 20 with 8+ cards;
/// 0 if not started.
pub fn expedition_score(expedition: &[Card]) -> i64 {
    if expedition.is_empty() {
        return 0;
    }
    let sum: i64 = expedition.iter().map(|c| i64::from(c.value)).sum();
    let investments = expedition.iter().filter(|c| c.is_investment()).count() as i64;
    let bonus = if expedition.len() >= 8 { 20 } else { 0 };
    (sum - 20) * (1 + investments) + bonus
}
