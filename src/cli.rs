//! The command line: the program's name, version and overview, and the subcommand enum
//! that names each command's flags. The flags are the commands': each command's own beside
//! its code in `cmd/`, the ones they share in `cmd/args.rs`. Imports run one way: this
//! file names `cmd`, `cmd` never names it.

use clap::{Parser, Subcommand};

use crate::cmd;
use crate::cmd::args::GlobalArgs;

/// Validate, measure and convert chess game archives (PGN/FEN).
///
/// pgnkit replays every game through the rules of chess (FIDE 2023) and explains every
/// defect with a stable code; it writes one CSV row of draw-rule statistics per game; it
/// converts between PGN and FEN. Inputs may be files, folders or stdin, plain or
/// gzip/zstd/bzip2 compressed; work is spread over all cores and output order never
/// depends on the thread count.
#[derive(Debug, Parser)]
#[command(
    name = "pgnkit",
    version,
    long_version = LONG_VERSION,
    arg_required_else_help = true,
    after_help = OVERVIEW_EXAMPLES
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    // No doc comments on these variants: a variant's doc comment would hide the long help
    // of its Args. Each command takes its help from its Args' doc comment (summary line,
    // paragraph) and `after_help` (examples).
    Validate(cmd::validate::Args),
    Stats(cmd::stats::Args),
    Fen(cmd::fen::Args),
    Moves(cmd::moves::Args),
    Pgn(cmd::pgn::Args),
    CheckFen(cmd::check_fen::Args),
    Convert(cmd::convert::Args),
    Perft(cmd::perft::Args),
    Report(cmd::report::Args),
    Select(cmd::select::Args),
    Standings(cmd::standings::Args),
    Completions(cmd::completions::Args),
    Man(cmd::man::Args),
}

/// `pgnkit --version`: the crates that decide the answers, and the rules they follow.
/// The versions are read from Cargo.lock by build.rs.
const LONG_VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    "\nrules: FIDE Laws of Chess 2023 (repetition 9.2.3, 50/75 moves 9.3/9.6, dead position 5.2.2)",
    "\nbuilt on: ",
    env!("PGNKIT_DEPENDENCY_VERSIONS"),
    "\nlicence: GPL-3.0-or-later"
);

/// Shown under the command list of `pgnkit --help` (and of `pgnkit` alone).
const OVERVIEW_EXAMPLES: &str = "\
Examples:
  pgnkit validate games.pgn                  check every game, explain each defect
  pgnkit stats archive/ --summary -o s.csv    one CSV row per game, and a summary
  pgnkit fen games.pgn --every-ply           every position as FEN
  pgnkit report games.pgn -o report.html     a page to look at in a browser
  pgnkit help validate                       everything about one command

The guide: docs/GUIDE.md (every command, filter, code and column).";
