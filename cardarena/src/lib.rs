//! cardarena: a bot arena for hidden-information card games (Blade, E-card, Lost Cities,
//! Intensity). Bots are built-ins, Lua scripts or WASM modules; the Lua and WASM ones run
//! in-process in a sandbox with deterministic fuel and memory limits, so the same seed gives the
//! same replay, byte for byte, on any machine.
//!
//! A program plays a match through [`Arena`] (bots by name) or [`Match`] (bots you seat
//! yourself); both take the one path that every command of the `arena` binary takes too. A
//! bot's failure is a [`Verdict`] in the replay's faults; a failure of the host or of the request
//! is a [`HostError`].
//!
//! ```
//! use cardarena::{Arena, Verdict};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let dir = std::env::temp_dir().join(format!("cardarena-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let first = dir.join("first.lua");
//! std::fs::write(&first, "function act(obs) return obs.legal[1] end\n")?;
//! let arena = Arena::new();
//! let replay = arena.play("ecard", 7, &[first.to_str().unwrap(), "greedy"])?;
//! println!("points {:?}, ranks {:?}", replay.outcome.points, replay.outcome.ranks);
//! assert!(replay.faults.iter().all(|seat| seat.is_empty()));
//!
//! // A bot that answers nonsense gets a verdict, and forfeits: the match still has an outcome.
//! let wrong = dir.join("wrong.lua");
//! std::fs::write(&wrong, "function act(obs) return 'nonsense' end\n")?;
//! let replay = arena.play("ecard", 7, &[wrong.to_str().unwrap(), "greedy"])?;
//! assert_eq!(replay.faults[0][0].verdict, Verdict::Invalid);
//! assert_eq!(replay.outcome.ranks, [2, 1]);
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok(())
//! # }
//! ```
//!
//! The games are a list a program can extend: [`Games::builtin`] has the four built-in games,
//! and `Games::builtin().with::<MyGame>()` adds any type that implements [`Game`] and
//! [`Hosted`] (docs/embedding.md); [`Arena::with_games`] plays them.
//!
//! The layers, lowest first: [`games`] (pure rules), [`bots`] (the [`Bot`] trait, the
//! built-ins and [`Hosted`]) and [`stats`]; [`play`] (the match seam: a game's handle
//! [`GameId`], loading bots, limits, the runner, [`Match`]); then [`replay`] and [`tournament`];
//! then the list of games ([`Games`]) and the façade ([`Arena`]). ARCHITECTURE.md has the map.

pub mod analyse;
mod arena;
pub mod bots;
mod game_list;
pub use cardarena_games as games;
pub mod play;
pub mod replay;
pub mod schema;
pub mod stats;
pub mod tournament;

pub use arena::Arena;
pub use bots::bot::{Bot, Fault, Verdict};
pub use bots::Hosted;
pub use cardarena_sandbox::Limits;
pub use game_list::{add_builtin, AddGame, Games, HostedGame};
pub use games::{Game, Outcome};
pub use play::games::UnknownGame;
pub use play::limits::LimitsConfig;
pub use play::runner::{FaultRecord, Replay};
pub use play::{BotError, ConfigError, GameId, HostError, LoadError, Match};
