//! The tutorials of docs/tutorial/: every step file plays without faults, and the last step of
//! each tutorial beats `greedy` on a fixed set of duplicate deals. One module per game.

#[path = "tutorials/intensity.rs"]
mod intensity;
#[path = "tutorials/lost_cities.rs"]
mod lost_cities;
