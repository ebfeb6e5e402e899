//! E-card, the card game of *Tobaku Mokushiroku Kaiji*: Emperor, Citizens and Slave.
//!
//! The rules are fixed by CONTRACT.md §1 "ecard"; their sources and the originals' quirks are in
//! seed-games.md §2. In short:
//!
//! - A match is [`ROUNDS`] (12) rounds in 4 groups of 3. In every round one seat holds the
//!   **Emperor side** (E + 4 C) and the other the **Slave side** (S + 4 C). Seat 0 is the Emperor
//!   side in rounds 1–3, seat 1 in rounds 4–6, and so on: sides swap after rounds 3, 6 and 9.
//! - A round is a series of **plays**. In each play both seats place one card face down at the
//!   same time (a simultaneous decision: both seats are in [`Game::to_act`], and a chosen card is
//!   invisible until the other seat has chosen too); then both are revealed.
//!   Emperor beats Citizen, Citizen beats Slave, Slave beats Emperor. Citizen against Citizen is
//!   a draw: both cards are removed and the round goes on to its next play.
//! - Variant `readme` (default): at most 3 plays per round; a third Citizen draw ends the round
//!   drawn (nobody scores). Variant `manga`: plays go on until the round is decided, at most 5
//!   (after four Citizen draws the fifth play is forced, Emperor against Slave, and is still asked
//!   of both seats with a single legal action).
//! - A round won by the Emperor side scores [`EMPEROR_WIN_POINTS`] (1) for its winner, a round
//!   won by the Slave side [`SLAVE_WIN_POINTS`] (5). The higher total after 12 rounds wins the
//!   match; equal totals draw.
//!
//! There is no randomness: the deal is the same for every seed (the seed is accepted and ignored).
//! The only hidden information is a card chosen but not yet revealed. The observation, the
//! notation and the order of `legal` are documented in `docs/games/ecard.md`.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::json::JsonOut;
use super::{
    variant_list, FaultPolicy, Game, Observation, Outcome, ParseActionError, Seat, SetupError, UnknownVariant,
};

/// Rounds in a match.
pub const ROUNDS: usize = 12;
/// Rounds per group; the sides swap after each group (after rounds 3, 6 and 9).
pub const GROUP: usize = 3;
/// Citizens in each hand at the start of a round.
pub const CITIZENS: u8 = 4;
/// Points for the winner of a round won by the Emperor side.
pub const EMPEROR_WIN_POINTS: i64 = 1;
/// Points for the winner of a round won by the Slave side (five times the Emperor side's).
pub const SLAVE_WIN_POINTS: i64 = 5;

// ---------------------------------------------------------------------------------------------
// Vocabulary
// ---------------------------------------------------------------------------------------------

/// A card. Its notation (and the action of placing it) is `"E"`, `"C"` or `"S"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
pub enum Card {
    /// The Emperor: beats the Citizen, loses to the Slave.
    #[serde(rename = "E")]
    Emperor,
    /// A Citizen: beats the Slave, loses to the Emperor, draws with a Citizen.
    #[serde(rename = "C")]
    Citizen,
    /// The Slave: beats the Emperor, loses to the Citizen.
    #[serde(rename = "S")]
    Slave,
}

/// An action is the card placed in the current play.
pub type Action = Card;

impl Card {
    /// Every card, in notation order `E`, `C`, `S`.
    pub const ALL: [Card; 3] = [Card::Emperor, Card::Citizen, Card::Slave];

    /// The contract's one-letter notation.
    pub const fn letter(self) -> &'static str {
        match self {
            Card::Emperor => "E",
            Card::Citizen => "C",
            Card::Slave => "S",
        }
    }

    /// How `self` fares against `other` when both are revealed: `Greater` if `self` wins, `Less`
    /// if it loses, `Equal` for a draw. Emperor > Citizen > Slave > Emperor; equal cards draw
    /// (in play only Citizen against Citizen can happen, since the sides' special cards differ).
    pub fn versus(self, other: Card) -> Ordering {
        use Card::*;
        match (self, other) {
            (Emperor, Citizen) | (Citizen, Slave) | (Slave, Emperor) => Ordering::Greater,
            (Citizen, Emperor) | (Slave, Citizen) | (Emperor, Slave) => Ordering::Less,
            (Emperor, Emperor) | (Citizen, Citizen) | (Slave, Slave) => Ordering::Equal,
        }
    }
}

/// Which hand a seat holds in a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// E + 4 C; a round won by this side scores 1.
    Emperor,
    /// S + 4 C; a round won by this side scores 5.
    Slave,
}

impl Side {
    /// The side's special card (`E` or `S`).
    pub const fn special(self) -> Card {
        match self {
            Side::Emperor => Card::Emperor,
            Side::Slave => Card::Slave,
        }
    }

    /// The other side.
    pub const fn other(self) -> Side {
        match self {
            Side::Emperor => Side::Slave,
            Side::Slave => Side::Emperor,
        }
    }

    /// Points for the winner of a round that this side wins.
    pub const fn win_points(self) -> i64 {
        match self {
            Side::Emperor => EMPEROR_WIN_POINTS,
            Side::Slave => SLAVE_WIN_POINTS,
        }
    }

    /// The side's name as in observations: `emperor` or `slave`.
    pub const fn name(self) -> &'static str {
        match self {
            Side::Emperor => "emperor",
            Side::Slave => "slave",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The rule set (CONTRACT.md §1 ecard).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// The seed README: at most 3 plays per round, a third Citizen draw ends the round drawn.
    Readme,
    /// As in the manga: plays go on until the round is decided (at most 5).
    Manga,
}

impl Variant {
    /// Every variant; the first is the default.
    pub const ALL: [Variant; 2] = [Variant::Readme, Variant::Manga];

    /// The contract's name of the variant.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Readme => "readme",
            Variant::Manga => "manga",
        }
    }

    /// The most plays a round can have.
    pub const fn max_plays(self) -> usize {
        match self {
            Variant::Readme => 3,
            Variant::Manga => CITIZENS as usize + 1,
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
            game: Ecard::NAME,
            input: s.to_string(),
            known: variant_list(&Variant::ALL),
        })
    }
}

/// How a round ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum RoundResult {
    /// The Emperor side won (E beat C, or C beat S): 1 point to its winner.
    #[serde(rename = "emperor")]
    EmperorSide,
    /// The Slave side won (S beat E): 5 points to its winner.
    #[serde(rename = "slave")]
    SlaveSide,
    /// `readme` only: the third play was Citizen against Citizen too; nobody scores.
    #[serde(rename = "draw")]
    Drawn,
}

/// One finished round, as every seat sees it (all played cards are revealed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RoundRecord {
    /// The round's number, 1..=12.
    pub round: usize,
    /// The seat that held the Emperor side.
    pub emperor: Seat,
    /// Every play of the round in order; each play is the two cards by seat `[seat 0, seat 1]`.
    pub plays: Vec<[Card; 2]>,
    /// How the round ended.
    pub result: RoundResult,
    /// The winning seat, `None` (JSON `null`) for a drawn round.
    pub winner: Option<Seat>,
    /// Points scored in this round, by seat.
    pub points: [i64; 2],
}

impl RoundRecord {
    /// The side `seat` held in this round.
    pub fn side(&self, seat: Seat) -> Side {
        if seat == self.emperor {
            Side::Emperor
        } else {
            Side::Slave
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Setup
// ---------------------------------------------------------------------------------------------

/// The start of a match written out in full.
///
/// E-card deals no cards at random: every round's hands follow from the sides (Emperor side
/// E + 4 C, Slave side S + 4 C), and the sides follow from `first_emperor` and the fixed swaps
/// after rounds 3, 6 and 9. JSON: `{"variant":"readme","first_emperor":0}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// The rule set.
    pub variant: Variant,
    /// The seat holding the Emperor side in rounds 1–3 and 7–9. The contract fixes seat 0, and
    /// [`Game::deal`] always writes 0; `from_setup` also accepts 1 (the mirrored schedule).
    pub first_emperor: Seat,
}

// ---------------------------------------------------------------------------------------------
// State
// ---------------------------------------------------------------------------------------------

/// The cards a seat still holds in the current round: its special card (if not yet played) and
/// a number of Citizens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Hand {
    special: Option<Card>,
    citizens: u8,
}

impl Hand {
    const EMPTY: Hand = Hand { special: None, citizens: 0 };

    fn full(side: Side) -> Hand {
        Hand { special: Some(side.special()), citizens: CITIZENS }
    }

    /// The distinct cards held, special card first, then `C`: the order of `legal`.
    fn kinds(self) -> Vec<Card> {
        let mut kinds = Vec::with_capacity(2);
        kinds.extend(self.special);
        if self.citizens > 0 {
            kinds.push(Card::Citizen);
        }
        kinds
    }

    /// Every card held, special card first, then the Citizens.
    fn cards(self) -> Vec<Card> {
        let mut cards = Vec::with_capacity(1 + self.citizens as usize);
        cards.extend(self.special);
        cards.extend(std::iter::repeat_n(Card::Citizen, self.citizens as usize));
        cards
    }

    fn contains(self, card: Card) -> bool {
        match card {
            Card::Citizen => self.citizens > 0,
            special => self.special == Some(special),
        }
    }

    fn remove(&mut self, card: Card) {
        match card {
            Card::Citizen => self.citizens -= 1,
            _ => self.special = None,
        }
    }
}

/// What the game is waiting for, as named in observations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// A play is open: the seats to act place a card.
    Play,
    /// The match is over.
    Over,
}

/// An E-card match in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ecard {
    variant: Variant,
    first_emperor: Seat,
    /// Index of the current round, `0..ROUNDS`; `ROUNDS` once the match is over.
    round: usize,
    /// The cards each seat still holds this round (empty once the match is over).
    hands: [Hand; 2],
    /// The plays of the current round resolved so far (all Citizen draws).
    plays: Vec<[Card; 2]>,
    /// A card chosen in the open play and not yet revealed, by seat.
    pending: [Option<Card>; 2],
    /// Every finished round.
    history: Vec<RoundRecord>,
    scores: [i64; 2],
}

impl Ecard {
    /// The seat holding the Emperor side in round index `round` (0-based).
    fn emperor_in(&self, round: usize) -> Seat {
        if (round / GROUP).is_multiple_of(2) {
            self.first_emperor
        } else {
            1 - self.first_emperor
        }
    }

    /// The seat holding the Emperor side in the current round (in the last round once over).
    pub fn emperor_seat(&self) -> Seat {
        self.emperor_in(self.round.min(ROUNDS - 1))
    }

    /// The side `seat` holds in the current round (in the last round once over).
    pub fn side(&self, seat: Seat) -> Side {
        if seat == self.emperor_seat() {
            Side::Emperor
        } else {
            Side::Slave
        }
    }

    /// The current round's number, 1..=12 (12 once the match is over).
    pub fn round_number(&self) -> usize {
        self.round.min(ROUNDS - 1) + 1
    }

    /// The number of the open play within the round, 1-based; 0 once the match is over.
    pub fn play_number(&self) -> usize {
        if self.round >= ROUNDS {
            0
        } else {
            self.plays.len() + 1
        }
    }

    /// The cards `seat` still holds this round, special card first.
    pub fn hand(&self, seat: Seat) -> Vec<Card> {
        self.hands[seat].cards()
    }

    /// The plays of the current round resolved so far, by seat.
    pub fn plays(&self) -> &[[Card; 2]] {
        &self.plays
    }

    /// Every finished round.
    pub fn history(&self) -> &[RoundRecord] {
        &self.history
    }

    /// The points so far, by seat.
    pub fn scores(&self) -> [i64; 2] {
        self.scores
    }

    /// Reveals both chosen cards and settles the play.
    fn resolve(&mut self, cards: [Card; 2]) {
        self.pending = [None, None];
        self.hands[0].remove(cards[0]);
        self.hands[1].remove(cards[1]);
        self.plays.push(cards);
        let emperor = self.emperor_seat();
        match cards[0].versus(cards[1]) {
            Ordering::Equal => {
                let out_of_cards = self.hands.iter().any(|h| h.cards().is_empty());
                if self.plays.len() >= self.variant.max_plays() || out_of_cards {
                    self.end_round(RoundResult::Drawn, None);
                }
            }
            order => {
                let winner = if order == Ordering::Greater { 0 } else { 1 };
                let result =
                    if winner == emperor { RoundResult::EmperorSide } else { RoundResult::SlaveSide };
                self.end_round(result, Some(winner));
            }
        }
    }

    fn end_round(&mut self, result: RoundResult, winner: Option<Seat>) {
        let mut points = [0, 0];
        if let Some(w) = winner {
            points[w] = self.side(w).win_points();
        }
        self.scores[0] += points[0];
        self.scores[1] += points[1];
        self.history.push(RoundRecord {
            round: self.round + 1,
            emperor: self.emperor_seat(),
            plays: std::mem::take(&mut self.plays),
            result,
            winner,
            points,
        });
        self.round += 1;
        self.hands = if self.round < ROUNDS {
            [Hand::full(self.side(0)), Hand::full(self.side(1))]
        } else {
            [Hand::EMPTY, Hand::EMPTY]
        };
    }
}

// ---------------------------------------------------------------------------------------------
// Observation
// ---------------------------------------------------------------------------------------------

/// What one seat sees: everything is public except a card the opponent has chosen in the open
/// play, which appears nowhere (not even whether it has chosen yet). Field by field in
/// `docs/games/ecard.md`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct EcardObservation {
    /// Always `"ecard"`.
    pub game: &'static str,
    /// `readme` or `manga`.
    pub variant: Variant,
    /// The seat this observation is for (0 or 1).
    pub seat: Seat,
    /// `play` while the match runs, `over` after the last round.
    pub phase: Phase,
    /// The current round, 1..=12 (12 once over).
    pub round: usize,
    /// Rounds in the match (12).
    pub rounds: usize,
    /// The open play within the round, 1-based (0 once over).
    pub play: usize,
    /// The most plays a round can have (3 in `readme`, 5 in `manga`).
    pub max_plays: usize,
    /// This seat's side in the current round.
    pub side: Side,
    /// The cards this seat still holds, special card first, then the Citizens.
    pub hand: Vec<Card>,
    /// The opponent's side in the current round.
    pub opponent_side: Side,
    /// The opponent's remaining cards (public: every played card is revealed), same order.
    pub opponent_hand: Vec<Card>,
    /// Points so far, by seat.
    pub scores: [i64; 2],
    /// The plays of the current round resolved so far (Citizen draws), each `[seat 0, seat 1]`.
    pub plays: Vec<[Card; 2]>,
    /// Every finished round, oldest first.
    pub history: Vec<RoundRecord>,
    /// The legal actions: this seat's special card first (if still held), then `"C"` (if a
    /// Citizen is still held); empty if this seat is not to act.
    pub legal: Vec<String>,
}

impl Observation for EcardObservation {
    fn seat(&self) -> Seat {
        self.seat
    }

    fn legal(&self) -> &[String] {
        &self.legal
    }

    /// By hand, in the derived `Serialize`'s field order and spelling (what a WASM bot gets).
    fn write_json(&self, out: &mut Vec<u8>) -> Result<(), String> {
        fn side(s: Side) -> &'static str {
            match s {
                Side::Emperor => "emperor",
                Side::Slave => "slave",
            }
        }
        fn plays(o: &mut JsonOut, plays: &[[Card; 2]]) {
            o.array(plays, |o, [a, b]| {
                o.raw("[").name(a.letter()).raw(",").name(b.letter()).raw("]");
            });
        }
        let o = &mut JsonOut(out);
        o.raw("{\"game\":").str(self.game).raw(",\"variant\":").name(self.variant.name());
        o.raw(",\"seat\":").usize(self.seat).raw(",\"phase\":").name(match self.phase {
            Phase::Play => "play",
            Phase::Over => "over",
        });
        o.raw(",\"round\":").usize(self.round).raw(",\"rounds\":").usize(self.rounds);
        o.raw(",\"play\":").usize(self.play).raw(",\"max_plays\":").usize(self.max_plays);
        o.raw(",\"side\":").name(side(self.side)).raw(",\"hand\":").array(&self.hand, |o, c| {
            o.name(c.letter());
        });
        o.raw(",\"opponent_side\":").name(side(self.opponent_side));
        o.raw(",\"opponent_hand\":").array(&self.opponent_hand, |o, c| {
            o.name(c.letter());
        });
        o.raw(",\"scores\":").ints(self.scores).raw(",\"plays\":");
        plays(o, &self.plays);
        o.raw(",\"history\":").array(&self.history, |o, r| {
            o.raw("{\"round\":").usize(r.round).raw(",\"emperor\":").usize(r.emperor).raw(",\"plays\":");
            plays(o, &r.plays);
            o.raw(",\"result\":").name(match r.result {
                RoundResult::EmperorSide => "emperor",
                RoundResult::SlaveSide => "slave",
                RoundResult::Drawn => "draw",
            });
            o.raw(",\"winner\":").option(r.winner, |o, w| {
                o.usize(w);
            });
            o.raw(",\"points\":").ints(r.points).raw("}");
        });
        o.raw(",\"legal\":").strs(&self.legal);
        o.raw("}");
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// The rules
// ---------------------------------------------------------------------------------------------

impl Game for Ecard {
    type Variant = Variant;
    type Action = Card;
    type Setup = Setup;
    type Observation = EcardObservation;

    const NAME: &'static str = "ecard";
    const PLAYERS: usize = 2;
    const FAULT_POLICY: FaultPolicy = FaultPolicy::Forfeit;
    const ABOUT: &'static str = "E-card from Kaiji: Emperor, Citizens and Slave, 12 rounds";
    const POINTS_ARE: &'static str = "E-card round points scored";

    fn variants() -> &'static [Variant] {
        &Variant::ALL
    }

    /// The seed is ignored: E-card has no random deal.
    fn deal(variant: Variant, _seed: u64) -> Setup {
        Setup { variant, first_emperor: 0 }
    }

    fn from_setup(setup: Setup) -> Result<Ecard, SetupError> {
        if setup.first_emperor >= Self::PLAYERS {
            return Err(SetupError(format!(
                "first_emperor must be seat 0 or 1, not {}",
                setup.first_emperor
            )));
        }
        let mut state = Ecard {
            variant: setup.variant,
            first_emperor: setup.first_emperor,
            round: 0,
            hands: [Hand::EMPTY, Hand::EMPTY],
            plays: Vec::new(),
            pending: [None, None],
            history: Vec::new(),
            scores: [0, 0],
        };
        state.hands = [Hand::full(state.side(0)), Hand::full(state.side(1))];
        Ok(state)
    }

    fn variant(&self) -> Variant {
        self.variant
    }

    fn to_act(&self) -> Vec<Seat> {
        if self.round >= ROUNDS {
            return Vec::new();
        }
        (0..Self::PLAYERS).filter(|&s| self.pending[s].is_none()).collect()
    }

    /// The seat's special card first (if still held), then `C` (if a Citizen is still held).
    fn legal_actions(&self, seat: Seat) -> Vec<Card> {
        if self.round >= ROUNDS || seat >= Self::PLAYERS || self.pending[seat].is_some() {
            return Vec::new();
        }
        self.hands[seat].kinds()
    }

    /// Places `action` face down for `seat`; once both seats have chosen, both are revealed and
    /// the play is settled.
    ///
    /// # Panics
    /// If `seat` is not 0 or 1. An action that is not legal corrupts the state.
    fn play_unchecked(&mut self, seat: Seat, action: &Card) {
        debug_assert!(self.hands[seat].contains(*action), "{action} is not in seat {seat}'s hand");
        self.pending[seat] = Some(*action);
        if let [Some(a), Some(b)] = self.pending {
            self.resolve([a, b]);
        }
    }

    fn observe(&self, seat: Seat) -> EcardObservation {
        let opponent = 1 - seat;
        EcardObservation {
            game: Self::NAME,
            variant: self.variant,
            seat,
            phase: if self.round >= ROUNDS { Phase::Over } else { Phase::Play },
            round: self.round_number(),
            rounds: ROUNDS,
            play: self.play_number(),
            max_plays: self.variant.max_plays(),
            side: self.side(seat),
            hand: self.hands[seat].cards(),
            opponent_side: self.side(opponent),
            opponent_hand: self.hands[opponent].cards(),
            scores: self.scores,
            plays: self.plays.clone(),
            history: self.history.clone(),
            legal: self.legal_strings(seat),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.round >= ROUNDS).then(|| Outcome::higher_wins(self.scores.to_vec()))
    }

    /// A faulty seat loses (both faulty: a draw), with at most the opponent's score − 1.
    fn forfeit(&self, faulty: &[Seat]) -> Outcome {
        Outcome::two_player_forfeit(self.scores.to_vec(), faulty)
    }

    fn summary(&self) -> String {
        let scores = format!("score {}-{}", self.scores[0], self.scores[1]);
        let last = self.history.last().map(|r| {
            let plays: Vec<String> = r.plays.iter().map(|[a, b]| format!("{a}{b}")).collect();
            let result = match r.winner {
                Some(w) => format!("seat {w} ({}) +{}", r.side(w), r.points[w]),
                None => "drawn".to_string(),
            };
            format!("round {} [{}] {result}", r.round, plays.join(" "))
        });
        if self.round >= ROUNDS {
            let verdict = match self.scores[0].cmp(&self.scores[1]) {
                Ordering::Greater => "seat 0 wins",
                Ordering::Less => "seat 1 wins",
                Ordering::Equal => "draw",
            };
            return format!("{} over: {scores}, {verdict}; last {}", self.variant, last.unwrap_or_default());
        }
        let seat_text = |s: Seat| {
            let cards: String = self.hands[s].cards().iter().map(|c| c.letter()).collect();
            let chosen = match self.pending[s] {
                Some(c) => format!(", chose {c}"),
                None => String::new(),
            };
            format!("seat {s} {} {cards}{chosen}", self.side(s))
        };
        let mut text = format!(
            "{} round {}/{ROUNDS} play {}: {} | {}; {scores}",
            self.variant,
            self.round_number(),
            self.play_number(),
            seat_text(0),
            seat_text(1)
        );
        if let Some(last) = last {
            text.push_str("; last ");
            text.push_str(&last);
        }
        text
    }
}

// ---------------------------------------------------------------------------------------------
// Notation
// ---------------------------------------------------------------------------------------------

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.letter())
    }
}

impl FromStr for Card {
    type Err = ParseActionError;

    /// Exactly `"E"`, `"C"` or `"S"` (no spaces, upper case).
    fn from_str(s: &str) -> Result<Card, ParseActionError> {
        Card::ALL.into_iter().find(|c| c.letter() == s).ok_or_else(|| ParseActionError {
            game: Ecard::NAME,
            input: s.to_string(),
            expected: "\"E\", \"C\" or \"S\"",
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::games::rng::{Rng, Stream};
    use crate::games::testkit::{observation_json, random_playout, replay};

    fn new(variant: Variant) -> Ecard {
        Ecard::new(variant, 0)
    }

    /// Both seats place their card (seat 0 first); panics if either is refused.
    fn both(g: &mut Ecard, c0: &str, c1: &str) {
        g.play(0, c0).expect("seat 0's card is legal");
        g.play(1, c1).expect("seat 1's card is legal");
    }

    /// The two cards `(seat 0, seat 1)` for the given sides' cards in the current round.
    fn by_seat(g: &Ecard, emperor_card: &'static str, slave_card: &'static str) -> [&'static str; 2] {
        if g.emperor_seat() == 0 {
            [emperor_card, slave_card]
        } else {
            [slave_card, emperor_card]
        }
    }

    /// Plays one whole round in `readme` or `manga` that ends as `result`.
    fn play_round(g: &mut Ecard, result: RoundResult) {
        let [e, s] = match result {
            RoundResult::EmperorSide => by_seat(g, "E", "C"),
            RoundResult::SlaveSide => by_seat(g, "E", "S"),
            RoundResult::Drawn => {
                for _ in 0..3 {
                    both(g, "C", "C");
                }
                return;
            }
        };
        both(g, e, s);
    }

    #[test]
    fn every_pairing_of_cards() {
        // CONTRACT.md §1 ecard: Emperor beats Citizen, Citizen beats Slave, Slave beats Emperor,
        // Citizen vs Citizen is a draw. (E-E and S-S cannot occur in play: they are ties.)
        use Card::*;
        use Ordering::*;
        let table = [
            (Emperor, Emperor, Equal),
            (Emperor, Citizen, Greater),
            (Emperor, Slave, Less),
            (Citizen, Emperor, Less),
            (Citizen, Citizen, Equal),
            (Citizen, Slave, Greater),
            (Slave, Emperor, Greater),
            (Slave, Citizen, Less),
            (Slave, Slave, Equal),
        ];
        for (a, b, expected) in table {
            assert_eq!(a.versus(b), expected, "{a} vs {b}");
            assert_eq!(b.versus(a), expected.reverse(), "{b} vs {a}");
        }
    }

    #[test]
    fn emperor_beats_citizen_and_scores_one() {
        // CONTRACT.md §1 ecard: Emperor beats Citizen; an Emperor-side win scores 1.
        let mut g = new(Variant::Readme);
        both(&mut g, "E", "C");
        assert_eq!(g.scores(), [1, 0]);
        let r = &g.history()[0];
        assert_eq!((r.result, r.winner, r.points), (RoundResult::EmperorSide, Some(0), [1, 0]));
        assert_eq!(r.plays, vec![[Card::Emperor, Card::Citizen]]);
        assert_eq!(g.round_number(), 2);
    }

    #[test]
    fn citizen_beats_slave_and_scores_one_for_the_emperor_side() {
        // CONTRACT.md §1 ecard: Citizen beats Slave; the Emperor side wins the round (1 point).
        let mut g = new(Variant::Readme);
        both(&mut g, "C", "S");
        assert_eq!(g.scores(), [1, 0]);
        assert_eq!(g.history()[0].result, RoundResult::EmperorSide);
    }

    #[test]
    fn slave_beats_emperor_and_scores_five() {
        // CONTRACT.md §1 ecard: Slave beats Emperor; a Slave-side win scores 5.
        let mut g = new(Variant::Readme);
        both(&mut g, "E", "S");
        assert_eq!(g.scores(), [0, 5]);
        let r = &g.history()[0];
        assert_eq!((r.result, r.winner, r.points), (RoundResult::SlaveSide, Some(1), [0, 5]));
    }

    #[test]
    fn slave_win_pays_five_times_an_emperor_win() {
        // CONTRACT.md §1 ecard / seed-games.md §2(b) rule 6: 5x payout for the Slave side.
        let mut g = new(Variant::Readme);
        play_round(&mut g, RoundResult::EmperorSide); // seat 0 emperor wins: +1
        play_round(&mut g, RoundResult::SlaveSide); // seat 1 slave wins: +5
        assert_eq!(g.scores(), [EMPEROR_WIN_POINTS, 5 * EMPEROR_WIN_POINTS]);
        assert_eq!(SLAVE_WIN_POINTS, 5 * EMPEROR_WIN_POINTS);
    }

    #[test]
    fn citizen_draw_removes_both_cards_and_the_round_goes_on() {
        // CONTRACT.md §1 ecard: Citizen vs Citizen is a draw, both cards removed, next play.
        let mut g = new(Variant::Readme);
        both(&mut g, "C", "C");
        assert_eq!(g.round_number(), 1);
        assert_eq!(g.play_number(), 2);
        assert_eq!(g.hand(0), vec![Card::Emperor, Card::Citizen, Card::Citizen, Card::Citizen]);
        assert_eq!(g.hand(1), vec![Card::Slave, Card::Citizen, Card::Citizen, Card::Citizen]);
        assert_eq!(g.plays(), &[[Card::Citizen, Card::Citizen]]);
        assert_eq!(g.scores(), [0, 0]);
        assert_eq!(g.to_act(), vec![0, 1]);
    }

    #[test]
    fn third_citizen_tie_ends_round_drawn() {
        // CONTRACT.md §1 ecard (readme): at most 3 plays; a third C-vs-C ends the round drawn.
        let mut g = new(Variant::Readme);
        both(&mut g, "C", "C");
        both(&mut g, "C", "C");
        assert_eq!(g.play_number(), 3);
        both(&mut g, "C", "C");
        assert_eq!(g.round_number(), 2);
        assert_eq!(g.play_number(), 1);
        assert_eq!(g.scores(), [0, 0]);
        let r = &g.history()[0];
        assert_eq!((r.result, r.winner, r.points), (RoundResult::Drawn, None, [0, 0]));
        assert_eq!(r.plays.len(), 3);
        // The next round starts with full hands.
        assert_eq!(g.hand(0).len(), 5);
        assert_eq!(g.hand(1).len(), 5);
    }

    #[test]
    fn manga_goes_on_to_a_forced_fifth_play_emperor_vs_slave() {
        // CONTRACT.md §1 ecard (manga) / seed-games.md §2(b) rule 4: plays go on until the round
        // is decided, at most 5; the 5th is forced E vs S, which the Slave side wins.
        let mut g = new(Variant::Manga);
        for play in 1..=4 {
            assert_eq!(g.play_number(), play);
            assert_eq!(g.legal_strings(0), ["E", "C"]);
            both(&mut g, "C", "C");
            assert_eq!(g.round_number(), 1);
        }
        assert_eq!(g.play_number(), 5);
        assert_eq!(g.legal_strings(0), ["E"]);
        assert_eq!(g.legal_strings(1), ["S"]);
        assert!(g.play(0, "C").is_err());
        both(&mut g, "E", "S");
        let r = &g.history()[0];
        assert_eq!(r.plays.len(), 5);
        assert_eq!((r.result, r.winner, r.points), (RoundResult::SlaveSide, Some(1), [0, 5]));
    }

    #[test]
    fn manga_third_citizen_tie_does_not_end_the_round() {
        // CONTRACT.md §1 ecard: the 3-play limit is readme's; manga goes on.
        let mut g = new(Variant::Manga);
        for _ in 0..3 {
            both(&mut g, "C", "C");
        }
        assert_eq!((g.round_number(), g.play_number()), (1, 4));
        both(&mut g, "C", "S");
        assert_eq!(g.scores(), [1, 0]);
    }

    #[test]
    fn sides_swap_after_rounds_3_6_9() {
        // CONTRACT.md §1 ecard: sides swap after rounds 3, 6, 9; seat 0 is Emperor in group 1.
        for variant in Variant::ALL {
            let mut g = new(variant);
            let mut emperors = Vec::new();
            while !g.is_over() {
                emperors.push(g.emperor_seat());
                assert_eq!(g.side(g.emperor_seat()), Side::Emperor);
                let e = g.emperor_seat();
                assert_eq!(g.hand(e)[0], Card::Emperor);
                assert_eq!(g.hand(1 - e)[0], Card::Slave);
                play_round(&mut g, RoundResult::EmperorSide);
            }
            assert_eq!(emperors, [0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1]);
            let recorded: Vec<Seat> = g.history().iter().map(|r| r.emperor).collect();
            assert_eq!(recorded, emperors);
            assert_eq!(g.scores(), [6, 6]);
        }
    }

    #[test]
    fn equal_totals_draw_even_when_one_seat_won_more_rounds() {
        // CONTRACT.md §1 ecard: totals decide, equal totals draw (rounds won do not count).
        // Seat 1 wins round 1 as the Slave side (5); seat 0 wins its five other Emperor rounds (5).
        let mut g = new(Variant::Readme);
        for round in 0..ROUNDS {
            assert!(g.outcome().is_none());
            let result = match round {
                0 => RoundResult::SlaveSide,
                _ if g.emperor_seat() == 0 => RoundResult::EmperorSide,
                _ => RoundResult::Drawn,
            };
            play_round(&mut g, result);
        }
        assert_eq!(g.scores(), [5, 5]);
        let outcome = g.outcome().expect("over after 12 rounds");
        assert_eq!(outcome, Outcome { points: vec![5, 5], ranks: vec![1, 1] });
    }

    #[test]
    fn totals_decide_the_winner_and_equal_totals_draw() {
        // CONTRACT.md §1 ecard: higher total after 12 rounds wins; equal totals draw.
        // Round 1: seat 1 (Slave) wins +5; rounds 2-3: seat 0 (Emperor) +1 each; the rest drawn.
        let mut g = new(Variant::Readme);
        play_round(&mut g, RoundResult::SlaveSide);
        play_round(&mut g, RoundResult::EmperorSide);
        play_round(&mut g, RoundResult::EmperorSide);
        for _ in 3..ROUNDS - 1 {
            play_round(&mut g, RoundResult::Drawn);
        }
        assert!(g.outcome().is_none());
        let mut seat1_wins = g.clone();
        play_round(&mut seat1_wins, RoundResult::Drawn);
        assert_eq!(seat1_wins.scores(), [2, 5]);
        assert_eq!(seat1_wins.outcome(), Some(Outcome { points: vec![2, 5], ranks: vec![2, 1] }));
        // Round 12: seat 1 is the Emperor side; a Slave win for seat 0 gives it 7 > 5.
        assert_eq!(g.emperor_seat(), 1);
        let mut seat0_wins = g.clone();
        play_round(&mut seat0_wins, RoundResult::SlaveSide);
        assert_eq!(seat0_wins.outcome(), Some(Outcome { points: vec![7, 5], ranks: vec![1, 2] }));
        // Equal totals: all twelve rounds drawn.
        let mut g = new(Variant::Readme);
        for _ in 0..ROUNDS {
            play_round(&mut g, RoundResult::Drawn);
        }
        assert_eq!(g.outcome(), Some(Outcome { points: vec![0, 0], ranks: vec![1, 1] }));
        assert!(g.to_act().is_empty());
        assert!(g.legal_actions(0).is_empty() && g.legal_actions(1).is_empty());
    }

    #[test]
    fn each_play_is_a_simultaneous_decision_of_both_seats() {
        // CONTRACT.md §1 ecard: both choices in a play are simultaneous.
        let mut g = new(Variant::Readme);
        assert_eq!(g.to_act(), vec![0, 1]);
        g.play(1, "S").expect("seat 1 may choose first");
        assert_eq!(g.to_act(), vec![0]);
        assert!(g.legal_actions(1).is_empty());
        assert!(g.play(1, "C").is_err(), "a seat chooses once per play");
        g.play(0, "E").expect("seat 0 chooses");
        assert_eq!(g.scores(), [0, 5]);
        assert_eq!(g.to_act(), vec![0, 1]);
    }

    #[test]
    fn pending_choice_is_invisible() {
        // CONTRACT.md §1 ecard: neither observation may reveal the other's pending card.
        let fresh = new(Variant::Readme);
        let before: Vec<String> = (0..2).map(|s| observation_json(&fresh, s)).collect();
        for card in ["E", "C"] {
            let mut g = fresh.clone();
            g.play(0, card).expect("legal");
            assert_eq!(observation_json(&g, 1), before[1], "seat 1 sees nothing of seat 0's {card}");
            assert!(!g.summary().is_empty());
        }
        for card in ["S", "C"] {
            let mut g = fresh.clone();
            g.play(1, card).expect("legal");
            assert_eq!(observation_json(&g, 0), before[0], "seat 0 sees nothing of seat 1's {card}");
        }
    }

    #[test]
    fn legal_is_special_card_first_then_citizen() {
        // docs/games/ecard.md: the order of `legal` is the special card, then "C".
        let mut g = new(Variant::Readme);
        assert_eq!(g.legal_strings(0), ["E", "C"]);
        assert_eq!(g.legal_strings(1), ["S", "C"]);
        assert_eq!(g.observe(1).legal, ["S", "C"]);
        for _ in 0..3 {
            play_round(&mut g, RoundResult::EmperorSide);
        }
        assert_eq!(g.legal_strings(0), ["S", "C"]);
        assert_eq!(g.legal_strings(1), ["E", "C"]);
        assert!(g.legal_strings(2).is_empty());
    }

    #[test]
    fn play_rejects_unlisted_actions_and_leaves_the_state_unchanged() {
        // Game::play: anything not in `legal_actions` is refused with the state untouched.
        let mut g = new(Variant::Readme);
        g.play(0, "C").expect("legal");
        let cases = [
            (0, "E"), // seat 0 already chose
            (1, "E"), // the Slave side has no Emperor
            (1, "s"), // notation is upper case
            (1, " S"),
            (1, ""),
            (1, "CC"),
            (2, "C"), // no such seat
        ];
        for (seat, action) in cases {
            let before = g.clone();
            let err = g.play(seat, action).expect_err("refused");
            assert_eq!((err.seat, err.action.as_str()), (seat, action));
            assert_eq!(g, before, "state unchanged after {seat} {action:?}");
        }
        // The Emperor side has no Slave.
        let mut fresh = new(Variant::Manga);
        assert!(fresh.play(0, "S").is_err());
        assert_eq!(fresh, new(Variant::Manga));
    }

    #[test]
    fn notation_round_trips() {
        for card in Card::ALL {
            assert_eq!(card.to_string().parse::<Card>(), Ok(card));
            assert_eq!(serde_json::to_string(&card).expect("json"), format!("\"{card}\""));
        }
        let err = "X".parse::<Card>().expect_err("not a card");
        assert_eq!(err.input, "X");
        for variant in Variant::ALL {
            assert_eq!(variant.to_string().parse::<Variant>(), Ok(variant));
        }
        assert_eq!(Ecard::variants()[0], Variant::Readme);
        assert!("Manga".parse::<Variant>().is_err());
    }

    #[test]
    fn seed_is_ignored_and_setup_is_written_out() {
        // Task: there is no randomness in the deal; seat 0 is the Emperor side first.
        for variant in Variant::ALL {
            assert_eq!(Ecard::deal(variant, 0), Ecard::deal(variant, 0xDEAD_BEEF));
            assert_eq!(Ecard::new(variant, 1), Ecard::new(variant, 2));
        }
        let setup = Ecard::deal(Variant::Readme, 7);
        let json = serde_json::to_string(&setup).expect("json");
        assert_eq!(json, r#"{"variant":"readme","first_emperor":0}"#);
        let back: Setup = serde_json::from_str(&json).expect("parses");
        assert_eq!(back, setup);
        let mirrored: Setup =
            serde_json::from_str(r#"{"variant":"manga","first_emperor":1}"#).expect("parses");
        let g = Ecard::from_setup(mirrored).expect("seat 1 may start as Emperor");
        assert_eq!(g.emperor_seat(), 1);
        assert_eq!(g.legal_strings(1), ["E", "C"]);
        let bad = Setup { variant: Variant::Readme, first_emperor: 2 };
        let err = Ecard::from_setup(bad).expect_err("no seat 2");
        assert!(err.0.contains("first_emperor"), "{err}");
        assert!(serde_json::from_str::<Setup>(r#"{"variant":"classic","first_emperor":0}"#).is_err());
    }

    #[test]
    fn forfeit_loses_for_the_faulty_seat_in_every_column() {
        // CONTRACT.md §1: the faulty bot loses; both faulting is a draw. A faulty seat keeps at
        // most its opponent's points − 1 (a fault never pays: docs/tournament.md).
        let mut g = new(Variant::Readme);
        play_round(&mut g, RoundResult::SlaveSide);
        assert_eq!(g.forfeit(&[1]), Outcome { points: vec![0, -1], ranks: vec![1, 2] });
        assert_eq!(g.forfeit(&[0]), Outcome { points: vec![0, 5], ranks: vec![2, 1] });
        assert_eq!(g.forfeit(&[0, 1]), Outcome { points: vec![0, 0], ranks: vec![1, 1] });
        assert_eq!(Ecard::FAULT_POLICY, FaultPolicy::Forfeit);
    }

    #[test]
    fn observation_shows_the_public_history() {
        // CONTRACT.md §2: own hand, public cards, counts, scores and the public history.
        let mut g = new(Variant::Readme);
        both(&mut g, "C", "C");
        both(&mut g, "C", "S");
        both(&mut g, "C", "C");
        let obs = g.observe(1);
        assert_eq!((obs.round, obs.play, obs.max_plays, obs.rounds), (2, 2, 3, 12));
        assert_eq!((obs.side, obs.opponent_side), (Side::Slave, Side::Emperor));
        assert_eq!(obs.hand, vec![Card::Slave, Card::Citizen, Card::Citizen, Card::Citizen]);
        assert_eq!(obs.opponent_hand, vec![Card::Emperor, Card::Citizen, Card::Citizen, Card::Citizen]);
        assert_eq!(obs.scores, [1, 0]);
        assert_eq!(obs.plays, vec![[Card::Citizen, Card::Citizen]]);
        assert_eq!(obs.history.len(), 1);
        assert_eq!(obs.legal, ["S", "C"]);
        let json = observation_json(&g, 1);
        assert!(json.starts_with(r#"{"game":"ecard","variant":"readme","seat":1,"phase":"play","#), "{json}");
        assert!(
            json.contains(
                r#""history":[{"round":1,"emperor":0,"plays":[["C","C"],["C","S"]],"result":"emperor","winner":0,"points":[1,0]}]"#
            ),
            "{json}"
        );
    }

    /// Every card of the current round is in exactly one place: a hand or a resolved play
    /// (a pending card is still in its hand); every finished round used cards of its sides only.
    fn check_conservation(g: &Ecard) -> Result<(), String> {
        for record in g.history() {
            for seat in 0..2 {
                let side = record.side(seat);
                let cards: Vec<Card> = record.plays.iter().map(|p| p[seat]).collect();
                let specials = cards.iter().filter(|&&c| c != Card::Citizen).count();
                let citizens = cards.len() - specials;
                if cards.iter().any(|&c| c != Card::Citizen && c != side.special())
                    || specials > 1
                    || citizens > CITIZENS as usize
                {
                    return Err(format!("round {} seat {seat} played {cards:?}", record.round));
                }
            }
        }
        if g.is_over() {
            return if g.hand(0).is_empty() && g.hand(1).is_empty() && g.plays().is_empty() {
                Ok(())
            } else {
                Err("cards left after the match".into())
            };
        }
        for seat in 0..2 {
            let mut all = g.hand(seat);
            all.extend(g.plays().iter().map(|p| p[seat]));
            all.sort();
            let mut full = Hand::full(g.side(seat)).cards();
            full.sort();
            if all != full {
                return Err(format!("seat {seat}: hand + played = {all:?}, expected {full:?}"));
            }
        }
        Ok(())
    }

    /// Points add up: every round scores 0, 1 or 5 for its winner only, as its result says, and
    /// the scores are the sums of the rounds' points.
    fn check_points(g: &Ecard) -> Result<(), String> {
        let mut sums = [0, 0];
        for r in g.history() {
            let expected = match r.winner {
                None => [0, 0],
                Some(w) => {
                    let mut p = [0, 0];
                    p[w] = r.side(w).win_points();
                    p
                }
            };
            let result_ok = match (r.result, r.winner) {
                (RoundResult::Drawn, None) => true,
                (RoundResult::EmperorSide, Some(w)) => w == r.emperor,
                (RoundResult::SlaveSide, Some(w)) => w != r.emperor,
                _ => false,
            };
            if r.points != expected || !result_ok {
                return Err(format!("round {r:?} scored wrongly"));
            }
            let last = r.plays.last().ok_or("a round without plays")?;
            let decided = last[0].versus(last[1]) != Ordering::Equal;
            if decided != r.winner.is_some()
                || r.plays[..r.plays.len() - 1].iter().any(|p| p != &[Card::Citizen; 2])
            {
                return Err(format!("round {r:?}: plays do not match its result"));
            }
            sums[0] += r.points[0];
            sums[1] += r.points[1];
        }
        if sums != g.scores() {
            return Err(format!("scores {:?} != sum of rounds {sums:?}", g.scores()));
        }
        Ok(())
    }

    fn variant_strategy() -> impl Strategy<Value = Variant> {
        prop_oneof![Just(Variant::Readme), Just(Variant::Manga)]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        #[test]
        fn random_play_never_panics_and_always_ends(variant in variant_strategy(), seed: u64, pick: u64) {
            let playout = random_playout::<Ecard>(variant, seed, pick, 2 * ROUNDS * variant.max_plays())
                .map_err(TestCaseError::fail)?;
            prop_assert_eq!(playout.state.history().len(), ROUNDS);
            let again = replay::<Ecard>(Ecard::deal(variant, seed), &playout.actions)
                .map_err(TestCaseError::fail)?;
            prop_assert_eq!(again, playout.state);
        }

        #[test]
        fn cards_are_conserved_and_points_add_up(variant in variant_strategy(), seed: u64, pick: u64) {
            let playout = random_playout::<Ecard>(variant, seed, pick, 200).map_err(TestCaseError::fail)?;
            let mut g = Ecard::new(variant, seed);
            check_conservation(&g).map_err(TestCaseError::fail)?;
            for (seat, action) in &playout.actions {
                g.play(*seat, action).map_err(|e| TestCaseError::fail(e.to_string()))?;
                check_conservation(&g).map_err(TestCaseError::fail)?;
                check_points(&g).map_err(TestCaseError::fail)?;
            }
            let outcome = g.outcome().expect("over");
            prop_assert_eq!(outcome.points, g.scores().to_vec());
            let max = g.history().iter().filter(|r| r.winner.is_some()).count() as i64 * SLAVE_WIN_POINTS;
            prop_assert!(g.scores()[0] + g.scores()[1] <= max);
        }

        /// The only hidden information in E-card is a card chosen in the open play: after any
        /// prefix, a seat's observation is byte-identical whether the opponent has not chosen
        /// yet or has chosen any of its legal cards.
        #[test]
        fn no_observation_leaks_a_pending_choice(
            variant in variant_strategy(),
            pick: u64,
            prefix in 0usize..40,
        ) {
            let mut g = Ecard::new(variant, 0);
            let mut rng = Rng::new(pick, Stream::Arena);
            for _ in 0..prefix {
                if g.is_over() {
                    break;
                }
                let seat = g.to_act()[rng.below(g.to_act().len())];
                let legal = g.legal_strings(seat);
                g.play(seat, &legal[rng.below(legal.len())]).map_err(|e| TestCaseError::fail(e.to_string()))?;
            }
            for watcher in 0..2 {
                let other = 1 - watcher;
                if !g.to_act().contains(&other) {
                    continue;
                }
                let seen = observation_json(&g, watcher);
                for card in g.legal_strings(other) {
                    let mut chosen = g.clone();
                    chosen.play(other, &card).map_err(|e| TestCaseError::fail(e.to_string()))?;
                    if chosen.round_number() != g.round_number() || chosen.play_number() != g.play_number() {
                        continue; // the play resolved: the card is now revealed, as it should be
                    }
                    prop_assert_eq!(&observation_json(&chosen, watcher), &seen,
                        "seat {} learns seat {}'s pending {}", watcher, other, card);
                }
            }
        }
    }
}
