//! The tie-breaks made from a player's own results (C.07 article 7): wins (WIN, WON),
//! games with Black (BPG, BWG), rounds elected to play (REP) and the progressive score
//! (PS). Values are counts or points in hundredths.

use super::tiebreak::{Modifier, Name};
use super::{Entry, Half, Play};

/// The value of one of these tie-breaks for a player's entries; `None` for a name that is
/// not one of them.
pub fn value(name: Name, modifier: Option<Modifier>, entries: &[Entry]) -> Option<i64> {
    let won = |e: &&Entry| e.score == Half(2);
    let black = |e: &&Entry| matches!(e.play, Play::Game { white: false, .. });
    let board = |e: &&Entry| matches!(e.play, Play::Game { .. });
    let count = |n: usize| n as i64 * 100;
    Some(match name {
        // Every win: over the board, by forfeit, a pairing-allocated bye.
        Name::Win => count(entries.iter().filter(won).count()),
        Name::Won => count(entries.iter().filter(board).filter(won).count()),
        Name::Bpg => count(entries.iter().filter(black).count()),
        Name::Bwg => count(entries.iter().filter(black).filter(won).count()),
        Name::Rep => count(entries.iter().filter(|e| elected(e)).count()),
        Name::Ps => progressive(entries, modifier),
        _ => return None,
    })
}

/// A round the player elected to play: a game over the board, or one won without play
/// (a pairing-allocated bye, a forfeit win); not a half- or zero-point bye, a forfeit
/// loss or an absence.
fn elected(entry: &Entry) -> bool {
    match entry.play {
        Play::Game { .. } => true,
        Play::Bye | Play::Forfeit { .. } => entry.score == Half(2),
        Play::Absent => false,
    }
}

/// PS: the sum of the running score after each round; a cut drops the lowest running
/// scores, which are the first rounds'.
fn progressive(entries: &[Entry], modifier: Option<Modifier>) -> i64 {
    let mut running = 0u32;
    let mut after_rounds: Vec<i64> = Vec::with_capacity(entries.len());
    for (at, entry) in entries.iter().enumerate() {
        running += entry.score.0;
        // Two entries in one numbered round make one round.
        let next_same = entries
            .get(at + 1)
            .is_some_and(|next| next.round.is_some() && next.round == entry.round);
        if !next_same {
            after_rounds.push(i64::from(running) * 50);
        }
    }
    let (low, high) = match modifier {
        None => (0, 0),
        Some(Modifier::Cut(n)) => (usize::from(n), 0),
        Some(Modifier::Median(n)) => (usize::from(n), usize::from(n)),
    };
    let keep = after_rounds.len().saturating_sub(low + high);
    after_rounds.iter().skip(low).take(keep).sum()
}
