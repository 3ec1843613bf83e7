//! Draw-rule tracking during a replay: repetition per FIDE 9.2.3 (placement, side to
//! move, castling rights, and an en passant square only where a legal en passant capture
//! exists), the fifty and seventy-five move rules, and perpetual check.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{
    Bitboard, Board, CastlingSide, Chess, Color, EnPassantMode, Move, Piece, Position, Role, Square,
};

/// Up to this many positions since the last irreversible move, repetitions are counted by
/// a scan; beyond it, by a map.
const SCAN_LIMIT: usize = 64;

/// The position identity used for repetition.
pub fn position_key(pos: &Chess) -> u64 {
    let hash: Zobrist64 = pos.zobrist_hash(EnPassantMode::Legal);
    hash.0
}

/// PolyGlot's key (shakmaty's `EnPassantMode::PseudoLegal`: an en passant square wherever
/// a pawn stands ready to capture there, legal or not) of a position whose
/// `position_key` is `key`: the two differ only in that square, so the replay's own key
/// serves, and the full hash (about 235 instructions) is not made again.
pub fn polyglot_key(key: u64, pos: &Chess) -> u64 {
    match pos.pseudo_legal_ep_square() {
        None => key,
        ready => key ^ en_passant_key(legal_en_passant(pos)) ^ en_passant_key(ready),
    }
}

/// `position_key` of the standard start position, worked out once.
pub fn standard_start_key() -> u64 {
    static KEY: OnceLock<u64> = OnceLock::new();
    *KEY.get_or_init(|| position_key(&Chess::default()))
}

/// `position_key` of a game's first position. Most games start from the standard
/// position, whose key is worked out once: its board, White to move and the four
/// rights are all the key reads there (no en passant capture can exist with White to
/// move on the standard board). The full hash was ~290 instructions a game.
fn start_key(pos: &Chess) -> u64 {
    let standard = pos.board() == &Board::new()
        && pos.turn() == Color::White
        && pos.castles().castling_rights() == Bitboard::CORNERS;
    if standard {
        standard_start_key()
    } else {
        position_key(pos)
    }
}

/// The en passant square where a legal en passant capture exists (shakmaty's
/// `legal_ep_square`, which generates every legal move to answer; here only the pawn
/// moves to that square are generated).
pub fn legal_en_passant(pos: &Chess) -> Option<Square> {
    pos.pseudo_legal_ep_square().filter(|&square| {
        pos.san_candidates(Role::Pawn, square)
            .iter()
            .any(|m| m.is_en_passant())
    })
}

/// The key's part for castling rights (as `zobrist_hash` counts them).
fn castling_key(pos: &Chess) -> u64 {
    let castles = pos.castles();
    let mut key = 0;
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            if castles.has(color, side) {
                key ^= Zobrist64::zobrist_for_castling_right(color, side).0;
            }
        }
    }
    key
}

/// The key's part for an en passant square.
fn en_passant_key(square: Option<Square>) -> u64 {
    square.map_or(0, |sq| Zobrist64::zobrist_for_en_passant_file(sq.file()).0)
}

fn piece_key(square: Square, piece: Piece) -> u64 {
    Zobrist64::zobrist_for_piece(square, piece).0
}

/// What a move changes in the key apart from castling rights and the en passant square:
/// the side to move and the pieces that move, arrive or are captured. (Inlined: as a call
/// it cost a third more than its lookups.)
#[inline(always)]
fn move_key(m: Move, turn: Color) -> Option<u64> {
    let mut key = Zobrist64::zobrist_for_white_turn().0;
    match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            key ^= piece_key(from, role.of(turn));
            key ^= piece_key(to, promotion.unwrap_or(role).of(turn));
            if let Some(captured) = capture {
                key ^= piece_key(to, captured.of(!turn));
            }
        }
        Move::EnPassant { from, to } => {
            key ^= piece_key(from, Role::Pawn.of(turn));
            key ^= piece_key(to, Role::Pawn.of(turn));
            key ^= piece_key(
                Square::from_coords(to.file(), from.rank()),
                Role::Pawn.of(!turn),
            );
        }
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(king < rook);
            key ^= piece_key(king, Role::King.of(turn));
            key ^= piece_key(rook, Role::Rook.of(turn));
            key ^= piece_key(side.king_to(turn), Role::King.of(turn));
            key ^= piece_key(side.rook_to(turn), Role::Rook.of(turn));
        }
        Move::Put { .. } => return None,
    }
    Some(key)
}

/// `DrawTracker::stretch_bits`' bit for a key: its top six bits pick one of 64 (a
/// Zobrist key's bits are as good as random).
fn key_bit(key: u64) -> u64 {
    1 << (key >> 58)
}

/// One position of the current reversible stretch of the game.
#[derive(Debug, Clone, Copy)]
struct StretchPosition {
    key: u64,
    /// The move that led here gave check.
    by_check: bool,
}

/// The emptied buffers of a game's position history, for the next game to reuse.
#[derive(Debug, Default)]
pub struct RepetitionBuffers {
    stretch: Vec<StretchPosition>,
    occurrences: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
}

impl RepetitionBuffers {
    /// Positions a reused buffer may hold; a longer stretch is rare (no pawn move nor
    /// capture in 100 moves), and its buffers are not kept.
    const KEPT: usize = 1024;
}

/// Draw-rule figures of one game, updated ply by ply.
#[derive(Debug, Clone, Default)]
pub struct DrawTracker {
    /// Positions since the last irreversible move (the first is the one after it).
    stretch: Vec<StretchPosition>,
    /// The key of the last position recorded.
    last_key: u64,
    /// The en passant square of the last position, where a legal capture exists (asked once
    /// per position: shakmaty generates the legal moves to answer it).
    en_passant: Option<Square>,
    /// The castling rights of the last position, and their part of its key.
    rights: Bitboard,
    castling_key: u64,
    /// How often each position of `stretch` occurred: a lookup instead of a scan, so a
    /// 100,000-move shuffle without pawn moves stays linear.
    occurrences: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
    /// A bit for each key of `stretch` (`key_bit`): a position whose bit is not set has
    /// not occurred, and most positions are new, so most moves count without the scan.
    stretch_bits: u64,
    /// How often the position just reached has occurred.
    pub current_count: u32,
    pub max_repetition: u32,
    pub threefold_ply: Option<u32>,
    pub fivefold_ply: Option<u32>,
    pub fifty_move_ply: Option<u32>,
    pub seventy_five_move_ply: Option<u32>,
}

impl DrawTracker {
    /// Starts from the game's first position (ply 0, a FEN's too).
    pub fn start(&mut self, pos: &Chess) {
        let key = start_key(pos);
        self.en_passant = legal_en_passant(pos);
        self.rights = pos.castles().castling_rights();
        self.castling_key = castling_key(pos);
        self.stretch.clear();
        // Most stretches between irreversible moves are short: one allocation, not several.
        self.stretch.reserve(32);
        self.stretch.push(StretchPosition {
            key,
            by_check: false,
        });
        self.stretch_bits = key_bit(key);
        self.last_key = key;
        self.occurrences.clear();
        self.current_count = 1;
        self.max_repetition = 1;
        self.check_clock(0, pos);
    }

    /// The key (`position_key`) of the position last recorded.
    pub fn key(&self) -> u64 {
        self.last_key
    }

    /// `position_key` of the position last recorded.
    pub fn last_key(&self) -> u64 {
        self.last_key
    }

    /// The en passant square of the position last recorded, if a legal capture exists.
    pub fn en_passant_square(&self) -> Option<Square> {
        self.en_passant
    }

    /// Records the position `after` reached at `ply` by the legal move `m`, which
    /// `gave_check`: whether `m` was irreversible (as shakmaty's `is_irreversible` decides:
    /// no earlier position can recur after it), and the new key by an incremental Zobrist
    /// update (the moved pieces, the side to move, and the castling rights and en passant
    /// square where they changed).
    #[inline(always)]
    pub fn after_move(&mut self, ply: u32, m: Move, after: &Chess, gave_check: bool) {
        let mover = !after.turn();
        let rights = self.rights;
        let rights_after = after.castles().castling_rights();
        // Irreversible as shakmaty's `is_irreversible` decides, read off the position
        // after it: the halfmove clock restarts at a pawn move or a capture (en passant
        // and promotions too), and castling or a king or rook move that loses a right
        // changes the rights; a position with a legal en passant capture cannot recur.
        // (Taken together, without a branch each: which holds changes from move to move.)
        let irreversible =
            (after.halfmoves() == 0) | (rights_after != rights) | self.en_passant.is_some();
        if irreversible {
            self.stretch.clear();
            self.stretch_bits = 0;
            if !self.occurrences.is_empty() {
                self.occurrences.clear();
            }
        }
        let en_passant_before = self.en_passant;
        self.en_passant = legal_en_passant(after);
        let key = match move_key(m, mover) {
            Some(moved) => {
                let mut key = self.last_key ^ moved;
                // Most positions have no en passant square, before the move or after it:
                // both looked up only when one has (some 5 instructions a move).
                if en_passant_before.is_some() || self.en_passant.is_some() {
                    key ^= en_passant_key(en_passant_before) ^ en_passant_key(self.en_passant);
                }
                if rights_after != rights {
                    let castling = castling_key(after);
                    key ^= self.castling_key ^ castling;
                    self.castling_key = castling;
                    self.rights = rights_after;
                }
                key
            }
            None => {
                self.rights = rights_after;
                self.castling_key = castling_key(after);
                position_key(after)
            }
        };
        self.last_key = key;
        let count = self.count_with(key);
        self.stretch.push(StretchPosition {
            key,
            by_check: gave_check,
        });
        self.current_count = count;
        self.max_repetition = self.max_repetition.max(count);
        if count >= 3 && self.threefold_ply.is_none() {
            self.threefold_ply = Some(ply);
        }
        if count >= 5 && self.fivefold_ply.is_none() {
            self.fivefold_ply = Some(ply);
        }
        self.check_clock(ply, after);
    }

    /// How often `key` has occurred once it is added. A short stretch (the usual case: a
    /// pawn move or capture comes every few moves) is scanned; a long one is counted in a
    /// map, so a 100,000-move shuffle stays linear.
    #[inline(always)]
    fn count_with(&mut self, key: u64) -> u32 {
        let len = self.stretch.len();
        let bit = key_bit(key);
        let new_bit = self.stretch_bits & bit == 0;
        self.stretch_bits |= bit;
        if new_bit && len < SCAN_LIMIT {
            return 1;
        }
        if len < SCAN_LIMIT {
            // Positions alternate sides to move, so only every second entry can match:
            // the one before the last, and every second one before it.
            let mut count = 1;
            let mut at = len.wrapping_sub(2);
            while let Some(seen) = self.stretch.get(at) {
                count += u32::from(seen.key == key);
                at = at.wrapping_sub(2);
            }
            return count;
        }
        self.count_in_map(key)
    }

    /// `count_with` for a long stretch: out of line, so that the scan of the usual short
    /// stretch saves no registers for the map.
    #[cold]
    #[inline(never)]
    fn count_in_map(&mut self, key: u64) -> u32 {
        if self.occurrences.is_empty() {
            for seen in &self.stretch {
                *self.occurrences.entry(seen.key).or_insert(0) += 1;
            }
        }
        let occurred = self.occurrences.entry(key).or_insert(0);
        *occurred += 1;
        *occurred
    }

    #[inline(always)]
    fn check_clock(&mut self, ply: u32, pos: &Chess) {
        let clock = pos.halfmoves();
        if clock < 100 {
            return;
        }
        let unset =
            self.fifty_move_ply.is_none() || (clock >= 150 && self.seventy_five_move_ply.is_none());
        // A mate (or stalemate) on the same move ends the game first (FIDE 9.3, 9.6.2), so
        // the rule holds only where a legal move exists, as python-chess's
        // `is_fifty_moves` / `is_seventyfive_moves` decide. Asked only until both are set.
        if !unset || pos.legal_moves().is_empty() {
            return;
        }
        if self.fifty_move_ply.is_none() {
            self.fifty_move_ply = Some(ply);
        }
        if clock >= 150 && self.seventy_five_move_ply.is_none() {
            self.seventy_five_move_ply = Some(ply);
        }
    }

    /// How often the position of `key` has occurred since the last irreversible move (the
    /// only stretch where it can have): for a claim of repetition made with a move.
    pub fn occurrences(&self, key: u64) -> u32 {
        let count = self.stretch.iter().filter(|seen| seen.key == key).count();
        u32::try_from(count).unwrap_or(u32::MAX)
    }

    /// Starts with the buffers of an earlier game's history (`take_history`), so that a
    /// thread's games reuse one set of buffers instead of growing their own.
    pub fn with_history(buffers: RepetitionBuffers) -> DrawTracker {
        DrawTracker {
            stretch: buffers.stretch,
            occurrences: buffers.occurrences,
            ..DrawTracker::default()
        }
    }

    /// Forgets the positions of the game once it is over (the figures stay;
    /// `perpetual_check` and the repetition counts need them no more) and hands over their
    /// emptied buffers for reuse (empty even for a game that never reaches `start`); those
    /// a very long stretch grew are freed instead.
    pub fn take_history(&mut self) -> RepetitionBuffers {
        let mut stretch = std::mem::take(&mut self.stretch);
        let mut occurrences = std::mem::take(&mut self.occurrences);
        if stretch.capacity() > RepetitionBuffers::KEPT
            || occurrences.capacity() > RepetitionBuffers::KEPT
        {
            return RepetitionBuffers::default();
        }
        stretch.clear();
        occurrences.clear();
        RepetitionBuffers {
            stretch,
            occurrences,
        }
    }

    /// Perpetual check (SPEC.md): the final position occurred at least 3 times and one side
    /// gave check with every one of its moves since that position first occurred.
    pub fn perpetual_check(&self) -> bool {
        if self.current_count < 3 {
            return false;
        }
        let Some(last) = self.stretch.last() else {
            return false;
        };
        let Some(first) = self.stretch.iter().position(|seen| seen.key == last.key) else {
            return false;
        };
        let since = self.stretch.get(first + 1..).unwrap_or_default();
        // Moves alternate: the last one is by the side that just moved, and every second
        // one before it too.
        let by_last_mover = since.iter().rev().step_by(2).map(|seen| seen.by_check);
        let by_other = since
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .map(|seen| seen.by_check);
        all_true(by_last_mover) || all_true(by_other)
    }
}

/// True when the iterator is non-empty and every item is true.
fn all_true(items: impl Iterator<Item = bool>) -> bool {
    let mut any = false;
    for item in items {
        if !item {
            return false;
        }
        any = true;
    }
    any
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails loudly")]

    use shakmaty::fen::Fen;
    use shakmaty::san::San;
    use shakmaty::{CastlingMode, Chess, Position};

    use super::{DrawTracker, polyglot_key, position_key};

    /// PolyGlot's key made from the repetition key is shakmaty's pseudo-legal hash: with
    /// no en passant square, with a legal capture, and with a capture a pin forbids
    /// (where the two keys differ).
    #[test]
    fn polyglot_key_from_the_repetition_key() {
        use shakmaty::EnPassantMode;
        use shakmaty::zobrist::Zobrist64;
        for (fen, keys_differ) in [
            (
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
                false,
            ),
            (
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                false,
            ),
            ("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2", true),
        ] {
            let pos: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            let key = position_key(&pos);
            let polyglot: Zobrist64 = pos.zobrist_hash(EnPassantMode::PseudoLegal);
            assert_eq!(polyglot_key(key, &pos), polyglot.0, "{fen}");
            assert_eq!(key != polyglot.0, keys_differ, "{fen}");
        }
    }

    /// Plays `moves` from `fen` (or the start) and checks the incremental key against a
    /// full hash after every move, the stretch against shakmaty's `is_irreversible`, and
    /// the repetition count against a count of the keys since.
    fn assert_keys(fen: Option<&str>, mode: CastlingMode, moves: &str) {
        let mut pos: Chess = match fen {
            Some(fen) => fen.parse::<Fen>().unwrap().into_position(mode).unwrap(),
            None => Chess::default(),
        };
        let mut tracker = DrawTracker::default();
        tracker.start(&pos);
        assert_eq!(tracker.last_key, position_key(&pos), "at the start");
        // The keys since the last irreversible move, to count repetitions by.
        let mut since = vec![position_key(&pos)];
        for (i, text) in moves.split_whitespace().enumerate() {
            let m = text.parse::<San>().unwrap().to_move(&pos).unwrap();
            let irreversible = pos.is_irreversible(m);
            pos.play_unchecked(m);
            tracker.after_move(i as u32 + 1, m, &pos, pos.is_check());
            assert_eq!(tracker.last_key, position_key(&pos), "after {text}");
            if irreversible {
                since.clear();
            }
            since.push(position_key(&pos));
            assert_eq!(tracker.stretch.len(), since.len(), "after {text}");
            let count = since.iter().filter(|&&key| key == tracker.last_key).count();
            assert_eq!(tracker.current_count as usize, count, "after {text}");
            assert_eq!(
                tracker.en_passant_square(),
                pos.legal_ep_square(),
                "after {text}"
            );
        }
    }

    /// The start key, worked out once for the standard position, is the full hash of
    /// every first position: the standard one in either castling mode, and those that
    /// differ from it only in the side to move, a castling right or an en passant square.
    #[test]
    fn start_keys_equal_full_hashes() {
        let standard = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
        let fens = [
            format!("{standard} w KQkq - 0 1"),
            format!("{standard} b KQkq - 0 1"),
            format!("{standard} w Kkq - 0 1"),
            format!("{standard} w KQk - 0 1"),
            format!("{standard} w - - 0 1"),
            format!("{standard} w HAha - 0 1"),
            format!("{standard} w KQkq - 7 30"),
            "rnbqkbnr/pppp1ppp/8/8/3pP3/8/PPP2PPP/RNBQKBNR b KQkq e3 0 3".to_string(),
        ];
        let mut keys = std::collections::HashSet::new();
        for fen in &fens {
            for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
                let pos: Chess = fen.parse::<Fen>().unwrap().into_position(mode).unwrap();
                let mut tracker = DrawTracker::default();
                tracker.start(&pos);
                assert_eq!(tracker.last_key, position_key(&pos), "{fen} ({mode:?})");
                keys.insert(tracker.last_key);
            }
        }
        // The clocks and the castling mode are no part of the key: six positions.
        assert_eq!(keys.len(), 6);
    }

    /// The incremental key must equal a full hash after every kind of move: captures,
    /// promotions, king and rook moves that lose rights, castling on both sides and in
    /// Chess960, en passant captures, and double steps with and without a legal capture.
    #[test]
    fn incremental_keys_equal_full_hashes() {
        assert_keys(
            None,
            CastlingMode::Standard,
            "e4 d5 exd5 e5 dxe6 Nc6 exf7+ Ke7 fxg8=N+ Rxg8 Nf3 Kd6 Bc4 Kc5 O-O \
             Bf5 Nc3 Qd7 Re1 Rb8 Rf1 Ra8 Re1 Rb8",
        );
        assert_keys(
            None,
            CastlingMode::Standard,
            "e4 Nf6 e5 d5 exd6 Nc6 d4 Bf5 d5 e5 dxe6 Qd7 a4 b5 axb5 Nb4 Nf3 O-O-O Rxa7 Kb8 \
             Ra1 h5 h4 g5 hxg5 Rh7 g6 Rh8 Ra4 Qxe6+ Be2 Qe4",
        );
        assert_keys(
            Some("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1"),
            CastlingMode::Chess960,
            "O-O O-O-O Rbc1 Rh8 Kh1 Rhg8 Rg1 Kb8",
        );
        // Repetitions (the knights' shuffle, five times), a rook move that loses one
        // right and a king move that loses the other, then a shuffle again.
        assert_keys(
            None,
            CastlingMode::Standard,
            "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 \
             e4 e5 Rg1 Rg8 Ke2 Ke7 Ke1 Ke8 Rh1 Rh8 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6",
        );
        // A double step beside a pawn pinned along the rank: no legal en passant.
        assert_keys(
            Some("8/2p5/8/KP5r/8/8/8/7k b - - 0 1"),
            CastlingMode::Standard,
            "c5 Ka4 Kg2",
        );
    }
}

/// The keys are Zobrist hashes (or other hashes, as the duplicate keys of the game
/// filters), already uniformly spread: hashing them again (SipHash) per ply cost more than
/// the lookup itself.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only u64 keys are hashed here; fold anything else in for completeness.
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }

    /// A 128-bit key (the game filters' duplicate keys, hashes too): its low bits.
    fn write_u128(&mut self, key: u128) {
        self.0 = key as u64;
    }
}
