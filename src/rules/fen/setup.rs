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
    if !variant.is_ascii() {
        let key: String = variant
            .chars()
            .filter(|c| !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect();
        return variant_of_key(key.as_bytes());
    }
    // An ASCII name is folded on the stack: a `[Variant]` tag stands in many lichess
    // games, and the `String` cost ~800 instructions each. One longer than the room is
    // longer than every known name.
    let mut folded = [0u8; 16];
    let mut len = 0;
    for byte in variant.bytes().filter(|&b| !char::from(b).is_whitespace()) {
        *folded.get_mut(len)? = byte.to_ascii_lowercase();
        len += 1;
    }
    variant_of_key(folded.get(..len).unwrap_or_default())
}

/// `variant_kind` of a name without white space, in lower case.
fn variant_of_key(key: &[u8]) -> Option<bool> {
    match key {
        b"" | b"standard" | b"normal" | b"regular" | b"chess" | b"fromposition" => Some(false),
        b"chess960" | b"chess-960" | b"960" | b"fischerandom" | b"fischerrandom" | b"frc" => {
            Some(true)
        }
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

#[cfg(test)]
mod tests {
    use super::variant_kind;

    /// The names folded on the stack are read as the whole Unicode folding reads them:
    /// the known names in any case and spacing, names past the stack's room, and
    /// non-ASCII letters (the Kelvin sign folds to `k`, a non-breaking space is white).
    #[test]
    fn variant_names_are_read_as_the_unicode_folding_reads_them() {
        let unicode = |variant: &str| {
            let key: String = variant
                .chars()
                .filter(|c| !c.is_whitespace())
                .flat_map(char::to_lowercase)
                .collect();
            match key.as_str() {
                "" | "standard" | "normal" | "regular" | "chess" | "fromposition" => Some(false),
                "chess960" | "chess-960" | "960" | "fischerandom" | "fischerrandom" | "frc" => {
                    Some(true)
                }
                _ => None,
            }
        };
        let names = [
            "",
            " ",
            "Standard",
            "STANDARD",
            " s t a n d a r d ",
            "\tNormal\n",
            "Regular",
            "chess",
            "From Position",
            "Chess960",
            "Chess 960",
            "chess-960",
            "960",
            "Fischerandom",
            "Fischer Random",
            "FRC",
            "Crazyhouse",
            "Atomic",
            "Three-check",
            "Standard Standard Standard",
            "fischerrandomchess",
            "Stand\u{a0}ard",
            "Ch\u{2003}ess",
            "\u{212a}ing of the hill",
            "St\u{e4}ndard",
            "Ch\u{130}ss",
            "\u{feff}Standard",
            "Standard\u{b}",
        ];
        for name in names {
            assert_eq!(variant_kind(name), unicode(name), "{name:?}");
        }
        assert_eq!(variant_kind("Stand\u{a0}ard"), Some(false));
        assert_eq!(variant_kind("Chess 960"), Some(true));
        assert_eq!(variant_kind("Crazyhouse"), None);
    }
}
