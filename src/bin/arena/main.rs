//! The `arena` binary: parses the command line and prints errors with their causes.

use std::process::ExitCode;

use clap::Parser;

mod bench;
mod cli;
mod games;
mod human;
mod progress;
mod timing;

/// mimalloc instead of glibc's malloc: the sandboxes, the runner and the tournament's writer
/// allocate small blocks by the million, from several threads (BENCHMARKS.md has the numbers).
/// Its 2.x line (Cargo feature `v2`), whose heaps are the threads' own: a second thread does not
/// make allocation slower, as it does with 3.x.
/// Results do not depend on it: a Lua bot's memory limit counts the bytes it asks for.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match cli::run(cli, &games::Games::builtin()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", cli::terminal_safe(&format!("{e:#}")));
            // A check that ran and found a difference is 1 (as in `cmp`); a determinism alarm of
            // a job queue (two runs of one match, two results) is 3; anything else is 2.
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
