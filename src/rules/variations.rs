//! `validate --variations`: every variation is replayed from the position before the move
//! it replaces, and its defects are reported without stopping the main line.

use shakmaty::san::San;
use shakmaty::{Chess, Position};

use super::finding::{Code, Finding};
use super::history::History;
use super::replay::{Read, ReplayOptions, fen_of, move_label, read_move};
use crate::input::{RawGame, TokenKind};

/// One line being replayed: the main line or a variation.
struct Line {
    pos: Chess,
    history: History,
    /// The position and history before the last move of this line (where a variation
    /// that replaces it starts).
    before_last: Option<(Chess, History)>,
    /// Plies from the game's start to `pos`.
    plies: u32,
    /// The label of the variation's first move, `12... Nf6`.
    first: Option<String>,
    /// An error stopped this line (its variations are not checked either).
    stopped: bool,
}

/// The findings inside the variations of one game (the main line is the replay's job).
pub fn check(
    raw: &RawGame,
    start: &Chess,
    start_history: &History,
    options: &ReplayOptions,
) -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut lines = vec![Line {
        pos: start.clone(),
        history: start_history.clone(),
        before_last: None,
        plies: 0,
        first: None,
        stopped: false,
    }];
    let mut index = 0;
    while let Some(token) = raw.tokens.get(index) {
        match token.kind {
            TokenKind::VariationStart => {
                let child = match lines.last() {
                    Some(Line {
                        before_last: Some((pos, history)),
                        plies,
                        stopped: false,
                        ..
                    }) => Line {
                        pos: pos.clone(),
                        history: history.clone(),
                        before_last: None,
                        plies: plies.saturating_sub(1),
                        first: None,
                        stopped: false,
                    },
                    _ => Line {
                        pos: Chess::default(),
                        history: History::default(),
                        before_last: None,
                        plies: 0,
                        first: None,
                        stopped: true,
                    },
                };
                lines.push(child);
            }
            TokenKind::VariationEnd if lines.len() > 1 => {
                lines.pop();
            }
            TokenKind::Word => {
                let in_variation = lines.len() > 1;
                if let Some(line) = lines.last_mut()
                    && !line.stopped
                {
                    if in_variation && pass_in_analysis(line, raw.token_text(token)) {
                        index += 1;
                        continue;
                    }
                    let (read, extra) = read_move(&line.pos, &line.history, raw, index, options);
                    let text = String::from_utf8_lossy(raw.token_text(token)).into_owned();
                    let label = move_label(&line.pos, &text);
                    let finding = |code: Code, message: String, line: &Line| Finding {
                        code,
                        ply: line.plies + 1,
                        move_text: match &line.first {
                            Some(first) => format!("({first} ...) {label}"),
                            None => format!("({label} ...)"),
                        },
                        san: text.clone(),
                        message: format!("in a variation: {message}"),
                        fen: fen_of(&line.pos),
                        move_line: raw.token_line(token),
                    };
                    match read {
                        Read::Move { m, why, .. } => {
                            if in_variation && let Some(why) = why {
                                let standard = San::from_move(&line.pos, m).to_string();
                                findings.push(finding(
                                    Code::SanNotation,
                                    format!("read as {standard} ({why})"),
                                    line,
                                ));
                            }
                            if line.first.is_none() && in_variation {
                                line.first = Some(label.clone());
                            }
                            line.before_last = Some((line.pos.clone(), line.history.clone()));
                            line.plies += 1;
                            line.history
                                .record(&line.pos, m, line.plies, (token.start, token.end));
                            line.pos.play_unchecked(m);
                            line.history.cross_check(&line.pos);
                        }
                        Read::Fail { code, message } => {
                            if in_variation {
                                // A null move here failed only because of the check.
                                let message = if matches!(
                                    San::from_ascii(text.as_bytes()),
                                    Ok(San::Null)
                                ) {
                                    "a null move (`--`, `Z0`) passes the turn in analysis, but not out of check".to_string()
                                } else {
                                    message
                                };
                                findings.push(finding(code, message, line));
                            }
                            line.stopped = true;
                        }
                    }
                    index += extra;
                }
            }
            _ => {}
        }
        index += 1;
    }
    findings
}

/// A null move (`--`, `Z0`) inside a variation is analysis ("what if it were the other
/// side's turn"): it passes the turn, unless the side to move is in check.
fn pass_in_analysis(line: &mut Line, text: &[u8]) -> bool {
    if !matches!(San::from_ascii(text), Ok(San::Null)) || line.pos.is_check() {
        return false;
    }
    let Ok(passed) = line.pos.clone().swap_turn() else {
        return false;
    };
    line.before_last = Some((line.pos.clone(), line.history.clone()));
    line.pos = passed;
    line.plies += 1;
    true
}
