//! The tutorials (docs/tutorial/): every step file plays without faults, and the last step of
//! each game beats the built-in `greedy` on fixed duplicate deals. One module per game, and the
//! Python steps (`python.rs`).

mod blade;
mod ecard;
mod intensity;
mod lost_cities;
mod python;
