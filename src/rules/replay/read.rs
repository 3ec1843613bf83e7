//! Reading one move token in a position: the legal path (plain SAN), the non-standard
//! forms of `notation`, the tokens a move takes in after it (`e8 (Q)`, `exd6 e.p.`), and
//! on failure the diagnosis of why it names no legal move.

use shakmaty::san::{San, SanError, Suffix};
use shakmaty::{Chess, Move, Role};

use super::history::History;
use super::{ReplayOptions, notation, piece_move};
use crate::pgn::{RawGame, Token, TokenKind};
use crate::rules::diagnose::{self, Scene};
use crate::rules::findings::Code;

/// The legal path: a plain standard SAN (no origin rank, no promotion) that names one
/// legal move, with nothing after it that belongs to it (`(Q)`, `e.p.`). Everything else
/// goes through `read_move`. `token` is the one at `index`.
#[inline(always)]
pub(super) fn plain_move(
    pos: &Chess,
    in_check: bool,
    raw: &RawGame,
    index: usize,
    token: &Token,
    options: &ReplayOptions,
) -> Option<(Move, Option<Suffix>)> {
    if options.piece_letters.is_some() {
        return None;
    }
    let text = raw.token_text(token);
    if let Some(next) = raw.tokens.get(index + 1)
        && (next.kind == TokenKind::VariationStart
            || (may_be_en_passant_mark(raw, next)
                && text.get(1) == Some(&b'x')
                && is_en_passant_mark(raw, next)))
        && !token.number_follows
    {
        return None;
    }
    // What the quick reader does not read is not plain standard SAN (`xd5`, `Pe4`).
    let san_plus = piece_move::quick_san(text)?;
    let m = match piece_move::resolve(pos, in_check, san_plus.san) {
        Some(m) => m,
        None => san_plus.san.to_move(pos).ok()?,
    };
    // `Nde2` where `Ne2` names one legal move: over-disambiguated, not standard SAN.
    if let San::Normal {
        role,
        file: Some(_),
        capture,
        to,
        ..
    } = san_plus.san
        && role != Role::Pawn
    {
        let bare = San::Normal {
            role,
            file: None,
            rank: None,
            capture,
            to,
            promotion: None,
        };
        let unambiguous = if in_check {
            bare.to_move(pos).is_ok()
        } else {
            // Not in check, the shortcut declines only an ambiguous SAN here.
            piece_move::resolve(pos, in_check, bare).is_some()
        };
        if unambiguous {
            return None;
        }
    }
    Some((m, san_plus.suffix))
}

/// What reading one move token in a position gave.
pub(crate) enum TokenRead {
    Move {
        m: Move,
        suffix: Option<Suffix>,
        /// Why the token is not standard SAN, when it is not.
        why: Option<String>,
    },
    Fail {
        code: Code,
        message: String,
    },
}

/// Reads the move token at `index` in `pos`: standard SAN, the non-standard forms of
/// `notation`, and on failure the diagnosis (`history` is asked for only then). Also returns how many following tokens the
/// move took in (`e8 (Q)`, `exd6 e.p.`). Not inlined: the plain path (`plain_move`) reads
/// nearly every move, and this one's size would cost the replay's loop its layout.
#[inline(never)]
pub(crate) fn read_move(
    pos: &Chess,
    history: impl FnOnce() -> History,
    raw: &RawGame,
    index: usize,
    options: &ReplayOptions,
) -> (TokenRead, usize) {
    let tokens = &raw.tokens;
    let text = tokens
        .get(index)
        .map(|t| raw.token_text(t))
        .unwrap_or_default();
    let mut owned: Option<Vec<u8>> = None;
    let mut extra = 0;
    let mut split_why: Option<&str> = None;
    if let Some(piece) = parenthesised_promotion(raw, index) {
        let mut joined = text.to_vec();
        joined.push(b'=');
        joined.push(piece);
        owned = Some(joined);
        extra = 3;
        split_why = Some("a promotion piece written in parentheses");
    } else if text.get(1) == Some(&b'x')
        && let Some(next) = next_token(raw, index)
        && is_en_passant_mark(raw, next)
    {
        // `exd6 e.p.`: only a pawn capture (file letter, then `x`) can carry the mark.
        extra = 1;
        split_why = Some("en passant marked with `e.p.`");
    }
    let text = owned.as_deref().unwrap_or(text);
    let Some(reading) = notation::read(pos, text, options.piece_letters) else {
        return (no_move(pos, text, options), extra);
    };
    let why = match (split_why, reading.why) {
        (Some(a), Some(b)) => Some(format!("{a}; {b}")),
        (Some(a), None) => Some(a.to_string()),
        (None, b) => b,
    };
    let san = reading.san_plus.san;
    let suffix = reading.san_plus.suffix;
    let read = match san.to_move(pos) {
        Ok(m) => {
            // A token read as it stands may still not be the standard SAN (`Nde2` where
            // `Ne2` is unambiguous, `xd5`, `Pe4`): the move is played, the spelling noted.
            let why = why.or_else(|| {
                let body = match text {
                    [body @ .., b'+' | b'#'] => body,
                    _ => text,
                };
                notation::departure(san, body, San::from_move(pos, m))
            });
            TokenRead::Move { m, suffix, why }
        }
        Err(SanError::AmbiguousSan) => TokenRead::Fail {
            code: Code::MoveAmbiguous,
            message: diagnose::ambiguous(pos, san),
        },
        Err(SanError::IllegalSan) if let Some(mended) = notation::mended_capture(san) => {
            // The slow path only: the token names no legal move as written.
            match mended.to_move(pos) {
                Ok(m) => {
                    let departure = notation::departure(san, b"", San::from_move(pos, m));
                    let why = match (why, departure) {
                        (Some(a), Some(b)) => Some(format!("{a}; {b}")),
                        (a, b) => a.or(b),
                    };
                    TokenRead::Move { m, suffix, why }
                }
                Err(SanError::AmbiguousSan) => TokenRead::Fail {
                    code: Code::MoveAmbiguous,
                    message: format!(
                        "read with its capture mark mended, {}",
                        diagnose::ambiguous(pos, mended)
                    ),
                },
                Err(SanError::IllegalSan) => diagnosis(pos, history, raw, san, text, options),
            }
        }
        Err(SanError::IllegalSan) => diagnosis(pos, history, raw, san, text, options),
    };
    (read, extra)
}

/// A token that means no move (`move.syntax`), with the other languages' piece letters
/// that would have read it as a legal move.
#[cold]
fn no_move(pos: &Chess, text: &[u8], options: &ReplayOptions) -> TokenRead {
    let mut message = notation::why_not_a_move(&options.decoder.decode(text));
    with_letters_hint(&mut message, pos, text, options);
    TokenRead::Fail {
        code: Code::MoveSyntax,
        message,
    }
}

/// Adds to a failed move's message the other languages' piece letters that would have
/// read its token as a legal move (`notation::other_letters`).
fn with_letters_hint(message: &mut String, pos: &Chess, text: &[u8], options: &ReplayOptions) {
    if let Some(hint) = notation::other_letters(pos, text, options.piece_letters) {
        message.push_str("; ");
        message.push_str(&hint);
    }
}

/// How many tokens after the move token at `index` belong to it (`e8 (Q)`, `exd6 e.p.`),
/// as `read_move` takes them in: for a move whose token was already read once.
pub(crate) fn taken_in(raw: &RawGame, index: usize) -> usize {
    let text = raw
        .tokens
        .get(index)
        .map(|t| raw.token_text(t))
        .unwrap_or_default();
    if parenthesised_promotion(raw, index).is_some() {
        3
    } else if text.get(1) == Some(&b'x')
        && next_token(raw, index).is_some_and(|next| is_en_passant_mark(raw, next))
    {
        1
    } else {
        0
    }
}

/// Why `san` names no legal move in `pos` (`history` is asked for only now), and the
/// other languages' piece letters that would have read `text` as a legal move.
fn diagnosis(
    pos: &Chess,
    history: impl FnOnce() -> History,
    raw: &RawGame,
    san: San,
    text: &[u8],
    options: &ReplayOptions,
) -> TokenRead {
    let history = history();
    let scene = Scene {
        pos,
        history: &history,
        bytes: &raw.bytes,
    };
    let (code, mut message) = diagnose::illegal(&scene, san);
    with_letters_hint(&mut message, pos, text, options);
    TokenRead::Fail { code, message }
}

/// The token a lone check sign at `index` may belong to: the one before it, past the
/// annotation glyphs and NAGs written between (`Bc4 ! +`, `Bc4 $1 +`) and an en passant
/// mark (`exd6 e.p. +`). Whether it is the move just played is the caller's to check.
pub(crate) fn move_before_sign(raw: &RawGame, index: usize) -> Option<usize> {
    let mut at = index.checked_sub(1)?;
    loop {
        let token = raw.tokens.get(at)?;
        if token.number_follows {
            // A move number stands between: the sign is no move's.
            return None;
        }
        if !matches!(token.kind, TokenKind::Nag | TokenKind::Glyph)
            && !is_en_passant_mark(raw, token)
        {
            return Some(at);
        }
        at = at.checked_sub(1)?;
    }
}

/// The token after the one at `index`, unless a move number that is no token stands
/// between (`Token::number_follows`): where move numbers are tokens, the next token is
/// then that number, and the same is read either way.
fn next_token(raw: &RawGame, index: usize) -> Option<&Token> {
    let token = raw.tokens.get(index)?;
    if token.number_follows {
        return None;
    }
    raw.tokens.get(index + 1)
}

/// Whether `token` may be an en passant mark (`is_en_passant_mark`): its second byte is
/// `.` or `p`, as a move's hardly ever is. A test nearly always false, asked first so that
/// the branch is one the predictor gets right (whether the move before captures and what
/// kind of token follows change from move to move). A one-byte token's second byte is
/// the byte after it: no harm in a filter.
#[inline(always)]
fn may_be_en_passant_mark(raw: &RawGame, token: &Token) -> bool {
    matches!(
        raw.bytes.get(token.span.start as usize + 1),
        Some(b'.' | b'p')
    )
}

/// `e.p.` (or `ep`) written as its own token after a pawn capture.
#[inline]
fn is_en_passant_mark(raw: &RawGame, token: &Token) -> bool {
    token.kind == TokenKind::Word && matches!(raw.token_text(token), b"e.p." | b"ep" | b"e.p")
}

/// `e8 (Q)`: a pawn move to the last rank followed by a one-letter "variation" naming
/// the promotion piece. Returns the piece letter, upper-cased.
fn parenthesised_promotion(raw: &RawGame, index: usize) -> Option<u8> {
    let open = next_token(raw, index)?;
    if open.kind != TokenKind::VariationStart {
        return None;
    }
    let (piece, close) = (next_token(raw, index + 1)?, next_token(raw, index + 2)?);
    if !matches!(piece.kind, TokenKind::Word | TokenKind::Glyph)
        || close.kind != TokenKind::VariationEnd
    {
        return None;
    }
    let [letter] = raw.token_text(piece) else {
        return None;
    };
    let letter = letter.to_ascii_uppercase();
    if !matches!(letter, b'Q' | b'R' | b'B' | b'N') {
        return None;
    }
    let text = raw.tokens.get(index).map(|t| raw.token_text(t))?;
    match San::from_ascii(text).ok()? {
        San::Normal {
            role: shakmaty::Role::Pawn,
            to,
            promotion: None,
            ..
        } if matches!(to.rank(), shakmaty::Rank::First | shakmaty::Rank::Eighth) => Some(letter),
        _ => None,
    }
}
