//! The report's standings section: each event's standings and crosstable as `pgnkit
//! standings` makes them (C.07's default tie-breaks), for the first `SHOWN` events; the
//! rest are counted. Wide tables scroll sideways on a phone, as the other panels do.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::hash::{Hash, Hasher};

use crate::output::board::escape_html;
use crate::output::standings::EventTable;
use crate::output::standings::text::{crosstable_rows, heading_lines, standings_rows};
use crate::pgn::RawGame;
use crate::rules::GameReport;
use crate::standings::event::{EventBook, EventBy, GameTags, Outcome};
use crate::standings::ranked::Ranking;

/// Events shown.
const SHOWN: usize = 20;
/// Players shown per event (the rest counted): a lichess dump is one event of them all.
const PLAYERS_SHOWN: usize = 50;

/// The games of the first `SHOWN` events, gathered game by game (about 40 bytes a game),
/// and the number of the others (8 bytes an event: the report's memory does not grow with
/// the games of events it does not show).
#[derive(Debug, Default)]
pub struct StandingsSection {
    book: EventBook,
    others: HashSet<u64>,
}

impl StandingsSection {
    pub fn add(&mut self, raw: &RawGame, report: &GameReport) {
        let game = GameTags::read(raw, &report.tags, &EventBy::Default);
        // A game without a result counts for no one (`event.unfinished`).
        if game.outcome == Outcome::Unfinished {
            return;
        }
        if self.book.len() < SHOWN || self.book.has_event_of(&game) {
            self.book.add(&game);
        } else {
            let mut hasher = std::hash::DefaultHasher::new();
            game.key.hash(&mut hasher);
            self.others.insert(hasher.finish());
        }
    }

    /// The section; nothing when no game was read.
    pub fn render(&mut self, html: &mut String) {
        let book = std::mem::take(&mut self.book);
        let events = book.len() + self.others.len();
        if events == 0 {
            return;
        }
        html.push_str("<section class=\"panel wide standings\"><h2>Standings</h2>");
        let _ = write!(
            html,
            "<p class=\"hint\">each event's final standings as <code>pgnkit standings</code> makes them (games grouped by Event, Site and EventDate; C.07's tie-breaks){}</p>",
            if events > SHOWN {
                format!("; the first {SHOWN} of {events} events")
            } else {
                String::new()
            }
        );
        let ranking = Ranking::default();
        for ranked in ranking.rank(book, |_| false).take(SHOWN) {
            let table = EventTable::of(&ranked, None);
            let lines = heading_lines(&table);
            let mut lines = lines.iter();
            let _ = write!(
                html,
                "<h3>{}</h3>",
                escape_html(lines.next().map_or("", String::as_str))
            );
            for line in lines {
                let _ = write!(html, "<p class=\"hint\">{}</p>", escape_html(line));
            }
            rows_table(html, "ranking", &standings_rows(&table), &[1, 2]);
            if let Some(rows) = crosstable_rows(&table) {
                rows_table(html, "crosstable", &rows, &[1]);
            }
        }
        html.push_str("</section>\n");
    }
}

/// A table of text cells, its first row the header; `left` the columns of text.
fn rows_table(html: &mut String, class: &str, rows: &[Vec<String>], left: &[usize]) {
    let mut rows = rows.iter();
    let _ = write!(
        html,
        "<div class=\"scroll\"><table class=\"{class}\"><thead><tr>"
    );
    let cell_class = |at: usize| {
        if left.contains(&at) {
            ""
        } else {
            " class=\"num\""
        }
    };
    for (at, cell) in rows.next().into_iter().flatten().enumerate() {
        let _ = write!(html, "<th{}>{}</th>", cell_class(at), escape_html(cell));
    }
    html.push_str("</tr></thead><tbody>");
    let mut left_out = 0usize;
    for (at, row) in rows.enumerate() {
        if at >= PLAYERS_SHOWN {
            left_out += 1;
            continue;
        }
        html.push_str("<tr>");
        for (column, cell) in row.iter().enumerate() {
            let _ = write!(html, "<td{}>{}</td>", cell_class(column), escape_html(cell));
        }
        html.push_str("</tr>");
    }
    html.push_str("</tbody></table></div>");
    if left_out > 0 {
        let _ = write!(
            html,
            "<p class=\"hint\">and {left_out} more players (<code>pgnkit standings</code> lists them all)</p>"
        );
    }
}
