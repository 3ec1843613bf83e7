//! The squares a diagram of a finding should point at: where the move came from and went,
//! what makes it illegal (the attacker, the attacked square on the king's path), and what
//! the explanation talks about (the pinned piece, the rook, the missing double step).
//! Worked out from the position before the move and the move as written, so it needs no
//! more than a finding carries.

use shakmaty::attacks;
use shakmaty::fen::Fen;
use shakmaty::san::{San, SanPlus};
use shakmaty::{Bitboard, CastlingSide, Color, Piece, Rank, Role, Setup, Square};

use crate::rules::findings::{Code, Finding};

/// What to mark on a board.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Marks {
    /// The square the moving piece stands on (when one piece fits the move).
    pub from: Option<Square>,
    /// The square the move goes to.
    pub to: Option<Square>,
    /// What forbids the move: attackers of the king or of a square it crosses, those
    /// squares themselves.
    pub danger: Vec<Square>,
    /// What the explanation names: a pinned piece, the castling rook, a captured pawn, the
    /// square a double step should have started from, pieces in the way.
    pub note: Vec<Square>,
}

/// The position before the move (as a set-up: it may be one the rules reject) and the
/// marks, or `None` when the finding's FEN cannot be read.
pub fn marks_of(finding: &Finding) -> Option<(Setup, Marks)> {
    let setup = Fen::from_ascii(finding.fen.as_bytes()).ok()?.into_setup();
    let marks = SanPlus::from_ascii(finding.san.as_bytes())
        .map(|san| marks_for(&setup, san.san, finding.code))
        .unwrap_or_default();
    Some((setup, marks))
}

fn marks_for(setup: &Setup, san: San, code: Code) -> Marks {
    match san {
        San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            ..
        } => {
            let en_passant_like = role == Role::Pawn && is_en_passant_like(setup, to);
            let candidates = movers(setup, role, to, capture || en_passant_like)
                .into_iter()
                .filter(|sq| file.is_none_or(|f| sq.file() == f))
                .filter(|sq| rank.is_none_or(|r| sq.rank() == r))
                .collect::<Vec<_>>();
            let from = match candidates.as_slice() {
                [one] => Some(*one),
                _ => None,
            };
            let mut marks = Marks {
                from,
                to: Some(to),
                ..Marks::default()
            };
            if code == Code::MoveAmbiguous {
                marks.note = candidates;
                return marks;
            }
            if let Some(from) = from {
                if en_passant_like && from.file() != to.file() {
                    en_passant_marks(setup, from, to, code, &mut marks);
                } else {
                    exposure_marks(setup, from, to, role, &mut marks);
                }
            }
            marks
        }
        San::Castle(side) => castling_marks(setup, side),
        San::Put { to, .. } => Marks {
            to: Some(to),
            ..Marks::default()
        },
        San::Null => Marks::default(),
    }
}

/// A pawn that goes to an empty square of the en passant rank with an enemy pawn behind it
/// can only mean an en passant capture, whatever the code.
fn is_en_passant_like(setup: &Setup, to: Square) -> bool {
    let us = setup.turn;
    let (ep_rank, behind) = if us == Color::White {
        (Rank::Sixth, -8)
    } else {
        (Rank::Third, 8)
    };
    let enemy_pawns = setup.board.by_piece(Piece {
        color: !us,
        role: Role::Pawn,
    });
    to.rank() == ep_rank
        && !setup.board.occupied().contains(to)
        && to.offset(behind).is_some_and(|sq| enemy_pawns.contains(sq))
}

/// Our pieces of `role` that could reach `to` by the way they move, ignoring pins.
fn movers(setup: &Setup, role: Role, to: Square, capture: bool) -> Vec<Square> {
    let us = setup.turn;
    let board = &setup.board;
    let ours = board.by_piece(Piece { color: us, role });
    if role != Role::Pawn {
        let piece = Piece { color: !us, role };
        // A piece reaches `to` exactly when the same piece standing on `to` attacks it.
        return (attacks::attacks(to, piece, board.occupied()) & ours)
            .into_iter()
            .collect();
    }
    if capture {
        return (attacks::pawn_attacks(!us, to) & ours)
            .into_iter()
            .collect();
    }
    let back = if us == Color::White { -8 } else { 8 };
    let Some(one) = to.offset(back) else {
        return Vec::new();
    };
    if ours.contains(one) {
        return vec![one];
    }
    let double_rank = if us == Color::White {
        Rank::Fourth
    } else {
        Rank::Fifth
    };
    match one.offset(back) {
        Some(two) if to.rank() == double_rank && !board.occupied().contains(one) => {
            if ours.contains(two) {
                vec![two]
            } else {
                Vec::new()
            }
        }
        _ => Vec::new(),
    }
}

/// A move that leaves the king attacked: the attackers, and the piece that was pinned.
fn exposure_marks(setup: &Setup, from: Square, to: Square, role: Role, marks: &mut Marks) {
    let us = setup.turn;
    let board = &setup.board;
    let occupied = (board.occupied() ^ Bitboard::from(from)) | Bitboard::from(to);
    let king = if role == Role::King {
        Some(to)
    } else {
        board.king_of(us)
    };
    let Some(king) = king else {
        return;
    };
    // A piece captured on `to` attacks nothing any more.
    let attackers = board.attacks_to(king, !us, occupied) & !Bitboard::from(to);
    if attackers.is_empty() {
        return;
    }
    marks.danger.extend(attackers);
    if role != Role::King {
        let already_attacked = board.attacks_to(king, !us, board.occupied());
        if (attackers & !already_attacked).any() {
            marks.note.push(from);
        }
        marks.note.push(king);
    }
}

/// En passant: the pawn taken, the square its double step would have started from (unless
/// the code says the double step happened), and what attacks the king once both pawns are
/// gone.
fn en_passant_marks(setup: &Setup, from: Square, to: Square, code: Code, marks: &mut Marks) {
    let taken = Square::from_coords(to.file(), from.rank());
    marks.note.push(taken);
    let forward = if setup.turn == Color::White { 8 } else { -8 };
    // The FEN of a finding sets the en passant square after every double step, so an open
    // window shows there; a closed one only the code can tell from a missing double step.
    let double_step_happened = setup.ep_square == Some(to)
        || matches!(
            code,
            Code::EnPassantWindowClosed | Code::EnPassantExposesKing
        );
    if !double_step_happened && let Some(start) = to.offset(forward) {
        marks.note.push(start);
    }
    if let Some(king) = setup.board.king_of(setup.turn) {
        let occupied = (setup.board.occupied() ^ Bitboard::from(from) ^ Bitboard::from(taken))
            | Bitboard::from(to);
        let attackers =
            setup.board.attacks_to(king, !setup.turn, occupied) & !Bitboard::from(taken);
        marks.danger.extend(attackers);
        // The king is named only when the capture would expose it.
        if !attackers.is_empty() {
            marks.note.push(king);
        }
    }
}

/// Castling: the king's start and destination, the rook, pieces in the way, and every
/// attacked square of the king's path with its attackers.
fn castling_marks(setup: &Setup, side: CastlingSide) -> Marks {
    let us = setup.turn;
    let board = &setup.board;
    let Some(king) = board.king_of(us) else {
        return Marks::default();
    };
    let king_to = side.king_to(us);
    let mut marks = Marks {
        from: Some(king),
        to: Some(king_to),
        ..Marks::default()
    };
    let rooks = board.by_piece(Piece {
        color: us,
        role: Role::Rook,
    }) & Bitboard::from(king.rank());
    let rook = rooks.into_iter().find(|&sq| {
        if side == CastlingSide::KingSide {
            sq > king
        } else {
            sq < king
        }
    });
    let path = attacks::between(king, king_to) | Bitboard::from(king) | Bitboard::from(king_to);
    let mut others = board.occupied() ^ Bitboard::from(king);
    if let Some(rook) = rook {
        marks.note.push(rook);
        others ^= Bitboard::from(rook);
        let rook_path = attacks::between(rook, side.rook_to(us)) | Bitboard::from(side.rook_to(us));
        marks
            .note
            .extend((path | rook_path) & others & !Bitboard::from(king));
    } else {
        marks.note.extend(path & others);
    }
    for square in path {
        let attackers = board.attacks_to(square, !us, board.occupied());
        if !attackers.is_empty() {
            marks.danger.push(square);
            marks.danger.extend(attackers);
        }
    }
    marks.danger.sort();
    marks.danger.dedup();
    marks
}
