//! Blade: the observation, as documented in `docs/games/blade.md`.

use std::fmt;

use serde::Deserialize;

/// A card: `"1"`…`"7"`, `"B"` (Bolt) or `"M"` (Mirror). The action that plays or places a
/// card is the card itself: `card.as_str()` (or `card.to_string()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
pub enum Card {
    /// `"1"`: revives your bolted top card, else is placed as a 1.
    #[serde(rename = "1")]
    One,
    /// `"2"`.
    #[serde(rename = "2")]
    Two,
    /// `"3"`.
    #[serde(rename = "3")]
    Three,
    /// `"4"`.
    #[serde(rename = "4")]
    Four,
    /// `"5"`.
    #[serde(rename = "5")]
    Five,
    /// `"6"`.
    #[serde(rename = "6")]
    Six,
    /// `"7"`.
    #[serde(rename = "7")]
    Seven,
    /// `"B"`: bolts the opponent's top card.
    #[serde(rename = "B")]
    Bolt,
    /// `"M"`: swaps the two fields.
    #[serde(rename = "M")]
    Mirror,
}

impl Card {
    /// Every card, in the notation's order `1 2 3 4 5 6 7 B M`.
    pub const ALL: [Card; 9] = [
        Card::One,
        Card::Two,
        Card::Three,
        Card::Four,
        Card::Five,
        Card::Six,
        Card::Seven,
        Card::Bolt,
        Card::Mirror,
    ];

    /// What the card is worth on a field: its number, 1 for B and M (placed at set-up).
    pub fn value(self) -> u32 {
        match self {
            Card::Bolt | Card::Mirror => 1,
            c => c as u32 + 1,
        }
    }

    /// Whether it is B or M.
    pub fn is_effect(self) -> bool {
        matches!(self, Card::Bolt | Card::Mirror)
    }

    /// The notation: `"1"`…`"7"`, `"B"`, `"M"` (also the action string).
    pub fn as_str(self) -> &'static str {
        ["1", "2", "3", "4", "5", "6", "7", "B", "M"][self as usize]
    }

    /// Parses the notation (e.g. an entry of `legal`).
    pub fn parse(s: &str) -> Option<Card> {
        Card::ALL.into_iter().find(|c| c.as_str() == s)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `phase`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// A set-up pick from hand is open (your deck is empty): the action is the card to place.
    Setup,
    /// A turn is open: the action is the card to play.
    Turn,
    /// The match has ended.
    Over,
}

/// A card on a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[cfg_attr(test, serde(deny_unknown_fields))]
pub struct FieldCard {
    /// The card.
    pub card: Card,
    /// `false` for a bolted card (worth 0). Only a top card can be bolted.
    pub valid: bool,
}

impl FieldCard {
    /// What it adds to the field's score: its value, 0 if bolted.
    pub fn worth(self) -> u32 {
        if self.valid {
            self.card.value()
        } else {
            0
        }
    }
}

/// Where a set-up card came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The top of the deck, automatically.
    Deck,
    /// A pick from hand.
    Hand,
}

/// One public event of `history`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
#[cfg_attr(test, serde(deny_unknown_fields))]
pub enum Event {
    /// A card placed on a field at set-up.
    Place {
        /// Whose field.
        seat: usize,
        /// The card.
        card: Card,
        /// `deck` (automatic) or `hand` (a pick).
        from: Source,
    },
    /// A card played in a turn.
    Play {
        /// Who played it.
        seat: usize,
        /// The card.
        card: Card,
        /// Both field scores after the play, by seat.
        scores: [u32; 2],
    },
    /// The fields tied at `score`: both were cleared and the set-up starts again.
    Reinit {
        /// The tied score.
        score: u32,
    },
}

/// How the match ended.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[cfg_attr(test, serde(deny_unknown_fields))]
pub struct Ending {
    /// The winning seat, `None` for a draw.
    pub winner: Option<usize>,
    /// `fell_behind`, `last_card_effect`, `out_of_cards`, `final_scores` or
    /// `setup_out_of_cards`.
    pub reason: String,
}

/// What a Blade bot sees at each decision (`docs/games/blade.md`, "Observation"). Arrays "by
/// seat" have seat 0's entry first: yours is `[obs.seat]`, the opponent's `[1 - obs.seat]`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[cfg_attr(test, serde(deny_unknown_fields))]
pub struct Observation {
    /// Always `"blade"`.
    pub game: String,
    /// `"readme"` or `"controller"`.
    pub variant: String,
    /// Your seat, 0 or 1.
    pub seat: usize,
    /// Set-up pick, turn, or over.
    pub phase: Phase,
    /// The seat whose decision is open, `None` once over.
    pub to_act: Option<usize>,
    /// Your legal actions: the distinct cards of your hand, in the order `1…7 B M`.
    pub legal: Vec<String>,
    /// Your hand, sorted.
    pub hand: Vec<Card>,
    /// Both fields by seat, bottom card first.
    pub fields: [Vec<FieldCard>; 2],
    /// Both field scores by seat (valid cards only).
    pub scores: [u32; 2],
    /// Cards left in each deck, by seat.
    pub deck_counts: [usize; 2],
    /// Cards in each hand, by seat.
    pub hand_counts: [usize; 2],
    /// The cards you have not seen (the opponent's hand and both decks), sorted.
    pub unseen: Vec<Card>,
    /// Every public event, oldest first.
    pub history: Vec<Event>,
    /// `None` while the match goes on.
    pub result: Option<Ending>,
}
