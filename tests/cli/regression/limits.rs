//! See the parent module.

#[allow(unused_imports)]
use crate::util::*;

use std::fs;

// Issue 27, item 14: `select --split-by` never writes a hidden file.

#[test]
fn split_by_turns_leading_dots_into_underscores_so_the_folder_reads_back_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("by");
    let pgn = "[Event \".\"]\n\n1. e4 *\n\n[Event \"..\"]\n\n1. d4 *\n\n\
               [Event \"../x\"]\n\n1. c4 *\n\n[Event \"a..b\"]\n\n1. f4 *\n";
    let out_dir = out.to_str().unwrap();
    let (code, _, stderr) = run(
        &["select", "-q", "--split-by", "Event", "--out-dir", out_dir],
        pgn,
    );
    assert_eq!(code, 0, "{stderr}");
    let mut names: Vec<String> = fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["_.pgn", "__.pgn", "___x.pgn", "a..b.pgn"]);
    // The folder rule skips hidden files: every game must come back.
    let (code, stdout, _) = run(&["select", "--count", out_dir], "");
    assert_eq!(code, 0);
    assert_eq!(stdout.trim(), "4");
}

// Issue 27, item 15: a deep `--where` is a usage error, not a stack overflow.

#[test]
fn deep_where_expressions_are_refused_with_a_caret_instead_of_aborting() {
    let parens = format!("{}plies > 1{}", "(".repeat(10_000), ")".repeat(10_000));
    let nots = format!("{}true", "!".repeat(60_000));
    for expr in [parens, nots] {
        let (code, stdout, stderr) = run(&["stats", "--where", &expr], "1. e4 *\n");
        assert_eq!(code, 2, "{stderr}");
        assert!(stdout.is_empty());
        assert!(stderr.contains("nests deeper than 256 levels"), "{stderr}");
        // The caret stands under the 257th level.
        let caret = stderr.lines().find(|l| l.trim() == "^").unwrap();
        assert_eq!(caret.find('^'), Some(2 + 256), "{caret}");
    }
    // 256 levels are fine, and so is a chain of 12,000 terms (no nesting at all; an
    // argument holds at most 128 KiB).
    let deep = format!("{}plies == 1{}", "(".repeat(256), ")".repeat(256));
    let chain = format!("plies == 1{}", " && true".repeat(12_000));
    for expr in [deep, chain] {
        let (code, stdout, stderr) = run(&["select", "--count", "--where", &expr], "1. e4 *\n");
        assert_eq!((code, stdout.trim()), (0, "1"), "{stderr}");
    }
}

// Issue 27, item 16: `report` memory does not grow with the findings.

#[test]
fn report_with_300_000_findings_runs_in_64_mb_of_address_space() {
    // One `tag.missing-roster` per game: the table held every row in memory (about
    // 140 MB here), the page as one string besides.
    let (_dir, path) = temp_file("stars.pgn", "*\n".repeat(300_000).as_bytes());
    let page = path.with_extension("html");
    let (code, _, stderr) = run_limited(
        &[
            "report",
            "--quiet",
            "--threads",
            "1",
            "--level",
            "info",
            path.to_str().unwrap(),
            "-o",
            page.to_str().unwrap(),
        ],
        64,
    );
    assert_eq!(code, 0, "{stderr}");
    let html = fs::read_to_string(&page).unwrap();
    assert!(html.contains("300,000 findings of severity info"));
    assert_eq!(
        html.matches("<tr><td>").count() - table_rows_outside(&html),
        300_000
    );
    assert!(html.trim_end().ends_with("</html>"));
}

/// The `<tr><td>` rows of the page that are not findings (the summary panels' and the
/// by-file table's).
fn table_rows_outside(html: &str) -> usize {
    let start = html.find("<h3>By code</h3>").unwrap();
    html[..start].matches("<tr><td>").count()
        + html[start..]
            .split("</section>")
            .skip(1)
            .map(|rest| rest.matches("<tr><td>").count())
            .sum::<usize>()
}

// Issue 27, item 17: `stats --tags` names make valid column names.

#[test]
fn stats_refuses_empty_and_repeated_tag_columns() {
    for (tags, says) in [
        ("A,A,,B", "`A` repeats `A`"),
        ("A,,B", "name 2 is empty"),
        (
            "TimeControl,timecontrol",
            "`timecontrol` repeats `TimeControl`",
        ),
        ("", "name 1 is empty"),
    ] {
        let (code, stdout, stderr) = run(&["stats", "--tags", tags], "1. e4 *\n");
        assert_eq!(code, 2, "--tags {tags}: {stderr}");
        assert!(stdout.is_empty(), "nothing is written before the check");
        assert!(stderr.contains(says), "--tags {tags}: {stderr}");
    }
    let (code, stdout, _) = run(&["stats", "--tags", "White,Black"], "1. e4 *\n");
    assert_eq!(code, 0);
    assert!(stdout.lines().next().unwrap().ends_with(",White,Black"));
}

// Issue 27, item 18: `stats --merge` is exact or fails.

#[test]
fn stats_merge_fails_naming_the_key_when_a_sum_does_not_fit_in_64_bits() {
    let dir = tempfile::tempdir().unwrap();
    let part = dir.path().join("part.sum.csv");
    fs::write(
        &part,
        "section,key,count\ngames,games,18446744073709551615\nresult,1-0,5\n",
    )
    .unwrap();
    let part = part.to_str().unwrap();
    let (code, stdout, stderr) = run_args(&["stats", "--merge", part, part]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stdout.is_empty());
    assert!(
        stderr.contains("`games,games` does not fit in 64 bits"),
        "{stderr}"
    );
    // The same key twice in one file adds up too, and is checked the same way.
    let twice = dir.path().join("twice.sum.csv");
    fs::write(
        &twice,
        "section,key,count\nresult,1-0,18446744073709551615\nresult,1-0,1\n",
    )
    .unwrap();
    let (code, _, stderr) = run_args(&["stats", "--merge", twice.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(stderr.contains("twice.sum.csv:3"), "{stderr}");
    assert!(stderr.contains("`result,1-0`"), "{stderr}");
    // The largest sum that fits is kept exactly.
    let fits = dir.path().join("fits.sum.csv");
    fs::write(
        &fits,
        "section,key,count\nresult,1-0,18446744073709551614\nresult,1-0,1\n",
    )
    .unwrap();
    let (code, stdout, stderr) = run_args(&["stats", "--merge", fits.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("result,1-0,18446744073709551615"),
        "{stdout}"
    );
}
