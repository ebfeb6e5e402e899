//! Kuhn poker's tests, in one binary: the rules, the exact values and the measured ones, the
//! sandboxed example bots, and the glue that hosts the game.

mod cli;
mod common;
mod hosting;
mod rules;
mod sandboxed;
mod value;
