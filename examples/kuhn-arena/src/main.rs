//! `kuhn-arena`: the `arena` command with Kuhn poker added to the four built-in games.
//!
//! Once the command line is a library function, this file is the one line
//!
//! ```text
//! fn main() -> ExitCode { cardarena_cli::run(Games::builtin().with::<Kuhn>()) }
//! ```
//!
//! Until then the binary only says so; the game, its bots and its board are the library's.

use std::process::ExitCode;

fn main() -> ExitCode {
    eprintln!(
        "kuhn-arena: the arena's command line is not yet a library function; \
         play Kuhn poker ({}) through cardarena::Match (docs/embedding.md)",
        <kuhn_arena::Kuhn as cardarena_games::Game>::ABOUT
    );
    ExitCode::FAILURE
}
