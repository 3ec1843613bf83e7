//! Why an ordinary move is illegal (FIDE 3.1-3.9): no such piece, it cannot reach the
//! square, the path is blocked, the piece is pinned, or the king would stay in check.

use shakmaty::attacks::{attacks, between, pawn_attacks};
use shakmaty::san::San;
use shakmaty::{Bitboard, Position, Rank, Role, Square};

use super::{Scene, color_name, legal_san, name, pieces_on, rewritten};

/// Explains a `San::Normal` that matches no legal move; other SANs get a plain sentence.
pub fn why_illegal(scene: &Scene<'_>, san: San) -> String {
    let San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    } = san
    else {
        return format!("no legal move matches {san}");
    };
    let pos = scene.pos;
    let color = pos.turn();
    let board = pos.board();
    let who = color_name(color);
    if let Some(piece) = board.piece_at(to)
        && piece.color == color
    {
        return format!("{to} is occupied by {who}'s own {}", name(piece.role));
    }
    if capture
        && !board.occupied().contains(to)
        && let Some(legal) = legal_san(pos, rewritten(san, false, promotion))
    {
        return format!(
            "the move is written as a capture but {to} is empty: {legal} would be legal"
        );
    }
    if !capture
        && board.occupied().contains(to)
        && let Some(legal) = legal_san(pos, rewritten(san, true, promotion))
    {
        return format!(
            "{to} holds a piece to capture but the move is not written as a capture: {legal} would be legal"
        );
    }
    let all = pos.our(role);
    if all.is_empty() {
        return format!("{who} has no {} on the board", name(role));
    }
    // A pawn push names no file but always comes from the target's file.
    let file = file.or((role == Role::Pawn && !capture).then_some(to.file()));
    let candidates: Vec<Square> = all
        .into_iter()
        .filter(|sq| file.is_none_or(|f| sq.file() == f) && rank.is_none_or(|r| sq.rank() == r))
        .collect();
    if candidates.is_empty() {
        return format!(
            "{who} has no {} on the square the move names ({})",
            name(role),
            describe_origin(file, rank)
        );
    }
    let reasons: Vec<(bool, String)> = candidates
        .iter()
        .map(|&from| why_not_from(scene, role, from, to, capture))
        .collect();
    // Pieces that could reach the square on an empty board explain more than the others.
    let reaching: Vec<&str> = reasons
        .iter()
        .filter(|(reaches, _)| *reaches)
        .map(|(_, why)| why.as_str())
        .collect();
    let shown: Vec<&str> = if reaching.is_empty() {
        reasons.iter().map(|(_, why)| why.as_str()).collect()
    } else {
        reaching
    };
    if let [only] = shown.as_slice() {
        return (*only).to_string();
    }
    format!(
        "no {} of {who} can play it: {}",
        name(role),
        shown.join("; ")
    )
}

fn describe_origin(file: Option<shakmaty::File>, rank: Option<Rank>) -> String {
    let mut origin = String::new();
    if let Some(f) = file {
        origin.push(f.char());
    }
    if let Some(r) = rank {
        origin.push(r.char());
    }
    origin
}

/// Why the piece of `role` on `from` cannot go to `to`, and whether it could on an
/// empty board.
fn why_not_from(
    scene: &Scene<'_>,
    role: Role,
    from: Square,
    to: Square,
    capture: bool,
) -> (bool, String) {
    let pos = scene.pos;
    let color = pos.turn();
    let board = pos.board();
    let occupied = board.occupied();
    let piece = role.of(color);
    let here = format!("the {} on {from}", name(role));
    if role == Role::Pawn {
        if let Some((reaches, reason)) = pawn_reach(scene, from, to, capture) {
            return (reaches, format!("{here} {reason}"));
        }
    } else {
        if !attacks(from, piece, Bitboard::EMPTY).contains(to) {
            return (false, format!("{here} cannot move to {to}"));
        }
        let blockers = between(from, to) & occupied;
        if blockers.any() {
            return (
                true,
                format!("{here} is blocked by {}", pieces_on(pos, blockers)),
            );
        }
    }
    // The move is possible on the board: it must leave the own king attacked.
    let Some(king) = scene.our_king() else {
        return (true, format!("{here} cannot move to {to}"));
    };
    let king_after = if role == Role::King { to } else { king };
    let after = (occupied & !Bitboard::from(from)) | Bitboard::from(to);
    let attackers =
        board.attacks_to(king_after, !color, after) & board.by_color(!color) & !Bitboard::from(to);
    if role == Role::King {
        let why = if attackers.any() {
            format!(
                "the king would be in check on {to} from {}",
                pieces_on(pos, attackers)
            )
        } else {
            format!("{here} cannot move to {to}")
        };
        return (true, why);
    }
    let checkers = pos.checkers();
    if checkers.any() && (attackers & checkers).any() {
        return (
            true,
            format!(
                "{} is in check from {} and moving {here} does not answer it",
                color_name(color),
                pieces_on(pos, checkers & attackers)
            ),
        );
    }
    if attackers.any() {
        return (
            true,
            format!(
                "{here} is pinned by {} against the king on {king}: moving it leaves the king in check",
                pieces_on(pos, attackers)
            ),
        );
    }
    (true, format!("{here} cannot move to {to}"))
}

/// Why a pawn cannot make the step or capture, or `None` when it can on the board.
fn pawn_reach(
    scene: &Scene<'_>,
    from: Square,
    to: Square,
    capture: bool,
) -> Option<(bool, String)> {
    let pos = scene.pos;
    let color = pos.turn();
    let occupied = pos.board().occupied();
    if from.file() != to.file() {
        if !pawn_attacks(color, from).contains(to) {
            return Some((false, format!("cannot capture on {to}")));
        }
        if !occupied.contains(to) {
            return Some((true, format!("has nothing to capture on {to}")));
        }
        return None;
    }
    if capture {
        return Some((
            false,
            format!("moves straight to {to}, which is not a capture"),
        ));
    }
    let forward = color.fold_wb(1, -1);
    let step = from.rank().offset(forward);
    let double = from.rank().offset(2 * forward);
    if Some(to.rank()) == double && from.rank() == color.relative_rank(Rank::Second) {
        let blockers = (between(from, to) | Bitboard::from(to)) & occupied;
        return blockers
            .any()
            .then(|| (true, format!("is blocked by {}", pieces_on(pos, blockers))));
    }
    if Some(to.rank()) != step {
        return Some((false, format!("cannot advance from {from} to {to}")));
    }
    occupied.contains(to).then(|| {
        (
            true,
            format!("is blocked by {}", pieces_on(pos, Bitboard::from(to))),
        )
    })
}
