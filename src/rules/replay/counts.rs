//! Move counts of one game (the stats columns `checks` ... `missed_en_passant`).

use shakmaty::{Chess, Move, Position, Role};

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MoveCounts {
    /// Moves after which the opponent is in check (mates included).
    pub checks: u32,
    /// Captures, en passant included: not counted move by move but set once the game is
    /// replayed (`set_captures`), as each capture takes one man off the board and no
    /// other move changes their number.
    pub captures: u32,
    pub castles: u32,
    pub en_passant: u32,
    pub promotions: u32,
    /// Promotions to a rook, bishop or knight.
    pub under_promotions: u32,
    /// Moves played where a legal en passant capture was available and not taken.
    pub missed_en_passant: u32,
}

impl MoveCounts {
    /// One match on the move (each of `Move`'s tests matches it again).
    #[inline(always)]
    pub fn record(&mut self, m: Move, gave_check: bool, missed_en_passant: bool) {
        self.checks += u32::from(gave_check);
        self.missed_en_passant += u32::from(missed_en_passant);
        match m {
            Move::Normal { promotion, .. } => {
                if let Some(role) = promotion {
                    self.promotions += 1;
                    self.under_promotions += u32::from(role != Role::Queen);
                }
            }
            Move::EnPassant { .. } => self.en_passant += 1,
            Move::Castle { .. } => self.castles += 1,
            Move::Put { .. } => {}
        }
    }

    /// The captures of the moves played from `start` to `end`: the men taken off.
    pub fn set_captures(&mut self, start: &Chess, end: &Chess) {
        let men = |pos: &Chess| pos.board().occupied().count();
        self.captures = u32::try_from(men(start).saturating_sub(men(end))).unwrap_or(0);
    }
}
