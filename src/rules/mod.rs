//! Chess knowledge: the replay on shakmaty, the diagnosis of illegal moves, draw rules,
//! result cross-checks and the finding codes.

pub mod diagnose;
pub mod draw;
pub mod epd;
pub mod explain;
pub mod fen_check;
pub mod fen_style;
pub mod finding;
pub mod history;
pub mod marks;
pub mod movetext;
pub mod notation;
pub mod openings;
pub mod perft;
pub mod piece_move;
pub mod replay;
pub mod result;
pub mod setup;
pub mod tag_checks;
pub mod tags;
pub mod variations;

pub use finding::{Code, Finding, Severity};
pub use replay::{GameReport, PlyVisitor, ReplayOptions, Status, replay};
