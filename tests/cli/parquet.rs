//! Parquet in and out (SPEC.md "Parquet", issue 29): tables written by pyarrow
//! (testdata/parquet/, scripts/parquet_fixtures.py) read as games by every command, and
//! `--format parquet` read back cell for cell against `--format jsonl`. (DuckDB reads our
//! files in spark/tests/test_parquet.py; output at 1, 2 and 3 threads: `determinism`.)

use std::fs::File;
use std::sync::Arc;

use parquet::basic::{Compression, Repetition, Type as Physical};
use parquet::data_type::{ByteArray, ByteArrayType};
use parquet::file::properties::WriterProperties;
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::file::writer::SerializedFileWriter;
use parquet::record::Field;
use parquet::schema::types::Type;

use crate::util::*;

fn table(name: &str) -> String {
    testdata(&format!("parquet/{name}"))
        .to_str()
        .unwrap()
        .to_string()
}

/// Stats rows without `file`, `game` and `line`.
fn without_position(rows: &[Row]) -> Vec<Vec<(String, String)>> {
    rows.iter()
        .map(|row| {
            let mut cells: Vec<_> = row
                .iter()
                .filter(|(k, _)| !matches!(k.as_str(), "file" | "game" | "line"))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            cells.sort();
            cells
        })
        .collect()
}

fn stats(args: &[&str]) -> Vec<Row> {
    let mut all = vec!["stats", "--quiet"];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = run_args(&all);
    assert_eq!(code, 0, "{stderr}");
    rows_of(&stdout)
}

#[test]
fn stats_of_a_lichess_table_equals_stats_of_its_pgn_and_game_and_line_are_the_row() {
    let tags = "--tags=UTCDate,UTCTime,WhiteRatingDiff,BlackElo,Opening";
    let from_table = stats(&[tags, &table("lichess.parquet")]);
    let from_pgn = stats(&[tags, &table("lichess.pgn")]);
    assert_eq!(from_table.len(), 60);
    assert_eq!(without_position(&from_table), without_position(&from_pgn));
    for (i, row) in from_table.iter().enumerate() {
        assert_eq!(row["game"], (i + 1).to_string());
        assert_eq!(row["line"], (i + 1).to_string());
    }
    // date32, time32[s] and int16 cells as tag text; no `Date` column, so no date.
    let first = &from_table[0];
    assert_eq!(first["UTCDate"], "2025.05.01");
    assert_eq!(first["UTCTime"], "00:00:06");
    assert_eq!(first["WhiteRatingDiff"], "-5");
    assert_eq!(first["BlackElo"], "1132");
    assert_eq!(first["date"], "");
    assert_eq!(first["white_clock_end"], "172");
}

#[test]
fn every_compression_is_read() {
    let all = stats(&[&table("lichess.parquet")]);
    let first_twelve = without_position(&all[..12]);
    for codec in ["snappy", "gzip", "lz4", "brotli", "none"] {
        let rows = stats(&[&table(&format!("lichess-{codec}.parquet"))]);
        assert_eq!(without_position(&rows), first_twelve, "{codec}");
    }
}

#[test]
fn select_writes_the_rows_as_pgn_that_reads_back_to_the_same_stats() {
    let (code, pgn, stderr) = run_args(&["select", "--quiet", &table("lichess.parquet")]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        pgn.starts_with("[Event \"Rated Blitz game\"]\n[Site "),
        "{pgn}"
    );
    assert!(pgn.contains("[UTCDate \"2025.05.01\"]\n"));
    assert!(!pgn.contains("[Date "));
    let (_dir, path) = temp_file("selected.pgn", pgn.as_bytes());
    let again = stats(&[path.to_str().unwrap()]);
    let from_table = stats(&[&table("lichess.parquet")]);
    assert_eq!(without_position(&again), without_position(&from_table));
    // And the filters see the tags: 1 game of 60 is rated below 1000 for white.
    let (_, count, _) = run_args(&[
        "select",
        "--quiet",
        "--count",
        "--where",
        "WhiteElo < 1000",
        &table("lichess.parquet"),
    ]);
    let expected = from_table
        .iter()
        .filter(|row| row["white_elo"].parse::<u32>().unwrap() < 1000)
        .count();
    assert_eq!(count.trim(), expected.to_string());
}

#[test]
fn every_command_reads_a_table() {
    let path = table("lichess-none.parquet");
    let (code, out, err) = run_args(&["validate", "--quiet", "--format", "jsonl", &path]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "");
    let (code, out, _) = run_args(&["fen", "--quiet", &path]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 12);
    let (code, out, _) = run_args(&["convert", "--quiet", &path]);
    assert_eq!(code, 0);
    assert_eq!(out.matches("[Event ").count(), 12);
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("r.html");
    let (code, _, err) = run_args(&["report", "--quiet", &path, "-o", html.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&html).unwrap().contains("12"));
    let (code, out, _) = run_args(&["select", "--quiet", "--count", &path]);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), "12");
}

#[test]
fn shards_split_a_table_by_row() {
    let path = table("lichess.parquet");
    let all = stats(&[&path]);
    let mut parts: Vec<Row> = Vec::new();
    for shard in ["0/3", "1/3", "2/3"] {
        parts.extend(stats(&["--shard", shard, &path]));
    }
    assert_eq!(parts.len(), all.len());
    parts.sort_by_key(|row| row["game"].parse::<u64>().unwrap());
    assert_eq!(parts, all);
}

#[test]
fn a_folder_reads_parquet_files_beside_pgn_files() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(table("lichess-gzip.parquet"), dir.path().join("a.parquet")).unwrap();
    std::fs::copy(testdata("clean.pgn"), dir.path().join("b.pgn")).unwrap();
    let rows = stats(&[dir.path().to_str().unwrap()]);
    assert_eq!(rows.len(), 12 + 2);
    assert!(rows[0]["file"].ends_with("a.parquet"));
    assert!(rows[12]["file"].ends_with("b.pgn"));
}

#[test]
fn columns_that_are_no_tags_are_skipped_with_one_warning_and_other_types_are_text() {
    let (code, stdout, stderr) = run_args(&[
        "stats",
        "--tags",
        "Rated,Accuracy,Event",
        &table("pandas.parquet"),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let warnings: Vec<_> = stderr
        .lines()
        .filter(|l| l.starts_with("pgnkit: warning:"))
        .collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
    assert!(
        warnings[0].contains("`__index_level_0__` (not a tag name)"),
        "{stderr}"
    );
    assert!(warnings[0].contains("Moves"), "{stderr}");
    let rows = rows_of(&stdout);
    assert_eq!(rows.len(), 2);
    assert_eq!(
        (rows[0]["Rated"].as_str(), rows[0]["Accuracy"].as_str()),
        ("true", "0.1")
    );
    // A null is an absent tag; a null movetext is a game without moves.
    assert_eq!(
        (rows[1]["Rated"].as_str(), rows[1]["Accuracy"].as_str()),
        ("", "2.5")
    );
    assert_eq!(rows[1]["plies"], "0");
}

#[test]
fn cells_that_are_not_utf8_are_read_as_latin1_and_the_batch_goes_on() {
    let rows = stats(&["--tags", "White,Event", &table("latin1.parquet")]);
    let cells: Vec<_> = rows
        .iter()
        .map(|r| {
            (
                r["White"].as_str(),
                r["Event"].as_str(),
                r["plies"].as_str(),
            )
        })
        .collect();
    assert_eq!(
        cells,
        [
            ("Anna", "ok", "2"),
            ("Jörg", "café \"open\"", "2"),
            ("Zoé", "ok", "1")
        ]
    );
    // select writes the cells' own bytes, the quote escaped.
    let output = pgnkit()
        .args(["select", "--quiet", &table("latin1.parquet")])
        .output()
        .unwrap();
    let pgn = output.stdout;
    let wanted: &[u8] =
        b"[White \"J\xf6rg\"]\n[Event \"caf\xe9 \\\"open\\\"\"]\n\n1. d4 { caf\xe9 } d5 0-1\n";
    assert!(pgn.windows(wanted.len()).any(|w| w == wanted), "{pgn:?}");
}

#[test]
fn a_table_without_movetext_or_on_stdin_is_an_input_error_and_other_inputs_are_read() {
    for (name, words) in [
        ("no-movetext.parquet", "without a string column `movetext`"),
        (
            "movetext-not-string.parquet",
            "`movetext` column is not a string",
        ),
    ] {
        let (code, stdout, stderr) = run_args(&["stats", &table(name), &testdata_str("clean.pgn")]);
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stderr.contains(&format!("cannot open {}", table(name))),
            "{stderr}"
        );
        assert!(stderr.contains(words), "{stderr}");
        assert_eq!(rows_of(&stdout).len(), 2, "clean.pgn is still read");
    }
    let bytes = std::fs::read(table("lichess.parquet")).unwrap();
    let output = pgnkit()
        .args(["stats", "-"])
        .write_stdin(bytes)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("a Parquet file: give its path"), "{stderr}");
}

fn testdata_str(name: &str) -> String {
    testdata(name).to_str().unwrap().to_string()
}

#[test]
fn damaged_tables_are_input_errors_that_say_so() {
    for name in [
        "truncated.parquet",
        "wrong-magic.parquet",
        "footer-outside.parquet",
        // Found by the fuzz target: the parquet crate asserts on a negative chunk offset.
        "negative-offset.parquet",
    ] {
        let (code, stdout, stderr) = run_args(&["validate", "--format", "jsonl", &table(name)]);
        assert_eq!(code, 2, "{name}: {stderr}");
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "cannot open {}: not a readable Parquet file",
                table(name)
            )),
            "{name}: {stderr}"
        );
        assert_eq!(stdout, "");
    }
}

#[test]
fn a_page_the_parquet_crate_panics_on_is_an_input_error() {
    // Found by the fuzz target: a dictionary page cut short makes the crate's decoder
    // index past its bytes.
    let path = table("bad-dictionary-page.parquet");
    for threads in ["1", "2"] {
        let (code, _, stderr) =
            run_args(&["stats", "--threads", threads, "-o", "/dev/null", &path]);
        assert_eq!(code, 2, "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(
            stderr.contains(&format!("cannot read {path}: a damaged Parquet page")),
            "{stderr}"
        );
    }
}

/// A table of one string column `movetext` with these cells, written with the parquet
/// crate (a 100 MB cell is made here rather than committed).
fn movetext_table(cells: &[Vec<u8>]) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.parquet");
    let field = Type::primitive_type_builder("movetext", Physical::BYTE_ARRAY)
        .with_repetition(Repetition::OPTIONAL)
        .with_logical_type(Some(parquet::basic::LogicalType::String))
        .build()
        .unwrap();
    let schema = Type::group_type_builder("schema")
        .with_fields(vec![Arc::new(field)])
        .build()
        .unwrap();
    let properties = WriterProperties::builder()
        .set_compression(Compression::ZSTD(Default::default()))
        .set_dictionary_enabled(false)
        .build();
    let file = File::create(&path).unwrap();
    let mut writer =
        SerializedFileWriter::new(file, Arc::new(schema), Arc::new(properties)).unwrap();
    let mut group = writer.next_row_group().unwrap();
    let mut column = group.next_column().unwrap().unwrap();
    let values: Vec<ByteArray> = cells.iter().map(|c| ByteArray::from(c.clone())).collect();
    let defined = vec![1i16; cells.len()];
    column
        .typed::<ByteArrayType>()
        .write_batch(&values, Some(&defined), None)
        .unwrap();
    column.close().unwrap();
    group.close().unwrap();
    writer.close().unwrap();
    (dir, path)
}

#[test]
fn a_movetext_cell_of_100_megabytes_hits_the_game_limit_in_bounded_memory() {
    let mut huge = b"1. e4 { ".to_vec();
    huge.resize(100 * 1024 * 1024, b'x');
    huge.extend_from_slice(b" } e5 *");
    let (_dir, path) = movetext_table(&[huge, b"1. d4 d5 *".to_vec()]);
    let path = path.to_str().unwrap();
    // The cell, decompressed, is held once (its page) and cut at the game limit.
    let (code, stdout, stderr) = run_memory_limited(
        &[
            "validate",
            "--format",
            "jsonl",
            "--quiet",
            "--threads",
            "2",
            path,
        ],
        900,
    );
    assert_eq!(code, 1, "{stderr}");
    let findings: Vec<serde_json::Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(findings.len(), 1, "{stdout}");
    assert_eq!(findings[0]["code"], "input.limit-exceeded");
    assert_eq!(findings[0]["game"], 1);
    let (code, count, stderr) = run_memory_limited(&["select", "--count", "--quiet", path], 900);
    assert_eq!((code, count.trim()), (0, "2"), "{stderr}");
}

#[test]
fn a_row_group_of_ten_million_empty_rows_is_read_in_bounded_memory() {
    let (code, count, stderr) = run_memory_limited(
        &[
            "select",
            "--count",
            "--quiet",
            "--threads",
            "2",
            &table("empty-rows.parquet"),
        ],
        256,
    );
    assert_eq!((code, count.trim()), (0, "10000000"), "{stderr}");
}

/// The JSON value a Parquet cell must equal.
fn json_of(field: &Field) -> serde_json::Value {
    match field {
        Field::Null => serde_json::Value::Null,
        Field::Bool(b) => serde_json::Value::Bool(*b),
        Field::Long(n) => serde_json::json!(n),
        Field::Double(x) => serde_json::json!(x),
        Field::Str(s) => serde_json::Value::String(s.clone()),
        other => panic!("a cell of an unexpected type: {other:?}"),
    }
}

/// `args --format parquet` read back: its columns' names and physical types, and its rows
/// as JSON values; compared with `args --format jsonl`, cell for cell.
fn parquet_equals_jsonl(args: &[&str]) -> Vec<(String, Physical)> {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.parquet");
    let mut all = args.to_vec();
    all.extend([
        "--quiet",
        "--format",
        "parquet",
        "-o",
        out.to_str().unwrap(),
    ]);
    let (code, _, stderr) = run_args(&all);
    assert!(code == 0 || code == 1, "{args:?}: {stderr}");
    let mut all = args.to_vec();
    all.extend(["--quiet", "--format", "jsonl"]);
    let (_, jsonl, _) = run_args(&all);
    let mut all = args.to_vec();
    all.extend(["--quiet", "--format", "csv"]);
    let (_, csv, _) = run_args(&all);
    let header: Vec<String> = csv
        .lines()
        .next()
        .unwrap()
        .split(',')
        .map(String::from)
        .collect();
    let expected: Vec<serde_json::Map<String, serde_json::Value>> = jsonl
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let reader = SerializedFileReader::new(File::open(&out).unwrap()).unwrap();
    let schema = reader.metadata().file_metadata().schema_descr_ptr();
    let columns: Vec<(String, Physical)> = schema
        .columns()
        .iter()
        .map(|c| (c.name().to_string(), c.physical_type()))
        .collect();
    let rows: Vec<_> = reader
        .get_row_iter(None)
        .unwrap()
        .map(|r| r.unwrap())
        .collect();
    assert_eq!(rows.len(), expected.len(), "{args:?}");
    assert!(!rows.is_empty(), "{args:?}");
    let names: Vec<String> = columns.iter().map(|(name, _)| name.clone()).collect();
    assert_eq!(names, header, "{args:?}: the CSV columns in their order");
    for (row, object) in rows.iter().zip(&expected) {
        assert_eq!(row.len(), object.len(), "{args:?}");
        for (name, field) in row.get_column_iter() {
            assert_eq!(&json_of(field), &object[name], "{args:?}: {name}");
        }
    }
    columns
}

#[test]
fn parquet_output_is_jsonl_typed_for_stats_validate_fen_and_check_fen() {
    let lichess = testdata_str("bench/lichess_manwithavan.pgn");
    let columns = parquet_equals_jsonl(&["stats", "--tags", "TimeControl,Nope", &lichess]);
    let type_of = |name: &str| columns.iter().find(|(n, _)| n == name).unwrap().1;
    assert_eq!(type_of("plies"), Physical::INT64);
    assert_eq!(type_of("white_clock_end"), Physical::DOUBLE);
    assert_eq!(type_of("perpetual_check"), Physical::BOOLEAN);
    assert_eq!(type_of("Nope"), Physical::BYTE_ARRAY);
    assert_eq!(columns.last().unwrap().0, "Nope");
    parquet_equals_jsonl(&[
        "validate",
        "--level",
        "info",
        &testdata_str("validate/codes.pgn"),
    ]);
    parquet_equals_jsonl(&["fen", "--every-ply", &testdata_str("clean.pgn")]);
    let fens = testdata_str("check_fen/positions.txt");
    if std::path::Path::new(&fens).exists() {
        parquet_equals_jsonl(&["check-fen", "--input", &fens]);
    } else {
        let (_dir, path) = temp_file(
            "fens.txt",
            b"8/8/8/8/8/8/8/8 w - - 0 1\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n",
        );
        parquet_equals_jsonl(&["check-fen", "--input", path.to_str().unwrap()]);
    }
}

#[test]
fn parquet_output_of_no_record_is_a_file_with_the_columns() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.parquet");
    let (code, _, stderr) = run(
        &["stats", "--format", "parquet", "-o", out.to_str().unwrap()],
        "",
    );
    assert_eq!(code, 0, "{stderr}");
    let reader = SerializedFileReader::new(File::open(&out).unwrap()).unwrap();
    assert_eq!(reader.metadata().file_metadata().num_rows(), 0);
    let columns = reader.metadata().file_metadata().schema_descr_ptr();
    assert_eq!(columns.column(0).name(), "file");
}

#[test]
fn parquet_is_refused_on_a_terminal() {
    // `script` gives the command a terminal for stdout.
    let binary = assert_cmd::cargo::cargo_bin("pgnkit");
    let command = format!(
        "{} stats --format parquet {}; echo \"exit $?\"",
        binary.display(),
        testdata_str("clean.pgn")
    );
    let output = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(std::process::Stdio::null())
        .output();
    let Ok(output) = output else {
        return; // no `script` here
    };
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("exit 2"), "{text}");
    assert!(
        text.contains("--format parquet writes a binary file"),
        "{text}"
    );
    assert!(!text.contains("PAR1"), "{text}");
}
