//! The tutorials' measurements of a step file against `greedy`, shared by their tests
//! (tests/it/tutorials/) and examples/tutorial_measure.rs.

pub mod intensity;
pub mod lost_cities;
