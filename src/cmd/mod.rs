//! One file per subcommand: its flags (the doc comments are the `--help`) and its `run`.

pub mod args;
pub mod check_fen;
pub mod completions;
pub mod context;
pub mod convert;
pub mod fen;
pub mod man;
pub mod moves;
pub mod perft;
pub mod pgn;
pub mod positions;
pub mod report;
pub mod run;
pub mod select;
pub mod standings;
pub mod stats;
pub mod validate;
