//! The game being assembled: lines taken into it (straight from the reader's buffer, or
//! copied first) and the boundaries between games; its completion is `finish`'s.

use crate::pgn::{InputProblem, InputProblemKind, RawGame, Span, TokenKind};

use super::lexer::lex_movetext;
use super::lines::{
    closer_line, first_significant, is_between_games, line_end, looks_like_tag_line,
    starts_game_after_marker, stray_line,
};
use super::scan::find_byte;
use super::skip::Skip;
use super::spares::take_game;
use super::tags::{drop_tag_tail, parse_bracketless_tag_line, parse_tag_line, plain_tag_line};
use super::{Builder, LexLine, Limits, OVERFLOW_PEEK, Out, State};

impl State {
    /// An empty game starting at `line`, its buffers sized after the last game.
    pub(super) fn new_game(&mut self, line: u64) -> RawGame {
        take_game(&mut self.spare, &self.file, self.size_hint, line)
    }

    /// The current game, started at `line` if there is none.
    pub(super) fn game_mut(&mut self, line: u64) -> &mut RawGame {
        let State {
            file,
            size_hint,
            game,
            spare,
            ..
        } = self;
        game.get_or_insert_with(|| take_game(spare, file, *size_hint, line))
    }

    /// How much of a line starting at byte `line_start` of the game is kept.
    pub(super) fn cap_at(&self, line_start: usize) -> usize {
        if self.current.overflow {
            OVERFLOW_PEEK
        } else {
            bytes_limit(&self.limits, self.head)
                .saturating_sub(line_start)
                .max(OVERFLOW_PEEK)
        }
    }

    /// The bytes of the current game from `start`.
    pub(super) fn line_from(&self, start: usize) -> &[u8] {
        self.game
            .as_ref()
            .and_then(|game| game.bytes.get(start..))
            .unwrap_or_default()
    }

    /// Whether a line (its first significant byte at `first`) starts the next game.
    #[inline(always)]
    pub(super) fn is_boundary(&self, line: &[u8], first: Option<usize>) -> bool {
        let b = &self.current;
        if b.overflow || b.open_comment.is_some() {
            // An open comment ends only where a new game clearly starts; an oversized game
            // also where movetext follows its termination marker.
            first.is_some_and(|i| looks_like_tag_line(line.get(i..).unwrap_or_default()))
                || (b.overflow
                    && b.open_comment.is_none()
                    && b.finished
                    && starts_game_after_marker(line, first)
                    && !closer_line(line, first))
        } else if first.is_some_and(|i| line.get(i) == Some(&b'[')) {
            // `[/pgn]` closes a forum wrapper: it ends the game before it.
            // Text after a tag line's `]` is no movetext when a tag line follows it.
            ((b.has_movetext && !holds_tag_tail(b)) || b.finished)
                && first.is_some_and(|i| line.get(i + 1) != Some(&b'/'))
        } else {
            // Stray bytes or closers after the marker make no game: the finished game takes
            // them.
            b.finished
                && starts_game_after_marker(line, first)
                && stray_line(line).is_none()
                && !closer_line(line, first)
        }
    }

    /// Appends bytes taken from the reader's buffer to the current game.
    pub(super) fn append(&mut self, bytes: &[u8]) {
        if let Some(game) = self.game.as_mut() {
            game.bytes.extend_from_slice(bytes);
        }
    }

    /// Handles the whole lines at the front of `buf` straight from the reader's buffer,
    /// up to the first line that is not whole there or is longer than its size limit.
    /// Returns the bytes used and a game that one of the lines finished.
    pub(super) fn take_lines(&mut self, buf: &[u8]) -> (usize, Option<RawGame>) {
        let mut pos = 0;
        // `buf[copied..pos]` belongs to the current game but is not in its bytes yet.
        let mut copied = 0;
        while let Some(rest) = buf.get(pos..) {
            let line_no = self.next_line;
            if pos == copied
                && !self.has_begun()
                && let Some(len) = self.skip_before_game(rest)
            {
                pos += len;
                copied = pos;
                continue;
            }
            let line_start = self.game_mut(line_no).bytes.len() + (pos - copied);
            if let Some(len) = self.take_inner_line(rest, line_start, line_no) {
                pos += len;
                continue;
            }
            let Some(newline) = find_byte(b'\n', rest) else {
                break;
            };
            let line = rest.get(..=newline).unwrap_or_default();
            if line.len() > self.cap_at(line_start) {
                break;
            }
            self.next_line += 1;
            self.bytes_read += line.len() as u64;
            let first = first_significant(line);
            if self.is_boundary(line, first) {
                self.append(Span::new(copied, pos).of(buf));
                let next = self.new_game(line_no);
                let finished = self.finish_current(false);
                self.game = Some(next);
                let end = self.process_line(line, 0, first, line_no, false);
                copied = pos;
                pos += self.end_of_line(line.len(), end);
                if finished.is_some() {
                    self.append(Span::new(copied, pos).of(buf));
                    return (pos, finished);
                }
                continue;
            }
            if self.current.overflow {
                // Past the size limit the line is followed, then dropped.
                self.skip.scan(&mut self.current, line);
                self.append(Span::new(copied, pos).of(buf));
                pos += line.len();
                copied = pos;
                continue;
            }
            let end = self.process_line(line, line_start, first, line_no, false);
            pos += self.end_of_line(line.len(), end);
        }
        self.append(Span::new(copied, pos).of(buf));
        (pos, None)
    }

    /// Where a line of `len` bytes, taken whole, was left: at its end, or at `end` where
    /// the next game starts on it (after a termination marker). Then the rest is read as a
    /// line of its own, on the same line number: the line is given back.
    pub(super) fn end_of_line(&mut self, len: usize, end: usize) -> usize {
        if end < len {
            self.next_line -= 1;
            self.bytes_read -= (len - end) as u64;
            return end;
        }
        len
    }

    /// Before the first game (no game begun): a whole blank line, escape line or `;`
    /// comment line at the front of `rest` belongs to no game and is passed over (the
    /// game, if there is one yet, starts on a later line); returns its length.
    pub(super) fn skip_before_game(&mut self, rest: &[u8]) -> Option<usize> {
        let line = rest.get(..=find_byte(b'\n', rest)?)?;
        if !is_between_games(line) && stray_line(line).is_none() {
            return None;
        }
        if !is_between_games(line) {
            let line_no = self.next_line;
            self.note_stray_before(line_no);
        }
        self.next_line += 1;
        self.bytes_read += line.len() as u64;
        let next_line = self.next_line;
        if let Some(game) = self.game.as_mut() {
            game.line = next_line;
        }
        Some(line.len())
    }

    /// The common case, tokenised without looking for the line's end first: a line at the
    /// front of `rest` that belongs to the current game, which is not past its size limit.
    /// Returns its length, or `None` (and keeps nothing) when the line is not whole in
    /// `rest`, crosses the size limit or needs the careful path.
    pub(super) fn take_inner_line(
        &mut self,
        rest: &[u8],
        line_start: usize,
        line_no: u64,
    ) -> Option<usize> {
        if self.current.overflow {
            return None;
        }
        if rest.first() == Some(&b'[')
            && let Some(len) = self.take_plain_tag_line(rest, line_start, line_no)
        {
            return Some(len);
        }
        let first = first_significant(rest);
        if self.is_boundary(rest, first) {
            return None;
        }
        let State {
            game,
            current,
            limits,
            head,
            ..
        } = self;
        let game = game.as_mut()?;
        // A move number read on the line marks the token before it, which the undo below
        // does not remove: its mark is kept to be put back.
        let saved = (
            *current,
            game.tokens.len(),
            game.tags.len(),
            game.problems.len(),
            game.tokens.last().map(|t| t.number_follows),
        );
        let line = LexLine {
            bytes: rest,
            base: line_start,
            first,
            offset: line_offset(line_no, game.line),
            cut: false,
        };
        let mut out = Out {
            tokens: &mut game.tokens,
            tags: &mut game.tags,
            problems: &mut game.problems,
            move_numbers: limits.move_numbers,
        };
        let len = tokenise_line(current, &mut out, limits, line);
        let whole = len > 0 && rest.get(len - 1) == Some(&b'\n');
        if !whole || line_start + len > bytes_limit(limits, *head) {
            // Undone: the careful path reads this line again.
            *current = saved.0;
            game.tokens.truncate(saved.1);
            game.tags.truncate(saved.2);
            game.problems.truncate(saved.3);
            if let (Some(last), Some(mark)) = (game.tokens.last_mut(), saved.4) {
                last.number_follows = mark;
            }
            return None;
        }
        self.next_line += 1;
        self.bytes_read += len as u64;
        Some(len)
    }

    /// A header's plain tag line (`tags::plain_tag_line`) at the front of `rest`, taken
    /// as `take_inner_line` would take it, without the lexer's look at what the line may
    /// be: in a header (no movetext, no marker, no open comment) a `[` line is no
    /// boundary. Returns its length, or `None` (and keeps nothing) for any other line.
    #[inline(always)]
    fn take_plain_tag_line(
        &mut self,
        rest: &[u8],
        line_start: usize,
        line_no: u64,
    ) -> Option<usize> {
        let b = &self.current;
        if b.has_movetext || b.finished || b.open_comment.is_some() {
            return None;
        }
        let game = self.game.as_mut()?;
        let (tag, len) = plain_tag_line(rest, line_start, line_offset(line_no, game.line))?;
        if line_start + len > bytes_limit(&self.limits, self.head) {
            return None;
        }
        game.tags.push(tag);
        self.current.has_tags = true;
        self.next_line += 1;
        self.bytes_read += len as u64;
        Some(len)
    }

    /// Before the first game: whether the line just read (whole, at the start of the
    /// game's bytes, numbered `line_no`) is stray bytes, noted for the game that follows.
    pub(super) fn stray_before_game(&mut self, line_no: u64) -> bool {
        if stray_line(self.line_from(0)).is_none() {
            return false;
        }
        self.note_stray_before(line_no);
        true
    }

    fn note_stray_before(&mut self, line_no: u64) {
        let first = self.stray_before.map_or(line_no, |(first, _)| first);
        self.stray_before = Some((first, line_no));
    }

    /// Whether the current game holds anything yet (more than blank or escape lines); no
    /// game yet is none begun.
    pub(super) fn has_begun(&self) -> bool {
        let b = &self.current;
        b.has_tags
            || b.has_movetext
            || self
                .game
                .as_ref()
                .is_some_and(|game| !game.problems.is_empty())
    }

    /// The whole line copied into the current game at `start` was processed up to `end`
    /// of its bytes: where that is short of its end, the next game starts there (after a
    /// termination marker), unless the rest is no game's start (stray bytes, closers),
    /// which the finished game takes, as `take_lines` decides for a line read in place:
    /// the games must not depend on where the read buffer ends. Each game finished so on
    /// the line is queued.
    pub(super) fn start_games_on_line(&mut self, mut start: usize, mut end: usize, line_no: u64) {
        while start + end < self.line_from(0).len() {
            let rest_at = start + end;
            let rest = self.line_from(rest_at);
            let first = first_significant(rest);
            if !self.is_boundary(rest, first) {
                start = rest_at;
                end = self.process_copied_line(rest_at, first, line_no, false);
                if end == 0 {
                    break;
                }
                continue;
            }
            if let Some(finished) = self.start_next_game(rest_at, line_no) {
                self.queued.push_back(finished);
            }
            let first = first_significant(self.line_from(0));
            start = 0;
            end = self.process_copied_line(0, first, line_no, false);
        }
    }

    /// The line copied into the current game at `line_start` starts the next game: moves
    /// it there and returns the finished game.
    pub(super) fn start_next_game(&mut self, line_start: usize, line_no: u64) -> Option<RawGame> {
        let mut next = self.new_game(line_no);
        if let Some(game) = self.game.as_mut() {
            let line = game.bytes.get(line_start..).unwrap_or_default();
            next.bytes.extend_from_slice(line);
            game.bytes.truncate(line_start);
        }
        let finished = self.finish_current(false);
        self.game = Some(next);
        finished
    }

    /// Past the size limit: follows the line copied into the current game at `line_start`
    /// (the start of it, when it is long), then drops it.
    pub(super) fn skip_copied_line(&mut self, line_start: usize) {
        let State {
            game,
            current,
            skip,
            ..
        } = self;
        if let Some(game) = game.as_mut() {
            skip.scan(current, game.bytes.get(line_start..).unwrap_or_default());
            game.bytes.truncate(line_start);
        }
    }

    /// `process_line` for a line that is already in the game's bytes (from `line_start`).
    /// A line that was `cut` is also followed by `Skip` from its start, so that the rest
    /// of it can be followed from where the cut left it (in a word, a `;` comment, ...).
    pub(super) fn process_copied_line(
        &mut self,
        line_start: usize,
        first: Option<usize>,
        line_no: u64,
        cut: bool,
    ) -> usize {
        let State {
            game,
            current,
            limits,
            skip,
            head,
            ..
        } = self;
        let Some(game) = game.as_mut() else {
            return 0;
        };
        let before = *current;
        let RawGame {
            bytes,
            tags,
            tokens,
            problems,
            line: game_line,
            ..
        } = game;
        let line = LexLine {
            bytes: bytes.get(line_start..).unwrap_or_default(),
            base: line_start,
            first,
            offset: line_offset(line_no, *game_line),
            cut,
        };
        let mut out = Out {
            tokens,
            tags,
            problems,
            move_numbers: limits.move_numbers,
        };
        let end = process_line(current, &mut out, limits, line, bytes_limit(limits, *head));
        if cut {
            current.open_comment = before.open_comment;
            current.depth = before.depth;
            current.finished = before.finished;
            *skip = Skip::default();
            skip.scan(current, line.bytes);
        }
        end
    }

    /// `process_line` for a line that is not in the game's bytes yet: it will be at `base`.
    pub(super) fn process_line(
        &mut self,
        bytes: &[u8],
        base: usize,
        first: Option<usize>,
        line_no: u64,
        cut: bool,
    ) -> usize {
        let State {
            game,
            current,
            limits,
            head,
            ..
        } = self;
        let Some(game) = game.as_mut() else {
            return bytes.len();
        };
        let line = LexLine {
            bytes,
            base,
            first,
            offset: line_offset(line_no, game.line),
            cut,
        };
        let mut out = Out {
            tokens: &mut game.tokens,
            tags: &mut game.tags,
            problems: &mut game.problems,
            move_numbers: limits.move_numbers,
        };
        process_line(current, &mut out, limits, line, bytes_limit(limits, *head))
    }
}

pub(super) fn line_offset(line_no: u64, game_line: u64) -> u32 {
    u32::try_from(line_no.saturating_sub(game_line)).unwrap_or(u32::MAX)
}

/// Where the current game's bytes reach the size limit: `max_game_bytes` past its head
/// (the tag lines put before a table row's movetext, `Splitter::with_head`, which do not
/// count; none for a game read from text).
pub(super) fn bytes_limit(limits: &Limits, head: usize) -> usize {
    limits.max_game_bytes.saturating_add(head)
}

/// Tokenises a line of the current game; the line that crosses the size limit (the game's
/// bytes past `bytes_limit`) is still tokenised (its moves are kept), then the limit is
/// recorded. Returns where the line ended: at its end, or where the next game starts on
/// it (`next_game_after_marker`).
pub(super) fn process_line(
    b: &mut Builder,
    out: &mut Out<'_>,
    limits: &Limits,
    line: LexLine<'_>,
    bytes_limit: usize,
) -> usize {
    let was_overflow = b.overflow;
    let taken = tokenise_line(b, out, limits, line).min(line.bytes.len());
    let end = line.base + taken;
    let over = (line.cut || end > bytes_limit) && !was_overflow;
    if over {
        // A word the cut went through is not the word that was written.
        if line.cut
            && out
                .tokens
                .last()
                .is_some_and(|t| t.span.end as usize == end && t.kind != TokenKind::Comment)
        {
            out.tokens.pop();
        }
        // Nor a move number (where numbers are no tokens): the one before it is the last.
        let [before, last] = b.numbers;
        if line.cut && last.0 as usize == end && last != (0, 0) {
            b.numbers = [(0, 0), before];
        }
        b.overflow = true;
        let detail = format!(
            "the game is longer than {} MiB",
            limits.max_game_bytes / (1024 * 1024)
        );
        push_limit(&mut b.limit_hit, out.problems, line.offset, detail);
    }
    taken
}

/// Tokenises the line at the front of `line.bytes` (which may go on past its `\n`) and
/// returns where it ends: just past its `\n`, or at the end of the bytes.
pub(super) fn tokenise_line(
    b: &mut Builder,
    out: &mut Out<'_>,
    limits: &Limits,
    line: LexLine<'_>,
) -> usize {
    let Some(first) = line.first else {
        b.tag_tail = None;
        return line_end(line.bytes, 0);
    };
    // Stray bytes after the marker, or a line that starts with a DOS end-of-file byte (a
    // game cut off before its marker may end so): no token, `finish_current` reports them.
    if b.finished
        && let Some(end) = take_stray_line(b, line)
    {
        return end;
    }
    if b.finished && b.depth == 0 && b.open_comment.is_none() && closer_line(line.bytes, line.first)
    {
        return take_closer_line(b, line);
    }
    let mut from = first;
    if b.open_comment.is_none() {
        match line.bytes.get(first) {
            Some(b'%') if first == 0 => return line_end(line.bytes, 0),
            // A `;` comment line after the termination marker belongs to no game.
            Some(b';') if b.finished => return line_end(line.bytes, 0),
            // A DOS end-of-file byte before the marker (a game cut off so).
            Some(0x1a) => {
                if let Some(end) = take_stray_line(b, line) {
                    return end;
                }
            }
            Some(b'[') => match tag_line(b, out, line, first) {
                Ok(movetext_start) => from = movetext_start,
                Err(end) => return end,
            },
            // In a tag section (issue 42): a tag line without its `[`, or the line after
            // a tag line's tail, which makes the tail movetext.
            _ if b.tag_tail.is_some() || (b.has_tags && !b.has_movetext) => {
                if let Some(end) = header_line(b, out, line, first) {
                    return end;
                }
            }
            _ => {}
        }
    }
    lex_movetext(b, out, limits, line, from)
}

/// A tag line (`parse_tag_line`). In the tag section the text after its `]` is held as
/// the tail (`Builder::tag_tail`) that the next line judges: a tag line drops it
/// (`tags::drop_tag_tail`), any other line makes it movetext.
#[inline(never)]
fn tag_line(
    b: &mut Builder,
    out: &mut Out<'_>,
    line: LexLine<'_>,
    first: usize,
) -> Result<usize, usize> {
    b.has_tags = true;
    let held = holds_tag_tail(b);
    if let Some((tokens, tail_line)) = b.tag_tail.take()
        && held
    {
        drop_tag_tail(out, tokens, tail_line);
        b.has_movetext = false;
        // The numbers of the dropped tails go with them: a header holds no movetext.
        b.numbers = Default::default();
    }
    let header = !b.has_movetext && !b.finished;
    let movetext_start = parse_tag_line(out, line, first)?;
    if header {
        b.tag_tail = Some((
            u32::try_from(out.tokens.len()).unwrap_or(u32::MAX),
            line.offset,
        ));
    }
    Ok(movetext_start)
}

/// Whether the tail after a tag line's `]` (`Builder::tag_tail`) is held: it neither
/// ended the game nor left a comment or a variation open.
pub(super) fn holds_tag_tail(b: &Builder) -> bool {
    b.tag_tail.is_some() && !b.finished && b.depth == 0 && b.open_comment.is_none()
}

/// A line in a tag section that does not start with `[`: a tag line without it
/// (`tags::parse_bracketless_tag_line`; returns where the line ends), or else movetext,
/// which makes a held tail movetext too.
#[inline(never)]
fn header_line(
    b: &mut Builder,
    out: &mut Out<'_>,
    line: LexLine<'_>,
    first: usize,
) -> Option<usize> {
    if b.tag_tail.is_none() || !b.has_movetext {
        let end = parse_bracketless_tag_line(out, line, first);
        if end.is_some() {
            b.tag_tail = None;
            return end;
        }
    }
    b.tag_tail = None;
    None
}

/// A line of stray bytes (`lines::stray_line`), noted for `finish_current` and passed
/// over: returns where it ends. Out of line, so that the lexer's loop stays as it was.
#[cold]
#[inline(never)]
fn take_stray_line(b: &mut Builder, line: LexLine<'_>) -> Option<usize> {
    if b.open_comment.is_some() {
        return None;
    }
    let eof_only = stray_line(line.bytes)?;
    b.note_stray(line.offset, eof_only);
    Some(line_end(line.bytes, 0))
}

impl Builder {
    /// Stray bytes on the line at `offset` (`eof_only`: DOS end-of-file bytes that may end
    /// the input), for `finish_current`.
    pub(super) fn note_stray(&mut self, offset: u32, eof_only: bool) {
        self.stray = Some(match self.stray {
            Some((first, _, all, inside)) => (first, offset, all && eof_only, inside),
            None => (offset, offset, eof_only, !self.finished),
        });
    }
}

/// A line of only `}` and `)` after the termination marker (`lines::closer_line`): each
/// is counted as closing nothing, as in the movetext, and no token is made (the line is
/// between games). Returns where the line ends.
#[cold]
#[inline(never)]
fn take_closer_line(b: &mut Builder, line: LexLine<'_>) -> usize {
    let end = line_end(line.bytes, 0);
    for &byte in line.bytes.get(..end).unwrap_or_default() {
        let count = match byte {
            b'}' => &mut b.unmatched_brace,
            b')' => &mut b.unmatched_close,
            _ => continue,
        };
        if count.0 == 0 {
            count.1 = line.offset;
        }
        count.0 = count.0.saturating_add(1);
    }
    end
}

/// Records a limit: a `Limit` problem, after which no tokens are kept.
pub(super) fn push_limit(
    limit_hit: &mut bool,
    problems: &mut Vec<InputProblem>,
    line: u32,
    detail: String,
) {
    if *limit_hit {
        return;
    }
    *limit_hit = true;
    problems.push(InputProblem {
        kind: InputProblemKind::LimitExceeded,
        line,
        detail,
    });
}
