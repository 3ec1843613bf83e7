//! The whole movetext of a game, variations included, replayed: each variation from the
//! position before the move it replaces. A line stops at its first illegal move, which
//! is named with the same code and message `validate` gives. `convert` writes these steps
//! out; `validate --variations` turns the variations' steps into findings.

use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};

use crate::pgn::{RawGame, Span, Token, TokenKind};
use crate::rules::findings::Code;
use crate::rules::replay::history::History;
use crate::rules::replay::read::move_before_sign;
use crate::rules::replay::{ReplayOptions, TokenRead, read_move, taken_in};

/// One step of the movetext, in input order.
#[derive(Debug, Clone)]
pub enum WalkStep {
    /// A legal move, the position it is played from, its 1-based ply from the game's
    /// start, its token, and why its notation is not standard SAN (when it is not).
    Move {
        before: Chess,
        m: Move,
        ply: u32,
        token: usize,
        why: Option<String>,
    },
    /// A null move (`--`, `Z0`) inside a variation: analysis passes the turn ("what if it
    /// were the other side's move"), allowed unless the side to move is in check.
    Pass {
        before: Chess,
        token: usize,
    },
    Comment(Token),
    /// `$N`, `!`, `?!` ...
    Nag(Token),
    /// `+-`, `=`, `N` ...
    Glyph(Token),
    VariationStart,
    VariationEnd,
    /// The move that ends a line: what was written, why it cannot be played, where.
    Illegal {
        text: String,
        code: Code,
        message: String,
        main_line: bool,
        before: Chess,
        ply: u32,
        token: usize,
    },
}

/// A line being replayed.
#[derive(Clone)]
struct WalkLine {
    pos: Chess,
    history: History,
    /// The position (and history) before the last move: where a variation starts.
    before_last: Option<(Chess, History)>,
    /// An illegal move was met: the rest of this line (and its variations) is skipped.
    broken: bool,
    /// Plies played from the game's start to `pos`.
    plies: u32,
    /// The token of the last move played on this line.
    last_token: Option<usize>,
}

impl WalkLine {
    fn new(pos: Chess, history: History) -> WalkLine {
        WalkLine {
            pos,
            history,
            before_last: None,
            broken: false,
            plies: 0,
            last_token: None,
        }
    }
}

/// Replays every line of `raw` from `start`, reading each move as `validate` does. The
/// steps come one at a time: a game of a million moves in variations is not held as a
/// million positions.
pub fn walk<'a>(raw: &'a RawGame, start: &Chess, options: &'a ReplayOptions) -> Walk<'a> {
    walk_known(raw, start, options, &[])
}

/// As [`walk`], with the main line's first moves already known (the moves the replay
/// played, in order): they are taken as they are instead of read a second time (their
/// `why` left `None`). The
/// variations, and the main line past them, are read as `walk` reads them.
pub fn walk_known<'a>(
    raw: &'a RawGame,
    start: &Chess,
    options: &'a ReplayOptions,
    known: &'a [Move],
) -> Walk<'a> {
    let mut history = History::default();
    history.start(start);
    Walk {
        raw,
        options,
        lines: vec![WalkLine::new(start.clone(), history)],
        known,
        skipped_depth: 0,
        taken_in: 0,
        index: 0,
    }
}

/// The steps of `walk`, in input order.
pub struct Walk<'a> {
    raw: &'a RawGame,
    options: &'a ReplayOptions,
    /// The main line, then each open variation.
    lines: Vec<WalkLine>,
    /// The main line's moves the replay already played (ply 1 first).
    known: &'a [Move],
    /// Nesting inside a broken line, whose variations are skipped with it.
    skipped_depth: u32,
    /// Tokens taken in by the move before them (`e8 (Q)`, `exd6 e.p.`).
    taken_in: usize,
    /// The next token.
    index: usize,
}

impl Iterator for Walk<'_> {
    type Item = WalkStep;

    fn next(&mut self) -> Option<WalkStep> {
        let raw = self.raw;
        while let Some(token) = raw.tokens.get(self.index) {
            let index = self.index;
            self.index += 1;
            if self.taken_in > 0 {
                self.taken_in -= 1;
                continue;
            }
            let main_line = self.lines.len() == 1;
            let line = self.lines.last_mut()?;
            if line.broken {
                match token.kind {
                    TokenKind::VariationStart => self.skipped_depth += 1,
                    TokenKind::VariationEnd if self.skipped_depth > 0 => self.skipped_depth -= 1,
                    TokenKind::VariationEnd if self.lines.len() > 1 => {
                        self.lines.pop();
                        return Some(WalkStep::VariationEnd);
                    }
                    _ => {}
                }
                continue;
            }
            match token.kind {
                TokenKind::Word => {
                    // `Bxc6 +`: a check sign apart from the move just played belongs to it.
                    // Annotations may stand between (`Bc4 ! +`, `exd6 e.p. +`).
                    if matches!(raw.token_text(token), [b'+' | b'#'])
                        && let Some(before) = move_before_sign(raw, index)
                        && line.last_token == Some(before)
                        && raw
                            .tokens
                            .get(before)
                            .is_some_and(|t| !matches!(raw.token_text(t).last(), Some(b'+' | b'#')))
                    {
                        continue;
                    }
                    if !main_line && let Some(step) = pass_in_analysis(raw, index, line) {
                        return Some(step);
                    }
                    // The main line's ply `plies + 1` is `known[plies]`, when the replay got there.
                    let known = if main_line {
                        self.known.get(line.plies as usize).copied()
                    } else {
                        None
                    };
                    let (step, extra) = play(raw, index, line, main_line, known, self.options);
                    self.taken_in = extra;
                    return Some(step);
                }
                TokenKind::Comment => return Some(WalkStep::Comment(*token)),
                TokenKind::Nag => return Some(WalkStep::Nag(*token)),
                TokenKind::Glyph => return Some(WalkStep::Glyph(*token)),
                TokenKind::VariationStart => {
                    let (pos, history) = line
                        .before_last
                        .clone()
                        .unwrap_or_else(|| (line.pos.clone(), line.history.clone()));
                    let plies = if line.before_last.is_some() {
                        line.plies.saturating_sub(1)
                    } else {
                        line.plies
                    };
                    let mut variation = WalkLine::new(pos, history);
                    variation.plies = plies;
                    self.lines.push(variation);
                    return Some(WalkStep::VariationStart);
                }
                TokenKind::VariationEnd => {
                    // A `)` with no `(` in the main line is ignored.
                    if self.lines.len() > 1 {
                        self.lines.pop();
                        return Some(WalkStep::VariationEnd);
                    }
                }
                TokenKind::MoveNumber | TokenKind::Result => {}
            }
        }
        // Variations left open at the end of the game are closed.
        if self.lines.len() > 1 {
            self.lines.pop();
            return Some(WalkStep::VariationEnd);
        }
        None
    }
}

/// Plays the move token at `index` on `line` (`known`, the move it was already read as,
/// when there is one), or marks the line broken and says why; also returns how many
/// following tokens the move took in.
fn play(
    raw: &RawGame,
    index: usize,
    line: &mut WalkLine,
    main_line: bool,
    known: Option<Move>,
    options: &ReplayOptions,
) -> (WalkStep, usize) {
    let (read, extra) = match known {
        // Nobody downstream reads `why` of a known move: convert writes standard SAN.
        Some(m) => (
            TokenRead::Move {
                m,
                suffix: None,
                why: None,
            },
            taken_in(raw, index),
        ),
        None => read_move(&line.pos, || line.history.clone(), raw, index, options),
    };
    let step = match read {
        TokenRead::Move { m, why, .. } => {
            let before = line.pos.clone();
            // Kept (a copy of the history: 2 KB) only where a variation may start from it.
            line.before_last = variation_may_follow(raw, index + 1 + extra)
                .then(|| (before.clone(), line.history.clone()));
            let ply = line.plies + 1;
            let span = raw.tokens.get(index).map_or(Span::default(), |t| t.span);
            line.history.record(&line.pos, m, ply, span);
            line.pos.play_unchecked(m);
            line.history.cross_check(&line.pos);
            line.plies = ply;
            line.last_token = Some(index);
            WalkStep::Move {
                before,
                m,
                ply,
                token: index,
                why,
            }
        }
        TokenRead::Fail { code, message } => {
            line.broken = true;
            // Decoded only here: a legal move's text is not needed.
            let text = raw
                .tokens
                .get(index)
                .map(|t| options.decoder.decode(raw.token_text(t)).into_owned())
                .unwrap_or_default();
            let message = if !main_line && matches!(San::from_ascii(text.as_bytes()), Ok(San::Null))
            {
                // A null move in a variation fails only out of check.
                "a null move (`--`, `Z0`) passes the turn in analysis, but not out of check"
                    .to_string()
            } else {
                message
            };
            WalkStep::Illegal {
                text,
                code,
                message,
                main_line,
                before: line.pos.clone(),
                ply: line.plies + 1,
                token: index,
            }
        }
    };
    (step, extra)
}

/// Whether a `(` may come before the next move from token `next` on: then the variation
/// starts from the position before the move just played. Only comments, NAGs, glyphs,
/// move numbers and markers are looked past; anything else but a move says yes.
fn variation_may_follow(raw: &RawGame, next: usize) -> bool {
    for token in raw.tokens.iter().skip(next) {
        match token.kind {
            TokenKind::Comment
            | TokenKind::Nag
            | TokenKind::Glyph
            | TokenKind::MoveNumber
            | TokenKind::Result => {}
            // A check sign apart (`Bxc6 +`) belongs to the move just played.
            TokenKind::Word => return matches!(raw.token_text(token), [b'+' | b'#']),
            TokenKind::VariationStart | TokenKind::VariationEnd => return true,
        }
    }
    false
}

/// A null move in a variation passes the turn, unless the side to move is in check.
fn pass_in_analysis(raw: &RawGame, index: usize, line: &mut WalkLine) -> Option<WalkStep> {
    let text = raw.tokens.get(index).map(|t| raw.token_text(t))?;
    if !matches!(San::from_ascii(text), Ok(San::Null)) || line.pos.is_check() {
        return None;
    }
    let passed = passed_turn(&line.pos)?;
    let before = std::mem::replace(&mut line.pos, passed);
    line.before_last = Some((before.clone(), line.history.clone()));
    line.plies += 1;
    Some(WalkStep::Pass {
        before,
        token: index,
    })
}

/// The position with the other side to move, the clocks advanced as after a move (a
/// null move by Black completes a move number).
fn passed_turn(pos: &Chess) -> Option<Chess> {
    let mut setup = pos.to_setup(EnPassantMode::Legal);
    setup.turn = !setup.turn;
    setup.ep_square = None;
    setup.halfmoves = setup.halfmoves.saturating_add(1);
    if setup.turn.is_white() {
        setup.fullmoves = setup.fullmoves.saturating_add(1);
    }
    let mode = CastlingMode::detect(&setup);
    setup.position(mode).ok()
}
