//! See the parent module.

#[allow(unused_imports)]
use crate::util::*;

// Archives pgnkit does not read are recognised by their magic bytes.

fn refused(name: &str, bytes: &[u8], hint: &str) {
    let (_dir, path) = temp_file(name, bytes);
    let path = path.to_str().unwrap();
    let (code, stdout, stderr) = run_args(&["validate", "--quiet", path]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert_eq!(stdout, "", "no game is read from it");
    assert!(
        stderr.contains(&format!("pgnkit: cannot open {path}: {hint}")),
        "{stderr}"
    );
    // Piped in, it is recognised too.
    let output = pgnkit()
        .args(["validate", "--quiet", "-"])
        .write_stdin(bytes.to_vec())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot open -: "));
}

#[test]
fn zip_archive_is_refused_with_how_to_extract_it() {
    refused(
        "games.zip",
        b"PK\x03\x04\x14\x00\x00\x00\x08\x00rest of a zip archive",
        "a zip archive: extract it first, e.g. `unzip -p",
    );
}

#[test]
fn xz_file_is_refused_with_how_to_decompress_it() {
    refused(
        "games.pgn.xz",
        b"\xfd7zXZ\x00\x00\x04\xe6\xd6\xb4\x46rest of an xz stream",
        "an xz file: decompress it first, e.g. `xz -dc",
    );
}

#[test]
fn seven_zip_archive_is_refused_with_how_to_extract_it() {
    refused(
        "games.7z",
        b"7z\xbc\xaf\x27\x1c\x00\x04rest of a 7z archive",
        "a 7z archive: extract it first, e.g. `7z x -so",
    );
}

#[test]
fn rar_archive_is_refused_with_how_to_extract_it() {
    refused(
        "games.rar",
        b"Rar!\x1a\x07\x01\x00rest of a rar archive",
        "a rar archive: extract it first, e.g. `unrar p",
    );
}
