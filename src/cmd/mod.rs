//! One file per subcommand: its flags (the doc comments are the `--help`) and its `run`.

pub mod check_fen;
pub mod common;
pub mod convert;
pub mod fen;
pub mod perft;
pub mod pgn;
pub mod stats;
pub mod validate;
