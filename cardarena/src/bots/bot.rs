//! The one seam between the match runner and whatever decides: the [`Bot`] trait.
//!
//! A bot gets an `init` call once per match and an `act` call per decision, and answers with an
//! action string or a [`Fault`]. Built-in native bots implement it directly on the typed
//! observation; sandboxed Lua/WASM bots serialize the observation to the contract's JSON. The
//! runner validates every reply, so a bot can never make an illegal move count.

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::bots::error::BotError;
use crate::bots::{Greedy, Hosted};
use crate::games::rng::{Rng, Stream};
use crate::games::{Game, Observation, Seat};

/// Why a bot's decision failed. The names are the contract's verdict names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Fuel per decision or per match exhausted.
    Fuel,
    /// Memory limit exceeded.
    Memory,
    /// Stack (or C stack) overflow.
    Stack,
    /// A runtime error or trap in the bot.
    Crash,
    /// A well-formed action that is not among the legal ones.
    Illegal,
    /// A reply that is not an action at all (not a string, not UTF-8, not the notation).
    Invalid,
    /// The bot could not be loaded or initialised.
    Load,
    /// The wall-clock backstop stopped a runaway bot.
    Wallclock,
}

impl Verdict {
    /// Every verdict, in a fixed order.
    pub const ALL: [Verdict; 8] = [
        Verdict::Fuel,
        Verdict::Memory,
        Verdict::Stack,
        Verdict::Crash,
        Verdict::Illegal,
        Verdict::Invalid,
        Verdict::Load,
        Verdict::Wallclock,
    ];

    /// The contract's name.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Fuel => "fuel",
            Verdict::Memory => "memory",
            Verdict::Stack => "stack",
            Verdict::Crash => "crash",
            Verdict::Illegal => "illegal",
            Verdict::Invalid => "invalid",
            Verdict::Load => "load",
            Verdict::Wallclock => "wallclock",
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A failed decision, with the numbers a bot author needs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Fault {
    /// What went wrong.
    pub verdict: Verdict,
    /// A human-readable explanation.
    pub message: String,
    /// Fuel used in the failing decision, for sandboxed bots.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fuel_used: Option<u64>,
    /// Peak memory in bytes, for sandboxed bots.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_peak: Option<u64>,
    /// Lua traceback or WASM backtrace, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<String>,
}

impl Fault {
    /// A fault with only a verdict and a message.
    pub fn new(verdict: Verdict, message: impl Into<String>) -> Fault {
        Fault { verdict, message: message.into(), fuel_used: None, memory_peak: None, trace: None }
    }
}

/// What a bot is told once, before its first decision (CONTRACT.md §3 `init(info)`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InitInfo {
    /// Game name.
    pub game: &'static str,
    /// Variant name.
    pub variant: String,
    /// The bot's seat.
    pub seat: Seat,
    /// Number of seats.
    pub players: usize,
    /// The match seed.
    pub seed: u64,
}

/// Anything that can play a seat of game `G`.
pub trait Bot<G: Game>: Send {
    /// Called once before the first decision.
    ///
    /// # Errors
    /// A fault (verdict `load`, `fuel`, …) if the bot cannot start.
    fn init(&mut self, info: &InitInfo) -> Result<(), Fault> {
        let _ = info;
        Ok(())
    }

    /// Chooses one action string for this observation. The runner checks it against `obs.legal()`.
    ///
    /// # Errors
    /// A fault if the bot fails to answer.
    fn act(&mut self, obs: &G::Observation) -> Result<String, Fault>;

    /// Fuel used by the last `act` (sandboxed bots), for statistics and replays.
    fn fuel_used_last(&self) -> Option<u64> {
        None
    }

    /// Peak memory of this bot so far, in bytes (sandboxed bots), for `arena check`/`grade`.
    fn memory_peak(&self) -> Option<u64> {
        None
    }

    /// Log lines the bot printed since the last call.
    fn take_log(&mut self) -> Vec<String> {
        Vec::new()
    }

    /// From the next decision on, record reads of observation fields that do not exist (Lua
    /// bots; for `arena check`: the bot sees the same values and uses the same fuel).
    fn watch_unknown_fields(&mut self) {}

    /// The observation fields the last decision read that did not exist (after
    /// [`Bot::watch_unknown_fields`]; at most a few).
    fn unknown_fields(&self) -> Vec<String> {
        Vec::new()
    }
}

/// A bot with something done around its start and each decision: `before` may refuse with a
/// fault instead (a run stopped at once), `after` sees the bot after each decision (counting
/// reads of missing observation fields). Everything else is the bot's own.
pub struct Around<G: Game> {
    bot: Box<dyn Bot<G>>,
    before: Box<dyn Fn() -> Result<(), Fault> + Send>,
    after: After<G>,
}

/// What [`Around`] does after each decision.
type After<G> = Box<dyn FnMut(&dyn Bot<G>) + Send>;

impl<G: Game> Around<G> {
    /// `bot` wrapped.
    pub fn wrap(
        bot: Box<dyn Bot<G>>,
        before: impl Fn() -> Result<(), Fault> + Send + 'static,
        after: impl FnMut(&dyn Bot<G>) + Send + 'static,
    ) -> Box<dyn Bot<G>> {
        Box::new(Around { bot, before: Box::new(before), after: Box::new(after) })
    }
}

impl<G: Game> Bot<G> for Around<G> {
    fn init(&mut self, info: &InitInfo) -> Result<(), Fault> {
        (self.before)()?;
        self.bot.init(info)
    }
    fn act(&mut self, obs: &G::Observation) -> Result<String, Fault> {
        (self.before)()?;
        let reply = self.bot.act(obs);
        (self.after)(&*self.bot);
        reply
    }
    fn fuel_used_last(&self) -> Option<u64> {
        self.bot.fuel_used_last()
    }
    fn memory_peak(&self) -> Option<u64> {
        self.bot.memory_peak()
    }
    fn take_log(&mut self) -> Vec<String> {
        self.bot.take_log()
    }
    fn watch_unknown_fields(&mut self) {
        self.bot.watch_unknown_fields();
    }
    fn unknown_fields(&self) -> Vec<String> {
        self.bot.unknown_fields()
    }
}

/// Uniformly random over the legal actions, seeded from the match seed and seat.
pub struct RandomBot {
    rng: Rng,
}

impl RandomBot {
    /// A random bot for `seat` of the match with `seed`.
    pub fn new(seed: u64, seat: Seat) -> RandomBot {
        RandomBot { rng: Rng::new(seed, Stream::Bot(seat)) }
    }
}

impl<G: Game> Bot<G> for RandomBot {
    fn act(&mut self, obs: &G::Observation) -> Result<String, Fault> {
        self.rng
            .choose(obs.legal())
            .cloned()
            .ok_or_else(|| Fault::new(Verdict::Crash, "random bot asked to act with no legal action"))
    }
}

/// The game's one-ply heuristic ([`Greedy`]).
pub struct GreedyBot {
    rng: Rng,
}

impl GreedyBot {
    /// A greedy bot for `seat` of the match with `seed` (the seed only breaks ties).
    pub fn new(seed: u64, seat: Seat) -> GreedyBot {
        GreedyBot { rng: Rng::new(seed, Stream::Bot(seat)) }
    }
}

impl<G: Greedy> Bot<G> for GreedyBot {
    fn act(&mut self, obs: &G::Observation) -> Result<String, Fault> {
        Ok(G::greedy_action(obs, &mut self.rng).to_string())
    }
}

/// The built-in bots' names in the four built-in games (`strong` also takes a level: `strong:N`);
/// a game may have others ([`Hosted::builtin_bot_names`]).
pub const BUILTIN_BOTS: &[&str] = &["random", "greedy", "strong", "nash"];

/// How a legacy stdin/stdout program is named: `legacy:<protocol>:<file.wasm>`
/// (`crate::play::legacy`).
pub const LEGACY_PREFIX: &str = "legacy:";

/// A seat played by a person (`arena play`; `human:<who>` on the ladder).
pub const HUMAN: &str = "human";

/// Whether `name` is spelled as a built-in bot rather than a bot file: not a person (`human`),
/// a first part (before any `:`, as in `strong:3`) without a path separator or a dot, and no bot
/// file's extension (`.lua`, `.js`, `.wasm`, `.wat`). Whether the game has it is [`builtin`]'s question.
pub fn is_builtin_name(name: &str) -> bool {
    let base = name.split(':').next().unwrap_or_default();
    !base.is_empty()
        && name != HUMAN
        && base != HUMAN
        && !name.starts_with(LEGACY_PREFIX)
        && !base.contains(['/', '\\', '.'])
        && cardarena_sandbox::Kind::from_path(std::path::Path::new(name)).is_none()
}

/// A built-in bot of game `G` by name: `random` (every game) or one of the game's own
/// ([`Hosted::builtin_bot`]).
///
/// # Errors
/// `name` is not a built-in of game `G` ([`BotError::UnknownBot`] with the closest name,
/// [`BotError::NotInGame`] for another game's built-in), or the game refuses it as asked
/// ([`BotError::BadLevel`] for `strong:N` …).
pub fn builtin<G: Hosted>(name: &str, seed: u64, seat: Seat) -> Result<Box<dyn Bot<G>>, BotError> {
    if name == "random" {
        return Ok(Box::new(RandomBot::new(seed, seat)));
    }
    G::builtin_bot(name, seed, seat).unwrap_or_else(|| {
        let builtins = builtin_names::<G>();
        Err(if BUILTIN_BOTS.contains(&name) || name.starts_with("strong:") {
            BotError::NotInGame { name: name.to_string(), game: G::NAME.to_string(), builtins }
        } else {
            unknown_bot::<G>(name, builtins, None)
        })
    })
}

/// Game `G`'s built-in bots for messages: `random`, then the game's own.
pub(crate) fn builtin_names<G: Hosted>() -> Vec<String> {
    let mut names = vec!["random".to_string()];
    names.extend(G::builtin_bot_names());
    names
}

/// [`BotError::UnknownBot`] for `name` in game `G`: did you mean the closest built-in (at most two
/// edits away), else `nearby` (a bot file next to a path-like name)?
pub(crate) fn unknown_bot<G: Hosted>(name: &str, builtins: Vec<String>, nearby: Option<String>) -> BotError {
    let did_you_mean = builtins
        .iter()
        .filter(|b| !b.contains(' '))
        .map(|b| (crate::bots::error::edit_distance(name, b), b))
        .filter(|&(d, b)| d <= 2 && d < b.len())
        .min_by_key(|&(d, _)| d)
        .map(|(_, b)| b.clone())
        .or(nearby);
    BotError::UnknownBot { name: name.to_string(), game: G::NAME.to_string(), builtins, did_you_mean }
}

/// The content hash of a bot: SHA-256 (hex) of a file's bytes, or of a built-in's name and the
/// arena version (a built-in changes only with the arena).
pub fn content_hash(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The content hash of a built-in bot.
pub fn builtin_hash(name: &str) -> String {
    content_hash(format!("cardarena builtin bot {name} {}", env!("CARGO_PKG_VERSION")).as_bytes())
}
