//! A game's end: completing the game being assembled with the problems only its end can
//! tell (a comment or variation left open, a game cut off, stray bytes), and the lines
//! after it that belong to no game.

use crate::pgn::{InputProblem, InputProblemKind, RawGame, Span, Token, TokenKind};

use super::lines::{closer_line, first_significant, is_between_games, stray_line};
use super::skip::Skip;
use super::spares::shrink_large;
use super::{Builder, State};

impl State {
    /// Completes the current game (if it holds anything) and numbers it.
    pub(super) fn finish_current(&mut self, at_eof: bool) -> Option<RawGame> {
        let b = std::mem::take(&mut self.current);
        self.skip = Skip::default();
        self.head = 0;
        let mut game = self.game.take()?;
        if !b.has_tags && !b.has_movetext && game.problems.is_empty() {
            return None; // only blank or escape lines
        }
        // A comment left open past the size limit is not reported: the limit says it all.
        if let Some((start, line)) = b.open_comment.filter(|_| !b.overflow) {
            let end = u32::try_from(game.bytes.len()).unwrap_or(u32::MAX);
            if !b.limit_hit {
                game.tokens.push(Token {
                    kind: TokenKind::Comment,
                    number_follows: false,
                    span: Span { start, end },
                    line,
                });
            }
            game.problems.push(InputProblem {
                kind: InputProblemKind::UnterminatedComment,
                line,
                detail: "a `{` comment is never closed; the moves before it are kept".to_string(),
            });
        } else if at_eof && !b.finished && !b.overflow {
            // Where the input ends: the last token's line, or the last tag's.
            let line = last_token_line(&b, &game).max(game.tags.last().map(|t| t.line));
            let line = line.unwrap_or(0);
            game.problems.push(InputProblem {
                kind: InputProblemKind::Truncated,
                line,
                detail: "the input ends inside this game (no termination marker)".to_string(),
            });
        }
        unbalanced_parentheses(&b, &mut game);
        // Only `0x1A` at the very end (no token after it, `1-0\x1a` too) says nothing.
        let last_token_line = last_token_line(&b, &game);
        let stray_after = b
            .stray
            .filter(|&(_, last, eof_only, _)| {
                !(at_eof && eof_only && last_token_line.is_none_or(|line| line <= last))
            })
            .map(|(first, last, _, inside)| {
                let line = |offset: u32| game.line + u64::from(offset);
                (first, line(first), line(last), inside)
            });
        let lines = |first: u64, last: u64| {
            if first == last {
                format!("line {first}")
            } else {
                format!("lines {first}-{last}")
            }
        };
        // Before the first game the message must name the lines (it starts at the game's).
        let stray_before = self
            .stray_before
            .take()
            .map(|(first, last)| (0, format!("before this game, on {}", lines(first, last))));
        let stray_after = stray_after.map(|(offset, first, last, inside)| {
            let upto = if first == last {
                String::new()
            } else {
                format!(", to line {last}")
            };
            let place = if inside {
                "in this game"
            } else {
                "after this game"
            };
            (offset, format!("{place}{upto}"))
        });
        for (offset, place) in stray_before.into_iter().chain(stray_after) {
            game.problems.push(InputProblem {
                kind: InputProblemKind::StrayBytes,
                line: offset,
                detail: format!(
                    "stray bytes {place} (no PGN text: control characters, 0xFF, ...); skipped"
                ),
            });
        }
        trim_between_games(&mut game);
        game.index = self.next_index;
        self.next_index += 1;
        self.size_hint = (game.bytes.len(), game.tags.len(), game.tokens.len());
        shrink_large(&mut game);
        Some(game)
    }
}

/// The line offset of the game's last token, a move number that is no token counted as
/// one (`Builder::numbers`), so that a game ends where it ends whether numbers are kept.
fn last_token_line(b: &Builder, game: &RawGame) -> Option<u32> {
    let token = game.tokens.last().map(|t| (t.span.end, t.line));
    let [_, number] = b.numbers;
    let number = Some(number).filter(|&(end, _)| end > 0);
    token.max(number).map(|(_, line)| line)
}

/// Drops the lines at the end of a game's bytes that belong to no game: blank lines,
/// escape lines and `;` comment lines after its last tag or token.
fn trim_between_games(game: &mut RawGame) {
    let last_token = game.tokens.last().map_or(0, |t| t.span.end as usize);
    let last_tag = game.tags.last().map_or(0, |t| t.value.end as usize);
    let keep = last_token.max(last_tag);
    let mut end = game.bytes.len();
    while end > keep {
        let before = game.bytes.get(..end - 1).unwrap_or_default();
        let start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
        let line = Span::new(start, end).of(&game.bytes);
        let spare = || {
            is_between_games(line)
                || stray_line(line).is_some()
                || closer_line(line, first_significant(line))
        };
        if start < keep || !spare() {
            break;
        }
        end = start;
    }
    game.bytes.truncate(end);
}

/// Reports `)` that closed no variation, `}` that closed no comment and, in a game read
/// whole, variations never closed: the replay passes over them, so that no token goes
/// unaccounted for.
fn unbalanced_parentheses(b: &Builder, game: &mut RawGame) {
    let closers = [
        (
            b.unmatched_close,
            InputProblemKind::UnbalancedParenthesis,
            "`)`",
            "variation",
        ),
        (
            b.unmatched_brace,
            InputProblemKind::UnbalancedBrace,
            "`}`",
            "comment",
        ),
    ];
    for ((count, line), kind, closer, what) in closers {
        if count > 0 {
            let detail = if count == 1 {
                format!("a {closer} closes no {what}; it is ignored")
            } else {
                format!("{count} {closer} close no {what}; they are ignored")
            };
            game.problems.push(InputProblem { kind, line, detail });
        }
    }
    if b.depth > 0 && !b.limit_hit && !b.overflow {
        let line = last_token_line(b, game).unwrap_or(0);
        let detail = if b.depth == 1 {
            "a variation `(` is never closed; it is closed at the end of the game".to_string()
        } else {
            format!(
                "{} variations `(` are never closed; they are closed at the end of the game",
                b.depth
            )
        };
        game.problems.push(InputProblem {
            kind: InputProblemKind::UnbalancedParenthesis,
            line,
            detail,
        });
    }
}
