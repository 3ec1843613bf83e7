//! What the final position shows and whether the recorded result agrees with it
//! (SPEC.md "Results"). `validate` and `stats` both decide through this one module.

use shakmaty::{Chess, Color, Position};

use crate::rules::draw::DrawTracker;
use crate::rules::mate_check::WhoCannotMate;
use crate::rules::replay::piece_move::king_can_step;

/// What the final position shows, the first that holds (SPEC.md's precedence).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Termination {
    Checkmate,
    Stalemate,
    InsufficientMaterial,
    DeadPosition,
    FivefoldRepetition,
    SeventyFiveMoves,
    ThreefoldRepetition,
    FiftyMoves,
    None,
}

impl Termination {
    pub const ALL: [Termination; 9] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::InsufficientMaterial,
        Termination::DeadPosition,
        Termination::FivefoldRepetition,
        Termination::SeventyFiveMoves,
        Termination::ThreefoldRepetition,
        Termination::FiftyMoves,
        Termination::None,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient-material",
            Termination::DeadPosition => "dead-position",
            Termination::FivefoldRepetition => "fivefold-repetition",
            Termination::SeventyFiveMoves => "seventy-five-moves",
            Termination::ThreefoldRepetition => "threefold-repetition",
            Termination::FiftyMoves => "fifty-moves",
            Termination::None => "none",
        }
    }

    /// What the final position `pos` shows, given how often it has occurred; a dead
    /// position beyond insufficient material is the mate analysis's to say (the replay
    /// sets `DeadPosition`).
    pub fn of(pos: &Chess, draws: &DrawTracker) -> Termination {
        let clock = pos.halfmoves();
        // A king that can step is neither mated nor stalemated: most games end so, and
        // the test spares generating every legal move.
        let may_be_stuck = !king_can_step(pos);
        if may_be_stuck && pos.is_checkmate() {
            Termination::Checkmate
        } else if may_be_stuck && pos.is_stalemate() {
            Termination::Stalemate
        } else if pos.is_insufficient_material() {
            Termination::InsufficientMaterial
        } else if draws.current_count >= 5 {
            Termination::FivefoldRepetition
        } else if clock >= 150 {
            Termination::SeventyFiveMoves
        } else if draws.current_count >= 3 {
            Termination::ThreefoldRepetition
        } else if clock >= 100 {
            Termination::FiftyMoves
        } else {
            Termination::None
        }
    }

    /// The game ended by itself here, whatever was recorded (FIDE 5.2.1, 5.2.2, 9.6).
    pub fn is_automatic_end(self) -> bool {
        matches!(
            self,
            Termination::Checkmate
                | Termination::Stalemate
                | Termination::InsufficientMaterial
                | Termination::DeadPosition
                | Termination::FivefoldRepetition
                | Termination::SeventyFiveMoves
        )
    }
}

/// A game result as written in PGN.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
    Unknown,
}

impl GameResult {
    /// Reads one of the four PGN results (`½-½` too); anything else is `None`.
    pub fn parse(text: &str) -> Option<GameResult> {
        // A result as written (the common case) before `trim`, whose Unicode white space
        // cost some 70 instructions a call, a few calls a game.
        GameResult::exact(text).or_else(|| GameResult::exact(text.trim()))
    }

    /// One of the four results, exactly as written.
    fn exact(text: &str) -> Option<GameResult> {
        match text {
            "1-0" => Some(GameResult::WhiteWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" | "½-½" => Some(GameResult::Draw),
            "*" => Some(GameResult::Unknown),
            _ => None,
        }
    }

    /// Reads a termination marker, also as written loosely (`1/2`, an en dash for the
    /// hyphen: SPEC.md `result.notation`).
    pub fn parse_marker(text: &[u8]) -> Option<GameResult> {
        match text {
            b"1-0" => Some(GameResult::WhiteWins),
            b"0-1" => Some(GameResult::BlackWins),
            b"1/2-1/2" => Some(GameResult::Draw),
            b"*" => Some(GameResult::Unknown),
            _ => match std::str::from_utf8(text).ok()? {
                "1–0" => Some(GameResult::WhiteWins),
                "0–1" => Some(GameResult::BlackWins),
                "1/2" | "½-½" | "½–½" | "1/2–1/2" => Some(GameResult::Draw),
                _ => None,
            },
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            _ => None,
        }
    }

    fn is_known(self) -> bool {
        self != GameResult::Unknown
    }
}

/// R of SPEC.md: the Result tag; where it is missing, empty or `*`, the termination marker;
/// where both are missing, `*`. Returned as text, since a tag may hold anything.
pub fn recorded_result(tag: Option<&str>, marker: Option<GameResult>) -> String {
    match tag.map(str::trim) {
        Some(value) if !value.is_empty() && value != "*" => value.to_string(),
        _ => marker.unwrap_or(GameResult::Unknown).as_str().to_string(),
    }
}

/// Why the recorded result contradicts the board, or `None` when it does not.
pub fn mismatch(
    tag: Option<&str>,
    marker: Option<GameResult>,
    recorded: &str,
    final_pos: &Chess,
    termination: Termination,
) -> Option<String> {
    let tag_result = tag.and_then(GameResult::parse);
    if let (Some(t), Some(m)) = (tag_result, marker)
        && t.is_known()
        && m.is_known()
        && t != m
    {
        return Some(format!(
            "the Result tag says {} but the movetext ends with {}",
            t.as_str(),
            m.as_str()
        ));
    }
    let r = GameResult::parse(recorded);
    match termination {
        Termination::Checkmate => {
            let mated = final_pos.turn();
            match r {
                Some(GameResult::Draw) => Some(format!(
                    "the game is recorded as a draw but {} is checkmated",
                    color_name(mated)
                )),
                Some(result) if result.winner() == Some(mated) => Some(format!(
                    "the game is recorded as {} but {} is checkmated",
                    result.as_str(),
                    color_name(mated)
                )),
                _ => None,
            }
        }
        Termination::Stalemate
        | Termination::FivefoldRepetition
        | Termination::SeventyFiveMoves => match r {
            Some(result) if result.winner().is_some() => Some(format!(
                "the game is recorded as {} but the final position is a {} (a draw)",
                result.as_str(),
                match termination {
                    Termination::Stalemate => "stalemate",
                    Termination::FivefoldRepetition => "fivefold repetition",
                    _ => "draw by the seventy-five move rule",
                }
            )),
            _ => None,
        },
        _ => None,
    }
}

/// A decisive result for a side that cannot mate by any series of legal moves (FIDE 6.9),
/// as the mate analysis decided; said plainly when the `Termination` tag records a loss
/// on time.
pub fn unwinnable_win(
    recorded: &str,
    final_pos: &Chess,
    verdict: WhoCannotMate,
    termination_tag: Option<&str>,
) -> Option<String> {
    let winner = GameResult::parse(recorded)?.winner()?;
    if !verdict.cannot(winner) && !final_pos.has_insufficient_material(winner) {
        return None;
    }
    let (name, loser) = (color_name(winner), color_name(!winner));
    Some(if termination_tag.is_some_and(lost_on_time) {
        format!(
            "the game is recorded as {recorded} and {loser} lost on time, but {name} could not mate by any series of legal moves: FIDE 6.9 makes this a draw"
        )
    } else if final_pos.has_insufficient_material(winner) {
        format!(
            "the game is recorded as {recorded} but {name} has no mating material (FIDE 6.9: a draw)"
        )
    } else {
        format!(
            "the game is recorded as {recorded} but {name} cannot mate by any series of legal moves in the final position (FIDE 6.9: a draw)"
        )
    })
}

/// The `Termination` tag records a loss on time: trimmed and compared case-insensitively,
/// `time forfeit` or `time`, or ending in ` on time` (lichess, chess.com, ChessBase).
pub fn lost_on_time(tag: &str) -> bool {
    let tag = tag.trim();
    let on_time = tag.len() > " on time".len()
        && crate::rules::termination_tag::ends_with_phrase(tag, "on time");
    tag.eq_ignore_ascii_case("time forfeit") || tag.eq_ignore_ascii_case("time") || on_time
}

pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

#[cfg(test)]
mod tests {
    use super::GameResult;

    /// A result as written and one with white space around it read alike; anything else
    /// is none.
    #[test]
    fn results_read_as_written_or_padded() {
        for (text, result) in [
            ("1-0", Some(GameResult::WhiteWins)),
            (" 1-0\t", Some(GameResult::WhiteWins)),
            ("0-1", Some(GameResult::BlackWins)),
            ("0-1 ", Some(GameResult::BlackWins)),
            ("1/2-1/2", Some(GameResult::Draw)),
            ("\u{a0}1/2-1/2", Some(GameResult::Draw)),
            ("½-½", Some(GameResult::Draw)),
            ("*", Some(GameResult::Unknown)),
            (" * ", Some(GameResult::Unknown)),
            ("1-0 1-0", None),
            ("1/2", None),
            ("", None),
        ] {
            assert_eq!(GameResult::parse(text), result, "{text:?}");
        }
    }
}
