//! Why castling is illegal (FIDE 3.8.2): the permanent reasons come from the game's
//! history, the temporary ones from the position, checked in SPEC.md's order.

use shakmaty::attacks::between;
use shakmaty::{Bitboard, CastlingSide, Position, Role, Square};

use super::{Scene, color_name, pieces_on};
use crate::rules::findings::Code;
use crate::rules::replay::history::Cause;

fn written(side: CastlingSide) -> &'static str {
    match side {
        CastlingSide::KingSide => "O-O",
        CastlingSide::QueenSide => "O-O-O",
    }
}

/// The first reason (SPEC.md order) why castling on `side` is illegal.
pub fn diagnose(scene: &Scene<'_>, side: CastlingSide) -> (Code, String) {
    let pos = scene.pos;
    let color = pos.turn();
    let who = color_name(color);
    let castle = written(side);
    if let Some((by, castled)) = scene.history.first_king_move(color) {
        let message = if castled {
            format!(
                "{who} already castled at {}: a king castles at most once",
                scene.quote(by)
            )
        } else {
            format!(
                "{who}'s king moved at {}: the right to castle is lost for good once the king has moved, even if it came back",
                scene.quote(by)
            )
        };
        return (Code::CastlingKingMoved, message);
    }
    if let Some(loss) = scene.history.loss(color, side) {
        match loss.cause {
            Cause::RookMoved => {
                return (
                    Code::CastlingRookMoved,
                    format!(
                        "the {} rook moved at {}: {who} lost the right to {castle} for good",
                        loss.rook,
                        scene.quote(loss.by)
                    ),
                );
            }
            Cause::RookCaptured => {
                let again = if pos.board().piece_at(loss.rook) == Some(color.rook()) {
                    format!(
                        "; the rook now on {} arrived later and is a different piece",
                        loss.rook
                    )
                } else {
                    String::new()
                };
                return (
                    Code::CastlingRookCaptured,
                    format!(
                        "the {} rook was captured on its original square at {}{again}",
                        loss.rook,
                        scene.quote(loss.by)
                    ),
                );
            }
            Cause::KingMoved => {}
        }
    }
    let castles = pos.castles();
    let (Some(rook), Some(king)) = (castles.rook(color, side), scene.our_king()) else {
        return (Code::CastlingNoRight, no_right(scene, side));
    };
    let checkers = pos.checkers();
    if checkers.any() {
        return (
            Code::CastlingInCheck,
            format!(
                "{who} is in check from {}: castling out of check is not allowed",
                pieces_on(pos, checkers)
            ),
        );
    }
    let occupied = pos.board().occupied();
    let blockers =
        castles.path(color, side) & occupied & !Bitboard::from(king) & !Bitboard::from(rook);
    if blockers.any() {
        return (
            Code::CastlingBlocked,
            format!(
                "{} must be empty for {castle}, but {} stand{} there",
                square_list(
                    castles.path(color, side) & !Bitboard::from(king) & !Bitboard::from(rook)
                ),
                pieces_on(pos, blockers),
                if blockers.count() == 1 { "s" } else { "" }
            ),
        );
    }
    let king_to = side.king_to(color);
    let without_king = occupied & !Bitboard::from(king);
    for square in between(king, king_to) {
        let attackers = pos.board().attacks_to(square, !color, without_king);
        if attackers.any() {
            return (
                Code::CastlingThroughCheck,
                format!(
                    "the king would pass over {square}, which {} attacks",
                    pieces_on(pos, attackers)
                ),
            );
        }
    }
    let after = (occupied & !Bitboard::from(king) & !Bitboard::from(rook))
        | Bitboard::from(king_to)
        | Bitboard::from(side.rook_to(color));
    let attackers = pos.board().attacks_to(king_to, !color, after) & pos.board().by_color(!color);
    if attackers.any() {
        return (
            Code::CastlingIntoCheck,
            format!(
                "the king would land on {king_to}, which {} attacks",
                pieces_on(pos, attackers)
            ),
        );
    }
    (
        Code::MoveIllegal,
        format!("{castle} is not legal in this position"),
    )
}

/// Why the start position gave no right: the FEN withheld it, or king or rook were
/// never on their squares.
fn no_right(scene: &Scene<'_>, side: CastlingSide) -> String {
    let pos = scene.pos;
    let color = pos.turn();
    let who = color_name(color);
    let castle = written(side);
    let home = color.fold_wb(Square::E1, Square::E8);
    let corner = match side {
        CastlingSide::KingSide => color.fold_wb(Square::H1, Square::H8),
        CastlingSide::QueenSide => color.fold_wb(Square::A1, Square::A8),
    };
    let board = pos.board();
    let king_home = board
        .piece_at(home)
        .is_some_and(|p| p.role == Role::King && p.color == color);
    let rook_home = board.piece_at(corner) == Some(color.rook());
    let reason = if pos.castles().mode().is_chess960() {
        "the start position grants no such right".to_string()
    } else if !king_home {
        format!("the king is not on {home}")
    } else if !rook_home {
        format!("there is no {who} rook on {corner}")
    } else {
        format!(
            "the king is on {home} and a rook on {corner}, but the start position's castling field withholds the right"
        )
    };
    format!("{who} has no right to {castle}: {reason}, and nothing in the game gave it")
}

fn square_list(squares: Bitboard) -> String {
    let names: Vec<String> = squares.into_iter().map(|sq| sq.to_string()).collect();
    names.join(", ")
}
