//! What a `Termination` tag claims about how the game ended, and whether the record bears
//! it out (SPEC.md "What a Termination tag claims"): `result.termination-conflict`, the
//! first contradiction of the claim by the recorded result or the board, and
//! `result.timeout-draw-winnable`, a game drawn on time although the side whose clock was
//! not running could still mate (FIDE 6.9). The replay's end asks it once per game
//! (`replay/end.rs`). An unknown value claims nothing: a false alarm costs more trust than
//! a missed one.

use shakmaty::{CastlingMode, Chess, Color, Position};

use crate::rules::draw::{DrawTracker, position_key};
use crate::rules::findings::Code;
use crate::rules::mate_check;
use crate::rules::result::{GameResult, Termination, color_name, lost_on_time};

/// How a `Termination` tag says the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    Checkmate,
    Resignation,
    LossOnTime,
    /// `X drawn by timeout vs insufficient material`: a flag fell against a side that
    /// cannot mate.
    TimeoutVsInsufficient,
    Stalemate,
    Repetition,
    FiftyMoves,
    InsufficientMaterial,
    Agreement,
}

impl Claim {
    /// The claim of a tag value, trimmed and compared case-insensitively; `None` for a
    /// value that claims nothing (`Normal`, `Abandoned`, `Adjudication`, ...).
    pub fn read(value: &str) -> Option<Claim> {
        let value = value.trim();
        let is = |phrase: &str| value.eq_ignore_ascii_case(phrase);
        // `X phrase`, X any text (usually a name) or nothing.
        let said = |phrase: &str| ends_with_phrase(value, phrase);
        // Before the plain insufficient-material claim, which ends the same way.
        if said("drawn by timeout vs insufficient material") {
            return Some(Claim::TimeoutVsInsufficient);
        }
        let claim = if is("checkmate") || said("won by checkmate") {
            Claim::Checkmate
        } else if is("resignation")
            || said("won by resignation")
            || said("resigns")
            || said("resigned")
        {
            Claim::Resignation
        } else if lost_on_time(value) {
            Claim::LossOnTime
        } else if is("stalemate") || said("drawn by stalemate") {
            Claim::Stalemate
        } else if [
            "repetition",
            "threefold repetition",
            "3-fold repetition",
            "3-fold rep",
        ]
        .into_iter()
        .any(is)
            || said("drawn by repetition")
        {
            Claim::Repetition
        } else if [
            "fifty moves",
            "fifty move rule",
            "fifty moves rule",
            "50-move rule",
            "50 move rule",
        ]
        .into_iter()
        .any(is)
            || said("drawn by 50-move rule")
        {
            Claim::FiftyMoves
        } else if is("insufficient material")
            || is("insufficient mating material")
            || said("drawn by insufficient material")
        {
            Claim::InsufficientMaterial
        } else if is("agreement") || is("draw agreed") || said("drawn by agreement") {
            Claim::Agreement
        } else {
            return None;
        };
        Some(claim)
    }

    /// The claim in a message: "the Termination tag claims {this}".
    fn described(self) -> &'static str {
        match self {
            Claim::Checkmate => "a checkmate",
            Claim::Resignation => "a resignation",
            Claim::LossOnTime => "a loss on time",
            Claim::TimeoutVsInsufficient => "a draw on time against a side that cannot mate",
            Claim::Stalemate => "a stalemate",
            Claim::Repetition => "a draw by repetition",
            Claim::FiftyMoves => "a draw by the fifty-move rule",
            Claim::InsufficientMaterial => "a draw by insufficient material",
            Claim::Agreement => "a draw by agreement",
        }
    }

    fn is_draw(self) -> bool {
        matches!(
            self,
            Claim::TimeoutVsInsufficient
                | Claim::Stalemate
                | Claim::Repetition
                | Claim::FiftyMoves
                | Claim::InsufficientMaterial
                | Claim::Agreement
        )
    }
}

/// Whether `value` is `phrase`, or ends with a space and `phrase`, ignoring ASCII case
/// (no allocation: every game with a Termination tag is read).
pub fn ends_with_phrase(value: &str, phrase: &str) -> bool {
    let (value, phrase) = (value.as_bytes(), phrase.as_bytes());
    let Some(start) = value.len().checked_sub(phrase.len()) else {
        return false;
    };
    let tail_matches = value
        .get(start..)
        .is_some_and(|tail| tail.eq_ignore_ascii_case(phrase));
    tail_matches && (start == 0 || value.get(start - 1) == Some(&b' '))
}

/// What the record says about the end of a game replayed to its last move.
pub struct End<'a> {
    /// The `Termination` tag's value.
    pub tag: &'a str,
    /// R of SPEC.md, as text.
    pub recorded: &'a str,
    pub pos: &'a Chess,
    /// What the final position shows.
    pub termination: Termination,
    /// The positions of the game's last reversible stretch.
    pub draws: &'a DrawTracker,
    pub mode: CastlingMode,
}

/// The finding a claim raises, if any: at most one per game.
pub fn judge(end: &End) -> Option<(Code, String)> {
    let claim = Claim::read(end.tag)?;
    let conflict = |why: String| {
        let written: String = end.tag.trim().chars().take(80).collect();
        Some((
            Code::ResultTerminationConflict,
            format!(
                "the Termination tag \"{written}\" claims {}, but {why}",
                claim.described()
            ),
        ))
    };
    if let Some(why) = contradiction(claim, end) {
        return conflict(why);
    }
    timeout_draw_winnable(claim, end)
}

/// The first contradiction of the claim by the record, in SPEC.md's order.
fn contradiction(claim: Claim, end: &End) -> Option<String> {
    let result = GameResult::parse(end.recorded);
    let decisive = result.and_then(GameResult::winner);
    let pos = end.pos;
    match (claim, result) {
        (Claim::Checkmate | Claim::Resignation, Some(GameResult::Draw)) => {
            return Some("the game is recorded as a draw (1/2-1/2)".to_string());
        }
        (claim, Some(result)) if claim.is_draw() && decisive.is_some() => {
            return Some(format!("the game is recorded as {}", result.as_str()));
        }
        _ => {}
    }
    let ended_on_board = match end.termination {
        Termination::Checkmate => Some("checkmate"),
        Termination::Stalemate => Some("stalemate"),
        _ => None,
    };
    match claim {
        Claim::Checkmate if end.termination != Termination::Checkmate => {
            Some("the final position is not checkmate".to_string())
        }
        Claim::Resignation | Claim::LossOnTime if ended_on_board.is_some() => Some(format!(
            "the game had already ended on the board by {}",
            ended_on_board.unwrap_or_default()
        )),
        Claim::LossOnTime => {
            let loser = !decisive?;
            (loser != pos.turn()).then(|| {
                format!(
                    "{} had just moved in the final position: its clock was not running, {}'s was",
                    color_name(loser),
                    color_name(!loser)
                )
            })
        }
        Claim::Stalemate if end.termination != Termination::Stalemate => {
            Some("the final position is not stalemate".to_string())
        }
        // The other draw claims are not judged where the game ended on the board
        // (`result.mismatch` covers a draw recorded on a mate).
        _ if ended_on_board.is_some() => None,
        Claim::Repetition => repetition_unclaimable(end),
        Claim::FiftyMoves => fifty_moves_unclaimable(pos),
        Claim::InsufficientMaterial => Color::ALL
            .into_iter()
            .find(|&side| mate_check::proved_able_to_mate(pos, end.mode, side))
            .map(|side| {
                format!(
                    "{} can still mate in the final position (a series of legal moves ending in its checkmate exists)",
                    color_name(side)
                )
            }),
        _ => None,
    }
}

/// Why a repetition cannot be claimed in the final position, if it cannot: it has
/// occurred fewer than three times, and no legal move reaches a position that has
/// already occurred twice (FIDE 9.2.1: the claim may come with the move about to be made).
fn repetition_unclaimable(end: &End) -> Option<String> {
    let count = end.draws.current_count;
    if count >= 3 {
        return None;
    }
    let by_a_move = end.pos.legal_moves().into_iter().any(|m| {
        let mut after = end.pos.clone();
        after.play_unchecked(m);
        end.draws.occurrences(position_key(&after)) >= 2
    });
    (!by_a_move).then(|| {
        format!(
            "the final position has occurred {} and no legal move from it repeats a position a third time",
            times(count)
        )
    })
}

/// Why the fifty-move rule cannot be claimed in the final position, if it cannot: its
/// halfmove clock is below 100 and no legal move brings it to 100 (FIDE 9.3).
fn fifty_moves_unclaimable(pos: &Chess) -> Option<String> {
    let clock = pos.halfmoves();
    if clock >= 100 {
        return None;
    }
    let by_a_move = clock == 99
        && pos
            .legal_moves()
            .iter()
            .any(|m| !m.is_capture() && m.role() != shakmaty::Role::Pawn);
    (!by_a_move).then(|| {
        format!(
            "the final position's halfmove clock is {clock}: fewer than fifty moves of each side without a capture or a pawn move"
        )
    })
}

/// `result.timeout-draw-winnable`: a drawn R, a claim of a loss on time or of a draw on
/// time against a side that cannot mate, and the side not to move (whose clock was not
/// running) proved able to mate in the final position.
fn timeout_draw_winnable(claim: Claim, end: &End) -> Option<(Code, String)> {
    if !matches!(claim, Claim::LossOnTime | Claim::TimeoutVsInsufficient)
        || GameResult::parse(end.recorded) != Some(GameResult::Draw)
        || matches!(
            end.termination,
            Termination::Checkmate | Termination::Stalemate
        )
    {
        return None;
    }
    let side = !end.pos.turn();
    if !mate_check::proved_able_to_mate(end.pos, end.mode, side) {
        return None;
    }
    let (name, flagged) = (color_name(side), color_name(!side));
    Some((
        Code::ResultTimeoutDrawWinnable,
        format!(
            "the game is recorded as a draw after {flagged} ran out of time, but {name} could still mate in the final position: FIDE 6.9 makes it a win for {name}"
        ),
    ))
}

fn times(count: u32) -> String {
    match count {
        1 => "once".to_string(),
        2 => "twice".to_string(),
        n => format!("{n} times"),
    }
}

#[cfg(test)]
mod tests {
    use super::Claim;

    /// Every value of SPEC.md's table is read as its claim; others claim nothing.
    #[test]
    fn values_are_read_as_spec_lists_them() {
        let cases = [
            ("checkmate", Some(Claim::Checkmate)),
            ("Carlsen won by checkmate", Some(Claim::Checkmate)),
            ("Resignation", Some(Claim::Resignation)),
            ("Black won by resignation", Some(Claim::Resignation)),
            ("White resigns", Some(Claim::Resignation)),
            ("Nakamura resigned", Some(Claim::Resignation)),
            ("Time forfeit", Some(Claim::LossOnTime)),
            ("time", Some(Claim::LossOnTime)),
            ("Carlsen won on time", Some(Claim::LossOnTime)),
            (
                "Game drawn by timeout vs insufficient material",
                Some(Claim::TimeoutVsInsufficient),
            ),
            (
                "drawn by timeout vs insufficient material",
                Some(Claim::TimeoutVsInsufficient),
            ),
            ("stalemate", Some(Claim::Stalemate)),
            ("Game drawn by stalemate", Some(Claim::Stalemate)),
            ("repetition", Some(Claim::Repetition)),
            ("Threefold repetition", Some(Claim::Repetition)),
            ("3-fold repetition", Some(Claim::Repetition)),
            ("3-fold rep", Some(Claim::Repetition)),
            ("Game drawn by repetition", Some(Claim::Repetition)),
            ("fifty moves", Some(Claim::FiftyMoves)),
            ("Fifty move rule", Some(Claim::FiftyMoves)),
            ("fifty moves rule", Some(Claim::FiftyMoves)),
            ("50-move rule", Some(Claim::FiftyMoves)),
            ("50 move rule", Some(Claim::FiftyMoves)),
            ("Game drawn by 50-move rule", Some(Claim::FiftyMoves)),
            ("Insufficient material", Some(Claim::InsufficientMaterial)),
            (
                "insufficient mating material",
                Some(Claim::InsufficientMaterial),
            ),
            (
                "Game drawn by insufficient material",
                Some(Claim::InsufficientMaterial),
            ),
            ("agreement", Some(Claim::Agreement)),
            ("Draw agreed", Some(Claim::Agreement)),
            ("Game drawn by agreement", Some(Claim::Agreement)),
            ("  CHECKMATE  ", Some(Claim::Checkmate)),
            ("Normal", None),
            ("Abandoned", None),
            ("Adjudication", None),
            ("Rules infraction", None),
            ("Unterminated", None),
            ("Mate in 3", None),
            ("time control", None),
            ("wonbycheckmate", None),
            ("", None),
        ];
        for (value, claim) in cases {
            assert_eq!(Claim::read(value), claim, "{value}");
        }
    }
}
