//! Why an en passant capture is illegal (FIDE 3.7): the window had closed, the captured
//! pawn never made a double step, or the capture would expose the own king.

use shakmaty::san::San;
use shakmaty::{Bitboard, Color, File, Position, Rank, Role, Square};

use super::{Scene, pieces_on};
use crate::rules::findings::Code;

/// A diagonal pawn move onto an empty square beside an enemy pawn: the en passant code
/// that explains it, or `None` when it is not an en passant attempt.
pub fn diagnose(scene: &Scene<'_>, san: San) -> Option<(Code, String)> {
    let San::Normal {
        role: Role::Pawn,
        file,
        capture,
        to,
        promotion: None,
        ..
    } = san
    else {
        return None;
    };
    let pos = scene.pos;
    let color = pos.turn();
    let board = pos.board();
    let capturing = capture || file.is_some_and(|f| f != to.file());
    if !capturing || to.rank() != color.relative_rank(Rank::Sixth) || board.occupied().contains(to)
    {
        return None;
    }
    let fifth = color.relative_rank(Rank::Fifth);
    let from = capturer(scene, file, to, fifth)?;
    let victim = Square::from_coords(to.file(), fifth);
    if board.piece_at(victim) != Some((!color).pawn()) {
        return None;
    }
    if pos.maybe_ep_square() == Some(to) {
        return exposes_king(scene, from, victim, to).map(|m| (Code::EnPassantExposesKing, m));
    }
    let history = scene.history;
    match history.arrival(victim) {
        Some(arrival) if arrival.double_step => Some((
            Code::EnPassantWindowClosed,
            format!(
                "the pawn on {victim} made its double step at {}; it could be taken en passant only at the very next move ({}) and the window has closed",
                scene.quote(arrival.by),
                history.move_number(arrival.by.ply + 1)
            ),
        )),
        Some(arrival) => Some((
            Code::EnPassantNoDoubleStep,
            format!(
                "the pawn on {victim} arrived {} at {}, not by a double step: there is nothing to take en passant",
                if arrival.capture {
                    "by a capture"
                } else {
                    "by a single step"
                },
                scene.quote(arrival.by)
            ),
        )),
        None if history.start_ep == Some(to) => Some((
            Code::EnPassantWindowClosed,
            format!(
                "the start position's en passant square {to} allowed the capture only at the first move ({}); the window has closed",
                history.move_number(1)
            ),
        )),
        None => Some((
            Code::EnPassantNoDoubleStep,
            format!(
                "the pawn on {victim} has stood there since the start position, which grants no en passant right: it made no double step in this game"
            ),
        )),
    }
}

/// The pawn that would capture: on the SAN's file, or beside the target square.
fn capturer(scene: &Scene<'_>, file: Option<File>, to: Square, fifth: Rank) -> Option<Square> {
    let ours = scene.pos.our(Role::Pawn);
    let files: Vec<File> = match file {
        Some(f) => vec![f],
        None => [to.file().offset(-1), to.file().offset(1)]
            .into_iter()
            .flatten()
            .collect(),
    };
    files
        .into_iter()
        .filter(|f| f.distance(to.file()) == 1)
        .map(|f| Square::from_coords(f, fifth))
        .find(|sq| ours.contains(*sq))
}

/// Inside the window the capture is still illegal when it leaves the own king attacked:
/// name the line (rank, diagonal) or the check it does not answer.
fn exposes_king(scene: &Scene<'_>, from: Square, victim: Square, to: Square) -> Option<String> {
    let pos = scene.pos;
    let color = pos.turn();
    let king = scene.our_king()?;
    let after = (pos.board().occupied() & !Bitboard::from(from) & !Bitboard::from(victim))
        | Bitboard::from(to);
    let attackers = pos.board().attacks_to(king, !color, after)
        & pos.board().by_color(!color)
        & !Bitboard::from(victim);
    let attacker = attackers.first()?;
    let line = if pos.checkers().contains(attacker) {
        format!(
            "{} already gives check and the capture does not answer it",
            pieces_on(pos, Bitboard::from(attacker))
        )
    } else if attacker.rank() == king.rank() {
        format!(
            "both pawns would leave rank {} and open it to {} against the king on {king}",
            king.rank().char(),
            pieces_on(pos, Bitboard::from(attacker))
        )
    } else if attacker.file() == king.file() {
        format!(
            "the capturing pawn leaves the {}-file open to {} against the king on {king}",
            king.file().char(),
            pieces_on(pos, Bitboard::from(attacker))
        )
    } else {
        format!(
            "the capturing pawn is pinned on the diagonal {attacker}-{king} by {}",
            pieces_on(pos, Bitboard::from(attacker))
        )
    };
    Some(format!(
        "en passant {from}x{to} would leave {} king in check: {line}",
        if color == Color::White {
            "White's"
        } else {
            "Black's"
        }
    ))
}
