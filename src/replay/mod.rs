//! The replay family: showing a recorded match, checking it by playing it again, and crash
//! capsules.

pub mod capsule;
pub mod verify;
pub mod view;
