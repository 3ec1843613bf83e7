//! Findings about how a movetext is written rather than about its moves: the splitter's
//! defects of the bytes (each with its code, `problem_code`), empty variations, and check
//! signs standing apart from their move or not matching it. The move loop calls them
//! where it meets them; none is on the path of a legal, plainly written move.

use shakmaty::san::{SanPlus, Suffix};
use shakmaty::{Chess, Position};

use super::history::Played;
use super::{Replay, Status, fen_of, move_label, read};
use crate::pgn::{InputProblem, InputProblemKind, Token, TokenKind};
use crate::rules::findings::{Code, Finding};

impl Replay<'_> {
    /// Turns what the splitter noticed into findings.
    pub(super) fn report_input_problems(&mut self) {
        for input_problem in &self.raw.problems {
            let InputProblem { kind, line, detail } = input_problem;
            let code = problem_code(*kind);
            if matches!(code, Code::InputUnreadable | Code::InputUnsupportedEncoding) {
                self.report.status = Status::Unreadable;
            }
            // A finding about the game: its `move_line` is the game's line, and the
            // message names the line where the defect stands.
            let message = if code == Code::InputUnsupportedEncoding {
                detail.clone()
            } else {
                format!("line {}: {detail}", self.raw.line + u64::from(*line))
            };
            self.report.findings.push(Finding {
                code,
                ply: 0,
                move_text: String::new(),
                san: String::new(),
                message,
                fen: String::new(),
                move_line: self.raw.line,
            });
        }
    }

    pub(super) fn has_problem(&self, kind: InputProblemKind) -> bool {
        self.raw.problems.iter().any(|p| p.kind == kind)
    }

    /// `input.empty-variation`: whether the variation opened at `index` holds no move
    /// before a nested variation or its end (`((1... c5))`, `()`); comments, NAGs and move
    /// numbers are no move. The main line goes on as if it were not there.
    pub(super) fn is_empty_variation(&self, index: usize) -> bool {
        let next = self.raw.tokens.iter().skip(index + 1).find(|t| {
            !matches!(
                t.kind,
                TokenKind::Comment | TokenKind::Nag | TokenKind::Glyph | TokenKind::MoveNumber
            )
        });
        next.is_some_and(|t| matches!(t.kind, TokenKind::VariationStart | TokenKind::VariationEnd))
    }

    /// One `input.empty-variation` finding for the game (a million `()` must not make a
    /// million findings): how many, and the line of the first.
    pub(super) fn empty_variations_finding(&mut self, count: u32, first: usize) {
        let Some(open) = self.raw.tokens.get(first) else {
            return;
        };
        let line = self.raw.token_line(open);
        let what = if count == 1 {
            "a variation holds".to_string()
        } else {
            format!("{count} variations hold")
        };
        self.report.findings.push(Finding {
            code: Code::InputEmptyVariation,
            ply: self.report.plies,
            move_text: String::new(),
            san: String::new(),
            message: format!(
                "line {line}: {what} no move before a nested variation or its end (`((`, `()`); ignored, the main line is kept"
            ),
            fen: fen_of(&self.pos),
            move_line: line,
        });
    }

    /// `Bxc6 +`, `Qh4 #`: a lone check sign right after the move just played (written
    /// without one; annotations may stand between, `Bc4 ! +`) is that move's sign: `san.notation` when it is right, else
    /// `san.check-suffix` in place of the one `play` gave for the missing sign. Returns
    /// false when the token is not such a sign (it is then read as a move, and fails).
    pub(super) fn check_sign_apart(&mut self, index: usize, sign: u8) -> bool {
        let raw = self.raw;
        let (Some(move_token), Some(token)) = (
            read::move_before_sign(raw, index).and_then(|i| raw.tokens.get(i)),
            raw.tokens.get(index),
        ) else {
            return false;
        };
        let move_text = raw.token_text(move_token);
        if move_token.kind != TokenKind::Word
            || self.played_moves().last().map(|p| p.token) != Some(move_token.span)
            || matches!(move_text.last(), Some(b'+' | b'#'))
        {
            return false;
        }
        let written = Some(if sign == b'#' {
            Suffix::Checkmate
        } else {
            Suffix::Check
        });
        let actual = if !self.in_check {
            None
        } else if self.pos.is_checkmate() {
            Some(Suffix::Checkmate)
        } else {
            Some(Suffix::Check)
        };
        let plies = self.report.plies;
        if let Some(last) = self.report.findings.last()
            && last.code == Code::SanCheckSuffix
            && last.ply == plies
        {
            self.report.findings.pop();
        }
        let before = self.position_before_last_move();
        let san = format!("{} {}", self.written(move_text), char::from(sign));
        let (code, message) = if written == actual {
            let Some(&Played { mv, .. }) = self.played.last() else {
                return false;
            };
            let standard = SanPlus::from_move(before.clone(), mv);
            (
                Code::SanNotation,
                format!("read as {standard} (a check sign written apart from its move)"),
            )
        } else {
            let name = |s: Option<Suffix>| match s {
                Some(Suffix::Check) => "`+`",
                Some(Suffix::Checkmate) => "`#`",
                None => "no suffix",
            };
            (
                Code::SanCheckSuffix,
                format!(
                    "written with {} (apart from the move) but the move calls for {}",
                    name(written),
                    name(actual)
                ),
            )
        };
        self.report.findings.push(Finding {
            code,
            ply: plies,
            move_text: move_label(&before, &san),
            san,
            message,
            fen: fen_of(&before),
            move_line: raw.token_line(token),
        });
        true
    }

    pub(super) fn check_suffix_finding(
        &mut self,
        before: &Chess,
        token: &Token,
        written: Option<Suffix>,
        actual: Option<Suffix>,
    ) {
        // The finding is about the move just played: report it at its own ply and position.
        let text = self.written(self.raw.token_text(token));
        let name = |s: Option<Suffix>| match s {
            Some(Suffix::Check) => "`+`",
            Some(Suffix::Checkmate) => "`#`",
            None => "no suffix",
        };
        // The sign as written: `++`, `†`, `‡` are read as `#`, `+`, `#`.
        let written_name = ["++", "†", "‡"]
            .into_iter()
            .find(|sign| written.is_some() && text.ends_with(sign))
            .map_or_else(|| name(written).to_string(), |sign| format!("`{sign}`"));
        let message = format!(
            "written with {written_name} but the move calls for {}",
            name(actual)
        );
        let ply = self.report.plies;
        self.report.findings.push(Finding {
            code: Code::SanCheckSuffix,
            ply,
            move_text: move_label(before, &text),
            san: text,
            message,
            fen: fen_of(before),
            move_line: self.raw.token_line(token),
        });
    }
}

/// The finding code of a defect the splitter found in the bytes.
fn problem_code(kind: InputProblemKind) -> Code {
    match kind {
        InputProblemKind::UnterminatedComment => Code::InputUnterminatedComment,
        InputProblemKind::Truncated => Code::InputTruncated,
        InputProblemKind::UnescapedQuote => Code::InputUnescapedQuote,
        InputProblemKind::Unreadable => Code::InputUnreadable,
        InputProblemKind::BadTag => Code::InputBadTag,
        InputProblemKind::UnbalancedParenthesis => Code::InputUnbalancedParenthesis,
        InputProblemKind::UnbalancedBrace => Code::InputUnbalancedBrace,
        InputProblemKind::StrayBytes => Code::InputStrayBytes,
        InputProblemKind::UnsupportedEncoding => Code::InputUnsupportedEncoding,
        InputProblemKind::LimitExceeded => Code::InputLimitExceeded,
        InputProblemKind::EscapedNag => Code::InputEscapedNag,
    }
}
