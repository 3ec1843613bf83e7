//! The report's error cards: for each of the first `--limit` error findings, the board
//! before the move with the move drawn, what the game is, the moves leading to it, and
//! what went wrong; the game's other tags folded away.

use std::fmt::Write as _;

use crate::output::board::{escape_html, svg_board};
use crate::pgn::{RawGame, TokenKind};
use crate::rules::Finding;
use crate::rules::findings::marks::marks_of;
use crate::terminal::thousands;

/// One error finding kept for a board, with its game's identity and tags.
#[derive(Debug, Clone)]
pub(super) struct ErrorBoard {
    pub file: String,
    pub game: u64,
    pub line: u64,
    pub tags: Vec<(String, String)>,
    /// The last moves written before the error, as written (may be empty).
    pub moves_before: String,
    pub finding: Finding,
}

/// The tags a card shows in the open; the others go behind a `<details>`.
const SHOWN_TAGS: [&str; 6] = ["White", "Black", "Event", "Round", "Date", "Result"];

/// The section of cards, numbered `card-1`, `card-2`, ... as the findings table links.
pub(super) fn render_boards(html: &mut String, boards: &[ErrorBoard], left_out: u64) {
    html.push_str(
        "<section class=\"errors\" id=\"boards\"><h2>Errors, move by move</h2><p class=\"hint\">the position before each move that could not be played; the arrow is the move as written, red frames what forbids it, blue rings what the message names; a win for a side that cannot mate (FIDE 6.9) shows the final position</p>",
    );
    if boards.is_empty() && left_out == 0 {
        html.push_str("<p class=\"empty\">No error finding.</p>");
    }
    for (i, board) in boards.iter().enumerate() {
        render_card(html, i + 1, board);
    }
    if left_out > 0 {
        let findings = if left_out == 1 {
            "error finding"
        } else {
            "error findings"
        };
        if boards.is_empty() {
            let _ = write!(
                html,
                "<p class=\"more\">No board drawn (--limit 0): the {} {findings} are all in the findings table above.</p>",
                thousands(left_out)
            );
        } else {
            let _ = write!(
                html,
                "<p class=\"more\">{} more {findings} without a board (the first {} have one; raise --limit to draw more); every one is in the findings table above.</p>",
                thousands(left_out),
                thousands(boards.len() as u64)
            );
        }
    }
    html.push_str("</section>\n");
}

/// One error: the board, then the game, the moves before, the finding and its meaning.
fn render_card(html: &mut String, number: usize, board: &ErrorBoard) {
    let finding = &board.finding;
    let severity = finding.severity().as_str();
    let heading = format!(
        "{}:{}: game {}{}{}",
        board.file,
        finding.move_line,
        board.game,
        if finding.move_text.is_empty() {
            ""
        } else {
            ", "
        },
        finding.move_text
    );
    // A warning's card (a win that cannot be) is framed in the warning colour.
    let class = if severity == "error" {
        "error-card"
    } else {
        "error-card warning"
    };
    let _ = write!(html, "<article class=\"{class}\" id=\"card-{number}\">");
    match marks_of(finding) {
        Some((setup, marks)) => {
            let title = if finding.move_text.is_empty() {
                format!("final position, FEN {}", finding.fen)
            } else {
                format!(
                    "position before {}, FEN {}: {}",
                    finding.move_text, finding.fen, finding.message
                )
            };
            html.push_str(&svg_board(&setup.board, &marks, &title));
        }
        None => html.push_str("<div class=\"no-board\">no position to draw</div>"),
    }
    let _ = write!(
        html,
        "<div class=\"detail\"><h3>{}</h3>",
        escape_html(&heading)
    );
    render_game(html, board);
    if !board.moves_before.is_empty() {
        let _ = write!(
            html,
            "<p class=\"moves\"><span class=\"dim\">moves before:</span> {} <strong>{}</strong></p>",
            escape_html(&board.moves_before),
            escape_html(&finding.move_text)
        );
    }
    let _ = write!(
        html,
        "<p><span class=\"sev {severity}\">{severity}</span> <code>{}</code></p><p class=\"message\">{}</p><p class=\"why\">{}</p>",
        finding.code,
        escape_html(&finding.message),
        escape_html(finding.code.explanation())
    );
    if !finding.fen.is_empty() {
        let _ = write!(
            html,
            "<p class=\"fen\"><code>{}</code></p>",
            escape_html(&finding.fen)
        );
    }
    render_other_tags(html, board);
    html.push_str("</div></article>\n");
}

fn tag<'a>(board: &'a ErrorBoard, name: &str) -> &'a str {
    board
        .tags
        .iter()
        .find(|(tag, _)| tag == name)
        .map_or("", |(_, value)| value.as_str())
}

/// Who played, where and when: `White – Black`, then `Event, round R, Date`.
fn render_game(html: &mut String, board: &ErrorBoard) {
    let or_unknown = |value: &str| {
        if value.is_empty() {
            "?".to_string()
        } else {
            escape_html(value)
        }
    };
    let _ = write!(
        html,
        "<p class=\"game\"><strong>{} \u{2013} {}</strong>",
        or_unknown(tag(board, "White")),
        or_unknown(tag(board, "Black"))
    );
    let result = tag(board, "Result");
    if !result.is_empty() {
        let _ = write!(html, " {}", escape_html(result));
    }
    let _ = write!(
        html,
        "<br>{}, round {}, {}</p>",
        or_unknown(tag(board, "Event")),
        or_unknown(tag(board, "Round")),
        or_unknown(tag(board, "Date"))
    );
}

/// The tags not shown above, and the game's line, folded.
fn render_other_tags(html: &mut String, board: &ErrorBoard) {
    let others: Vec<&(String, String)> = board
        .tags
        .iter()
        .filter(|(name, _)| !SHOWN_TAGS.contains(&name.as_str()))
        .collect();
    let _ = write!(
        html,
        "<details><summary>{} more {}, the game's line</summary><table class=\"tags\">",
        others.len(),
        if others.len() == 1 { "tag" } else { "tags" }
    );
    for (name, value) in others {
        let _ = write!(
            html,
            "<tr><th>{}</th><td>{}</td></tr>",
            escape_html(name),
            escape_html(value)
        );
    }
    let _ = write!(
        html,
        "</table><p class=\"dim\">the game starts on line {} of {}</p></details>",
        board.line,
        escape_html(&board.file)
    );
}

/// The moves written before a game's `ply`-th move (1-based), the last `MOVES_BEFORE`
/// of them with their move numbers, as written: what leads to an error.
pub fn moves_before(raw: &RawGame, ply: u32) -> String {
    const MOVES_BEFORE: usize = 6;
    let mut depth = 0u32;
    let mut words = 0u32;
    let mut shown: Vec<(bool, &[u8])> = Vec::new();
    for token in &raw.tokens {
        match token.kind {
            TokenKind::VariationStart => depth += 1,
            TokenKind::VariationEnd => depth = depth.saturating_sub(1),
            TokenKind::Word if depth == 0 => {
                words += 1;
                if words >= ply {
                    break;
                }
                shown.push((true, raw.token_text(token)));
            }
            TokenKind::MoveNumber if depth == 0 => shown.push((false, raw.token_text(token))),
            _ => {}
        }
    }
    // The error's own move number is not a move before it.
    while shown.last().is_some_and(|(is_word, _)| !*is_word) {
        shown.pop();
    }
    let word_positions: Vec<usize> = shown
        .iter()
        .enumerate()
        .filter(|(_, (is_word, _))| *is_word)
        .map(|(i, _)| i)
        .collect();
    let Some(&first) = word_positions
        .len()
        .checked_sub(MOVES_BEFORE)
        .and_then(|skip| word_positions.get(skip))
        .or(word_positions.first())
    else {
        return String::new();
    };
    let start = if first > 0 && shown.get(first - 1).is_some_and(|(is_word, _)| !*is_word) {
        first - 1
    } else {
        first
    };
    let mut text = String::new();
    if start > 0 {
        text.push_str("\u{2026} ");
    }
    for (_, bytes) in shown.get(start..).unwrap_or_default() {
        text.push_str(&String::from_utf8_lossy(bytes));
        text.push(' ');
    }
    text.truncate(text.trim_end().len());
    text
}
