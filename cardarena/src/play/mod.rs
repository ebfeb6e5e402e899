//! The match seam: how a match is set up and played, whoever sits at the table.

pub mod adapter;
pub mod capsule;
pub mod duel;
pub mod error;
pub mod games;
pub mod legacy;
pub mod limits;
pub mod person;
pub mod registry;
pub mod resim;
pub mod runner;
pub mod table;

pub use error::{BotError, ConfigError, HostError, LoadError};
pub use games::{GameId, Hosted};
pub use table::Match;
