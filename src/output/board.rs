//! Diagrams of a position with marked squares: a small text board for the terminal
//! (`validate --board`) and an SVG board with the move drawn as an arrow (`report`).

use std::fmt::Write as _;

use shakmaty::{Board, Color, File, Piece, Rank, Role, Square};

use crate::rules::findings::marks::Marks;

/// How a square is marked, the strongest first: a square that is both the destination and
/// attacked shows as the destination, the attack being named in the explanation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mark {
    From,
    To,
    Danger,
    Note,
}

fn mark_of(marks: &Marks, square: Square) -> Option<Mark> {
    if marks.from == Some(square) {
        Some(Mark::From)
    } else if marks.to == Some(square) {
        Some(Mark::To)
    } else if marks.danger.contains(&square) {
        Some(Mark::Danger)
    } else if marks.note.contains(&square) {
        Some(Mark::Note)
    } else {
        None
    }
}

/// The legend printed under a text board.
pub const TEXT_LEGEND: &str = "(x) moves from  [x] to  !x! attacks / attacked  *x* named above";

const RED: &str = "\x1b[31m";
const YELLOW: &str = "\x1b[33m";
const BOLD: &str = "\x1b[1m";
const RESET: &str = "\x1b[0m";

/// A text board from White's side, each line starting with `indent`:
///
/// ```text
///     8  r  .  b  q  k  .  . [r]
///     ...
///        a  b  c  d  e  f  g  h
/// ```
pub fn text_board(board: &Board, turn: Color, marks: &Marks, indent: &str, color: bool) -> String {
    let mut out = String::new();
    for rank in Rank::ALL.into_iter().rev() {
        let _ = write!(out, "{indent}{} ", rank.char());
        for file in File::ALL {
            let square = Square::from_coords(file, rank);
            let letter = board.piece_at(square).map_or('.', Piece::char);
            let (open, close, paint) = match mark_of(marks, square) {
                Some(Mark::From) => ('(', ')', BOLD),
                Some(Mark::To) => ('[', ']', BOLD),
                Some(Mark::Danger) => ('!', '!', RED),
                Some(Mark::Note) => ('*', '*', YELLOW),
                None => (' ', ' ', ""),
            };
            if color && !paint.is_empty() {
                let _ = write!(out, "{paint}{open}{letter}{close}{RESET}");
            } else {
                let _ = write!(out, "{open}{letter}{close}");
            }
        }
        out.truncate(out.trim_end_matches(' ').len());
        out.push('\n');
    }
    let _ = writeln!(out, "{indent}   a  b  c  d  e  f  g  h");
    let side = if turn == Color::White {
        "White"
    } else {
        "Black"
    };
    let _ = writeln!(out, "{indent}{side} to move. {TEXT_LEGEND}");
    out
}

const SQUARE: u32 = 44;
const MARGIN: u32 = 18;
const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";

/// An SVG board from White's side, `8 * 44 + 18` pixels wide, with the marks and the move
/// drawn as an arrow. Pieces are the Unicode chess symbols, so no image is needed.
pub fn svg_board(board: &Board, marks: &Marks, title: &str) -> String {
    let size = SQUARE * 8 + MARGIN;
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg class="board" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" width="{size}" height="{size}" role="img" aria-label="{}">"#,
        escape_html(title)
    );
    let _ = write!(svg, "<title>{}</title>", escape_html(title));
    for square in Square::ALL {
        let (x, y) = corner(square);
        let fill = if square.is_light() { LIGHT } else { DARK };
        let _ = write!(
            svg,
            r#"<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{fill}"/>"#
        );
        match mark_of(marks, square) {
            Some(Mark::From | Mark::To) => {
                let _ = write!(
                    svg,
                    r##"<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="#f7ec5c" fill-opacity="0.6"/>"##
                );
            }
            Some(Mark::Note) => {
                let _ = write!(
                    svg,
                    r##"<circle cx="{}" cy="{}" r="{}" fill="none" stroke="#1d4ed8" stroke-width="3"/>"##,
                    x + SQUARE / 2,
                    y + SQUARE / 2,
                    SQUARE / 2 - 3
                );
            }
            Some(Mark::Danger) | None => {}
        }
    }
    // Red frames go on top, so a destination that is attacked shows both marks.
    for &square in &marks.danger {
        let (x, y) = corner(square);
        let _ = write!(
            svg,
            r##"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#d62828" stroke-width="4"/>"##,
            x + 2,
            y + 2,
            SQUARE - 4,
            SQUARE - 4
        );
    }
    for square in Square::ALL {
        if let Some(piece) = board.piece_at(square) {
            let (x, y) = corner(square);
            let (fill, stroke) = if piece.color == Color::White {
                ("#ffffff", "#000000")
            } else {
                ("#000000", "#000000")
            };
            let _ = write!(
                svg,
                r#"<text x="{}" y="{}" font-size="38" text-anchor="middle" dominant-baseline="central" fill="{fill}" stroke="{stroke}" stroke-width="1">{}</text>"#,
                x + SQUARE / 2,
                y + SQUARE / 2 + 2,
                glyph(piece.role)
            );
        }
    }
    if let (Some(from), Some(to)) = (marks.from, marks.to) {
        svg.push_str(&arrow(from, to));
    }
    for (i, file) in File::ALL.into_iter().enumerate() {
        let _ = write!(
            svg,
            r##"<text x="{}" y="{}" font-size="12" text-anchor="middle" fill="#555">{}</text>"##,
            MARGIN + i as u32 * SQUARE + SQUARE / 2,
            SQUARE * 8 + 14,
            file.char()
        );
    }
    for (i, rank) in Rank::ALL.into_iter().rev().enumerate() {
        let _ = write!(
            svg,
            r##"<text x="9" y="{}" font-size="12" text-anchor="middle" dominant-baseline="central" fill="#555">{}</text>"##,
            i as u32 * SQUARE + SQUARE / 2,
            rank.char()
        );
    }
    svg.push_str("</svg>");
    svg
}

/// The top-left corner of a square, White at the bottom, room for rank digits on the left.
fn corner(square: Square) -> (u32, u32) {
    let x = MARGIN + u32::from(square.file()) * SQUARE;
    let y = (7 - u32::from(square.rank())) * SQUARE;
    (x, y)
}

fn centre(square: Square) -> (f64, f64) {
    let (x, y) = corner(square);
    (
        f64::from(x) + f64::from(SQUARE) / 2.0,
        f64::from(y) + f64::from(SQUARE) / 2.0,
    )
}

/// A translucent arrow from one square's centre to the other's, its head drawn as a
/// polygon (no marker ids, which would clash between boards on one page).
fn arrow(from: Square, to: Square) -> String {
    let (x1, y1) = centre(from);
    let (x2, y2) = centre(to);
    let (dx, dy) = (x2 - x1, y2 - y1);
    let length = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / length, dy / length);
    let head = 16.0;
    let (bx, by) = (x2 - ux * head, y2 - uy * head);
    let (px, py) = (-uy * head * 0.55, ux * head * 0.55);
    format!(
        concat!(
            r##"<g class="arrow" fill="#15803d" stroke="#15803d" opacity="0.8">"##,
            r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{bx:.1}" y2="{by:.1}" stroke-width="7" stroke-linecap="round"/>"#,
            r#"<polygon points="{x2:.1},{y2:.1} {lx:.1},{ly:.1} {rx:.1},{ry:.1}" stroke="none"/></g>"#
        ),
        x1 = x1,
        y1 = y1,
        bx = bx,
        by = by,
        x2 = x2,
        y2 = y2,
        lx = bx + px,
        ly = by + py,
        rx = bx - px,
        ry = by - py,
    )
}

/// The filled chess symbols, coloured by fill and stroke; U+FE0E asks for text, not emoji.
fn glyph(role: Role) -> &'static str {
    match role {
        Role::King => "\u{265A}\u{FE0E}",
        Role::Queen => "\u{265B}\u{FE0E}",
        Role::Rook => "\u{265C}\u{FE0E}",
        Role::Bishop => "\u{265D}\u{FE0E}",
        Role::Knight => "\u{265E}\u{FE0E}",
        Role::Pawn => "\u{265F}\u{FE0E}",
    }
}

/// Text made safe for HTML and SVG content and attribute values; control characters,
/// which HTML cannot hold, written visibly as on a terminal.
pub fn escape_html(text: &str) -> String {
    let text = crate::terminal::visible(text);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}
