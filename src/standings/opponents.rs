//! The tie-breaks made from the opponents' points: Buchholz (BH), Fore Buchholz (FB),
//! Sonneborn-Berger (SB), Koya (KS) and the average of opponents' Buchholz (AOB); C.07
//! articles 8-9, with the unplayed rounds of `unplayed` and the cut and median modifiers
//! of article 14.

use super::rating::round_half_up;
use super::tiebreak::Modifier;
use super::unplayed::{Scores, counts_as_played, dummy, voluntary};
use super::{Field, Play, PlayerId, System};

/// One round's contribution in hundredths, the opponent's points in hundredths (what
/// a cut orders SB by), and whether the player chose not to play the round.
type Part = (i64, i64, bool);

/// Which sum of opponents' points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sum {
    /// BH and FB: the opponent's points.
    Buchholz,
    /// SB: the opponent's points times the player's score against him.
    Berger,
}

/// BH, FB (with `Scores::new(field, true)`) or SB of every player, cut as `modifier` says.
pub fn sums(field: &Field, scores: &Scores, sum: Sum, modifier: Option<Modifier>) -> Vec<i64> {
    let mut parts: Vec<Part> = Vec::new();
    (0..field.entries.len())
        .map(|player| {
            parts.clear();
            contributions(field, scores, sum, player, &mut parts);
            trimmed(&mut parts, modifier)
        })
        .collect()
}

fn contributions(field: &Field, scores: &Scores, sum: Sum, player: PlayerId, out: &mut Vec<Part>) {
    let entries = field.entries.get(player).map_or(&[][..], Vec::as_slice);
    for entry in entries {
        let (opponent_points, free) = match scores.played(field.system, entry) {
            Some(opponent) => (scores.adjusted(opponent), false),
            // The free round of an odd round robin, or an absence there, enters nothing.
            None if field.system == System::RoundRobin => continue,
            None => (dummy(field, scores, player, entry), voluntary(entry)),
        };
        // Half points to hundredths.
        let opponent = i64::from(opponent_points) * 50;
        let value = match sum {
            Sum::Buchholz => opponent,
            // Half points times half points is quarters of a point.
            Sum::Berger => i64::from(opponent_points) * i64::from(scores.of(entry)) * 25,
        };
        out.push((value, opponent, free));
    }
}

/// The sum left after the modifier (C.07-2026 articles 14 and 16.5): each cut takes the
/// least significant contribution (the opponent with the fewest points, for SB the smaller
/// product among equals), unless the player has voluntarily unplayed rounds: then the
/// lowest of those goes instead, as long as it is not lower than that least significant
/// one (for BH always; for SB the higher of the two goes). A median then also takes the
/// most significant, with no such exception.
fn trimmed(parts: &mut Vec<Part>, modifier: Option<Modifier>) -> i64 {
    let (low, high) = match modifier {
        None => (0, 0),
        Some(Modifier::Cut(n)) => (usize::from(n), 0),
        Some(Modifier::Median(n)) => (usize::from(n), usize::from(n)),
    };
    let significance = |part: &Part| (part.1, part.0);
    for _ in 0..low {
        let least = (0..parts.len()).min_by_key(|i| parts.get(*i).map(significance));
        let free = (0..parts.len())
            .filter(|i| parts.get(*i).is_some_and(|p| p.2))
            .min_by_key(|i| parts.get(*i).map(significance));
        let value = |i: Option<usize>| i.and_then(|i| parts.get(i)).map(|p| p.0);
        let cut = match free {
            Some(_) if value(least) > value(free) => least,
            Some(_) => free,
            None => least,
        };
        if let Some(i) = cut {
            parts.swap_remove(i);
        }
    }
    for _ in 0..high {
        let most = (0..parts.len()).max_by_key(|i| parts.get(*i).map(significance));
        if let Some(i) = most {
            parts.swap_remove(i);
        }
    }
    parts.iter().map(|(value, _, _)| value).sum()
}

/// Koya (KS): the points scored against opponents who scored at least half of the
/// maximum possible (in a round robin the games a player is paired in, the free round not
/// counted; in a Swiss the rounds). Forfeited games count, in a Swiss too (SPEC.md lists
/// KS among neither the over-the-board figures nor the dummy's).
pub fn koya(field: &Field) -> Vec<i64> {
    let paired = |player: &Vec<super::Entry>| {
        player
            .iter()
            .filter(|e| counts_as_played(System::RoundRobin, e).is_some())
            .count()
    };
    let maximum = match field.system {
        System::RoundRobin => field.entries.iter().map(paired).max().unwrap_or(0),
        System::Swiss => field.rounds as usize,
    };
    let points: Vec<u32> = field
        .entries
        .iter()
        .map(|entries| entries.iter().map(|e| e.score.0).sum())
        .collect();
    // Half of `maximum` points is `maximum` half points.
    let strong =
        |opponent: PlayerId| points.get(opponent).copied().unwrap_or(0) as usize >= maximum;
    field
        .entries
        .iter()
        .map(|entries| {
            entries
                .iter()
                .filter(|e| counts_as_played(System::RoundRobin, e).is_some_and(strong))
                .map(|e| i64::from(e.score.0) * 50)
                .sum()
        })
        .collect()
}

/// AOB: the average of the Buchholz of the opponents met over the board, in hundredths
/// rounded half up; `None` for a player who met none.
pub fn average_of_buchholz(field: &Field, buchholz: &[i64]) -> Vec<Option<i64>> {
    field
        .entries
        .iter()
        .map(|entries| {
            let (total, count) = entries
                .iter()
                .filter_map(|e| match e.play {
                    Play::Game { opponent, .. } => buchholz.get(opponent).copied(),
                    _ => None,
                })
                .fold((0i64, 0i64), |(t, c), v| (t + v, c + 1));
            (count > 0).then(|| round_half_up(total, count))
        })
        .collect()
}
