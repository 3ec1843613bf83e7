//! `pgnkit standings` (SPEC.md "standings", issue 45): events, players, rounds, byes,
//! forfeits, the system, the `event.*` findings, the text, records and TRF-16 outputs,
//! and a lichess-like event of many games in bounded memory. The tie-break values are
//! checked on hand-worked events (`every_hand_worked_event_matches`).

use crate::util::*;

fn data(name: &str) -> String {
    testdata(&format!("standings/{name}"))
        .to_str()
        .unwrap()
        .to_string()
}

/// Runs `standings -q` with `args`; (exit code, stdout, stderr).
fn standings(args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["standings", "-q"];
    all.extend_from_slice(args);
    run_args(&all)
}

/// The CSV records of a run.
fn records(args: &[&str]) -> Vec<Row> {
    let mut all = args.to_vec();
    all.extend_from_slice(&["--format", "csv"]);
    let (code, stdout, stderr) = standings(&all);
    // 1: an error finding, which does not stop the standings.
    assert!(code == 0 || code == 1, "{stderr}");
    rows_of(&stdout)
}

/// (player, points, rank) of each record, in their order.
fn points(rows: &[Row]) -> Vec<(String, String, String)> {
    rows.iter()
        .map(|r| (r["player"].clone(), r["points"].clone(), r["rank"].clone()))
        .collect()
}

fn owned(rows: &[(&str, &str, &str)]) -> Vec<(String, String, String)> {
    rows.iter()
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
        .collect()
}

/// The codes of the findings a run wrote on stderr, in order.
fn codes(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .filter_map(|line| {
            let start = line.find('[')? + 1;
            let end = line[start..].find(']')? + start;
            Some(line[start..end].to_string())
        })
        .collect()
}

/// The crosstable row of a player: its cells after the name.
fn crosstable_row(text: &str, player: &str) -> Vec<String> {
    let table = text.split("\n#  Player").nth(1).unwrap();
    let line = table
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some(player))
        .unwrap_or_else(|| panic!("no row of {player} in\n{text}"));
    line.split_whitespace()
        .skip(2)
        .map(str::to_string)
        .collect()
}

#[test]
fn a_round_robin_is_told_and_written_as_its_grid() {
    let (code, text, stderr) = standings(&[&data("round_robin.pgn")]);
    assert_eq!(code, 0, "{stderr}");
    assert!(text.starts_with("Club Round Robin\nUtrecht NED, 2024.03.01 to 2024.03.03\n"));
    assert!(
        text.contains("3 rounds, 4 players, round robin\n"),
        "{text}"
    );
    assert!(text.contains("Tie-breaks: DE, SB, WIN (C.07's recommendation)"));
    // Rank order and the diagonal. Gamma and Delta have 1.5 and drew each other (DE ½
    // each, equal); SB puts Gamma ahead: ½ x 2.5 (Alpha) + ½ x 1.5 (Delta) + ½ x 0.5
    // (Beta) = 2.25 against Delta's 0 + ½ x 1.5 (Gamma) + 1 x 0.5 (Beta) = 1.25.
    assert_eq!(crosstable_row(&text, "Alpha"), ["·", "½", "1", "1", "2.5"]);
    assert_eq!(crosstable_row(&text, "Gamma"), ["½", "·", "½", "½", "1.5"]);
    assert_eq!(crosstable_row(&text, "Delta"), ["0", "½", "·", "1", "1.5"]);
    assert_eq!(crosstable_row(&text, "Beta"), ["0", "½", "0", "·", "0.5"]);
    assert!(text.contains("   2  Gamma            2300     1.5      3  0.5  2.25    0\n"));
    let rows = records(&[&data("round_robin.pgn")]);
    assert_eq!(
        points(&rows),
        owned(&[
            ("Alpha", "2.5", "1"),
            ("Gamma", "1.5", "2"),
            ("Delta", "1.5", "3"),
            ("Beta", "0.5", "4")
        ])
    );
    assert!(
        rows.iter()
            .all(|r| r["system"] == "round-robin" && r["rounds"] == "3")
    );
    assert_eq!(rows[0]["title"], "GM");
    assert_eq!(rows[0]["rating"], "2500");
}

#[test]
fn a_double_round_robin_has_two_cells_per_pair() {
    let (code, text, _) = standings(&[&data("double_round_robin.pgn")]);
    assert_eq!(code, 0);
    assert!(text.contains("6 rounds, 3 players, round robin"), "{text}");
    assert_eq!(crosstable_row(&text, "Ann"), ["··", "1½", "1½", "3"]);
    assert_eq!(crosstable_row(&text, "Cid"), ["0½", "··", "½1", "2"]);
    assert_eq!(crosstable_row(&text, "Bob"), ["0½", "½0", "··", "1"]);
}

#[test]
fn a_swiss_is_written_as_its_rounds_with_byes_forfeits_and_absences() {
    let (code, text, stderr) = standings(&[&data("swiss.pgn")]);
    assert_eq!(code, 0, "{stderr}");
    assert!(text.contains("3 rounds, 6 players, Swiss"), "{text}");
    assert!(text.contains("Tie-breaks: BH/C1, BH, DE (C.07's recommendation)"));
    // P5 and P1 have 2.5; BH/C1 (C.07-2026 article 16) puts P5 first: its pairing bye
    // counts as a dummy worth min(2.5, half the maximum 1.5) = 1.5, its forfeit win over
    // P2 as min(2.5, P2's adjusted 0) = 0, and P1 2.5: BH 4, and the cut takes the 0
    // (neither is voluntary): 4. P1 met P2 (0), P3 (1), P5 (2.5): BH 3.5, cut 0: 3.5.
    assert!(text.contains("   1  P5               1750     2.5      1      4    4   0\n"));
    assert!(text.contains("   2  P1               1950     2.5      3    3.5  3.5   0\n"));
    // P6's absence counts min(1.5, 1.5) = 1.5, P4 (absent in the last round, so ½
    // for it: 1.5) and P2 0: BH 3; the cut takes the absence first: 1.5.
    assert!(text.contains("   3  P6               1700     1.5      2    1.5    3   0\n"));
    assert_eq!(crosstable_row(&text, "P1"), ["2.5", "6w1", "4w1", "1b½"]);
    // A pairing-allocated bye, a forfeit win, a draw.
    assert_eq!(crosstable_row(&text, "P5"), ["2.5", "bye1", "+", "2w½"]);
    // No game in round 1: an absence.
    assert_eq!(crosstable_row(&text, "P6"), ["1.5", "abs", "5b½", "6w1"]);
    // A half-point bye, written `bye` against White's side too (`bye` in any case).
    assert_eq!(crosstable_row(&text, "P3"), ["1", "5w½", "2b0", "bye½"]);
    assert_eq!(crosstable_row(&text, "P2"), ["0", "2b0", "-", "3b0"]);
}

#[test]
fn site_urls_count_as_empty_and_event_dates_split_events() {
    let rows = records(&[&data("grouping.pgn")]);
    let events: Vec<(String, String)> = rows
        .iter()
        .map(|r| (r["event"].clone(), r["event_date"].clone()))
        .collect();
    // Three lichess games, one URL each: one event; two Summer Cups by EventDate.
    assert_eq!(
        events,
        [
            ("Rated Blitz game", ""),
            ("Rated Blitz game", ""),
            ("Rated Blitz game", ""),
            ("Summer Cup", "2023.06.01"),
            ("Summer Cup", "2023.06.01"),
            ("Summer Cup", "2024.06.01"),
            ("Summer Cup", "2024.06.01"),
        ]
        .map(|(a, b)| (a.to_string(), b.to_string()))
    );
    assert!(rows[0]["site"].is_empty());
    // By Event alone the Summer Cups are one event of two rounds 1: Ann has two games
    // in round 1.
    let (code, _, stderr) = standings(&[&data("grouping.pgn"), "--event-by", "Event"]);
    assert_eq!(code, 1);
    assert_eq!(
        codes(&stderr),
        ["event.player-twice-in-round", "event.player-twice-in-round"]
    );
    let rows = records(&[&data("grouping.pgn"), "--event-by", "Event"]);
    let cup: Vec<_> = rows.iter().filter(|r| r["event"] == "Summer Cup").collect();
    assert_eq!(cup.len(), 2);
    assert!(cup.iter().all(|r| r["points"] == "1"));
}

#[test]
fn fide_ids_name_players_and_byes_forfeits_and_rounds_are_read() {
    let (code, text, stderr) = standings(&[&data("players.pgn")]);
    assert_eq!(code, 0, "{stderr}");
    // `Smith, John`, `J. Smith` and `Smith, J.` share FIDE id 1001: one player, named
    // by the first game; rounds 1.1 to 5.1.1 make five rounds; round 4 nobody played.
    assert!(text.contains("5 rounds, 3 players, Swiss"), "{text}");
    assert!(!text.contains("J. Smith"));
    assert_eq!(
        crosstable_row(&text, "Smith,"),
        ["John", "2", "3w1", "bye½", "-", "abs", "3b½"]
    );
    // `Walkover` and `No Show` are forfeits; BYE 1-0, ½ and 0-1 are byes of each value.
    assert_eq!(
        crosstable_row(&text, "Brown,"),
        ["Tom", "2", "bye1", "-", "+", "abs", "abs"]
    );
    assert_eq!(
        crosstable_row(&text, "Jones,"),
        ["Amy", "1.5", "2b0", "+", "bye0", "abs", "2w½"]
    );
    let rows = records(&[&data("players.pgn")]);
    let smith = rows.iter().find(|r| r["player"] == "Smith, John").unwrap();
    assert_eq!(smith["fide_id"], "1001");
    assert_eq!(smith["rating"], "2100");
    assert_eq!(smith["rounds"], "5");
    assert_eq!(codes(&stderr), ["event.repeated-pairing"]);
}

#[test]
fn every_event_finding_is_reported_in_input_order() {
    let (code, _, stderr) = standings(&[&data("findings.pgn"), "--level", "info"]);
    assert_eq!(code, 1, "an error finding makes the exit code 1");
    assert_eq!(
        codes(&stderr),
        [
            "event.duplicate-game",
            "event.result-conflict",
            "event.unfinished",
            "event.repeated-pairing",
            "event.player-twice-in-round",
            "event.repeated-pairing",
            "event.round-missing",
        ]
    );
    assert!(stderr.contains(
        "findings.pgn:51: game 6: error[event.result-conflict]: Ann \u{2013} Cid in round 2 is recorded as 1/2-1/2 and again as 1-0: the later record is left out"
    ), "{stderr}");
    assert!(stderr.contains("Eve has a second game in round 3"));
    // The default level hides the info; --select keeps the codes asked for, and an
    // error not shown does not make the exit code 1.
    let (_, _, stderr) = standings(&[&data("findings.pgn")]);
    assert!(!codes(&stderr).contains(&"event.round-missing".to_string()));
    let (code, _, stderr) = standings(&[&data("findings.pgn"), "--select", "event.unfinished"]);
    assert_eq!(
        (code, codes(&stderr)),
        (0, vec!["event.unfinished".to_string()])
    );
    // The later conflicting record and the `*` game are left out, the duplicate counted
    // once: Ann 1 + ½ + 1.
    let rows = records(&[&data("findings.pgn")]);
    let ann = rows.iter().find(|r| r["player"] == "Ann").unwrap();
    assert_eq!(ann["points"], "2.5");
}

#[test]
fn the_system_is_told_from_the_pairings_and_system_overrides_it() {
    let rows = records(&[&data("round_robin.pgn"), &data("swiss.pgn")]);
    let systems: Vec<&str> = rows.iter().map(|r| r["system"].as_str()).collect();
    assert_eq!(systems[..4], ["round-robin"; 4]);
    assert_eq!(systems[4..], ["swiss"; 6]);
    // One header for both: each default list's tie-breaks, then the rating figures.
    let (_, csv, _) = standings(&[
        &data("round_robin.pgn"),
        &data("swiss.pgn"),
        "--format",
        "csv",
    ]);
    assert!(
        csv.starts_with("event,site,event_date,system,rounds,rank,player,fide_id,title,rating,games,points,de,sb,win,bh_c1,bh,aro,tpr\n"),
        "{csv}"
    );
    let (_, text, _) = standings(&[&data("round_robin.pgn"), "--system", "swiss"]);
    assert!(text.contains("3 rounds, 4 players, Swiss"), "{text}");
    assert_eq!(crosstable_row(&text, "Alpha")[..3], ["2.5", "4w1", "3w½"]);
    let rows = records(&[&data("round_robin.pgn"), "--system", "swiss"]);
    assert!(rows.iter().all(|r| r["system"] == "swiss"));
    assert!(rows[0].contains_key("bh_c1"));
}

#[test]
fn usage_errors_name_what_is_wrong() {
    let rr = data("round_robin.pgn");
    let (code, _, stderr) = standings(&[&rr, "--tiebreaks", "BH,XYZ"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("XYZ"), "{stderr}");
    let (code, _, stderr) = standings(&[&rr, "--tiebreaks", "BH/C3"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("C3"), "{stderr}");
    let (code, _, stderr) = standings(&[&rr, "--system", "knockout"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("knockout"), "{stderr}");
    let (code, _, stderr) = standings(&[&rr, "--event-by", "Event,,Site"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("--event-by: a tag name is empty"),
        "{stderr}"
    );
    let dir = tempfile::tempdir().unwrap();
    let trf = dir.path().join("two.trf");
    let (code, _, stderr) = standings(&[&rr, &data("swiss.pgn"), "--trf", trf.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("--trf writes one event, and the games make 2"),
        "{stderr}"
    );
    assert!(!trf.exists());
    // The filters pick the one event.
    let (code, _, stderr) = standings(&[
        &rr,
        &data("swiss.pgn"),
        "--where",
        "Event == \"Spring Swiss\"",
        "--trf",
        trf.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        std::fs::read_to_string(&trf)
            .unwrap()
            .starts_with("012 Spring Swiss\n")
    );
}

#[test]
fn records_have_a_column_per_tiebreak_and_the_rating_figures_once() {
    let rr = data("round_robin.pgn");
    let (_, csv, _) = standings(&[&rr, "--format", "csv", "--tiebreaks", "PTS,BH/C1,ARO,SB"]);
    assert!(csv.starts_with(
        "event,site,event_date,system,rounds,rank,player,fide_id,title,rating,games,points,bh_c1,aro,sb,tpr\n"
    ), "{csv}");
    let (_, jsonl, _) = standings(&[&rr, "--format", "jsonl"]);
    let first: serde_json::Value = serde_json::from_str(jsonl.lines().next().unwrap()).unwrap();
    assert_eq!(first["points"], serde_json::json!(2.5));
    assert_eq!(first["rating"], serde_json::json!(2500));
    assert_eq!(first["rounds"], serde_json::json!(3));
    assert_eq!(first["rank"], serde_json::json!("1"));
    assert_eq!(first["fide_id"], serde_json::Value::Null);
}

/// DuckDB reads the Parquet records with their types (skipped without python3's duckdb).
#[test]
fn parquet_records_are_typed() {
    let has_duckdb = std::process::Command::new("python3")
        .args(["-c", "import duckdb"])
        .status()
        .is_ok_and(|s| s.success());
    // Without DuckDB there is nothing to read them with.
    if !has_duckdb {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.parquet");
    let (code, _, stderr) = standings(&[
        &data("players.pgn"),
        "--format",
        "parquet",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let script = format!(
        "import duckdb\n\
         con = duckdb.connect()\n\
         for name, kind in con.execute(\"select column_name, column_type from (describe select * from '{0}')\").fetchall():\n\
         \x20   print(name, kind)\n\
         print(con.execute(\"select player, points, fide_id, rating from '{0}' order by player\").fetchall())\n",
        file.display()
    );
    let out = std::process::Command::new("python3")
        .args(["-c", &script])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for expected in [
        "event VARCHAR",
        "rounds BIGINT",
        "rank VARCHAR",
        "fide_id UBIGINT",
        "rating BIGINT",
        "games BIGINT",
        "points DOUBLE",
        "bh_c1 DOUBLE",
        "tpr DOUBLE",
    ] {
        assert!(text.lines().any(|l| l == expected), "{expected} in\n{text}");
    }
    assert!(
        text.contains("('Brown, Tom', 2.0, 1003, 1900), ('Jones, Amy', 1.5, 1002, 2000), ('Smith, John', 2.0, 1001, 2100)"),
        "{text}"
    );
}

/// The TRF-16 player lines hold each field in FIDE's columns (Handbook C.04, Annex 2).
#[test]
fn trf_fields_stand_in_their_columns() {
    let dir = tempfile::tempdir().unwrap();
    let trf = dir.path().join("e.trf");
    for (file, lines) in [("swiss.pgn", 6), ("players.pgn", 3), ("round_robin.pgn", 4)] {
        let (code, _, stderr) = standings(&[&data(file), "--trf", trf.to_str().unwrap()]);
        assert_eq!(code, 0, "{stderr}");
        let text = std::fs::read_to_string(&trf).unwrap();
        let players: Vec<&str> = text.lines().filter(|l| l.starts_with("001")).collect();
        assert_eq!(players.len(), lines, "{text}");
        for line in &players {
            // 1-based, inclusive, as the Annex numbers them.
            let at = |from: usize, to: usize| line.get(from - 1..to).unwrap_or("");
            assert_eq!(at(4, 4), " ");
            assert!(at(5, 8).trim().parse::<u32>().is_ok(), "{line}");
            assert_eq!(at(9, 10), "  ");
            assert_eq!(at(14, 14), " ");
            assert_eq!(at(48, 48), " ");
            assert!(at(81, 84).trim().contains('.'), "points in 81-84: {line}");
            assert!(
                at(86, 89).trim().parse::<u32>().is_ok(),
                "rank in 86-89: {line}"
            );
            // Each round: opponent in 92-95, colour in 97, result in 99, ten apart.
            let rounds = (line.chars().count() - 89) / 10;
            for round in 0..rounds {
                let base = 92 + 10 * round;
                assert_eq!(at(base - 2, base - 1), "  ", "{line}");
                assert!(at(base, base + 3).trim().parse::<u32>().is_ok(), "{line}");
                assert!(["w", "b", "-"].contains(&at(base + 5, base + 5)), "{line}");
                assert!(
                    "10=+-HFUZWDL".contains(at(base + 7, base + 7)),
                    "result of round {round}: {line}"
                );
            }
        }
    }
    // The Swiss, field by field: starting ranks by rating, the bye, the forfeit, the
    // absence, the header lines PGN fills.
    standings(&[&data("swiss.pgn"), "--trf", trf.to_str().unwrap()]);
    let text = std::fs::read_to_string(&trf).unwrap();
    assert!(text.starts_with(
        "012 Spring Swiss\n022 Leiden\n032 NED\n042 2024/04/01\n052 2024/04/03\n062 6\n072 6\n092 Swiss\n"
    ), "{text}");
    let dates = text.lines().find(|l| l.starts_with("132")).unwrap();
    assert_eq!(&dates[91..99], "24/04/01");
    assert_eq!(&dates[101..109], "24/04/02");
    let p5 = text.lines().find(|l| l.starts_with("001    5")).unwrap();
    assert_eq!(&p5[14..16], "P5");
    assert_eq!(&p5[48..52], "1750");
    assert_eq!(&p5[80..84], " 2.5");
    assert_eq!(&p5[85..89], "   1");
    assert_eq!(&p5[91..], "0000 - U     2 b +     1 w =");
    let p6 = text.lines().find(|l| l.starts_with("001    6")).unwrap();
    assert_eq!(&p6[91..], "0000 - Z     4 b =     2 w 1");
    let p3 = text.lines().find(|l| l.starts_with("001    3")).unwrap();
    assert_eq!(&p3[91..], "   4 w =     1 b 0  0000 - H");
    // Title and FIDE number in theirs.
    standings(&[&data("players.pgn"), "--trf", trf.to_str().unwrap()]);
    let text = std::fs::read_to_string(&trf).unwrap();
    let smith = text.lines().find(|l| l.contains("Smith, John")).unwrap();
    assert_eq!(&smith[57..68], "       1001");
    standings(&[&data("round_robin.pgn"), "--trf", trf.to_str().unwrap()]);
    let text = std::fs::read_to_string(&trf).unwrap();
    let alpha = text.lines().find(|l| l.contains("Alpha")).unwrap();
    assert_eq!(&alpha[10..13], " GM");
}

#[test]
fn the_report_has_a_standings_section_per_event() {
    let (html, _dir) = report_of(&[&data("round_robin.pgn"), &data("swiss.pgn")]);
    assert!(html.contains("<h2>Standings</h2>"), "{html}");
    let section = html.split("<h2>Standings</h2>").nth(1).unwrap();
    assert!(section.contains("Club Round Robin"));
    assert!(section.contains("Spring Swiss"));
    assert!(section.contains("Alpha"));
    assert!(section.contains("bye1"));
}

/// A lichess-like dump: one `Event`, a URL per game, thousands of players, no round: one
/// event, in bounded memory and time (no table of players x players or x rounds).
#[test]
fn a_lichess_like_event_of_many_games_stays_bounded() {
    let mut pgn = String::new();
    let games = 40_000;
    for i in 0..games {
        let (w, b) = (i * 7919 % 6000, i * 104_729 % 6000 + 1);
        let result = ["1-0", "0-1", "1/2-1/2"][i % 3];
        pgn.push_str(&format!(
            "[Event \"Rated Blitz game\"]\n[Site \"https://lichess.org/g{i}\"]\n[Round \"{}\"]\n[White \"u{w}\"]\n[Black \"u{b}\"]\n[Result \"{result}\"]\n[WhiteElo \"1500\"]\n[BlackElo \"1600\"]\n\n1. e4 e5 {result}\n\n",
            // Some round numbers far apart: absences would be players x rounds.
            if i % 1000 == 0 { format!("{}", i * 100 + 1) } else { "-".to_string() }
        ));
    }
    let (_dir, file) = temp_file("lichess.pgn", pgn.as_bytes());
    let (code, stdout, stderr) = run_limited(
        &["standings", "-q", "--format", "csv", file.to_str().unwrap()],
        ADDRESS_SPACE_MB,
    );
    assert_eq!(code, 0, "{stderr}");
    let rows = rows_of(&stdout);
    assert!(rows.len() > 5000, "{}", rows.len());
    assert!(rows.iter().all(|r| r["event"] == "Rated Blitz game"));
}

/// The events worked out by hand (testdata/standings/events/NAME.pgn with NAME.args, the
/// extra flags, and NAME.csv, the expected `standings --format csv`), byte for byte.
#[test]
fn every_hand_worked_event_matches() {
    let dir = testdata("standings/events");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let path = e.ok()?.path();
            (path.extension()? == "pgn").then(|| path.file_stem()?.to_str().map(String::from))?
        })
        .collect();
    names.sort();
    for name in &names {
        let pgn = dir.join(format!("{name}.pgn"));
        let args = std::fs::read_to_string(dir.join(format!("{name}.args"))).unwrap_or_default();
        let expected = std::fs::read_to_string(dir.join(format!("{name}.csv"))).unwrap();
        let mut all = vec!["standings", "-q", "--format", "csv"];
        all.extend(args.split_whitespace());
        let pgn = pgn.to_str().unwrap().to_string();
        all.push(&pgn);
        let (_, stdout, stderr) = run_args(&all);
        assert_eq!(stdout, expected, "{name}: {stderr}");
    }
    assert!(
        names.len() >= 3,
        "at least three hand-worked events in {}: {names:?}",
        dir.display()
    );
}

/// The standings section of the report fits a 390 px phone (the report's layout check).
#[test]
fn the_report_standings_fit_a_phone() {
    let inputs = [
        data("round_robin.pgn"),
        data("swiss.pgn"),
        data("players.pgn"),
    ];
    let (_, dir) = report_of(&inputs.iter().map(String::as_str).collect::<Vec<_>>());
    let (scroll, client, wide) = crate::report::layout_at_390(&dir.path().join("r.html"));
    assert!(
        scroll <= client && wide.is_empty(),
        "the page is {scroll} px wide in {client} px: {wide}"
    );
}

/// The report shows the first 20 events and counts the others.
#[test]
fn the_report_shows_twenty_events_and_counts_the_rest() {
    let pgn: String = (1..=25)
        .map(|i| {
            format!("[Event \"Cup {i}\"]\n[Round \"1\"]\n[White \"A{i}\"]\n[Black \"B{i}\"]\n[Result \"1-0\"]\n\n1-0\n\n")
        })
        .collect();
    let (_input_dir, file) = temp_file("cups.pgn", pgn.as_bytes());
    let (html, _dir) = report_of(&[file.to_str().unwrap()]);
    let section = html.split("<h2>Standings</h2>").nth(1).unwrap();
    assert!(section.contains("the first 20 of 25 events"), "{section}");
    assert!(section.contains("<h3>Cup 20</h3>"));
    assert!(!section.contains("<h3>Cup 21</h3>"));
}

/// The report of `inputs`, written to `r.html` in the folder returned (kept while it
/// lives), and its text; the run must end with exit 0.
fn report_of(inputs: &[&str]) -> (String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("r.html");
    let mut args = vec!["report", "-q"];
    args.extend_from_slice(inputs);
    args.extend_from_slice(&["-o", page.to_str().unwrap()]);
    let (code, _, stderr) = run_args(&args);
    assert_eq!(code, 0, "{stderr}");
    (std::fs::read_to_string(&page).unwrap(), dir)
}
