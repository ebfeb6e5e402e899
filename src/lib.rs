//! cardarena: a bot arena for hidden-information card games.

pub mod games;
pub mod rng;
