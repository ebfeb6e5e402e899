//! cardarena: a bot arena for hidden-information card games.

pub mod bots;
pub mod games;
pub mod rng;
