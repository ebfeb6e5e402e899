//! `arena-bench-child`: the process-per-decision baseline of `arena bench`
//! (`cardarena_cli::bench_child`), a binary of its own so that it starts as a small program does.

fn main() -> std::process::ExitCode {
    cardarena_cli::bench_child()
}
