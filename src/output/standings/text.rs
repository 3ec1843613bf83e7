//! The text of one event: a heading, the standings table and the crosstable (SPEC.md
//! "standings", "Output"): a round robin as the grid, a Swiss as the rounds.

use super::{EventTable, figure_text, points_text, rank_text};
use crate::standings::table::Standing;
use crate::standings::{Entry, Half, Play, PlayerId, System};
use crate::terminal::visible;

/// The event's heading, table and crosstable, each followed by a blank line.
pub fn event_text(table: &EventTable) -> String {
    let mut out = String::new();
    heading(table, &mut out);
    out.push('\n');
    standings_table(table, &mut out);
    out.push('\n');
    match crosstable_rows(table) {
        Some(rows) => aligned(&rows, &|column| column == 1, &mut out),
        None => out.push_str("(no game has a round number: no crosstable)\n"),
    }
    out
}

/// The crosstable's cells (a header, then a row per player in rank order): the grid of
/// a round robin, the rounds of a Swiss; `None` for a Swiss without round numbers.
pub fn crosstable_rows(table: &EventTable) -> Option<Vec<Vec<String>>> {
    match table.event.field.system {
        System::RoundRobin => Some(round_robin_grid(table)),
        System::Swiss => swiss_rounds(table),
    }
}

/// `Event`, where and when, rounds, players, system, tie-breaks and the rating rule.
fn heading(table: &EventTable, out: &mut String) {
    for line in heading_lines(table) {
        out.push_str(&line);
        out.push('\n');
    }
}

/// The heading's lines: the event's name, where and when, rounds, players and system,
/// the tie-breaks and the rating rule.
pub fn heading_lines(table: &EventTable) -> Vec<String> {
    let mut lines = Vec::new();
    let out = &mut lines;
    let event = table.event;
    let h = &event.heading;
    let field = &event.field;
    let name = if h.event.is_empty() { "?" } else { &h.event };
    out.push(visible(name).into_owned());
    let mut place = Vec::new();
    if !h.site.is_empty() {
        place.push(visible(&h.site).into_owned());
    }
    match (h.first_date.as_str(), h.last_date.as_str()) {
        ("", _) => {}
        (first, last) if first == last => place.push(first.to_string()),
        (first, last) => place.push(format!("{first} to {last}")),
    }
    if !place.is_empty() {
        out.push(place.join(", "));
    }
    let system = match field.system {
        System::RoundRobin => "round robin",
        System::Swiss => "Swiss",
    };
    let plural = |n: usize, one: &str| {
        if n == 1 {
            format!("1 {one}")
        } else {
            format!("{n} {one}s")
        }
    };
    out.push(format!(
        "{}, {}, {system}",
        plural(field.rounds as usize, "round"),
        plural(field.players.len(), "player")
    ));
    let origin = if table.given {
        "--tiebreaks"
    } else {
        "C.07's recommendation"
    };
    let rating = match table.unrated {
        Some(r) => format!("unrated opponents count as {r}"),
        None => "unrated opponents left out".to_string(),
    };
    out.push(format!(
        "Tie-breaks: {} ({origin}); rating figures: {rating}",
        table.list_text()
    ));
    if !event.absences_filled {
        out.push(
            "(too few games for its rounds and players: the rounds a player missed are not filled in)"
                .to_string(),
        );
    }
    lines
}

/// Rank, player, title, rating, points, games, each tie-break.
fn standings_table(table: &EventTable, out: &mut String) {
    // Names and titles to the left, numbers to the right.
    aligned(
        &standings_rows(table),
        &|column| column == 1 || column == 2,
        out,
    );
}

/// The standings table's cells: a header, then a row per player in rank order.
pub fn standings_rows(table: &EventTable) -> Vec<Vec<String>> {
    let players = &table.event.field.players;
    let columns = table.tiebreak_columns();
    let mut head = vec![
        "Rank".to_string(),
        "Player".to_string(),
        "Title".to_string(),
        "Rating".to_string(),
        "Points".to_string(),
        "Games".to_string(),
    ];
    head.extend(columns.iter().map(|(label, _)| label.clone()));
    let mut rows = vec![head];
    for row in table.rows {
        let player = players.get(row.player);
        let mut cells = vec![
            rank_text(row.rank),
            player.map_or_else(String::new, |p| visible(&p.name).into_owned()),
            player.map_or_else(String::new, |p| visible(&p.title).into_owned()),
            player
                .and_then(|p| p.rating)
                .map_or_else(String::new, |r| r.to_string()),
            points_text(row.points),
            row.games.to_string(),
        ];
        cells.extend(
            columns
                .iter()
                .map(|(_, column)| figure_text(EventTable::value(row, *column))),
        );
        rows.push(cells);
    }
    rows
}

/// Writes rows of cells in columns two spaces apart.
fn aligned(rows: &[Vec<String>], left: &dyn Fn(usize) -> bool, out: &mut String) {
    let mut widths: Vec<usize> = Vec::new();
    for row in rows {
        for (at, cell) in row.iter().enumerate() {
            let width = cell.chars().count();
            match widths.get_mut(at) {
                Some(w) => *w = (*w).max(width),
                None => widths.push(width),
            }
        }
    }
    for row in rows {
        let mut line = String::new();
        for (at, cell) in row.iter().enumerate() {
            let width = widths.get(at).copied().unwrap_or(0);
            let pad = width.saturating_sub(cell.chars().count());
            if at > 0 {
                line.push_str("  ");
            }
            if left(at) {
                line.push_str(cell);
                line.push_str(&" ".repeat(pad));
            } else {
                line.push_str(&" ".repeat(pad));
                line.push_str(cell);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
}

/// A player's place in the table (1-based), which the crosstable's cells name.
fn places(table: &EventTable) -> Vec<usize> {
    let mut place = vec![0; table.event.field.players.len()];
    for (at, row) in table.rows.iter().enumerate() {
        if let Some(slot) = place.get_mut(row.player) {
            *slot = at + 1;
        }
    }
    place
}

/// A score as a result: `1`, `½`, `0`.
fn score_text(score: Half) -> &'static str {
    match score.0 {
        0 => "0",
        1 => "½",
        _ => "1",
    }
}

/// A forfeit's score: `+`, `=`, `-`.
fn forfeit_text(score: Half) -> &'static str {
    match score.0 {
        0 => "-",
        1 => "=",
        _ => "+",
    }
}

/// The grid: players in rank order, one cell per pair (two in a double round robin:
/// one character per meeting, in round order), `·` on the diagonal.
fn round_robin_grid(table: &EventTable) -> Vec<Vec<String>> {
    let field = &table.event.field;
    let place = places(table);
    let n = table.rows.len();
    // The cells of player `p` against each place, in round order.
    let cells_of = |p: PlayerId| -> Vec<String> {
        let mut cells = vec![String::new(); n];
        for entry in field.entries.get(p).map_or(&[][..], |e| e.as_slice()) {
            let (opponent, text) = match entry.play {
                Play::Game { opponent, .. } => (opponent, score_text(entry.score)),
                Play::Forfeit { opponent, .. } => (opponent, forfeit_text(entry.score)),
                Play::Bye | Play::Absent => continue,
            };
            let at = place.get(opponent).copied().unwrap_or(0);
            if let Some(cell) = at.checked_sub(1).and_then(|at| cells.get_mut(at)) {
                cell.push_str(text);
            }
        }
        cells
    };
    let grid: Vec<Vec<String>> = table.rows.iter().map(|r| cells_of(r.player)).collect();
    let meetings = grid
        .iter()
        .flatten()
        .map(|c| c.chars().count())
        .max()
        .unwrap_or(1)
        .max(1);
    let mut rows = Vec::with_capacity(n + 1);
    let mut head = vec!["#".to_string(), "Player".to_string()];
    head.extend((1..=n).map(|at| at.to_string()));
    head.push("Points".to_string());
    rows.push(head);
    for (at, (row, cells)) in table.rows.iter().zip(grid).enumerate() {
        let name = field
            .players
            .get(row.player)
            .map_or_else(String::new, |p| visible(&p.name).into_owned());
        let mut line = vec![(at + 1).to_string(), name];
        for (column, cell) in cells.into_iter().enumerate() {
            line.push(if column == at {
                "·".repeat(meetings)
            } else {
                cell
            });
        }
        line.push(points_text(row.points));
        rows.push(line);
    }
    rows
}

/// The rounds: one cell per round, the opponent's place, colour and result (`12w1`,
/// `3b½`), `+` / `-` / `=` for forfeits, `bye1`, `bye½`, `bye0`, `abs` for a round
/// missed; games without a round after the numbered rounds.
fn swiss_rounds(table: &EventTable) -> Option<Vec<Vec<String>>> {
    let field = &table.event.field;
    if field.rounds == 0 {
        return None;
    }
    let place = places(table);
    let rounds = field.rounds as usize;
    let row_cells = |row: &Standing| -> Vec<String> {
        let mut cells = vec![String::new(); rounds];
        let mut unnumbered = Vec::new();
        for entry in field
            .entries
            .get(row.player)
            .map_or(&[][..], |e| e.as_slice())
        {
            let text = swiss_cell(entry, &place);
            let slot = entry
                .round
                .and_then(|r| (r as usize).checked_sub(1))
                .and_then(|at| cells.get_mut(at));
            match slot {
                Some(cell) if cell.is_empty() => *cell = text,
                Some(cell) => {
                    cell.push('/');
                    cell.push_str(&text);
                }
                None => unnumbered.push(text),
            }
        }
        cells.extend(unnumbered);
        cells
    };
    let all: Vec<Vec<String>> = table.rows.iter().map(row_cells).collect();
    let columns = all.iter().map(Vec::len).max().unwrap_or(rounds);
    let mut head = vec!["#".to_string(), "Player".to_string(), "Points".to_string()];
    head.extend((1..=columns).map(|r| {
        if r <= rounds {
            format!("R{r}")
        } else {
            "-".to_string()
        }
    }));
    let mut rows = vec![head];
    for (at, (row, mut cells)) in table.rows.iter().zip(all).enumerate() {
        let name = field
            .players
            .get(row.player)
            .map_or_else(String::new, |p| visible(&p.name).into_owned());
        let mut line = vec![(at + 1).to_string(), name, points_text(row.points)];
        cells.resize(columns, String::new());
        line.extend(cells);
        rows.push(line);
    }
    Some(rows)
}

fn swiss_cell(entry: &Entry, place: &[usize]) -> String {
    match entry.play {
        Play::Game { opponent, white } => format!(
            "{}{}{}",
            place.get(opponent).copied().unwrap_or(0),
            if white { "w" } else { "b" },
            score_text(entry.score)
        ),
        Play::Forfeit { .. } => forfeit_text(entry.score).to_string(),
        Play::Bye => format!("bye{}", score_text(entry.score)),
        Play::Absent => "abs".to_string(),
    }
}
