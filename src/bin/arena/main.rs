//! The `arena` binary: the command line ([`cardarena_cli`]) for the four built-in games.

use std::process::ExitCode;

/// mimalloc instead of glibc's malloc: the sandboxes, the runner and the tournament's writer
/// allocate small blocks by the million, from several threads (BENCHMARKS.md has the numbers).
/// Its 2.x line (Cargo feature `v2`), whose heaps are the threads' own: a second thread does not
/// make allocation slower, as it does with 3.x.
/// Results do not depend on it: a Lua bot's memory limit counts the bytes it asks for.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    cardarena_cli::run(cardarena_cli::Games::builtin())
}
