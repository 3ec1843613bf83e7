//! The games of the input made into events (SPEC.md "standings": Events, Players, Rounds,
//! Results, System and the `event.*` findings). A worker reads what a game gives its event
//! from the tags alone (`GameTags::read`); the one consumer adds the games in input order
//! (`EventBook::add`), keeping per game a few numbers and per player one name, and at the
//! end makes each event a `Field` with its findings (`EventBook::events`).
//!
//! Memory: 40 bytes a game (`GameRec`) while the input is read, and per player its name
//! and tags twice (the key and the `Player`) and a table slot; while an event is made, the
//! hash tables of its checks and its entries: about 150 bytes a game and 130 a player at
//! the peak (docs/GUIDE.md "standings"). No table grows with the square of anything.

use std::collections::HashMap;
use std::collections::hash_map::Entry as Slot;
use std::sync::Arc;

use crate::pgn::{RawGame, TokenKind};
use crate::rules::Code;
use crate::rules::result::GameResult;
use crate::rules::tags::Tags;

use super::{Entry, Field, Half, Play, Player, PlayerId, System};

/// How games are grouped into events.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum EventBy {
    /// `Event`, `Site` (a URL counts as empty) and `EventDate`.
    #[default]
    Default,
    /// `--event-by TAGS`: these tags' values, trimmed.
    Tags(Vec<String>),
}

/// The Termination values that make a game unplayed (SPEC.md "Results").
const FORFEITS: &[&str] = &[
    "forfeit",
    "forfeited",
    "unplayed",
    "walkover",
    "no show",
    "not played",
];

/// One side of a game as its tags name it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Side {
    pub name: String,
    pub fide_id: Option<u64>,
    pub rating: Option<u32>,
    pub title: String,
}

impl Side {
    /// `names`: the side's name, FIDE id, rating and title tags.
    fn read(tags: &Tags, names: [&str; 4]) -> Side {
        let [name, fide_id, elo, title] = names.map(|n| tags.value(n).trim());
        Side {
            name: name.to_string(),
            fide_id: positive(fide_id),
            rating: positive(elo).and_then(|r| u32::try_from(r).ok()),
            title: title.to_string(),
        }
    }

    /// A player named `BYE` (any case) is no player.
    fn is_bye(&self) -> bool {
        self.name.eq_ignore_ascii_case("bye")
    }
}

/// A positive integer, or `None`.
fn positive(text: &str) -> Option<u64> {
    text.parse::<u64>().ok().filter(|n| *n > 0)
}

/// A game's outcome as the standings count it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    WhiteWins,
    BlackWins,
    Draw,
    /// `*`, or a result that is none of the three: left out (`event.unfinished`).
    Unfinished,
}

impl Outcome {
    /// White's score in half points.
    fn white(self) -> Half {
        match self {
            Outcome::WhiteWins => Half(2),
            Outcome::Draw => Half(1),
            Outcome::BlackWins | Outcome::Unfinished => Half(0),
        }
    }

    fn black(self) -> Half {
        match self {
            Outcome::BlackWins => Half(2),
            Outcome::Draw => Half(1),
            Outcome::WhiteWins | Outcome::Unfinished => Half(0),
        }
    }

    fn text(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::Unfinished => "*",
        }
    }
}

/// What one game gives its event, read from its tags on a worker.
#[derive(Debug, Clone)]
pub struct GameTags {
    /// The grouping key's values.
    pub key: Vec<String>,
    pub event: String,
    pub site: String,
    pub event_date: String,
    pub date: String,
    pub white: Side,
    pub black: Side,
    /// The `Round` value's first part as a positive integer.
    pub round: Option<u32>,
    pub outcome: Outcome,
    pub forfeit: bool,
    pub file: Arc<str>,
    pub index: u64,
    pub line: u64,
}

impl GameTags {
    /// Reads a game's tags (and its termination marker where the Result tag says
    /// nothing: R of SPEC.md "Results").
    pub fn read(raw: &RawGame, tags: &Tags, by: &EventBy) -> GameTags {
        let trimmed = |name: &str| tags.value(name).trim().to_string();
        let site = trimmed("Site");
        let site = if site.starts_with("http://") || site.starts_with("https://") {
            String::new()
        } else {
            site
        };
        let event = trimmed("Event");
        let event_date = trimmed("EventDate");
        let key = match by {
            EventBy::Default => vec![event.clone(), site.clone(), event_date.clone()],
            EventBy::Tags(names) => names.iter().map(|name| trimmed(name)).collect(),
        };
        let termination = trimmed("Termination");
        GameTags {
            key,
            event,
            site,
            event_date,
            date: trimmed("Date"),
            white: Side::read(tags, ["White", "WhiteFideId", "WhiteElo", "WhiteTitle"]),
            black: Side::read(tags, ["Black", "BlackFideId", "BlackElo", "BlackTitle"]),
            round: round_number(tags.value("Round")),
            outcome: outcome(tags.get("Result"), raw),
            forfeit: FORFEITS.iter().any(|f| termination.eq_ignore_ascii_case(f)),
            file: raw.file.clone(),
            index: raw.index,
            line: raw.line,
        }
    }
}

/// The first `.`-separated part of `Round` as a positive integer (`7.3` is 7).
pub fn round_number(value: &str) -> Option<u32> {
    let first = value.trim().split('.').next().unwrap_or_default();
    first.parse::<u32>().ok().filter(|n| *n > 0)
}

/// R of SPEC.md "Results": the Result tag, or where it is missing, empty or `*`, the
/// termination marker of the main line.
fn outcome(tag: Option<&str>, raw: &RawGame) -> Outcome {
    let from_tag = tag
        .map(str::trim)
        .filter(|t| !t.is_empty() && *t != "*")
        .map(GameResult::parse);
    let result = match from_tag {
        Some(result) => result,
        None => marker(raw),
    };
    match result {
        Some(GameResult::WhiteWins) => Outcome::WhiteWins,
        Some(GameResult::BlackWins) => Outcome::BlackWins,
        Some(GameResult::Draw) => Outcome::Draw,
        Some(GameResult::Unknown) | None => Outcome::Unfinished,
    }
}

/// The first termination marker outside variations.
fn marker(raw: &RawGame) -> Option<GameResult> {
    let mut depth = 0u32;
    for token in &raw.tokens {
        match token.kind {
            TokenKind::VariationStart => depth += 1,
            TokenKind::VariationEnd => depth = depth.saturating_sub(1),
            TokenKind::Result if depth == 0 => {
                return GameResult::parse_marker(raw.token_text(token));
            }
            _ => {}
        }
    }
    None
}

/// No player: the `BYE` side of a bye.
const NO_PLAYER: u32 = u32::MAX;

/// A player's key within an event: the FIDE id where the game gives one, else the name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum PlayerKey {
    Fide(u64),
    Name(Box<str>),
}

/// What the book keeps of one game.
#[derive(Debug, Clone, Copy)]
struct GameRec {
    white: u32,
    black: u32,
    /// 0: no round.
    round: u32,
    outcome: Outcome,
    forfeit: bool,
    file: u32,
    index: u64,
    line: u64,
    /// The game's place among the event's games.
    order: u32,
}

/// One event as the book gathers it.
#[derive(Debug, Default)]
struct Gathered {
    heading: Heading,
    players: Vec<Player>,
    games: Vec<GameRec>,
}

/// What an event's text heading and TRF header say of it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Heading {
    pub event: String,
    pub site: String,
    pub event_date: String,
    /// The first and last `Date` of its games (complete dates only, `YYYY.MM.DD`).
    pub first_date: String,
    pub last_date: String,
    /// The first complete date of each round (`round_dates[r - 1]`), empty when none.
    pub round_dates: Vec<String>,
}

/// The games of the input, gathered by event in input order.
#[derive(Debug, Default)]
pub struct EventBook {
    events: Vec<Gathered>,
    keys: HashMap<Vec<String>, u32>,
    players: HashMap<(u32, PlayerKey), u32>,
    files: Vec<Arc<str>>,
}

/// One `event.*` finding, with the game it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventFinding {
    pub code: Code,
    pub file: Arc<str>,
    pub game: u64,
    pub line: u64,
    pub white: String,
    pub black: String,
    /// The round number, empty when none.
    pub round: String,
    pub message: String,
    /// The game's place in the event's input, which the findings are sorted by.
    pub order: usize,
}

/// One event made: its heading, its field and findings.
#[derive(Debug, Clone)]
pub struct Event {
    pub heading: Heading,
    pub field: Field,
    pub findings: Vec<EventFinding>,
    /// False when the field was too sparse to fill every player's missed rounds with
    /// absences (see `MAX_FILL`): the rounds missed are then simply not there.
    pub absences_filled: bool,
}

/// The most absences an event is filled with, per game it holds (plus a constant): a
/// tournament's players play most rounds; a file whose rounds are mostly empty for most
/// players (a lichess dump with round numbers) would otherwise take players x rounds.
const MAX_FILL_PER_GAME: u64 = 16;
const MAX_FILL_BASE: u64 = 1 << 16;

impl EventBook {
    pub fn new() -> EventBook {
        EventBook::default()
    }

    /// The number of events so far.
    pub fn len(&self) -> usize {
        self.events.len()
    }

    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// Whether the game's event is one of the book's already.
    pub fn has_event_of(&self, game: &GameTags) -> bool {
        self.keys.contains_key(&game.key)
    }

    /// Adds one game, in input order.
    pub fn add(&mut self, game: &GameTags) {
        let next = u32::try_from(self.events.len()).unwrap_or(u32::MAX);
        let event = *self.keys.entry(game.key.clone()).or_insert(next);
        if event == next {
            self.events.push(Gathered {
                heading: Heading {
                    event: game.event.clone(),
                    site: game.site.clone(),
                    event_date: game.event_date.clone(),
                    ..Heading::default()
                },
                ..Gathered::default()
            });
        }
        let file = self.file_id(&game.file);
        let white = self.player(event, &game.white);
        let black = self.player(event, &game.black);
        let Some(gathered) = self.events.get_mut(event as usize) else {
            return;
        };
        let round = game.round.unwrap_or(0);
        note_date(&mut gathered.heading, &game.date, round);
        let order = u32::try_from(gathered.games.len()).unwrap_or(u32::MAX);
        gathered.games.push(GameRec {
            order,
            white,
            black,
            round,
            outcome: game.outcome,
            forfeit: game.forfeit,
            file,
            index: game.index,
            line: game.line,
        });
    }

    fn file_id(&mut self, file: &Arc<str>) -> u32 {
        if let Some(at) = self.files.iter().rposition(|f| f == file) {
            return u32::try_from(at).unwrap_or(0);
        }
        self.files.push(file.clone());
        u32::try_from(self.files.len() - 1).unwrap_or(0)
    }

    fn player(&mut self, event: u32, side: &Side) -> u32 {
        if side.is_bye() {
            return NO_PLAYER;
        }
        let key = match side.fide_id {
            Some(id) => PlayerKey::Fide(id),
            None => PlayerKey::Name(side.name.as_str().into()),
        };
        let Some(gathered) = self.events.get_mut(event as usize) else {
            return NO_PLAYER;
        };
        match self.players.entry((event, key)) {
            Slot::Occupied(slot) => *slot.get(),
            Slot::Vacant(slot) => {
                let id = u32::try_from(gathered.players.len()).unwrap_or(NO_PLAYER);
                gathered.players.push(Player {
                    name: side.name.clone(),
                    fide_id: side.fide_id,
                    rating: side.rating,
                    title: side.title.clone(),
                });
                *slot.insert(id)
            }
        }
    }

    /// The events in the order of their first game, each made into a field once asked
    /// for (one at a time: only one event's check tables are held at once).
    /// `wanted`: the finding codes to keep (the others are not even made: a lichess dump
    /// has a `event.round-missing` for every game).
    pub fn events(
        self,
        system: Option<System>,
        wanted: impl Fn(Code) -> bool,
    ) -> impl Iterator<Item = Event> {
        let EventBook { events, files, .. } = self;
        events
            .into_iter()
            .map(move |gathered| make_event(gathered, &files, system, &wanted))
    }
}

/// Keeps the first and last complete date of the event, and the first of each round.
fn note_date(heading: &mut Heading, date: &str, round: u32) {
    let complete = date.len() == 10 && date.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    if !complete {
        return;
    }
    if heading.first_date.is_empty() || date < heading.first_date.as_str() {
        heading.first_date = date.to_string();
    }
    if date > heading.last_date.as_str() {
        heading.last_date = date.to_string();
    }
    // A round number far past the games is not given a slot (it stays undated).
    let Some(at) = (round as usize).checked_sub(1) else {
        return;
    };
    if at > 4096 {
        return;
    }
    if heading.round_dates.len() <= at {
        heading.round_dates.resize(at + 1, String::new());
    }
    if let Some(slot) = heading.round_dates.get_mut(at)
        && (slot.is_empty() || date < slot.as_str())
    {
        *slot = date.to_string();
    }
}

/// Names the players and round of a game, for a finding.
struct Namer<'a> {
    players: &'a [Player],
    files: &'a [Arc<str>],
}

impl Namer<'_> {
    fn name(&self, id: u32) -> String {
        self.players
            .get(id as usize)
            .map_or_else(|| "BYE".to_string(), |p| p.name.clone())
    }

    fn finding(&self, code: Code, game: &GameRec, message: String) -> EventFinding {
        EventFinding {
            code,
            file: self
                .files
                .get(game.file as usize)
                .cloned()
                .unwrap_or_else(|| Arc::from("-")),
            game: game.index,
            line: game.line,
            white: self.name(game.white),
            black: self.name(game.black),
            round: if game.round == 0 {
                String::new()
            } else {
                game.round.to_string()
            },
            message,
            order: game.order as usize,
        }
    }

    /// `Carlsen – Caruana (round 3)`.
    fn pairing(&self, game: &GameRec) -> String {
        let round = if game.round == 0 {
            String::new()
        } else {
            format!(" in round {}", game.round)
        };
        format!(
            "{} \u{2013} {}{round}",
            self.name(game.white),
            self.name(game.black)
        )
    }
}

/// The findings of one event, those of the wanted codes only.
struct Found<'w> {
    wanted: &'w dyn Fn(Code) -> bool,
    list: Vec<EventFinding>,
}

impl Found<'_> {
    fn wants(&self, code: Code) -> bool {
        (self.wanted)(code)
    }

    fn push(&mut self, finding: EventFinding) {
        if self.wants(finding.code) {
            self.list.push(finding);
        }
    }
}

fn make_event(
    gathered: Gathered,
    files: &[Arc<str>],
    system: Option<System>,
    wanted: &dyn Fn(Code) -> bool,
) -> Event {
    let Gathered {
        heading,
        players,
        games,
    } = gathered;
    let namer = Namer {
        players: &players,
        files,
    };
    let mut findings = Found {
        wanted,
        list: Vec::new(),
    };
    let read = games.len();
    let kept = kept_games(games, &namer, &mut findings);
    twice_in_round(&kept, &namer, &mut findings);
    let detected = detect_system(players.len(), &kept);
    let system = system.unwrap_or(detected);
    if system == System::Swiss {
        repeated_pairings(&kept, &namer, &mut findings);
    }
    // In input order, as `validate` writes findings.
    let mut findings = findings.list;
    findings.sort_by_key(|f| f.order);
    let rounds = kept.iter().map(|g| g.round).max().unwrap_or(0);
    let (entries, absences_filled) = entries(players.len(), rounds, &kept, read);
    Event {
        heading,
        field: Field {
            players,
            rounds,
            system,
            entries,
        },
        findings,
        absences_filled,
    }
}

/// The games that count: `*` games left out (`event.unfinished`), a second record of the
/// same pairing in a round left out (`event.duplicate-game`, `event.result-conflict`),
/// games without a round noted (`event.round-missing`).
fn kept_games(mut games: Vec<GameRec>, namer: &Namer, findings: &mut Found) -> Vec<GameRec> {
    let mut seen: HashMap<(u32, u32, u32), (Outcome, bool)> = HashMap::new();
    // Kept in place: the games are not held twice.
    games.retain(|game| {
        if game.white == NO_PLAYER && game.black == NO_PLAYER {
            return false;
        }
        if game.outcome == Outcome::Unfinished {
            let message = format!(
                "{} has no result (`*`): left out of the standings",
                namer.pairing(game)
            );
            findings.push(namer.finding(Code::EventUnfinished, game, message));
            return false;
        }
        if game.round == 0 {
            if !findings.wants(Code::EventRoundMissing) {
                return true;
            }
            let message = format!(
                "{} has no round number: the round figures take it in input order",
                namer.pairing(game)
            );
            findings.push(namer.finding(Code::EventRoundMissing, game, message));
        } else {
            match seen.entry((game.round, game.white, game.black)) {
                Slot::Vacant(slot) => {
                    slot.insert((game.outcome, game.forfeit));
                }
                Slot::Occupied(slot) => {
                    let (first, _) = *slot.get();
                    if first == game.outcome {
                        let message = format!(
                            "{} ({}) is recorded twice: counted once",
                            namer.pairing(game),
                            game.outcome.text()
                        );
                        findings.push(namer.finding(Code::EventDuplicateGame, game, message));
                    } else {
                        let message = format!(
                            "{} is recorded as {} and again as {}: the later record is left out",
                            namer.pairing(game),
                            first.text(),
                            game.outcome.text()
                        );
                        findings.push(namer.finding(Code::EventResultConflict, game, message));
                    }
                    return false;
                }
            }
        }
        true
    });
    games.shrink_to_fit();
    games
}

/// `event.player-twice-in-round`: a player's second (third, ...) game of a round.
fn twice_in_round(kept: &[GameRec], namer: &Namer, findings: &mut Found) {
    let mut seen: HashMap<(u32, u32), u64> = HashMap::new();
    for game in kept.iter().filter(|g| g.round > 0) {
        for player in [game.white, game.black] {
            if player == NO_PLAYER {
                continue;
            }
            let count = seen.entry((game.round, player)).or_insert(0);
            *count += 1;
            if *count == 2 {
                let message = format!(
                    "{} has a second game in round {} ({}): both count",
                    namer.name(player),
                    game.round,
                    namer.pairing(game)
                );
                findings.push(namer.finding(Code::EventPlayerTwiceInRound, game, message));
            }
        }
    }
}

/// A round robin when every two players met equally often (a forfeit is a meeting).
fn detect_system(players: usize, kept: &[GameRec]) -> System {
    let mut met: HashMap<(u32, u32), u32> = HashMap::new();
    for game in kept {
        if game.white == NO_PLAYER || game.black == NO_PLAYER || game.white == game.black {
            continue;
        }
        let pair = (game.white.min(game.black), game.white.max(game.black));
        *met.entry(pair).or_insert(0) += 1;
    }
    let n = players as u64;
    let pairs = n * n.saturating_sub(1) / 2;
    let mut counts = met.values();
    let first = counts.next().copied();
    let equal = first.is_some_and(|first| counts.all(|c| *c == first));
    if n >= 2 && met.len() as u64 == pairs && equal {
        System::RoundRobin
    } else {
        System::Swiss
    }
}

/// `event.repeated-pairing`: two players met over the board again in a Swiss.
fn repeated_pairings(kept: &[GameRec], namer: &Namer, findings: &mut Found) {
    let mut first: HashMap<(u32, u32), u32> = HashMap::new();
    for game in kept {
        if game.forfeit || game.white == NO_PLAYER || game.black == NO_PLAYER {
            continue;
        }
        let pair = (game.white.min(game.black), game.white.max(game.black));
        match first.entry(pair) {
            Slot::Vacant(slot) => {
                slot.insert(game.round);
            }
            Slot::Occupied(slot) => {
                let earlier = match *slot.get() {
                    0 => "before".to_string(),
                    round => format!("in round {round}"),
                };
                let message = format!(
                    "{} and {} meet again{} (they met {earlier})",
                    namer.name(game.white),
                    namer.name(game.black),
                    match game.round {
                        0 => String::new(),
                        round => format!(" in round {round}"),
                    }
                );
                findings.push(namer.finding(Code::EventRepeatedPairing, game, message));
            }
        }
    }
}

/// Every player's entries in round order (games without a round after them, in input
/// order), the rounds a player missed filled with absences when the field is not too
/// sparse for it.
fn entries(players: usize, rounds: u32, kept: &[GameRec], games: usize) -> (Vec<Vec<Entry>>, bool) {
    let mut entries: Vec<Vec<Entry>> = vec![Vec::new(); players];
    let mut push = |player: u32, entry: Entry| {
        if let Some(list) = entries.get_mut(player as usize) {
            list.push(entry);
        }
    };
    for game in kept {
        let round = (game.round > 0).then_some(game.round);
        let side = |white: bool, opponent: u32| {
            let score = if white {
                game.outcome.white()
            } else {
                game.outcome.black()
            };
            let play = if opponent == NO_PLAYER {
                Play::Bye
            } else if game.forfeit {
                Play::Forfeit {
                    opponent: opponent as PlayerId,
                    white,
                }
            } else {
                Play::Game {
                    opponent: opponent as PlayerId,
                    white,
                }
            };
            Entry { round, play, score }
        };
        if game.white != NO_PLAYER {
            push(game.white, side(true, game.black));
        }
        if game.black != NO_PLAYER {
            push(game.black, side(false, game.white));
        }
    }
    let needed = players as u64 * u64::from(rounds);
    let fill = needed <= MAX_FILL_BASE + MAX_FILL_PER_GAME * games as u64;
    for list in &mut entries {
        // Rounds first (a missing round last), each round's games in input order.
        list.sort_by_key(|e| e.round.unwrap_or(u32::MAX));
        if !fill {
            continue;
        }
        let mut absent = Vec::new();
        let mut played = list.iter().filter_map(|e| e.round).peekable();
        for round in 1..=rounds {
            while played.next_if(|r| *r < round).is_some() {}
            if played.peek() != Some(&round) {
                absent.push(Entry {
                    round: Some(round),
                    play: Play::Absent,
                    score: Half(0),
                });
            }
        }
        if !absent.is_empty() {
            list.extend(absent);
            list.sort_by_key(|e| e.round.unwrap_or(u32::MAX));
        }
    }
    (entries, fill)
}
