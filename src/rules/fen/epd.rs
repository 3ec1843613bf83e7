//! One line of a FEN/EPD file, or a `[FEN]` tag: the position fields and the EPD opcodes
//! after them (`bm Qd1+; id "BK.01";`). This is the one reader of FEN text every command
//! uses (SPEC.md): it accepts a standard FEN (six fields), an EPD (the four position
//! fields, then optional `;`-terminated operations) and `- -` as placeholder clocks, and
//! rejects anything else with a message that names the field.

use shakmaty::fen::{Fen, ParseFenError};

/// A line split into its position part and its opcodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EpdLine {
    /// The FEN fields (4 to 6 of them) as written, joined by single spaces.
    pub fen: String,
    /// The castling field as written.
    pub castling: String,
    /// (opcode, operand with its quotes removed), in line order.
    pub opcodes: Vec<(String, String)>,
}

/// Reads a FEN or EPD line strictly and parses its position with shakmaty. The error is
/// a sentence naming the malformed field.
pub fn parse(line: &str) -> Result<(EpdLine, Fen), String> {
    let line = line.trim();
    let mut rest = line;
    // The fields in arrays, not vectors: every `[FEN]` game comes through here.
    let mut fields = [""; 4];
    let mut count = 0;
    for slot in &mut fields {
        let (field, tail) = next_field(rest);
        if field.is_empty() {
            break;
        }
        *slot = field;
        count += 1;
        rest = tail;
    }
    if count < 4 {
        let missing = FIELD_NAMES.get(count).copied().unwrap_or("a field");
        return Err(format!(
            "the FEN does not parse: {missing} is missing (a FEN has six fields, an EPD four)"
        ));
    }
    let [board, turn, castling, ep] = fields;
    check_board(board)?;
    // Then the two clocks, each a number or a `-` placeholder, or EPD operations.
    let mut clocks = [""; 2];
    let mut clock_count = 0;
    for slot in &mut clocks {
        let (field, tail) = next_field(rest);
        if field.is_empty() || !is_clock(field) {
            break;
        }
        *slot = field;
        clock_count += 1;
        rest = tail;
    }
    let operations = rest.trim();
    let is_operations = operations.is_empty()
        || operations.starts_with(';')
        || (operations.starts_with(|c: char| c.is_ascii_alphabetic())
            && (operations.ends_with(';') || last_operation_open(operations, clock_count)));
    if !is_operations {
        let field = match clock_count {
            0 => "the halfmove clock (a number from 0, or `-`)",
            1 => "the fullmove number (a number from 1, or `-`)",
            _ => "the EPD operations (each `opcode operand;`)",
        };
        return Err(format!("the FEN does not parse: {field} is malformed"));
    }
    let clocks = clocks.get(..clock_count).unwrap_or_default();
    let mut written = String::with_capacity(line.len());
    for field in fields.iter().chain(clocks) {
        if !written.is_empty() {
            written.push(' ');
        }
        written.push_str(field);
    }
    fn number<'a>(field: Option<&&'a str>, default: &'a str) -> &'a str {
        match field {
            Some(&"-") | None => default,
            Some(value) => value,
        }
    }
    let fen = if clock_count == 2 && !clocks.contains(&"-") {
        // Six fields with both clocks: the fields as written are the standard FEN.
        Fen::from_ascii(written.as_bytes())
    } else {
        let normalised = format!(
            "{board} {turn} {castling} {ep} {} {}",
            number(clocks.first(), "0"),
            number(clocks.get(1), "1")
        );
        Fen::from_ascii(normalised.as_bytes())
    }
    .map_err(syntax_message)?;
    Ok((
        EpdLine {
            fen: written,
            castling: castling.to_string(),
            opcodes: parse_opcodes(operations),
        },
        fen,
    ))
}

/// `... w - - bm Nc3`: an EPD (no clocks) whose last operation lacks its `;`, read as
/// python-chess reads it, when the text starts with an opcode of two characters or more
/// (`bm`, `id`, `c0`); a lone letter there (`w - - x 1`) is a malformed halfmove clock.
fn last_operation_open(operations: &str, clock_count: usize) -> bool {
    let (opcode, _) = next_field(operations);
    clock_count == 0
        && opcode.len() >= 2
        && opcode
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
}

const FIELD_NAMES: [&str; 4] = [
    "the board",
    "the side to move",
    "the castling field",
    "the en passant field",
];

/// The next whitespace-separated field (a `;` ends it too) and the text after it.
fn next_field(text: &str) -> (&str, &str) {
    let trimmed = text.trim_start();
    let end = trimmed
        .find(|c: char| c.is_whitespace() || c == ';')
        .unwrap_or(trimmed.len());
    trimmed.split_at(end)
}

/// A clock field: digits, or the `-` placeholder.
fn is_clock(field: &str) -> bool {
    field == "-" || (!field.is_empty() && field.bytes().all(|b| b.is_ascii_digit()))
}

/// The board of standard chess: eight ranks of eight squares, each rank pieces and
/// single digits (no `17`), no crazyhouse pocket (`[QQ]`, a ninth rank) or promoted
/// marks (`Q~`), which shakmaty would accept.
fn check_board(board: &str) -> Result<(), String> {
    let fail = |why: String| Err(format!("the FEN does not parse: the board {why}"));
    if board.contains('[') || board.contains('~') {
        return fail("holds a crazyhouse pocket or promoted marks, not standard chess".into());
    }
    let ranks = board.split('/').count();
    if ranks != 8 {
        return fail(format!("has {ranks} ranks instead of 8"));
    }
    for (index, rank) in board.split('/').enumerate() {
        let number = 8 - index;
        let mut squares = 0u32;
        let mut last_was_digit = false;
        for c in rank.chars() {
            match c {
                '1'..='8' if !last_was_digit => {
                    squares += c.to_digit(10).unwrap_or(0);
                    last_was_digit = true;
                }
                'p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K' => {
                    squares += 1;
                    last_was_digit = false;
                }
                _ => {
                    return fail(format!(
                        "has `{rank}` for rank {number} (pieces PNBRQK/pnbrqk and single digits 1-8)"
                    ));
                }
            }
        }
        if squares != 8 {
            return fail(format!(
                "has `{rank}` for rank {number}: {squares} squares instead of 8"
            ));
        }
    }
    Ok(())
}

/// What shakmaty found malformed, named by field.
fn syntax_message(err: ParseFenError) -> String {
    let part = match err {
        ParseFenError::InvalidBoard => {
            "the board (8 ranks of 8 squares, pieces PNBRQK/pnbrqk, digits 1-8)"
        }
        ParseFenError::InvalidTurn => "the side to move (w or b)",
        ParseFenError::InvalidCastling => "the castling field (-, KQkq or file letters)",
        ParseFenError::InvalidEpSquare => "the en passant field (- or a square such as e3)",
        ParseFenError::InvalidHalfmoveClock => "the halfmove clock (a number from 0, or `-`)",
        ParseFenError::InvalidFullmoves => "the fullmove number (a number from 1, or `-`)",
        _ => "the fields (board, side, castling, en passant, halfmove clock, fullmove number)",
    };
    format!("the FEN does not parse: {part} is malformed")
}

/// `bm Qd1+; id "BK.01"; c0 "a; b";` with `;` inside quotes kept.
fn parse_opcodes(text: &str) -> Vec<(String, String)> {
    let mut ops = Vec::new();
    let mut current = String::new();
    let mut in_quotes = false;
    let mut push = |op: &str| {
        let op = op.trim();
        if op.is_empty() {
            return;
        }
        let (name, operand) = op.split_once(char::is_whitespace).unwrap_or((op, ""));
        let operand = operand.trim();
        let operand = operand
            .strip_prefix('"')
            .and_then(|o| o.strip_suffix('"'))
            .unwrap_or(operand);
        ops.push((name.to_string(), operand.to_string()));
    };
    for c in text.chars() {
        match c {
            '"' => {
                in_quotes = !in_quotes;
                current.push(c);
            }
            ';' if !in_quotes => {
                push(&current);
                current.clear();
            }
            _ => current.push(c),
        }
    }
    push(&current);
    ops
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::panic, reason = "a test fails loudly")]

    use super::parse;

    /// Issue 42 item 9: the last operation without its `;`, as python-chess reads it.
    #[test]
    fn the_last_operation_may_lack_its_semicolon() {
        let (line, _) = parse("4k3/8/8/8/8/8/8/R3K3 w - - bm Ra8").unwrap();
        assert_eq!(line.fen, "4k3/8/8/8/8/8/8/R3K3 w - -");
        assert_eq!(line.opcodes, [("bm".to_string(), "Ra8".to_string())]);
        let (line, _) = parse("4k3/8/8/8/8/8/8/R3K3 w - - id \"x\"; bm Ra8").unwrap();
        assert_eq!(line.opcodes.len(), 2);
        // After one clock the text is still a malformed fullmove number.
        let error = parse("4k3/8/8/8/8/8/8/R3K3 w - - 0 x").unwrap_err();
        assert!(error.contains("fullmove number"), "{error}");
        let error = parse("4k3/8/8/8/8/8/8/R3K3 w - - 0 bm Ra8").unwrap_err();
        assert!(error.contains("fullmove number"), "{error}");
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";

    /// What a standard FEN or EPD may hold is read, the position fields kept as written.
    #[test]
    fn reads_fen_epd_and_placeholder_clocks() {
        for (line, fen, opcodes) in [
            (
                format!("{START} w KQkq - 0 1"),
                format!("{START} w KQkq - 0 1"),
                0,
            ),
            (format!("{START} w KQkq -"), format!("{START} w KQkq -"), 0),
            (
                format!("{START} w KQkq - - -"),
                format!("{START} w KQkq - - -"),
                0,
            ),
            (
                format!("{START} w KQkq - bm e4; id \"a; b\";"),
                format!("{START} w KQkq -"),
                2,
            ),
            (
                format!("{START} w KQkq - 0 1 ;D1 20 ;D2 400"),
                format!("{START} w KQkq - 0 1"),
                2,
            ),
            (
                format!("  {START} b - e3 12 40  "),
                format!("{START} b - e3 12 40"),
                0,
            ),
        ] {
            let (read, _) = parse(&line).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(read.fen, fen);
            assert_eq!(read.opcodes.len(), opcodes, "{line}: {:?}", read.opcodes);
        }
        let (_, fen) = parse(&format!("{START} w KQkq - - -")).unwrap();
        assert_eq!(fen.as_setup().halfmoves, 0);
        assert_eq!(fen.as_setup().fullmoves.get(), 1);
    }

    /// Everything else is rejected, naming the field.
    #[test]
    fn rejects_what_is_not_a_standard_fen() {
        for (line, field) in [
            (format!("{START}/QQQQ w KQkq - 0 1"), "9 ranks"),
            (format!("{START}[QQ] w KQkq - 0 1"), "pocket"),
            (format!("{START}~ w KQkq - 0 1"), "pocket"),
            (
                "rnbqkbnr/pppppppp/17/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1".to_string(),
                "rank 6",
            ),
            (
                "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1".to_string(),
                "rank 6",
            ),
            (
                "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1".to_string(),
                "7 squares",
            ),
            (format!("{START} w KQkq - 0 x"), "fullmove"),
            (format!("{START} w KQkq - x 1"), "halfmove"),
            (format!("{START} w KQkq - a 33"), "halfmove"),
            (format!("{START} w KQkq - -1 1"), "halfmove"),
            (format!("{START} w KQkq - 0 1 extra"), "operations"),
            (format!("{START} x KQkq - 0 1"), "side to move"),
            (format!("{START} w KQkq"), "en passant field is missing"),
            (format!("{START} w KQkq e9 0 1"), "en passant"),
            (String::new(), "board is missing"),
        ] {
            let err = parse(&line)
                .err()
                .unwrap_or_else(|| panic!("{line} was read"));
            assert!(err.contains(field), "{line}: {err}");
        }
    }
}
