//! An event's final standings (SPEC.md "standings"): the games of one event made into a
//! field of players and rounds (`event`), and from it the points, FIDE C.07-2026
//! tie-breaks, rating figures and ranks (`tiebreak`, `rating`, `rank`).
//!
//! The model below is what the two halves share: `event` builds a `Field` from games'
//! tags; the tie-break code reads only a `Field`. Scores are in half points, figures in
//! hundredths, so that every value is exact and compares exactly.

pub mod direct;
pub mod event;
pub mod opponents;
pub mod own;
pub mod ranked;
pub mod rating;
pub mod table;
pub mod tiebreak;
pub mod unplayed;

#[cfg(test)]
mod tests;

/// A score in half points: `Half(3)` is 1½.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Hash)]
pub struct Half(pub u32);

/// A tie-break or rating value in hundredths (`Figure(150)` is 1.50); `None` where the
/// value cannot be made (a rating figure of a player who met no rated opponent).
pub type Figure = Option<i64>;

/// A player's index in `Field::players`.
pub type PlayerId = usize;

/// One player of the event, as the tags of the player's first game in it give them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    pub name: String,
    /// `WhiteFideId` / `BlackFideId` when a positive integer.
    pub fide_id: Option<u64>,
    /// `WhiteElo` / `BlackElo` when a positive integer; else unrated.
    pub rating: Option<u32>,
    /// `WhiteTitle` / `BlackTitle`, empty when absent.
    pub title: String,
}

/// How the event was paired (SPEC.md "System").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum System {
    RoundRobin,
    Swiss,
}

/// What a player did in one of the rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Play {
    /// A game over the board.
    Game { opponent: PlayerId, white: bool },
    /// A forfeited game (`+`, `-`, or `=` for a double forfeit scored as a draw): the
    /// points count, the tie-breaks treat the round as unplayed (C.07 articles 15-16; in a
    /// round robin it counts as played, SPEC.md).
    Forfeit { opponent: PlayerId, white: bool },
    /// A bye: its score says which (`Half(2)` pairing-allocated, `Half(1)` half-point,
    /// `Half(0)` zero-point).
    Bye,
    /// No game recorded in the round: a withdrawal or an unrecorded zero-point bye,
    /// worth 0 and chosen by the player.
    Absent,
}

/// One round of one player: what happened and the points it gave the player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The round number; `None` for a game without one (then the entries keep input
    /// order, after the numbered ones).
    pub round: Option<u32>,
    pub play: Play,
    pub score: Half,
}

/// An event ready for the tie-breaks: its players and, per player, one entry per round
/// played or missed, in round order. Every round 1..=`rounds` has at least one entry for
/// every player (`Absent` fills a round with no game); a player recorded twice in one
/// round has two entries there (reported as `event.player-twice-in-round`, both count).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    pub players: Vec<Player>,
    /// The highest round number (0 when no game has one).
    pub rounds: u32,
    pub system: System,
    /// `entries[p]`: player `p`'s rounds.
    pub entries: Vec<Vec<Entry>>,
}
