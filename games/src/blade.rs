//! Blade, the card duel from *Trails of Cold Steel*, as played in blutorange's codegolf KotH
//! controller.
//!
//! The fixed rules are CONTRACT.md §1 "blade"; every rule's source (`controller.rb`, the two README
//! versions, the published `sample_match`) is in seed-games.md §1(b)–(d). In short:
//!
//! - 32 cards (`1`…`7`, Bolt `B`, Mirror `M`), dealt into two private 16-card decks; each seat draws
//!   10 into its hand, 6 stay in its deck. One match is one deal.
//! - **Set-up:** both fields are cleared, then seat 0 and after it seat 1 place one card: the top
//!   card of the deck (automatic), or, once the deck is empty, a card chosen from the hand (a
//!   decision). B and M placed at set-up are plain cards worth 1. Equal field scores repeat the
//!   set-up (fields cleared, hands kept); otherwise the seat with the **lower** score moves first.
//! - **Turn:** the mover plays one hand card and must end strictly ahead: lower loses, equal goes
//!   back to set-up. `2`…`7` first remove the mover's own bolted top card, then lie on the field.
//!   `B` removes the opponent's bolted top card, then bolts (invalidates) the opponent's new top
//!   card. `M` swaps the two fields. `1` revives the mover's bolted top card, else lies on the field
//!   as a 1. B and M are not placed. Playing B or M as the last hand card loses at once.
//! - An empty hand at the start of a turn ends the match: if the opponent's hand is empty too the
//!   higher field wins (equal draws), otherwise the seat with the empty hand loses.
//! - Variants: `readme` (the newer README's deck; set-up with empty deck and hand is a draw; draw
//!   scores 1) and `controller` (four 2s, three Mirrors; set-up with empty deck and hand loses
//!   unless the opponent is out of cards too; draw scores 2 for both), see [`Variant`].
//!
//! The action notation, the order of `legal`, every observation field and the [`Setup`] JSON are
//! documented in `docs/games/blade.md`.

use std::fmt;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::json::JsonOut;
use super::{Game, Observation, Outcome, ParseActionError, Seat, SetupError, UnknownVariant};
use crate::rng::{Rng, Stream};

// ---------------------------------------------------------------------------------------------
// Vocabulary
// ---------------------------------------------------------------------------------------------

/// Cards in a deck.
pub const DECK_SIZE: usize = 16;
/// Cards each seat draws into its hand at the start.
pub const HAND_SIZE: usize = 10;

/// One Blade card. The derived order (`1` < … < `7` < `B` < `M`) is the order of hands and of
/// `legal`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
pub enum Card {
    /// `1`: revives the own bolted top card, else lies on the field worth 1.
    #[serde(rename = "1")]
    One,
    /// `2`, worth 2.
    #[serde(rename = "2")]
    Two,
    /// `3`, worth 3.
    #[serde(rename = "3")]
    Three,
    /// `4`, worth 4.
    #[serde(rename = "4")]
    Four,
    /// `5`, worth 5.
    #[serde(rename = "5")]
    Five,
    /// `6`, worth 6.
    #[serde(rename = "6")]
    Six,
    /// `7`, worth 7.
    #[serde(rename = "7")]
    Seven,
    /// `B`, Bolt: invalidates the opponent's top card. Worth 1 if placed at set-up.
    #[serde(rename = "B")]
    Bolt,
    /// `M`, Mirror: swaps the fields. Worth 1 if placed at set-up.
    #[serde(rename = "M")]
    Mirror,
}

impl Card {
    /// Every card kind, in hand order.
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

    /// What the card is worth lying valid on a field (B and M count 1).
    pub fn value(self) -> u32 {
        match self {
            Card::One | Card::Bolt | Card::Mirror => 1,
            Card::Two => 2,
            Card::Three => 3,
            Card::Four => 4,
            Card::Five => 5,
            Card::Six => 6,
            Card::Seven => 7,
        }
    }

    /// Bolt or Mirror: the cards that are never placed in a turn and lose as the last hand card.
    pub fn is_effect(self) -> bool {
        matches!(self, Card::Bolt | Card::Mirror)
    }

    /// The contract's spelling: `"1"`…`"7"`, `"B"`, `"M"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Card::One => "1",
            Card::Two => "2",
            Card::Three => "3",
            Card::Four => "4",
            Card::Five => "5",
            Card::Six => "6",
            Card::Seven => "7",
            Card::Bolt => "B",
            Card::Mirror => "M",
        }
    }

    /// Position in [`Card::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

const CARD_EXPECTED: &str = "one of 1 2 3 4 5 6 7 B M";

impl FromStr for Card {
    type Err = ParseActionError;

    fn from_str(s: &str) -> Result<Card, ParseActionError> {
        Card::ALL.into_iter().find(|c| c.as_str() == s).ok_or_else(|| ParseActionError {
            game: Blade::NAME,
            input: s.to_string(),
            expected: CARD_EXPECTED,
        })
    }
}

/// An action: the card to play from hand (in a turn) or to place (in a set-up pick).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Action(pub Card);

/// The rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// The newer seed README: 1×2, 2×3, 3×4, 4×4, 5×4, 6×3, 7×2, B×6, M×4; set-up with empty deck
    /// and empty hand is a draw; win 2, draw 1, loss 0.
    Readme,
    /// `controller.rb`: four 2s and three Mirrors; set-up with empty deck and empty hand loses
    /// unless the opponent is out of cards too (then a draw); win 2, draw 2 for both, loss 0.
    Controller,
}

impl Variant {
    /// Every variant; the first is the default.
    pub const ALL: [Variant; 2] = [Variant::Readme, Variant::Controller];

    /// The contract's name.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Readme => "readme",
            Variant::Controller => "controller",
        }
    }

    /// How many of each card the 32-card deck holds, indexed like [`Card::ALL`].
    pub fn composition(self) -> [u8; 9] {
        match self {
            //                     1  2  3  4  5  6  7  B  M
            Variant::Readme => [2, 3, 4, 4, 4, 3, 2, 6, 4],
            Variant::Controller => [2, 4, 4, 4, 4, 3, 2, 6, 3],
        }
    }

    /// The 32 cards in canonical order (the order `deal` shuffles).
    pub fn cards(self) -> Vec<Card> {
        let counts = self.composition();
        Card::ALL.into_iter().flat_map(|c| std::iter::repeat_n(c, usize::from(counts[c.index()]))).collect()
    }

    /// Tournament points of a draw (a win is 2, a loss 0).
    pub fn draw_points(self) -> i64 {
        match self {
            Variant::Readme => 1,
            Variant::Controller => 2,
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
            game: Blade::NAME,
            input: s.to_string(),
            known: super::variant_list(&Variant::ALL),
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Setup
// ---------------------------------------------------------------------------------------------

/// The deal, written out in full, in the controller's own listing (seed-games.md §1(c)).
///
/// `decks[s]` is seat `s`'s 16-card deck in the order `controller.rb` pushes it: the **last** card
/// is the top. Dealing pops from the top, so the last 10 cards (`decks[s][6..16]`) are the hand
/// (see [`Setup::hand`]) and the first 6 stay as the deck, drawn from the end: `decks[s][5]` is
/// the first card drawn at set-up, `decks[s][0]` the last (see [`Setup::draw_pile`]).
///
/// JSON: `{"variant":"controller","decks":[["3","6",…],["1","2",…]]}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// The rule set.
    pub variant: Variant,
    /// Each seat's deck as the controller lists it, bottom first (the last card is the top).
    pub decks: [Vec<Card>; 2],
}

impl Setup {
    /// The 10 cards `seat` draws into its hand, in drawing order.
    pub fn hand(&self, seat: Seat) -> Vec<Card> {
        let deck = &self.decks[seat];
        deck.iter().rev().take(HAND_SIZE).copied().collect()
    }

    /// The cards left in `seat`'s deck after the hand is drawn, in drawing order (first drawn first).
    pub fn draw_pile(&self, seat: Seat) -> Vec<Card> {
        let deck = &self.decks[seat];
        deck.iter().rev().skip(HAND_SIZE).copied().collect()
    }
}

// ---------------------------------------------------------------------------------------------
// State
// ---------------------------------------------------------------------------------------------

/// A card lying on a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FieldCard {
    /// The card.
    pub card: Card,
    /// `false` once bolted (then it is worth 0).
    pub valid: bool,
}

impl FieldCard {
    /// What it adds to the field's score now.
    pub fn worth(self) -> u32 {
        if self.valid {
            self.card.value()
        } else {
            0
        }
    }
}

/// A card lying on a field as rule 6 handles it ([`play_effect`]): the game's [`FieldCard`], or
/// an entry that keeps each card's identity (the Blade controller's card objects, whose
/// validity a bot sees in its `lastmove`; `play::legacy`).
pub trait Lying {
    /// The card.
    fn card(&self) -> Card;
    /// `false` once bolted.
    fn is_valid(&self) -> bool;
    /// Bolts (`false`) or re-validates (`true`) it.
    fn set_valid(&mut self, valid: bool);
}

impl Lying for FieldCard {
    fn card(&self) -> Card {
        self.card
    }

    fn is_valid(&self) -> bool {
        self.valid
    }

    fn set_valid(&mut self, valid: bool) {
        self.valid = valid;
    }
}

/// The effect of `card` played by `seat` in a turn on both fields (seed-games.md §1(b) rule 6):
/// `entry` is its field entry, pushed when the card stays on a field; `spend` gets every card
/// that leaves play (a removed bolted card, and the played card when it is not placed).
pub fn play_effect<T: Lying>(
    fields: &mut [Vec<T>; 2],
    seat: Seat,
    card: Card,
    entry: impl FnOnce() -> T,
    mut spend: impl FnMut(Card),
) {
    /// Removes the top card of a field if it is bolted.
    fn pop_invalid<T: Lying>(field: &mut Vec<T>, spend: &mut impl FnMut(Card)) {
        if field.last().is_some_and(|top| !top.is_valid()) {
            spend(field.pop().expect("a top card").card());
        }
    }
    let other = 1 - seat;
    match card {
        Card::One => match fields[seat].last_mut() {
            Some(top) if !top.is_valid() => {
                top.set_valid(true);
                spend(Card::One);
            }
            _ => fields[seat].push(entry()),
        },
        Card::Bolt => {
            pop_invalid(&mut fields[other], &mut spend);
            if let Some(top) = fields[other].last_mut() {
                top.set_valid(false);
            }
            spend(Card::Bolt);
        }
        Card::Mirror => {
            fields.swap(0, 1);
            spend(Card::Mirror);
        }
        _ => {
            pop_invalid(&mut fields[seat], &mut spend);
            fields[seat].push(entry());
        }
    }
}

/// Where a set-up card came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The top of the seat's deck (automatic).
    Deck,
    /// Chosen from the hand, because the deck was empty.
    Hand,
}

/// One public event of the match, in the observation's `history`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Event {
    /// A card placed on a field at set-up.
    Place {
        /// Whose field.
        seat: Seat,
        /// The card (B and M count 1 here).
        card: Card,
        /// Deck top or hand pick.
        from: Source,
    },
    /// A card played in a turn; `scores` are both field scores after it, in seat order.
    Play {
        /// Who played.
        seat: Seat,
        /// The card.
        card: Card,
        /// Field scores after the play (unchanged if it was a losing last-card B/M).
        scores: [u32; 2],
    },
    /// Both fields scored `score`: they are cleared (hands kept) and set up again.
    Reinit {
        /// The tied score.
        score: u32,
    },
}

/// Why the match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// The mover's field stayed lower than the opponent's after its play.
    FellBehind,
    /// The mover played B or M as its last hand card.
    LastCardEffect,
    /// The mover's hand was empty at the start of its turn while the opponent still had cards.
    OutOfCards,
    /// Both hands empty: the higher field wins, equal fields draw.
    FinalScores,
    /// A seat had to set up with an empty deck and an empty hand.
    SetupOutOfCards,
}

impl EndReason {
    /// A few words for people (game logs and boards).
    pub fn describe(self) -> &'static str {
        match self {
            EndReason::FellBehind => "the mover stayed behind",
            EndReason::LastCardEffect => "B or M played as the last card",
            EndReason::OutOfCards => "a hand ran out while the other still had cards",
            EndReason::FinalScores => "both hands empty, fields compared",
            EndReason::SetupOutOfCards => "set-up with empty deck and hand",
        }
    }
}

/// How the match ended: the winner (`None` for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Ending {
    /// The winning seat, `null` for a draw.
    pub winner: Option<Seat>,
    /// Why.
    pub reason: EndReason,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Set-up with an empty deck: this seat picks a hand card to place.
    Pick(Seat),
    /// This seat plays a card.
    Turn(Seat),
    /// The match is over.
    Over(Ending),
}

/// A Blade match in progress.
#[derive(Clone, Debug)]
pub struct Blade {
    variant: Variant,
    /// Draw piles; the last card is drawn next.
    decks: [Vec<Card>; 2],
    /// Hands, kept sorted.
    hands: [Vec<Card>; 2],
    /// Fields, bottom first.
    fields: [Vec<FieldCard>; 2],
    /// Cards out of play: B, M and revival 1s after their effect, bolted cards removed, fields
    /// cleared at a re-init, a losing last-card B/M.
    spent: Vec<Card>,
    history: Vec<Event>,
    stage: Stage,
}

impl Blade {
    /// The field score of `seat`: the sum of its valid cards.
    pub fn score(&self, seat: Seat) -> u32 {
        self.fields[seat].iter().map(|c| c.worth()).sum()
    }

    /// The field of `seat`, bottom first.
    pub fn field(&self, seat: Seat) -> &[FieldCard] {
        &self.fields[seat]
    }

    /// The hand of `seat`, sorted.
    pub fn hand(&self, seat: Seat) -> &[Card] {
        &self.hands[seat]
    }

    /// The draw pile of `seat`; the last card is drawn next.
    pub fn deck(&self, seat: Seat) -> &[Card] {
        &self.decks[seat]
    }

    /// Cards out of play, in the order they left.
    pub fn spent(&self) -> &[Card] {
        &self.spent
    }

    /// The public history of the match.
    pub fn history(&self) -> &[Event] {
        &self.history
    }

    /// How the match ended, once it has.
    pub fn ending(&self) -> Option<Ending> {
        match self.stage {
            Stage::Over(ending) => Some(ending),
            _ => None,
        }
    }

    fn end(&mut self, winner: Option<Seat>, reason: EndReason) {
        self.stage = Stage::Over(Ending { winner, reason });
    }

    fn take_from_hand(&mut self, seat: Seat, card: Card) {
        let hand = &mut self.hands[seat];
        let at = hand.iter().position(|&c| c == card).expect("the card is in the hand");
        hand.remove(at);
    }

    fn place(&mut self, seat: Seat, card: Card, from: Source) {
        self.fields[seat].push(FieldCard { card, valid: true });
        self.history.push(Event::Place { seat, card, from });
    }

    /// Clears both fields (their cards are spent).
    fn clear_fields(&mut self) {
        for field in &mut self.fields {
            self.spent.extend(field.drain(..).map(|c| c.card));
        }
    }

    /// Clears both fields and runs the set-up from seat 0.
    fn reinit(&mut self) {
        self.clear_fields();
        self.run_setup(0);
    }

    /// Set-up from `seat` on (seat 0 first, then seat 1), repeated while the fields tie. Stops
    /// at a hand pick (a decision) or at the end of the match.
    fn run_setup(&mut self, mut seat: Seat) {
        loop {
            while seat < 2 {
                if let Some(card) = self.decks[seat].pop() {
                    self.place(seat, card, Source::Deck);
                } else if self.hands[seat].is_empty() {
                    let other = 1 - seat;
                    // CONTRACT.md §1 blade; seed-games.md §1(b) rule 4.
                    let winner = match self.variant {
                        Variant::Readme => None,
                        Variant::Controller => {
                            if self.decks[other].is_empty() && self.hands[other].is_empty() {
                                None
                            } else {
                                Some(other)
                            }
                        }
                    };
                    self.end(winner, EndReason::SetupOutOfCards);
                    return;
                } else {
                    self.stage = Stage::Pick(seat);
                    return;
                }
                seat += 1;
            }
            let (s0, s1) = (self.score(0), self.score(1));
            if s0 == s1 {
                self.history.push(Event::Reinit { score: s0 });
                self.clear_fields();
                seat = 0;
            } else {
                self.begin_turn(if s0 < s1 { 0 } else { 1 });
                return;
            }
        }
    }

    /// Gives the turn to `seat`, settling an empty hand at once (no decision).
    fn begin_turn(&mut self, seat: Seat) {
        let other = 1 - seat;
        if !self.hands[seat].is_empty() {
            self.stage = Stage::Turn(seat);
        } else if self.hands[other].is_empty() {
            // seed-games.md §1(b) rule 5: both hands empty, compare the fields.
            let (mine, theirs) = (self.score(seat), self.score(other));
            let winner = match mine.cmp(&theirs) {
                std::cmp::Ordering::Greater => Some(seat),
                std::cmp::Ordering::Less => Some(other),
                std::cmp::Ordering::Equal => None,
            };
            self.end(winner, EndReason::FinalScores);
        } else {
            self.end(Some(other), EndReason::OutOfCards);
        }
    }

    fn play_turn(&mut self, seat: Seat, card: Card) {
        let other = 1 - seat;
        let last = self.hands[seat].len() == 1;
        self.take_from_hand(seat, card);
        if last && card.is_effect() {
            // CONTRACT.md §1 blade: B or M as the last hand card loses at once, unapplied.
            self.spent.push(card);
            let scores = [self.score(0), self.score(1)];
            self.history.push(Event::Play { seat, card, scores });
            self.end(Some(other), EndReason::LastCardEffect);
            return;
        }
        let spent = &mut self.spent;
        play_effect(&mut self.fields, seat, card, || FieldCard { card, valid: true }, |c| spent.push(c));
        let scores = [self.score(0), self.score(1)];
        self.history.push(Event::Play { seat, card, scores });
        let (mine, theirs) = (scores[seat], scores[other]);
        match mine.cmp(&theirs) {
            std::cmp::Ordering::Less => self.end(Some(other), EndReason::FellBehind),
            std::cmp::Ordering::Equal => {
                self.history.push(Event::Reinit { score: mine });
                self.reinit();
            }
            std::cmp::Ordering::Greater => self.begin_turn(other),
        }
    }

    fn points(&self, winner: Option<Seat>) -> Vec<i64> {
        match winner {
            Some(0) => vec![2, 0],
            Some(_) => vec![0, 2],
            None => vec![self.variant.draw_points(); 2],
        }
    }

    /// The cards `seat` has not seen: the variant's 32 cards minus its hand and every card that
    /// has appeared in the public history (sorted). Derived from the observation alone.
    fn unseen(&self, seat: Seat) -> Vec<Card> {
        let mut counts = self.variant.composition();
        let seen = self.hands[seat].iter().copied().chain(self.history.iter().filter_map(|e| match e {
            Event::Place { card, .. } | Event::Play { card, .. } => Some(*card),
            Event::Reinit { .. } => None,
        }));
        for card in seen {
            counts[card.index()] = counts[card.index()].saturating_sub(1);
        }
        Card::ALL.into_iter().flat_map(|c| std::iter::repeat_n(c, usize::from(counts[c.index()]))).collect()
    }
}

/// The phase named in observations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// A set-up pick from hand is open (the deck of the seat to act is empty).
    Setup,
    /// A turn is open.
    Turn,
    /// The match is over.
    Over,
}

/// What one seat sees (CONTRACT.md §2). Field order is the JSON order; see `docs/games/blade.md`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct BladeObservation {
    /// Always `"blade"`.
    #[serde(deserialize_with = "game_name")]
    pub game: super::json::GameName,
    /// The rule set.
    pub variant: Variant,
    /// The seat this observation is for.
    pub seat: Seat,
    /// `setup`, `turn` or `over`.
    pub phase: Phase,
    /// The seat whose decision is open, `null` once the match is over.
    pub to_act: Option<Seat>,
    /// Every legal action for this seat: the distinct cards in hand, in the order 1..7, B, M.
    pub legal: Vec<String>,
    /// This seat's hand, sorted 1..7, B, M.
    pub hand: Vec<Card>,
    /// Both fields, in seat order, bottom card first.
    pub fields: [Vec<FieldCard>; 2],
    /// Both field scores, in seat order.
    pub scores: [u32; 2],
    /// Cards left in each seat's deck.
    pub deck_counts: [usize; 2],
    /// Cards in each seat's hand.
    pub hand_counts: [usize; 2],
    /// The cards this seat has not seen (opponent's hand and both decks), sorted.
    pub unseen: Vec<Card>,
    /// Every public event of the match, oldest first.
    pub history: Vec<Event>,
    /// How the match ended, `null` while it goes on.
    pub result: Option<Ending>,
}

/// The `game` field read back: only this game's name.
fn game_name<'de, D: serde::Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    super::json::game_name(d, <Blade as Game>::NAME)
}

impl Observation for BladeObservation {
    fn seat(&self) -> Seat {
        self.seat
    }

    fn legal(&self) -> &[String] {
        &self.legal
    }

    /// By hand, in the derived `Serialize`'s field order and spelling: a WASM bot's decision
    /// is mostly this encoding, and serde's per-field code costs several times the bytes.
    fn write_json(&self, out: &mut Vec<u8>) -> Result<(), serde_json::Error> {
        let char = |c: Card| c.as_str().as_bytes()[0];
        let o = &mut JsonOut(out);
        o.raw("{\"game\":").str(self.game).raw(",\"variant\":").name(self.variant.name());
        o.raw(",\"seat\":").usize(self.seat).raw(",\"phase\":").name(match self.phase {
            Phase::Setup => "setup",
            Phase::Turn => "turn",
            Phase::Over => "over",
        });
        o.raw(",\"to_act\":").option(self.to_act, |o, s| {
            o.usize(s);
        });
        o.raw(",\"legal\":").strs(&self.legal);
        o.raw(",\"hand\":").char_names(self.hand.iter().map(|&c| char(c)));
        o.raw(",\"fields\":").array(&self.fields, |o, field| {
            o.array(field, |o, f| {
                o.raw("{\"card\":").char_name(char(f.card)).raw(if f.valid {
                    ",\"valid\":true}"
                } else {
                    ",\"valid\":false}"
                });
            });
        });
        o.raw(",\"scores\":").uints(self.scores);
        o.raw(",\"deck_counts\":").usizes(self.deck_counts);
        o.raw(",\"hand_counts\":").usizes(self.hand_counts);
        o.raw(",\"unseen\":").char_names(self.unseen.iter().map(|&c| char(c)));
        o.raw(",\"history\":").array(&self.history, |o, event| {
            match *event {
                Event::Place { seat, card, from } => o
                    .raw("{\"kind\":\"place\",\"seat\":")
                    .usize(seat)
                    .raw(",\"card\":")
                    .char_name(char(card))
                    .raw(match from {
                        Source::Deck => ",\"from\":\"deck\"",
                        Source::Hand => ",\"from\":\"hand\"",
                    }),
                Event::Play { seat, card, scores } => o
                    .raw("{\"kind\":\"play\",\"seat\":")
                    .usize(seat)
                    .raw(",\"card\":")
                    .char_name(char(card))
                    .raw(",\"scores\":")
                    .uints(scores),
                Event::Reinit { score } => o.raw("{\"kind\":\"reinit\",\"score\":").uint(score),
            }
            .raw("}");
        });
        o.raw(",\"result\":").option(self.result, |o, end| {
            o.raw("{\"winner\":").option(end.winner, |o, s| {
                o.usize(s);
            });
            o.raw(",\"reason\":").name(match end.reason {
                EndReason::FellBehind => "fell_behind",
                EndReason::LastCardEffect => "last_card_effect",
                EndReason::OutOfCards => "out_of_cards",
                EndReason::FinalScores => "final_scores",
                EndReason::SetupOutOfCards => "setup_out_of_cards",
            });
            o.raw("}");
        });
        o.raw("}");
        Ok(())
    }
}

fn distinct(hand: &[Card]) -> Vec<Card> {
    let mut cards = hand.to_vec();
    cards.dedup();
    cards
}

// ---------------------------------------------------------------------------------------------
// Game
// ---------------------------------------------------------------------------------------------

impl Game for Blade {
    type Variant = Variant;
    type Action = Action;
    type Setup = Setup;
    type Observation = BladeObservation;

    const NAME: &'static str = "blade";
    const PLAYERS: usize = 2;
    const FAULT_POLICY: super::FaultPolicy = super::FaultPolicy::Forfeit;
    const ABOUT: &'static str = "Blade, the Trails of Cold Steel card duel (codegolf KotH)";
    const POINTS_ARE: &'static str = "Blade's 2/1/0 for a win/draw/loss (controller variant: 2 for a draw)";

    fn variants() -> &'static [Variant] {
        &Variant::ALL
    }

    /// Shuffles the 32 cards once, then deals them alternately from the end (seat 0 first) into
    /// two 16-card decks, as `controller.rb` pops them.
    fn deal(variant: Variant, seed: u64) -> Setup {
        let mut cards = variant.cards();
        Rng::new(seed, Stream::Deal).shuffle(&mut cards);
        let mut decks: [Vec<Card>; 2] = [Vec::with_capacity(DECK_SIZE), Vec::with_capacity(DECK_SIZE)];
        for (i, card) in cards.into_iter().rev().enumerate() {
            decks[i % 2].push(card);
        }
        Setup { variant, decks }
    }

    fn from_setup(setup: Setup) -> Result<Blade, SetupError> {
        let Setup { variant, decks } = setup;
        for (seat, deck) in decks.iter().enumerate() {
            if deck.len() != DECK_SIZE {
                return Err(SetupError(format!(
                    "seat {seat}'s deck has {} cards, expected {DECK_SIZE}",
                    deck.len()
                )));
            }
        }
        let mut counts = [0u8; 9];
        for card in decks.iter().flatten() {
            counts[card.index()] += 1;
        }
        let expected = variant.composition();
        if counts != expected {
            let wrong: Vec<String> = Card::ALL
                .into_iter()
                .filter(|c| counts[c.index()] != expected[c.index()])
                .map(|c| format!("{c}×{} (expected {})", counts[c.index()], expected[c.index()]))
                .collect();
            return Err(SetupError(format!("the decks are not the {variant} cards: {}", wrong.join(", "))));
        }
        let mut hands: [Vec<Card>; 2] = [Vec::new(), Vec::new()];
        let mut piles = decks;
        for (hand, pile) in hands.iter_mut().zip(piles.iter_mut()) {
            *hand = pile.split_off(DECK_SIZE - HAND_SIZE);
            hand.sort();
        }
        let mut state = Blade {
            variant,
            decks: piles,
            hands,
            fields: [Vec::new(), Vec::new()],
            spent: Vec::new(),
            history: Vec::new(),
            stage: Stage::Pick(0), // replaced by the set-up below
        };
        state.run_setup(0);
        Ok(state)
    }

    fn variant(&self) -> Variant {
        self.variant
    }

    fn to_act(&self) -> Vec<Seat> {
        match self.stage {
            Stage::Pick(seat) | Stage::Turn(seat) => vec![seat],
            Stage::Over(_) => Vec::new(),
        }
    }

    /// The distinct cards in the hand of the seat to act, in the order 1..7, B, M.
    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        match self.stage {
            Stage::Pick(s) | Stage::Turn(s) if s == seat => {
                distinct(&self.hands[seat]).into_iter().map(Action).collect()
            }
            _ => Vec::new(),
        }
    }

    fn play_unchecked(&mut self, seat: Seat, action: &Action) {
        let card = action.0;
        match self.stage {
            Stage::Pick(s) => {
                debug_assert_eq!(s, seat);
                self.take_from_hand(seat, card);
                self.place(seat, card, Source::Hand);
                self.run_setup(seat + 1);
            }
            Stage::Turn(s) => {
                debug_assert_eq!(s, seat);
                self.play_turn(seat, card);
            }
            Stage::Over(_) => panic!("blade: the match is over"),
        }
    }

    fn observe(&self, seat: Seat) -> BladeObservation {
        let (phase, to_act) = match self.stage {
            Stage::Pick(s) => (Phase::Setup, Some(s)),
            Stage::Turn(s) => (Phase::Turn, Some(s)),
            Stage::Over(_) => (Phase::Over, None),
        };
        BladeObservation {
            game: Blade::NAME,
            variant: self.variant,
            seat,
            phase,
            to_act,
            legal: self.legal_strings(seat),
            hand: self.hands[seat].clone(),
            fields: self.fields.clone(),
            scores: [self.score(0), self.score(1)],
            deck_counts: [self.decks[0].len(), self.decks[1].len()],
            hand_counts: [self.hands[0].len(), self.hands[1].len()],
            unseen: self.unseen(seat),
            history: self.history.clone(),
            result: self.ending(),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.ending().map(|e| Outcome::higher_wins(self.points(e.winner)))
    }

    /// One faulty seat loses (0 points, the other 2); both faulty is a draw with the variant's
    /// draw points.
    fn forfeit(&self, faulty: &[Seat]) -> Outcome {
        let winner = match faulty {
            [seat] => Some(1 - seat),
            _ => None,
        };
        Outcome::higher_wins(self.points(winner))
    }

    fn summary(&self) -> String {
        let status = match self.stage {
            Stage::Pick(s) => format!("set-up: seat {s} picks a card from hand"),
            Stage::Turn(s) => format!("turn: seat {s} to play"),
            Stage::Over(Ending { winner: Some(w), reason }) => {
                format!("over: seat {w} wins ({})", reason.describe())
            }
            Stage::Over(Ending { winner: None, reason }) => format!("over: draw ({})", reason.describe()),
        };
        let seat_line = |s: Seat| {
            let field: Vec<String> = self.fields[s]
                .iter()
                .map(|c| format!("{}{}", c.card, if c.valid { "" } else { "X" }))
                .collect();
            let hand: Vec<&str> = self.hands[s].iter().map(|c| c.as_str()).collect();
            format!(
                "seat {s}: field [{}] ({}), hand [{}], deck {}",
                field.join(" "),
                self.score(s),
                hand.join(" "),
                self.decks[s].len()
            )
        };
        format!("{status} | {} | {}", seat_line(0), seat_line(1))
    }
}

// ---------------------------------------------------------------------------------------------
// Notation
// ---------------------------------------------------------------------------------------------

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl FromStr for Action {
    type Err = ParseActionError;

    /// Exactly `"1"`…`"7"`, `"B"` or `"M"` (no spaces, no lower case).
    fn from_str(s: &str) -> Result<Action, ParseActionError> {
        s.parse().map(Action)
    }
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

#[cfg(test)]
mod tests;
