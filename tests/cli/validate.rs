//! `pgnkit validate`: the foundation's codes, inputs and pipeline.

use crate::util::*;

#[test]
fn clean_game_has_no_findings_and_exits_0() {
    let (code, stdout, stderr) = run_args(&["validate", testdata("clean.pgn").to_str().unwrap()]);
    assert_eq!(code, 0, "stderr: {stderr}");
    assert_eq!(stdout, "");
    assert!(stderr.contains("1 file, 2 games"), "summary line: {stderr}");
}
