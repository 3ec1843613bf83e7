//! The start position of a game: the `[Variant]` it names and its `[FEN]`, if any.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, PositionErrorKinds};

use super::tags::Tags;

/// Why a game cannot be replayed from its tags.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupError {
    UnsupportedVariant(String),
    InvalidFen(String),
}

/// The variants pgnkit replays, compared case- and space-insensitively (SPEC.md).
fn variant_kind(variant: &str) -> Option<bool> {
    let key: String = variant
        .chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect();
    match key.as_str() {
        "" | "standard" | "chess" | "fromposition" => Some(false),
        "chess960" | "960" | "fischerandom" | "fischerrandom" | "frc" => Some(true),
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
    let fen = Fen::from_ascii(fen_text.trim().as_bytes()).map_err(|err| {
        SetupError::InvalidFen(format!("[FEN \"{fen_text}\"] does not parse: {err}"))
    })?;
    let mode = if is_960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::detect(fen.as_setup())
    };
    fen.into_position::<Chess>(mode)
        .map(|pos| (pos, mode))
        .map_err(|err| {
            SetupError::InvalidFen(format!(
                "[FEN \"{fen_text}\"] is not a legal position: {}",
                describe_position_errors(err.kinds())
            ))
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
