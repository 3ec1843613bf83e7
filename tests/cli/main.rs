//! Black-box tests of the `pgnkit` binary: one test binary, one module per area.
//!
//! Where a new test goes:
//! - what one command does: the file named after it (`validate`, `stats`, `fen`, `pgn`,
//!   `check_fen`, `convert`, `perft`, `report`); why `validate` finds a move illegal:
//!   `validate/diagnosis.rs`;
//! - what every command shares (help, version, completions, man, usage errors, exit codes,
//!   colour, --game/--games/--shard, the no-game warning): `cli_surface`;
//! - output that must not depend on --threads: a row in `determinism`'s table of commands or
//!   of inputs, not a new comparison elsewhere;
//! - hostile or damaged input, files, memory, terminals: `robustness` (one module a concern);
//! - a fixed bug: `regression`, in the module of the part it belongs to;
//! - the README, docs/GUIDE.md and every `--help` example: `docs` (they run as they are written);
//! - tests that drive the library rather than the binary: a file named after what they
//!   check (`repetition`).
//!
//! Tests run the binary through `util` (`run`, `run_args`, `findings_of`, `codes_of`,
//! `temp_file`) on small inline PGN or files in testdata/. A test checks what a user sees
//! (text, codes, figures, elements), never exact markup or styling.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    reason = "a test fails loudly on what it did not expect"
)]

mod util;

mod annotations;
mod check_fen;
mod cli_surface;
mod clocks;
mod convert;
mod determinism;
mod docs;
mod fen;
mod mate;
mod moves;
mod openings;
mod parquet;
mod perft;
mod pgn;
mod regression;
mod repetition;
mod report;
mod robustness;
mod select;
mod standings;
mod stats;
mod termination;
mod validate;
