//! The labelled sets of `chasolver` (testdata/chasolver/, MIT, with the crate's notice),
//! decided position by position as labelled (SPEC.md "Who can still mate").
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    reason = "a test fails loudly"
)]

use shakmaty::{Chess, Color, Position};

use super::{MateCheck, Wanted, analyse, analyse_wanted};
use crate::rules::fen::check;

/// One labelled position: the FEN and whether White / Black can mate.
struct Labelled {
    fen: String,
    white_can: bool,
    black_can: bool,
}

fn labelled(name: &str) -> Vec<Labelled> {
    let path = format!("{}/testdata/chasolver/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    text.lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| {
            let (label, fen) = line.split_once(' ').unwrap();
            assert!(["WB", "W-", "-B", "--"].contains(&label), "{line}");
            Labelled {
                fen: fen.to_string(),
                white_can: label.starts_with('W'),
                black_can: label.ends_with('B'),
            }
        })
        .collect()
}

/// What a labelled set holds, as pgnkit sees it.
#[derive(Debug, Default, PartialEq, Eq)]
struct Tally {
    /// Not accepted as a `[FEN]` (more material than a game can have).
    rejected: usize,
    checkmates: usize,
    stalemates: usize,
    /// Analysed, and every side decided as labelled.
    decided: usize,
    /// Sides labelled unable to mate that the level left undecided (only `material` may).
    undecided: usize,
}

/// Runs `level` over the positions `pick` chooses and checks each one: no side labelled
/// winnable is ever said to be unable to mate; with `exact`, every side labelled
/// unwinnable is proved so.
fn check_set(set: &[Labelled], level: MateCheck, exact: bool) -> Tally {
    let mut tally = Tally::default();
    let mut missed = Vec::new();
    for item in set {
        let Ok((pos, mode)) = check::position(&item.fen, false) else {
            tally.rejected += 1;
            continue;
        };
        if pos.is_checkmate() {
            tally.checkmates += 1;
            continue;
        }
        if pos.is_stalemate() {
            tally.stalemates += 1;
            continue;
        }
        let verdict = analyse(&pos, mode, level);
        assert!(!verdict.budget, "{} stopped by the budget", item.fen);
        for (side, can) in [
            (Color::White, item.white_can),
            (Color::Black, item.black_can),
        ] {
            if can {
                assert!(
                    !verdict.cannot(side),
                    "{:?} wrongly said unable to mate at {level:?}: {}",
                    side,
                    item.fen
                );
            } else if !verdict.cannot(side) {
                if exact {
                    missed.push(format!("{side:?}: {}", item.fen));
                }
                tally.undecided += 1;
            }
        }
        tally.decided += 1;
    }
    assert!(
        missed.is_empty(),
        "{} sides not proved unable to mate at {level:?}:\n{}",
        missed.len(),
        missed.join("\n")
    );
    tally
}

#[test]
fn lichess_sample_is_decided_at_fast() {
    let set = labelled("lichess.txt");
    assert_eq!(set.len(), 65_536);
    let tally = check_set(&set, MateCheck::Fast, true);
    assert_eq!(
        tally.rejected + tally.checkmates + tally.stalemates + tally.decided,
        65_536
    );
    assert_eq!(
        tally,
        Tally {
            decided: 65_536,
            ..Tally::default()
        }
    );
}

/// `positions.txt` at `full`, in four parts so the test threads share the work.
fn positions_part(part: usize) {
    let set = labelled("positions.txt");
    assert_eq!(set.len(), 3_414);
    let chunk = set.len().div_ceil(4);
    let mine = &set[(part * chunk).min(set.len())..((part + 1) * chunk).min(set.len())];
    let tally = check_set(mine, MateCheck::Full, true);
    // Checkmates, stalemates and rejected positions are tested apart.
    assert_eq!(tally.undecided, 0, "part {part}");
}

#[test]
fn hard_positions_are_decided_at_full_0() {
    positions_part(0);
}

#[test]
fn hard_positions_are_decided_at_full_1() {
    positions_part(1);
}

#[test]
fn hard_positions_are_decided_at_full_2() {
    positions_part(2);
}

#[test]
fn hard_positions_are_decided_at_full_3() {
    positions_part(3);
}

/// No level ever says a side labelled winnable cannot mate (fast and material on the hard
/// set, material on the sample).
#[test]
fn no_level_claims_a_winnable_side_unable() {
    let hard = labelled("positions.txt");
    check_set(&hard, MateCheck::Fast, false);
    check_set(&hard, MateCheck::Material, false);
    check_set(&labelled("lichess.txt"), MateCheck::Material, false);
}

/// The positions pgnkit does not analyse, as SPEC says what they are: a position that is
/// no legal `[FEN]` (most have more material than a game can have) is rejected, and a
/// checkmate or stalemate is not dead.
#[test]
fn the_exceptions_are_what_spec_says() {
    let mut codes = std::collections::BTreeMap::new();
    let (mut mates, mut stalemates) = (0, 0);
    for item in labelled("lichess.txt")
        .iter()
        .chain(labelled("positions.txt").iter())
    {
        match check::position(&item.fen, false) {
            Err(defects) => {
                for defect in defects {
                    *codes.entry(defect.code).or_insert(0) += 1;
                }
            }
            Ok((pos, _)) if pos.is_checkmate() => mates += 1,
            Ok((pos, _)) if pos.is_stalemate() => stalemates += 1,
            Ok(_) => {}
        }
    }
    let codes: Vec<_> = codes.into_iter().collect();
    assert_eq!(
        codes,
        [("fen.impossible-check", 3), ("fen.too-much-material", 265)]
    );
    assert_eq!((mates, stalemates), (37, 70));
}

/// The two positions of SPEC.md.
#[test]
fn spec_examples() {
    let wall: Chess = check::position("8/4k3/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3/8 w - - 0 1", false)
        .unwrap()
        .0;
    let lost_on_time: Chess =
        check::position("5b2/p7/Pp3k2/1Pp1pBp1/2P1P1P1/5K2/8/8 w - - 0 1", false)
            .unwrap()
            .0;
    for level in [MateCheck::Fast, MateCheck::Full] {
        let verdict = analyse(&wall, shakmaty::CastlingMode::Standard, level);
        assert!(verdict.is_dead(), "{level:?}");
        let verdict = analyse(&lost_on_time, shakmaty::CastlingMode::Standard, level);
        assert!(!verdict.white_cannot && verdict.black_cannot, "{level:?}");
    }
    let verdict = analyse(&wall, shakmaty::CastlingMode::Standard, MateCheck::Material);
    assert!(!verdict.white_cannot && !verdict.black_cannot);
}

/// A verdict-only caller (`Wanted::DeadOr`) reads the same deadness and the same answer
/// for the recorded winner as the full analysis, on every position of the hard set at
/// `fast` and its first 300 at `full` (the whole set at `full` is the four tests above);
/// only a side nobody reads is left undecided, as in SPEC.md's lost-on-time
/// position once White (the winner, able to mate) has been analysed.
#[test]
fn wanted_sides_keep_what_they_read() {
    let hard = labelled("positions.txt");
    let mut skipped = 0;
    for (level, count) in [(MateCheck::Fast, hard.len()), (MateCheck::Full, 300)] {
        for item in hard.iter().take(count) {
            let Ok((pos, mode)) = check::position(&item.fen, false) else {
                continue;
            };
            if pos.is_checkmate() || pos.is_stalemate() {
                continue;
            }
            let both = analyse(&pos, mode, level);
            for winner in [None, Some(Color::White), Some(Color::Black)] {
                let lean = analyse_wanted(&pos, mode, level, Wanted::DeadOr(winner));
                assert_eq!(lean.is_dead(), both.is_dead(), "{level:?} {}", item.fen);
                if let Some(side) = winner {
                    assert_eq!(lean.cannot(side), both.cannot(side), "{}", item.fen);
                }
                skipped += usize::from(lean != both);
            }
        }
    }
    assert!(skipped > 0);
    let lost_on_time: Chess =
        check::position("5b2/p7/Pp3k2/1Pp1pBp1/2P1P1P1/5K2/8/8 w - - 0 1", false)
            .unwrap()
            .0;
    let standard = shakmaty::CastlingMode::Standard;
    let lean = analyse_wanted(
        &lost_on_time,
        standard,
        MateCheck::Fast,
        Wanted::DeadOr(Some(Color::White)),
    );
    assert!(!lean.white_cannot && !lean.black_cannot);
    let lean = analyse_wanted(
        &lost_on_time,
        standard,
        MateCheck::Fast,
        Wanted::DeadOr(Some(Color::Black)),
    );
    assert!(!lean.white_cannot && lean.black_cannot);
}
