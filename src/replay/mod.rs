//! The replay family above the match seam: drawing a replay, checking it by playing it again,
//! and reproducing a crash capsule.

pub mod repro;
pub mod verify;
pub mod view;
