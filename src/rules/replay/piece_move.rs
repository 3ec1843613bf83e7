//! A shortcut for the commonest moves of a game: a piece move, a king step or a pawn
//! move (not a promotion, not en passant), in check or not.
//! shakmaty's `San::to_move` generates the candidate moves into a 256-entry list and
//! filters it, which was a fifth of a replay's time; here the candidates come straight
//! from shakmaty's attack tables, and each is kept only if it leaves the king unattacked
//! (shakmaty's `Board::attacks_to`); in check, it must also take or block the one
//! checker. Anything else (castling, promotions, en passant, a double check, no or
//! several candidates, a SAN that does not fit the board)
//! returns `None` and goes through `San::to_move`, which also explains the failures, so
//! the answer is always shakmaty's. The differential tests below hold the two together.

use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::{
    Bitboard, CastlingSide, Chess, Color, File, Move, Position, Rank, Role, Square, attacks,
};

/// The commonest SANs read without shakmaty's general parser: a piece or pawn move without
/// a rank to tell pieces apart and without promotion (`e4`, `exd5`, `Nf3`, `Nbd7`,
/// `Qxe5+`), or castling, with an optional `+` or `#`. Anything else gives `None` and is
/// read by `SanPlus::from_ascii`; what this reads, shakmaty reads the same (a test below
/// holds them together).
// Inlined into the replay's read of a move: returned through memory, its answer cost
// the caller a third as much again.
#[inline(always)]
pub fn quick_san(text: &[u8]) -> Option<SanPlus> {
    let (body, suffix) = match text {
        [body @ .., b'+'] => (body, Some(Suffix::Check)),
        [body @ .., b'#'] => (body, Some(Suffix::Checkmate)),
        _ => (text, None),
    };
    let castle = |side| {
        Some(SanPlus {
            san: San::Castle(side),
            suffix,
        })
    };
    // One arm per length and shape (slice patterns compile to a switch on the length):
    // `O-O`, `O-O-O`, `e4`, `Nf3`, `exd5` / `Nxf3`, `Nbd7`, `Nbxd7`. Castling is in the
    // same switch: tested apart first, it cost every move 6 instructions.
    let (role, file, capture, to) = match *body {
        [b'O', b'-', b'O'] => return castle(CastlingSide::KingSide),
        [b'O', b'-', b'O', b'-', b'O'] => return castle(CastlingSide::QueenSide),
        [file, rank] => (Role::Pawn, None, false, square(file, rank)?),
        [piece, file, rank] => (piece_role(piece)?, None, false, square(file, rank)?),
        [from @ b'a'..=b'h', b'x', file, rank] => {
            (Role::Pawn, Some(file_of(from)), true, square(file, rank)?)
        }
        [piece, b'x', file, rank] => (piece_role(piece)?, None, true, square(file, rank)?),
        [piece, from @ b'a'..=b'h', file, rank] => (
            piece_role(piece)?,
            Some(file_of(from)),
            false,
            square(file, rank)?,
        ),
        [piece, from @ b'a'..=b'h', b'x', file, rank] => (
            piece_role(piece)?,
            Some(file_of(from)),
            true,
            square(file, rank)?,
        ),
        _ => return None,
    };
    Some(SanPlus {
        san: San::Normal {
            role,
            file,
            rank: None,
            capture,
            to,
            promotion: None,
        },
        suffix,
    })
}

/// The piece a SAN letter names (a pawn has none): looked up in a table, as a `match`
/// compiles to a jump whose target changes with nearly every move.
#[inline(always)]
fn piece_role(letter: u8) -> Option<Role> {
    PIECE_ROLES.get(usize::from(letter)).copied().flatten()
}

/// `piece_role`'s table, by byte.
#[allow(
    clippy::indexing_slicing,
    reason = "evaluated at compile time: an index out of range fails the build"
)]
const PIECE_ROLES: [Option<Role>; 256] = {
    let mut table = [None; 256];
    table[b'N' as usize] = Some(Role::Knight);
    table[b'B' as usize] = Some(Role::Bishop);
    table[b'R' as usize] = Some(Role::Rook);
    table[b'Q' as usize] = Some(Role::Queen);
    table[b'K' as usize] = Some(Role::King);
    table
};

/// The file of a letter already known to be `a` to `h`.
#[inline(always)]
fn file_of(letter: u8) -> File {
    File::new(u32::from(letter.wrapping_sub(b'a')) & 7)
}

#[inline(always)]
fn square(file: u8, rank: u8) -> Option<Square> {
    match (file, rank) {
        (b'a'..=b'h', b'1'..=b'8') => Some(Square::from_coords(
            file_of(file),
            Rank::new(u32::from(rank - b'1')),
        )),
        _ => None,
    }
}

/// The move a SAN names, when it names exactly one legal move and the position is one the
/// shortcut handles; `None` means "ask `San::to_move`". `in_check` is `pos.is_check()`,
/// which the replay already knows from the move before.
#[inline(always)]
pub fn resolve(pos: &Chess, in_check: bool, san: San) -> Option<Move> {
    let San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion: None,
    } = san
    else {
        return None;
    };
    let board = pos.board();
    let turn = pos.turn();
    let us = board.by_color(turn);
    if us.contains(to) || board.occupied().contains(to) != capture {
        return None; // shakmaty explains (an en passant capture goes there too)
    }
    // The first king: a legal position has one a side (`king_of` also tests that there
    // is no second, 4 instructions a move).
    let king = (board.kings() & us).first()?;
    let them = !turn;
    let occupied = board.occupied();
    if in_check && role != Role::King {
        // In check, a piece or pawn must take the one checker or step between it and the
        // king; against two checkers only the king moves (shakmaty explains).
        let checker = board.attacks_to(king, them, occupied).single_square()?;
        if to != checker && !attacks::between(king, checker).contains(to) {
            return None;
        }
    }
    let from_squares = match role {
        Role::King => {
            // A step of the king (castling is `O-O`, or a two-square `Kg1`: shakmaty's).
            if !attacks::king_attacks(king).contains(to)
                || board.attacks_to(to, them, occupied.without(king)).any()
            {
                return None;
            }
            Bitboard::from_square(king)
        }
        Role::Pawn => pawn_origin(pos, to, capture)?,
        // Each role's own lookup: `attacks::attacks` dispatches on the role out of line.
        Role::Knight => attacks::knight_attacks(to) & board.by_piece(role.of(turn)),
        Role::Bishop => attacks::bishop_attacks(to, occupied) & board.by_piece(role.of(turn)),
        Role::Rook => attacks::rook_attacks(to, occupied) & board.by_piece(role.of(turn)),
        Role::Queen => attacks::queen_attacks(to, occupied) & board.by_piece(role.of(turn)),
    };
    let from_squares = from_squares
        & file.map_or(Bitboard::FULL, Bitboard::from_file)
        & rank.map_or(Bitboard::FULL, Bitboard::from_rank);
    let mut found = None;
    for from in from_squares {
        if role != Role::King && !leaves_king_safe(pos, king, from, to) {
            continue;
        }
        if found.is_some() {
            return None; // ambiguous: shakmaty says so
        }
        found = Some(from);
    }
    let from = found?;
    Some(Move::Normal {
        role,
        from,
        // `to` is occupied exactly when the SAN captures (checked above).
        capture: if capture { board.role_at(to) } else { None },
        to,
        promotion: None,
    })
}

/// Where a pawn move to `to` (not a promotion, not en passant) can come from: one square
/// behind (or two, from the pawn's first rank over an empty square), or diagonally behind
/// for a capture.
fn pawn_origin(pos: &Chess, to: Square, capture: bool) -> Option<Bitboard> {
    let turn = pos.turn();
    let board = pos.board();
    if Bitboard::BACKRANKS.contains(to) {
        return None; // a promotion, or no pawn move at all
    }
    let pawns = board.by_piece(Role::Pawn.of(turn));
    if capture {
        // The squares a pawn of ours would capture on `to` from.
        return Some(attacks::pawn_attacks(!turn, to) & pawns);
    }
    let back = |sq: Square| match turn {
        Color::White => sq.offset(-8),
        Color::Black => sq.offset(8),
    };
    let one = back(to)?;
    if pawns.contains(one) {
        return Some(Bitboard::from_square(one));
    }
    let two = back(one)?;
    let double_step_rank = match turn {
        Color::White => Rank::Fourth,
        Color::Black => Rank::Fifth,
    };
    if to.rank() == double_step_rank && !board.occupied().contains(one) && pawns.contains(two) {
        return Some(Bitboard::from_square(two));
    }
    Some(Bitboard::EMPTY)
}

/// Whether the king of the side to move has a legal step (castling aside): then the side
/// is not checkmated, which spares generating every evasion after most checks.
pub fn king_can_step(pos: &Chess) -> bool {
    let board = pos.board();
    let turn = pos.turn();
    let Some(king) = board.king_of(turn) else {
        return false;
    };
    let occupied = board.occupied().without(king);
    (attacks::king_attacks(king) & !board.by_color(turn))
        .into_iter()
        .any(|to| board.attacks_to(to, !turn, occupied).is_empty())
}

/// Whether moving the piece on `from` to `to` leaves the king on `king` safe, when the
/// king is not in check or `to` takes or blocks its one checker: only a piece on a line
/// with the king can uncover an attack on it, and only if an enemy bishop, rook or queen
/// stands on that line (at most moves none does, and no attack is looked up). (The test
/// of the line inlined where it is asked, at nearly every move: as a call, it cost more
/// than the test.)
#[inline(always)]
fn leaves_king_safe(pos: &Chess, king: Square, from: Square, to: Square) -> bool {
    let board = pos.board();
    let sliders = (board.bishops() | board.rooks() | board.queens()) & board.by_color(!pos.turn());
    (attacks::ray(king, from) & sliders).is_empty() || no_slider_behind(pos, king, from, to)
}

/// For `leaves_king_safe`, the piece on `from` being on a line with the king: the only
/// attack left or made is then a slider's behind `from`, the enemy bishops, rooks and
/// queens seen from the king (one captured on `to` excepted, and a checker blocked on
/// `to` stopped by the piece that moved there).
fn no_slider_behind(pos: &Chess, king: Square, from: Square, to: Square) -> bool {
    let board = pos.board();
    let occupied = board.occupied().without(from).with(to);
    let them = board.by_color(!pos.turn()).without(to);
    let diagonal = attacks::bishop_attacks(king, occupied) & board.bishops_and_queens();
    let straight = attacks::rook_attacks(king, occupied) & board.rooks_and_queens();
    ((diagonal | straight) & them).is_empty()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::panic, reason = "a test fails loudly")]

    use shakmaty::fen::Fen;
    use shakmaty::san::San;
    use shakmaty::{CastlingMode, Chess, File, Position, Rank, Role, Square};

    use super::{king_can_step, quick_san, resolve};

    /// Every SAN-like word of up to six bytes over the letters SAN uses: what the quick
    /// reader reads, shakmaty reads the same, and it reads the common forms.
    #[test]
    fn quick_san_reads_as_shakmaty_does() {
        let firsts = [
            "", "N", "B", "R", "Q", "K", "P", "n", "b", "O", "0", "x", "-",
        ];
        let seconds = ["", "a", "e", "h", "1", "8", "x", "i", "-"];
        let thirds = ["", "x", ":", "e", "4", "-"];
        let squares = ["a1", "e4", "h8", "d5", "i4", "e9", "e", "4", "", "O", "O-O"];
        let ends = ["", "+", "#", "++", "=Q", "!", "-O", "-O-O"];
        let mut read = 0;
        for a in firsts {
            for b in seconds {
                for c in thirds {
                    for d in squares {
                        for e in ends {
                            let text = format!("{a}{b}{c}{d}{e}");
                            if let Some(quick) = quick_san(text.as_bytes()) {
                                read += 1;
                                let full = shakmaty::san::SanPlus::from_ascii(text.as_bytes());
                                assert_eq!(full.ok(), Some(quick), "{text}");
                            }
                        }
                    }
                }
            }
        }
        assert!(read > 500, "{read}");
        for common in [
            "e4", "exd5", "Nf3", "Nbd7", "Qxe5+", "O-O", "O-O-O#", "Kxh8", "Rae1",
        ] {
            assert!(quick_san(common.as_bytes()).is_some(), "{common}");
        }
        for other in [
            "e8=Q", "R1e2", "Pe4", "xe5", "ed5", "0-0", "--", "Nf3!", "e4++",
        ] {
            assert!(quick_san(other.as_bytes()).is_none(), "{other}");
        }
    }

    /// Every SAN a piece could be written with in `pos` (every role, target, and
    /// disambiguation, legal or not): the shortcut must give shakmaty's move or nothing,
    /// and must find the legal unambiguous ones.
    fn assert_agrees(pos: &Chess) {
        let king_steps = pos
            .legal_moves()
            .iter()
            .any(|m| m.role() == Role::King && !m.is_castle());
        assert_eq!(king_can_step(pos), king_steps, "{}", fen(pos));
        let files = std::iter::once(None).chain(File::ALL.into_iter().map(Some));
        let ranks: Vec<Option<Rank>> = std::iter::once(None)
            .chain(Rank::ALL.into_iter().map(Some))
            .collect();
        for file in files {
            for &rank in &ranks {
                for role in Role::ALL {
                    for to in Square::ALL {
                        for capture in [false, true] {
                            let san = San::Normal {
                                role,
                                file,
                                rank,
                                capture,
                                to,
                                promotion: None,
                            };
                            let expected = san.to_move(pos).ok();
                            let fast = resolve(pos, pos.is_check(), san);
                            // Left to shakmaty: double checks, en passant, castling.
                            let declined = pos.checkers().more_than_one()
                                || expected.is_some_and(|m| m.is_en_passant() || m.is_castle());
                            if fast.is_some() || !declined {
                                assert_eq!(fast, expected, "{san} in {}", fen(pos));
                            }
                            if role == Role::King && expected.is_some() {
                                assert!(king_can_step(pos), "{san} in {}", fen(pos));
                            }
                        }
                    }
                }
            }
        }
    }

    fn fen(pos: &Chess) -> String {
        Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string()
    }

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Chess960)
            .or_else(shakmaty::PositionError::ignore_too_much_material)
            .unwrap_or_else(|err| panic!("{fen}: {err}"))
    }

    #[test]
    fn agrees_with_shakmaty_on_pins_ambiguity_captures_and_checks() {
        for fen in [
            // The start position and a busy middlegame.
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 4 8",
            // Pinned knight and bishop (on a file and a diagonal), and a rook pinned on a
            // file that may still move along it.
            "4r1k1/8/8/8/1b6/2N5/3B4/4K3 w - - 0 1",
            "4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1",
            // Two knights and two rooks that can reach the same square, one of them pinned.
            "1k6/8/8/1N3N2/8/8/8/R3K2R w - - 0 1",
            "k3r3/8/8/8/8/2N5/4N3/4K3 w - - 0 1",
            // Promoted pieces: three queens.
            "6k1/8/8/8/Q3Q3/8/8/Q3K3 w - - 0 1",
            // In check: the king steps or takes; a piece takes the checker or blocks it,
            // unless pinned; a pawn blocks with a push or a double step, or takes (en
            // passant: shakmaty's); against two checkers only the king moves.
            "4k3/8/8/8/8/8/3q4/R3K1N1 w - - 0 1",
            "4r1k1/8/8/b7/8/2N5/3B4/4K2R w K - 0 1",
            "4r1k1/8/8/b7/8/8/3N4/4K3 w - - 0 1",
            "4k3/8/8/8/8/3n4/8/1B2K3 w - - 0 1",
            "4k3/8/8/b7/8/8/2P5/4K3 w - - 0 1",
            "4k3/8/8/8/r6K/8/2PP4/8 w - - 0 1",
            "4k3/8/8/3pP3/4K3/8/8/8 w - d6 0 2",
            "4k3/8/8/8/8/5n2/8/R3K2r w - - 0 1",
            "r3k3/8/8/8/8/8/1B6/4K3 b - - 0 1",
            // Black to move, with a pinned piece.
            "4k3/4n3/8/8/8/8/8/4R1K1 b - - 0 1",
            // Pawns: pinned on a file (may push), pinned on a diagonal (may not), a blocked
            // double step, a pawn about to promote, an en passant capture.
            "4k3/4r3/8/8/8/8/4P3/4K3 w - - 0 1",
            "4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1",
            "4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1",
            "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
            "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1",
            // Kings: squares covered by a rook, by a protected pawn, and through the king.
            "4k3/8/8/8/8/8/r7/4K3 w - - 0 1",
            "4k3/8/8/8/8/2b5/3p4/5K2 w - - 0 1",
            "8/8/8/8/8/8/8/r2K1k2 w - - 0 1",
            // Mates: back rank, smothered, and a check the king escapes by capturing.
            "6k1/5ppp/8/8/8/8/8/3R2K1 b - - 0 1",
            "3R2k1/5ppp/8/8/8/8/8/6K1 b - - 0 1",
            "6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1",
            "6k1/5pQp/8/8/8/8/8/6K1 b - - 0 1",
            "6k1/5pQp/6p1/8/8/8/1B6/6K1 b - - 0 1",
        ] {
            let pos = position(fen);
            assert_agrees(&pos);
            if king_can_step(&pos) {
                assert!(!pos.is_checkmate(), "{fen}");
            }
        }
        assert!(!king_can_step(&position(
            "3R2k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"
        )));
        assert!(king_can_step(&position("6k1/5pQp/8/8/8/8/8/6K1 b - - 0 1")));
    }

    /// Every position of two real games, both sides.
    #[test]
    fn agrees_with_shakmaty_along_games() {
        for moves in [
            "d4 Nf6 c4 e6 Nc3 Bb4 e3 O-O Bd3 d5 Nf3 c5 O-O Nc6 a3 Bxc3 bxc3 dxc4 Bxc4 Qc7 \
             Bd3 e5 Qc2 Re8 Nxe5 Nxe5 dxe5 Qxe5 f3 Bd7 e4 c4 Be2 Qc5+ Kh1 Bc6",
            "e4 Nf6 e5 d5 exd6 Nc6 d4 Bf5 d5 e5 dxe6 Qd7 a4 b5 axb5 Nb4 Nf3 O-O-O Rxa7 Kb8 \
             Ra1 h5 h4 g5 hxg5 Rh7 g6 Rh8 Ra4 Qxe6+ Be2 Qe4",
        ] {
            let mut pos = Chess::default();
            assert_agrees(&pos);
            for text in moves.split_whitespace() {
                let m = text.parse::<San>().unwrap().to_move(&pos).unwrap();
                pos.play_unchecked(m);
                assert_agrees(&pos);
            }
        }
    }
}
