//! pgnkit: validate, measure and convert chess game archives.
//!
//! The parts and the one-way flow between them are described in ARCHITECTURE.md (and
//! checked by `layers.rs`); this file declares the parts and dispatches a command line.

pub mod cli;
pub mod cmd;
pub mod exit;
pub mod filter;
pub mod input;
pub mod interrupt;
#[cfg(test)]
mod layers;
pub mod output;
pub mod pgn;
pub mod pipeline;
pub mod progress;
pub mod record;
pub mod rules;
pub mod standings;
pub mod stats;
pub mod stderr;
pub mod terminal;

use clap::CommandFactory;
use cli::{Cli, Command};
use exit::ExitStatus;

/// Runs one command line and returns how it ended; errors are printed here, once.
pub fn run(cli: Cli) -> ExitStatus {
    let global = &cli.global;
    let result = match cli.command {
        Command::Validate(args) => cmd::validate::run(args, global),
        Command::Stats(args) => cmd::stats::run(args, global),
        Command::Fen(args) => cmd::fen::run(args, global),
        Command::Moves(args) => cmd::moves::run(args, global),
        Command::Pgn(args) => cmd::pgn::run(args, global),
        Command::CheckFen(args) => cmd::check_fen::run(args, global),
        Command::Convert(args) => cmd::convert::run(args, global),
        Command::Perft(args) => cmd::perft::run(args, global),
        Command::Report(args) => cmd::report::run(args, global),
        Command::Select(args) => cmd::select::run(args, global),
        Command::Standings(args) => cmd::standings::run(args, global),
        Command::Completions(args) => cmd::completions::run(args, global, Cli::command()),
        Command::Man(args) => cmd::man::run(args, global, Cli::command()),
    };
    match result {
        Ok(status) => status,
        Err(err) if output::is_broken_pipe(&err) => ExitStatus::Success,
        Err(err) if interrupt::is_interruption(&err) => {
            crate::stderr::say!("pgnkit: interrupted");
            ExitStatus::Interrupted
        }
        Err(err) => {
            crate::stderr::say!("pgnkit: {}", terminal::visible(&format!("{err:#}")));
            ExitStatus::Error
        }
    }
}
