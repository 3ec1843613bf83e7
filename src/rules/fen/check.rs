//! `check-fen`: every defect of a FEN named with a stable code (SPEC.md "check-fen
//! output"), the plausibility checks no library makes, and the nearest legal FEN.

use shakmaty::fen::Fen;
use shakmaty::{
    Bitboard, CastlingMode, Chess, Color, EnPassantMode, PositionError, PositionErrorKinds, Setup,
};

use crate::rules::fen::epd;
use crate::rules::findings::Severity;

/// One thing wrong with a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Defect {
    pub severity: Severity,
    pub code: &'static str,
    pub message: String,
}

impl Defect {
    fn error(code: &'static str, message: String) -> Defect {
        Defect {
            severity: Severity::Error,
            code,
            message,
        }
    }

    fn warning(code: &'static str, message: String) -> Defect {
        Defect {
            severity: Severity::Warning,
            code,
            message,
        }
    }
}

/// How positions are read.
#[derive(Debug, Clone, Copy, Default)]
pub struct CheckOptions {
    /// Read castling rights as Chess960 (also chosen when the field uses file letters).
    pub chess960: bool,
    /// Add the nearest legal FEN to the error messages.
    pub repair: bool,
}

/// Every defect of `text` (a FEN or EPD line; errors first, in SPEC.md's order, then
/// warnings).
pub fn check(text: &str, options: CheckOptions) -> Vec<Defect> {
    let (setup, castling_field, result) = match read(text, options.chess960) {
        Ok(read) => read,
        Err(defect) => return vec![defect],
    };
    let mut defects = Vec::new();
    if let Err((err, mode)) = result {
        defects = position_defects(&setup, err.kinds(), mode);
        if options.repair {
            let repaired = match repair(err) {
                Some(fen) => format!("; nearest legal FEN: {fen}"),
                None => "; no legal FEN is near (only castling rights and en passant squares are dropped)".to_string(),
            };
            for defect in &mut defects {
                defect.message.push_str(&repaired);
            }
        }
    }
    defects.extend(plausibility(&setup, &castling_field));
    defects
}

/// The legal position `text` (a FEN or EPD line) describes and its castling mode, or its
/// errors: the one judgement of a FEN that every command makes (`check-fen`, `pgn`, and a
/// game's `[FEN]` tag through `setup`). The castling mode is Chess960 only when `chess960`
/// (a Chess960 `[Variant]`, `--chess960`) or the castling field's file letters ask for it:
/// `KQkq` rights that only Chess960 could grant are invalid in a standard game.
pub fn position(text: &str, chess960: bool) -> Result<(Chess, CastlingMode), Vec<Defect>> {
    judge(text, chess960).map_err(|failure| match failure {
        Failure::Syntax(defect) => vec![defect],
        Failure::Illegal(defects, _) => defects,
    })
}

/// Why `judge` found no legal position.
pub enum Failure {
    /// The text is not a FEN (`fen.syntax`, naming the field).
    Syntax(Defect),
    /// The FEN parses but the position is illegal: the defects, and shakmaty's kinds.
    Illegal(Vec<Defect>, PositionErrorKinds),
}

/// `position`, telling a text that does not parse from an illegal position.
pub fn judge(text: &str, chess960: bool) -> Result<(Chess, CastlingMode), Failure> {
    let (setup, _, result) = read(text, chess960).map_err(Failure::Syntax)?;
    result.map_err(|(err, mode)| {
        let kinds = err.kinds();
        Failure::Illegal(position_defects(&setup, kinds, mode), kinds)
    })
}

type ParsedFen = (
    Setup,
    String,
    Result<(Chess, CastlingMode), (PositionError<Chess>, CastlingMode)>,
);

/// Parses a FEN or EPD line (`epd::parse`, the one reader): its setup, its castling
/// field as written, and the position in the castling mode the field or the caller asks
/// for.
fn read(text: &str, chess960: bool) -> Result<ParsedFen, Defect> {
    let (line, fen) = epd::parse(text).map_err(|message| Defect::error("fen.syntax", message))?;
    let setup = fen.as_setup().clone();
    let uses_files = line
        .castling
        .chars()
        .any(|c| c.is_ascii_alphabetic() && !"KQkq".contains(c));
    let mode = if chess960 || uses_files {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let result = fen
        .into_position::<Chess>(mode)
        .map(|pos| (pos, mode))
        .map_err(|err| (err, mode));
    Ok((setup, line.castling, result))
}

/// The position with impossible castling rights and en passant square dropped, if that
/// leaves a legal position.
fn repair(err: PositionError<Chess>) -> Option<String> {
    let pos = err
        .ignore_invalid_castling_rights()
        .or_else(PositionError::ignore_invalid_ep_square)
        .or_else(PositionError::ignore_invalid_castling_rights)
        .ok()?;
    Some(Fen::from_position(&pos, EnPassantMode::Legal).to_string())
}

/// Names each castling right whose rook or king is not where the right needs it:
/// `the right for the rook on a1 (White, queen side) has no White rook there`.
fn castling_right_defects(setup: &Setup, mode: CastlingMode) -> String {
    let valid = match shakmaty::Castles::from_setup(setup, mode) {
        Ok(castles) | Err(castles) => castles.castling_rights(),
    };
    let mut parts = Vec::new();
    for rook_square in setup.castling_rights & !valid {
        let color = if rook_square.rank() == shakmaty::Rank::First {
            Color::White
        } else {
            Color::Black
        };
        let rook = shakmaty::Piece {
            color,
            role: shakmaty::Role::Rook,
        };
        let mut missing = Vec::new();
        if setup.board.piece_at(rook_square) != Some(rook) {
            missing.push(format!("no {} rook on {rook_square}", color_name(color)));
        }
        let king_on_back_rank = setup
            .board
            .king_of(color)
            .is_some_and(|king| king.rank() == rook_square.rank());
        if !king_on_back_rank {
            missing.push(format!("no {} king on its first rank", color_name(color)));
        }
        if missing.is_empty() {
            missing
                .push("king and rook are not on the squares this castling mode needs".to_string());
        }
        parts.push(format!(
            "the castling right for the rook on {rook_square} is invalid: {}",
            missing.join(" and ")
        ));
    }
    if parts.is_empty() {
        "invalid castling rights".to_string()
    } else {
        parts.join("; ")
    }
}

fn squares(bb: Bitboard) -> String {
    bb.into_iter()
        .map(|sq| sq.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn color_name(color: Color) -> &'static str {
    color.fold_wb("White", "Black")
}

/// One defect per kind shakmaty found, with what a reader needs to fix it.
fn position_defects(setup: &Setup, kinds: PositionErrorKinds, mode: CastlingMode) -> Vec<Defect> {
    let board = &setup.board;
    let mut out = Vec::new();
    if kinds.contains(PositionErrorKinds::EMPTY_BOARD) {
        out.push(Defect::error(
            "fen.empty-board",
            "the board is empty".into(),
        ));
    }
    for color in [Color::White, Color::Black] {
        let kings = (board.kings() & board.by_color(color)).count();
        if kinds.contains(PositionErrorKinds::MISSING_KING) && kings == 0 {
            out.push(Defect::error(
                "fen.missing-king",
                format!("{} has no king", color_name(color)),
            ));
        }
        if kinds.contains(PositionErrorKinds::TOO_MANY_KINGS) && kings > 1 {
            out.push(Defect::error(
                "fen.too-many-kings",
                format!("{} has {kings} kings", color_name(color)),
            ));
        }
    }
    if kinds.contains(PositionErrorKinds::PAWNS_ON_BACKRANK) {
        out.push(Defect::error(
            "fen.pawns-on-backrank",
            format!(
                "pawns on the first or last rank: {}",
                squares(board.pawns() & Bitboard::BACKRANKS)
            ),
        ));
    }
    if kinds.contains(PositionErrorKinds::INVALID_CASTLING_RIGHTS) {
        let mut message = castling_right_defects(setup, mode);
        let as_960 = setup
            .clone()
            .position::<Chess>(CastlingMode::Chess960)
            .is_ok();
        if mode == CastlingMode::Standard && as_960 {
            message.push_str(" (valid as Chess960: use --chess960)");
        }
        out.push(Defect::error("fen.invalid-castling-rights", message));
    }
    if kinds.contains(PositionErrorKinds::INVALID_EP_SQUARE) {
        let square = setup
            .ep_square
            .map_or_else(|| "-".to_string(), |sq| sq.to_string());
        out.push(Defect::error(
            "fen.invalid-ep-square",
            format!(
                "the en passant square {square} has no pawn of {} behind it that just made a double step (or the square it came from is occupied)",
                color_name(!setup.turn)
            ),
        ));
    }
    if kinds.contains(PositionErrorKinds::OPPOSITE_CHECK) {
        out.push(Defect::error(
            "fen.opposite-check",
            format!(
                "{} is in check but it is {}'s move",
                color_name(!setup.turn),
                color_name(setup.turn)
            ),
        ));
    }
    if kinds.contains(PositionErrorKinds::IMPOSSIBLE_CHECK) {
        out.push(Defect::error(
            "fen.impossible-check",
            format!(
                "the check on {}'s king cannot have arisen from a legal move",
                color_name(setup.turn)
            ),
        ));
    }
    if kinds.contains(PositionErrorKinds::TOO_MUCH_MATERIAL) {
        out.push(Defect::error(
            "fen.too-much-material",
            "more pieces than a game can have (promotions exceed the missing pawns)".into(),
        ));
    }
    if out.is_empty() {
        out.push(Defect::error(
            "fen.syntax",
            crate::rules::fen::setup::describe_position_errors(kinds),
        ));
    }
    out
}

/// Legal but implausible: clocks and castling letters no game can produce.
fn plausibility(setup: &Setup, castling_field: &str) -> Vec<Defect> {
    let mut out = Vec::new();
    let plies_played =
        2 * (u64::from(setup.fullmoves.get()) - 1) + u64::from(setup.turn.is_black());
    if u64::from(setup.halfmoves) > plies_played {
        out.push(Defect::warning(
            "fen.implausible-clock",
            format!(
                "halfmove clock {} but only {plies_played} {} can have been played by move {} with {} to move",
                setup.halfmoves,
                if plies_played == 1 { "ply" } else { "plies" },
                setup.fullmoves,
                color_name(setup.turn)
            ),
        ));
    }
    if let Some(sq) = setup.ep_square
        && setup.halfmoves != 0
    {
        out.push(Defect::warning(
            "fen.ep-with-clock",
            format!(
                "en passant square {sq} with halfmove clock {}: the double step that allows it resets the clock to 0",
                setup.halfmoves
            ),
        ));
    }
    if let Some(why) = noncanonical_castling(castling_field) {
        out.push(Defect::warning("fen.noncanonical-castling", why));
    }
    out
}

/// Castling letters must be White's before Black's, kingside before queenside (files
/// from h down), each once.
fn noncanonical_castling(field: &str) -> Option<String> {
    if field == "-" {
        return None;
    }
    let key = |c: char| -> (u8, i8) {
        let color = u8::from(c.is_ascii_lowercase());
        let rank = match c.to_ascii_lowercase() {
            'k' => 9,
            'q' => -1,
            f => (f as u8).wrapping_sub(b'a') as i8,
        };
        (color, -rank)
    };
    let letters: Vec<char> = field.chars().collect();
    for (i, c) in letters.iter().enumerate() {
        if letters.iter().skip(i + 1).any(|d| d == c) {
            return Some(format!("castling letter `{c}` is repeated in `{field}`"));
        }
    }
    let in_order = letters.windows(2).all(|pair| match pair {
        [a, b] => key(*a) < key(*b),
        _ => true,
    });
    (!in_order).then(|| {
        format!("castling letters `{field}` are out of order (White's first, kingside before queenside: `KQkq`)")
    })
}
