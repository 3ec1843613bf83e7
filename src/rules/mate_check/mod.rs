//! Who can still mate (SPEC.md "Who can still mate", FIDE 5.2.2 and 6.9): whether a side
//! can checkmate by some series of legal moves, both sides' moves chosen freely. The
//! analysis is M. Ambrona's CHA ("A Practical Algorithm for Chess Unwinnability", FUN
//! 2022) as its author's `chasolver` crate implements it on the `chess` crate; a position
//! goes there as FEN, and one that crate rejects is undecided. A side is said to be unable
//! to mate only when that is proved: an undecided side can mate, so no result is ever
//! changed by a guess.
//!
//! The crate takes no work budget, so a position that recurs in a run is analysed once
//! (a cache shared by the threads; its answers never depend on which thread asked first).

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::str::FromStr;
use std::sync::{Mutex, OnceLock};

use shakmaty::{Bitboard, ByColor, CastlingMode, Chess, Color, EnPassantMode, Position};

use crate::rules::fen::style::append_fen;

/// How far the analysis goes (`--mate-check`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum MateCheck {
    /// A sound quick check (`chasolver`'s fast one) behind a cheap gate.
    #[default]
    Fast,
    /// The quick check, then the complete search where it does not decide.
    Full,
    /// Insufficient material alone (shakmaty's test).
    Material,
}

impl MateCheck {
    pub const ALL: [MateCheck; 3] = [MateCheck::Fast, MateCheck::Full, MateCheck::Material];

    pub fn as_str(self) -> &'static str {
        match self {
            MateCheck::Fast => "fast",
            MateCheck::Full => "full",
            MateCheck::Material => "material",
        }
    }
}

/// What the analysis proved about one position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WhoCannotMate {
    /// White provably cannot mate.
    pub white_cannot: bool,
    /// Black provably cannot mate.
    pub black_cannot: bool,
    /// The complete search gave up on a side (its work limit): that side counts as able
    /// to mate.
    pub budget: bool,
}

impl WhoCannotMate {
    /// Neither side can mate: the position is dead (FIDE 5.2.2).
    pub fn is_dead(self) -> bool {
        self.white_cannot && self.black_cannot
    }

    pub fn cannot(self, color: Color) -> bool {
        match color {
            Color::White => self.white_cannot,
            Color::Black => self.black_cannot,
        }
    }

    /// The `cannot_mate` cell: `white`, `black`, `both` or nothing.
    pub fn cannot_mate(self) -> Option<CannotMate> {
        match (self.white_cannot, self.black_cannot) {
            (true, true) => Some(CannotMate::Both),
            (true, false) => Some(CannotMate::White),
            (false, true) => Some(CannotMate::Black),
            (false, false) => None,
        }
    }
}

/// The sides that provably cannot mate in a game's final position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CannotMate {
    White,
    Black,
    Both,
}

impl CannotMate {
    pub const ALL: [CannotMate; 3] = [CannotMate::White, CannotMate::Black, CannotMate::Both];

    pub fn as_str(self) -> &'static str {
        match self {
            CannotMate::White => "white",
            CannotMate::Black => "black",
            CannotMate::Both => "both",
        }
    }
}

/// Which sides' verdicts a caller reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wanted {
    /// Both sides', each decided as far as the level goes (a stats row shows them).
    Both,
    /// Only whether the position is dead, and whether this side (the recorded winner,
    /// if any) can mate: a side that neither can change is not analysed, and is then left
    /// undecided (able to mate). `is_dead` and `cannot(winner)` are exactly those of
    /// `Wanted::Both`.
    DeadOr(Option<Color>),
}

/// Who can still mate in `pos` at `level`. A checkmate or a stalemate is not analysed
/// (the game ended there): the caller decides those first. A Chess960 position with
/// castling rights left is judged by material alone (the `chess` crate knows standard
/// castling only).
pub fn analyse(pos: &Chess, mode: CastlingMode, level: MateCheck) -> WhoCannotMate {
    analyse_wanted(pos, mode, level, Wanted::Both)
}

/// As [`analyse`], the sides analysed as far as `wanted` reads them.
pub fn analyse_wanted(
    pos: &Chess,
    mode: CastlingMode,
    level: MateCheck,
    wanted: Wanted,
) -> WhoCannotMate {
    let mut verdict = WhoCannotMate {
        white_cannot: pos.has_insufficient_material(Color::White),
        black_cannot: pos.has_insufficient_material(Color::Black),
        budget: false,
    };
    let chess960_castling = mode == CastlingMode::Chess960 && pos.castles().any();
    if level == MateCheck::Material || chess960_castling || verdict.is_dead() {
        return verdict;
    }
    // Both gates are asked first: most final positions pass both, and need no FEN. A side
    // is settled when its verdict is known: it cannot mate by material, or the gate shows
    // it free to.
    let mut settled = ByColor::new_with(|side| {
        verdict.cannot(side) || (level == MateCheck::Fast && plainly_free(pos, side, FORCED_CHECKS))
    });
    if settled.white && settled.black {
        return verdict;
    }
    let mut fen = String::with_capacity(80);
    append_fen(pos, EnPassantMode::Legal, &mut fen);
    // The clocks play no part (and the key then holds a recurring position once): the
    // FEN is cut before its fifth field.
    if let Some((cut, _)) = fen.match_indices(' ').nth(3) {
        fen.truncate(cut);
    }
    // The recorded winner first: its answer is always wanted, and may settle that the
    // position is not dead.
    let order = match wanted {
        Wanted::DeadOr(Some(Color::Black)) => [Color::Black, Color::White],
        _ => [Color::White, Color::Black],
    };
    for side in order {
        if *settled.get(side) {
            continue;
        }
        if let Wanted::DeadOr(winner) = wanted {
            // Dead only if no side can mate: once a side is settled as able, only the
            // winner's answer is read.
            let some_side_able = Color::ALL
                .into_iter()
                .any(|other| *settled.get(other) && !verdict.cannot(other));
            if winner != Some(side) && some_side_able {
                continue;
            }
        }
        let (cannot, budget) = side_cannot_mate(&fen, side, level);
        match side {
            Color::White => verdict.white_cannot = cannot,
            Color::Black => verdict.black_cannot = cannot,
        }
        verdict.budget |= budget;
        *settled.get_mut(side) = true;
    }
    verdict
}

/// Whether `side` is proved able to mate in `pos`: the complete search found a series of
/// legal moves ending in its checkmate (SPEC.md "What a Termination tag claims"), whatever
/// the `--mate-check` level. A position the search does not decide (its work limit, a
/// Chess960 position with castling rights, a FEN the `chess` crate rejects) is not proved.
/// Asked of few positions (draws on time, claims of insufficient material): not cached.
pub fn proved_able_to_mate(pos: &Chess, mode: CastlingMode, side: Color) -> bool {
    if pos.has_insufficient_material(side)
        || (mode == CastlingMode::Chess960 && pos.castles().any())
    {
        return false;
    }
    let mut fen = String::with_capacity(80);
    append_fen(pos, EnPassantMode::Legal, &mut fen);
    let Ok(board) = chess::Board::from_str(&fen) else {
        return false;
    };
    let winner = match side {
        Color::White => chess::Color::White,
        Color::Black => chess::Color::Black,
    };
    let found = || {
        matches!(
            chasolver::winnability(&board, winner),
            Some(chasolver::Winnability::Winnable { .. })
        )
    };
    catch_unwind(AssertUnwindSafe(found)).unwrap_or(false)
}

/// Checks with a single answer the gate follows before it gives the position to the
/// analysis.
const FORCED_CHECKS: u32 = 4;

/// The cheap gate of `fast`: `side` has a queen, rook, knight or pawn, and the position is
/// open (no pawns at all, or a pawn not blocked by a pawn, or one that can capture). The analyses the labelled
/// lichess sample needs all have every pawn locked, or only bishops beside the king; the
/// tests check that the gate keeps every one of them.
fn plainly_free(pos: &Chess, side: Color, forced: u32) -> bool {
    let board = pos.board();
    let ours = board.by_color(side);
    // A check may force the next moves (a queen that must be taken at once, leaving a
    // bare king; a single answer that stalemates): only a side with three men beside its
    // king is plainly free then, and a check with one answer is judged after it.
    if pos.is_check() {
        if (ours & !board.kings()).count() < 3 {
            return false;
        }
        let answers = pos.legal_moves();
        if let [only] = answers.as_slice() {
            let mut after = pos.clone();
            after.play_unchecked(*only);
            let ends = after.legal_moves().is_empty();
            return forced > 0 && !ends && plainly_free(&after, side, forced - 1);
        }
    }
    let movers = board.queens() | board.rooks() | board.knights() | board.pawns();
    if (ours & movers).is_empty() {
        return false;
    }
    let pawns = board.pawns();
    if pawns.is_empty() {
        return true;
    }
    let white = board.by_color(Color::White);
    let black = board.by_color(Color::Black);
    let white_pawns = pawns & white;
    let black_pawns = pawns & black;
    // One step forward onto a square no pawn or king holds (another piece in the way can
    // step aside; a king may be shut in, or forced to take), or a capture onto an enemy
    // piece.
    let stops = pawns | board.kings();
    let white_push = white_pawns.shift(8) & !stops;
    let black_push = black_pawns.shift(-8) & !stops;
    let white_takes = pawn_captures(white_pawns, 8) & black;
    let black_takes = pawn_captures(black_pawns, -8) & white;
    (white_push | black_push | white_takes | black_takes).any()
}

/// The squares `pawns` attack, moving `forward` (8 for White, -8 for Black).
fn pawn_captures(pawns: Bitboard, forward: i32) -> Bitboard {
    let not_a = !Bitboard::from(shakmaty::File::A);
    let not_h = !Bitboard::from(shakmaty::File::H);
    (pawns & not_a).shift(forward - 1) | (pawns & not_h).shift(forward + 1)
}

/// Cached answers, by level, side and the position's first four FEN fields.
type Cache = HashMap<(MateCheck, bool, String), (bool, bool)>;

/// The most answers kept; past it the cache starts again (answers do not change, only
/// their cost).
const CACHE_LIMIT: usize = 1 << 16;

fn cache() -> &'static Mutex<Cache> {
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Whether `side` provably cannot mate in the position of `fen`, and whether the complete
/// search gave up; asked once per position and level in a run.
fn side_cannot_mate(fen: &str, side: Color, level: MateCheck) -> (bool, bool) {
    let key = (level, side == Color::White, fen.to_string());
    if let Ok(cache) = cache().lock()
        && let Some(&answer) = cache.get(&key)
    {
        return answer;
    }
    let answer = solve(fen, side, level);
    if let Ok(mut cache) = cache().lock() {
        if cache.len() >= CACHE_LIMIT {
            cache.clear();
        }
        cache.insert(key, answer);
    }
    answer
}

/// The crate's analysis of one side. A FEN the `chess` crate rejects, or a panic inside
/// it, is undecided: the side can mate.
fn solve(fen: &str, side: Color, level: MateCheck) -> (bool, bool) {
    let Ok(board) = chess::Board::from_str(fen) else {
        return (false, false);
    };
    let winner = match side {
        Color::White => chess::Color::White,
        Color::Black => chess::Color::Black,
    };
    let run = || {
        if chasolver::is_unwinnable_fast(&board, winner) {
            return (true, false);
        }
        if level != MateCheck::Full {
            return (false, false);
        }
        match chasolver::winnability(&board, winner) {
            Some(chasolver::Winnability::Unwinnable) => (true, false),
            Some(chasolver::Winnability::Winnable { .. }) => (false, false),
            None => (false, true),
        }
    };
    catch_unwind(AssertUnwindSafe(run)).unwrap_or((false, false))
}

#[cfg(test)]
mod tests;
