//! Perft: counting the leaf nodes of the move tree from a position, and reading the two
//! suite formats (shakmaty's `.perft` files and EPD with `;D1 N` opcodes).

use rayon::prelude::*;
use shakmaty::{CastlingMode, Chess, Position, PositionError};

/// One position of a suite and the node counts expected at each depth.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteEntry {
    /// The `id` line, or `line N` for EPD suites.
    pub id: String,
    pub fen: String,
    /// (depth, expected nodes), in the order given.
    pub expected: Vec<(u32, u64)>,
}

/// Variants whose rules a standard-chess move generator must not be checked against.
const VARIANT_NAMES: [&str; 8] = [
    "3check",
    "threecheck",
    "antichess",
    "atomic",
    "crazyhouse",
    "horde",
    "racingkings",
    "kingofthehill",
];

/// The variant a suite file's name points to, if any (`shakmaty_atomic.perft`).
pub fn variant_of_suite(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    VARIANT_NAMES.iter().copied().find(|v| lower.contains(v))
}

/// A suite line that fits neither format, with its line number.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SuiteError {
    #[error("line {0}: `{1}` is not `perft DEPTH COUNT`")]
    BadPerftLine(usize, String),
    #[error("line {0}: a perft line before any epd line")]
    PerftBeforeEpd(usize),
    #[error("line {0}: `{1}` is not a `D<depth> <count>` opcode")]
    BadOpcode(usize, String),
    #[error("line {0}: `{1}` is neither an id/epd/perft line nor an EPD with ;D opcodes")]
    UnknownLine(usize, String),
}

/// Why a perft FEN gives no position.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PerftPositionError {
    #[error("`{fen}`: {why}")]
    Unreadable { fen: String, why: String },
    #[error("`{fen}` is not a legal position: {why}")]
    Illegal { fen: String, why: String },
}

/// Reads a suite in either format; lines that fit neither are returned as errors with
/// their line number so that a typo never passes silently.
pub fn parse_suite(text: &str) -> Result<Vec<SuiteEntry>, SuiteError> {
    let mut entries: Vec<SuiteEntry> = Vec::new();
    let mut pending_id: Option<String> = None;
    for (number, line) in text.lines().enumerate() {
        let line_no = number + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(id) = line.strip_prefix("id ") {
            pending_id = Some(id.trim().to_string());
        } else if let Some(epd) = line.strip_prefix("epd ") {
            let id = pending_id
                .take()
                .unwrap_or_else(|| format!("line {line_no}"));
            entries.push(SuiteEntry {
                id,
                fen: epd.trim().to_string(),
                expected: Vec::new(),
            });
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let (depth, nodes) = parse_depth_nodes(rest)
                .ok_or_else(|| SuiteError::BadPerftLine(line_no, line.to_string()))?;
            let entry = entries
                .last_mut()
                .ok_or(SuiteError::PerftBeforeEpd(line_no))?;
            entry.expected.push((depth, nodes));
        } else if line.contains(";D") {
            entries.push(parse_epd_line(line, line_no)?);
        } else {
            return Err(SuiteError::UnknownLine(line_no, line.to_string()));
        }
    }
    Ok(entries)
}

fn parse_depth_nodes(text: &str) -> Option<(u32, u64)> {
    let mut parts = text.split_whitespace();
    let depth = parts.next()?.parse().ok()?;
    let nodes = parts.next()?.parse().ok()?;
    parts.next().is_none().then_some((depth, nodes))
}

/// `FEN ;D1 20 ;D2 400`
fn parse_epd_line(line: &str, line_no: usize) -> Result<SuiteEntry, SuiteError> {
    let mut parts = line.split(';');
    let fen = parts.next().unwrap_or_default().trim().to_string();
    let mut expected = Vec::new();
    for opcode in parts {
        let opcode = opcode.trim();
        if opcode.is_empty() {
            continue;
        }
        let parsed = opcode.strip_prefix('D').and_then(parse_depth_nodes);
        let (depth, nodes) =
            parsed.ok_or_else(|| SuiteError::BadOpcode(line_no, opcode.to_string()))?;
        expected.push((depth, nodes));
    }
    Ok(SuiteEntry {
        id: format!("line {line_no}"),
        fen,
        expected,
    })
}

/// The position of a perft FEN or EPD. Perft suites hold positions that are reachable
/// only in theory (impossible checks, too much material: shakmaty's own tests accept
/// them), so those two defects are let through; anything else is an error.
pub fn position_of(fen_text: &str) -> Result<Chess, PerftPositionError> {
    // The one FEN reader of every command; the judgement stays perft's own (above).
    let (_, fen) =
        crate::rules::fen::epd::parse(fen_text).map_err(|err| PerftPositionError::Unreadable {
            fen: fen_text.to_string(),
            why: err.to_string(),
        })?;
    let mode = CastlingMode::detect(fen.as_setup());
    fen.into_position::<Chess>(mode)
        .or_else(PositionError::ignore_too_much_material)
        .or_else(PositionError::ignore_impossible_check)
        .map_err(|err| PerftPositionError::Illegal {
            fen: fen_text.to_string(),
            why: crate::rules::fen::setup::describe_position_errors(err.kinds()),
        })
}

/// Leaf nodes at `depth`; deep counts are split over the root moves, in parallel on the
/// current rayon pool (suites nest this inside their own parallel loop).
pub fn perft(pos: &Chess, depth: u32) -> u64 {
    if depth < 4 {
        return shakmaty::perft(pos, depth);
    }
    let moves: Vec<_> = pos.legal_moves().into_iter().collect();
    moves
        .par_iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            shakmaty::perft(&child, depth - 1)
        })
        .sum()
}

/// Leaf nodes below each legal move (UCI, in the order of the move generator sorted by
/// text), for finding where two generators disagree.
pub fn divide(pos: &Chess, depth: u32) -> Vec<(String, u64)> {
    let mode = castling_mode_of(pos);
    let moves: Vec<_> = pos.legal_moves().into_iter().collect();
    let mut rows: Vec<(String, u64)> = moves
        .par_iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let nodes = if depth <= 1 {
                1
            } else {
                shakmaty::perft(&child, depth - 1)
            };
            (m.to_uci(mode).to_string(), nodes)
        })
        .collect();
    rows.sort();
    rows
}

/// Chess960 positions write castling as king-takes-rook in UCI.
fn castling_mode_of(pos: &Chess) -> CastlingMode {
    pos.castles().mode()
}
