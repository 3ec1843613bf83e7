//! Writing a position as FEN in the conventions users ask for: which en passant squares
//! are written (RULES.md 2.3) and X-FEN or Shredder-FEN castling letters.

use shakmaty::fen::Fen;
use shakmaty::{Board, Chess, Color, EnPassantMode, Position, Rank, Role};

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

    pub fn write(&self, pos: &Chess) -> String {
        let fen = Fen::from_position(pos, self.ep.mode()).to_string();
        match self.castling {
            CastlingLetters::Xfen => fen,
            CastlingLetters::Shredder => replace_castling_field(&fen, &shredder_rights(pos)),
        }
    }
}

/// Appends the FEN of `pos` exactly as shakmaty writes `Fen::from_position(pos, mode)`
/// (X-FEN castling letters), without building a `Setup` and pushing char by char:
/// `fen --every-ply` writes one per position, and that was half of its time.
pub fn append_fen(pos: &Chess, mode: EnPassantMode, out: &mut String) {
    let board = pos.board();
    // The board as 64 letters (0 for an empty square), filled piece type by piece type.
    let mut mailbox = [0u8; 64];
    for color in Color::ALL {
        for role in Role::ALL {
            let piece = role.of(color);
            for square in board.by_piece(piece) {
                if let Some(slot) = mailbox.get_mut(usize::from(square)) {
                    *slot = piece.char() as u8;
                }
            }
        }
    }
    let mut fen = AsciiBuf::default();
    for (index, rank) in mailbox.chunks_exact(8).rev().enumerate() {
        let mut empty = 0u8;
        for &letter in rank {
            if letter == 0 {
                empty += 1;
                continue;
            }
            if empty > 0 {
                fen.push(b'0' + empty);
                empty = 0;
            }
            fen.push(letter);
        }
        if empty > 0 {
            fen.push(b'0' + empty);
        }
        if index < 7 {
            fen.push(b'/');
        }
    }
    fen.push(b' ');
    fen.push(pos.turn().char() as u8);
    fen.push(b' ');
    push_castling(board, pos.castles().castling_rights(), &mut fen);
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
    out.push_str(fen.as_str());
}

/// A FEN being written: ASCII bytes on the stack (a FEN is at most about 90 bytes).
struct AsciiBuf {
    bytes: [u8; 128],
    len: usize,
}

impl Default for AsciiBuf {
    fn default() -> AsciiBuf {
        AsciiBuf {
            bytes: [0; 128],
            len: 0,
        }
    }
}

impl AsciiBuf {
    fn push(&mut self, byte: u8) {
        if let Some(slot) = self.bytes.get_mut(self.len) {
            *slot = byte;
            self.len += 1;
        }
    }

    /// The decimal digits of `n`.
    fn push_number(&mut self, n: u32) {
        if n >= 10 {
            self.push_number(n / 10);
        }
        self.push(b'0' + (n % 10) as u8);
    }

    fn as_str(&self) -> &str {
        std::str::from_utf8(self.bytes.get(..self.len).unwrap_or_default()).unwrap_or_default()
    }
}

/// X-FEN castling letters as shakmaty writes them: `K`/`Q` for the outermost rook on
/// its side of the king, the rook's file letter otherwise (Chess960).
fn push_castling(board: &Board, rights: shakmaty::Bitboard, out: &mut AsciiBuf) {
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

    use super::append_fen;

    fn assert_same(pos: &Chess) {
        for mode in [
            EnPassantMode::Always,
            EnPassantMode::PseudoLegal,
            EnPassantMode::Legal,
        ] {
            let mut fast = String::new();
            append_fen(pos, mode, &mut fast);
            assert_eq!(fast, Fen::from_position(pos, mode).to_string());
        }
    }

    /// The shortcut writes what shakmaty writes: every position of a game with double
    /// steps, en passant, both castlings and a promotion, and Chess960 positions whose
    /// rights need file letters.
    #[test]
    fn append_fen_writes_what_shakmaty_writes() {
        let mut pos = Chess::default();
        assert_same(&pos);
        let moves = "e4 Nf6 e5 d5 exd6 Nc6 d4 Bf5 d5 e5 dxe6 Qd7 a4 b5 axb5 Nb4 Nf3 O-O-O \
                     Rxa7 Kb8 Ra1 h5 h4 g5 hxg5 Rh7 g6 Rh8 g7 Qxe6+ Be2 Qe4 gxh8=Q";
        for text in moves.split_whitespace() {
            let m = text.parse::<San>().unwrap().to_move(&pos).unwrap();
            pos.play_unchecked(m);
            assert_same(&pos);
        }
        for fen in [
            "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
            "rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1",
            "r1k1r2r/8/8/8/8/8/8/R1K1R2R w HAha - 0 1",
            "r1k1r2r/8/8/8/8/8/8/R1K1R2R w EAea - 0 1",
            "4k3/8/8/8/8/8/8/4K3 b - - 120 200",
        ] {
            let pos: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Chess960)
                .unwrap();
            assert_same(&pos);
        }
    }
}
