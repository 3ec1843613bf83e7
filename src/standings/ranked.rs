//! Events ranked: each event of an `EventBook` made into its field and given its
//! standings by the tie-break list asked for, or C.07's default for its system.

use super::System;
use super::event::{Event, EventBook};
use super::table::{Options, Standing, standings};
use super::tiebreak::{TieBreak, default_for};
use crate::rules::Code;

/// How the events are made and ranked (a command's flags as plain data).
#[derive(Debug, Clone, Default)]
pub struct Ranking {
    /// `--system`: instead of telling it from the pairings.
    pub system: Option<System>,
    /// `--tiebreaks`; `None`: C.07's default for each event's system.
    pub tiebreaks: Option<Vec<TieBreak>>,
    pub options: Options,
}

/// One event ranked.
#[derive(Debug, Clone)]
pub struct Ranked {
    pub event: Event,
    /// The list used.
    pub list: Vec<TieBreak>,
    /// Whether it is the one `--tiebreaks` gave.
    pub given: bool,
    /// The standings in rank order.
    pub rows: Vec<Standing>,
}

impl Ranking {
    /// Each event of the book in the order of its first game, ranked one at a time, with
    /// the findings of the `wanted` codes.
    pub fn rank(
        &self,
        book: EventBook,
        wanted: impl Fn(Code) -> bool,
    ) -> impl Iterator<Item = Ranked> {
        book.events(self.system, wanted)
            .map(|event| self.rank_one(event))
    }

    /// One event ranked.
    pub fn rank_one(&self, event: Event) -> Ranked {
        let (list, given) = match &self.tiebreaks {
            Some(list) => (list.clone(), true),
            None => (default_for(event.field.system), false),
        };
        let rows = standings(&event.field, &list, &self.options);
        Ranked {
            event,
            list,
            given,
            rows,
        }
    }
}
