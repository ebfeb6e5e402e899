//! The `arena` package's integration tests, in one test binary (linking wasmtime and the arena
//! once instead of once per file): one module per subject. Run one with
//! `cargo test --features arena/postgres --test it queue::` (a module path filters its tests).
//! Helpers shared with other packages' tests and the examples are in the `testkit` crate
//! (testkit/). Each test works in its own scratch directory and changes no process-wide state
//! (environment, current directory), since all of them share this process.

mod analyse;
mod authoring;
mod bench;
mod browser;
mod cli;
mod determinism;
mod example_bots;
mod fairness;
mod fuzz;
mod game_list;
mod ladder_e2e;
mod ladder_garage;
mod ladder_ops;
#[cfg(feature = "postgres")]
mod ladder_pg;
mod ladder_play;
mod ladder_tls;
mod legacy;
mod observations;
mod python_conformance;
mod queue;
mod replay;
mod report;
mod runner;
mod strength;
mod tournament;
mod tutorials;
