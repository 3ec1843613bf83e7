//! What `pgnkit moves` writes of each main-line move (SPEC.md "moves"): the facts of the
//! move and the position after it, gathered as the replay plays it (`MoveLog`, a
//! `PlyVisitor`), then the move's comments, NAGs, clock, move time and evaluation, read
//! from the main line's tokens by the one walk of the movetext (`movetext::walk_known`,
//! fed the moves the replay played), the one reader of move comments
//! (`annotations::read_move_comment`) and the one walk of the clocks
//! (`clocks::timeline`).

use std::ops::Range;

use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, Color, EnPassantMode, Move, Position};

use crate::pgn::{RawGame, TokenKind};
use crate::rules::clocks::{self, MoveClock};
use crate::rules::draw::polyglot_key;
use crate::rules::fen::setup::start_position;
use crate::rules::fen::style::{FenStyle, RankCache};
use crate::rules::replay::annotations::{Eval, read_move_comment};
use crate::rules::replay::movetext::{WalkStep, walk_known};
use crate::rules::time_control::{Declared, Millis, TimeControl};
use crate::rules::{GameReport, PlyMove, PlyVisitor, ReplayOptions};

/// One main-line move; its texts are ranges of `MoveLog::text` (its FEN, of
/// `MoveLog::fens`).
#[derive(Debug, Clone)]
pub struct MoveFacts {
    pub ply: u32,
    pub move_number: u32,
    pub mover: Color,
    pub m: Move,
    san: Range<usize>,
    uci: Range<usize>,
    fen: Range<usize>,
    nags: Range<usize>,
    comment: Range<usize>,
    /// The UCI move's squares.
    pub from: Option<shakmaty::Square>,
    pub to: Option<shakmaty::Square>,
    pub check: bool,
    pub mate: bool,
    /// PolyGlot's key of the position after the move.
    pub key: u64,
    pub halfmove_clock: u32,
    pub repetition: u32,
    pub clock: Option<Millis>,
    pub move_time: Option<Millis>,
    pub eval: Option<Eval>,
}

/// The moves of one game, as the replay reaches them.
pub struct MoveLog {
    /// `Some`: each move's FEN is written, in this style.
    fen: Option<FenStyle>,
    ranks: RankCache,
    /// The moves' texts (SAN, UCI, NAGs, comments), back to back: text already, so that
    /// reading a cell checks no UTF-8 (a fifth of the SAN, UCI and NAG cells' cost).
    text: String,
    /// The FENs (`--fen`), back to back, as their writer makes them.
    fens: Vec<u8>,
    pub moves: Vec<MoveFacts>,
    first_mover: Color,
}

impl MoveLog {
    pub fn new(fen: Option<FenStyle>) -> MoveLog {
        MoveLog {
            fen,
            ranks: RankCache::default(),
            text: String::new(),
            fens: Vec::new(),
            moves: Vec::new(),
            first_mover: Color::White,
        }
    }

    fn str(&self, range: &Range<usize>) -> &str {
        self.text.get(range.clone()).unwrap_or_default()
    }

    pub fn san(&self, m: &MoveFacts) -> &str {
        self.str(&m.san)
    }

    pub fn uci(&self, m: &MoveFacts) -> &str {
        self.str(&m.uci)
    }

    pub fn fen(&self, m: &MoveFacts) -> &str {
        let bytes = self.fens.get(m.fen.clone()).unwrap_or_default();
        std::str::from_utf8(bytes).unwrap_or_default()
    }

    pub fn nags(&self, m: &MoveFacts) -> &str {
        self.str(&m.nags)
    }

    pub fn comment(&self, m: &MoveFacts) -> &str {
        self.str(&m.comment)
    }

    /// Appends `f`'s text to `text`; its range.
    fn push(&mut self, f: impl FnOnce(&mut String)) -> Range<usize> {
        let start = self.text.len();
        f(&mut self.text);
        start..self.text.len()
    }

    /// Reads the main line's comments and NAGs (and `comments`: the comments' text), then
    /// the clocks through the game's time control.
    pub fn annotate(
        &mut self,
        raw: &RawGame,
        report: &GameReport,
        options: &ReplayOptions,
        comments: bool,
    ) {
        let annotated = raw
            .tokens
            .iter()
            .any(|t| matches!(t.kind, TokenKind::Comment | TokenKind::Nag));
        if !annotated || self.moves.is_empty() {
            return;
        }
        let Ok((start, _)) = start_position(&report.tags) else {
            return;
        };
        let known: Vec<Move> = self.moves.iter().map(|m| m.m).collect();
        // Per move: the first clock and move time (for the timeline), the comments' text.
        let mut times: Vec<MoveClock> = Vec::new();
        let mut texts: Vec<(usize, String, String)> = Vec::new();
        let (mut depth, mut ply) = (0u32, 0u32);
        for step in walk_known(raw, &start, options, &known) {
            match step {
                WalkStep::VariationStart => depth += 1,
                WalkStep::VariationEnd => depth = depth.saturating_sub(1),
                _ if depth > 0 => {}
                WalkStep::Move { ply: p, .. } => ply = p,
                WalkStep::Illegal { .. } => break,
                WalkStep::Comment(token) | WalkStep::Nag(token) if ply > 0 => {
                    let index = ply as usize - 1;
                    let Some(facts) = self.moves.get_mut(index) else {
                        break;
                    };
                    let text = raw.token_text(&token);
                    if texts.last().is_none_or(|(i, _, _)| *i != index) {
                        texts.push((index, String::new(), String::new()));
                    }
                    let Some((_, nags, comment)) = texts.last_mut() else {
                        break;
                    };
                    if token.kind == TokenKind::Nag {
                        let nag = nag_text(text);
                        if !nag.is_empty() {
                            if !nags.is_empty() {
                                nags.push(' ');
                            }
                            nags.push_str(&nag);
                        }
                        continue;
                    }
                    if let Some(found) = read_move_comment(text, facts.mover) {
                        facts.eval = facts.eval.or(found.eval);
                        match times.last_mut() {
                            Some(last) if last.ply == facts.ply => {
                                last.clock = last.clock.or(found.clock);
                                last.time = last.time.or(found.move_time);
                            }
                            _ if found.clock.is_some() || found.move_time.is_some() => {
                                times.push(MoveClock {
                                    ply: facts.ply,
                                    mover: facts.mover,
                                    clock: found.clock,
                                    time: found.move_time,
                                    line: raw.token_line(&token),
                                })
                            }
                            _ => {}
                        }
                    }
                    if comments {
                        let body = without_commands(text);
                        if !body.is_empty() {
                            if !comment.is_empty() {
                                comment.push(' ');
                            }
                            comment.push_str(&body);
                        }
                    }
                }
                _ => {}
            }
        }
        for (index, nags, comment) in texts {
            let nags = self.push(|text| text.push_str(&nags));
            let comment = self.push(|text| text.push_str(&comment));
            if let Some(facts) = self.moves.get_mut(index) {
                facts.nags = nags;
                facts.comment = comment;
            }
        }
        if times.is_empty() {
            return;
        }
        let control = match TimeControl::read(report.tags.get("TimeControl")) {
            Declared::Known(control) => Some(control),
            Declared::Unknown | Declared::Bad => None,
        };
        let game = clocks::TimedGame {
            moves: &times,
            plies: u32::try_from(self.moves.len()).unwrap_or(u32::MAX),
            first_mover: self.first_mover,
            lost_on_time: None,
        };
        for timed in clocks::timeline(&game, control.as_ref()) {
            let index = (timed.ply as usize).saturating_sub(1);
            if let Some(facts) = self.moves.get_mut(index) {
                facts.clock = timed.clock;
                facts.move_time = timed.time;
            }
        }
    }
}

/// `$N` as written, or the symbol as its NAG (`!` is `$1` .. `?!` is `$6`).
fn nag_text(text: &[u8]) -> String {
    let nag = match text {
        b"!" => "$1",
        b"?" => "$2",
        b"!!" => "$3",
        b"??" => "$4",
        b"!?" => "$5",
        b"?!" => "$6",
        _ => return String::from_utf8_lossy(text).into_owned(),
    };
    nag.to_string()
}

/// A comment's text without its braces (or `;`) and its `[%...]` commands, its white
/// space trimmed.
fn without_commands(text: &[u8]) -> String {
    let text = match text {
        [b'{', body @ .., b'}'] => body,
        [b'{', body @ ..] | [b';', body @ ..] => body,
        body => body,
    };
    let text = String::from_utf8_lossy(text);
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_ref();
    while let Some(at) = rest.find("[%") {
        out.push_str(rest.get(..at).unwrap_or_default());
        let after = rest.get(at..).unwrap_or_default();
        rest = match after.find(']') {
            Some(end) => after.get(end + 1..).unwrap_or_default(),
            None => "",
        };
    }
    out.push_str(rest);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl PlyVisitor for MoveLog {
    fn position(&mut self, ply: u32, step: Option<PlyMove<'_>>, pos: &Chess) {
        let Some(step) = step else {
            self.first_mover = pos.turn();
            self.moves.reserve(128);
            self.text.reserve(64 * 128);
            return;
        };
        let mover = !pos.turn();
        let uci = step.m.to_uci(pos.castles().mode());
        let (from, to) = match uci {
            UciMove::Normal { from, to, .. } => (Some(from), Some(to)),
            UciMove::Put { to, .. } => (None, Some(to)),
            UciMove::Null => (None, None),
        };
        let san = self.push(|text| text.push_str(&String::from_utf8_lossy(step.san)));
        let uci = self.push(|text| {
            for square in [from, to].into_iter().flatten() {
                text.push_str(square_name(square));
            }
            if let UciMove::Normal {
                promotion: Some(role),
                ..
            } = uci
            {
                text.push(role.char());
            }
        });
        let fen = match self.fen {
            Some(style) => {
                let start = self.fens.len();
                style.write_bytes(pos, &mut self.ranks, &mut self.fens);
                start..self.fens.len()
            }
            None => 0..0,
        };
        let key = match step.key {
            Some(key) => polyglot_key(key, pos),
            None => pos.zobrist_hash::<Zobrist64>(EnPassantMode::PseudoLegal).0,
        };
        let fullmoves = u32::from(pos.fullmoves());
        self.moves.push(MoveFacts {
            ply,
            move_number: if mover.is_white() {
                fullmoves
            } else {
                fullmoves.saturating_sub(1)
            },
            mover,
            m: step.m,
            san,
            uci,
            fen,
            nags: 0..0,
            comment: 0..0,
            from,
            to,
            check: matches!(step.san.last(), Some(b'+' | b'#')),
            mate: step.san.last() == Some(&b'#'),
            key,
            halfmove_clock: pos.halfmoves(),
            // The replay's own count (the draw rules'), not worked out again here.
            repetition: step.repetition,
            clock: None,
            move_time: None,
            eval: None,
        });
    }
}

/// A square's name (`e4`), without the formatter.
pub fn square_name(square: shakmaty::Square) -> &'static str {
    const NAMES: [&str; 64] = [
        "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "a2", "b2", "c2", "d2", "e2", "f2", "g2",
        "h2", "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "a4", "b4", "c4", "d4", "e4", "f4",
        "g4", "h4", "a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "a6", "b6", "c6", "d6", "e6",
        "f6", "g6", "h6", "a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7", "a8", "b8", "c8", "d8",
        "e8", "f8", "g8", "h8",
    ];
    NAMES.get(usize::from(square)).copied().unwrap_or_default()
}

/// A piece's upper-case letter (`P N B R Q K`).
pub fn role_letter(role: shakmaty::Role) -> &'static str {
    match role {
        shakmaty::Role::Pawn => "P",
        shakmaty::Role::Knight => "N",
        shakmaty::Role::Bishop => "B",
        shakmaty::Role::Rook => "R",
        shakmaty::Role::Queen => "Q",
        shakmaty::Role::King => "K",
    }
}
