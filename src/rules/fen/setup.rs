//! The start position of a game: the `[Variant]` it names and its `[FEN]`, if any.

use shakmaty::{CastlingMode, Chess, PositionErrorKinds};

use crate::rules::fen::check::{self as fen_check, Failure};
use crate::rules::tags::Tags;

/// Why a game cannot be replayed from its tags.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupError {
    UnsupportedVariant(String),
    InvalidFen(String),
}

/// The variants pgnkit replays, compared case- and space-insensitively (SPEC.md):
/// `Some(true)` for Chess960, `Some(false)` for standard chess.
pub fn variant_kind(variant: &str) -> Option<bool> {
    let key: String = variant
        .chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect();
    match key.as_str() {
        "" | "standard" | "normal" | "regular" | "chess" | "fromposition" => Some(false),
        "chess960" | "chess-960" | "960" | "fischerandom" | "fischerrandom" | "frc" => Some(true),
        _ => None,
    }
}

/// The start position and castling mode a game's tags ask for.
pub fn start_position(tags: &Tags) -> Result<(Chess, CastlingMode), SetupError> {
    let is_960 = match tags.get("Variant") {
        None => false,
        Some(variant) => variant_kind(variant)
            .ok_or_else(|| SetupError::UnsupportedVariant(variant.to_string()))?,
    };
    let Some(fen_text) = tags.get("FEN").filter(|f| !f.trim().is_empty()) else {
        return Ok((Chess::default(), CastlingMode::Standard));
    };
    // The judgement `check-fen` and `pgn` make too: Chess960 castling only with a
    // Chess960 variant or file-letter rights; impossible rights are an invalid setup.
    fen_check::judge(fen_text, is_960).map_err(|failure| match failure {
        Failure::Syntax(defect) => {
            SetupError::InvalidFen(format!("[FEN \"{fen_text}\"]: {}", defect.message))
        }
        Failure::Illegal(_, kinds) => {
            let mut message = format!(
                "[FEN \"{fen_text}\"] is not a legal position: {}",
                describe_position_errors(kinds)
            );
            if !is_960
                && kinds.contains(PositionErrorKinds::INVALID_CASTLING_RIGHTS)
                && fen_check::judge(fen_text, true).is_ok()
            {
                message.push_str(
                    " (the rights are valid only in Chess960: add [Variant \"Chess960\"] to play them)",
                );
            }
            SetupError::InvalidFen(message)
        }
    })
}

/// Names every defect of an illegal position, in plain words.
pub fn describe_position_errors(kinds: PositionErrorKinds) -> String {
    const NAMES: [(PositionErrorKinds, &str); 10] = [
        (PositionErrorKinds::EMPTY_BOARD, "the board is empty"),
        (PositionErrorKinds::MISSING_KING, "a king is missing"),
        (
            PositionErrorKinds::TOO_MANY_KINGS,
            "a side has more than one king",
        ),
        (
            PositionErrorKinds::PAWNS_ON_BACKRANK,
            "pawns stand on the first or last rank",
        ),
        (
            PositionErrorKinds::INVALID_CASTLING_RIGHTS,
            "castling rights without king and rook on their squares",
        ),
        (
            PositionErrorKinds::INVALID_EP_SQUARE,
            "the en passant square has no double-stepped pawn behind it",
        ),
        (
            PositionErrorKinds::OPPOSITE_CHECK,
            "the side not to move is in check",
        ),
        (
            PositionErrorKinds::IMPOSSIBLE_CHECK,
            "the check cannot have arisen from a legal move",
        ),
        (
            PositionErrorKinds::TOO_MUCH_MATERIAL,
            "there is more material than a game can have",
        ),
        (PositionErrorKinds::VARIANT, "a variant rule is broken"),
    ];
    let named: Vec<&str> = NAMES
        .iter()
        .filter(|(kind, _)| kinds.contains(*kind))
        .map(|(_, name)| *name)
        .collect();
    if named.is_empty() {
        "the position is illegal".to_string()
    } else {
        named.join("; ")
    }
}
