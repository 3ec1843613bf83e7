//! Chess knowledge, on the game model of `pgn`: the replay on shakmaty (`replay`), the
//! diagnosis of illegal moves (`diagnose`), FEN reading, checking and writing (`fen`),
//! tag pairs and their checks (`tags`), draw rules (`draw`), who can still mate
//! (`mate_check`), result cross-checks (`result`), perft (`perft`) and the finding codes with their text (`findings`).
//! It depends on `pgn` only: not on the reading (`input`), the figures (`stats`) or
//! anything that writes.

pub mod clocks;
pub mod diagnose;
pub mod draw;
pub mod fen;
pub mod findings;
pub mod mate_check;
pub mod moves;
pub mod openings;
pub mod perft;
pub mod replay;
pub mod result;
pub mod tags;
pub mod termination_tag;
pub mod time_control;

pub use findings::{Code, Finding, Severity};
pub use replay::{
    GameReport, PlyMove, PlyVisitor, ReplayOptions, Status, replay, replay_with_tags,
};
