//! cardarena: a bot arena for hidden-information card games (Blade, E-card, Lost Cities,
//! Intensity). Rules are pure types in [`games`]; bots sit behind one trait, [`bot::Bot`]; the
//! [`runner`] plays a match and records a replay.

pub mod bench;
pub mod bots;
pub mod cli;
pub mod games;
pub mod human;
pub mod play;
pub mod replay;
pub mod schema;
pub mod stats;
pub mod tournament;
