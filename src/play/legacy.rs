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
use std::fmt::Write as _;

use cardarena_sandbox::{Limits, StdioInstance, StdioProgram};

use crate::bots::bot::{Bot, Fault, InitInfo, Verdict};
use crate::games::blade::{BladeObservation, Card as BladeCard, Event, FieldCard};
use crate::games::intensity::{Card as IntensityCard, IntensityObservation, Phase};
use crate::games::{Game, Seat};
use crate::play::adapter::{convert, sandbox_seed};

/// The prefix of a legacy bot's name.
pub const PREFIX: &str = "legacy:";

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
pub fn parse_name(name: &str) -> Option<anyhow::Result<(Protocol, &str)>> {
    let rest = name.strip_prefix(PREFIX)?;
    let known = || Protocol::ALL.map(|p| format!("legacy:{}:<file.wasm>", p.name())).join(" or ");
    Some(match rest.split_once(':') {
        Some((proto, path)) if !path.is_empty() => {
            match Protocol::ALL.into_iter().find(|p| p.name() == proto) {
                Some(p) => Ok((p, path)),
                None => {
                    Err(anyhow::anyhow!("unknown legacy protocol {proto:?} in {name:?}; write {}", known()))
                }
            }
        }
        _ => Err(anyhow::anyhow!("{name:?} names no file; write {}", known())),
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
    /// The bot for one match (started at `init`).
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

    fn reply(&self, obs: &dyn Any, stdout: &[u8]) -> Result<String, Fault> {
        let wrong =
            || Fault::new(Verdict::Crash, "host error: the observation is not of this protocol's game");
        match self.protocol {
            Protocol::Blade => blade_reply(obs.downcast_ref().ok_or_else(wrong)?, stdout),
            Protocol::Comp1511 => comp1511_reply(obs.downcast_ref().ok_or_else(wrong)?, stdout),
        }
    }
}

impl<G: Game> Bot<G> for LegacyBot {
    fn init(&mut self, info: &InitInfo) -> Result<(), Fault> {
        let mut instance = self.program.start(&self.limits, sandbox_seed(info.seed, info.seat));
        if self.protocol == Protocol::Comp1511 {
            // The referee's first run asks for the name (shown in the log only).
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
        Ok(())
    }

    fn act(&mut self, obs: &G::Observation) -> Result<String, Fault> {
        let obs: &dyn Any = obs;
        let stdin = LegacyBot::stdin_for(self.protocol, obs).ok_or_else(|| {
            Fault::new(
                Verdict::Load,
                format!(
                    "a legacy:{} bot plays {}, not {}",
                    self.protocol.name(),
                    self.protocol.game(),
                    G::NAME
                ),
            )
        })?;
        let instance =
            self.instance.as_mut().ok_or_else(|| Fault::new(Verdict::Load, "the bot did not start"))?;
        let out = instance.run(&stdin);
        self.fuel_last = Some(instance.fuel_used_last());
        let out = out.map_err(convert)?;
        self.reply(obs, &out).map_err(|f| Fault {
            fuel_used: self.fuel_last,
            memory_peak: Some(instance_peak(self.instance.as_ref())),
            ..f
        })
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

fn instance_peak(i: Option<&StdioInstance>) -> u64 {
    i.map_or(0, StdioInstance::memory_peak)
}

/// `stdout unparsable: "<first 80 bytes>"`.
fn unparsable(stdout: &[u8]) -> Fault {
    let quoted = String::from_utf8_lossy(&stdout[..stdout.len().min(QUOTE_BYTES)]).into_owned();
    Fault::new(Verdict::Invalid, format!("stdout unparsable: {quoted:?}"))
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

/// Each seat's `lastmove`: the card object of its last turn that ended with it strictly ahead.
/// In the controller it is the very card object, so a number card later bolted shows
/// `"valid":false`; the fields are replayed from the history to follow each object.
fn last_moves(history: &[Event]) -> [Option<CardObject>; 2] {
    let mut objects: Vec<CardObject> = Vec::new();
    let mut fields: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
    let mut last: [Option<usize>; 2] = [None, None];
    let new = |objects: &mut Vec<CardObject>, card| {
        objects.push(CardObject { card, valid: true });
        objects.len() - 1
    };
    for event in history {
        match *event {
            Event::Place { seat, card, .. } => {
                let id = new(&mut objects, card);
                fields[seat].push(id);
            }
            Event::Reinit { .. } => fields = [Vec::new(), Vec::new()],
            Event::Play { seat, card, scores } => {
                let id = new(&mut objects, card);
                let other = 1 - seat;
                let pop_bolted = |field: &mut Vec<usize>, objects: &[CardObject]| {
                    if field.last().is_some_and(|&top| !objects[top].valid) {
                        field.pop();
                    }
                };
                // The effects of seed-games.md §1(b) rule 6, on card objects.
                match card {
                    BladeCard::One => match fields[seat].last() {
                        Some(&top) if !objects[top].valid => objects[top].valid = true,
                        _ => fields[seat].push(id),
                    },
                    BladeCard::Bolt => {
                        pop_bolted(&mut fields[other], &objects);
                        if let Some(&top) = fields[other].last() {
                            objects[top].valid = false;
                        }
                    }
                    BladeCard::Mirror => fields.swap(0, 1),
                    _ => {
                        pop_bolted(&mut fields[seat], &objects);
                        fields[seat].push(id);
                    }
                }
                if scores[seat] > scores[other] {
                    last[seat] = Some(id);
                }
            }
        }
    }
    last.map(|id| id.map(|id| objects[id]))
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

/// The action for the controller's reply: the hand card at index `to_i(first line)`.
///
/// # Errors
/// An index outside the hand (the controller's InvalidResponse: the bot loses).
pub fn blade_reply(obs: &BladeObservation, stdout: &[u8]) -> Result<String, Fault> {
    let index = ruby_to_i(stdout);
    match usize::try_from(index).ok().and_then(|i| obs.hand.get(i)) {
        Some(card) => Ok(card.as_str().to_string()),
        None => {
            let quoted = String::from_utf8_lossy(&stdout[..stdout.len().min(QUOTE_BYTES)]).into_owned();
            Err(Fault::new(
                Verdict::Invalid,
                format!(
                    "hand index {index} is out of range: the hand has {} cards, 0..{} (stdout: {quoted:?})",
                    obs.hand.len(),
                    obs.hand.len().saturating_sub(1)
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

/// The action for the referee's reply: the first three integers (pass) or the first integer
/// (play) of stdout, read as whitespace-separated tokens.
///
/// # Errors
/// Too few integers: `stdout unparsable: "<first 80 bytes>"`. (A number that is not a legal
/// card is the runner's `illegal`: +5 and a random legal card.)
pub fn comp1511_reply(obs: &IntensityObservation, stdout: &[u8]) -> Result<String, Fault> {
    let want = if obs.phase == Phase::Pass { 3 } else { 1 };
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
