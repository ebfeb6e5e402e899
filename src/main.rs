//! The `arena` binary: parses the command line and prints errors with their causes.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cardarena::cli::Cli::parse();
    match cardarena::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
