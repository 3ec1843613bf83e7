//! Findings: what is wrong (or worth knowing) about a game, with a stable code.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

macro_rules! codes {
    ($($variant:ident => $name:literal, $severity:ident;)*) => {
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
        }
    };
}

codes! {
    CastlingKingMoved => "castling.king-moved", Error;
    CastlingRookMoved => "castling.rook-moved", Error;
    CastlingRookCaptured => "castling.rook-captured", Error;
    CastlingNoRight => "castling.no-right", Error;
    CastlingInCheck => "castling.in-check", Error;
    CastlingBlocked => "castling.blocked", Error;
    CastlingThroughCheck => "castling.through-check", Error;
    CastlingIntoCheck => "castling.into-check", Error;
    EnPassantWindowClosed => "en-passant.window-closed", Error;
    EnPassantNoDoubleStep => "en-passant.no-double-step", Error;
    EnPassantExposesKing => "en-passant.exposes-king", Error;
    PromotionMissing => "promotion.missing", Error;
    PromotionToKing => "promotion.to-king", Error;
    PromotionToPawn => "promotion.to-pawn", Error;
    PromotionNotLastRank => "promotion.not-last-rank", Error;
    PromotionNotAPawn => "promotion.not-a-pawn", Error;
    MoveIllegal => "move.illegal", Error;
    MoveAmbiguous => "move.ambiguous", Error;
    MoveSyntax => "move.syntax", Error;
    SetupInvalidFen => "setup.invalid-fen", Error;
    SetupUnsupportedVariant => "setup.unsupported-variant", Error;
    InputUnreadable => "input.unreadable", Error;
    InputUnsupportedEncoding => "input.unsupported-encoding", Error;
    InputLimitExceeded => "input.limit-exceeded", Error;
    ResultMismatch => "result.mismatch", Warning;
    ResultAfterAutomaticDraw => "result.after-automatic-draw", Warning;
    ResultUnwinnableWin => "result.unwinnable-win", Warning;
    InputUnterminatedComment => "input.unterminated-comment", Warning;
    InputUnescapedQuote => "input.unescaped-quote", Warning;
    InputBadTag => "input.bad-tag", Warning;
    InputUnbalancedParenthesis => "input.unbalanced-parenthesis", Warning;
    InputTruncated => "input.truncated", Warning;
    SanNotation => "san.notation", Info;
    SanCheckSuffix => "san.check-suffix", Info;
    EnPassantMissed => "en-passant.missed", Info;
    TagMissingRoster => "tag.missing-roster", Info;
    TagBadValue => "tag.bad-value", Info;
    TagDuplicate => "tag.duplicate", Warning;
    SetupImplausible => "setup.implausible", Info;
    CommentBadAnnotation => "comment.bad-annotation", Info;
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One finding about one game. The game's own identity (file, index, line, players) is
/// kept once in the game's report, not in every finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub code: Code,
    /// 1-based ply of the offending move (game-level findings: the last ply replayed).
    pub ply: u32,
    /// `23. O-O` / `23... O-O`, empty for game-level findings.
    pub move_text: String,
    /// The token exactly as written, empty for game-level findings.
    pub san: String,
    pub message: String,
    /// The position before the move (game-level findings: the final position).
    pub fen: String,
    /// The line of the offending token (game-level findings: the game's line).
    pub move_line: u64,
}

impl Finding {
    pub fn severity(&self) -> Severity {
        self.code.severity()
    }
}
