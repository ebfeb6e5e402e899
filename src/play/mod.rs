//! The match seam: how a match is set up and played, whoever sits at the table.

pub mod arena;
pub mod capsule;
pub mod games;
pub mod legacy;
pub mod limits;
pub mod registry;
pub mod resim;
pub mod runner;
pub mod table;

pub use crate::with_game;
pub use arena::{Arena, HostError};
pub use games::{GameId, Hosted};
pub use table::Match;
