//! Why a move is illegal: consulted only when `San::to_move` fails.

use shakmaty::san::San;
use shakmaty::{Chess, Move, Position};

use super::finding::Code;
use super::history::History;

/// The code and explanation for a SAN that matches no legal move.
pub fn illegal(_pos: &Chess, san: San, _history: &History) -> (Code, String) {
    if san == San::Null {
        return (
            Code::MoveIllegal,
            "a null move (`--` or `Z0`) is not a move of chess; it belongs in analysis only"
                .to_string(),
        );
    }
    (Code::MoveIllegal, format!("no legal move matches {san}"))
}

/// The explanation for a SAN that matches several legal moves: the candidates, named.
pub fn ambiguous(pos: &Chess, san: San) -> String {
    let candidates: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| san.matches(*m))
        .map(|m: Move| San::from_move(pos, m).to_string())
        .collect();
    format!(
        "{san} matches {} legal moves: {}",
        candidates.len(),
        candidates.join(", ")
    )
}
