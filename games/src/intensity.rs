//! Intensity: the UNSW COMP1511 18s1 trick-taking game for four players.
//!
//! Rules as CONTRACT.md §1 "intensity" fixes them (sources, the original protocol and its quirks:
//! seed-games.md §4; the full account for bot authors: docs/games/intensity.md):
//!
//! - 40 cards numbered 10..49; the *suit* of a card is its tens digit. The calves are 30..39, the
//!   buffalo is 47. Each seat is dealt 10.
//! - Pass: every seat chooses 3 cards to pass **left** (seat `s` to seat `s + 1 mod 4`). The four
//!   choose at once: all four are in `to_act`, a choice stays invisible until the fourth is made,
//!   and nobody sees what it receives before choosing.
//! - Then 10 tricks. Seat 0 leads the first, the winner of a trick leads the next, play goes
//!   clockwise (seat order). Follow the led suit if able, otherwise play anything.
//! - The highest card of the led suit wins the trick.
//! - No calf may be led until a calf has been played in an earlier trick (a calf dumped off-suit
//!   counts), unless the leader holds only calves. The buffalo may be led at any time.
//! - The winner of a trick takes 1 penalty point per calf in it and 7 for the buffalo: 17 per game.
//! - A bot's failed or illegal decision costs 5 more penalty points ([`Game::add_penalty`], called
//!   by the arena) and the arena plays a random legal action instead.
//! - Outcome `points` are penalty points, fewer is better; tied seats share the better rank.
//!
//! Action notation: `"pass 12 33 47"` (three distinct cards of the hand, ascending) and
//! `"play 33"`. `legal` lists, in the pass, all 120 triples of the hand in lexicographic order of
//! the ascending triples; in the play, the playable cards in ascending order.

use std::fmt;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::json::JsonOut;
use super::{FaultPolicy, Game, Observation, Outcome, ParseActionError, Seat, SetupError, UnknownVariant};
use crate::rng::{Rng, Stream};

/// Seats at the table.
pub const PLAYERS: usize = 4;
/// Cards each seat is dealt (and the number of tricks).
pub const HAND_SIZE: usize = 10;
/// Cards each seat passes to its left.
pub const PASS_SIZE: usize = 3;
/// Penalty points in one game: ten calves and the buffalo.
pub const TOTAL_PENALTY: i64 = 17;

// ---- vocabulary ----------------------------------------------------------------------------

/// One card, 10..49. Written as its number (`"33"`); in JSON it is the number itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(try_from = "u8", into = "u8")]
pub struct Card(u8);

/// A number that is not a card (cards are 10..49).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0} is not an Intensity card (cards are 10..49)")]
pub struct InvalidCard(pub u8);

impl Card {
    /// The lowest card.
    pub const MIN: u8 = 10;
    /// The highest card.
    pub const MAX: u8 = 49;
    /// The buffalo, worth 7 penalty points.
    pub const BUFFALO: Card = Card(47);

    /// The card with this number, if it is one (10..49).
    pub fn new(number: u8) -> Option<Card> {
        (Card::MIN..=Card::MAX).contains(&number).then_some(Card(number))
    }

    /// Every card, ascending.
    pub fn all() -> impl Iterator<Item = Card> {
        (Card::MIN..=Card::MAX).map(Card)
    }

    /// The card's number.
    pub fn number(self) -> u8 {
        self.0
    }

    /// The suit: the tens digit, 1..=4.
    pub fn suit(self) -> u8 {
        self.0 / 10
    }

    /// The units digit: the rank within the suit, 0..=9.
    pub fn rank(self) -> u8 {
        self.0 % 10
    }

    /// Whether this is a calf (30..39).
    pub fn is_calf(self) -> bool {
        self.suit() == 3
    }

    /// Whether this is the buffalo (47).
    pub fn is_buffalo(self) -> bool {
        self == Card::BUFFALO
    }

    /// The penalty points this card costs the winner of its trick: 1 for a calf, 7 for the
    /// buffalo, 0 otherwise.
    pub fn penalty(self) -> i64 {
        if self.is_calf() {
            1
        } else if self.is_buffalo() {
            7
        } else {
            0
        }
    }
}

impl TryFrom<u8> for Card {
    type Error = InvalidCard;

    fn try_from(number: u8) -> Result<Card, InvalidCard> {
        Card::new(number).ok_or(InvalidCard(number))
    }
}

impl From<Card> for u8 {
    fn from(card: Card) -> u8 {
        card.0
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Parses exactly two ASCII digits naming a card (`"10"`..`"49"`).
fn parse_card(s: &str) -> Option<Card> {
    if s.len() != 2 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Card::new(s.parse().ok()?)
}

/// One decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Pass three cards of the hand to the seat on the left; ascending (`"pass 12 33 47"`).
    Pass([Card; 3]),
    /// Play a card to the current trick (`"play 33"`).
    Play(Card),
}

/// The variants of Intensity: only the COMP1511 18s1 rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// The UNSW COMP1511 18s1 specification (CONTRACT.md §1 intensity).
    Standard,
}

impl Variant {
    /// Every variant; the first is the default.
    pub const ALL: [Variant; 1] = [Variant::Standard];

    /// The contract's name of the variant.
    pub fn name(self) -> &'static str {
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
            game: Intensity::NAME,
            input: s.to_string(),
            known: super::variant_list(&Variant::ALL),
        })
    }
}

/// The stage of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// All four seats choose the cards they pass.
    Pass,
    /// The ten tricks.
    Play,
    /// The game is over.
    Over,
}

impl Phase {
    /// The name used in observations (`"pass"`, `"play"`, `"over"`).
    pub fn name(self) -> &'static str {
        match self {
            Phase::Pass => "pass",
            Phase::Play => "play",
            Phase::Over => "over",
        }
    }
}

/// A finished trick, as the observation shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Trick {
    /// The seat that led; `cards[i]` was played by seat `(leader + i) % 4`.
    pub leader: Seat,
    /// The four cards in play order.
    pub cards: [Card; 4],
    /// The seat that won it (played the highest card of the led suit).
    pub winner: Seat,
    /// The penalty points the winner took with it.
    pub penalty: i64,
}

/// The trick being played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CurrentTrick {
    /// The seat that leads (or led) it; `cards[i]` was played by seat `(leader + i) % 4`.
    pub leader: Seat,
    /// The cards played so far, in play order (0..=3 of them).
    pub cards: Vec<Card>,
}

// ---- setup ---------------------------------------------------------------------------------

/// A start position: the deal, every card's place. Unchecked; [`Game::from_setup`] validates it.
///
/// JSON: `{"variant":"standard","hands":[[10,...],[...],[...],[...]]}`, four hands of ten cards
/// (as numbers), seat 0 first. The order of the cards within a hand does not matter ([`deal`]
/// writes them ascending).
///
/// [`deal`]: Game::deal
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// The variant.
    pub variant: Variant,
    /// The hand dealt to each seat, before the pass: four hands of ten cards.
    pub hands: Vec<Vec<Card>>,
}

// ---- state ---------------------------------------------------------------------------------

/// A game of Intensity in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Intensity {
    variant: Variant,
    /// Each seat's hand, ascending.
    hands: [Vec<Card>; PLAYERS],
    /// The cards each seat chose to pass (ascending). Pending, and visible to nobody, until all
    /// four have chosen; afterwards the record of the pass.
    passes: [Option<[Card; 3]>; PLAYERS],
    /// Whether the pass has been resolved (the cards changed hands).
    passed: bool,
    /// Who leads the current trick.
    leader: Seat,
    /// The cards of the current trick, in play order.
    trick: Vec<Card>,
    /// The finished tricks, in order.
    tricks: Vec<Trick>,
    /// Penalty points taken in tricks.
    taken: [i64; PLAYERS],
    /// Penalty points for faults (added by the arena).
    faults: [i64; PLAYERS],
    /// Whether a calf has been played in a finished trick.
    calves_broken: bool,
}

/// The seat a seat passes to (its left).
pub fn pass_target(seat: Seat) -> Seat {
    (seat + 1) % PLAYERS
}

/// The seat a seat receives its passed cards from (its right).
pub fn pass_source(seat: Seat) -> Seat {
    (seat + PLAYERS - 1) % PLAYERS
}

impl Intensity {
    /// The stage of the game.
    pub fn phase(&self) -> Phase {
        if !self.passed {
            Phase::Pass
        } else if self.tricks.len() == HAND_SIZE {
            Phase::Over
        } else {
            Phase::Play
        }
    }

    /// The seat to play a card now (`None` outside the play phase).
    pub fn turn(&self) -> Option<Seat> {
        (self.phase() == Phase::Play).then(|| (self.leader + self.trick.len()) % PLAYERS)
    }

    /// A seat's hand, ascending.
    pub fn hand(&self, seat: Seat) -> &[Card] {
        &self.hands[seat]
    }

    /// The finished tricks, in order.
    pub fn tricks(&self) -> &[Trick] {
        &self.tricks
    }

    /// The current trick's leader and cards so far.
    pub fn current_trick(&self) -> CurrentTrick {
        CurrentTrick { leader: self.leader, cards: self.trick.clone() }
    }

    /// Penalty points per seat so far: taken in tricks plus fault penalties.
    pub fn points(&self) -> [i64; PLAYERS] {
        std::array::from_fn(|s| self.taken[s] + self.faults[s])
    }

    /// Whether a calf has been played in a finished trick (calves may then be led).
    pub fn calves_broken(&self) -> bool {
        self.calves_broken
    }

    /// The cards `seat` may play now, ascending (empty if it is not its turn).
    fn playable(&self, seat: Seat) -> Vec<Card> {
        if self.turn() != Some(seat) {
            return Vec::new();
        }
        let hand = &self.hands[seat];
        match self.trick.first() {
            None => {
                // seed-games.md §4(b) rule 7: no calf lead before a calf was played in an earlier
                // trick, unless the hand is all calves; the buffalo is not a calf.
                if self.calves_broken || hand.iter().all(|c| c.is_calf()) {
                    hand.clone()
                } else {
                    hand.iter().copied().filter(|c| !c.is_calf()).collect()
                }
            }
            Some(led) => {
                // seed-games.md §4(b) rule 5: follow the led tens digit if able.
                let follow: Vec<Card> = hand.iter().copied().filter(|c| c.suit() == led.suit()).collect();
                if follow.is_empty() {
                    hand.clone()
                } else {
                    follow
                }
            }
        }
    }

    /// Moves the chosen cards left, once all four have chosen.
    fn resolve_pass(&mut self) {
        let passes: [[Card; 3]; PLAYERS] =
            std::array::from_fn(|s| self.passes[s].expect("all four seats have chosen"));
        for (hand, pass) in self.hands.iter_mut().zip(&passes) {
            hand.retain(|c| !pass.contains(c));
        }
        for (seat, hand) in self.hands.iter_mut().enumerate() {
            hand.extend_from_slice(&passes[pass_source(seat)]);
            hand.sort_unstable();
        }
        self.passed = true;
    }

    /// Scores the full current trick and hands the lead to its winner.
    fn finish_trick(&mut self) {
        let led = self.trick[0].suit();
        let (best, _) = self
            .trick
            .iter()
            .enumerate()
            .filter(|(_, c)| c.suit() == led)
            .max_by_key(|(_, c)| **c)
            .expect("the led card follows its own suit");
        let winner = (self.leader + best) % PLAYERS;
        let penalty = self.trick.iter().map(|c| c.penalty()).sum();
        self.taken[winner] += penalty;
        self.calves_broken |= self.trick.iter().any(|c| c.is_calf());
        let cards = [self.trick[0], self.trick[1], self.trick[2], self.trick[3]];
        self.tricks.push(Trick { leader: self.leader, cards, winner, penalty });
        self.trick.clear();
        self.leader = winner;
    }
}

fn cards_string(cards: &[Card]) -> String {
    cards.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
}

impl Game for Intensity {
    type Variant = Variant;
    type Action = Action;
    type Setup = Setup;
    type Observation = IntensityObservation;

    const NAME: &'static str = "intensity";
    const PLAYERS: usize = PLAYERS;
    const FAULT_POLICY: FaultPolicy = FaultPolicy::PenaltyAndRandomMove(5);
    const ABOUT: &'static str = "Intensity (UNSW COMP1511): 4-player tricks, avoid calves and the buffalo";
    const POINTS_ARE: &'static str = "Intensity penalty points taken (fewer is better)";
    const FEWER_POINTS_BETTER: bool = true;

    fn variants() -> &'static [Variant] {
        &Variant::ALL
    }

    fn deal(variant: Variant, seed: u64) -> Setup {
        let mut deck: Vec<Card> = Card::all().collect();
        Rng::new(seed, Stream::Deal).shuffle(&mut deck);
        let hands = deck
            .chunks(HAND_SIZE)
            .map(|chunk| {
                let mut hand = chunk.to_vec();
                hand.sort_unstable();
                hand
            })
            .collect();
        Setup { variant, hands }
    }

    fn from_setup(setup: Setup) -> Result<Intensity, SetupError> {
        if setup.hands.len() != PLAYERS {
            return Err(SetupError(format!("{} hands given, expected {PLAYERS}", setup.hands.len())));
        }
        let mut owner: [Option<Seat>; 50] = [None; 50];
        for (seat, hand) in setup.hands.iter().enumerate() {
            if hand.len() != HAND_SIZE {
                return Err(SetupError(format!(
                    "seat {seat} holds {} cards, expected {HAND_SIZE}",
                    hand.len()
                )));
            }
            for card in hand {
                let slot = &mut owner[usize::from(card.number())];
                if let Some(first) = *slot {
                    return Err(SetupError(format!("card {card} is dealt twice (seats {first} and {seat})")));
                }
                *slot = Some(seat);
            }
        }
        // 40 distinct valid cards in four hands of ten: every card is there exactly once.
        let hands: [Vec<Card>; PLAYERS] = std::array::from_fn(|s| {
            let mut hand = setup.hands[s].clone();
            hand.sort_unstable();
            hand
        });
        Ok(Intensity {
            variant: setup.variant,
            hands,
            passes: [None; PLAYERS],
            passed: false,
            leader: 0,
            trick: Vec::with_capacity(PLAYERS),
            tricks: Vec::with_capacity(HAND_SIZE),
            taken: [0; PLAYERS],
            faults: [0; PLAYERS],
            calves_broken: false,
        })
    }

    fn variant(&self) -> Variant {
        self.variant
    }

    fn to_act(&self) -> Vec<Seat> {
        match self.phase() {
            Phase::Pass => (0..PLAYERS).filter(|&s| self.passes[s].is_none()).collect(),
            Phase::Play => self.turn().into_iter().collect(),
            Phase::Over => Vec::new(),
        }
    }

    /// Pass: every ascending triple of the hand, in lexicographic order (120 of them).
    /// Play: the playable cards, ascending.
    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if seat >= PLAYERS {
            return Vec::new();
        }
        match self.phase() {
            Phase::Pass if self.passes[seat].is_none() => {
                let h = &self.hands[seat];
                let mut out = Vec::with_capacity(120);
                for i in 0..h.len() {
                    for j in i + 1..h.len() {
                        for k in j + 1..h.len() {
                            out.push(Action::Pass([h[i], h[j], h[k]]));
                        }
                    }
                }
                out
            }
            Phase::Play => self.playable(seat).into_iter().map(Action::Play).collect(),
            _ => Vec::new(),
        }
    }

    fn play_unchecked(&mut self, seat: Seat, action: &Action) {
        match *action {
            Action::Pass(cards) => {
                assert!(self.phase() == Phase::Pass, "pass outside the pass phase");
                self.passes[seat] = Some(cards);
                if self.passes.iter().all(Option::is_some) {
                    self.resolve_pass();
                }
            }
            Action::Play(card) => {
                let hand = &mut self.hands[seat];
                let at = hand.iter().position(|&c| c == card).expect("played card is in hand");
                hand.remove(at);
                self.trick.push(card);
                if self.trick.len() == PLAYERS {
                    self.finish_trick();
                }
            }
        }
    }

    fn observe(&self, seat: Seat) -> IntensityObservation {
        let phase = self.phase();
        let (passed, received) = if self.passed {
            (
                self.passes[seat].map(Vec::from).unwrap_or_default(),
                self.passes[pass_source(seat)].map(Vec::from).unwrap_or_default(),
            )
        } else {
            (Vec::new(), Vec::new())
        };
        IntensityObservation {
            game: Intensity::NAME,
            variant: self.variant,
            seat,
            phase,
            legal: self.legal_strings(seat),
            hand: self.hands[seat].clone(),
            pass_to: pass_target(seat),
            receive_from: pass_source(seat),
            passed,
            received,
            turn: self.turn(),
            trick: self.current_trick(),
            tricks: self.tricks.clone(),
            penalties: self.points(),
            fault_penalties: self.faults,
            calves_broken: self.calves_broken,
            cards_left: std::array::from_fn(|s| self.hands[s].len()),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.phase() == Phase::Over).then(|| Outcome::lower_wins(self.points().to_vec()))
    }

    /// Intensity never ends early for a fault ([`FaultPolicy::PenaltyAndRandomMove`]); should the
    /// arena have to abandon a game anyway, this gives the standings as they are, with the faulty
    /// seats placed below every other seat.
    fn forfeit(&self, faulty: &[Seat]) -> Outcome {
        let points = self.points().to_vec();
        let keys: Vec<i64> =
            (0..PLAYERS).map(|s| -points[s] - if faulty.contains(&s) { 1_000_000 } else { 0 }).collect();
        Outcome { ranks: Outcome::ranks_from_keys(&keys), points }
    }

    fn add_penalty(&mut self, seat: Seat, points: i64) {
        self.faults[seat] += points;
    }

    fn summary(&self) -> String {
        let hands = (0..PLAYERS)
            .map(|s| format!("S{s}[{}]", cards_string(&self.hands[s])))
            .collect::<Vec<_>>()
            .join(" ");
        let points = self.points().map(|p| p.to_string()).join(" ");
        match self.phase() {
            Phase::Pass => {
                let chosen = (0..PLAYERS)
                    .filter_map(|s| self.passes[s].map(|p| format!("S{s}->{}", cards_string(&p))))
                    .collect::<Vec<_>>();
                format!(
                    "pass: {} of 4 chosen{}{} | {hands}",
                    chosen.len(),
                    if chosen.is_empty() { "" } else { ": " },
                    chosen.join(", ")
                )
            }
            Phase::Play => format!(
                "trick {}/10, S{} led: [{}] | penalties {points} | calves {} | {hands}",
                self.tricks.len() + 1,
                self.leader,
                cards_string(&self.trick),
                if self.calves_broken { "broken" } else { "unbroken" },
            ),
            Phase::Over => {
                let ranks = self
                    .outcome()
                    .map(|o| o.ranks.iter().map(|r| r.to_string()).collect::<Vec<_>>().join(" "))
                    .unwrap_or_default();
                format!("over: penalties {points}, places {ranks}")
            }
        }
    }
}

// ---- observation ---------------------------------------------------------------------------

/// What one seat sees: the JSON a bot receives. Every field is documented in
/// docs/games/intensity.md; cards are numbers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct IntensityObservation {
    /// Always `"intensity"`.
    #[serde(deserialize_with = "game_name")]
    pub game: super::json::GameName,
    /// `"standard"`.
    pub variant: Variant,
    /// The seat this observation is for.
    pub seat: Seat,
    /// `"pass"`, `"play"` or `"over"`.
    pub phase: Phase,
    /// Every legal action for this seat now (empty if it is not to act): pass, every ascending
    /// triple of the hand in lexicographic order; play, the playable cards ascending.
    pub legal: Vec<String>,
    /// This seat's hand, ascending.
    pub hand: Vec<Card>,
    /// The seat this seat passes to (its left).
    pub pass_to: Seat,
    /// The seat this seat receives from (its right).
    pub receive_from: Seat,
    /// The three cards this seat passed, ascending; empty until the pass is resolved.
    pub passed: Vec<Card>,
    /// The three cards this seat received, ascending; empty until the pass is resolved.
    pub received: Vec<Card>,
    /// The seat to play a card now (`null` in the pass phase and when the game is over).
    pub turn: Option<Seat>,
    /// The current trick: its leader and the cards played so far, in order.
    pub trick: CurrentTrick,
    /// Every finished trick, in order.
    pub tricks: Vec<Trick>,
    /// Penalty points per seat so far (tricks plus faults), in seat order.
    pub penalties: [i64; PLAYERS],
    /// The part of `penalties` that comes from faults (+5 each), in seat order.
    pub fault_penalties: [i64; PLAYERS],
    /// Whether a calf has been played in a finished trick (calves may then be led).
    pub calves_broken: bool,
    /// Cards in each seat's hand, in seat order.
    pub cards_left: [usize; PLAYERS],
}

/// The `game` field read back: only this game's name.
fn game_name<'de, D: serde::Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    super::json::game_name(d, <Intensity as Game>::NAME)
}

impl Observation for IntensityObservation {
    fn seat(&self) -> Seat {
        self.seat
    }

    fn legal(&self) -> &[String] {
        &self.legal
    }

    /// By hand, in the derived `Serialize`'s field order and spelling (what a WASM bot gets).
    fn write_json(&self, out: &mut Vec<u8>) -> Result<(), serde_json::Error> {
        fn cards(o: &mut JsonOut, cards: &[Card]) {
            o.uints(cards.iter().map(|c| c.number()));
        }
        let o = &mut JsonOut(out);
        o.raw("{\"game\":").str(self.game).raw(",\"variant\":").name(self.variant.name());
        o.raw(",\"seat\":").usize(self.seat).raw(",\"phase\":").name(self.phase.name());
        o.raw(",\"legal\":").strs(&self.legal);
        o.raw(",\"hand\":");
        cards(o, &self.hand);
        o.raw(",\"pass_to\":").usize(self.pass_to).raw(",\"receive_from\":").usize(self.receive_from);
        o.raw(",\"passed\":");
        cards(o, &self.passed);
        o.raw(",\"received\":");
        cards(o, &self.received);
        o.raw(",\"turn\":").option(self.turn, |o, s| {
            o.usize(s);
        });
        o.raw(",\"trick\":{\"leader\":").usize(self.trick.leader).raw(",\"cards\":");
        cards(o, &self.trick.cards);
        o.raw("},\"tricks\":").array(&self.tricks, |o, t| {
            o.raw("{\"leader\":").usize(t.leader).raw(",\"cards\":");
            cards(o, &t.cards);
            o.raw(",\"winner\":").usize(t.winner).raw(",\"penalty\":").int(t.penalty).raw("}");
        });
        o.raw(",\"penalties\":").ints(self.penalties);
        o.raw(",\"fault_penalties\":").ints(self.fault_penalties);
        o.raw(",\"calves_broken\":").bool(self.calves_broken);
        o.raw(",\"cards_left\":").usizes(self.cards_left);
        o.raw("}");
        Ok(())
    }
}

// ---- notation ------------------------------------------------------------------------------

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Pass([a, b, c]) => write!(f, "pass {a} {b} {c}"),
            Action::Play(card) => write!(f, "play {card}"),
        }
    }
}

impl FromStr for Action {
    type Err = ParseActionError;

    /// Accepts exactly the contract's strings: `"pass A B C"` with three cards ascending, or
    /// `"play N"`, single spaces, no padding.
    fn from_str(s: &str) -> Result<Action, ParseActionError> {
        let err = || ParseActionError {
            game: Intensity::NAME,
            input: s.to_string(),
            expected: "\"pass A B C\" (three cards 10..49, ascending) or \"play N\"",
        };
        let words: Vec<&str> = s.split(' ').collect();
        match words.as_slice() {
            ["pass", a, b, c] => {
                let cards = [parse_card(a), parse_card(b), parse_card(c)];
                match cards {
                    [Some(a), Some(b), Some(c)] if a < b && b < c => Ok(Action::Pass([a, b, c])),
                    _ => Err(err()),
                }
            }
            ["play", n] => parse_card(n).map(Action::Play).ok_or_else(err),
            _ => Err(err()),
        }
    }
}

// ---- tests ---------------------------------------------------------------------------------

#[cfg(test)]
mod tests;
