//! What a game's clocks and move times say against its time control (SPEC.md "Clock
//! annotations"): each side's clock after each of its moves, read (`[%clk]`) or derived
//! from the move times; the time each move took; `clock.gain`, a clock that gained more
//! than the control adds; and `clock.over-time`, move times that add up to more than the
//! control gave, in a game that did not end with that side losing on time. The replay
//! gathers the annotations (`replay/annotations.rs`) and asks here once, at its end.

use shakmaty::Color;

use crate::rules::findings::Code;
use crate::rules::replay::annotations::{Clock, MoveTime};
use crate::rules::time_control::{Millis, TimeControl, seconds_text};

/// The clock annotations of one main-line move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveClock {
    pub ply: u32,
    pub mover: Color,
    /// `[%clk]`: the mover's clock after the move.
    pub clock: Option<Clock>,
    /// `[%emt]` or cutechess: the time the move took.
    pub time: Option<MoveTime>,
    /// The line of the comment that says so.
    pub line: u64,
}

/// The game as the clocks see it.
pub struct TimedGame<'a> {
    /// The annotated moves, in ply order (one per ply at most).
    pub moves: &'a [MoveClock],
    /// The moves of the main line.
    pub plies: u32,
    /// Who made the first move.
    pub first_mover: Color,
    /// The side that lost on time, as the record ends (SPEC.md: a claim of a loss on time,
    /// the loser by R, or the side to move with a drawn R).
    pub lost_on_time: Option<Color>,
}

/// A side's figures (White first in each pair).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClockFigures {
    /// The sum of the side's move times; `None` when no move time of it is known.
    pub time_used: [Option<Millis>; 2],
    /// The side's longest move.
    pub move_time_max: [Option<Millis>; 2],
}

/// Each side's clocks derived from the move times where the game has no `[%clk]` (one per
/// move of the side, in order; empty when none are): they fill the clock columns as read
/// ones do.
pub type Derived = [Vec<Millis>; 2];

/// A clock finding at one move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClockFinding {
    pub code: Code,
    pub ply: u32,
    pub line: u64,
    pub message: String,
}

fn index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

fn name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// One move of a game's timeline: the mover's clock after it (read, or derived from the
/// move times) and the time it took (written, or from the clocks under the control).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimedMove {
    pub ply: u32,
    pub clock: Option<Millis>,
    pub time: Option<Millis>,
}

/// The figures and findings of a game's clocks under `control` (`None`: no time control
/// is known, and only the written move times count).
pub fn judge(
    game: &TimedGame,
    control: Option<&TimeControl>,
) -> (ClockFigures, Derived, Vec<ClockFinding>) {
    walk(game, control, &mut |_| {})
}

/// Every move of the game with its clock and move time, in ply order, as [`judge`] sees
/// them: `moves`' clock and move_time columns.
pub fn timeline(game: &TimedGame, control: Option<&TimeControl>) -> Vec<TimedMove> {
    let mut moves = Vec::with_capacity(game.plies as usize);
    walk(game, control, &mut |m| moves.push(m));
    moves.sort_by_key(|m| m.ply);
    moves
}

/// The one walk of each side's moves through the time control: [`judge`]'s figures and
/// findings, and each move handed to `each` as it is reached.
fn walk(
    game: &TimedGame,
    control: Option<&TimeControl>,
    each: &mut dyn FnMut(TimedMove),
) -> (ClockFigures, Derived, Vec<ClockFinding>) {
    let mut figures = ClockFigures::default();
    let mut all_derived = Derived::default();
    let mut findings = Vec::new();
    // The clocks follow from the moves only under a control that adds time move by move.
    let control = control.filter(|control| control.clocks_follow());
    let read_clocks = game.moves.iter().any(|m| m.clock.is_some());
    let has_times = game.moves.iter().any(|m| m.time.is_some());
    for side in Color::ALL {
        let side_moves = side_move_count(game, side);
        let mut annotated = game.moves.iter().filter(|m| m.mover == side).peekable();
        let side_clocks = game
            .moves
            .iter()
            .any(|m| m.mover == side && m.clock.is_some());
        let mut schedule = control.map(TimeControl::schedule);
        // c(k-1): the side's clock before its move, where known.
        let mut before = control.map(TimeControl::start);
        let (mut used, mut longest) = (None::<Millis>, None::<Millis>);
        let mut given = control.map_or(0, TimeControl::start);
        let mut whole_times = 0;
        let mut over_time_said = false;
        let derive = control.is_some() && !read_clocks;
        let mut derived = Vec::new();
        for k in 1..=side_moves {
            let ply = ply_of(game, side, k);
            let here = annotated.next_if(|m| m.ply == ply);
            let (increment, bonus) = schedule.as_mut().map_or((0, 0), |s| s.next_move());
            let allowance = increment + bonus;
            given += allowance;
            let recorded = here.and_then(|m| m.clock).map(Clock::millis);
            let written = here.and_then(|m| m.time);
            // The move's time: as written, else from the clocks under a known control.
            let time = written.map(|t| t.millis).or_else(|| {
                let (before, now) = (before?, recorded?);
                control.map(|_| (before + allowance - now).max(0))
            });
            if let Some(time) = time {
                used = Some(used.unwrap_or(0) + time);
                longest = Some(longest.map_or(time, |l: Millis| l.max(time)));
            }
            if let (Some(control), Some(now), Some(previous), Some(m)) =
                (control, recorded, before, here)
                && now > previous + allowance + 1000
            {
                findings.push(gain(m, previous, now, increment, bonus, control));
            }
            if written.is_some_and(|t| t.whole) {
                whole_times += 1;
            }
            if control.is_some()
                && !side_clocks
                && !over_time_said
                && game.lost_on_time != Some(side)
                && let (Some(used), Some(m)) = (used, here)
                && written.is_some()
                && used > given + 1000 + 1000 * whole_times
            {
                over_time_said = true;
                findings.push(over_time(m, used, given));
            }
            before = if derive {
                let clock = before.map(|b| b - written.map_or(0, |t| t.millis) + allowance);
                derived.extend(clock);
                clock
            } else {
                recorded
            };
            // Derived clocks count only where some move time is written.
            let clock = if derive && !has_times { None } else { before };
            each(TimedMove { ply, clock, time });
        }
        let slot = index(side);
        if let Some(cell) = figures.time_used.get_mut(slot) {
            *cell = used;
        }
        if let Some(cell) = figures.move_time_max.get_mut(slot) {
            *cell = longest;
        }
        if let Some(cell) = all_derived.get_mut(slot)
            && has_times
        {
            *cell = derived;
        }
    }
    findings.sort_by_key(|f| f.ply);
    (figures, all_derived, findings)
}

/// How many moves `side` made in a game of `plies` plies.
fn side_move_count(game: &TimedGame, side: Color) -> u32 {
    if side == game.first_mover {
        game.plies.div_ceil(2)
    } else {
        game.plies / 2
    }
}

/// The ply of the side's move `k` (1-based).
fn ply_of(game: &TimedGame, side: Color, k: u32) -> u32 {
    if side == game.first_mover {
        2 * k - 1
    } else {
        2 * k
    }
}

fn gain(
    m: &MoveClock,
    previous: Millis,
    now: Millis,
    increment: Millis,
    bonus: Millis,
    control: &TimeControl,
) -> ClockFinding {
    let mut allowance = format!("the increment of {} s", seconds_text(increment));
    if bonus > 0 {
        allowance.push_str(&format!(" and the next period's {} s", seconds_text(bonus)));
    }
    ClockFinding {
        code: Code::ClockGain,
        ply: m.ply,
        line: m.line,
        message: format!(
            "{}'s clock went from {} to {} with this move: {} s more than {} under [TimeControl \"{}\"] allows (time added by the opponent online or by an arbiter, FIDE 7.5.5's two minutes after an illegal move, a clock set wrong, or an edited record)",
            name(m.mover),
            clock_text(previous),
            clock_text(now),
            seconds_text(now - previous - increment - bonus),
            allowance,
            control.standard()
        ),
    }
}

fn over_time(m: &MoveClock, used: Millis, given: Millis) -> ClockFinding {
    ClockFinding {
        code: Code::ClockOverTime,
        ply: m.ply,
        line: m.line,
        message: format!(
            "{}'s move times add up to {} s by this move, {} s more than the {} s the time control gave it by then: its flag fell and play went on, or the result is wrong",
            name(m.mover),
            seconds_text(used),
            seconds_text(used - given),
            seconds_text(given)
        ),
    }
}

/// A clock as `H:MM:SS`, with its fraction where it has one.
fn clock_text(millis: Millis) -> String {
    let seconds = millis.div_euclid(1000);
    let fraction = millis.rem_euclid(1000);
    let mut text = format!(
        "{}:{:02}:{:02}",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    );
    if fraction > 0 {
        text.push_str(&format!(".{fraction:03}"));
        while text.ends_with('0') {
            text.pop();
        }
    }
    text
}
