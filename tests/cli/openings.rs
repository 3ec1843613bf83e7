//! Openings (SPEC.md "Openings") and the convert repairs that the board proves
//! (SPEC.md "convert repairs", issue 18): the `opening_*` columns of `stats`, the summary
//! section `opening`, `convert --add-opening` and `convert --fix-results`.

use std::fs;
use std::path::PathBuf;

use crate::util::run;

/// The `opening_eco`, `opening_name` and `opening_ply` cells of each game of `pgn`.
fn openings_of(pgn: &str) -> Vec<(String, String, String)> {
    let (code, stdout, stderr) = run(&["stats", "--quiet"], pgn);
    assert_eq!(code, 0, "{stderr}");
    let mut reader = csv::Reader::from_reader(stdout.as_bytes());
    let header = reader.headers().unwrap().clone();
    let column = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (eco, name, ply) = (
        column("opening_eco"),
        column("opening_name"),
        column("opening_ply"),
    );
    reader
        .records()
        .map(|record| {
            let record = record.unwrap();
            (
                record[eco].to_string(),
                record[name].to_string(),
                record[ply].to_string(),
            )
        })
        .collect()
}

fn opening(eco: &str, name: &str, ply: u32) -> (String, String, String) {
    (eco.to_string(), name.to_string(), ply.to_string())
}

fn no_opening() -> (String, String, String) {
    (String::new(), String::new(), String::new())
}

/// The rows (eco, name, pgn) of the data set that the binary embeds.
fn data_set() -> Vec<(String, String, String)> {
    let folder = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/chess-openings");
    let mut rows = Vec::new();
    for volume in ["a", "b", "c", "d", "e"] {
        let text = fs::read_to_string(folder.join(format!("{volume}.tsv"))).unwrap();
        for line in text.lines().skip(1) {
            let columns: Vec<&str> = line.split('\t').collect();
            rows.push((
                columns[0].to_string(),
                columns[1].to_string(),
                columns[2].to_string(),
            ));
        }
    }
    rows
}

/// Lines of the data set that reach the same position as a shorter line (or an equally
/// short earlier one), which then names them (the rule: one line per position, the
/// shortest, then the first). This data set has none: lichess checks that no two lines
/// share a position. Were a pair added, it would be listed here with the line that wins.
const LINES_NAMED_BY_ANOTHER: [(&str, &str); 0] = [];

/// Every one of the 3,807 lines, replayed as a game, is named by its own row, at its last
/// ply.
#[test]
fn every_line_of_the_data_set_names_itself() {
    let rows = data_set();
    assert_eq!(rows.len(), 3807);
    let pgn: String = rows
        .iter()
        .map(|(_, _, moves)| format!("{moves} *\n\n"))
        .collect();
    let found = openings_of(&pgn);
    assert_eq!(found.len(), rows.len());
    for ((eco, name, moves), got) in rows.iter().zip(&found) {
        let plies = moves
            .split_whitespace()
            .filter(|w| !w.ends_with('.'))
            .count();
        let named_by_another = LINES_NAMED_BY_ANOTHER.iter().find(|(n, _)| n == name);
        match named_by_another {
            Some((_, winner)) => assert_eq!(&got.1, winner, "{moves}"),
            None => assert_eq!(got, &opening(eco, name, plies as u32), "{moves}"),
        }
    }
}

/// A game that reaches a named position by another move order gets its name.
#[test]
fn a_transposition_is_named_by_its_position() {
    let found = openings_of("1. Nf3 d5 2. d4 *\n\n1. d4 d5 2. Nf3 *\n");
    let zukertort = opening("D02", "Queen's Pawn Game: Zukertort Variation", 3);
    assert_eq!(found, vec![zukertort.clone(), zukertort]);
}

/// A game that leaves theory (3. Ng1) and comes back to a named position (4... Nc6 repeats
/// the position after 2... Nc6) is named by the later position.
#[test]
fn a_game_that_leaves_theory_and_comes_back_is_named_by_the_later_position() {
    let found = openings_of(
        "1. e4 e5 2. Nf3 Nc6 3. Ng1 *\n\n1. e4 e5 2. Nf3 Nc6 3. Ng1 Nb8 4. Nf3 Nc6 *\n",
    );
    assert_eq!(
        found,
        vec![
            opening("C44", "King's Knight Opening: Normal Variation", 4),
            opening("C44", "King's Knight Opening: Normal Variation", 8),
        ]
    );
}

/// A game whose positions leave the data set early is named by its last named position,
/// however long it goes on; positions that look alike but lost castling rights are not the
/// same (3... Ke8 is not the position after 1... e5).
#[test]
fn a_game_whose_last_named_position_is_early_keeps_it() {
    let found = openings_of("1. e4 e5 2. Ke2 Ke7 3. Ke1 Ke8 4. Nf3 Nf6 5. Ng1 Ng8 6. a3 *\n");
    assert_eq!(found, vec![opening("C20", "Bongcloud Attack", 3)]);
}

/// Chess960 games and games from another start have no opening; a `[FEN]` of the
/// standard start is the standard start.
#[test]
fn only_standard_chess_from_the_standard_start_is_named() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let pgn = format!(
        "[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"{start}\"]\n\n1. e4 e5 *\n\n\
         [SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qkq - 0 1\"]\n\n1. e4 e5 *\n\n\
         [SetUp \"1\"]\n[FEN \"{start}\"]\n\n1. e4 e5 *\n\n\
         1. e4 e5 *\n"
    );
    let found = openings_of(&pgn);
    let kings_pawn = opening("C20", "King's Pawn Game", 2);
    assert_eq!(
        found,
        vec![no_opening(), no_opening(), kings_pawn.clone(), kings_pawn]
    );
}

/// Only the plies replayed legally count: a game that stops at an illegal move is named
/// by the positions before it.
#[test]
fn a_game_stopped_at_an_error_is_named_by_the_plies_before_it() {
    let found = openings_of("1. e4 e5 2. Nf3 Nc6 3. Bb6 a6 *\n");
    assert_eq!(
        found,
        vec![opening("C44", "King's Knight Opening: Normal Variation", 4)]
    );
}

/// The summary counts the games of each opening in section `opening`, key `ECO Name`.
#[test]
fn the_summary_counts_games_by_opening() {
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("summary.csv");
    let (code, _, stderr) = run(
        &[
            "stats",
            "--quiet",
            "-o",
            "/dev/null",
            "--summary-output",
            summary.to_str().unwrap(),
        ],
        "1. e4 e5 *\n\n1. e4 e5 2. Nf3 *\n\n1. e4 e5 *\n\n1. e4 e5 2. Nf3 Nc6 3. Ng1 *\n",
    );
    assert_eq!(code, 0, "{stderr}");
    let text = fs::read_to_string(summary).unwrap();
    let openings: Vec<&str> = text
        .lines()
        .filter(|line| line.starts_with("opening,"))
        .collect();
    assert_eq!(
        openings,
        vec![
            "opening,C20 King's Pawn Game,2",
            "opening,C40 King's Knight Opening,1",
            "opening,C44 King's Knight Opening: Normal Variation,1",
        ]
    );
}

/// The tags of each game written by `convert` with `flags`.
fn converted_tags(pgn: &str, flags: &[&str]) -> Vec<Vec<String>> {
    let mut args = vec!["convert", "--quiet"];
    args.extend_from_slice(flags);
    let (code, stdout, stderr) = run(&args, pgn);
    assert_eq!(code, 0, "{stderr}");
    stdout
        .split("\n\n")
        .filter(|block| block.starts_with('['))
        .map(|block| block.lines().map(str::to_string).collect())
        .collect()
}

/// `--add-opening` replaces the ECO tag and adds the Opening tag of a named game; a game
/// with no opening keeps its tags.
#[test]
fn add_opening_sets_eco_and_opening_of_named_games_only() {
    let pgn = "[ECO \"A00\"]\n\n1. e4 c5 2. Nf3 d6 *\n\n\
               [Variant \"Chess960\"]\n[ECO \"B00\"]\n[Opening \"Mine\"]\n\n1. e4 e5 *\n";
    let tags = converted_tags(pgn, &["--add-opening"]);
    assert!(tags[0].contains(&"[ECO \"B50\"]".to_string()), "{tags:?}");
    assert!(
        tags[0].contains(&"[Opening \"Sicilian Defense: Modern Variations\"]".to_string()),
        "{tags:?}"
    );
    assert!(!tags[0].contains(&"[ECO \"A00\"]".to_string()));
    assert!(tags[1].contains(&"[ECO \"B00\"]".to_string()), "{tags:?}");
    assert!(
        tags[1].contains(&"[Opening \"Mine\"]".to_string()),
        "{tags:?}"
    );
    // Without the flag, tags are kept.
    let tags = converted_tags(pgn, &[]);
    assert!(tags[0].contains(&"[ECO \"A00\"]".to_string()));
    assert!(!tags[0].iter().any(|t| t.starts_with("[Opening")));
}

/// `convert --fix-results` of one game: its Result tag and its termination marker.
fn fixed_result(pgn: &str) -> (String, String) {
    let (code, stdout, stderr) = run(&["convert", "--quiet", "--fix-results"], pgn);
    assert_eq!(code, 0, "{stderr}");
    let tag = stdout
        .lines()
        .find_map(|line| line.strip_prefix("[Result \""))
        .and_then(|rest| rest.strip_suffix("\"]"))
        .unwrap()
        .to_string();
    let marker = stdout.split_whitespace().last().unwrap().to_string();
    (tag, marker)
}

fn both(result: &str) -> (String, String) {
    (result.to_string(), result.to_string())
}

#[test]
fn fix_results_gives_a_checkmate_to_the_mating_side() {
    // Recorded as a white win with a draw marker: both become Black's win.
    let pgn = "[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n";
    assert_eq!(fixed_result(pgn), both("0-1"));
    let pgn = "[Result \"*\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# *\n";
    assert_eq!(fixed_result(pgn), both("1-0"));
}

#[test]
fn fix_results_draws_a_stalemate() {
    let pgn =
        "[Result \"1-0\"]\n[SetUp \"1\"]\n[FEN \"7k/8/4Q1K1/8/8/8/8/8 w - - 0 1\"]\n\n1. Qf7 1-0\n";
    assert_eq!(fixed_result(pgn), both("1/2-1/2"));
}

#[test]
fn fix_results_draws_insufficient_material() {
    let pgn = "[Result \"0-1\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/3p4/4K3 w - - 0 1\"]\n\n1. Kxd2 0-1\n";
    assert_eq!(fixed_result(pgn), both("1/2-1/2"));
}

#[test]
fn fix_results_draws_a_fivefold_repetition() {
    let pgn = "[Result \"1-0\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 \
               7. Nf3 Nf6 8. Ng1 Ng8 1-0\n";
    assert_eq!(fixed_result(pgn), both("1/2-1/2"));
}

#[test]
fn fix_results_draws_the_seventy_five_move_rule() {
    let pgn = "[Result \"1-0\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 149 80\"]\n\n80. Ra2 1-0\n";
    assert_eq!(fixed_result(pgn), both("1/2-1/2"));
}

/// A threefold repetition or the fifty-move rule must be claimed: the result stands; so
/// does the result of a game whose replay stopped at an error.
#[test]
fn fix_results_keeps_results_the_board_does_not_decide() {
    let threefold = "[Result \"1-0\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1-0\n";
    assert_eq!(fixed_result(threefold), both("1-0"));
    let fifty = "[Result \"0-1\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 99 80\"]\n\n80. Ra2 0-1\n";
    assert_eq!(fixed_result(fifty), both("0-1"));
    let (code, stdout, _) = run(
        &["convert", "--quiet", "--fix-results"],
        "[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 3. Kf2 1-0\n",
    );
    assert_eq!(code, 1);
    assert!(stdout.contains("[Result \"1-0\"]"), "{stdout}");
}

/// Converting the converted output again changes nothing.
#[test]
fn fix_results_and_add_opening_change_nothing_the_second_time() {
    let pgn = "[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n\n\
               [Result \"1-0\"]\n[ECO \"A00\"]\n\n1. e4 c5 2. Nf3 d6 1-0\n\n\
               [Result \"1-0\"]\n[SetUp \"1\"]\n[FEN \"7k/8/4Q1K1/8/8/8/8/8 w - - 0 1\"]\n\n1. Qf7 1-0\n";
    let flags = ["convert", "--quiet", "--fix-results", "--add-opening"];
    let (code, once, stderr) = run(&flags, pgn);
    assert_eq!(code, 0, "{stderr}");
    assert_ne!(once, pgn);
    let (code, twice, stderr) = run(&flags, &once);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(twice, once);
}

/// The report lists the most frequent openings with their score.
#[test]
fn the_report_shows_openings_with_their_score() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("report.html");
    let (code, _, stderr) = run(
        &["report", "--quiet", "-o", page.to_str().unwrap()],
        "[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n[Result \"1/2-1/2\"]\n\n1. e4 e5 1/2-1/2\n\n\
         [Result \"0-1\"]\n\n1. e4 e5 0-1\n\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n\
         [Result \"1-0\"]\n\n1. d4 1-0\n",
    );
    assert_eq!(code, 0, "{stderr}");
    let html = fs::read_to_string(page).unwrap();
    let panel = &html[html.find("<h2>Openings</h2>").unwrap()..];
    let kings_pawn = panel.find("<td>King&#39;s Pawn Game</td>").unwrap();
    let queens_pawn = panel.find("<td>Queen&#39;s Pawn Game</td>").unwrap();
    assert!(kings_pawn < queens_pawn, "the most frequent first");
    let row = &panel[kings_pawn..panel[kings_pawn..].find("</tr>").unwrap() + kings_pawn];
    assert!(
        row.contains("<td class=\"num\">4</td>")
            && row.contains(
                "<td class=\"num\">50%</td><td class=\"num\">25%</td><td class=\"num\">25%</td>"
            ),
        "{row}"
    );
}
