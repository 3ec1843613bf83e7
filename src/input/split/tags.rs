//! Tag pairs: `[Name "value"]` read as spans into the line, and a tag pair that is not
//! well formed read as well as it can be, with what was wrong with it.

use crate::pgn::{InputProblem, InputProblemKind, RawTag, Span, TextDecoder};

use super::lines::{first_significant, line_end};
use super::scan::{NAME_CHAR, NAME_END, bytes_equal, class, is_space};
use super::{LexLine, Out};

/// Parses the tag pairs of a line from `start` (a `[`). Returns where movetext continues
/// on the same line if anything follows the last `]`, else where the line ends.
pub(super) fn parse_tag_line(
    out: &mut Out<'_>,
    line: LexLine<'_>,
    start: usize,
) -> Result<usize, usize> {
    let bytes = line.bytes;
    let mut i = start;
    loop {
        let (tag, next) = match parse_one_tag(bytes, i) {
            Ok(TagPair {
                tag,
                next,
                unescaped_quotes,
            }) => {
                if unescaped_quotes {
                    out.problems.push(InputProblem {
                        kind: InputProblemKind::UnescapedQuote,
                        line: line.offset,
                        detail: format!(
                            "the value of tag {} holds unescaped quotes",
                            TextDecoder::Auto.decode(tag.name.of(bytes))
                        ),
                    });
                }
                (Some(tag), next)
            }
            Err(NotWellFormed) => {
                let BadTag { tag, next, defect } = repair_tag(bytes, i);
                // Decoded as the tags are (UTF-8, else Latin-1): no U+FFFD in the message.
                let shown = TextDecoder::Auto
                    .decode(Span::new(i, next).of(bytes))
                    .trim_end()
                    .chars()
                    .take(60)
                    .collect::<String>();
                let done = if tag.is_some() { "repaired" } else { "skipped" };
                out.problems.push(InputProblem {
                    kind: InputProblemKind::BadTag,
                    line: line.offset,
                    detail: format!("tag line `{shown}` {done}: {defect}"),
                });
                (tag, next)
            }
        };
        if let Some(TagSpans { name, value }) = tag {
            out.tags.push(RawTag {
                name: name.shifted(line.base),
                value: value.shifted(line.base),
                line: line.offset,
            });
        }
        let rest = bytes.get(next..).unwrap_or_default();
        match first_significant(rest) {
            None => return Err(line_end(bytes, next)),
            Some(j) if rest.get(j) == Some(&b'[') => i = next + j,
            Some(j) => return Ok(next + j),
        }
    }
}

/// `White "Euwe, Max"]` (or without the `]` too): a tag line that lacks its opening
/// bracket, a name (starting with a letter) and a quoted value and nothing else. Returns the span of the name and
/// of the raw value in `line` (its first significant byte at `first`).
pub(in crate::input) fn bracketless_tag(line: &[u8], first: usize) -> Option<(Span, Span)> {
    let rest = line.get(first..)?;
    let (name_len, open) = bracketless_opening(rest)?;
    let mut end = rest.len();
    while end > open && rest.get(end - 1).is_some_and(|&c| is_space(c)) {
        end -= 1;
    }
    if rest.get(end - 1) == Some(&b']') {
        end -= 1;
    }
    if end <= open + 1 || rest.get(end - 1) != Some(&b'"') {
        return None;
    }
    let name = Span::new(first, first + name_len);
    let value = Span::new(first + open + 1, first + end - 1);
    // A quote inside the value must be escaped: `Nf3 "x" e5 "y"` is no tag.
    let inner = value.of(line);
    let bare_quote = inner
        .iter()
        .enumerate()
        .any(|(i, &c)| c == b'"' && (i == 0 || inner.get(i - 1) != Some(&b'\\')));
    (!bare_quote).then_some((name, value))
}

/// `Name "` at the start of `rest` (a name that starts with a letter, then white space):
/// the name's length and where the quote stands. Looks no further, so that the first
/// movetext line of a game (`1. e4`) costs a byte or two.
#[inline(always)]
fn bracketless_opening(rest: &[u8]) -> Option<(usize, usize)> {
    if !rest.first()?.is_ascii_alphabetic() {
        return None;
    }
    let name_len = rest
        .iter()
        .position(|&c| class(c) & NAME_CHAR == 0)
        .unwrap_or(rest.len());
    let spaces = rest
        .get(name_len..)?
        .iter()
        .take_while(|&&c| c == b' ' || c == b'\t')
        .count();
    let open = name_len + spaces;
    (rest.get(open) == Some(&b'"')).then_some((name_len, open))
}

/// A tag line without its opening bracket inside a tag section (`bracketless_tag`): read
/// as the tag it is (`input.bad-tag`). Returns where the line ends, `None` for any other
/// line.
pub(super) fn parse_bracketless_tag_line(
    out: &mut Out<'_>,
    line: LexLine<'_>,
    first: usize,
) -> Option<usize> {
    bracketless_opening(line.bytes.get(first..)?)?;
    // The line's bytes may go on past its `\n`.
    let end = line_end(line.bytes, first);
    let (name, value) = bracketless_tag(Span::new(0, end).of(line.bytes), first)?;
    let shown = TextDecoder::Auto
        .decode(Span::new(first, end).of(line.bytes))
        .trim_end()
        .chars()
        .take(60)
        .collect::<String>();
    out.problems.push(InputProblem {
        kind: InputProblemKind::BadTag,
        line: line.offset,
        detail: format!("tag line `{shown}` repaired: the opening bracket is missing"),
    });
    out.tags.push(RawTag {
        name: name.shifted(line.base),
        value: value.shifted(line.base),
        line: line.offset,
    });
    Some(end)
}

/// Text after the closing bracket of a tag line inside a tag section (a tag line follows
/// it): dropped, with the tokens it was read as (`tokens`: how many there were before
/// it), as `input.bad-tag` on its line.
pub(super) fn drop_tag_tail(out: &mut Out<'_>, tokens: u32, line: u32) {
    out.tokens.truncate(tokens as usize);
    out.problems.push(InputProblem {
        kind: InputProblemKind::BadTag,
        line,
        detail: "text after the closing bracket of a tag line, inside the tag section, skipped"
            .to_string(),
    });
}

/// The commonest line of a header read in one go: a well-formed `[Name "value"]` at the
/// very start of `bytes`, then only white space to the line's `\n`. Returns its tag
/// (spans shifted by `base`, on line `offset`) and the line's length; `None` for any
/// other line, which `parse_tag_line` reads (and says what is wrong with).
#[inline(always)]
pub(super) fn plain_tag_line(bytes: &[u8], base: usize, offset: u32) -> Option<(RawTag, usize)> {
    let pair = parse_one_tag(bytes, 0).ok()?;
    if pair.unescaped_quotes {
        return None;
    }
    // Only white space, then the `\n`: anything else (a BOM, a second pair, movetext, no
    // `\n` yet) is left to `parse_tag_line`. Not `first_significant` and `line_end`,
    // which would read the rest of the line twice (0.85% more of `validate`).
    let mut end = pair.next;
    loop {
        match bytes.get(end) {
            Some(b'\n') => break,
            Some(&c) if is_space(c) => end += 1,
            _ => return None,
        }
    }
    let tag = RawTag {
        name: pair.tag.name.shifted(base),
        value: pair.tag.value.shifted(base),
        line: offset,
    };
    Some((tag, end + 1))
}

/// A tag's name and raw (still escaped) value, as spans into the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct TagSpans {
    name: Span,
    value: Span,
}

/// A well-formed `[Name "value"]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct TagPair {
    tag: TagSpans,
    /// Where reading stopped: just past the `]`.
    next: usize,
    /// Quotes inside the value were not escaped (the value runs to the last quote before
    /// `]`).
    unescaped_quotes: bool,
}

/// A tag pair that is not `[Name "value"]`: `repair_tag` tells what is wrong with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct NotWellFormed;

/// A tag pair that is not well formed, read as well as it can be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct BadTag {
    /// The tag, when there is one (a pair with no name or no value is skipped).
    tag: Option<TagSpans>,
    /// Where reading stopped.
    next: usize,
    defect: TagDefect,
}

/// What is wrong with a tag pair (the end of the `input.bad-tag` message).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub(super) enum TagDefect {
    #[error("no tag name")]
    NoName,
    #[error(
        "not a tag name (a name starts with a letter or digit and holds only letters, digits and `_`)"
    )]
    BadName,
    #[error("text follows the closing quote of the value")]
    TextAfterValue,
    #[error("no value")]
    NoValue,
    #[error("the value is not quoted")]
    Unquoted,
    #[error("a backslash escapes the closing quote")]
    EscapedClosingQuote,
    #[error("the value is malformed")]
    Malformed,
    #[error("the closing quote is missing")]
    NoClosingQuote,
    #[error("the closing bracket is missing")]
    NoClosingBracket,
    #[error("the closing quote and bracket are missing")]
    NoClosingQuoteOrBracket,
    #[error("the opening quote is missing")]
    NoOpeningQuote,
    #[error("text follows the closing quote of the value, and the closing bracket is missing")]
    TextAfterValueNoBracket,
}

/// A tag pair at `start` (a `[`) that is not `[Name "value"]`, read as well as it can be:
/// the tag (name and raw value) when there is one, where reading stopped, and what was
/// wrong. A missing closing quote or bracket is supplied and an unquoted value taken as
/// it is; a pair with no name (`[/pgn]`) or no value (`[pgn]`) is skipped.
pub(super) fn repair_tag(bytes: &[u8], start: usize) -> BadTag {
    let at = |i: usize| bytes.get(i).copied();
    // The line's text, without its line end and trailing white space.
    let mut end = line_end(bytes, start);
    while end > start && at(end - 1).is_some_and(is_space) {
        end -= 1;
    }
    let in_line_space = |i: usize| i < end && at(i).is_some_and(is_space);
    let mut i = start + 1;
    while in_line_space(i) {
        i += 1;
    }
    let name_start = i;
    while i < end && at(i).is_some_and(|c| class(c) & NAME_END == 0 && c != b'[') {
        i += 1;
    }
    let name = Span::new(name_start, i);
    let good_name = at(name_start).is_some_and(|c| c.is_ascii_alphanumeric())
        && name
            .of(bytes)
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || *c == b'_');
    // Skipped up to its `]`, or to the end of the line.
    let skip_from = |from: usize| {
        let rest = Span::new(from, end).of(bytes);
        memchr::memchr(b']', rest).map_or(end, |close| from + close + 1)
    };
    if !good_name {
        let defect = if name.start == name.end {
            TagDefect::NoName
        } else {
            TagDefect::BadName
        };
        return BadTag {
            tag: None,
            next: skip_from(start + 1),
            defect,
        };
    }
    while in_line_space(i) {
        i += 1;
    }
    if i >= end || at(i) == Some(b']') {
        return BadTag {
            tag: None,
            next: skip_from(i),
            defect: TagDefect::NoValue,
        };
    }
    if at(i) != Some(b'"') {
        let close = memchr::memchr(b']', Span::new(i, end).of(bytes)).map(|c| i + c);
        let mut value_end = close.unwrap_or(end);
        while value_end > i && at(value_end - 1).is_some_and(is_space) {
            value_end -= 1;
        }
        let next = close.map_or(end, |close| close + 1);
        // `[Site Groningen NED"]`: a closing quote without its opening one is not kept.
        let defect = if value_end > i + 1 && at(value_end - 1) == Some(b'"') {
            value_end -= 1;
            TagDefect::NoOpeningQuote
        } else {
            TagDefect::Unquoted
        };
        return BadTag {
            tag: Some(TagSpans {
                name,
                value: Span::new(i, value_end),
            }),
            next,
            defect,
        };
    }
    let value_start = i + 1;
    let last = end - 1;
    if at(last) == Some(b']') && last > value_start {
        let mut quote = last;
        while quote > value_start && at(quote - 1).is_some_and(|c| c == b' ' || c == b'\t') {
            quote -= 1;
        }
        if quote > value_start && at(quote - 1) == Some(b'"') {
            let defect = if at(quote - 2) == Some(b'\\') && quote - 1 > value_start {
                TagDefect::EscapedClosingQuote
            } else {
                TagDefect::Malformed
            };
            return BadTag {
                tag: Some(TagSpans {
                    name,
                    value: Span::new(value_start, quote - 1),
                }),
                next: end,
                defect,
            };
        }
        // `[Site "Somewhere" %~<|>]`: the value ends at its last quote, text follows it.
        if let Some(quote) = memchr::memrchr(b'"', Span::new(value_start, last).of(bytes)) {
            return BadTag {
                tag: Some(TagSpans {
                    name,
                    value: Span::new(value_start, value_start + quote),
                }),
                next: end,
                defect: TagDefect::TextAfterValue,
            };
        }
        return BadTag {
            tag: Some(TagSpans {
                name,
                value: Span::new(value_start, last),
            }),
            next: end,
            defect: TagDefect::NoClosingQuote,
        };
    }
    if at(last) == Some(b'"') && last >= value_start {
        return BadTag {
            tag: Some(TagSpans {
                name,
                value: Span::new(value_start, last),
            }),
            next: end,
            defect: TagDefect::NoClosingBracket,
        };
    }
    // `[Event "Groningen"|`: the value ends at its last quote, as with a bracket.
    if let Some(quote) = memchr::memrchr(b'"', Span::new(value_start, end).of(bytes)) {
        return BadTag {
            tag: Some(TagSpans {
                name,
                value: Span::new(value_start, value_start + quote),
            }),
            next: end,
            defect: TagDefect::TextAfterValueNoBracket,
        };
    }
    BadTag {
        tag: Some(TagSpans {
            name,
            value: Span::new(value_start, end),
        }),
        next: end,
        defect: TagDefect::NoClosingQuoteOrBracket,
    }
}

/// How many bytes at the start of `rest` a tag value runs over without a `\\`, `"` or
/// line end.
pub(super) fn skip_value_bytes(rest: &[u8]) -> usize {
    let mut at = 0;
    while let Some(chunk) = rest.get(at..).and_then(|rest| rest.first_chunk::<8>()) {
        let x = u64::from_le_bytes(*chunk);
        let hits = bytes_equal(x, b'"') | bytes_equal(x, b'\\') | bytes_equal(x, b'\n');
        if hits != 0 {
            return at + (hits.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    let tail = rest.get(at..).unwrap_or_default();
    at + tail
        .iter()
        .position(|&b| matches!(b, b'"' | b'\\' | b'\n'))
        .unwrap_or(tail.len())
}

/// One `[Name "value"]` at `start` (nothing past the line's `\n` is looked at). Inlined
/// into its two callers: a dozen calls a game, and the call cost some 15 instructions.
#[inline(always)]
pub(super) fn parse_one_tag(bytes: &[u8], start: usize) -> Result<TagPair, NotWellFormed> {
    let at = |i: usize| bytes.get(i).copied();
    let in_line_space = |c: u8| c != b'\n' && is_space(c);
    let mut i = start + 1;
    while at(i).is_some_and(in_line_space) {
        i += 1;
    }
    let name_start = i;
    // A name starts with a letter or digit and holds only those and `_` (SPEC.md): it
    // must end where a name ends, at white space, `"` or `]`.
    let rest = bytes.get(i..).unwrap_or_default();
    i += rest
        .iter()
        .position(|&c| class(c) & NAME_CHAR == 0)
        .unwrap_or(rest.len());
    if name_start == i
        || rest.first() == Some(&b'_')
        || at(i).is_some_and(|c| class(c) & NAME_END == 0)
    {
        return Err(NotWellFormed);
    }
    let name = Span::new(name_start, i);
    while at(i).is_some_and(in_line_space) {
        i += 1;
    }
    if at(i) != Some(b'"') {
        return Err(NotWellFormed);
    }
    i += 1;
    let value_start = i;
    let mut repaired = false;
    while let Some(c) = at(i) {
        match c {
            b'\\' if at(i + 1) == Some(b'\n') => break,
            b'\\' => i += 2,
            b'"' => {
                let mut j = i + 1;
                while at(j).is_some_and(|c| c == b' ' || c == b'\t') {
                    j += 1;
                }
                if at(j) == Some(b']') {
                    return Ok(TagPair {
                        tag: TagSpans {
                            name,
                            value: Span::new(value_start, i),
                        },
                        next: j + 1,
                        unescaped_quotes: repaired,
                    });
                }
                repaired = true;
                i += 1;
            }
            b'\n' => break,
            _ => i += 1 + skip_value_bytes(bytes.get(i + 1..).unwrap_or_default()),
        }
    }
    Err(NotWellFormed)
}
