//! `pgnkit moves`: one record per main-line move, every column worked out by hand on
//! small games (castling both ways, Chess960, en passant, promotion with capture, mate,
//! a game stopped at an error, a game from a FEN), and the key against python-chess.

use crate::util::*;

const HEADER: &str = "file,game,line,ply,move_number,color,san,uci,piece,from,to,captured,promotion,castling,en_passant,check,mate,key,halfmove_clock,repetition,clock,move_time,eval_cp,eval_mate,nags";

/// The rows of `moves` on `pgn` with `extra` flags, the header checked.
fn moves_of(pgn: &str, extra: &[&str]) -> Vec<String> {
    let args = [&["moves"], extra].concat();
    let (code, stdout, stderr) = run(&args, pgn);
    assert_eq!(code, 0, "{stderr}");
    let mut lines = stdout.lines().map(str::to_string);
    lines.next();
    lines.collect()
}

/// The cells of each row from `san` to `mate`, and the halfmove clock and repetition.
fn moves_part(rows: &[String]) -> Vec<String> {
    rows.iter()
        .map(|row| {
            let cells: Vec<&str> = row.split(',').collect();
            let mut part: Vec<&str> = cells[3..17].to_vec();
            part.extend(&cells[18..20]);
            part.join(",")
        })
        .collect()
}

#[test]
fn header_is_the_spec_columns() {
    let (code, stdout, _) = run(&["moves"], "1. e4 *\n");
    assert_eq!(code, 0);
    assert_eq!(stdout.lines().next(), Some(HEADER));
    // A game without moves gives no record.
    let (_, stdout, _) = run(&["moves"], "[Event \"x\"]\n\n*\n");
    assert_eq!(stdout, format!("{HEADER}\n"));
}

#[test]
fn castling_both_ways_en_passant_and_repetition() {
    let pgn = "1. e4 d5 2. e5 f5 3. exf6 Nc6 4. Nf3 Bf5 5. Bc4 Qd7 6. O-O O-O-O 7. Ne1 Qe8 8. Nf3 Qd7 *\n";
    let rows = moves_part(&moves_of(pgn, &[]));
    assert_eq!(
        rows,
        [
            "1,1,white,e4,e2e4,P,e2,e4,,,,false,false,false,0,1",
            "2,1,black,d5,d7d5,P,d7,d5,,,,false,false,false,0,1",
            "3,2,white,e5,e4e5,P,e4,e5,,,,false,false,false,0,1",
            "4,2,black,f5,f7f5,P,f7,f5,,,,false,false,false,0,1",
            // En passant: a pawn captured on another square than `to`.
            "5,3,white,exf6,e5f6,P,e5,f6,P,,,true,false,false,0,1",
            "6,3,black,Nc6,b8c6,N,b8,c6,,,,false,false,false,1,1",
            "7,4,white,Nf3,g1f3,N,g1,f3,,,,false,false,false,2,1",
            "8,4,black,Bf5,c8f5,B,c8,f5,,,,false,false,false,3,1",
            "9,5,white,Bc4,f1c4,B,f1,c4,,,,false,false,false,4,1",
            "10,5,black,Qd7,d8d7,Q,d8,d7,,,,false,false,false,5,1",
            "11,6,white,O-O,e1g1,K,e1,g1,,,O-O,false,false,false,6,1",
            "12,6,black,O-O-O,e8c8,K,e8,c8,,,O-O-O,false,false,false,7,1",
            "13,7,white,Ne1,f3e1,N,f3,e1,,,,false,false,false,8,1",
            "14,7,black,Qe8,d7e8,Q,d7,e8,,,,false,false,false,9,1",
            "15,8,white,Nf3,e1f3,N,e1,f3,,,,false,false,false,10,1",
            // The position after 6... O-O-O again.
            "16,8,black,Qd7,e8d7,Q,e8,d7,,,,false,false,false,11,2",
        ]
    );
}

#[test]
fn chess960_castles_king_takes_rook_and_repetition_counts_the_start() {
    let pgn = "[Variant \"Chess960\"]\n[FEN \"rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1\"]\n[SetUp \"1\"]\n\n\
               1. O-O-O O-O 2. Kb1 Kh8 3. Kc1 Kg8 *\n";
    let rows = moves_part(&moves_of(pgn, &[]));
    assert_eq!(
        rows,
        [
            "1,1,white,O-O-O,b1a1,K,b1,a1,,,O-O-O,false,false,false,1,1",
            "2,1,black,O-O,b8h8,K,b8,h8,,,O-O,false,false,false,2,1",
            "3,2,white,Kb1,c1b1,K,c1,b1,,,,false,false,false,3,1",
            "4,2,black,Kh8,g8h8,K,g8,h8,,,,false,false,false,4,1",
            "5,3,white,Kc1,b1c1,K,b1,c1,,,,false,false,false,5,1",
            // After 1... O-O, with the rights gone either way: the second time.
            "6,3,black,Kg8,h8g8,K,h8,g8,,,,false,false,false,6,2",
        ]
    );
}

#[test]
fn promotion_with_capture_and_mate_from_a_fen() {
    let pgn = "[FEN \"1n5k/P4R2/6P1/8/8/8/8/K7 w - - 0 40\"]\n[SetUp \"1\"]\n\n40. axb8=Q# 1-0\n";
    let rows = moves_of(pgn, &[]);
    assert_eq!(
        moves_part(&rows),
        ["1,40,white,axb8=Q#,a7b8q,P,a7,b8,N,Q,,false,true,true,0,1"]
    );
}

#[test]
fn a_game_stopped_at_an_error_gives_its_moves_up_to_it() {
    let pgn = "1. e4 e5 2. Ke3 Nf6 *\n\n1. d4 *\n";
    let rows = moves_of(pgn, &[]);
    let games: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| {
            let c: Vec<&str> = r.split(',').collect();
            (c[1], c[6])
        })
        .collect();
    assert_eq!(games, [("1", "e4"), ("1", "e5"), ("2", "d4")]);
}

#[test]
fn keys_are_polyglot_keys() {
    // The keys the PolyGlot book format's description lists for these positions (after
    // e4 d5 e5 f5 a capture en passant is possible: its file counts).
    let rows = moves_of("1. e4 d5 2. e5 f5 3. Ke2 *\n", &[]);
    let keys: Vec<u64> = rows
        .iter()
        .map(|r| r.split(',').nth(17).unwrap().parse().unwrap())
        .collect();
    assert_eq!(
        keys,
        [
            0x823c9b50fd114196,
            0x0756b94461c50fb0,
            0x662fafb965db29d4,
            0x22a48b5a8e47ff78,
            0x652a607ca3f242c1,
        ]
    );
}

#[test]
fn clocks_move_times_evaluations_and_nags() {
    let pgn = "[TimeControl \"180+2\"]\n\n\
               1. e4 { [%clk 0:03:00] [%eval 0.2] } e5?! { [%clk 0:02:59.5] [%eval #-3] } \
               2. Nf3 $1 { [%clk 0:02:55] } Nc6 { [%clk 0:03:05] } 3. Bc4 !! *\n";
    let rows = moves_of(pgn, &[]);
    let tail: Vec<String> = rows
        .iter()
        .map(|r| r.split(',').skip(20).collect::<Vec<_>>().join(","))
        .collect();
    assert_eq!(
        tail,
        [
            // 180 + 2 - 180: the increment counts on the first move.
            "180,2,20,,",
            "179.5,2.5,,-3,$6",
            "175,7,,,$1",
            // A clock that went up: the move took no time (clamped).
            "185,0,,,",
            ",,,,$3",
        ]
    );
}

#[test]
fn move_times_from_emt_and_cutechess() {
    let pgn = "1. e4 { [%emt 0:00:03] } e5 {+0.30/12 1.5s} 2. Nf3 { book } *\n";
    let rows = moves_of(pgn, &[]);
    let tail: Vec<String> = rows
        .iter()
        .map(|r| r.split(',').skip(20).collect::<Vec<_>>().join(","))
        .collect();
    // cutechess's score is the mover's: Black's +0.30 is White's -30.
    assert_eq!(tail, [",3,,,", ",1.5,-30,,", ",,,,"]);
}

#[test]
fn fen_comments_and_tags_columns() {
    let pgn = "[White \"A, B\"]\n\n1. e4 {Best by test [%clk 0:01:00]  here} (1. d4 {no}) 1... c5 { } ;end\n2. Nf3 *\n";
    let (code, stdout, _) = run(
        &[
            "moves",
            "--fen",
            "--comments",
            "--tags",
            "White,Site",
            "--ep",
            "legal",
        ],
        pgn,
    );
    assert_eq!(code, 0);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[0],
        HEADER
            .replace(",key,", ",key,fen,")
            .replace(",nags", ",nags,comment,White,Site")
    );
    assert_eq!(
        lines[1],
        "-,1,1,1,1,white,e4,e2e4,P,e2,e4,,,,false,false,false,9384546495678726550,\
         rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1,0,1,60,,,,,Best by test here,\"A, B\","
    );
    assert!(lines[2].ends_with(",end,\"A, B\","), "{}", lines[2]);
    assert!(lines[3].ends_with(",,,,,,\"A, B\","), "{}", lines[3]);
    // `;end` is the comment after 1... c5, on the line before 2. Nf3.
    let (_, stdout, _) = run(&["moves", "--comments"], pgn);
    let rows: Vec<&str> = stdout.lines().collect();
    assert!(rows[2].ends_with(",end"), "{}", rows[2]);
}

#[test]
fn jsonl_types_the_cells() {
    let pgn = "1. e4 { [%eval -0.5] [%clk 0:00:09.5] } *\n";
    let (code, stdout, _) = run(&["moves", "--format", "jsonl"], pgn);
    assert_eq!(code, 0);
    let row: serde_json::Value = serde_json::from_str(stdout.lines().next().unwrap()).unwrap();
    assert_eq!(row["key"], serde_json::json!(9384546495678726550u64));
    assert_eq!(row["eval_cp"], serde_json::json!(-50));
    assert_eq!(row["clock"], serde_json::json!(9.5));
    assert_eq!(row["check"], serde_json::json!(false));
    assert_eq!(row["captured"], serde_json::Value::Null);
    assert_eq!(row["eval_mate"], serde_json::Value::Null);
}

/// Every ply of the lichess games: `key` is python-chess's `zobrist_hash` of the
/// position after the move (when python-chess is installed).
#[test]
fn keys_equal_python_chess_on_lichess_games() {
    let has_chess = std::process::Command::new("python3")
        .args(["-c", "import chess.polyglot"])
        .status()
        .is_ok_and(|s| s.success());
    // Without python-chess there is nothing to compare with (as without DuckDB).
    if !has_chess {
        return;
    }
    for file in ["parquet/lichess.pgn", "parquet/source.pgn"] {
        let path = testdata(file);
        let (code, stdout, stderr) =
            run_args(&["moves", "--format", "csv", path.to_str().unwrap()]);
        assert_eq!(code, 0, "{stderr}");
        let ours: Vec<String> = stdout
            .lines()
            .skip(1)
            .map(|r| {
                let c: Vec<&str> = r.split(',').collect();
                format!("{} {} {}", c[1], c[3], c[17])
            })
            .collect();
        assert!(!ours.is_empty());
        let script = "import sys, chess.pgn, chess.polyglot\n\
                      f = open(sys.argv[1], encoding='utf-8')\n\
                      n = 0\n\
                      while True:\n    \
                          g = chess.pgn.read_game(f)\n    \
                          if g is None: break\n    \
                          n += 1\n    \
                          b = g.board()\n    \
                          for i, m in enumerate(g.mainline_moves(), 1):\n        \
                              b.push(m)\n        \
                              print(n, i, chess.polyglot.zobrist_hash(b))\n";
        let out = std::process::Command::new("python3")
            .args(["-c", script, path.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let theirs: Vec<String> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        assert_eq!(ours, theirs, "{file}");
    }
}

/// A cell of a Parquet row as the CSV writes it.
fn parquet_text(field: &parquet::record::Field) -> String {
    use parquet::record::Field;
    match field {
        Field::Null => String::new(),
        Field::Bool(b) => b.to_string(),
        Field::Long(n) => n.to_string(),
        Field::ULong(n) => n.to_string(),
        Field::Double(d) => d.to_string(),
        Field::Str(s) => s.clone(),
        other => panic!("a column of an unexpected type: {other:?}"),
    }
}

/// The Parquet file holds the CSV's cells, typed: `key` as UINT_64 (read back unsigned,
/// above 2^63 too), clocks as doubles, booleans, null for empty cells.
#[test]
fn parquet_cells_are_the_csv_cells_typed() {
    use parquet::basic::LogicalType;
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let pgn = testdata("parquet/lichess.pgn");
    let pgn = pgn.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("moves.parquet");
    let out = out.to_str().unwrap();
    let args = ["moves", "--tags", "White", "--threads", "2"];
    let (code, _, stderr) =
        run_args(&[&args[..], &["--format", "parquet", "-o", out, pgn]].concat());
    assert_eq!(code, 0, "{stderr}");
    let (_, csv, _) = run_args(&[&args[..], &[pgn]].concat());
    let reader = SerializedFileReader::new(std::fs::File::open(out).unwrap()).unwrap();
    let schema = reader.metadata().file_metadata().schema_descr();
    let key = schema.columns().iter().find(|c| c.name() == "key").unwrap();
    assert!(matches!(
        key.logical_type_ref(),
        Some(LogicalType::Integer(t)) if t.bit_width == 64 && !t.is_signed
    ));
    let rows: Vec<String> = reader
        .get_row_iter(None)
        .unwrap()
        .map(|row| {
            let row = row.unwrap();
            let cells: Vec<String> = row
                .get_column_iter()
                .map(|(_, f)| parquet_text(f))
                .collect();
            cells.join(",")
        })
        .collect();
    // The CSV's quotes aside (tag values with commas), the rows are the same.
    let csv: Vec<String> = csv.lines().skip(1).map(|l| l.replace('"', "")).collect();
    assert!(rows.len() > 100);
    assert!(rows.iter().any(
        |r| r.contains(",1") && r.split(',').nth(17).unwrap().parse::<u64>().unwrap() > 1 << 63
    ));
    assert_eq!(rows, csv);
}

/// A lichess Parquet table gives the moves of the same games as PGN.
#[test]
fn a_lichess_table_gives_the_moves_of_its_pgn() {
    let cut = |text: String| -> Vec<String> {
        text.lines()
            .skip(1)
            .map(|l| l.split(',').skip(3).collect::<Vec<_>>().join(","))
            .collect()
    };
    let (_, table, _) = run_args(&[
        "moves",
        testdata("parquet/lichess.parquet").to_str().unwrap(),
    ]);
    let (_, pgn, _) = run_args(&["moves", testdata("parquet/lichess.pgn").to_str().unwrap()]);
    let table = cut(table);
    assert!(table.len() > 100);
    assert_eq!(table, cut(pgn));
}

/// After 1... c5 the pawn on b5 is pinned: no capture en passant is legal, but one is
/// pseudo-legal, and PolyGlot (python-chess's `zobrist_hash`) counts the file then.
#[test]
fn a_pinned_en_passant_pawn_still_counts_in_the_key() {
    let pgn = "[FEN \"4k3/2p5/8/KP5r/8/8/8/8 b - - 0 1\"]\n[SetUp \"1\"]\n\n1... c5 *\n";
    let rows = moves_of(pgn, &[]);
    assert_eq!(rows[0].split(',').nth(17), Some("3825361906023198151"));
}

/// The moves of each game as `--per-game` lists them: per column, the cells of its moves'
/// records in ply order (JSON values as the per-move JSON lines have them).
fn per_move_lists(jsonl: &str) -> Vec<serde_json::Map<String, serde_json::Value>> {
    let mut games: Vec<serde_json::Map<String, serde_json::Value>> = Vec::new();
    let skip = ["file", "game", "line", "ply", "move_number", "color"];
    for line in jsonl.lines() {
        let row: serde_json::Map<String, serde_json::Value> = serde_json::from_str(line).unwrap();
        if row["ply"] == 1 {
            let mut game = serde_json::Map::new();
            for key in ["file", "game", "line"] {
                game.insert(key.into(), row[key].clone());
            }
            game.insert("plies".into(), 0.into());
            games.push(game);
        }
        let game = games.last_mut().unwrap();
        game["plies"] = (game["plies"].as_u64().unwrap() + 1).into();
        for (key, value) in row {
            if skip.contains(&key.as_str()) {
                continue;
            }
            if key == "White" {
                game.insert(key, value);
                continue;
            }
            let list = game.entry(key).or_insert_with(|| serde_json::json!([]));
            list.as_array_mut().unwrap().push(value);
        }
    }
    games
}

#[test]
fn per_game_lists_the_cells_of_each_move() {
    let path = testdata("parquet/lichess.pgn");
    let path = path.to_str().unwrap();
    let flags = [
        "moves",
        "--fen",
        "--comments",
        "--tags",
        "White",
        "--format",
        "jsonl",
    ];
    let (code, per_move, _) = run_args(&[&flags[..], &[path]].concat());
    assert_eq!(code, 0);
    let (code, per_game_text, _) = run_args(&[&flags[..], &["--per-game", path]].concat());
    assert_eq!(code, 0);
    let per_game: Vec<serde_json::Map<String, serde_json::Value>> = per_game_text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let expected = per_move_lists(&per_move);
    assert!(expected.len() > 3);
    assert_eq!(per_game, expected);
    // The keys are in the order of the per-move columns (the tag last).
    let first = per_game_text.lines().next().unwrap();
    let at = |key: &str| first.find(&format!("\"{key}\":")).unwrap();
    let order = [
        "file", "game", "line", "plies", "san", "uci", "key", "fen", "nags", "comment", "White",
    ];
    assert!(
        order.windows(2).all(|pair| at(pair[0]) < at(pair[1])),
        "{first}"
    );
}

#[test]
fn per_game_is_refused_in_csv() {
    let (code, stdout, stderr) = run(&["moves", "--per-game"], "1. e4 *\n");
    assert_eq!(code, 2, "{stderr}");
    assert!(stdout.is_empty());
    assert!(stderr.contains("--per-game"), "{stderr}");
}

/// `--per-game --format parquet`: LIST columns of the element types, the lists equal to
/// the JSON lines' (a null element where the cell is empty).
#[test]
fn per_game_parquet_lists_are_the_jsonl_lists() {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::record::Field;
    let path = testdata("parquet/lichess.pgn");
    let path = path.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games.parquet");
    let out = out.to_str().unwrap();
    let flags = ["moves", "--per-game", "--comments", "--tags", "White"];
    let (code, _, stderr) =
        run_args(&[&flags[..], &["--format", "parquet", "-o", out, path]].concat());
    assert_eq!(code, 0, "{stderr}");
    let (_, jsonl, _) = run_args(&[&flags[..], &["--format", "jsonl", path]].concat());
    let to_json = |field: &Field| -> serde_json::Value {
        match field {
            Field::Null => serde_json::Value::Null,
            Field::Bool(b) => (*b).into(),
            Field::Long(n) => (*n).into(),
            Field::ULong(n) => (*n).into(),
            // JSON lines write whole seconds as integers.
            Field::Double(d) if d.fract() == 0.0 => (*d as i64).into(),
            Field::Double(d) => (*d).into(),
            Field::Str(s) => s.clone().into(),
            other => panic!("unexpected {other:?}"),
        }
    };
    let reader = SerializedFileReader::new(std::fs::File::open(out).unwrap()).unwrap();
    let rows: Vec<serde_json::Value> = reader
        .get_row_iter(None)
        .unwrap()
        .map(|row| {
            let row = row.unwrap();
            let mut object = serde_json::Map::new();
            for (name, field) in row.get_column_iter() {
                let value = match field {
                    Field::ListInternal(list) => {
                        serde_json::Value::Array(list.elements().iter().map(to_json).collect())
                    }
                    other => to_json(other),
                };
                object.insert(name.clone(), value);
            }
            serde_json::Value::Object(object)
        })
        .collect();
    let expected: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert!(expected.len() > 3);
    assert_eq!(rows, expected);
}
