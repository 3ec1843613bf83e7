//! Direct encounter (DE, C.07 article 6) within the groups of players still tied on every
//! key before it: the points each scored against the others of the group, the average
//! score against an opponent met more than once (6.1.2). When they have not all met
//! (6.3), a player is put ahead only of those who could not catch him even by winning
//! every game between them that was not played; the rest stay equal.

use super::unplayed::counts_as_played;
use super::{Field, PlayerId};

/// DE of every player in hundredths; `group[p]` names the tied group of player `p`.
pub fn direct_encounter(field: &Field, group: &[usize]) -> Vec<i64> {
    let players = field.entries.len();
    let group_of = |p: PlayerId| group.get(p).copied().unwrap_or(usize::MAX);
    let mut size = vec![0i64; players];
    for p in 0..players {
        if let Some(s) = size.get_mut(group_of(p)) {
            *s += 1;
        }
    }
    // Every meeting inside a group, from each side, with the half points it gave.
    let mut meetings: Vec<(PlayerId, PlayerId, u32)> = Vec::new();
    for (player, entries) in field.entries.iter().enumerate() {
        for entry in entries {
            if let Some(opponent) = counts_as_played(field.system, entry)
                && opponent != player
                && group_of(opponent) == group_of(player)
            {
                meetings.push((player, opponent, entry.score.0));
            }
        }
    }
    meetings.sort_unstable();
    // Per player, the average against each opponent met (hundredths, half up when a
    // pair met three times or more) and the number of opponents met.
    let mut scored = vec![0i64; players];
    let mut met = vec![0i64; players];
    for run in meetings.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
        if let Some(&(p, _, _)) = run.first() {
            let halves: i64 = run.iter().map(|m| i64::from(m.2)).sum();
            let count = run.len() as i64;
            if let Some(s) = scored.get_mut(p) {
                *s += (halves * 100 + count).div_euclid(2 * count);
            }
            if let Some(m) = met.get_mut(p) {
                *m += 1;
            }
        }
    }
    // The opponents of the group a player has not met.
    let missing = |p: PlayerId| {
        let others = size.get(group_of(p)).copied().unwrap_or(1) - 1;
        (others - met.get(p).copied().unwrap_or(0)).max(0)
    };
    let mut values = scored.clone();
    let mut members: Vec<PlayerId> = (0..players).collect();
    members.sort_unstable_by_key(|p| group_of(*p));
    for run in members.chunk_by(|a, b| group_of(*a) == group_of(*b)) {
        if run.iter().any(|p| missing(*p) > 0) {
            settle(run, &scored, missing, &mut values);
        }
    }
    values
}

/// A group that has not all met: sorted by score, cut only where everyone above scored
/// more than anyone below could reach; each segment takes its lowest score.
fn settle(run: &[PlayerId], scored: &[i64], missing: impl Fn(PlayerId) -> i64, values: &mut [i64]) {
    let score = |p: PlayerId| scored.get(p).copied().unwrap_or(0);
    let mut order = run.to_vec();
    order.sort_unstable_by_key(|p| std::cmp::Reverse(score(*p)));
    // reach_below[i]: the most any of order[i..] could reach, a missing game won (1 point).
    let mut reach_below = vec![i64::MIN; order.len() + 1];
    for i in (0..order.len()).rev() {
        let reach = order
            .get(i)
            .map_or(i64::MIN, |p| score(*p) + 100 * missing(*p));
        let below = reach_below.get(i + 1).copied().unwrap_or(i64::MIN);
        if let Some(r) = reach_below.get_mut(i) {
            *r = reach.max(below);
        }
    }
    let mut start = 0;
    for i in 0..order.len() {
        let last = order.get(i).map_or(0, |p| score(*p));
        let cut = reach_below.get(i + 1).is_none_or(|below| last > *below);
        if cut {
            for p in order.get(start..=i).unwrap_or(&[]) {
                if let Some(v) = values.get_mut(*p) {
                    *v = last;
                }
            }
            start = i + 1;
        }
    }
}
