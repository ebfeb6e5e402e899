//! Legacy stdin/stdout bots: programs written for the original challenges' referees, compiled to
//! a WASI command and run unmodified, one fresh instance per decision (the sandbox's
//! [`StdioInstance`]). The protocol adapters turn an observation into the bytes the original
//! referee wrote to the program's stdin, and its stdout into an action:
//!
//! - `blade` (blutorange's codegolf `controller.rb`, seed-games.md §1(c)): one compact JSON line
//!   in, a hand index out, read the way Ruby's `to_i` reads the first line;
//! - `comp1511` (the COMP1511 18s1 Intensity referee, seed-games.md §4(c)): whitespace-separated
//!   integers in (`0` name, `1` pass, `2` play), integers out.
//!
//! A bot is named `legacy:<protocol>:<path.wasm>`. See `docs/legacy-bots.md`.

use std::any::Any;
use std::cell::Cell;
use std::fmt::Write as _;
use std::rc::Rc;

use cardarena_sandbox::{Limits, StdioInstance, StdioProgram};

use crate::bots::bot::{Bot, Fault, InitInfo, Verdict};
use crate::games::blade::{play_effect, BladeObservation, Card as BladeCard, Event, FieldCard, Lying};
use crate::games::intensity::{Card as IntensityCard, IntensityObservation, Phase};
use crate::games::{Game, Seat};
use crate::play::adapter::{convert, seat_seed};
use crate::play::error::BotError;
use crate::play::HostError;

/// The prefix of a legacy bot's name.
pub const PREFIX: &str = crate::bots::bot::LEGACY_PREFIX;

/// How many bytes of an unparsable stdout a fault message quotes.
const QUOTE_BYTES: usize = 80;

/// The `"file"` the Blade controller names for the bot's state. There is no file system: a
/// program that opens it gets an error, as a program that found no state would.
pub const BLADE_STATE_FILE: &str = "files/bot";

/// The referee protocol of a legacy bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// The Blade codegolf controller.
    Blade,
    /// The COMP1511 18s1 Intensity referee.
    Comp1511,
}

impl Protocol {
    /// Every protocol.
    pub const ALL: [Protocol; 2] = [Protocol::Blade, Protocol::Comp1511];

    /// The name in `legacy:<name>:<path>`.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Blade => "blade",
            Protocol::Comp1511 => "comp1511",
        }
    }

    /// The game it plays.
    pub fn game(self) -> &'static str {
        match self {
            Protocol::Blade => "blade",
            Protocol::Comp1511 => "intensity",
        }
    }
}

/// The exact stdin, as text, that the bot named `name` gets for `obs` when it is a legacy program
/// of that observation's game (`None` otherwise): what crash capsules and the replay viewer show.
pub fn stdin_text(name: &str, obs: &dyn Any) -> Option<String> {
    let (protocol, _) = parse_name(name)?.ok()?;
    LegacyBot::stdin_for(protocol, obs).map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
}

/// Splits `legacy:<protocol>:<path>`; `None` if `name` is not a legacy bot name.
///
/// # Errors
/// An unknown protocol or a missing path, with what to write instead.
pub fn parse_name(name: &str) -> Option<Result<(Protocol, &str), HostError>> {
    let rest = name.strip_prefix(PREFIX)?;
    let known = || Protocol::ALL.map(|p| format!("legacy:{}:<file.wasm>", p.name())).to_vec();
    Some(match rest.split_once(':') {
        Some((proto, path)) if !path.is_empty() => {
            match Protocol::ALL.into_iter().find(|p| p.name() == proto) {
                Some(p) => Ok((p, path)),
                None => Err(BotError::UnknownProtocol {
                    name: name.to_string(),
                    protocol: proto.to_string(),
                    known: known(),
                }
                .into()),
            }
        }
        _ => Err(BotError::LegacyNoFile { name: name.to_string(), known: known() }.into()),
    })
}

/// A content hash for a legacy bot: the module, the protocol and the shim's version (a new
/// shim may change what the program sees, so results are not mixed across versions).
pub fn hash(protocol: Protocol, program: &StdioProgram) -> String {
    crate::bots::bot::content_hash(
        format!("legacy {} {} {}", protocol.name(), cardarena_sandbox::SHIM_VERSION, program.hash())
            .as_bytes(),
    )
}

/// A legacy bot in one match.
pub struct LegacyBot {
    protocol: Protocol,
    program: StdioProgram,
    limits: Limits,
    instance: Option<StdioInstance>,
    fuel_last: Option<u64>,
    log: Vec<String>,
}

impl LegacyBot {
    /// The bot for one match (started by `init` or [`LegacyBot::start`]).
    pub fn new(protocol: Protocol, program: StdioProgram, limits: Limits) -> LegacyBot {
        LegacyBot { protocol, program, limits, instance: None, fuel_last: None, log: Vec::new() }
    }

    /// The stdin bytes of this bot's protocol for an observation (`None`: not this protocol's
    /// game).
    pub fn stdin_for(protocol: Protocol, obs: &dyn Any) -> Option<Vec<u8>> {
        match protocol {
            Protocol::Blade => obs.downcast_ref::<BladeObservation>().map(blade_stdin),
            Protocol::Comp1511 => obs.downcast_ref::<IntensityObservation>().map(comp1511_stdin),
        }
    }

    /// Starts the bot for a match: what the referee did before the first decision (COMP1511:
    /// the name run, whose output goes to the log).
    pub fn start(&mut self, seed: u64, seat: Seat) {
        let mut instance = self.program.start(&self.limits, seat_seed(seed, seat));
        if self.protocol == Protocol::Comp1511 {
            match instance.run(b"0\n") {
                Ok(out) => {
                    let name = String::from_utf8_lossy(&out);
                    let name: String = name.lines().next().unwrap_or("").chars().take(32).collect();
                    self.log.push(format!("name: {name}"));
                }
                Err(f) => self.log.push(format!("the name run failed ({}): {}", f.verdict, f.message)),
            }
            self.log.extend(instance.take_log());
        }
        self.instance = Some(instance);
    }

    /// One decision: a fresh run with `stdin`, its stdout read as `expect` says. `arena repro`
    /// calls it with a capsule's recorded stdin.
    ///
    /// # Errors
    /// The run's fault, or a reply the protocol cannot read.
    pub fn run(&mut self, stdin: &[u8], expect: &Expect) -> Result<String, Fault> {
        let instance =
            self.instance.as_mut().ok_or_else(|| Fault::new(Verdict::Load, "the bot did not start"))?;
        let out = instance.run(stdin);
        self.fuel_last = Some(instance.fuel_used_last());
        let out = out.map_err(convert)?;
        expect.read(&out).map_err(|f| Fault {
            fuel_used: self.fuel_last,
            memory_peak: Some(instance_peak(self.instance.as_ref())),
            ..f
        })
    }
}

impl<G: Game> Bot<G> for LegacyBot {
    fn init(&mut self, info: &InitInfo) -> Result<(), Fault> {
        self.start(info.seed, info.seat);
        Ok(())
    }

    fn act(&mut self, obs: &G::Observation) -> Result<String, Fault> {
        let obs: &dyn Any = obs;
        let (Some(stdin), Some(expect)) =
            (LegacyBot::stdin_for(self.protocol, obs), Expect::of(self.protocol, obs))
        else {
            return Err(Fault::new(
                Verdict::Load,
                format!(
                    "a legacy:{} bot plays {}, not {}",
                    self.protocol.name(),
                    self.protocol.game(),
                    G::NAME
                ),
            ));
        };
        self.run(&stdin, &expect)
    }

    fn fuel_used_last(&self) -> Option<u64> {
        self.fuel_last
    }

    fn memory_peak(&self) -> Option<u64> {
        self.instance.as_ref().map(StdioInstance::memory_peak)
    }

    fn take_log(&mut self) -> Vec<String> {
        let mut lines = std::mem::take(&mut self.log);
        if let Some(i) = self.instance.as_mut() {
            lines.extend(i.take_log());
        }
        lines
    }
}

/// An observation (of a crash capsule) without the field a protocol reads its reply with.
#[derive(Debug, thiserror::Error)]
#[error("the observation's `{field}` cannot be read ({problem})")]
pub struct BadObservation {
    /// The field: `hand` (Blade) or `phase` (COMP1511).
    pub field: &'static str,
    /// What is wrong with it.
    pub problem: String,
}

/// What a run's stdout is read against: the part of the observation the original referee
/// read the answer with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// Blade: the hand (in the arena's order) that the index points into.
    HandIndex(Vec<BladeCard>),
    /// COMP1511: the phase (a pass is three integers, a play one).
    Integers(Phase),
}

impl Expect {
    /// From a typed observation (`None`: not this protocol's game).
    pub fn of(protocol: Protocol, obs: &dyn Any) -> Option<Expect> {
        match protocol {
            Protocol::Blade => {
                obs.downcast_ref::<BladeObservation>().map(|o| Expect::HandIndex(o.hand.clone()))
            }
            Protocol::Comp1511 => {
                obs.downcast_ref::<IntensityObservation>().map(|o| Expect::Integers(o.phase))
            }
        }
    }

    /// From an observation's JSON, as a crash capsule stores it (its `hand` or `phase` field).
    ///
    /// # Errors
    /// The field is missing or is not what the game writes.
    pub fn from_json(protocol: Protocol, obs: &serde_json::Value) -> Result<Expect, BadObservation> {
        let field = match protocol {
            Protocol::Blade => "hand",
            Protocol::Comp1511 => "phase",
        };
        let value =
            obs.get(field).cloned().ok_or_else(|| BadObservation { field, problem: "missing".into() })?;
        let bad = |e: serde_json::Error| BadObservation { field, problem: e.to_string() };
        Ok(match protocol {
            Protocol::Blade => Expect::HandIndex(serde_json::from_value(value).map_err(bad)?),
            Protocol::Comp1511 => Expect::Integers(serde_json::from_value(value).map_err(bad)?),
        })
    }

    /// The action for a run's stdout.
    ///
    /// # Errors
    /// What the referee would refuse ([`blade_reply`], [`comp1511_reply`]).
    pub fn read(&self, stdout: &[u8]) -> Result<String, Fault> {
        match self {
            Expect::HandIndex(hand) => blade_reply(hand, stdout),
            Expect::Integers(phase) => comp1511_reply(*phase, stdout),
        }
    }
}

fn instance_peak(i: Option<&StdioInstance>) -> u64 {
    i.map_or(0, StdioInstance::memory_peak)
}

/// The first [`QUOTE_BYTES`] of a run's stdout, for a fault message.
fn quote(stdout: &[u8]) -> String {
    String::from_utf8_lossy(&stdout[..stdout.len().min(QUOTE_BYTES)]).into_owned()
}

/// `stdout unparsable: "<first 80 bytes>"`.
fn unparsable(stdout: &[u8]) -> Fault {
    Fault::new(Verdict::Invalid, format!("stdout unparsable: {:?}", quote(stdout)))
}

// ---- Blade: controller.rb ----------------------------------------------------------------------

/// One card object of the controller: `{"type":t,"value":v,"valid":b}` (type 0 = Bolt, 1..7,
/// 8 = Mirror; `value` is the face value even when the card is bolted).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardObject {
    /// The card.
    pub card: BladeCard,
    /// `false` once bolted.
    pub valid: bool,
}

impl CardObject {
    fn write(self, out: &mut String) {
        let ty = match self.card {
            BladeCard::Bolt => 0,
            BladeCard::Mirror => 8,
            c => c.value(),
        };
        let _ = write!(out, "{{\"type\":{ty},\"value\":{},\"valid\":{}}}", self.card.value(), self.valid);
    }
}

/// One side of the controller's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BladeSide {
    /// The mover's hand (its card objects) or, for the opponent, only the count.
    pub hand: Result<Vec<BladeCard>, usize>,
    /// The field, bottom first.
    pub field: Vec<CardObject>,
    /// Cards left in the deck.
    pub deck: usize,
    /// The field's score.
    pub score: u32,
    /// The card of this side's last turn that ended with it ahead, as it is now.
    pub lastmove: Option<CardObject>,
}

/// What `controller.rb`'s `current_state` sends (seed-games.md §1(c)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BladeState {
    /// The state file's path.
    pub file: String,
    /// Turns played since the last (re)initialization.
    pub turn: usize,
    /// The seat to act.
    pub player: BladeSide,
    /// The other seat.
    pub opponent: BladeSide,
}

impl BladeState {
    /// The state for the seat of `obs`. The hand is in the arena's order (sorted), not deal
    /// order; the reply indexes it.
    pub fn from_observation(obs: &BladeObservation) -> BladeState {
        let (me, other) = (obs.seat, 1 - obs.seat);
        let lastmove = last_moves(&obs.history);
        let side = |seat: Seat, hand| BladeSide {
            hand,
            field: obs.fields[seat]
                .iter()
                .map(|&FieldCard { card, valid }| CardObject { card, valid })
                .collect(),
            deck: obs.deck_counts[seat],
            score: obs.scores[seat],
            lastmove: lastmove[seat],
        };
        let since_reinit = obs.history.iter().rev().take_while(|e| !matches!(e, Event::Reinit { .. }));
        BladeState {
            file: BLADE_STATE_FILE.to_string(),
            turn: since_reinit.filter(|e| matches!(e, Event::Play { .. })).count(),
            player: side(me, Ok(obs.hand.clone())),
            opponent: side(other, Err(obs.hand_counts[other])),
        }
    }

    /// The compact JSON line (`JSON.generate`) and its newline.
    pub fn to_line(&self) -> String {
        let mut out = String::with_capacity(1024);
        out.push_str("{\"file\":");
        out.push_str(&serde_json::to_string(&self.file).expect("a string serializes"));
        let _ = write!(out, ",\"turn\":{}", self.turn);
        for (key, side) in [("player", &self.player), ("opponent", &self.opponent)] {
            let _ = write!(out, ",\"{key}\":{{\"hand\":");
            match &side.hand {
                Ok(cards) => {
                    write_cards(&mut out, cards.iter().map(|&card| CardObject { card, valid: true }))
                }
                Err(count) => {
                    let _ = write!(out, "{count}");
                }
            }
            out.push_str(",\"field\":");
            write_cards(&mut out, side.field.iter().copied());
            let _ = write!(out, ",\"deck\":{},\"score\":{},\"lastmove\":", side.deck, side.score);
            match side.lastmove {
                Some(c) => c.write(&mut out),
                None => out.push_str("null"),
            }
            out.push('}');
        }
        out.push_str("}\n");
        out
    }
}

fn write_cards(out: &mut String, cards: impl Iterator<Item = CardObject>) {
    out.push('[');
    for (i, c) in cards.enumerate() {
        if i > 0 {
            out.push(',');
        }
        c.write(out);
    }
    out.push(']');
}

/// A card object of the controller: the card and its validity, shared by the field and a
/// `lastmove` that names it (a Ruby object is a reference).
#[derive(Clone)]
struct Object(BladeCard, Rc<Cell<bool>>);

impl Lying for Object {
    fn card(&self) -> BladeCard {
        self.0
    }

    fn is_valid(&self) -> bool {
        self.1.get()
    }

    fn set_valid(&mut self, valid: bool) {
        self.1.set(valid);
    }
}

/// Each seat's `lastmove`: the card object of its last turn that ended with it strictly ahead.
/// In the controller it is the very card object, so a number card later bolted shows
/// `"valid":false`; the fields are replayed from the history (the game's rule 6,
/// [`play_effect`]) to follow each object.
fn last_moves(history: &[Event]) -> [Option<CardObject>; 2] {
    let object = |card| Object(card, Rc::new(Cell::new(true)));
    let mut fields: [Vec<Object>; 2] = [Vec::new(), Vec::new()];
    let mut last: [Option<Object>; 2] = [None, None];
    for event in history {
        match *event {
            Event::Place { seat, card, .. } => fields[seat].push(object(card)),
            Event::Reinit { .. } => fields = [Vec::new(), Vec::new()],
            Event::Play { seat, card, scores } => {
                let played = object(card);
                play_effect(&mut fields, seat, card, || played.clone(), |_| {});
                if scores[seat] > scores[1 - seat] {
                    last[seat] = Some(played);
                }
            }
        }
    }
    last.map(|o| o.map(|o| CardObject { card: o.0, valid: o.is_valid() }))
}

/// The controller's stdin for this observation: one compact JSON line.
pub fn blade_stdin(obs: &BladeObservation) -> Vec<u8> {
    BladeState::from_observation(obs).to_line().into_bytes()
}

/// Ruby's `String#to_i` of the first line: leading whitespace, an optional sign, digits with
/// single underscores between them; anything else ends the number, and no digits is 0.
pub fn ruby_to_i(stdout: &[u8]) -> i64 {
    let line = stdout.split(|&b| b == b'\n').next().unwrap_or(&[]);
    let mut rest =
        line.iter().copied().skip_while(|b| matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)).peekable();
    let negative = match rest.peek() {
        Some(b'-') => {
            rest.next();
            true
        }
        Some(b'+') => {
            rest.next();
            false
        }
        _ => false,
    };
    let (mut n, mut prev_digit) = (0i64, false);
    while let Some(&b) = rest.peek() {
        match b {
            b'0'..=b'9' => {
                n = n.saturating_mul(10).saturating_add(i64::from(b - b'0'));
                prev_digit = true;
            }
            b'_' if prev_digit => {
                rest.next();
                if !rest.peek().is_some_and(u8::is_ascii_digit) {
                    break;
                }
                prev_digit = false;
                continue;
            }
            _ => break,
        }
        rest.next();
    }
    if negative {
        -n
    } else {
        n
    }
}

/// The action for the controller's reply: the card of `hand` at index `to_i(first line)`.
///
/// # Errors
/// An index outside the hand (the controller's InvalidResponse: the bot loses).
pub fn blade_reply(hand: &[BladeCard], stdout: &[u8]) -> Result<String, Fault> {
    let index = ruby_to_i(stdout);
    match usize::try_from(index).ok().and_then(|i| hand.get(i)) {
        Some(card) => Ok(card.as_str().to_string()),
        None => {
            let quoted = quote(stdout);
            Err(Fault::new(
                Verdict::Invalid,
                format!(
                    "hand index {index} is out of range: the hand has {} cards, 0..{} (stdout: {quoted:?})",
                    hand.len(),
                    hand.len().saturating_sub(1)
                ),
            ))
        }
    }
}

// ---- Intensity: the COMP1511 referee -----------------------------------------------------------

fn line(out: &mut String, cards: impl IntoIterator<Item = IntensityCard>) {
    for (i, c) in cards.into_iter().enumerate() {
        let _ = write!(out, "{}{}", if i > 0 { " " } else { "" }, c.number());
    }
    out.push('\n');
}

/// The referee's stdin (seed-games.md §4(c)): `1` and the hand for the pass; for a play `2`,
/// `n_hand n_played position`, the hand, this trick's cards, every earlier trick's cards (in
/// play order, leader first), the cards passed and the cards received; one line each.
pub fn comp1511_stdin(obs: &IntensityObservation) -> Vec<u8> {
    let mut out = String::with_capacity(256);
    if obs.phase == Phase::Pass {
        out.push_str("1\n");
        line(&mut out, obs.hand.iter().copied());
    } else {
        let _ = writeln!(out, "2\n{} {} {}", obs.hand.len(), obs.trick.cards.len(), obs.seat);
        line(&mut out, obs.hand.iter().copied());
        line(&mut out, obs.trick.cards.iter().copied());
        line(&mut out, obs.tricks.iter().flat_map(|t| t.cards));
        line(&mut out, obs.passed.iter().copied());
        line(&mut out, obs.received.iter().copied());
    }
    out.into_bytes()
}

/// The action for the referee's reply: the first three integers (`phase` is the pass) or the
/// first integer (a play) of stdout, read as whitespace-separated tokens.
///
/// # Errors
/// Too few integers: `stdout unparsable: "<first 80 bytes>"`. (A number that is not a legal
/// card is the runner's `illegal`: +5 and a random legal card.)
pub fn comp1511_reply(phase: Phase, stdout: &[u8]) -> Result<String, Fault> {
    let want = if phase == Phase::Pass { 3 } else { 1 };
    let numbers: Option<Vec<i64>> = stdout
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .take(want)
        .map(|t| std::str::from_utf8(t).ok()?.parse().ok())
        .collect();
    match numbers {
        Some(mut n) if n.len() == want => {
            n.sort_unstable();
            let cards: Vec<String> = n.iter().map(i64::to_string).collect();
            let verb = if want == 3 { "pass" } else { "play" };
            Ok(format!("{verb} {}", cards.join(" ")))
        }
        _ => Err(unparsable(stdout)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::blade::Source;

    /// `lastmove` is the controller's card object itself (seed-games.md §1(c)): a number card
    /// bolted after it put its seat ahead shows `"valid":false`, and `true` again once a 1
    /// re-validates it (rule 6); a Bolt or a consumed 1 is never on a field and stays valid.
    #[test]
    fn lastmove_follows_the_card_object_through_bolts() {
        use BladeCard::*;
        let place = |seat, card| Event::Place { seat, card, from: Source::Deck };
        let play = |seat, card, scores| Event::Play { seat, card, scores };
        let mut history = vec![place(0, Three), place(1, Five), play(0, Four, [7, 5])];
        let four = |valid| Some(CardObject { card: Four, valid });
        assert_eq!(last_moves(&history), [four(true), None]);
        history.push(play(1, Bolt, [3, 5]));
        let bolt = Some(CardObject { card: Bolt, valid: true });
        assert_eq!(last_moves(&history), [four(false), bolt]);
        history.push(play(0, One, [7, 5]));
        assert_eq!(last_moves(&history), [Some(CardObject { card: One, valid: true }), bolt]);
        // A tie re-initializes: the fields are cleared, the last moves stay.
        history.extend([play(1, Two, [7, 7]), Event::Reinit { score: 7 }, place(0, Six), place(1, Two)]);
        assert_eq!(last_moves(&history)[0], Some(CardObject { card: One, valid: true }));
        history.push(play(1, Bolt, [0, 2]));
        assert_eq!(last_moves(&history), [Some(CardObject { card: One, valid: true }), bolt]);
    }
}
