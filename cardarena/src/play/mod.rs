//! The match seam: how a match is set up and played, whoever sits at the table.

// First, so that its `with_game!` is in scope in the modules after it.
#[macro_use]
pub mod games;
pub mod adapter;
pub mod arena;
pub mod capsule;
pub mod duel;
pub mod error;
pub mod legacy;
pub mod limits;
pub mod person;
pub mod registry;
pub mod resim;
pub mod runner;
pub mod table;

pub use arena::Arena;
pub use error::HostError;
pub use games::{GameId, Hosted};
pub use table::Match;
pub use with_game;
