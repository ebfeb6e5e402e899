//! The replay family above the match seam: drawing a replay (as text, or as a web page), checking
//! it by playing it again, and reproducing a crash capsule.

pub mod repro;
pub mod verify;
pub mod view;
pub mod viewer;
