//! See the parent module.

#[allow(unused_imports)]
use crate::util::*;

// fatal errors create no output

#[test]
fn no_input_that_opens_creates_no_output_and_claims_no_games() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("kept.csv"), "old rows\n").unwrap();
    for args in [
        &[
            "validate",
            "missing.pgn",
            "--clean-out",
            "a.pgn",
            "--broken-out",
            "b.pgn",
        ][..],
        &["validate", "missing.pgn", "-o", "findings.txt"][..],
        &[
            "stats",
            "missing.pgn",
            "-o",
            "kept.csv",
            "--summary-output",
            "s.csv",
        ][..],
        &["report", "missing.pgn", "-o", "r.html"][..],
    ] {
        let output = pgnkit()
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(
            stderr,
            "pgnkit: cannot open missing.pgn: No such file or directory (os error 2)\n\
             pgnkit: no input could be opened: nothing written\n",
            "{args:?}"
        );
        assert!(output.stdout.is_empty(), "{args:?}");
        let mut names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, vec!["kept.csv".to_string()], "{args:?}");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("kept.csv")).unwrap(),
            "old rows\n"
        );
    }

    // One input that opens is enough: the outputs are written from it, the missing one is
    // reported (exit 2) and the summary counts the file read.
    std::fs::copy(testdata("clean.pgn"), dir.path().join("clean.pgn")).unwrap();
    let output = pgnkit()
        .args([
            "validate",
            "missing.pgn",
            "clean.pgn",
            "--clean-out",
            "a.pgn",
            "--broken-out",
            "b.pgn",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("pgnkit: cannot open missing.pgn"),
        "{stderr}"
    );
    assert!(stderr.contains("pgnkit: 1 file, 2 games"), "{stderr}");
    let copy = std::fs::read_to_string(dir.path().join("a.pgn")).unwrap();
    assert_eq!(copy.matches("[Event ").count(), 2, "{copy}");
    assert_eq!(std::fs::read(dir.path().join("b.pgn")).unwrap(), b"");
}
