//! The match runner: plays one match of any [`Game`] with any [`Bot`]s, validates every reply,
//! applies the contract's fault policy and records a [`Replay`].
//!
//! # Order of events in a match
//! 1. `G::deal(variant, seed)` makes the start position; it is written into the replay in full.
//! 2. Every bot gets `init` in seat order. A bot that fails `init` faults at decision `null`.
//! 3. While the match is not over: the seats to act are taken from `to_act()`; **every** such
//!    seat's observation is built before any bot is asked (simultaneous decisions stay blind);
//!    the bots are asked in seat order; every reply is checked against the observation's
//!    `legal` list; then the actions are applied in seat order.
//! 4. A fault (a [`Fault`] from the bot, or a reply that is not legal):
//!    - [`FaultPolicy::Forfeit`] (two-player games): the match ends after the current decision
//!      point; the faulty seats lose (both faulty: a draw), via [`Game::forfeit`].
//!    - [`FaultPolicy::PenaltyAndRandomMove`] (Intensity): the seat takes the penalty and the arena
//!      plays a legal action chosen uniformly with the match's [`Stream::Arena`] generator.
//!
//! The runner never reads a clock and draws randomness only from the match seed, so the same
//! spec and bots give the same [`Replay`], byte for byte.

use cardarena_sandbox::Limits;
use serde::{Deserialize, Serialize};

use crate::bots::bot::{Bot, Fault, InitInfo, Verdict};
use crate::games::rng::{Rng, Stream};
use crate::games::{FaultPolicy, Game, Observation, Outcome, Seat};

/// How long a reply may be before the replay stores it shortened.
const MAX_REPLY_RECORDED: usize = 200;

/// One seat's entry in a match: the name it was given and its content hash.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotEntry {
    /// The bot as named (`random`, `greedy`, or a path).
    pub name: String,
    /// SHA-256 of the bot's file, or of the built-in's name and arena version.
    pub hash: String,
}

/// A fault as recorded against a seat: the bot's [`Fault`] and the decision it happened at. It
/// reads as the fault itself (`record.verdict`, `record.message`, ...).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "FaultRecordJson", from = "FaultRecordJson")]
pub struct FaultRecord {
    /// Index into [`Replay::decisions`] of the failing decision, or `None` for a failed `init`.
    pub decision: Option<usize>,
    /// The fault.
    pub fault: Fault,
}

impl FaultRecord {
    /// `fault`, recorded at `decision`.
    pub fn new(fault: Fault, decision: Option<usize>) -> FaultRecord {
        FaultRecord { decision, fault }
    }
}

impl std::ops::Deref for FaultRecord {
    type Target = Fault;

    fn deref(&self) -> &Fault {
        &self.fault
    }
}

/// A [`FaultRecord`] as replays and capsules write it (docs/replay.md): the fault's fields with
/// the decision after the verdict.
#[derive(Serialize, Deserialize)]
struct FaultRecordJson {
    verdict: Verdict,
    decision: Option<usize>,
    message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    fuel_used: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    memory_peak: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    trace: Option<String>,
}

impl From<FaultRecord> for FaultRecordJson {
    fn from(r: FaultRecord) -> FaultRecordJson {
        let Fault { verdict, message, fuel_used, memory_peak, trace } = r.fault;
        FaultRecordJson { verdict, decision: r.decision, message, fuel_used, memory_peak, trace }
    }
}

impl From<FaultRecordJson> for FaultRecord {
    fn from(j: FaultRecordJson) -> FaultRecord {
        let fault = Fault {
            verdict: j.verdict,
            message: j.message,
            fuel_used: j.fuel_used,
            memory_peak: j.memory_peak,
            trace: j.trace,
        };
        FaultRecord { decision: j.decision, fault }
    }
}

/// One decision of one seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DecisionRecord {
    /// The seat that decided.
    pub seat: Seat,
    /// The legal actions it was offered, in the observation's order.
    pub legal: Vec<String>,
    /// What the bot replied (`None` if it faulted without a reply; shortened if very long).
    pub reply: Option<String>,
    /// The action applied: the reply, or the arena's random legal action after a fault in a
    /// penalty game; `None` when the fault ended the match.
    pub played: Option<String>,
    /// Fuel the bot used for this decision, for sandboxed bots.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fuel: Option<u64>,
    /// The fault, if the decision failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault: Option<FaultRecord>,
    /// Lines the bot logged during this decision.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub log: Vec<String>,
}

/// A complete, self-contained record of a match (the replay file format, see docs/replay.md).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    /// Format version of this file.
    pub format: u32,
    /// Game name.
    pub game: String,
    /// Variant name.
    pub variant: String,
    /// The match seed.
    pub seed: u64,
    /// The bots in seat order.
    pub bots: Vec<BotEntry>,
    /// The start position written out in full (the game's `Setup`).
    pub deal: serde_json::Value,
    /// Every decision in order.
    pub decisions: Vec<DecisionRecord>,
    /// Faults per seat, in seat order.
    pub faults: Vec<Vec<FaultRecord>>,
    /// The result.
    pub outcome: Outcome,
    /// The sandbox limits each seat ran under, in seat order (`null` for a built-in bot); empty
    /// when not recorded (replays written before this field existed). Set by the callers of
    /// [`run_match`] (`arena play`, the tournament), which know the limits.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub limits: Vec<Option<Limits>>,
}

impl Replay {
    /// Where decision `index` falls among its seat's own decisions (1 for the seat's first):
    /// the number a bot's author counts in, where `index` counts every seat's.
    pub fn seat_decision(&self, index: usize) -> Option<usize> {
        let seat = self.decisions.get(index)?.seat;
        Some(self.decisions[..=index].iter().filter(|d| d.seat == seat).count())
    }
}

/// A decision as its bot's author and the match both count it: `own` among the seat's own
/// decisions (from 1), `index` among the match's (the replay's `decision`):
/// "30th decision, #57 of the match".
pub fn decision_place(own: usize, index: usize) -> String {
    format!("{} decision, #{index} of the match", ordinal(own))
}

/// `n` as an English ordinal: 1st, 2nd, 3rd, 4th, 11th, 21st...
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The replay format version written by this arena.
pub const REPLAY_FORMAT: u32 = 1;

/// What a match is: game variant, seed and who sits where.
#[derive(Clone, Debug)]
pub struct MatchSpec<G: Game> {
    /// The variant.
    pub variant: G::Variant,
    /// The match seed.
    pub seed: u64,
    /// The bots' names and hashes, in seat order (for the record).
    pub entries: Vec<BotEntry>,
}

/// Receives the events of a match as they happen (the terminal log is one).
pub trait MatchObserver<G: Game> {
    /// The match is about to start from `state`.
    fn start(&mut self, state: &G) {
        let _ = state;
    }
    /// A decision was made.
    fn decision(&mut self, index: usize, record: &DecisionRecord) {
        let _ = (index, record);
    }
    /// The decisions of one decision point were applied; `state` is the position after them.
    fn applied(&mut self, state: &G) {
        let _ = state;
    }
    /// A seat faulted.
    fn fault(&mut self, seat: Seat, fault: &FaultRecord) {
        let _ = (seat, fault);
    }
    /// The match ended.
    fn end(&mut self, outcome: &Outcome, state: &G) {
        let _ = (outcome, state);
    }
}

/// An observer that ignores everything.
pub struct Quiet;
impl<G: Game> MatchObserver<G> for Quiet {}

/// Plays one match.
///
/// # Panics
/// If the number of bots or entries is not `G::PLAYERS`.
pub fn run_match<G: Game>(
    spec: &MatchSpec<G>,
    bots: &mut [Box<dyn Bot<G>>],
    observer: &mut dyn MatchObserver<G>,
) -> Replay {
    assert_eq!(bots.len(), G::PLAYERS, "{} needs {} bots", G::NAME, G::PLAYERS);
    assert_eq!(spec.entries.len(), G::PLAYERS, "one entry per seat");
    let setup = G::deal(spec.variant, spec.seed);
    let deal = serde_json::to_value(&setup).expect("setups serialize");
    let mut state = G::from_setup(setup).expect("a dealt setup is valid");
    let mut arena_rng = Rng::new(spec.seed, Stream::Arena);
    let mut faults: Vec<Vec<FaultRecord>> = vec![Vec::new(); G::PLAYERS];
    let mut decisions: Vec<DecisionRecord> = Vec::new();
    observer.start(&state);

    // init, in seat order
    let mut faulty_at_init = Vec::new();
    for (seat, bot) in bots.iter_mut().enumerate() {
        let info = InitInfo {
            game: G::NAME,
            variant: spec.variant.to_string(),
            seat,
            players: G::PLAYERS,
            seed: spec.seed,
        };
        if let Err(fault) = bot.init(&info) {
            let record = FaultRecord::new(fault, None);
            observer.fault(seat, &record);
            faults[seat].push(record);
            faulty_at_init.push(seat);
        }
    }
    if !faulty_at_init.is_empty() {
        match G::FAULT_POLICY {
            FaultPolicy::Forfeit => {
                let outcome = state.forfeit(&faulty_at_init);
                observer.end(&outcome, &state);
                return finish(spec, deal, decisions, faults, outcome);
            }
            FaultPolicy::PenaltyAndRandomMove(points) => {
                for &seat in &faulty_at_init {
                    state.add_penalty(seat, points);
                }
            }
        }
    }

    while !state.is_over() {
        let seats = state.to_act();
        assert!(!seats.is_empty(), "{}: not over but nobody to act", G::NAME);
        // Every observation first, so that simultaneous decisions are blind.
        let observations: Vec<G::Observation> = seats.iter().map(|&s| state.observe(s)).collect();
        let mut chosen: Vec<(Seat, Option<String>)> = Vec::with_capacity(seats.len());
        let mut forfeits = Vec::new();
        let first_index = decisions.len();
        for (&seat, obs) in seats.iter().zip(&observations) {
            let index = decisions.len();
            let answer = bots[seat].act(obs);
            let fuel = bots[seat].fuel_used_last();
            let log = bots[seat].take_log();
            let (reply, checked) = match answer {
                Ok(reply) => {
                    let checked = check_reply::<G>(obs, &reply);
                    (Some(shorten(&reply)), checked.map(|()| reply))
                }
                Err(fault) => (None, Err(fault)),
            };
            let mut record = DecisionRecord {
                seat,
                legal: obs.legal().to_vec(),
                reply,
                played: None,
                fuel,
                fault: None,
                log,
            };
            match checked {
                Ok(action) => {
                    record.played = Some(action.clone());
                    chosen.push((seat, Some(action)));
                }
                Err(mut fault) => {
                    if fault.fuel_used.is_none() {
                        fault.fuel_used = fuel;
                    }
                    let fr = FaultRecord::new(fault, Some(index));
                    observer.fault(seat, &fr);
                    faults[seat].push(fr.clone());
                    record.fault = Some(fr);
                    match G::FAULT_POLICY {
                        FaultPolicy::Forfeit => {
                            forfeits.push(seat);
                            chosen.push((seat, None));
                        }
                        FaultPolicy::PenaltyAndRandomMove(points) => {
                            state.add_penalty(seat, points);
                            let legal = obs.legal();
                            let action = legal[arena_rng.below(legal.len())].clone();
                            record.played = Some(action.clone());
                            chosen.push((seat, Some(action)));
                        }
                    }
                }
            }
            decisions.push(record);
        }
        if !forfeits.is_empty() {
            // Nothing of this decision point is applied: the match ends here.
            for record in &mut decisions[first_index..] {
                record.played = None;
            }
            let outcome = state.forfeit(&forfeits);
            for (i, record) in decisions[first_index..].iter().enumerate() {
                observer.decision(first_index + i, record);
            }
            observer.end(&outcome, &state);
            return finish(spec, deal, decisions, faults, outcome);
        }
        for (seat, action) in chosen {
            let action = action.expect("every seat chose");
            state
                .play(seat, &action)
                .unwrap_or_else(|e| panic!("{}: a checked action was refused: {e}", G::NAME));
        }
        for (i, record) in decisions[first_index..].iter().enumerate() {
            observer.decision(first_index + i, record);
        }
        observer.applied(&state);
    }
    let outcome = state.outcome().expect("over");
    observer.end(&outcome, &state);
    finish(spec, deal, decisions, faults, outcome)
}

fn finish<G: Game>(
    spec: &MatchSpec<G>,
    deal: serde_json::Value,
    decisions: Vec<DecisionRecord>,
    faults: Vec<Vec<FaultRecord>>,
    outcome: Outcome,
) -> Replay {
    Replay {
        format: REPLAY_FORMAT,
        game: G::NAME.to_string(),
        variant: spec.variant.to_string(),
        seed: spec.seed,
        bots: spec.entries.clone(),
        deal,
        decisions,
        faults,
        outcome,
        limits: Vec::new(),
    }
}

/// Checks a reply against the observation: legal, or `illegal` (a well-formed action that is
/// not legal now), or `invalid` (not an action of the game's notation).
fn check_reply<G: Game>(obs: &G::Observation, reply: &str) -> Result<(), Fault> {
    judge_reply::<G>(obs.legal(), reply)
}

/// Judges a reply against the legal actions offered, exactly as the runner does: legal, or an
/// `illegal` fault (a well-formed action that is not legal now), or an `invalid` fault (not an
/// action of the game's notation). `arena repro` uses it on recorded observations.
///
/// # Errors
/// The fault, as the runner records it.
pub fn judge_reply<G: Game>(legal: &[String], reply: &str) -> Result<(), Fault> {
    if legal.iter().any(|l| l == reply) {
        return Ok(());
    }
    let shown = shorten(reply);
    match reply.parse::<G::Action>() {
        Ok(_) => Err(Fault::new(
            Verdict::Illegal,
            format!("{shown:?} is not legal now; legal: {}", legal_list(legal)),
        )),
        Err(e) => Err(Fault::new(Verdict::Invalid, format!("{e}; legal: {}", legal_list(legal)))),
    }
}

fn legal_list(legal: &[String]) -> String {
    const SHOWN: usize = 12;
    let mut s = legal.iter().take(SHOWN).map(|l| format!("{l:?}")).collect::<Vec<_>>().join(", ");
    if legal.len() > SHOWN {
        s.push_str(&format!(", … ({} in all)", legal.len()));
    }
    s
}

/// A reply as the replay records it: replies over 200 bytes are shortened.
pub fn shorten(s: &str) -> String {
    if s.len() <= MAX_REPLY_RECORDED {
        return s.to_string();
    }
    let mut end = MAX_REPLY_RECORDED;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &s[..end], s.len())
}

/// The first `n` characters of `s` (a hash read from a file may be anything).
pub fn prefix(s: &str, n: usize) -> &str {
    s.char_indices().nth(n).map_or(s, |(i, _)| &s[..i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decisions_are_counted_as_their_author_counts_them() {
        assert_eq!(decision_place(30, 57), "30th decision, #57 of the match");
        let places: Vec<String> =
            [1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111].map(|n| decision_place(n, 0)).into();
        let suffixes: Vec<&str> = places.iter().map(|p| p.split(' ').next().unwrap()).collect();
        assert_eq!(
            suffixes,
            ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]
        );
    }

    /// A recorded fault is written as docs/replay.md shows it: the verdict, the decision, then
    /// the fault's other fields, the unset ones left out; and it reads back the same.
    #[test]
    fn a_fault_record_keeps_its_replay_format() {
        let mut fault = Fault::new(Verdict::Fuel, "out of fuel");
        fault.fuel_used = Some(5_000_001);
        let record = FaultRecord::new(fault, Some(3));
        let text = serde_json::to_string(&record).unwrap();
        assert_eq!(text, r#"{"verdict":"fuel","decision":3,"message":"out of fuel","fuel_used":5000001}"#);
        assert_eq!(serde_json::from_str::<FaultRecord>(&text).unwrap(), record);
        let at_init = r#"{"verdict":"load","decision":null,"message":"no act"}"#;
        let read: FaultRecord = serde_json::from_str(at_init).unwrap();
        assert_eq!((read.decision, read.verdict, read.trace.as_deref()), (None, Verdict::Load, None));
        assert_eq!(serde_json::to_string(&read).unwrap(), at_init);
    }
}
