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

/// The sum left after the modifier: the voluntarily unplayed rounds go first, then the
/// least significant, and for a median also the most (C.07-2026 article 14, SPEC.md):
/// the rounds against the opponents with the fewest (most) points, for SB the smaller
/// (larger) contribution among equals, as the TEC's TieBreakServer orders them.
fn trimmed(parts: &mut [Part], modifier: Option<Modifier>) -> i64 {
    let (low, high) = match modifier {
        None => (0, 0),
        Some(Modifier::Cut(n)) => (usize::from(n), 0),
        Some(Modifier::Median(n)) => (usize::from(n), usize::from(n)),
    };
    parts.sort_unstable_by_key(|(value, opponent, free)| (!*free, *opponent, *value));
    let rest = parts.get_mut(low..).unwrap_or_default();
    rest.sort_unstable_by_key(|(value, opponent, _)| (*opponent, *value));
    let keep = rest.len().saturating_sub(high);
    rest.iter().take(keep).map(|(value, _, _)| value).sum()
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
