//! Tokens that are not standard SAN but may still mean exactly one move.

use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::{CastlingSide, Chess};

/// A non-standard token read as the SAN it stands for; the replay then plays (or
/// diagnoses) it like any other SAN.
pub struct Reading {
    pub san_plus: SanPlus,
    /// What was non-standard about it.
    pub why: &'static str,
}

/// Reads a non-standard token as the one move it means, if it means exactly one.
pub fn read(_pos: &Chess, text: &[u8]) -> Option<Reading> {
    let (body, suffix) = split_suffix(text);
    let side = match body {
        b"0-0" => CastlingSide::KingSide,
        b"0-0-0" => CastlingSide::QueenSide,
        _ => return None,
    };
    Some(Reading {
        san_plus: SanPlus {
            san: San::Castle(side),
            suffix,
        },
        why: "castling written with zeros",
    })
}

fn split_suffix(text: &[u8]) -> (&[u8], Option<Suffix>) {
    match text {
        [body @ .., b'#'] => (body, Some(Suffix::Checkmate)),
        [body @ .., b'+'] => (body, Some(Suffix::Check)),
        _ => (text, None),
    }
}

/// Why a token that means no move was rejected.
pub fn why_not_a_move(text: &[u8]) -> String {
    format!(
        "`{}` is not a move in standard algebraic notation",
        String::from_utf8_lossy(text)
    )
}
