//! The `stats` figures of a game's clocks and evaluations, gathered move by move (SPEC.md
//! "Tag columns and annotations": lichess's centipawn loss and winning-chance judgements).

use shakmaty::Color;

use super::{Clock, CommentAnnotations, Eval};

/// lichess's bounds: centipawn scores are clamped to ±1000, and a mate counts as 1000
/// for the side that mates.
const CEILING: i64 = 1000;

/// An evaluation from White's point of view after clamping; `mate` when it was a mate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Score {
    centipawns: i64,
    mate: bool,
}

/// Winning chances from White's point of view, -1 to 1 (lichess's `WinPercent`).
pub(super) fn winning_chances(centipawns: i64) -> f64 {
    2.0 / (1.0 + (-0.003_682_08 * centipawns as f64).exp()) - 1.0
}

/// The clock and evaluation figures of one game, gathered move by move.
#[derive(Debug, Clone, Default)]
pub struct AnnotationFigures {
    /// Moves with a clock.
    pub clocks: u32,
    /// Each side's last and lowest clock (White first).
    pub clock_end: [Option<Clock>; 2],
    pub clock_min: [Option<Clock>; 2],
    /// Moves with an evaluation.
    pub evals: u32,
    /// Per side (White first): the counted moves, their summed loss, and judgements.
    pub counted: [u32; 2],
    pub loss_sum: [u64; 2],
    pub inaccuracies: [u32; 2],
    pub mistakes: [u32; 2],
    pub blunders: [u32; 2],
    /// Malformed `[%clk]` / `[%eval]` commands passed over.
    pub bad: u32,
    /// The last ply given a clock, and the last given an evaluation with its score.
    clock_ply: u32,
    last_eval: Option<(u32, Score)>,
}

fn side(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl AnnotationFigures {
    /// Takes in what a comment after the move of `ply` (played by `mover`) holds; the
    /// first clock and the first evaluation of a move count, later ones are passed over.
    pub fn add(&mut self, ply: u32, mover: Color, found: &CommentAnnotations) {
        self.bad += u32::try_from(found.bad.len()).unwrap_or(u32::MAX);
        if let Some(clock) = found.clock
            && self.clock_ply != ply
        {
            self.clock_ply = ply;
            self.clocks += 1;
            let s = side(mover);
            if let Some(end) = self.clock_end.get_mut(s) {
                *end = Some(clock);
            }
            if let Some(min) = self.clock_min.get_mut(s) {
                *min = Some(min.map_or(clock, |m| m.min(clock)));
            }
        }
        if let Some(eval) = found.eval
            && self.last_eval.is_none_or(|(last, _)| last != ply)
        {
            self.evals += 1;
            let score = match eval {
                Eval::Centipawns(cp) => Score {
                    centipawns: cp.clamp(-CEILING, CEILING),
                    mate: false,
                },
                Eval::Mate(moves) => {
                    // `#0`: the side to move is mated, so the mover mated.
                    let white_mates = if moves == 0 {
                        mover == Color::White
                    } else {
                        moves > 0
                    };
                    Score {
                        centipawns: if white_mates { CEILING } else { -CEILING },
                        mate: true,
                    }
                }
            };
            if let Some((last, before)) = self.last_eval
                && ply >= 2
                && last + 1 == ply
            {
                self.count_move(mover, before, score);
            }
            self.last_eval = Some((ply, score));
        }
    }

    /// A move with an evaluation before and after it: its loss and judgement.
    fn count_move(&mut self, mover: Color, before: Score, after: Score) {
        let s = side(mover);
        // From the mover's point of view.
        let loss = match mover {
            Color::White => before.centipawns - after.centipawns,
            Color::Black => after.centipawns - before.centipawns,
        }
        .max(0);
        if let (Some(counted), Some(sum)) = (self.counted.get_mut(s), self.loss_sum.get_mut(s)) {
            *counted += 1;
            *sum += loss.unsigned_abs();
        }
        if before.mate || after.mate {
            return;
        }
        // lichess: the change in White's winning chances, negated for White.
        let change = winning_chances(after.centipawns) - winning_chances(before.centipawns);
        let drop = match mover {
            Color::White => -change,
            Color::Black => change,
        };
        let judgement = if drop >= 0.3 {
            self.blunders.get_mut(s)
        } else if drop >= 0.2 {
            self.mistakes.get_mut(s)
        } else if drop >= 0.1 {
            self.inaccuracies.get_mut(s)
        } else {
            None
        };
        if let Some(count) = judgement {
            *count += 1;
        }
    }

    /// The side's mean loss, rounded half away from zero; `None` without a counted move.
    pub fn acpl(&self, color: Color) -> Option<u64> {
        let s = side(color);
        let counted = u64::from(*self.counted.get(s)?);
        let sum = *self.loss_sum.get(s)?;
        (counted > 0).then(|| (2 * sum + counted) / (2 * counted))
    }
}
