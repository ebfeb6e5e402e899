//! `arena.toml`: one or more events, each a game, its bots, a format and the number of deals.
//!
//! ```toml
//! [defaults]              # optional; every key of an event may be set here for all events
//! deals = 20
//! seed = 1
//!
//! [[event]]
//! name = "blade"          # optional, defaults to the game's name; unique in the file
//! game = "blade"
//! variant = "readme"      # optional, the game's first variant
//! bots = ["greedy", "random", "example_bots/lua/blade_random.lua"]   # paths are relative to this file
//! format = "round-robin"  # or "gauntlet" (with champion = "<bot>") or "swiss" (with rounds = N)
//! deals = 50              # deals per pairing (per table for intensity)
//! seed = 7
//! duplicate = true        # every deal is played with the seats rotated (default true)
//! max_tables = 35         # intensity: tables of 4 when there are many bots
//! [event.limits]          # optional sandbox limits for Lua/WASM bots
//! fuel_per_decision = 5000000
//! ```
//!
//! Unknown keys and bad values are errors that name the file, the key and the line.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use crate::play::games::{Find, GameId};
use crate::play::limits::LimitsConfig;
use crate::play::{ConfigError, HostError};

/// How the bots of an event meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Every bot meets every other bot (intensity: every table of 4, or a sample).
    RoundRobin,
    /// One bot (the champion) against each of the others.
    Gauntlet,
    /// Rounds in which bots with similar scores meet.
    Swiss,
}

impl Format {
    /// The name as written in arena.toml.
    pub fn name(self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
            Format::Swiss => "swiss",
        }
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    defaults: Option<RawEvent>,
    #[serde(default)]
    event: Vec<RawEvent>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEvent {
    name: Option<Spanned<String>>,
    game: Option<Spanned<String>>,
    variant: Option<Spanned<String>>,
    bots: Option<Spanned<Vec<Spanned<String>>>>,
    format: Option<Spanned<Format>>,
    champion: Option<Spanned<String>>,
    rounds: Option<Spanned<u32>>,
    deals: Option<Spanned<u32>>,
    seed: Option<u64>,
    duplicate: Option<bool>,
    max_tables: Option<Spanned<u32>>,
    limits: Option<LimitsConfig>,
}

/// One event, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// Unique name in the file.
    pub name: String,
    /// Game name (contract spelling).
    pub game: String,
    /// Variant name, `None` for the game's default.
    pub variant: Option<String>,
    /// Bots as written (built-in names or paths).
    pub bots: Vec<String>,
    /// Paths resolved against the file's folder (built-ins unchanged).
    pub bot_paths: Vec<String>,
    /// Format.
    pub format: Format,
    /// Gauntlet champion, an index into `bots`.
    pub champion: Option<usize>,
    /// Swiss rounds.
    pub rounds: u32,
    /// Deals per pairing or table.
    pub deals: u32,
    /// Event seed.
    pub seed: u64,
    /// Whether every deal is played with the seats rotated.
    pub duplicate: bool,
    /// Intensity: the most tables of 4 (all combinations when there are fewer).
    pub max_tables: u32,
    /// Sandbox limits.
    pub limits: LimitsConfig,
}

/// A checked tournament file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The file it came from.
    pub path: PathBuf,
    /// Its events, in file order.
    pub events: Vec<Event>,
}

/// Reads and checks a tournament file.
///
/// # Errors
/// The file cannot be read, is not TOML, has unknown keys, or has bad values; the message names
/// the file, the key and the line.
pub fn load(path: &Path, games: &dyn Find<GameId>) -> Result<Config, HostError> {
    let text = std::fs::read_to_string(path)
        .map_err(HostError::io(format!("cannot read tournament file {}", path.display())))?;
    parse(&text, path, games)
}

/// Checks a tournament file's text (`path` names it in errors and anchors relative bot paths)
/// against the list of `games`.
///
/// # Errors
/// As [`load`].
pub fn parse(text: &str, path: &Path, games: &dyn Find<GameId>) -> Result<Config, HostError> {
    let known_games = || games.names().join(", ");
    let raw: RawFile =
        toml::from_str(text).map_err(|e| HostError::from(ConfigError::toml(path, text, &e)))?;
    let at = |span: std::ops::Range<usize>, message: String| {
        HostError::from(ConfigError::at(path, text, span.start, message))
    };
    let whole = |message: String| HostError::from(ConfigError::file(path, message));
    let defaults = raw.defaults.unwrap_or_default();
    if raw.event.is_empty() {
        return Err(whole("no [[event]] in the file; add one, e.g.\n[[event]]\ngame = \"blade\"\nbots = [\"greedy\", \"random\"]".into()));
    }
    let base = path.parent().unwrap_or(Path::new(""));
    let mut events = Vec::new();
    let mut names = BTreeSet::new();
    for (i, ev) in raw.event.into_iter().enumerate() {
        let which = format!("event #{}", i + 1);
        let game = ev
            .game
            .or_else(|| defaults.game.clone())
            .ok_or_else(|| whole(format!("{which} has no `game` (one of: {})", known_games())))?;
        let id: GameId = games.find(game.get_ref()).map_err(|_| {
            at(
                game.span(),
                format!("`game = {:?}` is not a game (one of: {})", game.get_ref(), known_games()),
            )
        })?;
        let variant = ev.variant.or_else(|| defaults.variant.clone());
        if let Some(v) = &variant {
            if !id.variants().contains(v.get_ref()) {
                return Err(at(
                    v.span(),
                    format!(
                        "`variant = {:?}` is not a variant of {} (variants: {})",
                        v.get_ref(),
                        id.name(),
                        id.variants().join(", ")
                    ),
                ));
            }
        }
        let name = ev.name.map(|n| n.into_inner()).unwrap_or_else(|| id.name().to_string());
        if !names.insert(name.clone()) {
            return Err(whole(format!("two events are named {name:?}; give each a unique `name`")));
        }
        let bots_spanned = ev
            .bots
            .or_else(|| defaults.bots.clone())
            .ok_or_else(|| whole(format!("event {name:?} has no `bots`")))?;
        let bots_span = bots_spanned.span();
        let bots: Vec<String> = bots_spanned.into_inner().into_iter().map(|b| b.into_inner()).collect();
        let distinct: BTreeSet<&String> = bots.iter().collect();
        if distinct.len() != bots.len() {
            return Err(at(bots_span, format!("event {name:?} names a bot twice in `bots`")));
        }
        let need = if id.players() == 4 { 4 } else { 2 };
        if bots.len() < need {
            return Err(at(
                bots_span,
                format!("event {name:?} needs at least {need} bots in `bots`, it has {}", bots.len()),
            ));
        }
        let bot_paths = bots
            .iter()
            .map(|b| {
                // A legacy bot's file is the part after `legacy:<protocol>:`.
                let (prefix, file) = match crate::play::legacy::parse_name(b) {
                    Some(Ok((protocol, file))) => (format!("legacy:{}:", protocol.name()), file),
                    _ => (String::new(), b.as_str()),
                };
                if crate::bots::bot::is_builtin_name(b)
                    || b == crate::play::registry::HUMAN
                    || Path::new(file).is_absolute()
                {
                    b.clone()
                } else {
                    format!("{prefix}{}", base.join(file).to_string_lossy())
                }
            })
            .collect();
        let format = ev.format.or_else(|| defaults.format.clone());
        let format_value = format.as_ref().map(|f| *f.get_ref()).unwrap_or(Format::RoundRobin);
        let champion_name = ev.champion.or_else(|| defaults.champion.clone());
        let champion = match (format_value, champion_name) {
            (Format::Gauntlet, Some(c)) => {
                Some(bots.iter().position(|b| b == c.get_ref()).ok_or_else(|| {
                    at(c.span(), format!("champion {:?} is not one of the event's bots", c.get_ref()))
                })?)
            }
            (Format::Gauntlet, None) => {
                return Err(whole(format!(
                    "event {name:?} is a gauntlet but has no `champion` (the bot that meets all the others)"
                )))
            }
            (_, Some(c)) => {
                return Err(at(c.span(), "`champion` only goes with format = \"gauntlet\"".into()))
            }
            (_, None) => None,
        };
        let rounds = ev.rounds.or_else(|| defaults.rounds.clone());
        let rounds = match (format_value, rounds) {
            (Format::Swiss, Some(r)) if *r.get_ref() == 0 => {
                return Err(at(r.span(), "`rounds` must be at least 1".into()))
            }
            (Format::Swiss, Some(r)) => *r.get_ref(),
            (Format::Swiss, None) => default_swiss_rounds(bots.len()),
            (_, Some(r)) => return Err(at(r.span(), "`rounds` only goes with format = \"swiss\"".into())),
            (_, None) => 0,
        };
        let deals = ev.deals.or_else(|| defaults.deals.clone());
        let deals = match deals {
            Some(d) if *d.get_ref() == 0 => return Err(at(d.span(), "`deals` must be at least 1".into())),
            Some(d) => *d.get_ref(),
            None => 10,
        };
        let max_tables = match ev.max_tables.or_else(|| defaults.max_tables.clone()) {
            Some(m) if *m.get_ref() == 0 => {
                return Err(at(m.span(), "`max_tables` must be at least 1".into()))
            }
            Some(m) => *m.get_ref(),
            None => 35,
        };
        let limits = ev.limits.unwrap_or_default().over(&defaults.limits.clone().unwrap_or_default());
        events.push(Event {
            name,
            game: id.name().to_string(),
            variant: variant.map(|v| v.into_inner()),
            bots,
            bot_paths,
            format: format_value,
            champion,
            rounds,
            deals,
            seed: ev.seed.or(defaults.seed).unwrap_or(0),
            duplicate: ev.duplicate.or(defaults.duplicate).unwrap_or(true),
            max_tables,
            limits,
        });
    }
    Ok(Config { path: path.to_path_buf(), events })
}

/// ⌈log2 n⌉ + 1 rounds, the usual Swiss length.
fn default_swiss_rounds(bots: usize) -> u32 {
    (usize::BITS - bots.saturating_sub(1).leading_zeros()) + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str) -> Result<Config, HostError> {
        parse(text, Path::new("t/arena.toml"), &crate::Games::builtin())
    }

    #[test]
    fn a_minimal_event_gets_the_defaults() {
        let c = p("[[event]]\ngame = \"blade\"\nbots = [\"greedy\", \"random\", \"x.lua\"]\n").unwrap();
        let e = &c.events[0];
        assert_eq!(e.name, "blade");
        assert_eq!(e.format, Format::RoundRobin);
        assert_eq!(e.deals, 10);
        assert!(e.duplicate);
        assert_eq!(e.bot_paths, vec!["greedy", "random", "t/x.lua"]);
    }

    #[test]
    fn defaults_apply_to_every_event() {
        let c = p("[defaults]\ndeals = 3\nseed = 9\n[defaults.limits]\nmemory_mb = 8\n[[event]]\ngame = \"ecard\"\nbots = [\"greedy\", \"random\"]\n[[event]]\nname = \"m\"\ngame = \"ecard\"\nvariant = \"manga\"\ndeals = 4\nbots = [\"greedy\", \"random\"]\n").unwrap();
        assert_eq!(c.events[0].deals, 3);
        assert_eq!(c.events[1].deals, 4);
        assert_eq!(c.events[1].seed, 9);
        assert_eq!(c.events[1].limits.memory_mb, Some(8));
    }

    #[test]
    fn errors_name_the_key_and_the_line() {
        let cases = [
            ("[[event]]\ngame = \"blade\"\nbots = [\"a\", \"b\"]\ncolour = 1\n", "colour"),
            ("[[event]]\ngame = \"chess\"\nbots = [\"greedy\", \"random\"]\n", "t/arena.toml:2"),
            (
                "[[event]]\ngame = \"blade\"\nvariant = \"x\"\nbots = [\"greedy\", \"random\"]\n",
                "t/arena.toml:3",
            ),
            ("[[event]]\ngame = \"blade\"\nbots = [\"greedy\", \"random\"]\ndeals = 0\n", "t/arena.toml:4"),
            ("[[event]]\ngame = \"blade\"\nbots = [\"greedy\", \"random\"]\ndeals = -1\n", "line 4"),
            ("[[event]]\ngame = \"blade\"\nbots = [\"greedy\"]\n", "at least 2 bots"),
            ("[[event]]\ngame = \"intensity\"\nbots = [\"greedy\", \"random\"]\n", "at least 4 bots"),
            (
                "[[event]]\ngame = \"blade\"\nbots = [\"greedy\", \"random\"]\nformat = \"gauntlet\"\n",
                "champion",
            ),
            (
                "[[event]]\ngame = \"blade\"\nbots = [\"greedy\", \"random\"]\nformat = \"knockout\"\n",
                "line 4",
            ),
            ("[[event]]\ngame = \"blade\"\nbots = [\"greedy\", \"greedy\"]\n", "twice"),
            ("", "no [[event]]"),
            (
                "[[event]]\ngame = \"blade\"\nbots = [\"greedy\", \"random\"]\n[event.limits]\nfuel = 3\n",
                "fuel",
            ),
        ];
        for (text, needle) in cases {
            let err = format!("{:#}", p(text).unwrap_err());
            assert!(err.contains(needle), "{text:?}: {err}");
            assert!(err.contains("t/arena.toml"), "{err}");
        }
    }

    /// The same errors as values: the file, the line (where the mistake is at one place) and
    /// the message without them.
    #[test]
    fn errors_are_config_errors_with_the_line() {
        let config = |text: &str| match p(text) {
            Err(HostError::Config(e)) => e,
            other => panic!("{text:?}: {other:?}"),
        };
        let e =
            config("[defaults]\ndeals = 2\n[[event]]\ngame = \"chess\"\nbots = [\"greedy\", \"random\"]\n");
        assert_eq!((e.file.as_path(), e.line), (Path::new("t/arena.toml"), Some(4)));
        assert!(e.message.starts_with("`game = \"chess\"` is not a game (one of: blade"), "{}", e.message);
        assert_eq!(e.to_string(), format!("t/arena.toml:4: {}", e.message));
        let e = config("[[event]]\ngame = \"blade\"\nbots = [\"greedy\", \"random\"]\ndeals = -1\n");
        assert_eq!(e.line, Some(4), "{e}");
        let e = config("");
        assert_eq!(e.line, None);
        assert!(e.message.starts_with("no [[event]] in the file"), "{}", e.message);
        assert!(matches!(
            p("[[event]]\nname = \"x\"\ngame = \"blade\"\nbots = [\"greedy\"]\n"),
            Err(HostError::Config(ConfigError { line: Some(4), .. }))
        ));
    }

    #[test]
    fn swiss_rounds_default_to_log2_plus_one() {
        assert_eq!(default_swiss_rounds(2), 2);
        assert_eq!(default_swiss_rounds(8), 4);
        assert_eq!(default_swiss_rounds(9), 5);
    }
}
