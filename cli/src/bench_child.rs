//! The process-per-decision baseline of `arena bench`: a tiny program spawned once per
//! decision, like the original Blade controller's bots. It reads one observation line on stdin
//! and writes its first legal action on stdout.
//!
//! Each binary over this crate ships it as its own small binary beside itself
//! (`arena-bench-child` beside `arena`, `kuhn-arena-bench-child` beside `kuhn-arena`), so that
//! the baseline costs what a small program costs to start (the Rust runtime, one JSON parse) and
//! not what the arena does before `main` (its allocator, its command-line parser).

use std::io::BufRead;
use std::process::ExitCode;

/// The child's whole program: `fn main() -> ExitCode { cardarena_cli::bench_child() }`.
pub fn bench_child() -> ExitCode {
    let mut line = String::new();
    if let Err(e) = std::io::stdin().lock().read_line(&mut line) {
        eprintln!("bench child: cannot read stdin: {e}");
        return ExitCode::FAILURE;
    }
    let obs: serde_json::Value = match serde_json::from_str(&line) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("bench child: the line is not JSON: {e}");
            return ExitCode::FAILURE;
        }
    };
    match obs["legal"][0].as_str() {
        Some(first) => {
            println!("{first}");
            ExitCode::SUCCESS
        }
        None => {
            eprintln!("bench child: the observation has no legal action");
            ExitCode::FAILURE
        }
    }
}
