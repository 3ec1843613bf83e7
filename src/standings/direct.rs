//! Direct encounter (DE, C.07 article 6) within the groups of players still tied on every
//! key before it: the points each scored against the others of the group. When they have
//! not all met, a player is put ahead only of those who could not catch him even by
//! winning every game between them that was not played; the rest stay equal.

use super::unplayed::counts_as_played;
use super::{Field, PlayerId, System};

/// DE of every player in hundredths; `group[p]` names the tied group of player `p`.
pub fn direct_encounter(field: &Field, group: &[usize]) -> Vec<i64> {
    let players = field.entries.len();
    let group_of = |p: PlayerId| group.get(p).copied().unwrap_or(usize::MAX);
    let mut size = vec![0usize; players];
    for p in 0..players {
        if let Some(s) = size.get_mut(group_of(p)) {
            *s += 1;
        }
    }
    // Half points scored against the group, and every meeting inside it (one per side).
    let mut scored = vec![0i64; players];
    let mut meetings: Vec<(usize, PlayerId, PlayerId)> = Vec::new();
    for (player, entries) in field.entries.iter().enumerate() {
        for entry in entries {
            let Some(opponent) = counts_as_played(field.system, entry) else {
                continue;
            };
            if opponent != player && group_of(opponent) == group_of(player) {
                if let Some(s) = scored.get_mut(player) {
                    *s += i64::from(entry.score.0);
                }
                meetings.push((group_of(player), player, opponent));
            }
        }
    }
    meetings.sort_unstable();
    // Per group, the most meetings of one pair (2 in a double round robin); per player,
    // the meetings played and the distinct opponents met.
    let mut most = vec![1i64; players];
    let mut played = vec![0i64; players];
    let mut distinct = vec![0i64; players];
    for run in meetings.chunk_by(|a, b| a == b) {
        if let Some(&(g, p, _)) = run.first() {
            let n = run.len() as i64;
            if let Some(m) = most.get_mut(g) {
                *m = (*m).max(n);
            }
            if let Some(c) = played.get_mut(p) {
                *c += n;
            }
            if let Some(d) = distinct.get_mut(p) {
                *d += 1;
            }
        }
    }
    // Meetings a player could still have had inside the group.
    let missing = |p: PlayerId| {
        let g = group_of(p);
        let others = size.get(g).copied().unwrap_or(1) as i64 - 1;
        let get = |v: &Vec<i64>| v.get(p).copied().unwrap_or(0);
        match field.system {
            System::RoundRobin => {
                (others * most.get(g).copied().unwrap_or(1) - get(&played)).max(0)
            }
            // A Swiss pairs two players once; a repeated pairing adds nothing missing.
            System::Swiss => (others - get(&distinct)).max(0),
        }
    };
    let mut values: Vec<i64> = scored.clone();
    let mut members: Vec<PlayerId> = (0..players).collect();
    members.sort_unstable_by_key(|p| group_of(*p));
    for run in members.chunk_by(|a, b| group_of(*a) == group_of(*b)) {
        if run.iter().all(|p| missing(*p) == 0) {
            continue;
        }
        settle(run, &scored, missing, &mut values);
    }
    values.iter().map(|v| v * 50).collect()
}

/// A group that has not all met: sorted by score, cut only where everyone above scored
/// more than anyone below could reach; each segment takes its lowest score.
fn settle(run: &[PlayerId], scored: &[i64], missing: impl Fn(PlayerId) -> i64, values: &mut [i64]) {
    let score = |p: PlayerId| scored.get(p).copied().unwrap_or(0);
    let mut order = run.to_vec();
    order.sort_unstable_by_key(|p| std::cmp::Reverse(score(*p)));
    // reach_below[i]: the most any of order[i..] could reach; a won game is 2 half points.
    let mut reach_below = vec![i64::MIN; order.len() + 1];
    for i in (0..order.len()).rev() {
        let reach = order
            .get(i)
            .map_or(i64::MIN, |p| score(*p) + 2 * missing(*p));
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
