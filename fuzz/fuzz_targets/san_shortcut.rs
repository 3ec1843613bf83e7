//! The replay's SAN shortcut against shakmaty: in positions built from the bytes (legal
//! moves chosen by the bytes from a start position, or pieces placed by them), for every
//! legal move written every way and for SANs made of the bytes,
//! `piece_move::resolve` must give `San::to_move`'s move or nothing, and must give it when
//! the position is not in check and the move is not en passant; `king_can_step` must tell
//! whether the king has a legal step.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnkit::rules::replay::piece_move::{king_can_step, resolve};
use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::{
    Bitboard, CastlingMode, Chess, Color, File, FromSetup, Move, Piece, Position, PositionError,
    Rank, Role, Setup, Square,
};

/// Start positions for the move walk: the standard one, one full of pins and en passant
/// chances, an endgame, and two Chess960 ones.
const STARTS: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1",
];

/// Reads bytes one at a time; past the end every byte is 0.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

fn square(b: u8) -> Square {
    Square::ALL[usize::from(b % 64)]
}

fn fen(pos: &Chess) -> String {
    Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string()
}

/// A position reached by legal moves the bytes choose from one of `STARTS`.
fn walk(selector: u8, bytes: &mut Bytes<'_>, check_each: bool) -> Option<Chess> {
    let start = STARTS[usize::from(selector >> 2) % STARTS.len()];
    let mode = if selector & 2 != 0 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let fen: Fen = start.parse().ok()?;
    let mut pos: Chess = fen.into_position(mode).ok()?;
    let plies = bytes.next() % 160;
    for _ in 0..plies {
        if check_each {
            check_position(&pos);
        }
        let moves = pos.legal_moves();
        if moves.is_empty() || bytes.is_empty() {
            break;
        }
        let m = moves[usize::from(bytes.next()) % moves.len()];
        pos.play_unchecked(m);
    }
    Some(pos)
}

/// A position of two kings and up to 31 more pieces placed by the bytes; `None` when
/// shakmaty does not accept it (as the replay would not).
fn place(selector: u8, bytes: &mut Bytes<'_>) -> Option<Chess> {
    let mut setup = Setup::empty();
    setup.turn = if selector & 4 != 0 {
        Color::Black
    } else {
        Color::White
    };
    setup
        .board
        .set_piece_at(square(bytes.next()), Color::White.king());
    setup
        .board
        .set_piece_at(square(bytes.next()), Color::Black.king());
    let pieces = bytes.next() % 32;
    for _ in 0..pieces {
        let sq = square(bytes.next());
        let b = bytes.next();
        let color = if b & 1 != 0 {
            Color::Black
        } else {
            Color::White
        };
        let role = Role::ALL[usize::from((b >> 1) % 5)];
        if setup.board.king_of(Color::White) != Some(sq)
            && setup.board.king_of(Color::Black) != Some(sq)
        {
            setup.board.set_piece_at(sq, Piece { color, role });
        }
    }
    // Castling rights on corner rooks, an en passant square from the next byte.
    let corners = Bitboard::CORNERS & setup.board.rooks();
    let rights = bytes.next();
    setup.castling_rights = corners
        .into_iter()
        .enumerate()
        .filter(|(i, _)| rights & (1 << i) != 0)
        .map(|(_, sq)| sq)
        .collect();
    let ep = bytes.next();
    setup.ep_square = (ep & 0x80 != 0).then(|| square(ep));
    let mode = if selector & 2 != 0 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    Chess::from_setup(setup, mode)
        .or_else(PositionError::ignore_invalid_castling_rights)
        .or_else(PositionError::ignore_invalid_ep_square)
        .or_else(PositionError::ignore_too_much_material)
        .ok()
}

/// One SAN: the shortcut's answer must be shakmaty's or nothing, and must be shakmaty's
/// whenever the shortcut is meant to handle the move.
fn check_san(pos: &Chess, san: &San) {
    let expected = san.to_move(pos).ok();
    let fast = resolve(pos, pos.is_check(), *san);
    if let Some(m) = fast {
        assert_eq!(Some(m), expected, "{san} in {}", fen(pos));
    }
    let meant = !pos.is_check()
        && matches!(
            san,
            San::Normal {
                promotion: None,
                ..
            }
        )
        && expected.is_some_and(|m| !m.is_en_passant() && !m.is_castle());
    if meant {
        assert_eq!(fast, expected, "{san} missed in {}", fen(pos));
    }
}

/// The king-step test and every legal move written with each disambiguation.
fn check_position(pos: &Chess) {
    let moves = pos.legal_moves();
    let king_steps = moves
        .iter()
        .any(|m| m.role() == Role::King && !m.is_castle());
    assert_eq!(king_can_step(pos), king_steps, "{}", fen(pos));
    for m in &moves {
        let &Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } = m
        else {
            check_san(pos, &San::from_move(pos, *m));
            continue;
        };
        for (file, rank) in [
            (None, None),
            (Some(from.file()), None),
            (None, Some(from.rank())),
            (Some(from.file()), Some(from.rank())),
        ] {
            for capture in [capture.is_some(), capture.is_none()] {
                let san = San::Normal {
                    role,
                    file,
                    rank,
                    capture,
                    to,
                    promotion,
                };
                check_san(pos, &san);
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes(data);
    let selector = bytes.next();
    let pos = if selector & 1 == 0 {
        walk(selector, &mut bytes, selector & 0x80 != 0)
    } else {
        place(selector, &mut bytes)
    };
    let Some(pos) = pos else {
        return;
    };
    check_position(&pos);
    // SANs made of the rest of the bytes, three at a time, legal or not.
    while !bytes.is_empty() {
        let (a, b, c) = (bytes.next(), bytes.next(), bytes.next());
        let role = Role::ALL[usize::from(a % 6)];
        let promotion = (a & 0x40 != 0).then(|| Role::ALL[usize::from((a >> 3) % 6)]);
        let file = (c & 1 != 0).then(|| File::ALL[usize::from((c >> 1) % 8)]);
        let rank = (c & 0x10 != 0).then(|| Rank::ALL[usize::from((c >> 5) % 8)]);
        let san = San::Normal {
            role,
            file,
            rank,
            capture: a & 0x80 != 0,
            to: square(b),
            promotion,
        };
        check_san(&pos, &san);
    }
});
