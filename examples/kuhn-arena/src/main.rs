//! `kuhn-arena`: every `arena` command, for the four built-in games and Kuhn poker.

use std::process::ExitCode;

fn main() -> ExitCode {
    cardarena_cli::run(cardarena_cli::Games::builtin().with::<kuhn_arena::Kuhn>())
}
