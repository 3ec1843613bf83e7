//! The `TimeControl` tag (SPEC.md "Time controls"): the PGN standard's periods (9.6.1)
//! with the increment servers and FIDE write, in milliseconds; its standard form for the
//! `time_control` column; and a side's schedule of increments and period bonuses, which
//! the clock checks (`rules/clocks.rs`) walk move by move.

/// A duration in milliseconds (a time control's seconds have at most three decimals).
pub type Millis = i64;

/// One period of a time control.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Period {
    /// `M/S+I`: M moves in S seconds, I added after each move.
    Moves {
        moves: u32,
        seconds: Millis,
        increment: Millis,
    },
    /// `S+I`: the rest of the game in S seconds.
    Rest { seconds: Millis, increment: Millis },
    /// `*S`: a sandclock of S seconds.
    Sandclock { seconds: Millis },
}

/// A time control read from its tag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimeControl {
    periods: Vec<Period>,
}

/// What a `TimeControl` value says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Declared {
    /// `?`, `-`, empty, or no tag.
    Unknown,
    Known(TimeControl),
    /// Anything else (`tag.bad-time-control`).
    Bad,
}

/// Periods a time control may have (a value of thousands is no time control).
const MAX_PERIODS: usize = 16;

impl TimeControl {
    /// Reads a tag value: periods separated by `:`, spaces anywhere ignored.
    pub fn read(value: Option<&str>) -> Declared {
        let Some(value) = value else {
            return Declared::Unknown;
        };
        // Most values hold no space: read as they are, without a copy.
        let compact: std::borrow::Cow<str> = if value.contains(char::is_whitespace) {
            value
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect::<String>()
                .into()
        } else {
            value.into()
        };
        if matches!(&*compact, "" | "?" | "-") {
            return Declared::Unknown;
        }
        let mut periods: Vec<Period> = Vec::with_capacity(1);
        for text in compact.split(':') {
            // Only the last period may be the rest of the game or a sandclock.
            let open_ended = |p: &Period| !matches!(p, Period::Moves { .. });
            if periods.len() == MAX_PERIODS || periods.last().is_some_and(open_ended) {
                return Declared::Bad;
            }
            match period(text) {
                Some(period) => periods.push(period),
                None => return Declared::Bad,
            }
        }
        Declared::Known(TimeControl { periods })
    }

    /// The standard form: `300+3`, `40/5400+30:1800+30`, `*60`. Written into one string
    /// (a stats row asks it of every game with the tag: a string per part, joined, cost
    /// some 1,400 instructions).
    pub fn standard(&self) -> String {
        let mut text = String::with_capacity(16);
        for (index, period) in self.periods.iter().enumerate() {
            if index > 0 {
                text.push(':');
            }
            match *period {
                Period::Moves {
                    moves,
                    seconds,
                    increment,
                } => {
                    text.push_str(itoa::Buffer::new().format(moves));
                    text.push('/');
                    push_seconds(&mut text, seconds);
                    push_plus(&mut text, increment);
                }
                Period::Rest { seconds, increment } => {
                    push_seconds(&mut text, seconds);
                    push_plus(&mut text, increment);
                }
                Period::Sandclock { seconds } => {
                    text.push('*');
                    push_seconds(&mut text, seconds);
                }
            }
        }
        text
    }

    /// Whether a side's clock follows from its moves' times: not under a sandclock, nor a
    /// fixed time per move (a first period `1/S`, as chess.com's daily games write
    /// `1/86400`), where the clock is reset at every move.
    pub fn clocks_follow(&self) -> bool {
        let per_move = matches!(self.periods.first(), Some(Period::Moves { moves: 1, .. }));
        !per_move
            && !self
                .periods
                .iter()
                .any(|p| matches!(p, Period::Sandclock { .. }))
    }

    /// A side's clock before its first move: the first period's S.
    pub fn start(&self) -> Millis {
        match self.periods.first() {
            Some(Period::Moves { seconds, .. } | Period::Rest { seconds, .. }) => *seconds,
            Some(Period::Sandclock { seconds }) => *seconds,
            None => 0,
        }
    }

    /// One side's walk through the periods, move by move.
    pub fn schedule(&self) -> Schedule<'_> {
        Schedule {
            periods: &self.periods,
            index: 0,
            done: 0,
        }
    }
}

/// Where a side stands in the periods of its time control.
#[derive(Debug, Clone)]
pub struct Schedule<'a> {
    periods: &'a [Period],
    index: usize,
    /// Moves made in the current period.
    done: u32,
}

impl Schedule<'_> {
    /// What the side's next move adds to its clock: the increment in force, and the next
    /// period's S when the move is the last of a period (after the last period, the last
    /// `M/S` period repeats).
    pub fn next_move(&mut self) -> (Millis, Millis) {
        match self.periods.get(self.index).copied() {
            Some(Period::Moves {
                moves, increment, ..
            }) => {
                self.done += 1;
                if self.done < moves {
                    return (increment, 0);
                }
                self.done = 0;
                if self.index + 1 < self.periods.len() {
                    self.index += 1;
                }
                let bonus = match self.periods.get(self.index) {
                    Some(Period::Moves { seconds, .. } | Period::Rest { seconds, .. }) => *seconds,
                    _ => 0,
                };
                (increment, bonus)
            }
            Some(Period::Rest { increment, .. }) => (increment, 0),
            Some(Period::Sandclock { .. }) | None => (0, 0),
        }
    }
}

/// One period: `M/S`, `S` or `*S`, the first two with an optional `+I`.
fn period(text: &str) -> Option<Period> {
    if let Some(sand) = text.strip_prefix('*') {
        return Some(Period::Sandclock {
            seconds: millis(sand)?,
        });
    }
    let (base, increment) = match text.split_once('+') {
        Some((base, increment)) => (base, millis(increment)?),
        None => (text, 0),
    };
    match base.split_once('/') {
        Some((moves, seconds)) => {
            if moves.is_empty() || moves.len() > 4 || !moves.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let moves: u32 = moves.parse().ok()?;
            (moves > 0).then_some(Period::Moves {
                moves,
                seconds: millis(seconds)?,
                increment,
            })
        }
        None => Some(Period::Rest {
            seconds: millis(base)?,
            increment,
        }),
    }
}

/// Seconds with at most three decimals (`300`, `0300`, `2.5`), in milliseconds; at most
/// a year of them.
fn millis(text: &str) -> Option<Millis> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty()
        || whole.len() > 9
        || fraction.len() > 3
        || !digits(whole)
        || !digits(fraction)
    {
        return None;
    }
    if text.ends_with('.') {
        return None;
    }
    let whole: Millis = whole.parse().ok()?;
    let mut thousandths: Millis = 0;
    for (place, digit) in [100, 10, 1].into_iter().zip(fraction.bytes()) {
        thousandths += place * Millis::from(digit - b'0');
    }
    let value = whole * 1000 + thousandths;
    (value <= 366 * 86_400_000).then_some(value)
}

/// Seconds in their shortest decimal form: `300`, `2.5`, `0.125`.
pub fn seconds_text(millis: Millis) -> String {
    let mut text = String::new();
    push_seconds(&mut text, millis);
    text
}

/// Appends [`seconds_text`]: the whole seconds, then the milliseconds without trailing
/// zeros (`5.05`, `5.5`).
fn push_seconds(text: &mut String, millis: Millis) {
    let (whole, fraction) = (millis / 1000, (millis % 1000).abs());
    text.push_str(itoa::Buffer::new().format(whole));
    if fraction == 0 {
        return;
    }
    text.push('.');
    let [hundreds, tens, ones] = [fraction / 100, fraction / 10 % 10, fraction % 10];
    let shown = if ones != 0 {
        3
    } else if tens != 0 {
        2
    } else {
        1
    };
    for digit in [hundreds, tens, ones].into_iter().take(shown) {
        text.push(char::from(b'0' + digit as u8));
    }
}

/// Appends `+I`, or nothing for no increment.
fn push_plus(text: &mut String, increment: Millis) {
    if increment != 0 {
        text.push('+');
        push_seconds(text, increment);
    }
}

#[cfg(test)]
mod tests {
    #![allow(
        clippy::unwrap_used,
        clippy::panic,
        clippy::indexing_slicing,
        reason = "a test fails loudly"
    )]

    use super::{Declared, TimeControl, seconds_text};

    /// Seconds are written as the `format!` they replace wrote them: the whole seconds
    /// (rounded towards zero), then the milliseconds, unsigned, without trailing zeros.
    #[test]
    fn seconds_are_written_as_before() {
        let before = |millis: i64| {
            let (whole, fraction) = (millis / 1000, (millis % 1000).abs());
            if fraction == 0 {
                return whole.to_string();
            }
            let fraction = format!("{fraction:03}");
            format!("{whole}.{}", fraction.trim_end_matches('0'))
        };
        let edges = [i64::MIN, i64::MAX, -1, 0, 1, 86_400_000, 123_456_789];
        for millis in (-3_000..3_000).chain(edges) {
            assert_eq!(seconds_text(millis), before(millis), "{millis}");
        }
        assert_eq!(seconds_text(5_050), "5.05");
        assert_eq!(seconds_text(-500), "0.5");
    }

    fn standard(value: &str) -> Option<String> {
        match TimeControl::read(Some(value)) {
            Declared::Known(control) => Some(control.standard()),
            _ => None,
        }
    }

    /// SPEC.md's examples and every form of the PGN standard.
    #[test]
    fn every_form_is_read_and_written_in_its_standard_form() {
        for (value, form) in [
            ("300+3", "300+3"),
            ("60+0", "60"),
            ("0300+3.0", "300+3"),
            ("40/5400+30:1800+30", "40/5400+30:1800+30"),
            ("40/7200:3600", "40/7200:3600"),
            ("*60", "*60"),
            ("1/86400", "1/86400"),
            ("15+10", "15+10"),
            ("0+1", "0+1"),
            ("2.5+0.25", "2.5+0.25"),
            (" 40 / 7200 : 3600 ", "40/7200:3600"),
            ("1800", "1800"),
        ] {
            assert_eq!(standard(value).as_deref(), Some(form), "{value}");
        }
    }

    #[test]
    fn unknown_and_bad_values_are_told_apart() {
        for value in ["?", "-", "", "  "] {
            assert_eq!(TimeControl::read(Some(value)), Declared::Unknown, "{value}");
        }
        assert_eq!(TimeControl::read(None), Declared::Unknown);
        for value in [
            "5 min",
            "300+",
            "+3",
            "40/",
            "/300",
            "0/300",
            "3:00",
            "300+3+1",
            "1.2345",
            "300.",
            "-300",
            "40/5400:?",
            "*",
            "x",
        ] {
            assert_eq!(TimeControl::read(Some(value)), Declared::Bad, "{value}");
        }
    }

    /// A side's increments and bonuses: the second period's S after move 40, then the
    /// last `M/S` period repeating.
    #[test]
    fn the_schedule_adds_increments_and_period_bonuses() {
        let Declared::Known(control) = TimeControl::read(Some("2/100+5:1/50")) else {
            panic!("read");
        };
        let mut schedule = control.schedule();
        let added: Vec<(i64, i64)> = (0..5).map(|_| schedule.next_move()).collect();
        assert_eq!(
            added,
            [(5000, 0), (5000, 50000), (0, 50000), (0, 50000), (0, 50000)]
        );
        let Declared::Known(control) = TimeControl::read(Some("40/5400+30:1800+30")) else {
            panic!("read");
        };
        let mut schedule = control.schedule();
        let bonus: Vec<i64> = (1..=45).map(|_| schedule.next_move().1).collect();
        assert_eq!(bonus.iter().sum::<i64>(), 1_800_000);
        assert_eq!(bonus[39], 1_800_000, "after move 40");
        assert!(control.clocks_follow());
        let Declared::Known(daily) = TimeControl::read(Some("1/86400")) else {
            panic!("read");
        };
        assert!(!daily.clocks_follow());
    }
}
