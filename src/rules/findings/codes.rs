//! The finding codes: each code's stable name (SPEC.md), its severity and what it means in
//! a sentence with the rule behind it (shown under a text finding with `--verbose` and
//! beside each board of the HTML report), kept together in one table so that a new code
//! cannot miss one of them.

use std::fmt;

use super::Severity;

macro_rules! codes {
    ($($variant:ident => $name:literal, $severity:ident, $explanation:literal;)*) => {
        /// Every finding code of SPEC.md; the names are stable.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $($variant,)*
        }

        impl Code {
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $name,)*
                }
            }

            pub fn severity(self) -> Severity {
                match self {
                    $(Code::$variant => Severity::$severity,)*
                }
            }

            /// A plain explanation of the code, for readers who do not know it by name.
            pub fn explanation(self) -> &'static str {
                match self {
                    $(Code::$variant => $explanation,)*
                }
            }
        }
    };
}

codes! {
    CastlingKingMoved => "castling.king-moved", Error,
        "The king has left its original square earlier in this game (castling counts), so it may never castle again (FIDE 3.8.2.1).";
    CastlingRookMoved => "castling.rook-moved", Error,
        "The rook has moved earlier in this game, so the king may not castle with it (FIDE 3.8.2.1).";
    CastlingRookCaptured => "castling.rook-captured", Error,
        "The rook was captured on its original square, so there is nothing to castle with.";
    CastlingNoRight => "castling.no-right", Error,
        "The starting position does not grant this castling right, and nothing in the game can restore it.";
    CastlingInCheck => "castling.in-check", Error,
        "A king in check may not castle (FIDE 3.8.2.2).";
    CastlingBlocked => "castling.blocked", Error,
        "Every square between the king and the rook must be empty to castle (FIDE 3.8.2.2).";
    CastlingThroughCheck => "castling.through-check", Error,
        "The king may not cross a square attacked by an enemy piece when castling (FIDE 3.8.2.2).";
    CastlingIntoCheck => "castling.into-check", Error,
        "The king would land on an attacked square: no move may leave one's own king in check.";
    EnPassantWindowClosed => "en-passant.window-closed", Error,
        "En passant is allowed only on the move right after the enemy pawn's double step (FIDE 3.7.4.2).";
    EnPassantNoDoubleStep => "en-passant.no-double-step", Error,
        "The pawn beside the capturer never made a double step, so it cannot be taken en passant.";
    EnPassantExposesKing => "en-passant.exposes-king", Error,
        "Taking en passant removes two pawns from one rank or diagonal and opens a line to the own king.";
    PromotionMissing => "promotion.missing", Error,
        "A pawn that reaches the last rank must be exchanged for a queen, rook, bishop or knight (FIDE 3.7.5).";
    PromotionToKing => "promotion.to-king", Error,
        "A pawn promotes to a queen, rook, bishop or knight of its own colour, nothing else (FIDE 3.7.5).";
    PromotionToPawn => "promotion.to-pawn", Error,
        "A pawn promotes to a queen, rook, bishop or knight of its own colour, nothing else (FIDE 3.7.5).";
    PromotionNotLastRank => "promotion.not-last-rank", Error,
        "Only a pawn move that reaches the last rank promotes; this one does not.";
    PromotionNotAPawn => "promotion.not-a-pawn", Error,
        "Only a pawn can promote; the move names another piece.";
    MoveIllegal => "move.illegal", Error,
        "No legal move in this position matches the move as written: a piece that cannot get there, a blocked path, a pinned piece or a king left in check.";
    MoveAmbiguous => "move.ambiguous", Error,
        "Several legal moves match; standard SAN adds the file or rank of the moving piece to tell them apart.";
    MoveSyntax => "move.syntax", Error,
        "This token is neither a move nor a move number, comment, NAG, variation or result.";
    SetupInvalidFen => "setup.invalid-fen", Error,
        "The [FEN] tag does not describe a legal starting position (castling rights that only Chess960 grants need a Chess960 [Variant] tag), so the game cannot be replayed.";
    SetupUnsupportedVariant => "setup.unsupported-variant", Error,
        "The [Variant] tag names a game other than standard chess or Chess960; it is counted and skipped.";
    InputUnreadable => "input.unreadable", Error,
        "The bytes of this game could not be read as PGN.";
    InputUnsupportedEncoding => "input.unsupported-encoding", Error,
        "The input is UTF-16 or UTF-32; convert it to UTF-8 (iconv -f UTF-16 -t UTF-8).";
    InputLimitExceeded => "input.limit-exceeded", Error,
        "The game is beyond one of pgnkit's documented size limits and was not replayed whole.";
    ResultMismatch => "result.mismatch", Warning,
        "The recorded result disagrees with the final position or with the other record of the result.";
    ResultAfterAutomaticDraw => "result.after-automatic-draw", Warning,
        "The game had already ended by itself (fivefold repetition, 75-move rule or dead position, FIDE 9.6, 5.2.2) before these moves.";
    ResultUnwinnableWin => "result.unwinnable-win", Warning,
        "The side recorded as winner cannot mate by any series of legal moves (too little material, or a position that can never open for it); a game lost on time against such a side is drawn (FIDE 6.9).";
    ResultTerminationConflict => "result.termination-conflict", Warning,
        "The Termination tag claims an end (checkmate, resignation, a loss on time, stalemate, repetition, fifty moves, insufficient material, agreement) that the recorded result or the final position contradicts.";
    ResultTimeoutDrawWinnable => "result.timeout-draw-winnable", Warning,
        "The game is drawn on time, but the side whose clock was not running could still mate in the final position: FIDE 6.9 makes it a win for that side.";
    ClockGain => "clock.gain", Warning,
        "A side's clock after this move is more than a second above what it had before plus what the time control adds (the increment, a new period's time): time was added by the opponent or an arbiter (FIDE 7.5.5), a clock was set wrong, or the record was edited.";
    ClockOverTime => "clock.over-time", Warning,
        "This side's move times add up to more than the time control gave it by this move, and the record does not end with it losing on time: its flag fell and play went on, or the result is wrong.";
    InputUnterminatedComment => "input.unterminated-comment", Warning,
        "A { comment is never closed; the moves read before it are kept.";
    InputUnescapedQuote => "input.unescaped-quote", Warning,
        "A tag value holds quotes that should be written \\\"; pgnkit repaired it.";
    InputBadTag => "input.bad-tag", Warning,
        "A tag line is not [Name \"value\"]; pgnkit repaired or skipped it and replayed the moves.";
    InputUnbalancedParenthesis => "input.unbalanced-parenthesis", Warning,
        "A ) closes no variation, or a ( is never closed; pgnkit ignored or closed it.";
    InputUnbalancedBrace => "input.unbalanced-brace", Warning,
        "A } closes no comment; pgnkit ignored it and read on.";
    InputStrayBytes => "input.stray-bytes", Warning,
        "Lines between games hold no PGN text, only control characters or bytes such as 0xFF; they make no game and were skipped.";
    InputEmptyVariation => "input.empty-variation", Warning,
        "A variation holds no move before a nested variation or its end; it is ignored and the main line kept.";
    InputTruncated => "input.truncated", Warning,
        "The input ends in the middle of this game; the moves read are kept.";
    ResultNotation => "result.notation", Info,
        "The termination marker is written loosely (1/2, an en dash, ½-½, or glued to the last move) and was read as the marker it means.";
    InputEscapedNag => "input.escaped-nag", Info,
        "A NAG is written with a backslash (\\$14, as some study exports write); it was read as the NAG.";
    SanNotation => "san.notation", Info,
        "The move is not written in standard SAN (a capture without x, an x on no capture, more disambiguation than needed, long algebraic, castling with an en dash, figurines such as ♘f3, a piece letter in the wrong case, the --piece-letters of another language, ...) but means exactly one move; the message gives the standard form.";
    SanCheckSuffix => "san.check-suffix", Info,
        "The + or # after the move is missing or wrong.";
    EnPassantMissed => "en-passant.missed", Info,
        "An en passant capture was available here and another move was played; the chance is gone.";
    TagMissingRoster => "tag.missing-roster", Info,
        "One of the seven tags every PGN game should have (Event, Site, Date, Round, White, Black, Result) is absent.";
    TagBadTimeControl => "tag.bad-time-control", Info,
        "The TimeControl tag is not in the PGN standard's form (`300+3`, `40/5400+30:1800+30`, `*60`, `?`, `-`); the game's clocks are not checked.";
    TagBadValue => "tag.bad-value", Info,
        "A tag value is not in the form the PGN standard asks for.";
    TagDuplicate => "tag.duplicate", Warning,
        "The same tag appears twice: often two games run together for want of a blank line.";
    SetupImplausible => "setup.implausible", Info,
        "The [FEN] position is legal but could hardly arise in a game (see pgnkit check-fen).";
    CommentBadAnnotation => "comment.bad-annotation", Info,
        "A [%clk H:MM:SS] or [%eval X] command in a comment cannot be read; stats passes over it.";
    EventPlayerTwiceInRound => "event.player-twice-in-round", Error,
        "A player has two games in the same round of one event (pgnkit standings): a round number is wrong, or two events share their tags; both games count.";
    EventResultConflict => "event.result-conflict", Error,
        "The same two players, round and colours are recorded twice with different results (pgnkit standings); the later record is left out.";
    EventDuplicateGame => "event.duplicate-game", Warning,
        "The same game (players, round, colours and result) is recorded twice in one event (pgnkit standings); it is counted once.";
    EventRepeatedPairing => "event.repeated-pairing", Warning,
        "Two players met more than once over the board in a Swiss event (pgnkit standings), which the pairing rules forbid (C.04.1): a round or a name is likely wrong.";
    EventUnfinished => "event.unfinished", Warning,
        "A game of the event has no result (`*`): pgnkit standings leaves it out.";
    EventRoundMissing => "event.round-missing", Info,
        "A game of the event has no round number (the Round tag's first part is not a positive integer): pgnkit standings takes it in input order, after the numbered rounds.";
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
