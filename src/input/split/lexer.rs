//! The movetext lexer: a line's tokens (moves, move numbers, NAGs, glyphs, comments,
//! variations, results) as spans into the game's bytes. `skip` follows the same bytes
//! past the size limit and must agree with it on where a game ends (`tests.rs`).

use crate::pgn::{InputProblem, InputProblemKind, Span, Token, TokenKind};

use super::assemble::push_limit;
use super::lines::{is_bom_at, line_end, next_game_on_line};
use super::scan::{DIGIT, GLYPH_START, SPACE, STOP, class, find_close, word_len};
use super::tags::parse_tag_line;
use super::{Builder, LexLine, Limits, Out};

/// Annotation symbols that are skipped like NAGs (SPEC.md).
pub(super) const GLYPHS: [&str; 15] = [
    "+-", "-+", "=", "+=", "=+", "±", "∓", "+/-", "-/+", "∞", "=/∞", "⩲", "⩱", "N", "D",
];

/// Where lexing a piece of a line left off: go on at a byte, or the line's tokenising
/// ends (the value `lex_movetext` returns).
enum Lexed {
    At(usize),
    End(usize),
}

/// Pushes a token of `line` (offsets in the line), unless a limit was hit.
#[inline(always)]
fn push(
    tokens: &mut Vec<Token>,
    limit_hit: bool,
    line: LexLine<'_>,
    kind: TokenKind,
    start: usize,
    stop: usize,
) {
    if !limit_hit {
        let (start, stop) = (line.base + start, line.base + stop);
        // A game's bytes stop at the size limit (`Limits`, 8 MiB), far below `u32::MAX`:
        // the casts cut nothing, where `Span::new`'s saturating conversions cost 4
        // instructions a token.
        debug_assert!(u32::try_from(stop).is_ok(), "a token ends at byte {stop}");
        tokens.push(Token {
            kind,
            number_follows: false,
            span: Span {
                start: start as u32,
                end: stop as u32,
            },
            line: line.offset,
        });
    }
}

/// A move number of `line` (offsets in the line): a token where the run keeps them
/// (`Limits::move_numbers`), else said by the token before it (`Token::number_follows`;
/// a number before the first token follows none, and nothing reads it there) and noted
/// for the game's end (`Builder::numbers`). Past a limit no token is kept, so the mark is
/// left on the last one kept, after which nothing is read: not tested for.
#[inline(always)]
fn push_move_number(
    st: &mut Builder,
    out: &mut Out<'_>,
    line: LexLine<'_>,
    start: usize,
    stop: usize,
) {
    if out.move_numbers {
        push(
            out.tokens,
            st.limit_hit,
            line,
            TokenKind::MoveNumber,
            start,
            stop,
        );
        return;
    }
    if let Some(last) = out.tokens.last_mut() {
        last.number_follows = true;
    }
    if !st.limit_hit {
        // As `push`: a game's bytes stop far below `u32::MAX`.
        let [_, last] = st.numbers;
        st.numbers = [last, ((line.base + stop) as u32, line.offset)];
    }
}

/// Tokenises the movetext of a line from `from`; returns where the line ends (just past its
/// `\n`, or at the end of the bytes).
pub(super) fn lex_movetext(
    st: &mut Builder,
    out: &mut Out<'_>,
    limits: &Limits,
    line: LexLine<'_>,
    from: usize,
) -> usize {
    let bytes = line.bytes;
    let mut i = from;
    if let Some(open) = st.open_comment {
        // A comment opened on an earlier line.
        match close_open_comment(st, out, line, i, open) {
            Lexed::At(at) => i = at,
            Lexed::End(end) => return end,
        }
    }
    loop {
        let Some(&c) = bytes.get(i) else {
            return bytes.len();
        };
        let cls = class(c);
        if cls & SPACE != 0 {
            if c == b'\n' {
                return i + 1;
            }
            i += 1;
            continue;
        }
        if c == 0xef && is_bom_at(bytes, i) {
            i += 3;
            continue;
        }
        st.has_movetext = true;
        let lexed = if cls & STOP == 0 {
            lex_word(st, out, line, i, c, cls)
        } else {
            lex_mark(st, out, limits, line, i, c)
        };
        match lexed {
            Lexed::At(at) => i = at,
            Lexed::End(end) => return end,
        }
    }
}

/// The rest of a comment opened on an earlier line (`open`: where it starts and its line).
#[inline(always)]
fn close_open_comment(
    st: &mut Builder,
    out: &mut Out<'_>,
    line: LexLine<'_>,
    i: usize,
    (comment_start, comment_line): (u32, u32),
) -> Lexed {
    let bytes = line.bytes;
    let base = line.base;
    let rest = bytes.get(i..).unwrap_or_default();
    let close = match find_close(rest) {
        Some((close, b'}')) => close,
        Some((newline, _)) => return Lexed::End(i + newline + 1),
        None => return Lexed::End(bytes.len()),
    };
    let stop = i + close + 1;
    if !st.limit_hit {
        out.tokens.push(Token {
            kind: TokenKind::Comment,
            number_follows: false,
            span: Span {
                start: comment_start,
                end: Span::new(base, base + stop).end,
            },
            line: comment_line,
        });
    }
    st.open_comment = None;
    Lexed::At(stop)
}

/// A word at `i`: a move, a move number, a result or a glyph.
#[inline(always)]
fn lex_word(
    st: &mut Builder,
    out: &mut Out<'_>,
    line: LexLine<'_>,
    mut i: usize,
    c: u8,
    cls: u8,
) -> Lexed {
    let bytes = line.bytes;
    // A word: a move, a move number, a result or a glyph.
    let rest = bytes.get(i..).unwrap_or_default();
    // A move number (`12.`, `12...`, glued `1.e4`) before the word's end is looked for:
    // digits and periods never end a word, so they are the same bytes as in the word, and
    // a third of the words are move numbers.
    if cls & DIGIT != 0 {
        // `c` is the first digit; the class table's digits are the ASCII ones.
        let mut end = i + 1;
        while bytes.get(end).is_some_and(u8::is_ascii_digit) {
            end += 1;
        }
        if bytes.get(end) == Some(&b'.') {
            return move_number(st, out, line, i, end);
        }
    }
    let len = word_len(rest);
    // Cut from `rest` directly: a `Span` would convert both ends to u32 and back, for
    // every word of the movetext.
    let word = rest.get(..len).unwrap_or_default();
    // The common case first: a move (a word that starts with a letter and is no glyph,
    // `N` and `D` alone being glyphs), with no marker glued to it.
    let letter = cls & (DIGIT | GLYPH_START) == 0 && c != b'.';
    if (letter || (matches!(c, b'N' | b'D') && len > 1)) && (len < 5 || !may_end_in_marker(word)) {
        push(out.tokens, st.limit_hit, line, TokenKind::Word, i, i + len);
        return Lexed::At(past_one_space(bytes, i + len));
    }
    let kind = if cls & DIGIT != 0 {
        // Digits followed by a period were a move number (above).
        let digits = word
            .iter()
            .position(|&b| class(b) & DIGIT == 0)
            .unwrap_or(len);
        match word {
            b"1-0" | b"0-1" | b"1/2-1/2" => TokenKind::Result,
            _ if digits == len => TokenKind::MoveNumber,
            // `1/2`, `1–0`: a marker written loosely (`result.notation`).
            _ if marker_len(word, false) == Some(len) => TokenKind::Result,
            _ => TokenKind::Word,
        }
    } else if cls & GLYPH_START != 0 {
        classify_word(word)
    } else if c == b'.' {
        // Periods standing alone belong to a move number (`1 ... e5`, `2 . Nf3`);
        // glued to the move (`...Nf6`) they are split off.
        let dots = word.iter().take_while(|&&b| b == b'.').count();
        push_move_number(st, out, line, i, i + dots);
        return Lexed::At(i + dots);
    } else {
        TokenKind::Word
    };
    // The shortest move with a glued marker is `e41-0`: shorter words are passed.
    let glued =
        if len >= 5 && kind == TokenKind::Word && cls & DIGIT == 0 && may_end_in_marker(word) {
            marker_len(word, true).filter(|&marker| marker < len)
        } else {
            None
        };
    let (kind, len) = match glued {
        // `Qh4#0-1`: the move, then the marker glued to it.
        Some(marker) => {
            push(out.tokens, st.limit_hit, line, kind, i, i + len - marker);
            i += len - marker;
            (TokenKind::Result, marker)
        }
        None => (kind, len),
    };
    if kind == TokenKind::MoveNumber {
        push_move_number(st, out, line, i, i + len);
    } else {
        push(out.tokens, st.limit_hit, line, kind, i, i + len);
    }
    i += len;
    if kind == TokenKind::Result && st.depth == 0 {
        st.finished = true;
        if let Some(next) = next_game_after_marker(line, i) {
            return Lexed::End(next);
        }
    }
    Lexed::At(i)
}

/// The move number at `i`: its digits, then the periods from `dot` on. One glued to its
/// move (`1.e4`, `12...Nf6`) is split off.
#[inline(always)]
fn move_number(
    st: &mut Builder,
    out: &mut Out<'_>,
    line: LexLine<'_>,
    i: usize,
    dot: usize,
) -> Lexed {
    let bytes = line.bytes;
    let mut stop = dot + 1;
    while bytes.get(stop) == Some(&b'.') {
        stop += 1;
    }
    push_move_number(st, out, line, i, stop);
    Lexed::At(past_one_space(bytes, stop))
}

/// Where lexing goes on after a move or a move number that ends at `at`: past the one
/// space that most often follows it (`1. e4 e5`), which the loop would pass over anyway at
/// the cost of a turn of its own; a line end, other white space or anything else is
/// left to the loop.
#[inline(always)]
fn past_one_space(bytes: &[u8], at: usize) -> usize {
    if bytes.get(at) == Some(&b' ') {
        at + 1
    } else {
        at
    }
}

/// A byte that stops words at `i`: a comment or a variation (`lex_group`), a NAG, a
/// glyph sign, `*`, a `[`, a stray `}` or a DOS end-of-file byte.
#[inline(always)]
fn lex_mark(
    st: &mut Builder,
    out: &mut Out<'_>,
    limits: &Limits,
    line: LexLine<'_>,
    mut i: usize,
    c: u8,
) -> Lexed {
    let bytes = line.bytes;
    match c {
        b'{' | b';' | b'(' | b')' => return lex_group(st, out, limits, line, i, c),
        b'$' => {
            let digits = bytes
                .get(i + 1..)
                .unwrap_or_default()
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            let kind = if digits > 0 {
                if i > 0 && bytes.get(i - 1) == Some(&b'\\') {
                    unescape_nag(out, line, i);
                }
                TokenKind::Nag
            } else {
                TokenKind::Word
            };
            push(out.tokens, st.limit_hit, line, kind, i, i + 1 + digits);
            i += 1 + digits;
        }
        b'!' | b'?' => {
            let mut j = i + 1;
            if matches!(bytes.get(j), Some(b'!' | b'?')) {
                j += 1;
            }
            push(out.tokens, st.limit_hit, line, TokenKind::Nag, i, j);
            i = j;
        }
        b'*' => {
            push(out.tokens, st.limit_hit, line, TokenKind::Result, i, i + 1);
            i += 1;
            if st.depth == 0 {
                st.finished = true;
                if let Some(next) = next_game_after_marker(line, i) {
                    return Lexed::End(next);
                }
            }
        }
        b'[' if bytes.get(i + 1) == Some(&b'/') => {
            // `[/pgn]`, a forum wrapper's end: skipped as a bad tag line.
            match parse_tag_line(out, line, i) {
                Ok(movetext_start) => i = movetext_start,
                Err(end) => return Lexed::End(end),
            }
        }
        0x1a => {
            i = take_eof_bytes(st, line, i);
            if st.finished
                && let Some(next) = next_game_after_marker(line, i)
            {
                return Lexed::End(next);
            }
        }
        b'}' => {
            // A `}` that closes no comment: ignored (`input.unbalanced-brace`).
            let (count, first_line) = st.unmatched_brace;
            let first_line = if count == 0 { line.offset } else { first_line };
            st.unmatched_brace = (count.saturating_add(1), first_line);
            i += 1;
        }
        _ => {
            // A `[` in movetext.
            push(out.tokens, st.limit_hit, line, TokenKind::Word, i, i + 1);
            i += 1;
        }
    }
    Lexed::At(i)
}

/// `\$14`, as lichess study exports write a NAG: the backslash before the NAG at `i`,
/// lexed as a word of its own, is dropped (`input.escaped-nag`).
#[cold]
#[inline(never)]
fn unescape_nag(out: &mut Out<'_>, line: LexLine<'_>, i: usize) {
    let Some(last) = out.tokens.last() else {
        return;
    };
    let backslash = Span::new((line.base + i).saturating_sub(1), line.base + i);
    if last.kind != TokenKind::Word
        || last.span != backslash
        || line.bytes.get(i.wrapping_sub(1)) != Some(&b'\\')
    {
        return;
    }
    out.tokens.pop();
    // One finding a game says it; the first line is enough to find them.
    if out
        .problems
        .iter()
        .any(|p| p.kind == InputProblemKind::EscapedNag)
    {
        return;
    }
    out.problems.push(InputProblem {
        kind: InputProblemKind::EscapedNag,
        line: line.offset,
        detail: "a NAG written with a backslash (`\\$`) was read as the NAG".to_string(),
    });
}

/// A comment (`{...}`, `;` to the line's end) or a variation's bracket at `i`.
#[inline(always)]
fn lex_group(
    st: &mut Builder,
    out: &mut Out<'_>,
    limits: &Limits,
    line: LexLine<'_>,
    mut i: usize,
    c: u8,
) -> Lexed {
    let bytes = line.bytes;
    let base = line.base;
    match c {
        b'{' => {
            let rest = bytes.get(i + 1..).unwrap_or_default();
            let close = match find_close(rest) {
                Some((close, b'}')) => close,
                found => {
                    // The comment goes on on the next lines.
                    st.open_comment = Some((Span::new(base, base + i).end, line.offset));
                    return Lexed::End(
                        found.map_or(bytes.len(), |(newline, _)| i + 1 + newline + 1),
                    );
                }
            };
            let stop = i + 1 + close + 1;
            push(out.tokens, st.limit_hit, line, TokenKind::Comment, i, stop);
            i = stop;
        }
        b';' => {
            let end = line_end(bytes, i);
            let mut stop = end;
            while stop > i
                && bytes
                    .get(stop - 1)
                    .is_some_and(|&b| b == b'\n' || b == b'\r')
            {
                stop -= 1;
            }
            push(out.tokens, st.limit_hit, line, TokenKind::Comment, i, stop);
            return Lexed::End(end);
        }
        b'(' => {
            st.depth += 1;
            if st.depth > limits.max_depth {
                let detail = format!(
                    "variations are nested deeper than {} levels",
                    limits.max_depth
                );
                push_limit(&mut st.limit_hit, out.problems, line.offset, detail);
            }
            push(
                out.tokens,
                st.limit_hit,
                line,
                TokenKind::VariationStart,
                i,
                i + 1,
            );
            i += 1;
        }
        b')' => {
            push(
                out.tokens,
                st.limit_hit,
                line,
                TokenKind::VariationEnd,
                i,
                i + 1,
            );
            if st.depth == 0 {
                let (count, first_line) = st.unmatched_close;
                let first_line = if count == 0 { line.offset } else { first_line };
                st.unmatched_close = (count.saturating_add(1), first_line);
            }
            st.depth = st.depth.saturating_sub(1);
            i += 1;
        }
        _ => {}
    }
    Lexed::At(i)
}

/// DOS end-of-file bytes inside a line (`1-0\x1a`, glued to the last marker): stray bytes
/// (`input.stray-bytes`), silent at the very end of the input only when nothing but white
/// space follows them on the line (`finish_current`). Returns where they end.
#[cold]
#[inline(never)]
fn take_eof_bytes(st: &mut Builder, line: LexLine<'_>, at: usize) -> usize {
    let bytes = line.bytes;
    let mut end = at;
    while bytes.get(end) == Some(&0x1a) {
        end += 1;
    }
    let rest = bytes.get(end..line_end(bytes, end)).unwrap_or_default();
    let eof_only = rest.iter().all(|&b| class(b) & SPACE != 0);
    st.note_stray(line.offset, eof_only);
    end
}

/// Where the next game starts on the line of the termination marker that ended a game,
/// just before `from` (`next_game_on_line`); never on a line cut at the size limit, whose
/// rest is followed by `Skip`.
pub(super) fn next_game_after_marker(line: LexLine<'_>, from: usize) -> Option<usize> {
    if line.cut {
        return None;
    }
    next_game_on_line(line.bytes, from)
}

/// A cheap first look that rules out nearly every move before the glyph list is searched:
/// glyphs are at most 5 bytes, and the letter ones (`N`, `D`) are one byte.
pub(super) fn could_be_glyph(word: &[u8]) -> bool {
    match word {
        [b'N' | b'D'] => true,
        [first, ..] if word.len() <= 5 => matches!(first, b'+' | b'-' | b'=' | 0xc2 | 0xe2),
        _ => false,
    }
}

/// The termination markers as written loosely too: `1/2`, `½-½` and an en dash for the
/// hyphen (`result.notation`).
const MARKERS: [&str; 9] = [
    "1-0",
    "0-1",
    "1/2-1/2",
    "½-½",
    "1/2",
    "1–0",
    "0–1",
    "1/2–1/2",
    "½–½",
];

/// The length of the termination marker that `word` ends with: the whole word, or with
/// `glued`, a marker glued to a move before it (`Qh4#0-1`, `R8xg20-1`: a rank is one
/// digit and a check sign ends a SAN, so the move, of two bytes at least, ends in one of
/// those; `1/2` is never read glued). `Skip` asks the same of the bytes it follows.
#[cold]
pub(in crate::input) fn marker_len(word: &[u8], glued: bool) -> Option<usize> {
    if !may_end_in_marker(word) {
        return None;
    }
    MARKERS.iter().map(|m| m.as_bytes()).find_map(|marker| {
        let rest = word.strip_suffix(marker)?;
        let glues = glued
            && marker != b"1/2"
            && rest.len() >= 2
            && matches!(rest.last(), Some(b'1'..=b'8' | b'+' | b'#'));
        (rest.is_empty() || glues).then_some(marker.len())
    })
}

/// Every marker ends in `-0`, `-1`, `/2`, `–0`, `–1` or `½` (`0xc2 0xbd`), which no
/// move does: the one test most words get, on their last byte (most moves end in a rank
/// other than 1 or 2).
#[inline(always)]
pub(in crate::input) fn may_end_in_marker(word: &[u8]) -> bool {
    match word {
        [.., before, last @ (b'0' | b'1' | b'2' | 0xbd)] => matches!(
            (before, last),
            (b'-' | 0x93, b'0' | b'1') | (b'/', b'2') | (0xc2, 0xbd)
        ),
        _ => false,
    }
}

/// The kind of a word that starts like a glyph or `½-½` (not with a digit).
pub(super) fn classify_word(word: &[u8]) -> TokenKind {
    // The markers that start like a glyph start with `½`.
    if word.first() == Some(&0xc2) && marker_len(word, false) == Some(word.len()) {
        return TokenKind::Result;
    }
    if could_be_glyph(word) && GLYPHS.iter().any(|g| g.as_bytes() == word) {
        return TokenKind::Glyph;
    }
    TokenKind::Word
}
