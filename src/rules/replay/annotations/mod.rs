//! Clock and evaluation annotations (`[%clk 0:03:00]`, `[%eval 0.17]`, `[%eval #-2]`), move
//! times (`[%emt 0:00:35]`) and cutechess's move comments (`{+0.86/8 1.0s}`) after
//! main-line moves, and the `stats` figures made of them (SPEC.md "Tag columns and
//! annotations": lichess's centipawn loss and winning-chance judgements; "Clock
//! annotations"). The figures made of them are `figures.rs`'; what the clocks say against
//! the time control is `rules/clocks.rs`'.

mod figures;

use serde::{Serialize, Serializer};
use shakmaty::Color;

/// A clock reading: seconds and nanoseconds, as written (`1:02:03.4` is 3723 s 400 ms).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Clock {
    seconds: u64,
    nanos: u32,
}

impl Clock {
    /// Reads `H:MM:SS` with an optional decimal fraction of the seconds (up to 9 digits);
    /// minutes and seconds have one or two digits and are below 60.
    pub fn parse(text: &[u8]) -> Option<Clock> {
        // Lichess's own form, `0:03:00`, read at once (the general reading below cost
        // some 220 instructions a clock, and nearly every clock is written so).
        if let &[hours, b':', m1, m2, b':', s1, s2] = text {
            let digits = [hours, m1, m2, s1, s2];
            if digits.iter().all(u8::is_ascii_digit) {
                let [hours, m1, m2, s1, s2] = digits.map(|d| u64::from(d - b'0'));
                let (minutes, seconds) = (m1 * 10 + m2, s1 * 10 + s2);
                if minutes >= 60 || seconds >= 60 {
                    return None;
                }
                return Some(Clock {
                    seconds: hours * 3600 + minutes * 60 + seconds,
                    nanos: 0,
                });
            }
        }
        let mut parts = text.splitn(3, |&b| b == b':');
        let hours = digits_value(parts.next()?, 1..=9)?;
        let minutes = digits_value(parts.next()?, 1..=2)?;
        let (whole, fraction) = match parts.next()? {
            [whole @ .., b'.'] => (whole, &[][..]),
            rest => match rest.iter().position(|&b| b == b'.') {
                Some(dot) => (rest.get(..dot)?, rest.get(dot + 1..)?),
                None => (rest, &[][..]),
            },
        };
        let seconds = digits_value(whole, 1..=2)?;
        if minutes >= 60 || seconds >= 60 || fraction.len() > 9 {
            return None;
        }
        let mut nanos = 0u32;
        for (i, &digit) in fraction.iter().enumerate() {
            if !digit.is_ascii_digit() {
                return None;
            }
            let place = 10u32.pow(8u32.saturating_sub(u32::try_from(i).ok()?));
            nanos += u32::from(digit - b'0') * place;
        }
        Some(Clock {
            seconds: hours * 3600 + minutes * 60 + seconds,
            nanos,
        })
    }

    /// A clock of whole seconds.
    pub const fn from_seconds(seconds: u64) -> Clock {
        Clock { seconds, nanos: 0 }
    }

    /// A clock of `millis` milliseconds (0 for less).
    pub fn from_millis(millis: i64) -> Clock {
        let millis = u64::try_from(millis).unwrap_or(0);
        Clock {
            seconds: millis / 1000,
            nanos: u32::try_from(millis % 1000).unwrap_or(0) * 1_000_000,
        }
    }

    /// The reading in milliseconds (a finer fraction is cut).
    pub fn millis(self) -> i64 {
        let whole = i64::try_from(self.seconds).unwrap_or(i64::MAX / 2);
        whole.saturating_mul(1000) + i64::from(self.nanos / 1_000_000)
    }

    /// `180`, `3723.4`: whole seconds as an integer, else the decimal without trailing zeros.
    pub fn to_text(self) -> String {
        if self.nanos == 0 {
            return self.seconds.to_string();
        }
        let fraction = format!("{:09}", self.nanos);
        format!("{}.{}", self.seconds, fraction.trim_end_matches('0'))
    }
}

/// Whole seconds are written as an integer, others as a decimal number (in CSV the same
/// digits as `to_text`; in JSON a number either way).
impl Serialize for Clock {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.nanos == 0 {
            serializer.serialize_u64(self.seconds)
        } else {
            // Parsed from the decimal text, so that the shortest float printed is that text.
            let value: f64 = self.to_text().parse().unwrap_or(self.seconds as f64);
            serializer.serialize_f64(value)
        }
    }
}

/// The value of 1 to `max` ASCII digits (at least `min`).
fn digits_value(text: &[u8], len: std::ops::RangeInclusive<usize>) -> Option<u64> {
    if !len.contains(&text.len()) || !text.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(
        text.iter()
            .fold(0u64, |value, &d| value * 10 + u64::from(d - b'0')),
    )
}

/// An evaluation as written, from White's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eval {
    /// Centipawns (`0.17` is 17).
    Centipawns(i64),
    /// Mate in N for White (N > 0) or for Black (N < 0); 0: the side to move is mated.
    Mate(i64),
}

impl Eval {
    /// Reads `0.17`, `-1.52`, `+3`, `.5` (pawns, at most two decimals) or `#3`, `#-2`,
    /// `#0`, optionally followed by `,DEPTH` as python-chess and cutechess write it.
    pub fn parse(text: &[u8]) -> Option<Eval> {
        let text = match text.iter().position(|&b| b == b',') {
            Some(comma) => {
                let (value, depth) = (text.get(..comma)?, text.get(comma + 1..)?);
                if depth.is_empty() || !depth.iter().all(u8::is_ascii_digit) {
                    return None;
                }
                value
            }
            None => text,
        };
        if let Some(mate) = text.strip_prefix(b"#") {
            let (negative, digits) = signed(mate);
            let moves = i64::try_from(digits_value(digits, 1..=9)?).ok()?;
            return Some(Eval::Mate(if negative { -moves } else { moves }));
        }
        let (negative, number) = signed(text);
        let (whole, fraction) = match number.iter().position(|&b| b == b'.') {
            Some(dot) => (number.get(..dot)?, number.get(dot + 1..)?),
            None => (number, &[][..]),
        };
        if whole.is_empty() && fraction.is_empty() {
            return None;
        }
        let pawns = if whole.is_empty() {
            0
        } else {
            digits_value(whole, 1..=9)?
        };
        let hundredths = match fraction {
            [] => 0,
            [tenths] if tenths.is_ascii_digit() => u64::from(tenths - b'0') * 10,
            [_, _] => digits_value(fraction, 2..=2)?,
            _ => return None,
        };
        let centipawns = i64::try_from(pawns * 100 + hundredths).ok()?;
        Some(Eval::Centipawns(if negative {
            -centipawns
        } else {
            centipawns
        }))
    }
}

/// A leading `-` or `+`, and the rest.
fn signed(text: &[u8]) -> (bool, &[u8]) {
    match text {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, text),
    }
}

/// The time one move took, as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveTime {
    pub millis: i64,
    /// Written in whole seconds, without a fractional digit (`0:00:35`, `2s`; `1.0s` has
    /// one): such a time may be up to a second short.
    pub whole: bool,
}

impl MoveTime {
    /// `[%emt 0:00:35]` (any number of hour digits, optionally a fraction) or a plain
    /// decimal number of seconds (`[%emt 1.337]`, as FICS writes).
    pub fn parse_emt(text: &[u8]) -> Option<MoveTime> {
        if text.contains(&b':') {
            let clock = Clock::parse(text)?;
            return Some(MoveTime {
                millis: clock.millis(),
                whole: !text.contains(&b'.'),
            });
        }
        seconds(text)
    }
}

/// A plain decimal number of seconds (`1.337`, `2`), up to nine fractional digits.
fn seconds(text: &[u8]) -> Option<MoveTime> {
    let (whole, fraction) = match text.iter().position(|&b| b == b'.') {
        Some(dot) => (text.get(..dot)?, Some(text.get(dot + 1..)?)),
        None => (text, None),
    };
    let seconds = i64::try_from(digits_value(whole, 1..=9)?).ok()?;
    let mut millis = seconds * 1000;
    if let Some(fraction) = fraction {
        if fraction.is_empty() || fraction.len() > 9 || !fraction.iter().all(u8::is_ascii_digit) {
            return None;
        }
        for (place, &digit) in [100, 10, 1].into_iter().zip(fraction) {
            millis += place * i64::from(digit - b'0');
        }
    }
    Some(MoveTime {
        millis,
        whole: fraction.is_none(),
    })
}

/// What one comment holds: its first well-formed clock, evaluation and move time, and the
/// malformed `[%clk ...]` / `[%eval ...]` / `[%emt ...]` commands (as written, for the
/// finding).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct CommentAnnotations<'a> {
    pub clock: Option<Clock>,
    pub eval: Option<Eval>,
    pub move_time: Option<MoveTime>,
    pub bad: Vec<&'a [u8]>,
}

/// Reads cutechess's move comment, `{+0.86/8 1.0s}`, `{-M3/9 2s}`, `{0.00/29 5.323s,
/// White mates}`: the evaluation from the mover's point of view (pawns, or mate in N),
/// read into White's, and the time the move took. `None` for any other comment (`{book}`).
pub fn read_cutechess(text: &[u8], mover: Color) -> Option<CommentAnnotations<'static>> {
    let text = comment_body(text);
    let text = match text.iter().position(|&b| b == b',') {
        Some(comma) => text.get(..comma)?.trim_ascii_end(),
        None => text,
    };
    let slash = text.iter().position(|&b| b == b'/')?;
    let (score, rest) = (text.get(..slash)?, text.get(slash + 1..)?);
    let space = rest.iter().position(|&b| b == b' ')?;
    let (depth, time) = (
        rest.get(..space)?,
        rest.get(space + 1..)?.trim_ascii_start(),
    );
    digits_value(depth, 1..=4)?;
    let time = seconds(time.strip_suffix(b"s")?)?;
    let (negative, magnitude) = signed(score);
    let eval = if let Some(moves) = magnitude.strip_prefix(b"M") {
        let moves = i64::try_from(digits_value(moves, 1..=4)?).ok()?;
        Eval::Mate(if negative { -moves } else { moves })
    } else {
        // Pawns with at most two decimals, as `[%eval]` reads them (no `#`, no depth).
        match Eval::parse(magnitude)? {
            Eval::Centipawns(cp) => Eval::Centipawns(if negative { -cp } else { cp }),
            Eval::Mate(_) => return None,
        }
    };
    let eval = match (mover, eval) {
        (Color::White, eval) => eval,
        (Color::Black, Eval::Centipawns(cp)) => Eval::Centipawns(-cp),
        (Color::Black, Eval::Mate(moves)) => Eval::Mate(-moves),
    };
    Some(CommentAnnotations {
        clock: None,
        eval: Some(eval),
        move_time: Some(time),
        bad: Vec::new(),
    })
}

/// A comment's text without its braces and the white space inside them.
fn comment_body(text: &[u8]) -> &[u8] {
    let text = text.strip_prefix(b"{").unwrap_or(text);
    let text = text.strip_suffix(b"}").unwrap_or(text);
    text.trim_ascii()
}

/// Whether a comment may be cutechess's: it starts with a score (a sign, a digit or `M`).
pub fn may_be_cutechess(text: &[u8]) -> bool {
    comment_body(text)
        .first()
        .is_some_and(|&b| b == b'+' || b == b'-' || b == b'M' || b.is_ascii_digit())
}

/// Reads the `[%clk ...]`, `[%eval ...]` and `[%emt ...]` commands of one comment's text.
/// Other commands (`[%csl ...]`) are none of ours and are passed over.
pub fn read_comment(text: &[u8]) -> CommentAnnotations<'_> {
    let mut found = CommentAnnotations::default();
    let mut from = 0;
    while let Some(rest) = text.get(from..) {
        // A `[` followed by `%` (memchr, not a substring searcher built at every call).
        let Some(at) = memchr::memchr_iter(b'[', rest).find(|&at| rest.get(at + 1) == Some(&b'%'))
        else {
            break;
        };
        let command = rest.get(at..).unwrap_or_default();
        let body = command.get(2..).unwrap_or_default();
        let name_len = body
            .iter()
            .position(|b| !b.is_ascii_alphabetic())
            .unwrap_or(body.len());
        let name = body.get(..name_len).unwrap_or_default();
        let end = command.iter().position(|&b| b == b']');
        from += at + end.map_or(2, |end| end + 1);
        if name != b"clk" && name != b"eval" && name != b"emt" {
            continue;
        }
        // The whole command for the finding: up to its `]`, or the first 40 bytes.
        let written = command
            .get(..end.map_or(command.len().min(40), |end| end + 1))
            .unwrap_or_default();
        let argument = end
            .and_then(|end| body.get(name_len..end.checked_sub(2)?))
            .filter(|arg| arg.first().is_some_and(u8::is_ascii_whitespace))
            .map(<[u8]>::trim_ascii);
        let read_ok = match (name, argument) {
            (b"clk", Some(argument)) => Clock::parse(argument).map(|clock| {
                found.clock.get_or_insert(clock);
            }),
            (b"emt", Some(argument)) => MoveTime::parse_emt(argument).map(|time| {
                found.move_time.get_or_insert(time);
            }),
            (_, Some(argument)) => Eval::parse(argument).map(|eval| {
                found.eval.get_or_insert(eval);
            }),
            (_, None) => None,
        };
        if read_ok.is_none() {
            found.bad.push(written);
        }
    }
    found
}

/// What a comment after a move of `mover` says: its `[%...]` commands, or else
/// cutechess's move comment; `None` when neither (most comments, for a byte search).
pub fn read_move_comment(text: &[u8], mover: Color) -> Option<CommentAnnotations<'_>> {
    // Lichess's comment of a clock alone, `{ [%clk 0:03:00] }`, the commonest by far, read
    // at once: what `read_comment` reads of it (a clock read holds no `]`).
    if let Some(clock) = text
        .strip_prefix(b"{ [%clk ")
        .and_then(|rest| rest.strip_suffix(b"] }"))
        .filter(|argument| argument.len() == 7)
        .and_then(Clock::parse)
    {
        return Some(CommentAnnotations {
            clock: Some(clock),
            ..CommentAnnotations::default()
        });
    }
    if may_annotate(text) {
        Some(read_comment(text))
    } else if may_be_cutechess(text) {
        read_cutechess(text, mover)
    } else {
        None
    }
}

/// Whether a comment may hold an annotation: `[%` somewhere (the only cost paid by
/// comments without one).
pub fn may_annotate(text: &[u8]) -> bool {
    memchr::memchr_iter(b'%', text).any(|at| at > 0 && text.get(at - 1) == Some(&b'['))
}

pub use figures::AnnotationFigures;

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails loudly")]

    use super::figures::winning_chances;
    use super::*;

    fn clock(text: &str) -> Option<String> {
        Clock::parse(text.as_bytes()).map(Clock::to_text)
    }

    #[test]
    fn clocks_read_whole_and_fractional_seconds() {
        assert_eq!(clock("0:03:00").as_deref(), Some("180"));
        assert_eq!(clock("1:02:03.4").as_deref(), Some("3723.4"));
        assert_eq!(clock("0:00:05.50").as_deref(), Some("5.5"));
        assert_eq!(clock("0:00:07.").as_deref(), Some("7"));
        assert_eq!(clock("0:0:7").as_deref(), Some("7"));
        assert_eq!(clock("9:59:59").as_deref(), Some("35999"));
        assert_eq!(clock("0:10:05").as_deref(), Some("605"));
        assert_eq!(
            clock("12:59:59.123456789").as_deref(),
            Some("46799.123456789")
        );
    }

    #[test]
    fn malformed_clocks_are_refused() {
        for bad in [
            "",
            "3:00",
            "0:60:00",
            "0:00:60",
            "0:5x:00",
            "x:00:00",
            "0:003:00",
            "a:03:00",
            "0:03:00.x",
            "0:03:00:00",
            "-0:03:00",
            "0:03:00.1234567891",
            "1234567890:00:00",
        ] {
            assert_eq!(clock(bad), None, "{bad}");
        }
    }

    #[test]
    fn clocks_print_as_json_numbers() {
        let whole = Clock::parse(b"0:03:00").unwrap();
        let part = Clock::parse(b"1:02:03.4").unwrap();
        assert_eq!(serde_json::to_string(&whole).unwrap(), "180");
        assert_eq!(serde_json::to_string(&part).unwrap(), "3723.4");
    }

    #[test]
    fn move_times_read_emt_and_plain_seconds() {
        let emt = |text: &str| MoveTime::parse_emt(text.as_bytes()).map(|t| (t.millis, t.whole));
        assert_eq!(emt("0:00:35"), Some((35_000, true)));
        assert_eq!(emt("00:15:43.2"), Some((943_200, false)));
        assert_eq!(emt("1.337"), Some((1_337, false)));
        assert_eq!(emt("12"), Some((12_000, true)));
        for bad in ["", "1.", "x", "0:60:00", "-1", "1.2.3"] {
            assert_eq!(emt(bad), None, "{bad}");
        }
        let found = read_comment(b"{ [%emt 0:00:05] [%clk 0:01:00] }");
        assert_eq!(found.move_time.map(|t| t.millis), Some(5_000));
        assert_eq!(found.clock, Clock::parse(b"0:01:00"));
        assert_eq!(read_comment(b"[%emt 5 min]").bad, [&b"[%emt 5 min]"[..]]);
    }

    /// cutechess writes the mover's score: Black's `+0.50` is White's -50.
    #[test]
    fn cutechess_comments_read_the_score_into_whites_view_and_the_time() {
        let read = |text: &str, mover| {
            read_cutechess(text.as_bytes(), mover)
                .map(|found| (found.eval.unwrap(), found.move_time.unwrap().millis))
        };
        assert_eq!(
            read("{+0.86/8 1.0s}", Color::White),
            Some((Eval::Centipawns(86), 1000))
        );
        assert_eq!(
            read("{+0.50/9 0.512s}", Color::Black),
            Some((Eval::Centipawns(-50), 512))
        );
        assert_eq!(
            read("{0.00/29 5.323s, White mates}", Color::White),
            Some((Eval::Centipawns(0), 5323))
        );
        assert_eq!(
            read("{+M5/20 0.1s}", Color::White),
            Some((Eval::Mate(5), 100))
        );
        assert_eq!(
            read("{-M3/9 2s}", Color::Black),
            Some((Eval::Mate(3), 2000))
        );
        for other in [
            "{book}",
            "{+0.86/8}",
            "{1.0s}",
            "{Nice move}",
            "{+0.86/x 1s}",
        ] {
            assert_eq!(read(other, Color::White), None, "{other}");
        }
    }

    #[test]
    fn evaluations_read_pawns_and_mates() {
        let eval = |text: &str| Eval::parse(text.as_bytes());
        assert_eq!(eval("0.17"), Some(Eval::Centipawns(17)));
        assert_eq!(eval("-1.52"), Some(Eval::Centipawns(-152)));
        assert_eq!(eval("+3"), Some(Eval::Centipawns(300)));
        assert_eq!(eval("0.1"), Some(Eval::Centipawns(10)));
        assert_eq!(eval("-.5"), Some(Eval::Centipawns(-50)));
        assert_eq!(eval("2."), Some(Eval::Centipawns(200)));
        assert_eq!(eval("0.29,20"), Some(Eval::Centipawns(29)));
        assert_eq!(eval("#3"), Some(Eval::Mate(3)));
        assert_eq!(eval("#-2"), Some(Eval::Mate(-2)));
        assert_eq!(eval("#0"), Some(Eval::Mate(0)));
        for bad in [
            "", ".", "-", "0.175", "1.5x", "#", "#x", "0.17,", "M3", "1e3",
        ] {
            assert_eq!(eval(bad), None, "{bad}");
        }
    }

    #[test]
    fn comments_give_their_first_clock_and_evaluation() {
        let found = read_comment(b"{ [%eval 0.17] [%clk 0:03:00] [%clk 0:02:00] }");
        assert_eq!(found.clock, Clock::parse(b"0:03:00"));
        assert_eq!(found.eval, Some(Eval::Centipawns(17)));
        assert!(found.bad.is_empty());
    }

    #[test]
    fn malformed_commands_are_collected_and_others_passed_over() {
        let found =
            read_comment(b"{ [%csl Ga1] [%clk 0:3] [%eval] [%evalx 1] [%eval 0.5] [%clk 0:01:00");
        assert_eq!(found.eval, Some(Eval::Centipawns(50)));
        assert_eq!(found.clock, None);
        let bad: Vec<&[u8]> = vec![b"[%clk 0:3]", b"[%eval]", b"[%clk 0:01:00"];
        assert_eq!(found.bad, bad);
    }

    /// A lone clock comment, read at once, reads as the general reading reads it; the
    /// comments it does not take go on to that reading.
    #[test]
    fn a_lone_clock_reads_as_any_comment() {
        for text in [
            "{ [%clk 0:03:00] }",
            "{ [%clk 0:0:7.5] }",
            "{ [%clk 0:63:00] }",
            "{ [%clk 0:03:0x] }",
            "{ [%clk 0:3:00] }",
            "{ [%clk 10:03:00] }",
            "{ [%clk  0:03:00] }",
        ] {
            let general = Some(read_comment(text.as_bytes()));
            assert_eq!(
                read_move_comment(text.as_bytes(), Color::White),
                general,
                "{text}"
            );
        }
    }

    #[test]
    fn only_comments_with_a_command_are_read() {
        assert!(may_annotate(b"{ [%clk 0:03:00] }"));
        assert!(!may_annotate(b"{ 50% of the time }"));
        assert!(!may_annotate(b"{% start }"));
    }

    /// Feeds evaluations (None: a move without one) of plies 1, 2, ... from the start.
    fn figures(evals: &[Option<Eval>]) -> AnnotationFigures {
        let mut figures = AnnotationFigures::default();
        for (i, eval) in evals.iter().enumerate() {
            let ply = u32::try_from(i).unwrap() + 1;
            let mover = if ply % 2 == 1 {
                Color::White
            } else {
                Color::Black
            };
            let found = CommentAnnotations {
                eval: *eval,
                ..CommentAnnotations::default()
            };
            figures.add(ply, mover, &found);
        }
        figures
    }

    fn cp(value: i64) -> Option<Eval> {
        Some(Eval::Centipawns(value))
    }

    #[test]
    fn the_first_ply_never_counts() {
        // The start position has no evaluation: 1. e4 {-5.00} is no loss for White.
        let f = figures(&[cp(-500), cp(-500)]);
        assert_eq!(f.evals, 2);
        assert_eq!(f.counted, [0, 1]);
        assert_eq!(f.acpl(Color::White), None);
        assert_eq!(f.acpl(Color::Black), Some(0));
        assert_eq!(f.blunders, [0, 0]);
    }

    #[test]
    fn a_move_without_an_evaluation_breaks_the_chain() {
        let f = figures(&[cp(0), cp(0), None, cp(-900), cp(-900)]);
        // Ply 3 has none, so plies 3 and 4 do not count; ply 5 counts.
        assert_eq!(f.counted, [1, 1]);
        assert_eq!(f.acpl(Color::White), Some(0));
    }

    #[test]
    fn scores_are_clamped_and_mates_count_as_the_ceiling() {
        // Black's 0 -> 2000 counts as 0 -> 1000 (clamped, a blunder); White then plays
        // into #-2: loss 2000, and no judgement since a mate score is involved.
        let f = figures(&[cp(0), cp(2000), Some(Eval::Mate(-2))]);
        assert_eq!(f.loss_sum, [2000, 1000]);
        assert_eq!(f.blunders, [0, 1]);
        // #0 after White mates: 1000 for White, so White's mating move loses nothing.
        let f = figures(&[cp(0), cp(900), Some(Eval::Mate(0))]);
        assert_eq!(f.loss_sum, [0, 900]);
        // Black plays into a mate for White: 0 -> 1000 from White's view.
        let f = figures(&[cp(0), Some(Eval::Mate(3))]);
        assert_eq!(f.loss_sum, [0, 1000]);
    }

    #[test]
    fn acpl_rounds_halves_away_from_zero() {
        // White's counted losses 1 and 2: mean 1.5 -> 2.
        let f = figures(&[cp(0), cp(0), cp(-1), cp(-1), cp(-3)]);
        assert_eq!(f.loss_sum, [3, 0]);
        assert_eq!(f.acpl(Color::White), Some(2));
    }

    /// The smallest drop to `to` from 0 (centipawns, White's move) that is judged.
    fn first_judged(threshold: f64) -> i64 {
        (1..1000)
            .find(|&loss| winning_chances(0) - winning_chances(-loss) >= threshold)
            .unwrap()
    }

    #[test]
    fn judgements_start_exactly_at_their_thresholds() {
        for (threshold, name) in [(0.1, "inaccuracy"), (0.2, "mistake"), (0.3, "blunder")] {
            let at = first_judged(threshold);
            let judged = |loss: i64| {
                let f = figures(&[cp(0), cp(0), cp(-loss)]);
                (f.inaccuracies[0], f.mistakes[0], f.blunders[0])
            };
            let expected = match name {
                "inaccuracy" => ((1, 0, 0), (0, 0, 0)),
                "mistake" => ((0, 1, 0), (1, 0, 0)),
                _ => ((0, 0, 1), (0, 1, 0)),
            };
            assert_eq!(judged(at), expected.0, "{name} at {at}");
            assert_eq!(judged(at - 1), expected.1, "{name} below {at}");
        }
    }
}
