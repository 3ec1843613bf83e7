//! One line of a FEN/EPD file: the position fields and the EPD opcodes after them
//! (`bm Qd1+; id "BK.01";`).

/// A line split into its position part and its opcodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EpdLine {
    /// The FEN fields (4 to 6 of them), joined by single spaces.
    pub fen: String,
    /// (opcode, operand with its quotes removed), in line order.
    pub opcodes: Vec<(String, String)>,
}

/// Splits a line: the first four fields are the position; a fifth and sixth are the
/// FEN clocks unless they start with a letter (`FEN ;D1 20` style suites put `;` after them);
/// the rest is `opcode operand;` pairs.
pub fn split_line(line: &str) -> EpdLine {
    let line = line.trim();
    let mut rest = line;
    let mut fields: Vec<&str> = Vec::new();
    while fields.len() < 6 {
        let trimmed = rest.trim_start();
        let end = trimmed
            .find(|c: char| c.is_whitespace() || c == ';')
            .unwrap_or(trimmed.len());
        let (field, tail) = trimmed.split_at(end);
        // Opcodes start with a letter; anything else after the fourth field is meant as a
        // clock, and a malformed one is left for the FEN parser to reject.
        let is_clock = !field.starts_with(|c: char| c.is_ascii_alphabetic());
        if field.is_empty() || (fields.len() >= 4 && !is_clock) {
            break;
        }
        fields.push(field);
        rest = tail;
    }
    EpdLine {
        fen: fields.join(" "),
        opcodes: parse_opcodes(rest),
    }
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
