//! Statistics over results: ratings fitted to placings, score intervals, and the sequential
//! probability ratio test. Pure functions of numbers; they know no game.

pub mod coverage;
pub mod ratings;
pub mod sprt;
