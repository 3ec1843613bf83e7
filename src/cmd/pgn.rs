//! `pgnkit pgn`: FEN to PGN, a game record that starts from each position.

use anyhow::bail;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};

use crate::cmd::args::{GlobalArgs, OutputArg};
use crate::cmd::context::Context;
use crate::cmd::positions::{PositionArgs, too_long};
use crate::exit::ExitStatus;
use crate::output::Output;
use crate::output::pgn::{MoveStyle, Movetext, move_text, ordered_tags, write_game};
use crate::rules::fen::check as fen_check;
use crate::rules::fen::epd;
use crate::terminal::visible;

/// FEN to PGN: a game record that starts from each position.
///
/// Each position becomes a game with the seven-tag roster, `[SetUp "1"]` and `[FEN]`
/// (and `[Variant "Chess960"]` with `--chess960` or when the castling field uses file
/// letters). Positions are judged as check-fen judges them: `KQkq` rights that only
/// Chess960 can grant are invalid without `--chess960`.
/// Positions come from the arguments, or one FEN/EPD per line from `--input FILE` or
/// stdin. EPD opcodes: `id` becomes the Event tag, `c0`..`c9` and every other opcode a
/// comment before the moves (`{ bm Qd1+ }`). `--moves` plays the same moves from every
/// position (SAN or UCI, each checked); the result marker follows from the final
/// position when it is decided (checkmate, stalemate, insufficient material), else `*`.
/// An invalid FEN or move, or a line longer than 64 KiB, is reported on stderr, gives no
/// game, and makes the exit code 1.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    #[command(flatten)]
    pub positions: PositionArgs,

    #[command(flatten)]
    pub output: OutputArg,

    /// Moves to play from each position, separated by spaces, in SAN or UCI
    /// (move numbers are skipped).
    #[arg(
        long,
        value_name = "MOVES",
        allow_hyphen_values = true,
        help_heading = "Rules"
    )]
    pub moves: Option<String>,

    /// Read castling rights as Chess960 (chosen anyway when the field uses file letters).
    #[arg(long, help_heading = "Rules")]
    pub chess960: bool,
}

const EXAMPLES: &str = "\
Examples:
  pgnkit pgn \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\" --moves \"e4 Kd7 e5\"
  pgnkit pgn \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\" --moves \"e2e4 e8d7\"  UCI works too
  pgnkit pgn --input positions.epd -o positions.pgn      one game per EPD line
  pgnkit fen games.pgn | pgnkit pgn                      positions from stdin

The guide: docs/GUIDE.md, \"Converting\" (every command, filter, code and column).";

pub fn run(args: Args, global: &GlobalArgs) -> anyhow::Result<ExitStatus> {
    let ctx = Context::new(global, args.output.output.is_none());
    args.positions
        .refuse_as_output(args.output.output.as_deref())?;
    let moves: Vec<&str> = args
        .moves
        .as_deref()
        .unwrap_or("")
        .split_whitespace()
        .filter(|w| !is_move_number(w))
        .collect();
    let mut output = Output::create(args.output.output.as_deref())?;
    let mut failures = 0u64;
    let mut items = 0u64;
    args.positions.each_line(&ctx, |item| {
        items += 1;
        let item = match item {
            Ok(item) => item,
            Err(source) => {
                failures += 1;
                crate::stderr::say!("pgnkit: {}", visible(&too_long(&source)));
                return Ok(());
            }
        };
        match game_of(&item.text, &moves, args.chess960) {
            Ok((tags, movetext)) => write_game(&mut output, &tags, &movetext)?,
            Err(why) => {
                failures += 1;
                let message = format!("{}: {why}", item.source);
                crate::stderr::say!("pgnkit: {}", visible(&message));
            }
        }
        Ok(())
    })?;
    output.finish()?;
    if items == 0 {
        bail!("no position given (give FENs, --input FILE, or lines on stdin)");
    }
    Ok(if failures > 0 {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    })
}

fn is_move_number(word: &str) -> bool {
    word.ends_with('.')
        && word
            .trim_end_matches('.')
            .bytes()
            .all(|b| b.is_ascii_digit())
}

type BuiltGame = (Vec<(String, String)>, Movetext);

/// Why a position line gives no game.
#[derive(Debug, thiserror::Error)]
enum GameError {
    #[error("`{fen}` is not a legal position: {defects}")]
    IllegalPosition { fen: String, defects: String },
    #[error("move {number} `{text}` cannot be played from `{fen}`: {why}")]
    Move {
        number: usize,
        text: String,
        fen: String,
        why: MoveError,
    },
}

/// Why a move of `--moves` cannot be played.
#[derive(Debug, thiserror::Error)]
enum MoveError {
    #[error("not a move in SAN or UCI")]
    NotAMove,
    #[error(transparent)]
    Illegal(#[from] shakmaty::san::SanError),
}

/// The game that starts from `line` and plays `moves`.
fn game_of(line: &str, moves: &[&str], chess960: bool) -> Result<BuiltGame, GameError> {
    let epd = epd::parse(line).map_or_else(
        |_| epd::EpdLine {
            fen: line.trim().to_string(),
            castling: String::new(),
            opcodes: Vec::new(),
        },
        |(epd, _)| epd,
    );
    // Judged as `check-fen` and a game's `[FEN]` are: Chess960 only when asked for or
    // when the castling field uses file letters.
    let (start, mode) = fen_check::position(line, chess960).map_err(|defects| {
        let named: Vec<String> = defects
            .iter()
            .map(|d| format!("{}: {}", d.code, d.message))
            .collect();
        GameError::IllegalPosition {
            fen: epd.fen.clone(),
            defects: named.join("; "),
        }
    })?;

    let mut movetext = Movetext::new();
    let mut event = "?".to_string();
    for (opcode, operand) in &epd.opcodes {
        match opcode.as_str() {
            "id" => event.clone_from(operand),
            op if op.len() == 2 && op.starts_with('c') => movetext.push_comment(operand),
            _ => movetext.push_comment(&format!("{opcode} {operand}")),
        }
    }
    let mut pos = start.clone();
    for (i, text) in moves.iter().enumerate() {
        let m = parse_move(&pos, text).map_err(|why| GameError::Move {
            number: i + 1,
            text: (*text).to_string(),
            fen: fen(&pos),
            why,
        })?;
        movetext.push_move(&pos, move_text(&pos, m, MoveStyle::San));
        pos.play_unchecked(m);
    }
    let result = decided_result(&pos);
    movetext.push_result(result);

    let mut pairs = vec![("Event".to_string(), event)];
    if mode == CastlingMode::Chess960 {
        pairs.push(("Variant".to_string(), "Chess960".to_string()));
    }
    pairs.push(("SetUp".to_string(), "1".to_string()));
    pairs.push(("FEN".to_string(), fen(&start)));
    Ok((ordered_tags(&pairs, result), movetext))
}

/// Written as `pgnkit fen` writes by default, so that `fen` of the game gives the same
/// start position back.
fn fen(pos: &Chess) -> String {
    crate::rules::replay::fen_of(pos)
}

/// A SAN or UCI move, checked against the position. `e2e4` reads as SAN too (a pawn
/// move with both coordinates), so UCI is tried whenever SAN finds no legal move.
fn parse_move(pos: &Chess, text: &str) -> Result<Move, MoveError> {
    let as_san = SanPlus::from_ascii(text.as_bytes())
        .map_err(|_| MoveError::NotAMove)
        .and_then(|san| Ok(san.san.to_move(pos)?));
    as_san.or_else(|san_error| {
        UciMove::from_ascii(text.as_bytes())
            .ok()
            .and_then(|uci| uci.to_move(pos).ok())
            .ok_or(san_error)
    })
}

/// The result the final position decides, or `*`.
fn decided_result(pos: &Chess) -> &'static str {
    if pos.is_checkmate() {
        if pos.turn().is_white() { "0-1" } else { "1-0" }
    } else if pos.is_stalemate() || pos.is_insufficient_material() {
        "1/2-1/2"
    } else {
        "*"
    }
}
