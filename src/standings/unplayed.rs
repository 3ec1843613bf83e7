//! What C.07-2026 does with unplayed rounds (articles 15-16; SPEC.md "Tie-breaks"): which
//! rounds a player chose not to play, an opponent's adjusted points, and the scores the
//! Buchholz family reads (Fore Buchholz's last round as a draw).

use super::{Entry, Field, Half, Play, PlayerId, System};

/// A round the player chose not to play: a half- or zero-point bye, an absence, a
/// forfeit loss (or a double forfeit). A cut takes these in place of the least
/// significant value (C.07-2026 16.5).
pub fn voluntary(entry: &Entry) -> bool {
    match entry.play {
        Play::Game { .. } => false,
        Play::Bye | Play::Forfeit { .. } => entry.score < Half(2),
        Play::Absent => true,
    }
}

/// Whether the round counts as played for the tie-breaks: a game over the board, and in a
/// round robin a forfeited game too (SPEC.md).
pub fn counts_as_played(system: System, entry: &Entry) -> Option<PlayerId> {
    match (system, entry.play) {
        (_, Play::Game { opponent, .. }) | (System::RoundRobin, Play::Forfeit { opponent, .. }) => {
            Some(opponent)
        }
        _ => None,
    }
}

/// The scores the Buchholz family reads: as played, or for Fore Buchholz with every
/// paired round of the last round a draw, a forfeited one counted as played (C.07 8.3, as
/// the TEC's TieBreakServer reads it).
#[derive(Debug, Clone)]
pub struct Scores {
    /// Half points per player, as this scoring counts them.
    pub points: Vec<u32>,
    /// Points as a Swiss opponent counts (SPEC.md "adjusted"); in a round robin the points.
    pub adjusted: Vec<u32>,
    fore_round: Option<u32>,
}

impl Scores {
    pub fn new(field: &Field, fore: bool) -> Scores {
        let fore_round = fore.then_some(field.rounds).filter(|r| *r > 0);
        let points: Vec<u32> = field
            .entries
            .iter()
            .map(|entries| entries.iter().map(|e| entry_score(fore_round, e)).sum())
            .collect();
        let adjusted = match field.system {
            System::RoundRobin => points.clone(),
            System::Swiss => field
                .entries
                .iter()
                .map(|entries| adjusted(entries, fore_round))
                .collect(),
        };
        Scores {
            points,
            adjusted,
            fore_round,
        }
    }

    /// The player's half points in that round, as this scoring counts them.
    pub fn of(&self, entry: &Entry) -> u32 {
        entry_score(self.fore_round, entry)
    }

    /// The opponent when the round counts as played: `counts_as_played`, and for Fore
    /// Buchholz a forfeit of the last round too.
    pub fn played(&self, system: System, entry: &Entry) -> Option<PlayerId> {
        match entry.play {
            Play::Forfeit { opponent, .. } if self.is_fore(entry) => Some(opponent),
            _ => counts_as_played(system, entry),
        }
    }

    pub fn points(&self, player: PlayerId) -> u32 {
        self.points.get(player).copied().unwrap_or(0)
    }

    pub fn adjusted(&self, player: PlayerId) -> u32 {
        self.adjusted.get(player).copied().unwrap_or(0)
    }

    fn is_fore(&self, entry: &Entry) -> bool {
        is_fore(self.fore_round, entry)
    }
}

/// A paired round (a game or a forfeit) of the last round, under Fore Buchholz.
fn is_fore(fore_round: Option<u32>, entry: &Entry) -> bool {
    let paired = matches!(entry.play, Play::Game { .. } | Play::Forfeit { .. });
    paired && fore_round.is_some() && entry.round == fore_round
}

fn entry_score(fore_round: Option<u32>, entry: &Entry) -> u32 {
    if is_fore(fore_round, entry) {
        1
    } else {
        entry.score.0
    }
}

/// An opponent's points for a Swiss: the voluntarily unplayed rounds after his last round
/// that was none count ½ each if a bye or an absence, a forfeit loss 0; everything before
/// as scored.
fn adjusted(entries: &[Entry], fore_round: Option<u32>) -> u32 {
    let free = |e: &&Entry| voluntary(e) && !is_fore(fore_round, e);
    let trailing = entries.iter().rev().take_while(free).count();
    let before = entries.len() - trailing;
    let scored: u32 = entries
        .iter()
        .take(before)
        .map(|e| entry_score(fore_round, e))
        .sum();
    let after: u32 = entries
        .iter()
        .skip(before)
        .map(|e| match e.play {
            Play::Forfeit { .. } => e.score.0,
            _ => 1,
        })
        .sum();
    scored + after
}

/// The dummy opponent of a Swiss player's unplayed round (C.07-2026 article 16): worth
/// min(the player's final points, X), X the scheduled opponent's adjusted points when a
/// pairing was made, half the maximum score otherwise.
pub fn dummy(field: &Field, scores: &Scores, player: PlayerId, entry: &Entry) -> u32 {
    let x = match entry.play {
        Play::Forfeit { opponent, .. } => scores.adjusted(opponent),
        // Half of `rounds` points is `rounds` half points.
        _ => field.rounds,
    };
    scores.points(player).min(x)
}
