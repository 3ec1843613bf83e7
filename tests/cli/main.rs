//! Black-box tests of the `pgnkit` binary: one test binary, one module per area.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    reason = "a test fails loudly on what it did not expect"
)]

mod util;

mod check_fen;
mod convert;
mod diagnosis;
mod docs;
mod fen;
mod hostile;
mod openings;
mod perf;
mod perft;
mod pgn;
mod regression;
mod robustness;
mod stats;
mod ux;
mod validate;
