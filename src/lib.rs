//! cardarena: a bot arena for hidden-information card games (Blade, E-card, Lost Cities,
//! Intensity). Rules are pure types in [`games`]; bots sit behind one trait, [`bot::Bot`]; the
//! [`runner`] plays a match and records a replay.

pub mod bench;
pub mod bot;
pub mod bots;
pub mod capsule;
pub mod cli;
pub mod games;
pub mod human;
pub mod legacy;
pub mod registry;
pub mod replay_view;
pub mod report;
pub mod runner;
pub mod schema;
pub mod stats;
pub mod tournament;
pub mod verify;
