//! The standings of one field: points, each tie-break of the list, the rating figures
//! and the ranks (SPEC.md "standings", "Tie-breaks", "Rank", "Rating figures").
//!
//! Every figure is made in one pass over the entries (O(entries)), the ranks by sorting
//! (O(n log n)), DE by sorting the meetings inside the tied groups: a lichess dump of
//! 100,000 players is one field.

use std::cmp::Ordering;

use super::direct::direct_encounter;
use super::opponents::{Sum, average_of_buchholz, koya, sums};
use super::rating::{average, ptp, tpr};
use super::tiebreak::{Modifier, Name, TieBreak};
use super::unplayed::Scores;
use super::{Field, Figure, Half, Play, PlayerId};

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
    let figures = Figures::new(field, options);
    let points: Vec<Half> = field
        .entries
        .iter()
        .map(|entries| Half(entries.iter().map(|e| e.score.0).sum()))
        .collect();
    let mut columns: Vec<Vec<Figure>> = list.iter().map(|tb| figures.column(*tb)).collect();
    // DE reads the groups still tied on every key before it.
    for at in 0..list.len() {
        if list.get(at).is_some_and(|tb| tb.name == Name::De) {
            let group = tied_groups(&points, columns.get(..at).unwrap_or(&[]));
            let de = direct_encounter(field, &group);
            if let Some(column) = columns.get_mut(at) {
                *column = de.into_iter().map(Some).collect();
            }
        }
    }
    let mut order: Vec<PlayerId> = (0..field.entries.len()).collect();
    let name = |p: PlayerId| field.players.get(p).map(|p| p.name.as_str());
    order.sort_by(|a, b| {
        by_keys(&points, &columns, *a, *b)
            .then_with(|| name(*a).cmp(&name(*b)))
            .then(a.cmp(b))
    });
    let mut rows = Vec::with_capacity(order.len());
    let mut start = 0;
    for run in order.chunk_by(|a, b| by_keys(&points, &columns, *a, *b) == Ordering::Equal) {
        let rank = (start as u32 + 1, (start + run.len()) as u32);
        start += run.len();
        for &player in run {
            rows.push(Standing {
                player,
                points: points.get(player).copied().unwrap_or_default(),
                games: figures.games(player),
                values: columns
                    .iter()
                    .map(|c| c.get(player).copied().flatten())
                    .collect(),
                aro: figures.aro(player),
                tpr: figures.tpr.get(player).copied().flatten(),
                rank,
            });
        }
    }
    rows
}

/// Greater first: points, then each column (an absent value after every value).
fn by_keys(points: &[Half], columns: &[Vec<Figure>], a: PlayerId, b: PlayerId) -> Ordering {
    let key = |c: &Vec<Figure>, p: PlayerId| c.get(p).copied().flatten();
    points.get(b).cmp(&points.get(a)).then_with(|| {
        columns
            .iter()
            .map(|c| key(c, b).cmp(&key(c, a)))
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    })
}

/// Per player, a group number shared with exactly the players equal on the points and
/// every column given.
fn tied_groups(points: &[Half], columns: &[Vec<Figure>]) -> Vec<usize> {
    let mut order: Vec<PlayerId> = (0..points.len()).collect();
    order.sort_by(|a, b| by_keys(points, columns, *a, *b));
    let mut group = vec![0; points.len()];
    let mut start = 0;
    for run in order.chunk_by(|a, b| by_keys(points, columns, *a, *b) == Ordering::Equal) {
        for p in run {
            if let Some(g) = group.get_mut(*p) {
                *g = start;
            }
        }
        start += run.len();
    }
    group
}

/// What the columns are made from, made once per field.
struct Figures<'a> {
    field: &'a Field,
    /// Per player, the ratings of the opponents met over the board that count, and the
    /// half points scored against them.
    rated: Vec<(Vec<i64>, i64)>,
    tpr: Vec<Figure>,
}

impl<'a> Figures<'a> {
    fn new(field: &'a Field, options: &Options) -> Figures<'a> {
        let rating = |p: PlayerId| {
            field
                .players
                .get(p)
                .and_then(|p| p.rating)
                .or(options.unrated)
                .map(i64::from)
        };
        let rated: Vec<(Vec<i64>, i64)> = field
            .entries
            .iter()
            .map(|entries| {
                let mut ratings = Vec::new();
                let mut halves = 0;
                for entry in entries {
                    if let Play::Game { opponent, .. } = entry.play
                        && let Some(r) = rating(opponent)
                    {
                        ratings.push(r);
                        halves += i64::from(entry.score.0);
                    }
                }
                (ratings, halves)
            })
            .collect();
        let tpr = rated
            .iter()
            .map(|(ratings, halves)| tpr(ratings, *halves).map(|v| v * 100))
            .collect();
        Figures { field, rated, tpr }
    }

    fn games(&self, player: PlayerId) -> u32 {
        self.field.entries.get(player).map_or(0, |entries| {
            entries
                .iter()
                .filter(|e| matches!(e.play, Play::Game { .. }))
                .count() as u32
        })
    }

    fn aro(&self, player: PlayerId) -> Figure {
        let (ratings, _) = self.rated.get(player)?;
        average(ratings).map(|v| v * 100)
    }

    /// One tie-break's value for every player (DE is filled in by the ranking).
    fn column(&self, tb: TieBreak) -> Vec<Figure> {
        let field = self.field;
        let all = |values: Vec<i64>| values.into_iter().map(Some).collect();
        match tb.name {
            Name::Pts => field
                .entries
                .iter()
                .map(|entries| Some(entries.iter().map(|e| i64::from(e.score.0)).sum::<i64>() * 50))
                .collect(),
            Name::De => vec![None; field.entries.len()],
            Name::Win | Name::Won | Name::Bpg | Name::Bwg | Name::Rep | Name::Ps => field
                .entries
                .iter()
                .map(|entries| super::own::value(tb.name, tb.modifier, entries))
                .collect(),
            Name::Bh => all(sums(
                field,
                &Scores::new(field, false),
                Sum::Buchholz,
                tb.modifier,
            )),
            Name::Fb => all(sums(
                field,
                &Scores::new(field, true),
                Sum::Buchholz,
                tb.modifier,
            )),
            Name::Sb => all(sums(
                field,
                &Scores::new(field, false),
                Sum::Berger,
                tb.modifier,
            )),
            Name::Ks => all(koya(field)),
            Name::Aob => {
                let bh = sums(field, &Scores::new(field, false), Sum::Buchholz, None);
                average_of_buchholz(field, &bh)
            }
            Name::Aro => self
                .rated
                .iter()
                .map(|(ratings, _)| {
                    let mut kept = ratings.clone();
                    cut_lowest(&mut kept, tb.modifier);
                    average(&kept).map(|v| v * 100)
                })
                .collect(),
            Name::Tpr => self.tpr.clone(),
            Name::Ptp => self.ptp(),
            Name::Apro => self.of_opponents(&self.tpr),
            Name::Appo => self.of_opponents(&self.ptp()),
        }
    }

    fn ptp(&self) -> Vec<Figure> {
        self.rated
            .iter()
            .map(|(ratings, halves)| ptp(ratings, *halves).map(|v| v * 100))
            .collect()
    }

    /// The average of a figure of the opponents met over the board (those without it
    /// left out), rounded half up to an integer.
    fn of_opponents(&self, figure: &[Figure]) -> Vec<Figure> {
        self.field
            .entries
            .iter()
            .map(|entries| {
                let values: Vec<i64> = entries
                    .iter()
                    .filter_map(|e| match e.play {
                        Play::Game { opponent, .. } => figure.get(opponent).copied().flatten(),
                        _ => None,
                    })
                    .map(|v| v / 100)
                    .collect();
                average(&values).map(|v| v * 100)
            })
            .collect()
    }
}

/// ARO's modifiers: the lowest ratings cut, and for a median the highest too.
fn cut_lowest(ratings: &mut Vec<i64>, modifier: Option<Modifier>) {
    let (low, high) = match modifier {
        None => return,
        Some(Modifier::Cut(n)) => (usize::from(n), 0),
        Some(Modifier::Median(n)) => (usize::from(n), usize::from(n)),
    };
    ratings.sort_unstable();
    let keep = ratings.len().saturating_sub(low + high);
    *ratings = ratings.iter().skip(low).take(keep).copied().collect();
}
