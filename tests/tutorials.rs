//! The tutorials (docs/tutorial/): every step file plays without faults, and the last step of
//! each game beats the built-in `greedy` on fixed duplicate deals. One module per game, in
//! tests/tutorials/ (a test crate's root looks for its modules beside it, hence `#[path]`).

#[path = "tutorials/blade.rs"]
mod blade;
#[path = "tutorials/ecard.rs"]
mod ecard;
#[path = "tutorials/intensity.rs"]
mod intensity;
#[path = "tutorials/lost_cities.rs"]
mod lost_cities;
