//! Why a promotion is illegal (FIDE 3.7, 7.5.2). A promotion code is given only when it
//! is the only thing wrong: the same move with the promotion mended must be legal.

use shakmaty::san::San;
use shakmaty::{Position, Rank, Role};

use super::{Scene, legal_san, name, rewritten};
use crate::rules::findings::Code;

pub fn diagnose(scene: &Scene<'_>, san: San) -> Option<(Code, String)> {
    let San::Normal {
        role,
        capture,
        to,
        promotion,
        ..
    } = san
    else {
        return None;
    };
    let pos = scene.pos;
    let last = pos.turn().relative_rank(Rank::Eighth);
    let with = |promotion: Option<Role>| rewritten(san, capture, promotion);
    match promotion {
        Some(piece) if role != Role::Pawn => {
            legal_san(pos, with(None)).map(|plain| {
                (
                    Code::PromotionNotAPawn,
                    format!(
                        "only a pawn can promote, and this is a {} move (=`{}`): {plain} alone would be legal",
                        name(role),
                        piece.upper_char()
                    ),
                )
            })
        }
        Some(piece) if to.rank() != last => {
            legal_san(pos, with(None)).map(|plain| {
                (
                    Code::PromotionNotLastRank,
                    format!(
                        "{to} is not on the last rank, so the pawn cannot promote (=`{}`): {plain} alone would be legal",
                        piece.upper_char()
                    ),
                )
            })
        }
        Some(piece @ (Role::King | Role::Pawn)) => {
            legal_san(pos, with(Some(Role::Queen))).map(|queen| {
                let code = if piece == Role::King {
                    Code::PromotionToKing
                } else {
                    Code::PromotionToPawn
                };
                (
                    code,
                    format!(
                        "a pawn cannot promote to a {}: only a queen, rook, bishop or knight may be chosen ({queen} would be legal)",
                        name(piece)
                    ),
                )
            })
        }
        None if role == Role::Pawn && to.rank() == last => {
            legal_san(pos, with(Some(Role::Queen))).map(|queen| {
                (
                    Code::PromotionMissing,
                    format!(
                        "the pawn reaches the last rank but no promotion piece is named; the move is illegal as written (FIDE 7.5.2 has the arbiter put a queen: {queen})"
                    ),
                )
            })
        }
        _ => None,
    }
}
