//! The whole movetext of a game, variations included, replayed: each variation from the
//! position before the move it replaces. A line stops at its first illegal move, which
//! is named with the same code and message `validate` gives.

use shakmaty::san::{SanError, SanPlus};
use shakmaty::{Chess, Move, Position};

use super::diagnose;
use super::finding::Code;
use super::history::History;
use super::notation;
use crate::input::{RawGame, Token, TokenKind};

/// One step of the movetext, in input order.
#[derive(Debug, Clone)]
pub enum Step {
    /// A legal move and the position it is played from.
    Move {
        before: Chess,
        m: Move,
    },
    Comment(Token),
    /// `$N`, `!`, `?!` ...
    Nag(Token),
    /// `+-`, `=`, `N` ...
    Glyph(Token),
    VariationStart,
    VariationEnd,
    /// The move that ends a line: what was written and why it cannot be played.
    Illegal {
        text: String,
        code: Code,
        message: String,
        main_line: bool,
    },
}

/// A line being replayed.
#[derive(Clone)]
struct Line {
    pos: Chess,
    history: History,
    /// The position (and history) before the last move: where a variation starts.
    before_last: Option<(Chess, History)>,
    /// An illegal move was met: the rest of this line (and its variations) is skipped.
    broken: bool,
}

impl Line {
    fn new(pos: Chess, history: History) -> Line {
        Line {
            pos,
            history,
            before_last: None,
            broken: false,
        }
    }
}

/// Replays every line of `raw` from `start`.
pub fn walk(raw: &RawGame, start: &Chess) -> Vec<Step> {
    let mut history = History::default();
    history.start(start);
    let mut lines = vec![Line::new(start.clone(), history)];
    // Nesting inside a broken line, whose variations are skipped with it.
    let mut skipped_depth = 0u32;
    let mut steps = Vec::new();
    for token in &raw.tokens {
        let main_line = lines.len() == 1;
        let Some(line) = lines.last_mut() else {
            break;
        };
        if line.broken {
            match token.kind {
                TokenKind::VariationStart => skipped_depth += 1,
                TokenKind::VariationEnd if skipped_depth > 0 => skipped_depth -= 1,
                TokenKind::VariationEnd if lines.len() > 1 => {
                    lines.pop();
                    steps.push(Step::VariationEnd);
                }
                _ => {}
            }
            continue;
        }
        match token.kind {
            TokenKind::Word => {
                if let Some(step) = play(raw, token, line, main_line) {
                    steps.push(step);
                }
            }
            TokenKind::Comment => steps.push(Step::Comment(*token)),
            TokenKind::Nag => steps.push(Step::Nag(*token)),
            TokenKind::Glyph => steps.push(Step::Glyph(*token)),
            TokenKind::VariationStart => {
                let (pos, history) = line
                    .before_last
                    .clone()
                    .unwrap_or_else(|| (line.pos.clone(), line.history.clone()));
                lines.push(Line::new(pos, history));
                steps.push(Step::VariationStart);
            }
            TokenKind::VariationEnd => {
                // A `)` with no `(` in the main line is ignored.
                if lines.len() > 1 {
                    lines.pop();
                    steps.push(Step::VariationEnd);
                }
            }
            TokenKind::MoveNumber | TokenKind::Result => {}
        }
    }
    // Variations left open at the end of the game are closed.
    while lines.len() > 1 {
        lines.pop();
        steps.push(Step::VariationEnd);
    }
    steps
}

/// Plays one move token on `line`, or marks the line broken and says why.
fn play(raw: &RawGame, token: &Token, line: &mut Line, main_line: bool) -> Option<Step> {
    let bytes = raw.token_text(token);
    let text = String::from_utf8_lossy(bytes).into_owned();
    let san_plus = SanPlus::from_ascii(bytes)
        .ok()
        .or_else(|| notation::read(&line.pos, bytes).map(|r| r.san_plus));
    let outcome = match san_plus {
        None => Err((Code::MoveSyntax, notation::why_not_a_move(bytes))),
        Some(san_plus) => san_plus.san.to_move(&line.pos).map_err(|err| match err {
            SanError::AmbiguousSan => (
                Code::MoveAmbiguous,
                diagnose::ambiguous(&line.pos, san_plus.san),
            ),
            SanError::IllegalSan => diagnose::illegal(&line.pos, san_plus.san, &line.history),
        }),
    };
    match outcome {
        Ok(m) => {
            let before = line.pos.clone();
            line.before_last = Some((before.clone(), line.history.clone()));
            line.history.record(&line.pos, m, line.history.plies + 1);
            line.pos.play_unchecked(m);
            Some(Step::Move { before, m })
        }
        Err((code, message)) => {
            line.broken = true;
            Some(Step::Illegal {
                text,
                code,
                message,
                main_line,
            })
        }
    }
}
