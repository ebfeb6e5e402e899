//! Kuhn poker (H. W. Kuhn, "A simplified two-person poker", 1950; OpenSpiel's `kuhn_poker`).
//!
//! - A deck of three cards, J < Q < K. Each of the two seats antes 1 chip and is dealt one card;
//!   the third card is not used.
//! - Seat 0 acts first: `check` or `bet` (1 chip).
//!   - After `check`, seat 1 may `check` (showdown for the pot of 2) or `bet`; after that bet,
//!     seat 0 may `fold` (seat 1 takes the pot) or `call` (showdown for the pot of 4).
//!   - After `bet`, seat 1 may `fold` (seat 0 takes the pot) or `call` (showdown for 4).
//! - At a showdown the higher card takes the pot. A match is one hand; a seat's points are the
//!   chips it won (the other seat's stake) or lost: +1/−1 or +2/−2, zero-sum.
//!
//! The observation shows a seat only its own card and the public betting; the opponent's card
//! appears nowhere, not even after a showdown. `legal` lists the passive action first, as
//! OpenSpiel's action numbers do (pass = 0, bet = 1): `["check","bet"]` before any bet,
//! `["fold","call"]` facing one.

use std::fmt;
use std::str::FromStr;

use cardarena_games::rng::{Rng, Stream};
use cardarena_games::{
    variant_list, FaultPolicy, Game, Observation, Outcome, ParseActionError, Seat, SetupError, UnknownVariant,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Chips each seat puts in the pot before the cards are seen.
pub const ANTE: i64 = 1;
/// The size of the one bet (and of a call).
pub const BET: i64 = 1;

// ---------------------------------------------------------------------------------------------
// Vocabulary
// ---------------------------------------------------------------------------------------------

/// A card, written `"J"`, `"Q"` or `"K"`; the order of the variants is the order of rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
pub enum Card {
    /// The jack, the lowest card.
    J,
    /// The queen.
    Q,
    /// The king, the highest card.
    K,
}

impl Card {
    /// The deck, lowest first.
    pub const ALL: [Card; 3] = [Card::J, Card::Q, Card::K];

    /// The card's letter.
    pub const fn letter(self) -> &'static str {
        match self {
            Card::J => "J",
            Card::Q => "Q",
            Card::K => "K",
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.letter())
    }
}

/// An action, written in lower case: `check`, `bet`, `call`, `fold`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// No bet yet: put nothing in.
    Check,
    /// No bet yet: put in 1 chip.
    Bet,
    /// Facing a bet: put in 1 chip too, and go to the showdown.
    Call,
    /// Facing a bet: give up the pot.
    Fold,
}

impl Action {
    /// Every action, in notation order.
    pub const ALL: [Action; 4] = [Action::Check, Action::Bet, Action::Call, Action::Fold];

    /// The action's word.
    pub const fn word(self) -> &'static str {
        match self {
            Action::Check => "check",
            Action::Bet => "bet",
            Action::Call => "call",
            Action::Fold => "fold",
        }
    }

    /// Whether the action puts a chip in (`bet`, `call`).
    pub const fn is_aggressive(self) -> bool {
        matches!(self, Action::Bet | Action::Call)
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

impl FromStr for Action {
    type Err = ParseActionError;

    /// Exactly `check`, `bet`, `call` or `fold` (lower case, no spaces).
    fn from_str(s: &str) -> Result<Action, ParseActionError> {
        Action::ALL.into_iter().find(|a| a.word() == s).ok_or_else(|| ParseActionError {
            game: Kuhn::NAME,
            input: s.to_string(),
            expected: "\"check\", \"bet\", \"call\" or \"fold\"",
        })
    }
}

/// The rule set: Kuhn poker has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// Three cards, ante 1, one bet of 1.
    Standard,
}

impl Variant {
    /// Every variant; the first is the default.
    pub const ALL: [Variant; 1] = [Variant::Standard];

    /// The variant's name.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = UnknownVariant;

    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        Variant::ALL.into_iter().find(|v| v.name() == s).ok_or_else(|| UnknownVariant {
            game: Kuhn::NAME,
            input: s.to_string(),
            known: variant_list(&Variant::ALL),
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Setup
// ---------------------------------------------------------------------------------------------

/// A deal written out in full: the cards of seat 0 and seat 1. JSON: `{"cards":["K","J"]}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// The card of each seat, in seat order; the two differ.
    pub cards: [Card; 2],
}

// ---------------------------------------------------------------------------------------------
// State
// ---------------------------------------------------------------------------------------------

/// A hand of Kuhn poker in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kuhn {
    cards: [Card; 2],
    /// The public betting so far; seat 0 made the 1st, 3rd, ... action.
    betting: Vec<Action>,
}

impl Kuhn {
    /// The card of `seat`.
    pub fn card(&self, seat: Seat) -> Card {
        self.cards[seat]
    }

    /// The public betting so far, in order (seat 0's actions first, third, ...).
    pub fn betting(&self) -> &[Action] {
        &self.betting
    }

    /// The chips `seat` has put in the pot: the ante, and 1 for its `bet` or `call`.
    pub fn stake(&self, seat: Seat) -> i64 {
        let own = self.betting.iter().skip(seat).step_by(2);
        ANTE + own.filter(|a| a.is_aggressive()).count() as i64 * BET
    }

    /// The chips in the pot.
    pub fn pot(&self) -> i64 {
        self.stake(0) + self.stake(1)
    }

    /// The seat to act: the players alternate from seat 0; `None` once the hand is over.
    fn next(&self) -> Option<Seat> {
        (self.ending().is_none()).then_some(self.betting.len() % 2)
    }

    /// How the hand ended, if it has: `Some(Some(seat))` when `seat` folded, `Some(None)` at a
    /// showdown.
    fn ending(&self) -> Option<Option<Seat>> {
        use Action::*;
        match self.betting.as_slice() {
            [Check, Check] | [Bet, Call] | [Check, Bet, Call] => Some(None),
            [Bet, Fold] => Some(Some(1)),
            [Check, Bet, Fold] => Some(Some(0)),
            _ => None,
        }
    }

    /// Points once the hand is over: the winner takes the loser's stake.
    fn points(&self, loser: Seat) -> Vec<i64> {
        let won = self.stake(loser);
        let mut points = vec![won, won];
        points[loser] = -won;
        points
    }
}

// ---------------------------------------------------------------------------------------------
// Observation
// ---------------------------------------------------------------------------------------------

/// What one seat sees: its own card and the public betting. JSON for seat 1 after seat 0's bet:
/// `{"game":"kuhn","variant":"standard","seat":1,"card":"Q","betting":["bet"],"pot":3,"legal":["fold","call"]}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct KuhnObservation {
    /// Always `"kuhn"`.
    pub game: &'static str,
    /// Always `"standard"`.
    pub variant: Variant,
    /// The seat this observation is for: 0 acts first, 1 second.
    pub seat: Seat,
    /// This seat's card.
    pub card: Card,
    /// Every action so far, in order: seat 0's are the 1st and 3rd, seat 1's the 2nd.
    pub betting: Vec<Action>,
    /// The chips in the pot (2 after the antes, 1 more per bet or call).
    pub pot: i64,
    /// The legal actions, passive first: `["check","bet"]` before any bet, `["fold","call"]`
    /// facing one; empty if this seat is not to act.
    pub legal: Vec<String>,
}

impl Observation for KuhnObservation {
    fn seat(&self) -> Seat {
        self.seat
    }

    fn legal(&self) -> &[String] {
        &self.legal
    }
}

// ---------------------------------------------------------------------------------------------
// The rules
// ---------------------------------------------------------------------------------------------

impl Game for Kuhn {
    type Variant = Variant;
    type Action = Action;
    type Setup = Setup;
    type Observation = KuhnObservation;

    const NAME: &'static str = "kuhn";
    const PLAYERS: usize = 2;
    const FAULT_POLICY: FaultPolicy = FaultPolicy::Forfeit;
    const ABOUT: &'static str = "Kuhn poker: three cards (J, Q, K), ante 1, one bet of 1, one hand";
    const POINTS_ARE: &'static str = "chips won in the hand";

    fn variants() -> &'static [Variant] {
        &Variant::ALL
    }

    /// The three cards shuffled by the deal stream of `seed`; seat 0 gets the first, seat 1 the
    /// second.
    fn deal(_variant: Variant, seed: u64) -> Setup {
        let mut deck = Card::ALL;
        Rng::new(seed, Stream::Deal).shuffle(&mut deck);
        Setup { cards: [deck[0], deck[1]] }
    }

    fn from_setup(setup: Setup) -> Result<Kuhn, SetupError> {
        let [a, b] = setup.cards;
        if a == b {
            return Err(SetupError(format!("both seats hold {a}: the deck has one of each card")));
        }
        Ok(Kuhn { cards: setup.cards, betting: Vec::new() })
    }

    fn variant(&self) -> Variant {
        Variant::Standard
    }

    fn to_act(&self) -> Vec<Seat> {
        self.next().into_iter().collect()
    }

    /// `check`, `bet` before any bet; `fold`, `call` facing one.
    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if self.next() != Some(seat) {
            return Vec::new();
        }
        if self.betting.last() == Some(&Action::Bet) {
            vec![Action::Fold, Action::Call]
        } else {
            vec![Action::Check, Action::Bet]
        }
    }

    fn play_unchecked(&mut self, seat: Seat, action: &Action) {
        debug_assert!(self.legal_actions(seat).contains(action), "{action} is not legal for seat {seat}");
        self.betting.push(*action);
    }

    fn observe(&self, seat: Seat) -> KuhnObservation {
        KuhnObservation {
            game: Self::NAME,
            variant: Variant::Standard,
            seat,
            card: self.cards[seat],
            betting: self.betting.clone(),
            pot: self.pot(),
            legal: self.legal_strings(seat),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        let loser = match self.ending()? {
            Some(folded) => folded,
            None if self.cards[0] > self.cards[1] => 1,
            None => 0,
        };
        Some(Outcome::higher_wins(self.points(loser)))
    }

    /// A faulty seat folds: it loses its stake to the other seat. Both faulty (at the start):
    /// a draw, nobody wins anything.
    fn forfeit(&self, faulty: &[Seat]) -> Outcome {
        match faulty {
            [seat] => Outcome::higher_wins(self.points(*seat)),
            _ => Outcome::higher_wins(vec![0, 0]),
        }
    }

    fn summary(&self) -> String {
        let betting: Vec<&str> = self.betting.iter().map(|a| a.word()).collect();
        let betting = if betting.is_empty() { "no action yet".to_string() } else { betting.join(" ") };
        let mut text =
            format!("seat 0 {}, seat 1 {}; {betting}; pot {}", self.cards[0], self.cards[1], self.pot());
        if let Some(outcome) = self.outcome() {
            let winner = if outcome.points[0] > 0 { 0 } else { 1 };
            text.push_str(&format!("; seat {winner} wins {}", outcome.points[winner]));
        }
        text
    }
}
