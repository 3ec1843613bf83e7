//! What each finding code means in a sentence, with the rule behind it: shown under a
//! text finding with `--verbose` and beside each board of the HTML report.

use super::finding::Code;

/// A plain explanation of the code, for readers who do not know it by name.
pub fn explanation(code: Code) -> &'static str {
    match code {
        Code::CastlingKingMoved => {
            "The king has left its original square earlier in this game (castling counts), so it may never castle again (FIDE 3.8.2.1)."
        }
        Code::CastlingRookMoved => {
            "The rook has moved earlier in this game, so the king may not castle with it (FIDE 3.8.2.1)."
        }
        Code::CastlingRookCaptured => {
            "The rook was captured on its original square, so there is nothing to castle with."
        }
        Code::CastlingNoRight => {
            "The starting position does not grant this castling right, and nothing in the game can restore it."
        }
        Code::CastlingInCheck => "A king in check may not castle (FIDE 3.8.2.2).",
        Code::CastlingBlocked => {
            "Every square between the king and the rook must be empty to castle (FIDE 3.8.2.2)."
        }
        Code::CastlingThroughCheck => {
            "The king may not cross a square attacked by an enemy piece when castling (FIDE 3.8.2.2)."
        }
        Code::CastlingIntoCheck => {
            "The king would land on an attacked square: no move may leave one's own king in check."
        }
        Code::EnPassantWindowClosed => {
            "En passant is allowed only on the move right after the enemy pawn's double step (FIDE 3.7.4.2)."
        }
        Code::EnPassantNoDoubleStep => {
            "The pawn beside the capturer never made a double step, so it cannot be taken en passant."
        }
        Code::EnPassantExposesKing => {
            "Taking en passant removes two pawns from one rank or diagonal and opens a line to the own king."
        }
        Code::PromotionMissing => {
            "A pawn that reaches the last rank must be exchanged for a queen, rook, bishop or knight (FIDE 3.7.5)."
        }
        Code::PromotionToKing | Code::PromotionToPawn => {
            "A pawn promotes to a queen, rook, bishop or knight of its own colour, nothing else (FIDE 3.7.5)."
        }
        Code::PromotionNotLastRank => {
            "Only a pawn move that reaches the last rank promotes; this one does not."
        }
        Code::PromotionNotAPawn => "Only a pawn can promote; the move names another piece.",
        Code::MoveIllegal => {
            "No legal move in this position matches the move as written: a piece that cannot get there, a blocked path, a pinned piece or a king left in check."
        }
        Code::MoveAmbiguous => {
            "Several legal moves match; standard SAN adds the file or rank of the moving piece to tell them apart."
        }
        Code::MoveSyntax => {
            "This token is neither a move nor a move number, comment, NAG, variation or result."
        }
        Code::SetupInvalidFen => {
            "The [FEN] tag does not describe a legal starting position (castling rights that only Chess960 grants need a Chess960 [Variant] tag), so the game cannot be replayed."
        }
        Code::SetupUnsupportedVariant => {
            "The [Variant] tag names a game other than standard chess or Chess960; it is counted and skipped."
        }
        Code::InputUnreadable => "The bytes of this game could not be read as PGN.",
        Code::InputUnsupportedEncoding => {
            "The input is UTF-16 or UTF-32; convert it to UTF-8 (iconv -f UTF-16 -t UTF-8)."
        }
        Code::InputLimitExceeded => {
            "The game is beyond one of pgnkit's documented size limits and was not replayed whole."
        }
        Code::ResultMismatch => {
            "The recorded result disagrees with the final position or with the other record of the result."
        }
        Code::ResultAfterAutomaticDraw => {
            "The game had already ended by itself (fivefold repetition, 75-move rule or dead position, FIDE 9.6, 5.2.2) before these moves."
        }
        Code::ResultUnwinnableWin => {
            "The side recorded as winner has too little material to mate by any series of legal moves; such a game is drawn (FIDE 6.9)."
        }
        Code::InputUnterminatedComment => {
            "A { comment is never closed; the moves read before it are kept."
        }
        Code::InputUnescapedQuote => {
            "A tag value holds quotes that should be written \\\"; pgnkit repaired it."
        }
        Code::InputBadTag => {
            "A tag line is not [Name \"value\"]; pgnkit repaired or skipped it and replayed the moves."
        }
        Code::InputUnbalancedParenthesis => {
            "A ) closes no variation, or a ( is never closed; pgnkit ignored or closed it."
        }
        Code::InputTruncated => {
            "The input ends in the middle of this game; the moves read are kept."
        }
        Code::SanNotation => {
            "The move is not written in standard SAN (a capture without x, an x on no capture, more disambiguation than needed, long algebraic, ...) but means exactly one move; the message gives the standard form."
        }
        Code::SanCheckSuffix => "The + or # after the move is missing or wrong.",
        Code::EnPassantMissed => {
            "An en passant capture was available here and another move was played; the chance is gone."
        }
        Code::TagMissingRoster => {
            "One of the seven tags every PGN game should have (Event, Site, Date, Round, White, Black, Result) is absent."
        }
        Code::TagBadValue => "A tag value is not in the form the PGN standard asks for.",
        Code::TagDuplicate => {
            "The same tag appears twice: often two games run together for want of a blank line."
        }
        Code::SetupImplausible => {
            "The [FEN] position is legal but could hardly arise in a game (see pgnkit check-fen)."
        }
        Code::CommentBadAnnotation => {
            "A [%clk H:MM:SS] or [%eval X] command in a comment cannot be read; stats passes over it."
        }
    }
}
