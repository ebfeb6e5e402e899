//! Kuhn poker hosted by the cardarena arena from outside its crates: the proof that a game of
//! one's own gets the arena's Lua and WASM bots, matches and replays by implementing its traits
//! (docs/embedding.md walks through this crate).
//!
//! - [`game`]: the rules, as a [`cardarena_games::Game`], with the observation a bot receives;
//! - [`bots`]: the built-in `nash` and `best-response` bots, as [`cardarena::Bot`]s;
//! - [`host`]: the glue that makes the arena host it (a board, the bots by name);
//! - [`exact`]: exact expectations over every deal, for the tests' anchors.

pub mod bots;
pub mod exact;
pub mod game;
pub mod host;

pub use game::Kuhn;
