//! `kuhn-arena-bench-child`: the process baseline of `kuhn-arena bench`
//! (`cardarena_cli::bench_child`), installed beside `kuhn-arena`.

fn main() -> std::process::ExitCode {
    cardarena_cli::bench_child()
}
