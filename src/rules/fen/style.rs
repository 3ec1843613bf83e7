//! Writing a position as FEN in the conventions users ask for: which en passant squares
//! are written (RULES.md 2.3) and X-FEN or Shredder-FEN castling letters.

use shakmaty::fen::Fen;
use shakmaty::{Board, Chess, Color, EnPassantMode, Position, Rank};

/// `--ep`: when the en passant field names a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EpConvention {
    /// After every double step (the PGN standard, pgn-extract).
    #[default]
    Always,
    /// Only when an enemy pawn stands ready to capture (X-FEN).
    Pseudo,
    /// Only when a legal en passant capture exists (python-chess, lichess).
    Legal,
}

impl EpConvention {
    pub fn mode(self) -> EnPassantMode {
        match self {
            EpConvention::Always => EnPassantMode::Always,
            EpConvention::Pseudo => EnPassantMode::PseudoLegal,
            EpConvention::Legal => EnPassantMode::Legal,
        }
    }
}

/// `--castling`: how castling rights are lettered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CastlingLetters {
    /// `KQkq`, with a file letter only where `K`/`Q` would be ambiguous (Chess960).
    #[default]
    Xfen,
    /// The rook's file letter always (`HAha`).
    Shredder,
}

/// How FENs are written.
#[derive(Debug, Clone, Copy, Default)]
pub struct FenStyle {
    pub ep: EpConvention,
    pub castling: CastlingLetters,
}

impl FenStyle {
    /// Appends the FEN of `pos` to `out` (no allocation in the usual X-FEN case).
    pub fn write_into(&self, pos: &Chess, out: &mut String) {
        match self.castling {
            CastlingLetters::Xfen => append_fen(pos, self.ep.mode(), out),
            CastlingLetters::Shredder => out.push_str(&self.write(pos)),
        }
    }

    /// As [`FenStyle::write_into`], into bytes, for the positions of one game in order:
    /// `ranks` keeps the text of the ranks the last move did not touch, and the text
    /// needs no UTF-8 check (it is ASCII). `fen --every-ply` writes one per position.
    pub fn write_bytes(&self, pos: &Chess, ranks: &mut RankCache, out: &mut Vec<u8>) {
        match self.castling {
            CastlingLetters::Xfen => ranks.write(pos, self.ep.mode(), out),
            CastlingLetters::Shredder => out.extend_from_slice(self.write(pos).as_bytes()),
        }
    }

    /// As [`FenStyle::write_bytes`], for a position on its own.
    pub fn write_one(&self, pos: &Chess, out: &mut Vec<u8>) {
        match self.castling {
            CastlingLetters::Xfen => {
                out.extend_from_slice(FenText::of(pos, self.ep.mode()).as_bytes());
            }
            CastlingLetters::Shredder => out.extend_from_slice(self.write(pos).as_bytes()),
        }
    }

    pub fn write(&self, pos: &Chess) -> String {
        let fen = Fen::from_position(pos, self.ep.mode()).to_string();
        match self.castling {
            CastlingLetters::Xfen => fen,
            CastlingLetters::Shredder => replace_castling_field(&fen, &shredder_rights(pos)),
        }
    }
}

/// Appends the FEN of `pos` exactly as shakmaty writes `Fen::from_position(pos, mode)`
/// (X-FEN castling letters).
pub fn append_fen(pos: &Chess, mode: EnPassantMode, out: &mut String) {
    out.push_str(FenText::of(pos, mode).as_str());
}

/// The FEN of a position as shakmaty writes `Fen::from_position(pos, mode)` (X-FEN
/// castling letters), made on the stack without building a `Setup` and pushing char by
/// char.
#[derive(Debug, Clone)]
pub struct FenText(Ascii);

impl FenText {
    pub fn of(pos: &Chess, mode: EnPassantMode) -> FenText {
        let mut fen = Ascii::default();
        let board = pos.board();
        let mut ranks = [([0; 16], 0); 8];
        for (rank, field) in (0u32..).zip(ranks.iter_mut()) {
            *field = rank_field(board, rank);
        }
        push_placement(&ranks, &mut fen);
        let mut castling = Ascii::default();
        push_castling(board, pos.castles().castling_rights(), &mut castling);
        push_fields(pos, mode, &castling, &mut fen);
        FenText(fen)
    }

    pub fn as_bytes(&self) -> &[u8] {
        self.0.as_bytes()
    }

    pub fn as_str(&self) -> &str {
        std::str::from_utf8(self.as_bytes()).unwrap_or_default()
    }
}

/// The FENs of one game's positions, in order: a move changes one or two ranks (three
/// at most: en passant, castling), so the text of every other rank is the one written
/// for the position before. Exactly [`FenText`]'s text, in about half the work.
#[derive(Debug, Default)]
pub struct RankCache {
    /// The board whose ranks `ranks` holds (none yet: every rank is written).
    board: Option<Board>,
    /// Each rank's field (`rank_field`), the first rank first.
    ranks: [([u8; 16], usize); 8],
    /// The castling field, and what it was written from: the rights, the kings and the
    /// back ranks' rooks (X-FEN letters depend on where they stand).
    castling: Option<([u64; 3], Ascii)>,
    /// The FEN being written.
    fen: Ascii,
}

impl RankCache {
    /// Appends the FEN of `pos`.
    pub fn write(&mut self, pos: &Chess, mode: EnPassantMode, out: &mut Vec<u8>) {
        let board = pos.board();
        // The squares whose piece changed: a rank with none keeps its text.
        let changed = match &self.board {
            Some(before) => {
                let bitboards = |b: &Board| {
                    [
                        b.pawns(),
                        b.knights(),
                        b.bishops(),
                        b.rooks(),
                        b.queens(),
                        b.kings(),
                        b.white(),
                        b.occupied(),
                    ]
                };
                let (now, then) = (bitboards(board), bitboards(before));
                now.iter()
                    .zip(then)
                    .fold(0, |changed, (now, then)| changed | (now.0 ^ then.0))
            }
            None => u64::MAX,
        };
        for (rank, cached) in (0u32..).zip(self.ranks.iter_mut()) {
            if (changed >> (8 * rank)) as u8 != 0 {
                *cached = rank_field(board, rank);
            }
        }
        if changed != 0 {
            self.board = Some(board.clone());
        }
        self.fen.len = 0;
        push_placement(&self.ranks, &mut self.fen);
        let rights = pos.castles().castling_rights();
        let key = [
            rights.0,
            board.kings().0,
            (board.rooks() & (shakmaty::Bitboard::from(Rank::First) | Rank::Eighth)).0,
        ];
        let castling = match &mut self.castling {
            Some((made_from, text)) if *made_from == key => text,
            slot => {
                let mut text = Ascii::default();
                push_castling(board, rights, &mut text);
                &mut slot.insert((key, text)).1
            }
        };
        push_fields(pos, mode, castling, &mut self.fen);
        out.extend_from_slice(self.fen.as_bytes());
    }
}

/// The text of rank `rank` (0: the first rank): at most 8 bytes, gathered in a word
/// (little-endian), and their count. Each piece's letter index (pawn 0 .. king 5, and 8
/// for White) is read from a nibble per file, made from the rank's bits at once: no
/// look-up of a square's piece.
fn rank_text(board: &Board, rank: u32) -> (u64, u32) {
    const LETTERS: &[u8; 16] = b"pnbrqk??PNBRQK??";
    let row = |bitboard: shakmaty::Bitboard| usize::from((bitboard.0 >> (8 * rank)) as u8);
    let spread = |bitboard: shakmaty::Bitboard| SPREAD.get(row(bitboard)).copied().unwrap_or(0);
    // Each file's letter index in a nibble: role bits 1, 2 and 4, then the colour.
    let codes = (spread(board.knights()) | spread(board.rooks()) | spread(board.kings()))
        | (spread(board.bishops()) | spread(board.rooks())) << 1
        | (spread(board.queens()) | spread(board.kings())) << 2
        | spread(board.white()) << 3;
    // Eight letters and digits at most: the last one goes in at a shift of 56.
    let mut word = 0u64;
    let mut shift = 0;
    let mut files = row(board.occupied()) as u8;
    let mut next_file = 0;
    while files != 0 {
        let file = files.trailing_zeros();
        if file > next_file {
            word |= u64::from(b'0' + (file - next_file) as u8) << shift;
            shift += 8;
        }
        let index = ((codes >> (4 * file)) & 15) as usize;
        word |= u64::from(LETTERS.get(index).copied().unwrap_or(b'?')) << (shift & 63);
        shift += 8;
        next_file = file + 1;
        files &= files - 1;
    }
    if next_file < 8 {
        word |= u64::from(b'0' + (8 - next_file) as u8) << (shift & 63);
        shift += 8;
    }
    (word, shift / 8)
}

/// The bits of a byte spread out to a nibble each (bit `i` to bit `4 i`).
#[allow(
    clippy::indexing_slicing,
    reason = "evaluated at compile time: an index out of range fails the build, not a run"
)]
const SPREAD: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut bit = 0;
        while bit < 8 {
            if byte & (1 << bit) != 0 {
                table[byte] |= 1 << (4 * bit);
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// The text of rank `rank` as the placement field holds it: with the `/` after it (none
/// after the first rank), in 16 bytes to be copied at once, and its length.
fn rank_field(board: &Board, rank: u32) -> ([u8; 16], usize) {
    let (word, len) = rank_text(board, rank);
    let mut field = [0u8; 16];
    let mut len = len as usize;
    if let Some(text) = field.first_chunk_mut::<8>() {
        *text = word.to_le_bytes();
    }
    if rank > 0
        && let Some(slash) = field.get_mut(len)
    {
        *slash = b'/';
        len += 1;
    }
    (field, len)
}

/// The placement field from the ranks' fields, the eighth rank first.
fn push_placement(ranks: &[([u8; 16], usize); 8], fen: &mut Ascii) {
    for (field, len) in ranks.iter().rev() {
        fen.push_16(field, *len);
    }
}

/// The fields after the placement: side to move, castling (its text), en passant, the
/// clocks.
fn push_fields(pos: &Chess, mode: EnPassantMode, castling: &Ascii, fen: &mut Ascii) {
    fen.push(b' ');
    fen.push(pos.turn().char() as u8);
    fen.push(b' ');
    fen.push_ascii(castling);
    fen.push(b' ');
    match pos.ep_square(mode) {
        Some(square) => {
            fen.push(square.file().char() as u8);
            fen.push(square.rank().char() as u8);
        }
        None => fen.push(b'-'),
    }
    fen.push(b' ');
    fen.push_number(pos.halfmoves());
    fen.push(b' ');
    fen.push_number(pos.fullmoves().get());
}

/// A FEN being written: ASCII bytes on the stack (a FEN is at most about 90 bytes; a
/// rank is copied as 8 bytes at once, the castling field as 16).
#[derive(Debug, Clone)]
struct Ascii {
    bytes: [u8; 128],
    len: usize,
}

impl Default for Ascii {
    fn default() -> Ascii {
        Ascii {
            bytes: [0; 128],
            len: 0,
        }
    }
}

impl Ascii {
    fn push(&mut self, byte: u8) {
        if let Some(slot) = self.bytes.get_mut(self.len) {
            *slot = byte;
            self.len += 1;
        }
    }

    /// The first `len` bytes of `text`.
    fn push_16(&mut self, text: &[u8; 16], len: usize) {
        if let Some(slot) = self.bytes.get_mut(self.len..self.len + 16) {
            slot.copy_from_slice(text);
            self.len += len.min(16);
        }
    }

    /// The bytes of `other` (at most 16).
    fn push_ascii(&mut self, other: &Ascii) {
        if let Some(text) = other.bytes.first_chunk::<16>() {
            self.push_16(text, other.len);
        }
    }

    /// The decimal digits of `n` (a clock is mostly one or two digits).
    fn push_number(&mut self, n: u32) {
        if n < 10 {
            self.push(b'0' + n as u8);
            return;
        }
        let mut digits = itoa::Buffer::new();
        let digits = digits.format(n).as_bytes();
        if let Some(slot) = self.bytes.get_mut(self.len..self.len + digits.len()) {
            slot.copy_from_slice(digits);
            self.len += digits.len();
        }
    }

    fn as_bytes(&self) -> &[u8] {
        self.bytes.get(..self.len).unwrap_or_default()
    }
}

/// X-FEN castling letters as shakmaty writes them: `K`/`Q` for the outermost rook on
/// its side of the king, the rook's file letter otherwise (Chess960).
fn push_castling(board: &Board, rights: shakmaty::Bitboard, out: &mut Ascii) {
    if rights.is_empty() {
        out.push(b'-');
        return;
    }
    for color in Color::ALL {
        let backrank = color.backrank();
        let king = board.king_of(color).filter(|k| k.rank() == backrank);
        let rooks = board.by_piece(color.rook()) & backrank;
        for rook in (rights & backrank).into_iter().rev() {
            let letter = if Some(rook) == rooks.first() && king.is_some_and(|k| rook < k) {
                'Q'
            } else if Some(rook) == rooks.last() && king.is_some_and(|k| k < rook) {
                'K'
            } else {
                rook.file().char().to_ascii_uppercase()
            };
            let letter = if color.is_white() {
                letter
            } else {
                letter.to_ascii_lowercase()
            };
            out.push(letter as u8);
        }
    }
}

/// The castling rights as rook files, White's uppercase first, each side from the h-file
/// down (the order python-chess and shakmaty's suites use: `HAha`, `HFhf`).
fn shredder_rights(pos: &Chess) -> String {
    let rights = pos.castles().castling_rights();
    let mut letters = String::new();
    for color in [Color::White, Color::Black] {
        let rank = color.fold_wb(Rank::First, Rank::Eighth);
        let mut files: Vec<char> = rights
            .into_iter()
            .filter(|sq| sq.rank() == rank)
            .map(|sq| {
                let c = sq.file().char();
                if color.is_white() {
                    c.to_ascii_uppercase()
                } else {
                    c
                }
            })
            .collect();
        files.sort_unstable_by(|a, b| b.cmp(a));
        letters.extend(files);
    }
    if letters.is_empty() {
        letters.push('-');
    }
    letters
}

fn replace_castling_field(fen: &str, castling: &str) -> String {
    let mut fields: Vec<&str> = fen.split(' ').collect();
    if let Some(field) = fields.get_mut(2) {
        *field = castling;
    }
    fields.join(" ")
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails loudly")]

    use shakmaty::fen::Fen;
    use shakmaty::san::San;
    use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

    use super::{RankCache, append_fen};

    /// Double steps, en passant, both castlings, a promotion with capture.
    const GAME: &str = "e4 Nf6 e5 d5 exd6 Nc6 d4 Bf5 d5 e5 dxe6 Qd7 a4 b5 axb5 Nb4 Nf3 \
                        O-O-O Rxa7 Kb8 Ra1 h5 h4 g5 hxg5 Rh7 g6 Rh8 g7 Qxe6+ Be2 Qe4 gxh8=Q \
                        Nd3+ Qxd3 Qxd3 O-O Qxe2 Qxf8+ Kb7 Qxf7 Qxf2+ Rxf2 Kb6 Qxc7+ Kxb5";

    /// Positions whose castling rights need file letters, and long clocks.
    const CHESS960: [&str; 5] = [
        "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
        "rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1",
        "r1k1r2r/8/8/8/8/8/8/R1K1R2R w HAha - 0 1",
        "r1k1r2r/8/8/8/8/8/8/R1K1R2R w EAea - 0 1",
        "4k3/8/8/8/8/8/8/4K3 b - - 120 200",
    ];

    const MODES: [EnPassantMode; 3] = [
        EnPassantMode::Always,
        EnPassantMode::PseudoLegal,
        EnPassantMode::Legal,
    ];

    /// The start, every position of `GAME` in order, then the `CHESS960` positions.
    fn each_test_position(mut visit: impl FnMut(&Chess)) {
        let mut pos = Chess::default();
        visit(&pos);
        for text in GAME.split_whitespace() {
            let m = text.parse::<San>().unwrap().to_move(&pos).unwrap();
            pos.play_unchecked(m);
            visit(&pos);
        }
        for fen in CHESS960 {
            let pos: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Chess960)
                .unwrap();
            visit(&pos);
        }
    }

    fn assert_same(pos: &Chess) {
        for mode in MODES {
            let mut fast = String::new();
            append_fen(pos, mode, &mut fast);
            assert_eq!(fast, Fen::from_position(pos, mode).to_string());
        }
    }

    /// The ranks kept from the position before are those of this one: a game's
    /// positions in order (captures, en passant, castling, promotion touch two or three
    /// ranks), then unrelated positions through the same cache.
    #[test]
    fn rank_cache_writes_what_shakmaty_writes() {
        let mut caches = MODES.map(|_| RankCache::default());
        let mut check = |pos: &Chess| {
            for (mode, cache) in MODES.into_iter().zip(caches.iter_mut()) {
                let mut out = b"x".to_vec();
                cache.write(pos, mode, &mut out);
                let expected = format!("x{}", Fen::from_position(pos, mode));
                assert_eq!(String::from_utf8(out).unwrap(), expected);
            }
        };
        check(&Chess::default());
        each_test_position(&mut check);
        check(&Chess::default());
    }

    /// The shortcut writes what shakmaty writes: every position of a game with double
    /// steps, en passant, both castlings and a promotion, and Chess960 positions whose
    /// rights need file letters.
    #[test]
    fn append_fen_writes_what_shakmaty_writes() {
        each_test_position(assert_same);
    }
}
