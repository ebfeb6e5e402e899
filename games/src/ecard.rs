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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct EcardObservation {
    /// Always `"ecard"`.
    #[serde(deserialize_with = "game_name")]
    pub game: super::json::GameName,
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

/// The `game` field read back: only this game's name.
fn game_name<'de, D: serde::Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    super::json::game_name(d, <Ecard as Game>::NAME)
}

impl Observation for EcardObservation {
    fn seat(&self) -> Seat {
        self.seat
    }

    fn legal(&self) -> &[String] {
        &self.legal
    }

    /// By hand, in the derived `Serialize`'s field order and spelling (what a WASM bot gets).
    fn write_json(&self, out: &mut Vec<u8>) -> Result<(), serde_json::Error> {
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
mod tests;
