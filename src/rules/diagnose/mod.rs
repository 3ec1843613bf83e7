//! Why a move is illegal: consulted only when `San::to_move` fails. Each family of rules
//! has its own file; this one routes a failed SAN to them and names pieces and moves.

mod castling;
mod en_passant;
mod moves;
mod promotion;

use shakmaty::san::{San, SanPlus};
use shakmaty::{Bitboard, Chess, Color, Move, Piece, Position, Role, Square};

use crate::rules::findings::Code;
use crate::rules::replay::history::{History, MoveRef};

/// What the diagnosis may look at: the position before the move, the game's history and
/// its bytes (to quote earlier moves as written).
pub struct Scene<'a> {
    pub pos: &'a Chess,
    pub history: &'a History,
    pub bytes: &'a [u8],
}

impl Scene<'_> {
    /// `14. Rg1`: an earlier move of the game, as written.
    pub fn quote(&self, by: MoveRef) -> String {
        let text = by.span.of(self.bytes);
        format!(
            "{} {}",
            self.history.move_number(by.ply),
            String::from_utf8_lossy(text)
        )
    }

    fn turn(&self) -> Color {
        self.pos.turn()
    }

    /// The king of the side to move.
    fn our_king(&self) -> Option<Square> {
        self.pos.board().king_of(self.turn())
    }
}

/// The code and explanation for a SAN that matches no legal move.
pub fn illegal(scene: &Scene<'_>, san: San) -> (Code, String) {
    if san == San::Null {
        return (
            Code::MoveIllegal,
            "a null move (`--` or `Z0`) is not a move of chess; it belongs in analysis only"
                .to_string(),
        );
    }
    if scene.pos.legal_moves().is_empty() {
        let why = if scene.pos.is_check() {
            "checkmate"
        } else {
            "stalemate"
        };
        return (
            Code::MoveIllegal,
            format!("the game is already over ({why}): no move can follow"),
        );
    }
    match san {
        San::Castle(side) => castling::diagnose(scene, side),
        San::Normal { .. } => promotion::diagnose(scene, san)
            .or_else(|| en_passant::diagnose(scene, san))
            .unwrap_or_else(|| (Code::MoveIllegal, moves::why_illegal(scene, san))),
        San::Put { .. } | San::Null => (
            Code::MoveIllegal,
            format!("{san} is not a move of standard chess"),
        ),
    }
}

/// The explanation for a SAN that matches several legal moves: the candidates, named.
pub fn ambiguous(pos: &Chess, san: San) -> String {
    let candidates: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| san.matches(*m))
        .map(|m: Move| {
            let from = m.from().map(|sq| sq.to_string()).unwrap_or_default();
            format!(
                "{} (the {} on {from})",
                San::from_move(pos, m),
                name(m.role())
            )
        })
        .collect();
    format!(
        "{san} matches {} legal moves: {}",
        candidates.len(),
        candidates.join(", ")
    )
}

/// The standard SAN (with its check sign) of the one legal move `san` names, if it names
/// one: a hint is always written by shakmaty, never pieced together from the token.
fn legal_san(pos: &Chess, san: San) -> Option<String> {
    let m = san.to_move(pos).ok()?;
    Some(SanPlus::from_move(pos.clone(), m).to_string())
}

/// The same SAN with its capture marker and promotion piece rewritten.
fn rewritten(san: San, capture: bool, promotion: Option<Role>) -> San {
    match san {
        San::Normal {
            role,
            file,
            rank,
            to,
            ..
        } => San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        },
        other => other,
    }
}

/// `knight`, `pawn`, ...
fn name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// `Re5` (a piece on its square), `e5` for a pawn.
fn piece_on(piece: Piece, square: Square) -> String {
    match piece.role {
        Role::Pawn => format!("pawn {square}"),
        role => format!("{}{square}", role.upper_char()),
    }
}

/// Names every piece on `squares`: `Bf1, Ng1`.
fn pieces_on(pos: &Chess, squares: Bitboard) -> String {
    let names: Vec<String> = squares
        .into_iter()
        .filter_map(|sq| pos.board().piece_at(sq).map(|p| piece_on(p, sq)))
        .collect();
    names.join(", ")
}
