//! The `pgnkit` binary: parse the command line, run, map the outcome to an exit code.

use std::process::ExitCode;

use clap::Parser;
use pgnkit::cli::Cli;

fn main() -> ExitCode {
    let cli = Cli::parse();
    pgnkit::interrupt::install();
    let status = pgnkit::run(cli);
    ExitCode::from(status.code())
}
