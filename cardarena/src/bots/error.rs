//! Why a bot name cannot be played ([`BotError`]) or a bot file does not load ([`LoadError`]):
//! values an embedder matches on, whose messages say what to write instead.

/// A bot name that cannot be played: the variant says why, with what to write instead.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    /// A name that is no built-in of the game, no bot file and no legacy bot.
    #[error(
        "unknown bot {name:?}{hint}: a bot is a built-in of {game} ({builtins}), a path to a .lua, .js, .py, .wasm or .wat file, or legacy:<protocol>:<file.wasm> (`arena docs legacy-bots`)",
        hint = did_you_mean_hint(did_you_mean),
        builtins = builtins.join(", ")
    )]
    UnknownBot {
        /// The name asked for.
        name: String,
        /// The game it was asked for.
        game: String,
        /// The game's built-in bots (`random` first; `strong:1 to strong:N` stands for the levels).
        builtins: Vec<String>,
        /// The closest built-in name, or for a path-like name a bot file next to it.
        did_you_mean: Option<String>,
    },
    /// A built-in of other games that this game does not have (`nash` in blade).
    #[error("{game} has no built-in bot {name:?}; its built-ins are {builtins}", builtins = builtins.join(", "))]
    NotInGame {
        /// The name asked for.
        name: String,
        /// The game.
        game: String,
        /// The game's built-in bots.
        builtins: Vec<String>,
    },
    /// `strong:N` with a level the game's `strong` bot does not have.
    #[error("bad level in {name:?}: {game} `strong` has levels strong:1 to strong:{levels} (plain `strong` is strong:{default})")]
    BadLevel {
        /// The name asked for.
        name: String,
        /// The game.
        game: String,
        /// The levels are `1..=levels`.
        levels: usize,
        /// The level plain `strong` plays.
        default: usize,
    },
    /// A game's own built-in that cannot be built as asked (a parameter out of range); the
    /// message is the game's.
    #[error("{message}")]
    BadBuiltin {
        /// The name asked for.
        name: String,
        /// The game.
        game: String,
        /// The game's reason.
        message: String,
    },
    /// `human` outside `arena play`.
    #[error("the bot \"human\" (a person at the terminal) plays only in `arena play`; name a built-in or a bot file here")]
    HumanOutsidePlay,
    /// A bot file that is not there.
    #[error("cannot read bot file {name:?}: no such file{hint}", hint = did_you_mean_hint(did_you_mean))]
    NoSuchFile {
        /// The path as given.
        name: String,
        /// A bot file in the same folder with a name close to it.
        did_you_mean: Option<String>,
    },
    /// A bot file that is there but does not load; the source says why.
    #[error("bot {name:?} cannot be loaded")]
    NotLoaded {
        /// The name as given.
        name: String,
        /// Why.
        #[source]
        source: LoadError,
    },
    /// A bot received as bytes whose name has no bot file extension.
    #[error("bot {name:?} is not named .lua, .js, .py, .wasm or .wat, so its kind is unknown")]
    UnknownKind {
        /// The name as given.
        name: String,
    },
    /// `legacy:<protocol>:<file>` with a protocol the arena does not speak.
    #[error("unknown legacy protocol {protocol:?} in {name:?}; write {known}", known = known.join(" or "))]
    UnknownProtocol {
        /// The name as given.
        name: String,
        /// The protocol asked for.
        protocol: String,
        /// The forms that work (`legacy:blade:<file.wasm>` …).
        known: Vec<String>,
    },
    /// `legacy:` without a file.
    #[error("{name:?} names no file; write {known}", known = known.join(" or "))]
    LegacyNoFile {
        /// The name as given.
        name: String,
        /// The forms that work.
        known: Vec<String>,
    },
    /// A legacy bot of another game.
    #[error("{name:?}: a legacy:{protocol} bot plays {plays}, not {game}")]
    LegacyWrongGame {
        /// The name as given.
        name: String,
        /// Its protocol.
        protocol: String,
        /// The game the protocol plays.
        plays: String,
        /// The game it was asked for.
        game: String,
    },
}

/// `" (did you mean X?)"` or nothing.
fn did_you_mean_hint(suggestion: &Option<String>) -> String {
    suggestion.as_ref().map_or_else(String::new, |s| format!(" (did you mean {s:?}?)"))
}

/// Why a bot file (or a program received as bytes) does not load.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file is not there.
    #[error("cannot read bot file {file:?}: no such file")]
    NoSuchFile {
        /// The path.
        file: String,
    },
    /// The file cannot be read.
    #[error("cannot read bot file {file:?}: {source}")]
    Read {
        /// The path.
        file: String,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The sandbox refuses the program (a syntax error, an unknown import, a missing export …);
    /// the fault's message says why.
    #[error("{}", .0.message)]
    Refused(cardarena_sandbox::Fault),
    /// A Lua program that defines no function `act`.
    #[error("no function act{}", match did_you_mean {
        Some(n) => format!(": did you mean {n}? The arena calls `act(obs)`, in lower case"),
        None => ": define `function act(obs) ... end` (`arena docs bot-api`)".into(),
    })]
    NoAct {
        /// The function of the source closest to `act`.
        did_you_mean: Option<String>,
    },
}

/// Levenshtein distance (short names only).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}
