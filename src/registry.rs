//! Run-time dispatch from a game's name to its type, and from a bot's name to a [`Bot`].
//!
//! This is the one place that lists the game types; adding a game means one line in
//! [`with_game!`] and one entry in [`crate::games::GAMES`].

use std::path::Path;

use anyhow::{bail, Context};

use crate::bot::{builtin, builtin_hash, Bot, BUILTIN_BOTS};
use crate::bots::Greedy;
use crate::games::{self, Game};
use crate::runner::BotEntry;

/// Runs `$body` with `$G` bound to the game type named by `$name` (a `&str`), or evaluates to an
/// error naming the known games.
#[macro_export]
macro_rules! with_game {
    ($name:expr, $G:ident => $body:expr) => {
        match $name {
            "blade" => {
                type $G = $crate::games::blade::Blade;
                Ok($body)
            }
            "ecard" => {
                type $G = $crate::games::ecard::Ecard;
                Ok($body)
            }
            "lost-cities" => {
                type $G = $crate::games::lost_cities::LostCities;
                Ok($body)
            }
            "intensity" => {
                type $G = $crate::games::intensity::Intensity;
                Ok($body)
            }
            other => Err($crate::registry::unknown_game(other)),
        }
    };
}

/// The error for a game name that does not exist.
pub fn unknown_game(name: &str) -> anyhow::Error {
    let known: Vec<&str> = games::GAMES.iter().map(|g| g.name).collect();
    anyhow::anyhow!("unknown game {name:?}; the games are: {} (see `arena games`)", known.join(", "))
}

/// Parses a variant name of game `G`; `None` means the default (first) variant.
///
/// # Errors
/// The name is not a variant of `G`; the message lists the variants.
pub fn variant<G: Game>(name: Option<&str>) -> anyhow::Result<G::Variant> {
    match name {
        None => Ok(G::variants()[0]),
        Some(name) => Ok(name.parse::<G::Variant>()?),
    }
}

/// How to build one seat's bot for each match: a built-in name or a loaded program.
#[derive(Clone, Debug)]
pub enum BotSource {
    /// `random` or `greedy`.
    Builtin(String),
}

impl BotSource {
    /// Resolves a bot name as typed by a user: a built-in name, or a path to a `.lua`, `.wasm` or
    /// `.wat` file.
    ///
    /// # Errors
    /// Unknown names, missing files, unsupported extensions; the message says what to do.
    pub fn resolve(name: &str) -> anyhow::Result<BotSource> {
        if BUILTIN_BOTS.contains(&name) {
            return Ok(BotSource::Builtin(name.to_string()));
        }
        let path = Path::new(name);
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if !matches!(ext, "lua" | "wasm" | "wat") {
            bail!(
                "unknown bot {name:?}: a bot is a built-in ({}) or a path to a .lua, .wasm or .wat file",
                BUILTIN_BOTS.join(", ")
            );
        }
        let _bytes = std::fs::read(path).with_context(|| format!("cannot read bot file {name:?}"))?;
        bail!("bot {name:?}: Lua and WASM bots are not supported yet (the sandbox is not built in)")
    }

    /// The name and content hash recorded in replays.
    pub fn entry(&self) -> BotEntry {
        match self {
            BotSource::Builtin(name) => BotEntry { name: name.clone(), hash: builtin_hash(name) },
        }
    }

    /// A fresh bot for one match.
    pub fn instantiate<G: Greedy>(&self, seed: u64, seat: usize) -> Box<dyn Bot<G>> {
        match self {
            BotSource::Builtin(name) => builtin::<G>(name, seed, seat).expect("resolved built-in"),
        }
    }
}
