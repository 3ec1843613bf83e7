//! The standings of one field: points, each tie-break of the list, the rating figures
//! and the ranks (SPEC.md "standings", "Tie-breaks", "Rank", "Rating figures").

use super::tiebreak::TieBreak;
use super::{Field, Figure, Half, PlayerId};

/// What the event's rules add to the field.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// `--unrated R`: the rating given to an opponent without one in the rating figures.
    pub unrated: Option<u32>,
}

/// One player's line of the standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    pub player: PlayerId,
    pub points: Half,
    /// Games played over the board.
    pub games: u32,
    /// One value per tie-break of the list, in its order (`PTS` included, as the points).
    pub values: Vec<Figure>,
    /// The average rating of the opponents met over the board, and the performance.
    pub aro: Figure,
    pub tpr: Figure,
    /// The first and last place this player shares (`(3, 4)` is written `3-4`).
    pub rank: (u32, u32),
}

/// The field's standings in rank order (players equal in all keys by name).
pub fn standings(field: &Field, list: &[TieBreak], options: &Options) -> Vec<Standing> {
    // Points and ranks by points only: the tie-breaks are being written.
    let _ = (list, options);
    let mut rows: Vec<Standing> = field
        .entries
        .iter()
        .enumerate()
        .map(|(player, entries)| Standing {
            player,
            points: Half(entries.iter().map(|e| e.score.0).sum()),
            games: 0,
            values: Vec::new(),
            aro: None,
            tpr: None,
            rank: (0, 0),
        })
        .collect();
    let name = |p: PlayerId| field.players.get(p).map(|p| p.name.as_str());
    rows.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then_with(|| name(a.player).cmp(&name(b.player)))
    });
    let points: Vec<Half> = rows.iter().map(|r| r.points).collect();
    for (at, row) in rows.iter_mut().enumerate() {
        let first = points.iter().position(|p| *p == row.points).unwrap_or(at);
        let last = points.iter().rposition(|p| *p == row.points).unwrap_or(at);
        row.rank = (first as u32 + 1, last as u32 + 1);
    }
    rows
}
