//! From a bot's name to a [`Bot`]: the loader, the bot sources and the lanes.

use std::path::Path;
use std::sync::OnceLock;

use cardarena_sandbox::{Kind, Limits, Program, Sandbox, StdioProgram};

use crate::bots::bot::{
    builtin, builtin_hash, builtin_names, content_hash, is_builtin_name, unknown_bot, Bot, InitInfo,
};
use crate::games::{Game, Seat};
use crate::play::adapter::{sandbox_seed, NotLoaded, SandboxBot};
use crate::play::error::{BotError, LoadError};
use crate::play::limits::LimitsConfig;
use crate::play::runner::BotEntry;
use crate::play::{HostError, Hosted};

/// Parses a variant name of game `G`; `None` means the default (first) variant.
///
/// # Errors
/// The name is not a variant of `G` ([`HostError::UnknownVariant`], which lists the variants).
pub fn variant<G: Game>(name: Option<&str>) -> Result<G::Variant, HostError> {
    match name {
        None => Ok(G::variants()[0]),
        Some(name) => Ok(name.parse::<G::Variant>()?),
    }
}

pub use crate::bots::bot::HUMAN;

/// Turns bot names into [`BotSource`]s, starting the sandbox only when a Lua or WASM bot is named.
#[derive(Default)]
pub struct Loader {
    sandbox: OnceLock<Sandbox>,
}

impl Loader {
    /// A loader; the sandbox starts on the first file bot.
    pub fn new() -> Loader {
        Loader::default()
    }

    /// The sandbox, if a file bot has started it.
    pub fn started_sandbox(&self) -> Option<&Sandbox> {
        self.sandbox.get()
    }

    /// A loader on `sandbox` (a lane of a process's sandbox, for one worker thread).
    pub fn on(sandbox: Sandbox) -> Loader {
        let loader = Loader::default();
        let _ = loader.sandbox.set(sandbox);
        loader
    }

    /// A loader on a lane of this loader's sandbox (started if it was not), for another worker
    /// thread: its WASM instances start on an engine of its own ([`Sandbox::lane`]).
    ///
    /// # Errors
    /// The sandbox or the lane cannot start (a host failure).
    pub fn lane(&self) -> Result<Loader, HostError> {
        let lane = self
            .sandbox()?
            .lane()
            .map_err(|e| HostError::Host(format!("cannot start a sandbox lane: {e}")))?;
        Ok(Loader::on(lane))
    }

    /// The sandbox, started on first use.
    ///
    /// # Errors
    /// The sandbox cannot start (a host failure).
    pub fn sandbox(&self) -> Result<&Sandbox, HostError> {
        if let Some(s) = self.sandbox.get() {
            return Ok(s);
        }
        let s = Sandbox::new().map_err(|e| HostError::Host(format!("cannot start the sandbox: {e}")))?;
        Ok(self.sandbox.get_or_init(|| s))
    }

    /// Resolves a bot name as typed by a user: a built-in name, or a path to a `.lua`, `.js`,
    /// `.wasm` or `.wat` file, which is read and checked (Lua parsed, WASM compiled and its ABI checked).
    ///
    /// # Errors
    /// [`HostError::Bot`] for unknown names, missing files, unsupported extensions, and programs
    /// the sandbox refuses (syntax errors, unknown imports, missing exports …: the
    /// [`LoadError`] is the source); [`HostError::Host`] if the sandbox cannot start.
    pub fn resolve<G: Hosted>(&self, name: &str) -> Result<BotSource, HostError> {
        if name == HUMAN {
            return Err(BotError::HumanOutsidePlay.into());
        }
        if is_builtin_name(name) {
            // Instantiating once checks that game `G` has this built-in (and its level).
            builtin::<G>(name, 0, 0)?;
            return Ok(BotSource::Builtin(name.to_string()));
        }
        if crate::play::legacy::parse_name(name).is_some() {
            return match self.load_legacy::<G>(name)? {
                Ok(source) => Ok(source),
                Err(source) => Err(BotError::NotLoaded { name: name.to_string(), source }.into()),
            };
        }
        let path = Path::new(name);
        if Kind::from_path(path).is_none() {
            return Err(unknown_bot::<G>(name, builtin_names::<G>(), nearby_bot_file(path)).into());
        }
        if !path.is_file() {
            return Err(
                BotError::NoSuchFile { name: name.to_string(), did_you_mean: nearby_bot_file(path) }.into()
            );
        }
        match self.load_file::<G>(name)? {
            Ok(program) => Ok(BotSource::File { name: name.to_string(), program }),
            Err(source) => Err(BotError::NotLoaded { name: name.to_string(), source }.into()),
        }
    }

    /// Resolves an entrant of a tournament event: as [`Loader::resolve`], except that a bot file
    /// (Lua, WASM or legacy) that is missing or that the sandbox refuses becomes
    /// [`BotSource::Failed`], which forfeits every match with the verdict `load`: one bad file
    /// does not stop the event.
    ///
    /// # Errors
    /// A name that is neither a built-in, a `.lua`/`.wasm`/`.wat` path nor a legacy bot of this
    /// game (a mistake in the tournament file), or a sandbox that cannot start (a host failure,
    /// not the bot's).
    pub fn resolve_entrant<G: Hosted>(&self, name: &str) -> Result<BotSource, HostError> {
        let is_legacy = crate::play::legacy::parse_name(name).is_some();
        if name == HUMAN
            || is_builtin_name(name)
            || (!is_legacy && Kind::from_path(Path::new(name)).is_none())
        {
            return self.resolve::<G>(name);
        }
        let loaded = if is_legacy {
            self.load_legacy::<G>(name)?
        } else {
            self.load_file::<G>(name)?.map(|program| BotSource::File { name: name.to_string(), program })
        };
        Ok(match loaded {
            Ok(source) => source,
            Err(error) => {
                let error = error.to_string();
                // The file's hash when it can be read, so that a fixed file is a new entrant.
                let file =
                    crate::play::legacy::parse_name(name).and_then(Result::ok).map_or(name, |(_, f)| f);
                let hash =
                    std::fs::read(file).map_or_else(|_| content_hash(name.as_bytes()), |b| content_hash(&b));
                BotSource::Failed { name: name.to_string(), hash, error }
            }
        })
    }

    /// Loads a program received as bytes (a job's bot, from a queue's bot store) called `name`,
    /// whose extension (`.lua`, `.wasm`, `.wat`) says its kind. As for a tournament entrant
    /// ([`Loader::resolve_entrant`]), a program the sandbox refuses, or a Lua program without
    /// `act`, becomes [`BotSource::Failed`] with the content hash of `bytes`: the bot's verdict
    /// `load` in every match, never an error of the host.
    ///
    /// # Errors
    /// `name` has none of those extensions (a mistake of the one who named it), or the sandbox
    /// cannot start (a host failure).
    pub fn load_program<G: Game>(&self, name: &str, bytes: &[u8]) -> Result<BotSource, HostError> {
        let path = Path::new(name);
        let kind = Kind::from_path(path).ok_or_else(|| BotError::UnknownKind { name: name.to_string() })?;
        let file = path.file_name().map_or_else(|| name.to_string(), |n| n.to_string_lossy().into_owned());
        let loaded = match self.sandbox()?.load(&file, kind, bytes) {
            Ok(program) => checked::<G>(program, || String::from_utf8_lossy(bytes).into_owned()),
            Err(fault) => Err(LoadError::Refused(fault)),
        };
        Ok(match loaded {
            Ok(program) => BotSource::File { name: name.to_string(), program },
            Err(error) => BotSource::Failed {
                name: name.to_string(),
                hash: content_hash(bytes),
                error: error.to_string(),
            },
        })
    }

    /// Loads a legacy program (`legacy:<protocol>:<file>`): the outer error is a wrong name (an
    /// unknown protocol, another game's) or the host's (the sandbox cannot start), the inner one
    /// the file's (missing, or refused by the sandbox).
    fn load_legacy<G: Game>(&self, name: &str) -> Result<Result<BotSource, LoadError>, HostError> {
        let Some(parsed) = crate::play::legacy::parse_name(name) else {
            return Err(HostError::Request(format!("{name:?} is not a legacy bot name")));
        };
        let (protocol, file) = parsed?;
        if protocol.game() != G::NAME {
            return Err(BotError::LegacyWrongGame {
                name: name.to_string(),
                protocol: protocol.name().to_string(),
                plays: protocol.game().to_string(),
                game: G::NAME.to_string(),
            }
            .into());
        }
        let bytes = match std::fs::read(file) {
            Ok(bytes) => bytes,
            Err(source) => return Ok(Err(LoadError::Read { file: file.to_string(), source })),
        };
        Ok(match self.sandbox()?.load_stdio(file, &bytes) {
            Ok(program) => Ok(BotSource::Legacy { name: name.to_string(), protocol, program }),
            Err(fault) => Err(LoadError::Refused(fault)),
        })
    }

    /// Loads a bot file: the outer error is the host's (the sandbox cannot start), the inner
    /// one the file's (missing, or refused by the sandbox).
    fn load_file<G: Game>(&self, name: &str) -> Result<Result<Program, LoadError>, HostError> {
        let path = Path::new(name);
        if !path.is_file() {
            return Ok(Err(LoadError::NoSuchFile { file: name.to_string() }));
        }
        Ok(match self.sandbox()?.load_file(path) {
            Ok(program) => checked::<G>(program, || std::fs::read_to_string(name).unwrap_or_default()),
            Err(fault) => Err(LoadError::Refused(fault)),
        })
    }
}

/// A bot file in the folder of `path` whose name is at most two edits from `path`'s (for a
/// did-you-mean when `path` is not there or has no bot file's extension); `None` if the folder
/// cannot be read or has none close enough.
fn nearby_bot_file(path: &Path) -> Option<String> {
    let wanted = path.file_name()?.to_str()?;
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut best: Option<(usize, String)> = None;
    for entry in std::fs::read_dir(folder).ok()?.flatten().take(1000) {
        let file = entry.file_name();
        let Some(file) = file.to_str() else { continue };
        if Kind::from_path(Path::new(file)).is_none() || file == wanted {
            continue;
        }
        let d = edit_distance(wanted, file);
        if d <= 2 && best.as_ref().is_none_or(|(bd, b)| (d, file) < (*bd, b.as_str())) {
            best = Some((d, file.to_string()));
        }
    }
    let (_, file) = best?;
    Some(match path.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(parent) => parent.join(file).to_string_lossy().into_owned(),
        None => file,
    })
}

/// The checks of a program the sandbox has loaded, however it came (a file, a queue's bytes):
/// a Lua program must define `act` (`source` gives its text, for a did-you-mean).
fn checked<G: Game>(program: Program, source: impl FnOnce() -> String) -> Result<Program, LoadError> {
    if program.kind() == Kind::Lua {
        if let Some(error) = missing_act::<G>(&program, source) {
            return Err(error);
        }
    }
    Ok(program)
}

/// A Lua bot defines `act` when its chunk runs, so the loader starts it once (seat 0, seed 0, the
/// default limits) and refuses it when `act` is missing (the message says why): otherwise it
/// would play every match with a fault at its first decision. Any other failure at this start is left to the matches,
/// where it is the bot's verdict.
fn missing_act<G: Game>(program: &Program, source: impl FnOnce() -> String) -> Option<LoadError> {
    let info = InitInfo {
        game: G::NAME,
        variant: G::variants()[0].to_string(),
        seat: 0,
        players: G::PLAYERS,
        seed: 0,
    };
    let json = serde_json::to_string(&info).expect("init info serializes");
    match program.start(&Limits::default_for(Kind::Lua), sandbox_seed(0, 0, program), &json) {
        Err(f) if f.verdict == cardarena_sandbox::Verdict::Load && f.message.contains("function `act`") => {
            Some(LoadError::NoAct { did_you_mean: act_lookalike(&source()) })
        }
        _ => None,
    }
}

/// The function name in a Lua source closest to `act` (same letters in another case, or one
/// edit away), as a did-you-mean.
fn act_lookalike(source: &str) -> Option<String> {
    let words = source.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == ':'));
    let mut after_function = false;
    let mut best: Option<(usize, String)> = None;
    for w in words.filter(|w| !w.is_empty()) {
        if after_function {
            // `function M.Act` or `function M:act`: the last part is the name
            let last = w.rsplit(['.', ':']).next().unwrap_or(w);
            let d = edit_distance(&last.to_ascii_lowercase(), "act").min(edit_distance(last, "act"));
            let d = if last.eq_ignore_ascii_case("act") { 0 } else { d };
            if d <= 1 && best.as_ref().is_none_or(|(bd, _)| d < *bd) {
                best = Some((d, w.to_string()));
            }
        }
        after_function = w == "function";
    }
    best.map(|(_, n)| n)
}

pub use crate::bots::error::edit_distance;

/// How to build one seat's bot for each match: a built-in name or a loaded program.
#[derive(Clone, Debug)]
pub enum BotSource {
    /// `random` or `greedy`.
    Builtin(String),
    /// A Lua or WASM program, checked once and shared by every match.
    File {
        /// The name as given.
        name: String,
        /// The loaded program.
        program: Program,
    },
    /// A legacy stdin/stdout program (`legacy:<protocol>:<file>`), run once per decision.
    Legacy {
        /// The name as given.
        name: String,
        /// The referee protocol it speaks.
        protocol: crate::play::legacy::Protocol,
        /// The loaded WASI command.
        program: StdioProgram,
    },
    /// A bot file that could not be loaded (a tournament entrant, see
    /// [`Loader::resolve_entrant`]): it faults with the verdict `load` at the start of every
    /// match.
    Failed {
        /// The name as given.
        name: String,
        /// The file's content hash (of the name, if the file cannot be read).
        hash: String,
        /// Why it could not be loaded.
        error: String,
    },
}

impl BotSource {
    /// The name and content hash recorded in replays.
    pub fn entry(&self) -> BotEntry {
        match self {
            BotSource::Builtin(name) => BotEntry { name: name.clone(), hash: builtin_hash(name) },
            BotSource::File { name, program } => BotEntry { name: name.clone(), hash: program.hash() },
            BotSource::Legacy { name, protocol, program } => {
                BotEntry { name: name.clone(), hash: crate::play::legacy::hash(*protocol, program) }
            }
            BotSource::Failed { name, hash, .. } => BotEntry { name: name.clone(), hash: hash.clone() },
        }
    }

    /// Why this bot could not be loaded (`None`: it was).
    pub fn load_error(&self) -> Option<&str> {
        match self {
            BotSource::Failed { error, .. } => Some(error),
            _ => None,
        }
    }

    /// A fresh bot for one match, with the sandbox limits of `limits` (unset fields keep the
    /// sandbox's defaults for the bot's kind).
    pub fn instantiate<G: Hosted>(&self, seed: u64, seat: Seat, limits: &LimitsConfig) -> Box<dyn Bot<G>> {
        self.instantiate_exact(seed, seat, self.limits(limits).as_ref())
    }

    /// A fresh bot for one match under exactly these sandbox limits (`None`: the defaults of the
    /// bot's kind; ignored for built-ins).
    pub fn instantiate_exact<G: Hosted>(
        &self,
        seed: u64,
        seat: Seat,
        limits: Option<&Limits>,
    ) -> Box<dyn Bot<G>> {
        match self {
            BotSource::Builtin(name) => builtin::<G>(name, seed, seat).expect("checked by resolve"),
            BotSource::File { program, .. } => Box::new(SandboxBot::new(
                program.clone(),
                limits.cloned().unwrap_or_else(|| Limits::default_for(program.kind())),
            )),
            BotSource::Legacy { protocol, program, .. } => Box::new(crate::play::legacy::LegacyBot::new(
                *protocol,
                program.clone(),
                limits.cloned().unwrap_or(Limits::WASM),
            )),
            BotSource::Failed { error, .. } => Box::new(NotLoaded(error.clone())),
        }
    }

    /// This bot with its program on `sandbox` (see [`Lanes`]); a built-in as it is.
    fn on(&self, sandbox: &Sandbox) -> Option<BotSource> {
        Some(match self {
            BotSource::Builtin(_) | BotSource::Failed { .. } => self.clone(),
            BotSource::File { name, program } => {
                BotSource::File { name: name.clone(), program: program.on(sandbox).ok()? }
            }
            BotSource::Legacy { name, protocol, program } => BotSource::Legacy {
                name: name.clone(),
                protocol: *protocol,
                program: program.on(sandbox).ok()?,
            },
        })
    }

    /// The sandbox limits this bot runs under with `limits` (`None` for a built-in).
    pub fn limits(&self, limits: &LimitsConfig) -> Option<Limits> {
        match self {
            BotSource::Builtin(_) | BotSource::Failed { .. } => None,
            BotSource::File { program, .. } => Some(limits.apply(program.kind())),
            BotSource::Legacy { .. } => Some(limits.apply(Kind::Wasm)),
        }
    }
}

/// A set of bots (an event's entrants, a benchmark's seats) for several worker threads: worker
/// 0 plays the bots as loaded, each other worker the same programs on a lane of its own
/// ([`Sandbox::lane`]: a wasmtime engine per thread, so that starting WASM instances, and a
/// legacy bot's instance per decision, on one thread does not slow the others). A lane's copies are made on the worker's first match.
/// Results do not depend on the lane: the same program gives the same replies and fuel on any.
pub struct Lanes {
    bots: Vec<BotSource>,
    sandbox: Option<Sandbox>,
    /// Worker k's bots (k >= 1), or `None` if its lane could not be made (it then plays the
    /// shared bots: slower on many threads, the same results).
    copies: Vec<OnceLock<Option<Vec<BotSource>>>>,
}

impl Lanes {
    /// Lanes for `workers` threads over `bots`, whose programs were loaded on `sandbox` (`None`
    /// if none was started: then there are only built-ins, and nothing to copy).
    pub fn new(sandbox: Option<&Sandbox>, bots: Vec<BotSource>, workers: usize) -> Lanes {
        let wasm = bots.iter().any(|b| match b {
            BotSource::File { program, .. } => program.kind() != Kind::Lua,
            BotSource::Legacy { .. } => true,
            BotSource::Builtin(_) | BotSource::Failed { .. } => false,
        });
        let sandbox = sandbox.filter(|_| wasm).cloned();
        let copies = (0..if sandbox.is_some() { workers } else { 0 }).map(|_| OnceLock::new()).collect();
        Lanes { bots, sandbox, copies }
    }

    /// The bots as loaded (worker 0's).
    pub fn shared(&self) -> &[BotSource] {
        &self.bots
    }

    /// The bots for worker `worker` (a pool's thread index; `None`, 0 or beyond the count
    /// given to [`Lanes::new`]: the bots as loaded).
    pub fn for_worker(&self, worker: Option<usize>) -> &[BotSource] {
        let (Some(k), Some(sandbox)) = (worker.filter(|&k| k > 0), &self.sandbox) else {
            return &self.bots;
        };
        let Some(slot) = self.copies.get(k) else {
            return &self.bots;
        };
        slot.get_or_init(|| {
            let lane = sandbox.lane().ok()?;
            self.bots.iter().map(|b| b.on(&lane)).collect()
        })
        .as_deref()
        .unwrap_or(&self.bots)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::blade::Blade;

    /// Worker 0 and threads outside the pool play the bots as loaded; another worker plays the
    /// same bots (names, hashes, replays) on a lane of its own, made once, for WASM and legacy
    /// (WASI) programs alike; with no WASM bot there is nothing to copy.
    #[test]
    fn lanes_give_each_worker_the_same_bots() {
        let loader = Loader::new();
        let file = |name: &str| format!("{}/benches/bots/{name}", concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
        let legacy = format!(
            "legacy:blade:{}/example_bots/legacy/blade_c.wasm",
            concat!(env!("CARGO_MANIFEST_DIR"), "/..")
        );
        let lua = loader.resolve::<Blade>(&file("random.lua")).unwrap();
        for first in [file("random.wat"), legacy] {
            let bots = vec![loader.resolve::<Blade>(&first).unwrap(), lua.clone()];
            lanes_play_alike(&loader, bots);
        }
        let lua_only = Lanes::new(loader.started_sandbox(), vec![lua], 2);
        assert_eq!(lua_only.for_worker(Some(1)).as_ptr(), lua_only.shared().as_ptr());
    }

    fn lanes_play_alike(loader: &Loader, bots: Vec<BotSource>) {
        let lanes = Lanes::new(loader.started_sandbox(), bots, 2);
        let shared = lanes.shared().as_ptr();
        for worker in [None, Some(0), Some(2)] {
            assert_eq!(lanes.for_worker(worker).as_ptr(), shared, "{worker:?}");
        }
        let one = lanes.for_worker(Some(1));
        assert_ne!(one.as_ptr(), shared);
        assert_eq!(lanes.for_worker(Some(1)).as_ptr(), one.as_ptr());
        let entries = |bots: &[BotSource]| bots.iter().map(BotSource::entry).collect::<Vec<_>>();
        assert_eq!(entries(one), entries(lanes.shared()));
        let play = |bots: &[BotSource], seed: u64| {
            let spec = crate::play::runner::MatchSpec::<Blade> {
                variant: Blade::variants()[0],
                seed,
                entries: entries(bots),
            };
            let limits = LimitsConfig::default();
            let mut players: Vec<_> = bots
                .iter()
                .enumerate()
                .map(|(seat, b)| b.instantiate::<Blade>(seed, seat, &limits))
                .collect();
            serde_json::to_string(&crate::play::runner::run_match(
                &spec,
                &mut players,
                &mut crate::play::runner::Quiet,
            ))
            .unwrap()
        };
        for seed in 0..5 {
            assert_eq!(play(one, seed), play(lanes.shared(), seed));
        }
    }

    #[test]
    fn resolving_names_explains_what_a_bot_is() {
        let loader = Loader::new();
        assert!(matches!(loader.resolve::<Blade>("greedy"), Ok(BotSource::Builtin(_))));
        let err = loader.resolve::<Blade>("clever").unwrap_err().to_string();
        assert!(
            err.contains("a built-in of blade (random, greedy, strong")
                && err.contains(".lua, .js, .py, .wasm or .wat"),
            "{err}"
        );
        let err = loader.resolve::<Blade>("/nonexistent/x.wasm").unwrap_err().to_string();
        assert!(err.contains("no such file"), "{err}");
    }

    #[test]
    fn the_name_closest_to_act_is_suggested() {
        assert_eq!(act_lookalike("function Act(obs)\n  return obs.legal[1]\nend\n").as_deref(), Some("Act"));
        assert_eq!(
            act_lookalike("local function helper() end\nfunction M.acts(o) end").as_deref(),
            Some("M.acts")
        );
        assert_eq!(act_lookalike("function play(obs) end"), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
