//! Statistics over results: ratings fitted to placings, score intervals, the sequential
//! probability ratio test, and how often the intervals contain a known truth. Pure functions of
//! numbers; they know no game.

pub mod coverage;
pub mod ratings;
pub mod sprt;
