//! [`HostError`]: the library's one error type. It is the request's or the host's failure, never
//! a bot's: a bot's failure is a verdict in the replay, and the match still has an outcome.

/// Why the arena could not do what it was asked. Each message names the file, line, field or
/// bot concerned and says what to change; the `source` of `Io` and `Store` holds the system's
/// own reason (print the error chain to see it).
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// A game name that is not in the list of games.
    #[error(transparent)]
    UnknownGame(#[from] crate::play::games::UnknownGame),
    /// A variant name that is not one of the game's.
    #[error(transparent)]
    UnknownVariant(#[from] crate::games::UnknownVariant),
    /// A match was asked with a number of bots other than the game's seats.
    #[error("{game} is a {seats}-player game but {bots} bot(s) were named; name one per seat")]
    WrongSeatCount {
        /// The game.
        game: String,
        /// Its number of seats.
        seats: usize,
        /// How many bots were named.
        bots: usize,
    },
    /// A bot name that cannot be played (see [`BotError`]).
    #[error(transparent)]
    Bot(#[from] BotError),
    /// A tournament file is not valid (see [`ConfigError`]).
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// Another request that cannot be done as asked (a match id or database that is not there,
    /// a feature the game lacks); the message says what to change.
    #[error("{0}")]
    Request(String),
    /// The host could not do its part (the sandbox or the worker threads did not start).
    #[error("{0}")]
    Host(String),
    /// A file could not be read or written.
    #[error("{what}")]
    Io {
        /// What was being done, naming the file.
        what: String,
        /// The system's reason.
        #[source]
        source: std::io::Error,
    },
    /// A file or a stored record is damaged or not what it claims to be (a replay, a capsule, a
    /// row of the results database); the message names it and, where it can, the place.
    #[error("{0}")]
    Damaged(String),
    /// The results database failed.
    #[error("{what}")]
    Store {
        /// What was being done, naming the database.
        what: String,
        /// The database's reason.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A failure within one event of a tournament.
    #[error("event {event:?}")]
    InEvent {
        /// The event's name.
        event: String,
        /// What failed.
        #[source]
        source: Box<HostError>,
    },
}

pub use crate::bots::error::{BotError, LoadError};

/// A configuration file (arena.toml, ladder.toml) that is not valid: the file, the line where the
/// mistake is (when it has one) and what to change.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{}: {message}", file.display(), line.map_or_else(String::new, |l| format!(":{l}")))]
pub struct ConfigError {
    /// The file.
    pub file: std::path::PathBuf,
    /// The 1-based line of the mistake, if it is at one place.
    pub line: Option<usize>,
    /// What is wrong and what to change.
    pub message: String,
}

impl ConfigError {
    /// An error about the whole file.
    pub fn file(file: &std::path::Path, message: impl Into<String>) -> ConfigError {
        ConfigError { file: file.to_path_buf(), line: None, message: message.into() }
    }

    /// An error at byte `offset` of the file's `text`.
    pub fn at(file: &std::path::Path, text: &str, offset: usize, message: impl Into<String>) -> ConfigError {
        let line = 1 + text[..offset.min(text.len())].matches('\n').count();
        ConfigError { file: file.to_path_buf(), line: Some(line), message: message.into() }
    }

    /// A file that is not TOML, or whose keys or value types are not the expected ones: the
    /// line is where the parser stopped, the message the parser's (with the quoted line).
    pub fn toml(file: &std::path::Path, text: &str, error: &toml::de::Error) -> ConfigError {
        ConfigError {
            file: file.to_path_buf(),
            line: error.span().map(|s| 1 + text[..s.start.min(text.len())].matches('\n').count()),
            message: error.to_string(),
        }
    }
}

impl HostError {
    /// A failure reading or writing a file: `what` names the file.
    pub fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> HostError {
        let what = what.into();
        move |source| HostError::Io { what, source }
    }

    /// A failure of the results database: `what` names it.
    pub fn store<E: std::error::Error + Send + Sync + 'static>(
        what: impl Into<String>,
    ) -> impl FnOnce(E) -> HostError {
        let what = what.into();
        move |source| HostError::Store { what, source: Box::new(source) }
    }

    /// The message with its causes, as `outer: inner: …` (what a person should read).
    pub fn chain(&self) -> String {
        let mut out = self.to_string();
        let mut cause = std::error::Error::source(self);
        while let Some(c) = cause {
            out.push_str(": ");
            out.push_str(&c.to_string());
            cause = c.source();
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::blade::Blade;
    use crate::play::registry::{BotSource, Loader};
    use crate::Arena;

    /// A fresh folder under the system's temporary folder.
    fn folder(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("cardarena-errors-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn bot_error(result: Result<BotSource, HostError>) -> BotError {
        match result {
            Err(HostError::Bot(e)) => e,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_request_that_cannot_be_played_is_a_value_to_match() {
        let arena = Arena::new();
        match arena.play("blade", 1, &["random", "gredy"]) {
            Err(HostError::Bot(BotError::UnknownBot { name, game, builtins, did_you_mean })) => {
                assert_eq!((name.as_str(), game.as_str()), ("gredy", "blade"));
                assert_eq!(did_you_mean.as_deref(), Some("greedy"));
                assert_eq!(&builtins[..3], ["random", "greedy", "strong"]);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            arena.play("blade", 1, &["random", "cleverest"]),
            Err(HostError::Bot(BotError::UnknownBot { did_you_mean: None, .. }))
        ));
        match arena.play("blade", 1, &["random", "greedy", "random"]) {
            Err(HostError::WrongSeatCount { game, seats, bots }) => {
                assert_eq!((game.as_str(), seats, bots), ("blade", 2, 3))
            }
            other => panic!("{other:?}"),
        }
        match arena.play_variant("blade", Some("huge"), 1, &["random", "random"]) {
            Err(HostError::UnknownVariant(e)) => assert_eq!((e.game, e.input.as_str()), ("blade", "huge")),
            other => panic!("{other:?}"),
        }
        match arena.play("chess", 1, &["random", "random"]) {
            Err(HostError::UnknownGame(e)) => {
                assert_eq!(e.name, "chess");
                assert!(e.known.contains(&"blade".to_string()));
            }
            other => panic!("{other:?}"),
        }
        match arena.play("blade", 1, &["random", "nash"]) {
            Err(HostError::Bot(BotError::NotInGame { name, game, .. })) => {
                assert_eq!((name.as_str(), game.as_str()), ("nash", "blade"))
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            arena.play("blade", 1, &["random", "strong:99"]),
            Err(HostError::Bot(BotError::BadLevel { levels, .. })) if levels < 99
        ));
    }

    #[test]
    fn bot_names_that_are_not_bots_say_why_as_values() {
        let loader = Loader::new();
        assert!(matches!(bot_error(loader.resolve::<Blade>("human")), BotError::HumanOutsidePlay));
        match bot_error(loader.resolve::<Blade>("legacy:cobol:x.wasm")) {
            BotError::UnknownProtocol { protocol, known, .. } => {
                assert_eq!(protocol, "cobol");
                assert_eq!(known.len(), 2);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(bot_error(loader.resolve::<Blade>("legacy:blade:")), BotError::LegacyNoFile { .. }));
        match bot_error(loader.resolve::<Blade>("legacy:comp1511:x.wasm")) {
            BotError::LegacyWrongGame { plays, game, .. } => {
                assert_eq!((plays.as_str(), game.as_str()), ("intensity", "blade"))
            }
            other => panic!("{other:?}"),
        }
        match loader.load_program::<Blade>("bot.txt", b"x") {
            Err(HostError::Bot(BotError::UnknownKind { name })) => assert_eq!(name, "bot.txt"),
            other => panic!("{other:?}"),
        }
    }

    /// A missing file or one with a mistyped extension suggests a bot file beside it; a file
    /// the sandbox refuses keeps the sandbox's fault as the error's source.
    #[test]
    fn bot_files_that_do_not_load_keep_the_reason() {
        let dir = folder("files");
        std::fs::write(dir.join("mybot.lua"), "function act(obs) return obs.legal[1] end\n").unwrap();
        std::fs::write(dir.join("broken.lua"), "function act(obs)\n  return (\nend\n").unwrap();
        std::fs::write(dir.join("shouty.lua"), "function ACT(obs) return obs.legal[1] end\n").unwrap();
        let path = |f: &str| dir.join(f).to_string_lossy().into_owned();
        let loader = Loader::new();
        match bot_error(loader.resolve::<Blade>(&path("mybto.lua"))) {
            BotError::NoSuchFile { name, did_you_mean } => {
                assert_eq!(name, path("mybto.lua"));
                assert_eq!(did_you_mean, Some(path("mybot.lua")));
            }
            other => panic!("{other:?}"),
        }
        match bot_error(loader.resolve::<Blade>(&path("mybot.lau"))) {
            BotError::UnknownBot { did_you_mean, .. } => assert_eq!(did_you_mean, Some(path("mybot.lua"))),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            bot_error(loader.resolve::<Blade>(&path("zzzzzz.lua"))),
            BotError::NoSuchFile { did_you_mean: None, .. }
        ));
        let e = HostError::from(bot_error(loader.resolve::<Blade>(&path("broken.lua"))));
        match &e {
            HostError::Bot(BotError::NotLoaded { name, source: LoadError::Refused(fault) }) => {
                assert_eq!(name, &path("broken.lua"));
                assert_eq!(fault.verdict, cardarena_sandbox::Verdict::Load);
            }
            other => panic!("{other:?}"),
        }
        assert!(
            e.chain().starts_with(&format!("bot {:?} cannot be loaded: ", path("broken.lua"))),
            "{}",
            e.chain()
        );
        match bot_error(loader.resolve::<Blade>(&path("shouty.lua"))) {
            BotError::NotLoaded { source: LoadError::NoAct { did_you_mean }, .. } => {
                assert_eq!(did_you_mean.as_deref(), Some("ACT"))
            }
            other => panic!("{other:?}"),
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn messages_read_as_before() {
        let e = HostError::WrongSeatCount { game: "blade".into(), seats: 2, bots: 3 };
        assert_eq!(e.to_string(), "blade is a 2-player game but 3 bot(s) were named; name one per seat");
        let e = BotError::BadLevel { name: "strong:9".into(), game: "blade".into(), levels: 5, default: 3 };
        assert_eq!(e.to_string(), "bad level in \"strong:9\": blade `strong` has levels strong:1 to strong:5 (plain `strong` is strong:3)");
        let e = ConfigError {
            file: "a/arena.toml".into(),
            line: Some(3),
            message: "`deals` must be at least 1".into(),
        };
        assert_eq!(e.to_string(), "a/arena.toml:3: `deals` must be at least 1");
        let e = ConfigError { line: None, ..e };
        assert_eq!(e.to_string(), "a/arena.toml: `deals` must be at least 1");
    }

    #[test]
    fn the_chain_names_every_cause() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
        let inner = HostError::io("cannot read tournament file a.toml")(io);
        let e = HostError::InEvent { event: "blade".into(), source: Box::new(inner) };
        assert_eq!(e.chain(), "event \"blade\": cannot read tournament file a.toml: no such file");
        assert_eq!(e.to_string(), "event \"blade\"");
    }
}
