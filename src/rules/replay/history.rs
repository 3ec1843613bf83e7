//! The little history the diagnosis layer needs: what happened earlier in the game that
//! explains why a move is illegal now. Recorded on the legal path (a few integer and
//! bitboard updates per ply, no allocation), read only when a move fails.

use shakmaty::{Bitboard, CastlingSide, Chess, Color, Move, Position, Role, Square};

use crate::pgn::Span;

/// One move of the game, kept as its ply and where its token stands in the game's bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveRef {
    /// 1-based ply within the game.
    pub ply: u32,
    /// Byte range of the move's token (to quote it as written).
    pub span: Span,
}

/// A move the replay played, and its token in the game's bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Played {
    pub mv: Move,
    pub token: Span,
}

/// Why a castling right was lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// The king moved (castling included: see `History::king_moved`).
    KingMoved,
    /// The rook left its original square.
    RookMoved,
    /// The opponent captured the rook on its original square.
    RookCaptured,
}

/// When and why one castling right was lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Loss {
    pub cause: Cause,
    pub by: MoveRef,
    /// The rook square the right belonged to.
    pub rook: Square,
}

/// How the last pawn that moved onto a square got there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arrival {
    pub by: MoveRef,
    pub double_step: bool,
    pub capture: bool,
}

/// Per-game history, updated before every legal move is played.
#[derive(Debug, Clone)]
pub struct History {
    /// Side to move and fullmove number of the start position (to label earlier moves).
    pub start_turn: Color,
    pub start_fullmoves: u32,
    /// The castling rights of the start position, as rook squares.
    pub start_rights: Bitboard,
    /// The en passant square of the start position (`[FEN]` field), if any.
    pub start_ep: Option<Square>,
    /// The rights still held according to this log (cross-checked against shakmaty).
    rights: Bitboard,
    /// `[colour][side]`: the loss of each right held at the start.
    losses: [[Option<Loss>; 2]; 2],
    /// `[colour]`: the first king move, and whether it was castling.
    first_king_move: [Option<(MoveRef, bool)>; 2],
    /// The last pawn arrival on every square (index = square).
    arrivals: [Option<Arrival>; 64],
}

impl Default for History {
    fn default() -> History {
        History {
            start_turn: Color::White,
            start_fullmoves: 1,
            start_rights: Bitboard::EMPTY,
            start_ep: None,
            rights: Bitboard::EMPTY,
            losses: [[None; 2]; 2],
            first_king_move: [None; 2],
            arrivals: [None; 64],
        }
    }
}

fn side_index(side: CastlingSide) -> usize {
    match side {
        CastlingSide::KingSide => 0,
        CastlingSide::QueenSide => 1,
    }
}

fn color_index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl History {
    /// Called once with the start position.
    pub fn start(&mut self, pos: &Chess) {
        // Reset in place: the arrival table is the bulk of the struct.
        self.start_turn = pos.turn();
        self.start_fullmoves = pos.fullmoves().get();
        self.start_rights = pos.castles().castling_rights();
        self.start_ep = pos.maybe_ep_square();
        self.rights = self.start_rights;
        self.losses = [[None; 2]; 2];
        self.first_king_move = [None; 2];
        self.arrivals.fill(None);
    }

    /// The history of a game that started at `start` and played `moves` (each with its
    /// token's byte range): how the replay builds it when a move fails.
    pub fn replayed(start: &Chess, moves: &[Played]) -> History {
        let mut history = History::default();
        history.start(start);
        let mut pos = start.clone();
        for (ply, &Played { mv: m, token }) in (1..).zip(moves) {
            history.record(&pos, m, ply, token);
            pos.play_unchecked(m);
            history.cross_check(&pos);
        }
        history
    }

    /// Called with each legal move before it is played; `ply` is its 1-based ply.
    #[inline]
    pub fn record(&mut self, pos: &Chess, m: Move, ply: u32, span: Span) {
        let by = MoveRef { ply, span };
        match m {
            Move::Normal {
                role: Role::Pawn,
                from,
                capture,
                to,
                ..
            } => self.arrive(to, by, from.distance(to) == 2, capture.is_some()),
            Move::EnPassant { to, .. } => self.arrive(to, by, false, true),
            Move::Normal {
                role: Role::King, ..
            } => self.king_moves(pos.turn(), by, false),
            Move::Castle { .. } => self.king_moves(pos.turn(), by, true),
            _ => {}
        }
        // Only a king move, or a move from or to a castling rook's square, can lose a right.
        if self.rights.any()
            && (m.role() == Role::King
                || m.from().is_some_and(|from| self.rights.contains(from))
                || self.rights.contains(m.to()))
        {
            self.record_rights(pos, m, by);
        }
    }

    #[inline]
    fn arrive(&mut self, to: Square, by: MoveRef, double_step: bool, capture: bool) {
        if let Some(slot) = self.arrivals.get_mut(to as usize) {
            *slot = Some(Arrival {
                by,
                double_step,
                capture,
            });
        }
    }

    #[inline]
    fn king_moves(&mut self, color: Color, by: MoveRef, castled: bool) {
        if let Some(slot @ None) = self.first_king_move.get_mut(color_index(color)) {
            *slot = Some((by, castled));
        }
    }

    /// The castling rights a move removes, with why (the order shakmaty applies them).
    fn record_rights(&mut self, pos: &Chess, m: Move, by: MoveRef) {
        let castles = pos.castles();
        let turn = pos.turn();
        let mut lose = |color: Color, side: CastlingSide, cause: Cause| {
            if let Some(rook) = castles.rook(color, side)
                && self.rights.contains(rook)
            {
                self.rights.discard(rook);
                if let Some(slot) = self
                    .losses
                    .get_mut(color_index(color))
                    .and_then(|sides| sides.get_mut(side_index(side)))
                {
                    *slot = Some(Loss { cause, by, rook });
                }
            }
        };
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            if m.role() == Role::King {
                lose(turn, side, Cause::KingMoved);
            }
            if m.from().is_some() && m.from() == castles.rook(turn, side) {
                lose(turn, side, Cause::RookMoved);
            }
            if !m.is_castle() && Some(m.to()) == castles.rook(!turn, side) {
                lose(!turn, side, Cause::RookCaptured);
            }
        }
    }

    /// Re-aligns the log with shakmaty's rights after a move; returns false if they
    /// disagreed (the log then trusts shakmaty).
    #[inline]
    pub fn cross_check(&mut self, pos: &Chess) -> bool {
        let actual = pos.castles().castling_rights();
        if actual == self.rights {
            return true;
        }
        self.rights = actual;
        false
    }

    /// How and when the right of `color` on `side` was lost, if it was held at the start.
    pub fn loss(&self, color: Color, side: CastlingSide) -> Option<Loss> {
        self.losses
            .get(color_index(color))
            .and_then(|sides| sides.get(side_index(side)))
            .copied()
            .flatten()
    }

    /// The first king move of `color`, and whether it was castling.
    pub fn first_king_move(&self, color: Color) -> Option<(MoveRef, bool)> {
        self.first_king_move
            .get(color_index(color))
            .copied()
            .flatten()
    }

    /// How the last pawn that moved onto `square` got there.
    pub fn arrival(&self, square: Square) -> Option<Arrival> {
        self.arrivals.get(square as usize).copied().flatten()
    }

    /// `14.` or `14...`: the number of the move at `ply`.
    pub fn move_number(&self, ply: u32) -> String {
        let offset = u32::from(self.start_turn.is_black());
        let index = ply.saturating_sub(1) + offset;
        let number = self.start_fullmoves + index / 2;
        if index.is_multiple_of(2) {
            format!("{number}.")
        } else {
            format!("{number}...")
        }
    }
}
