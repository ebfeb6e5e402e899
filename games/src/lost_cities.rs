//! Lost Cities (Reiner Knizia), as the Ruby Quiz #51 server plays it, for two seats.
//!
//! Rules as fixed by CONTRACT.md §1 `lost-cities`; sources and the original server's quirks in
//! seed-games.md §3(b)–(d). Player docs: `docs/games/lost-cities.md`.
//!
//! - Cards: suits D O M J V (variant `six-suits` adds P), each with 3 investment cards (`I`) and
//!   one each of 2..10. Deal 8 cards to each seat, alternately; the rest is the deck. Seat 0 moves
//!   first.
//! - A turn is two decisions by the same seat: **play** one hand card, either onto your own
//!   expedition of its suit or onto that suit's shared discard pile; then **draw** one card, from
//!   the deck or from the top of any discard pile except the pile you discarded on this turn.
//! - An expedition is strictly increasing; investments only before its first number (any number
//!   of investments may follow one another).
//! - The game ends right after the draw that empties the deck, or (arena addition against
//!   stalling) after 200 turns in total, counting both seats' turns.
//! - A started expedition scores `(sum - 20) * (1 + investments) + (20 if it has 8+ cards)`; an
//!   unstarted one scores 0. Higher total wins; equal totals draw.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::Error as _;
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::json::JsonOut;
use super::{
    variant_list, FaultPolicy, Game, Observation, Outcome, ParseActionError, Seat, SetupError, UnknownVariant,
};
use crate::rng::{Rng, Stream};

/// Cards dealt to each seat.
pub const HAND_SIZE: usize = 8;
/// The game ends after this many turns in total (both seats), scored as it stands.
pub const MAX_TURNS: u32 = 200;
/// Investment cards per suit.
pub const INVESTMENTS_PER_SUIT: usize = 3;

// ---------------------------------------------------------------------------------------------
// Vocabulary
// ---------------------------------------------------------------------------------------------

/// An expedition colour, in the contract's suit order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    /// `D`, Deserts (yellow).
    Desert,
    /// `O`, Oceans (blue).
    Ocean,
    /// `M`, Mountains (white).
    Mountain,
    /// `J`, Jungles (green).
    Jungle,
    /// `V`, Volcanoes (red).
    Volcano,
    /// `P`, the purple sixth expedition (variant `six-suits` only).
    Purple,
}

impl Suit {
    /// Every suit, in order; a variant uses a prefix of this list.
    pub const ALL: [Suit; 6] =
        [Suit::Desert, Suit::Ocean, Suit::Mountain, Suit::Jungle, Suit::Volcano, Suit::Purple];

    /// The one-letter name used in the notation.
    pub fn letter(self) -> &'static str {
        match self {
            Suit::Desert => "D",
            Suit::Ocean => "O",
            Suit::Mountain => "M",
            Suit::Jungle => "J",
            Suit::Volcano => "V",
            Suit::Purple => "P",
        }
    }

    /// The suit of a one-letter name (upper case only).
    pub fn from_letter(letter: &str) -> Option<Suit> {
        Suit::ALL.into_iter().find(|s| s.letter() == letter)
    }

    /// Position in [`Suit::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.letter())
    }
}

impl Serialize for Suit {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.letter())
    }
}

impl<'de> Deserialize<'de> for Suit {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Suit, D::Error> {
        let s = String::deserialize(d)?;
        Suit::from_letter(&s)
            .ok_or_else(|| D::Error::custom(format!("{s:?} is not a suit letter (D O M J V P)")))
    }
}

/// The face of a card: an investment, or a number 2..=10. Investments sort before numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    /// An investment (wager) card, written `I`.
    Investment,
    /// An expedition card 2..=10.
    Number(u8),
}

/// One card, written value then suit letter: `ID`, `7O`, `10V`.
///
/// Cards order by suit (in suit order), then value (`I` before 2..10): the order of a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card {
    /// The expedition it belongs to.
    pub suit: Suit,
    /// Its face.
    pub value: Value,
}

impl Card {
    /// An investment card of `suit`.
    pub const fn investment(suit: Suit) -> Card {
        Card { suit, value: Value::Investment }
    }

    /// A number card; `n` must be 2..=10 to be a real card.
    pub const fn number(suit: Suit, n: u8) -> Card {
        Card { suit, value: Value::Number(n) }
    }

    /// Whether this is an investment card.
    pub fn is_investment(self) -> bool {
        self.value == Value::Investment
    }

    /// The number on the card, `None` for an investment.
    pub fn number_value(self) -> Option<u8> {
        match self.value {
            Value::Investment => None,
            Value::Number(n) => Some(n),
        }
    }

    /// The twelve cards of a suit in canonical order: `I I I 2 3 .. 10`.
    pub fn suit_cards(suit: Suit) -> impl Iterator<Item = Card> {
        (0..INVESTMENTS_PER_SUIT)
            .map(move |_| Card::investment(suit))
            .chain((2..=10).map(move |n| Card::number(suit, n)))
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.value {
            Value::Investment => write!(f, "I{}", self.suit),
            Value::Number(n) => write!(f, "{n}{}", self.suit),
        }
    }
}

/// A string that is not a card (`ID`, `2D` .. `10D`, suits `D O M J V P`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a Lost Cities card (like \"ID\", \"7O\", \"10V\")")]
pub struct ParseCardError(pub String);

impl FromStr for Card {
    type Err = ParseCardError;

    fn from_str(s: &str) -> Result<Card, ParseCardError> {
        let err = || ParseCardError(s.to_string());
        let last = s.chars().last().ok_or_else(err)?;
        let (face, letter) = s.split_at(s.len() - last.len_utf8());
        let suit = Suit::from_letter(letter).ok_or_else(err)?;
        let value = match face {
            "I" => Value::Investment,
            "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" | "10" => {
                Value::Number(face.parse().map_err(|_| err())?)
            }
            _ => return Err(err()),
        };
        Ok(Card { suit, value })
    }
}

impl Card {
    /// The card's notation (`ID`, `7O`, `10V`), without formatting: observations hold many
    /// cards (the whole history), and every observation of a Lua or WASM bot writes them all.
    pub fn name(self) -> &'static str {
        const NAMES: [[&str; 10]; 6] = [
            ["ID", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D"],
            ["IO", "2O", "3O", "4O", "5O", "6O", "7O", "8O", "9O", "10O"],
            ["IM", "2M", "3M", "4M", "5M", "6M", "7M", "8M", "9M", "10M"],
            ["IJ", "2J", "3J", "4J", "5J", "6J", "7J", "8J", "9J", "10J"],
            ["IV", "2V", "3V", "4V", "5V", "6V", "7V", "8V", "9V", "10V"],
            ["IP", "2P", "3P", "4P", "5P", "6P", "7P", "8P", "9P", "10P"],
        ];
        let suit = match self.suit {
            Suit::Desert => 0,
            Suit::Ocean => 1,
            Suit::Mountain => 2,
            Suit::Jungle => 3,
            Suit::Volcano => 4,
            Suit::Purple => 5,
        };
        match self.value {
            Value::Investment => NAMES[suit][0],
            Value::Number(n) => NAMES[suit][usize::from(n.clamp(2, 10)) - 1],
        }
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(D::Error::custom)
    }
}

/// Where a draw comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Source {
    /// The top of the deck (`draw deck`).
    Deck,
    /// The top card of that suit's discard pile (`draw D`).
    Pile(Suit),
}

/// One decision. Notation (CONTRACT.md §1 lost-cities): `play 7D`, `discard ID`, `draw deck`,
/// `draw D`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Action {
    /// Play phase: add the card to your expedition of its suit.
    Play(Card),
    /// Play phase: put the card on its suit's discard pile.
    Discard(Card),
    /// Draw phase: take a card.
    Draw(Source),
}

impl Serialize for Action {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // The notation assembled in a stack buffer (at most `discard 10D`, 11 bytes).
        let (verb, rest): (&str, &str) = match self {
            Action::Play(card) => ("play ", card.name()),
            Action::Discard(card) => ("discard ", card.name()),
            Action::Draw(Source::Deck) => ("draw ", "deck"),
            Action::Draw(Source::Pile(suit)) => ("draw ", suit.letter()),
        };
        let mut buf = [0u8; 16];
        buf[..verb.len()].copy_from_slice(verb.as_bytes());
        buf[verb.len()..verb.len() + rest.len()].copy_from_slice(rest.as_bytes());
        match std::str::from_utf8(&buf[..verb.len() + rest.len()]) {
            Ok(text) => s.serialize_str(text),
            Err(_) => s.collect_str(self),
        }
    }
}

impl<'de> Deserialize<'de> for Action {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Action, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(D::Error::custom)
    }
}

/// The rule sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// `classic`: five suits D O M J V, 60 cards.
    Classic,
    /// `six-suits`: adds the purple suit P, 72 cards.
    SixSuits,
}

impl Variant {
    /// Every variant; the first is the default.
    pub const ALL: [Variant; 2] = [Variant::Classic, Variant::SixSuits];

    /// The contract's name of the variant.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Classic => "classic",
            Variant::SixSuits => "six-suits",
        }
    }

    /// The suits in play, in suit order.
    pub fn suits(self) -> &'static [Suit] {
        match self {
            Variant::Classic => &Suit::ALL[..5],
            Variant::SixSuits => &Suit::ALL[..],
        }
    }

    /// Every card of the variant in canonical order (suit order; `I I I 2 .. 10` in each suit).
    pub fn full_deck(self) -> Vec<Card> {
        self.suits().iter().flat_map(|&s| Card::suit_cards(s)).collect()
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
            game: LostCities::NAME,
            input: s.to_string(),
            known: variant_list(&Variant::ALL),
        })
    }
}

impl Serialize for Variant {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Variant {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Variant, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(D::Error::custom)
    }
}

/// Whether `card` may be added on top of `expedition` (bottom..top): an empty expedition takes
/// anything; on an investment anything may follow (another investment or any number); on a
/// number only a higher number (seed-games.md §3(b) rule 4, the quiz server's test).
pub fn can_extend(expedition: &[Card], card: Card) -> bool {
    match (expedition.last().map(|c| c.value), card.value) {
        (None, _) | (Some(Value::Investment), _) => true,
        (Some(Value::Number(top)), Value::Number(n)) => n > top,
        (Some(Value::Number(_)), Value::Investment) => false,
    }
}

/// The score of one expedition (bottom..top): 0 if unstarted, else
/// `(sum of numbers - 20) * (1 + investments) + (20 if 8 or more cards)`; the bonus counts
/// investment cards and is not multiplied (seed-games.md §3(b) rule 6).
pub fn expedition_score(expedition: &[Card]) -> i64 {
    if expedition.is_empty() {
        return 0;
    }
    let sum: i64 = expedition.iter().filter_map(|c| c.number_value()).map(i64::from).sum();
    let investments = expedition.iter().filter(|c| c.is_investment()).count() as i64;
    let bonus = if expedition.len() >= 8 { 20 } else { 0 };
    (sum - 20) * (1 + investments) + bonus
}

/// A value per suit of the variant, indexed by [`Suit::index`]; serialized as a JSON object
/// keyed by suit letter, in suit order (`{"D": .., "O": .., ...}`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BySuit<T>(pub Vec<T>);

impl<T> BySuit<T> {
    /// The entry for `suit` (`None` for a suit the variant does not have).
    pub fn get(&self, suit: Suit) -> Option<&T> {
        self.0.get(suit.index())
    }

    /// `(suit, entry)` in suit order.
    pub fn iter(&self) -> impl Iterator<Item = (Suit, &T)> {
        Suit::ALL.into_iter().zip(self.0.iter())
    }
}

/// The inverse of the map above, in any key order: the keys must be the first suits of
/// [`Suit::ALL`] (a variant's suits), each once.
impl<'de, T: Deserialize<'de>> Deserialize<'de> for BySuit<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<BySuit<T>, D::Error> {
        struct Entries<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Entries<T> {
            type Value = BySuit<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object keyed by suit letter")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<BySuit<T>, A::Error> {
                let mut slots: Vec<Option<T>> = Suit::ALL.iter().map(|_| None).collect();
                while let Some(key) = map.next_key::<String>()? {
                    let suit = Suit::from_letter(&key)
                        .ok_or_else(|| A::Error::custom(format!("{key:?} is not a suit letter")))?;
                    if slots[suit.index()].replace(map.next_value()?).is_some() {
                        return Err(A::Error::custom(format!("suit {key:?} twice")));
                    }
                }
                let present = slots.iter().take_while(|s| s.is_some()).count();
                if slots[present..].iter().any(Option::is_some) {
                    return Err(A::Error::custom("the suits are not the first ones of D O M J V P"));
                }
                Ok(BySuit(slots.into_iter().flatten().collect()))
            }
        }
        d.deserialize_map(Entries(std::marker::PhantomData))
    }
}

impl<T: Serialize> Serialize for BySuit<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (suit, v) in self.iter() {
            map.serialize_entry(suit.letter(), v)?;
        }
        map.end()
    }
}

// ---------------------------------------------------------------------------------------------
// Setup
// ---------------------------------------------------------------------------------------------

/// A start position written out in full, unchecked: the variant, both hands, and the deck in draw
/// order (`deck[0]` is the first card drawn). JSON:
/// `{"variant":"classic","hands":[["7D",..8 cards],[..8 cards]],"deck":["3O",..]}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// The rule set; fixes the suits and so the 60 or 72 cards.
    pub variant: Variant,
    /// Seat 0's and seat 1's hands, 8 cards each (any order).
    pub hands: [Vec<Card>; 2],
    /// The rest of the cards, `deck[0]` drawn first.
    pub deck: Vec<Card>,
}

impl Setup {
    /// Deals `variant` from `seed`: the canonical full deck shuffled with the `Deal` stream, then
    /// cards 0, 2, .., 14 to seat 0 and 1, 3, .., 15 to seat 1; the rest in order is the deck.
    pub fn deal(variant: Variant, seed: u64) -> Setup {
        let mut cards = variant.full_deck();
        Rng::new(seed, Stream::Deal).shuffle(&mut cards);
        let deck = cards.split_off(2 * HAND_SIZE);
        let hand = |seat: usize| cards.iter().skip(seat).step_by(2).copied().collect();
        Setup { variant, hands: [hand(0), hand(1)], deck }
    }
}

// ---------------------------------------------------------------------------------------------
// State
// ---------------------------------------------------------------------------------------------

/// The phase of the turn in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The seat to move plays or discards a card.
    Play,
    /// The seat to move draws a card.
    Draw,
    /// The match is over.
    Over,
}

/// One public event of the match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Event {
    /// Who acted.
    pub seat: Seat,
    /// What they did, in the notation (`play 7D`, `discard ID`, `draw deck`, `draw D`).
    pub action: Action,
    /// The card that moved, when it is public: the card played or discarded, the card picked
    /// up from a discard pile; `null` for a draw from the deck.
    pub card: Option<Card>,
}

/// A Lost Cities match in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LostCities {
    variant: Variant,
    /// The deck, top (next card drawn) LAST.
    deck: Vec<Card>,
    /// Hands, kept sorted.
    hands: [Vec<Card>; 2],
    /// Expeditions per seat, per suit index, bottom..top.
    expeditions: [Vec<Vec<Card>>; 2],
    /// Discard piles per suit index, bottom..top.
    discards: Vec<Vec<Card>>,
    /// Cards each seat picked up from discard piles and still holds (sorted; public knowledge).
    known: [Vec<Card>; 2],
    to_move: Seat,
    phase: Phase,
    /// The pile the mover discarded on this turn, which it may not draw from.
    discarded_this_turn: Option<Suit>,
    /// Completed turns, both seats together.
    turns: u32,
    history: Vec<Event>,
}

impl LostCities {
    /// The current score of `seat`: the sum of its expeditions' scores.
    pub fn score(&self, seat: Seat) -> i64 {
        self.expeditions[seat].iter().map(|e| expedition_score(e)).sum()
    }

    /// Both seats' current scores.
    pub fn scores(&self) -> [i64; 2] {
        [self.score(0), self.score(1)]
    }

    /// Completed turns (a turn is one seat's play and draw).
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// Cards left in the deck.
    pub fn deck_size(&self) -> usize {
        self.deck.len()
    }

    /// The phase of the turn in progress.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The hand of `seat`, sorted.
    pub fn hand(&self, seat: Seat) -> &[Card] {
        &self.hands[seat]
    }

    /// The expedition of `seat` in `suit`, bottom..top.
    pub fn expedition(&self, seat: Seat, suit: Suit) -> &[Card] {
        &self.expeditions[seat][suit.index()]
    }

    /// The discard pile of `suit`, bottom..top.
    pub fn discard_pile(&self, suit: Suit) -> &[Card] {
        &self.discards[suit.index()]
    }

    /// The public history of the match.
    pub fn history(&self) -> &[Event] {
        &self.history
    }

    /// Every card in the game, wherever it is (deck, hands, expeditions, piles), in no
    /// particular order. Always the variant's full deck as a multiset.
    pub fn all_cards(&self) -> Vec<Card> {
        let mut all = self.deck.clone();
        for seat in 0..2 {
            all.extend(&self.hands[seat]);
            all.extend(self.expeditions[seat].iter().flatten());
        }
        all.extend(self.discards.iter().flatten());
        all
    }

    fn suits(&self) -> &'static [Suit] {
        self.variant.suits()
    }

    fn end_turn(&mut self) {
        self.turns += 1;
        self.discarded_this_turn = None;
        if self.deck.is_empty() || self.turns >= MAX_TURNS {
            self.phase = Phase::Over;
        } else {
            self.phase = Phase::Play;
            self.to_move = 1 - self.to_move;
        }
    }

    fn cards_text(cards: &[Card]) -> String {
        if cards.is_empty() {
            "-".to_string()
        } else {
            cards.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
        }
    }
}

fn insert_sorted(cards: &mut Vec<Card>, card: Card) {
    let at = cards.partition_point(|c| *c <= card);
    cards.insert(at, card);
}

fn remove_one(cards: &mut Vec<Card>, card: Card) -> bool {
    match cards.iter().position(|c| *c == card) {
        Some(i) => {
            cards.remove(i);
            true
        }
        None => false,
    }
}

// ---------------------------------------------------------------------------------------------
// Observation
// ---------------------------------------------------------------------------------------------

/// What one seat sees (docs/games/lost-cities.md lists every field). Cards are strings in the
/// notation; per-seat arrays are indexed by seat; per-suit objects are keyed by suit letter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct LostCitiesObservation {
    /// Always `"lost-cities"`.
    #[serde(deserialize_with = "game_name")]
    pub game: super::json::GameName,
    /// `"classic"` or `"six-suits"`.
    pub variant: Variant,
    /// The seat this observation is for.
    pub seat: Seat,
    /// `"play"`, `"draw"` (the phase of the turn in progress) or `"over"`.
    pub phase: Phase,
    /// The seat whose turn it is, `null` once over.
    pub to_move: Option<Seat>,
    /// Legal actions for this seat (empty if not to act), in the documented order.
    pub legal: Vec<String>,
    /// The suits in play, in suit order.
    pub suits: Vec<Suit>,
    /// This seat's hand, sorted (suit order, then `I`, 2..10).
    pub hand: Vec<Card>,
    /// Cards in each seat's hand.
    pub hand_sizes: [usize; 2],
    /// Per seat: cards it picked up from discard piles and still holds (sorted).
    pub known_hands: [Vec<Card>; 2],
    /// Per seat, per suit: the expedition, bottom..top.
    pub expeditions: [BySuit<Vec<Card>>; 2],
    /// Per suit: the discard pile, bottom..top (the last card is the one that can be drawn).
    pub discards: BySuit<Vec<Card>>,
    /// The suit the seat to move discarded on this turn (cannot be drawn from), else `null`.
    pub discarded_this_turn: Option<Suit>,
    /// Cards left in the deck.
    pub deck_size: usize,
    /// Per seat: the score as it stands (final once over).
    pub scores: [i64; 2],
    /// Completed turns, both seats together (a turn = one play + one draw).
    pub turn: u32,
    /// The game ends after this many turns (200) if the deck lasts.
    pub max_turns: u32,
    /// Every decision so far, oldest first.
    pub history: Vec<Event>,
}

impl LostCitiesObservation {
    /// `seat`'s expedition of `suit`, bottom..top (empty if not started).
    pub fn expedition(&self, seat: Seat, suit: Suit) -> &[Card] {
        self.expeditions[seat].get(suit).map_or(&[], Vec::as_slice)
    }

    /// The discard pile of `suit`, bottom..top (the last card is the one that can be drawn).
    pub fn pile(&self, suit: Suit) -> &[Card] {
        self.discards.get(suit).map_or(&[], Vec::as_slice)
    }
}

/// The `game` field read back: only this game's name.
fn game_name<'de, D: serde::Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    super::json::game_name(d, <LostCities as Game>::NAME)
}

impl Observation for LostCitiesObservation {
    fn seat(&self) -> Seat {
        self.seat
    }

    fn legal(&self) -> &[String] {
        &self.legal
    }

    /// By hand, in the `Serialize` impls' field order and spelling: a mid-match observation
    /// (its history) is most of a WASM bot's decision through serde.
    fn write_json(&self, out: &mut Vec<u8>) -> Result<(), serde_json::Error> {
        fn cards(o: &mut JsonOut, cards: &[Card]) {
            o.array(cards, |o, c| {
                o.name(c.name());
            });
        }
        fn by_suit(o: &mut JsonOut, piles: &BySuit<Vec<Card>>) {
            o.raw("{");
            for (i, (suit, pile)) in piles.iter().enumerate() {
                o.raw(if i == 0 { "" } else { "," }).name(suit.letter()).raw(":");
                cards(o, pile);
            }
            o.raw("}");
        }
        fn action(o: &mut JsonOut, action: Action) {
            let (verb, rest) = match action {
                Action::Play(card) => ("\"play ", card.name()),
                Action::Discard(card) => ("\"discard ", card.name()),
                Action::Draw(Source::Deck) => ("\"draw ", "deck"),
                Action::Draw(Source::Pile(suit)) => ("\"draw ", suit.letter()),
            };
            o.raw(verb).raw(rest).raw("\"");
        }
        let o = &mut JsonOut(out);
        o.raw("{\"game\":").str(self.game).raw(",\"variant\":").name(self.variant.name());
        o.raw(",\"seat\":").usize(self.seat).raw(",\"phase\":").name(match self.phase {
            Phase::Play => "play",
            Phase::Draw => "draw",
            Phase::Over => "over",
        });
        o.raw(",\"to_move\":").option(self.to_move, |o, s| {
            o.usize(s);
        });
        o.raw(",\"legal\":").strs(&self.legal);
        o.raw(",\"suits\":").array(&self.suits, |o, s| {
            o.name(s.letter());
        });
        o.raw(",\"hand\":");
        cards(o, &self.hand);
        o.raw(",\"hand_sizes\":").usizes(self.hand_sizes);
        o.raw(",\"known_hands\":").array(&self.known_hands, |o, hand| cards(o, hand));
        o.raw(",\"expeditions\":").array(&self.expeditions, |o, piles| by_suit(o, piles));
        o.raw(",\"discards\":");
        by_suit(o, &self.discards);
        o.raw(",\"discarded_this_turn\":").option(self.discarded_this_turn, |o, s| {
            o.name(s.letter());
        });
        o.raw(",\"deck_size\":").usize(self.deck_size);
        o.raw(",\"scores\":").ints(self.scores);
        o.raw(",\"turn\":").uint(self.turn).raw(",\"max_turns\":").uint(self.max_turns);
        o.raw(",\"history\":").array(&self.history, |o, e| {
            o.raw("{\"seat\":").usize(e.seat).raw(",\"action\":");
            action(o, e.action);
            o.raw(",\"card\":").option(e.card, |o, c| {
                o.name(c.name());
            });
            o.raw("}");
        });
        o.raw("}");
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// Game
// ---------------------------------------------------------------------------------------------

impl Game for LostCities {
    type Variant = Variant;
    type Action = Action;
    type Setup = Setup;
    type Observation = LostCitiesObservation;

    const NAME: &'static str = "lost-cities";
    const PLAYERS: usize = 2;
    const FAULT_POLICY: FaultPolicy = FaultPolicy::Forfeit;
    const ABOUT: &'static str = "Lost Cities (Ruby Quiz #51): expeditions, investments, discards";
    const POINTS_ARE: &'static str = "Lost Cities score difference, own − opponent's";

    fn event_points(points: &[i64], seat: Seat) -> f64 {
        (points[seat] - points[1 - seat]) as f64
    }

    fn variants() -> &'static [Variant] {
        &Variant::ALL
    }

    fn deal(variant: Variant, seed: u64) -> Setup {
        Setup::deal(variant, seed)
    }

    fn from_setup(setup: Setup) -> Result<LostCities, SetupError> {
        let Setup { variant, hands, deck } = setup;
        for (seat, hand) in hands.iter().enumerate() {
            if hand.len() != HAND_SIZE {
                return Err(SetupError(format!(
                    "seat {seat} holds {} cards, must hold {HAND_SIZE}",
                    hand.len()
                )));
            }
        }
        let mut given: Vec<Card> = hands.iter().flatten().chain(&deck).copied().collect();
        given.sort();
        let mut expected = variant.full_deck();
        expected.sort();
        if given != expected {
            let mut missing = expected.clone();
            let mut extra = Vec::new();
            for c in &given {
                if !remove_one(&mut missing, *c) {
                    extra.push(*c);
                }
            }
            return Err(SetupError(format!(
                "the cards are not the {} cards of {variant}: missing [{}], extra [{}]",
                expected.len(),
                LostCities::cards_text(&missing),
                LostCities::cards_text(&extra),
            )));
        }
        let nsuits = variant.suits().len();
        let mut hands = hands;
        for hand in &mut hands {
            hand.sort();
        }
        let mut deck = deck;
        deck.reverse();
        Ok(LostCities {
            variant,
            deck,
            hands,
            expeditions: [vec![Vec::new(); nsuits], vec![Vec::new(); nsuits]],
            discards: vec![Vec::new(); nsuits],
            known: [Vec::new(), Vec::new()],
            to_move: 0,
            phase: Phase::Play,
            discarded_this_turn: None,
            turns: 0,
            history: Vec::new(),
        })
    }

    fn variant(&self) -> Variant {
        self.variant
    }

    fn to_act(&self) -> Vec<Seat> {
        match self.phase {
            Phase::Over => Vec::new(),
            _ => vec![self.to_move],
        }
    }

    /// Play phase: for each distinct hand card in hand order (suit order, then `I`, 2..10),
    /// `play X` if it extends the expedition, then `discard X`. Draw phase: `draw deck`, then
    /// `draw S` for each non-empty pile in suit order, except the pile discarded on this turn.
    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if seat != self.to_move {
            return Vec::new();
        }
        match self.phase {
            Phase::Over => Vec::new(),
            Phase::Play => {
                let mut out = Vec::with_capacity(2 * HAND_SIZE);
                let mut previous = None;
                for &card in &self.hands[seat] {
                    if previous == Some(card) {
                        continue;
                    }
                    previous = Some(card);
                    if can_extend(&self.expeditions[seat][card.suit.index()], card) {
                        out.push(Action::Play(card));
                    }
                    out.push(Action::Discard(card));
                }
                out
            }
            Phase::Draw => {
                let mut out = vec![Action::Draw(Source::Deck)];
                for &suit in self.suits() {
                    if !self.discards[suit.index()].is_empty() && self.discarded_this_turn != Some(suit) {
                        out.push(Action::Draw(Source::Pile(suit)));
                    }
                }
                out
            }
        }
    }

    fn play_unchecked(&mut self, seat: Seat, action: &Action) {
        debug_assert_eq!(seat, self.to_move, "seat {seat} is not to move");
        let card = match *action {
            Action::Play(card) | Action::Discard(card) => {
                assert!(remove_one(&mut self.hands[seat], card), "{card} is not in hand");
                remove_one(&mut self.known[seat], card);
                if let Action::Play(_) = action {
                    self.expeditions[seat][card.suit.index()].push(card);
                    self.discarded_this_turn = None;
                } else {
                    self.discards[card.suit.index()].push(card);
                    self.discarded_this_turn = Some(card.suit);
                }
                self.phase = Phase::Draw;
                Some(card)
            }
            Action::Draw(Source::Deck) => {
                let card = self.deck.pop().expect("the deck is never empty while a game runs");
                insert_sorted(&mut self.hands[seat], card);
                None
            }
            Action::Draw(Source::Pile(suit)) => {
                let card = self.discards[suit.index()].pop().expect("drawn pile is not empty");
                insert_sorted(&mut self.hands[seat], card);
                insert_sorted(&mut self.known[seat], card);
                Some(card)
            }
        };
        self.history.push(Event { seat, action: *action, card });
        if let Action::Draw(_) = action {
            self.end_turn();
        }
    }

    fn observe(&self, seat: Seat) -> LostCitiesObservation {
        let over = self.phase == Phase::Over;
        LostCitiesObservation {
            game: Self::NAME,
            variant: self.variant,
            seat,
            phase: self.phase,
            to_move: (!over).then_some(self.to_move),
            legal: self.legal_strings(seat),
            suits: self.suits().to_vec(),
            hand: self.hands[seat].clone(),
            hand_sizes: [self.hands[0].len(), self.hands[1].len()],
            known_hands: self.known.clone(),
            expeditions: [BySuit(self.expeditions[0].clone()), BySuit(self.expeditions[1].clone())],
            discards: BySuit(self.discards.clone()),
            discarded_this_turn: self.discarded_this_turn,
            deck_size: self.deck.len(),
            scores: self.scores(),
            turn: self.turns,
            max_turns: MAX_TURNS,
            history: self.history.clone(),
        }
    }

    /// Points are the final scores; the higher wins, equal scores draw.
    fn outcome(&self) -> Option<Outcome> {
        (self.phase == Phase::Over).then(|| Outcome::higher_wins(self.scores().to_vec()))
    }

    /// A faulty seat loses (both faulty: a draw), with at most the opponent's score − 1 (an
    /// unstarted expedition counts −20 in the score as it stands, so a fault early in the match
    /// would otherwise keep a lead).
    fn forfeit(&self, faulty: &[Seat]) -> Outcome {
        Outcome::two_player_forfeit(self.scores().to_vec(), faulty)
    }

    fn summary(&self) -> String {
        let status = match self.phase {
            Phase::Over => {
                let [a, b] = self.scores();
                let result = match a.cmp(&b) {
                    std::cmp::Ordering::Greater => "seat 0 wins",
                    std::cmp::Ordering::Less => "seat 1 wins",
                    std::cmp::Ordering::Equal => "draw",
                };
                format!("over, {result} {a}:{b}")
            }
            Phase::Play => format!("seat {} to play", self.to_move),
            Phase::Draw => format!("seat {} to draw", self.to_move),
        };
        let mut out = format!("turn {}/{MAX_TURNS}, deck {}, {status}", self.turns, self.deck.len());
        for seat in 0..2 {
            let started: Vec<String> = self
                .suits()
                .iter()
                .filter(|s| !self.expeditions[seat][s.index()].is_empty())
                .map(|&s| format!("{s}[{}]", Self::cards_text(self.expedition(seat, s))))
                .collect();
            out.push_str(&format!(
                "\n  seat {seat} ({:+}): {} | hand {}",
                self.score(seat),
                if started.is_empty() { "-".to_string() } else { started.join(" ") },
                Self::cards_text(&self.hands[seat]),
            ));
        }
        let piles: Vec<String> = self
            .suits()
            .iter()
            .filter(|s| !self.discards[s.index()].is_empty())
            .map(|&s| format!("{s}[{}]", Self::cards_text(self.discard_pile(s))))
            .collect();
        out.push_str(&format!(
            "\n  discards: {}",
            if piles.is_empty() { "-".to_string() } else { piles.join(" ") }
        ));
        out
    }
}

// ---------------------------------------------------------------------------------------------
// Notation
// ---------------------------------------------------------------------------------------------

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Deck => f.write_str("deck"),
            Source::Pile(suit) => write!(f, "{suit}"),
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Play(card) => write!(f, "play {card}"),
            Action::Discard(card) => write!(f, "discard {card}"),
            Action::Draw(source) => write!(f, "draw {source}"),
        }
    }
}

impl FromStr for Action {
    type Err = ParseActionError;

    /// Exactly the contract's strings: `play 7D`, `discard ID`, `draw deck`, `draw D` (upper-case
    /// card and suit letters, one space).
    fn from_str(s: &str) -> Result<Action, ParseActionError> {
        let err = || ParseActionError {
            game: LostCities::NAME,
            input: s.to_string(),
            expected: "\"play 7D\", \"discard ID\", \"draw deck\" or \"draw D\"",
        };
        if let Some(card) = s.strip_prefix("play ") {
            Ok(Action::Play(card.parse().map_err(|_| err())?))
        } else if let Some(card) = s.strip_prefix("discard ") {
            Ok(Action::Discard(card.parse().map_err(|_| err())?))
        } else if let Some(source) = s.strip_prefix("draw ") {
            match source {
                "deck" => Ok(Action::Draw(Source::Deck)),
                letter => Suit::from_letter(letter).map(|s| Action::Draw(Source::Pile(s))).ok_or_else(err),
            }
        } else {
            Err(err())
        }
    }
}

// ---- JSON Schemas of the types with hand-written serialization (docs/schema/) ------------

impl JsonSchema for Suit {
    fn schema_name() -> Cow<'static, str> {
        "Suit".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A suit letter: D (desert), O (ocean), M (mountain), J (jungle), V (volcano), P (purple, six-suits only).",
            "type": "string",
            "enum": ["D", "O", "M", "J", "V", "P"]
        })
    }
}

impl JsonSchema for Card {
    fn schema_name() -> Cow<'static, str> {
        "Card".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A card: value then suit letter, `I` for an investment (\"ID\", \"7O\", \"10V\").",
            "type": "string",
            "pattern": "^(I|[2-9]|10)[DOMJVP]$"
        })
    }
}

impl JsonSchema for Action {
    fn schema_name() -> Cow<'static, str> {
        "Action".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "An action in the notation: \"play 7D\", \"discard ID\", \"draw deck\", \"draw D\".",
            "type": "string"
        })
    }
}

impl JsonSchema for Variant {
    fn schema_name() -> Cow<'static, str> {
        "Variant".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "The rule set.",
            "type": "string",
            "enum": ["classic", "six-suits"]
        })
    }
}

impl<T: JsonSchema> JsonSchema for BySuit<T> {
    fn schema_name() -> Cow<'static, str> {
        "BySuit".into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "An object keyed by the suit letters in play.",
            "type": "object",
            "propertyNames": generator.subschema_for::<Suit>(),
            "additionalProperties": generator.subschema_for::<T>()
        })
    }
}

#[cfg(test)]
mod tests;
