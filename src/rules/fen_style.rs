//! Writing a position as FEN in the conventions users ask for: which en passant squares
//! are written (RULES.md 2.3) and X-FEN or Shredder-FEN castling letters.

use shakmaty::fen::Fen;
use shakmaty::{Chess, Color, EnPassantMode, Position};

/// `--ep`: when the en passant field names a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
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
            CastlingLetters::Xfen => Fen::from_position(pos, self.ep.mode()).append_to_string(out),
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

/// The castling rights as rook files, White's uppercase first, each side from the h-file
/// down (the order python-chess and shakmaty's suites use: `HAha`, `HFhf`).
fn shredder_rights(pos: &Chess) -> String {
    let rights = pos.castles().castling_rights();
    let mut letters = String::new();
    for color in [Color::White, Color::Black] {
        let rank = color.fold_wb(shakmaty::Rank::First, shakmaty::Rank::Eighth);
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
