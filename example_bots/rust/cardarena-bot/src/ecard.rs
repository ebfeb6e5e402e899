//! E-card: the observation, as documented in `docs/games/ecard.md`.

use std::fmt;

use serde::Deserialize;

/// A card: `"E"` (Emperor), `"C"` (Citizen) or `"S"` (Slave). The action is the card itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
pub enum Card {
    /// `"E"`: beats a Citizen, loses to the Slave.
    #[serde(rename = "E")]
    Emperor,
    /// `"C"`: beats the Slave, loses to the Emperor, draws with a Citizen.
    #[serde(rename = "C")]
    Citizen,
    /// `"S"`: beats the Emperor, loses to a Citizen.
    #[serde(rename = "S")]
    Slave,
}

impl Card {
    /// `"E"`, `"C"` or `"S"` (also the action string).
    pub fn as_str(self) -> &'static str {
        match self {
            Card::Emperor => "E",
            Card::Citizen => "C",
            Card::Slave => "S",
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A side of a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Holds E + 4 C; a round won on this side scores 1.
    Emperor,
    /// Holds S + 4 C; a round won on this side scores 5.
    Slave,
}

impl Side {
    /// The side's special card.
    pub fn special(self) -> Card {
        match self {
            Side::Emperor => Card::Emperor,
            Side::Slave => Card::Slave,
        }
    }

    /// The points a round won on this side is worth: 1 or 5.
    pub fn win_points(self) -> i64 {
        match self {
            Side::Emperor => 1,
            Side::Slave => 5,
        }
    }
}

/// `phase`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// The match runs.
    Play,
    /// After round 12.
    Over,
}

/// How a round ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RoundResult {
    /// The Emperor side won.
    Emperor,
    /// The Slave side won.
    Slave,
    /// `readme`: three Citizen draws.
    Draw,
}

/// A finished round (`history`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[cfg_attr(test, serde(deny_unknown_fields))]
pub struct Round {
    /// Round number, 1..12.
    pub round: usize,
    /// The seat that held the Emperor side.
    pub emperor: usize,
    /// Every play of the round, each by seat; all but the last are `[C, C]`.
    pub plays: Vec<[Card; 2]>,
    /// Which side won, or a draw.
    pub result: RoundResult,
    /// The winning seat, `None` for a drawn round.
    pub winner: Option<usize>,
    /// Points scored in the round, by seat.
    pub points: [i64; 2],
}

/// What an E-card bot sees at each decision (`docs/games/ecard.md`, "Observation"). Arrays
/// "by seat" have seat 0's entry first.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[cfg_attr(test, serde(deny_unknown_fields))]
pub struct Observation {
    /// Always `"ecard"`.
    pub game: String,
    /// `"readme"` (3 plays per round) or `"manga"` (5).
    pub variant: String,
    /// Your seat, 0 or 1.
    pub seat: usize,
    /// Play or over.
    pub phase: Phase,
    /// The current round, 1..12.
    pub round: usize,
    /// Rounds in the match, 12.
    pub rounds: usize,
    /// The open play within the round, from 1; 0 once over.
    pub play: usize,
    /// The most plays in a round: 3 (`readme`) or 5 (`manga`).
    pub max_plays: usize,
    /// Your side this round.
    pub side: Side,
    /// Your remaining cards: the special card first (if held), then the Citizens.
    pub hand: Vec<Card>,
    /// The opponent's side this round.
    pub opponent_side: Side,
    /// The opponent's remaining cards (public), same order.
    pub opponent_hand: Vec<Card>,
    /// Points so far, by seat.
    pub scores: [i64; 2],
    /// The plays of the current round so far (all Citizen draws), each by seat.
    pub plays: Vec<[Card; 2]>,
    /// Every finished round, oldest first.
    pub history: Vec<Round>,
    /// Your legal actions: the special card first, then `"C"` if you hold a Citizen.
    pub legal: Vec<String>,
}
