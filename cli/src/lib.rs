//! The `arena` command line as a library: [`run`] parses the process's arguments and runs any
//! `arena` command for a list of games. The `arena` binary is `run(Games::builtin())`; a
//! program that hosts its own game adds it and gets every command for it:
//!
//! ```no_run
//! use std::process::ExitCode;
//! use cardarena_cli::Games;
//!
//! fn main() -> ExitCode {
//!     cardarena_cli::run(Games::builtin() /* .with::<MyGame>() */)
//! }
//! ```
//!
//! docs/embedding.md walks through one (Kuhn poker, `examples/kuhn-arena/`).

use std::process::ExitCode;

use clap::Parser;

mod bench;
mod bench_child;
mod cli;
mod games;
mod human;
mod progress;
mod timing;

pub use bench_child::bench_child;
pub use games::Games;

/// Runs the command line of `std::env::args()` for `games`: prints errors with their causes on
/// stderr. The exit code is 0 on success, 1 for a check that ran and found a difference (as
/// `cmp` does), 3 for a determinism alarm of a job queue (two runs of one match, two results),
/// and 2 for anything else.
pub fn run(games: Games) -> ExitCode {
    let cli = cli::Cli::parse();
    match cli::run(cli, games.set()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", cli::terminal_safe(&format!("{e:#}")));
            ExitCode::from(if e.is::<cli::Mismatch>() {
                1
            } else if e.is::<cli::DeterminismAlarm>() {
                3
            } else {
                2
            })
        }
    }
}
