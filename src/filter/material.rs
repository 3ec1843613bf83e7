//! `--material SIG` (`KRPvKR`) and `--reaches FEN`: what a position of the main line must be.

use shakmaty::fen::Fen;
use shakmaty::{
    Bitboard, Board, ByColor, ByRole, CastlingMode, Chess, Color, EnPassantMode, Position, Role,
    Square,
};

/// Each side's piece counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Material(ByColor<ByRole<u8>>);

impl Material {
    /// Reads `KRPvKR`: White's pieces, `v`, Black's, letters `KQRBNP` in any order.
    pub fn parse(sig: &str) -> Result<Material, String> {
        let bad = |why: &str| {
            format!(
                "`{sig}` is not a material signature ({why}); write White's pieces, v, Black's: KRPvKR, KQvK"
            )
        };
        let (white, black) = sig
            .split_once(['v', 'V'])
            .ok_or_else(|| bad("no v between the sides"))?;
        let side = |text: &str| -> Result<ByRole<u8>, String> {
            let mut counts = ByRole::<u8>::default();
            for letter in text.chars() {
                let role = Role::from_char(letter.to_ascii_lowercase())
                    .filter(|_| letter.is_ascii_uppercase())
                    .ok_or_else(|| bad(&format!("`{letter}` is not one of KQRBNP")))?;
                let count = counts.get_mut(role);
                *count = count.saturating_add(1);
            }
            if counts.king != 1 {
                return Err(bad("each side has one K"));
            }
            Ok(counts)
        };
        Ok(Material(ByColor {
            white: side(white)?,
            black: side(black)?,
        }))
    }

    /// Whether no later position of the game can hold this material: a game never gains
    /// men, nor pawns (a promotion turns a pawn into a piece).
    pub fn out_of_reach(&self, board: &Board) -> bool {
        let men = |counts: &ByRole<u8>| counts.iter().map(|&n| usize::from(n)).sum::<usize>();
        fewer_men_or_pawns(
            board,
            men(&self.0.white) + men(&self.0.black),
            self.0.map(|counts| usize::from(counts.pawn)),
        )
    }

    /// Whether the board holds exactly this material.
    pub fn matches(&self, board: &Board) -> bool {
        let count =
            |color: Color, role: Role| (board.by_color(color) & board.by_role(role)).count();
        Color::ALL.iter().all(|&color| {
            Role::ALL
                .iter()
                .all(|&role| count(color, role) == usize::from(*self.0.get(color).get(role)))
        })
    }
}

/// A position as `--reaches` compares it: placement, side to move, castling rights and
/// the en passant square where a legal capture exists (FIDE identity; clocks ignored).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    board: Board,
    turn: Color,
    castles: Bitboard,
    ep: Option<Square>,
}

impl Identity {
    pub fn of(pos: &Chess) -> Identity {
        Identity {
            board: pos.board().clone(),
            turn: pos.turn(),
            castles: pos.castles().castling_rights(),
            ep: pos.ep_square(EnPassantMode::Legal),
        }
    }

    /// Reads `--reaches FEN`: a legal position (its clocks are ignored).
    pub fn parse(fen: &str) -> Result<Identity, String> {
        let parsed: Fen = fen
            .trim()
            .parse()
            .map_err(|err| format!("`{fen}` is not a FEN: {err}"))?;
        let pos: Chess = parsed
            .into_position(CastlingMode::Chess960)
            .map_err(|err| format!("`{fen}` is not a legal position: {err}"))?;
        Ok(Identity::of(&pos))
    }

    /// Whether no later position of the game can be this one: it has fewer men, or one
    /// side fewer pawns, or castling rights the game has lost (none of them come back).
    pub fn out_of_reach(&self, pos: &Chess) -> bool {
        let pawns = ByColor::new_with(|color| pawns_of(&self.board, color));
        fewer_men_or_pawns(pos.board(), self.board.occupied().count(), pawns)
            || (self.castles & !pos.castles().castling_rights()).any()
    }

    /// Whether `pos` is this position (the board first: the cheap test that fails).
    pub fn matches(&self, pos: &Chess) -> bool {
        *pos.board() == self.board
            && pos.turn() == self.turn
            && pos.castles().castling_rights() == self.castles
            && pos.ep_square(EnPassantMode::Legal) == self.ep
    }
}

/// Whether `board` has fewer than `men` men, or a side fewer pawns than `pawns`: then no
/// later position of its game has as many (a game never gains men, and a promotion turns
/// a pawn into a piece).
fn fewer_men_or_pawns(board: &Board, men: usize, pawns: ByColor<usize>) -> bool {
    board.occupied().count() < men
        || Color::ALL
            .iter()
            .any(|&color| pawns_of(board, color) < *pawns.get(color))
}

fn pawns_of(board: &Board, color: Color) -> usize {
    (board.by_color(color) & board.pawns()).count()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails loudly")]

    use super::{Identity, Material};
    use shakmaty::{Chess, Position};

    #[test]
    fn signatures_read_any_order_and_refuse_bad_letters() {
        let start = Chess::default();
        assert!(
            Material::parse("KQRRBBNNPPPPPPPPvPPPPPPPPKQRRBBNN")
                .unwrap()
                .matches(start.board())
        );
        assert!(!Material::parse("KvK").unwrap().matches(start.board()));
        assert!(Material::parse("KRPvKX").is_err());
        assert!(Material::parse("KRPKR").is_err());
        assert!(Material::parse("RPvKR").is_err());
        assert!(Material::parse("krpvkr").is_err());
    }

    #[test]
    fn material_is_out_of_reach_with_fewer_men_or_pawns() {
        let start = Chess::default();
        let all = "KQRRBBNNPPPPPPPPvKQRRBBNNPPPPPPPP";
        assert!(!Material::parse(all).unwrap().out_of_reach(start.board()));
        assert!(
            !Material::parse("KRPvKR")
                .unwrap()
                .out_of_reach(start.board())
        );
        let rook_ending: shakmaty::fen::Fen = "8/8/4k3/8/8/3K4/8/R7 w - - 0 60".parse().unwrap();
        let rook_ending: Chess = rook_ending
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        // Fewer men than KRPvKR, and no white pawn left to make.
        assert!(
            Material::parse("KRPvKR")
                .unwrap()
                .out_of_reach(rook_ending.board())
        );
        // A queen may still come from a pawn, not from nothing; KRvK is reached already.
        assert!(
            !Material::parse("KRvK")
                .unwrap()
                .out_of_reach(rook_ending.board())
        );
    }

    #[test]
    fn identity_ignores_clocks() {
        let start = Chess::default();
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 7 30";
        assert!(Identity::parse(fen).unwrap().matches(&start));
        let black = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1";
        assert!(!Identity::parse(black).unwrap().matches(&start));
        assert!(Identity::parse("not a fen").is_err());
    }
}
