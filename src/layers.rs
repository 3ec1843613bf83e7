//! The layering the design asks for (ARCHITECTURE.md), checked on the sources: data flows
//! one way, input -> games (`pgn`) -> replay (`rules`) -> figures (`stats`) -> output, and
//! a module names no part of the crate that comes after it or beside it.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test fails loudly"
)]

use std::path::Path;

/// Each layer and the parts of the crate it must not name.
const FORBIDDEN: &[(&str, &[&str])] = &[
    (
        "pgn",
        &[
            "input", "rules", "stats", "output", "cmd", "cli", "pipeline",
        ],
    ),
    (
        "input",
        &["rules", "stats", "output", "cmd", "cli", "pipeline"],
    ),
    (
        "rules",
        &["input", "stats", "output", "cmd", "cli", "pipeline"],
    ),
    ("pipeline", &["rules", "stats", "cmd", "cli"]),
    // Figures only: how a row or a summary is written is the output layer's.
    ("stats", &["input", "output", "cmd", "cli", "pipeline"]),
];

/// Every `crate::NAME` a source file names outside comments.
fn crate_paths(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            found.push(name);
            rest = after;
        }
    }
    found
}

fn sources(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    let single = dir.with_extension("rs");
    if single.is_file() {
        files.push(single);
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// A module that names a layer it must not (`use crate::input::RawGame` in `rules/`)
/// fails this test, with the file and the name.
#[test]
fn layers_name_only_the_layers_before_them() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut wrong = Vec::new();
    for (layer, forbidden) in FORBIDDEN {
        let mut files = Vec::new();
        sources(&src.join(layer), &mut files);
        assert!(!files.is_empty(), "no sources for {layer}");
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for name in crate_paths(&text) {
                if forbidden.contains(&name.as_str()) {
                    wrong.push(format!("{}: crate::{name}", file.display()));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "forbidden imports:\n{}", wrong.join("\n"));
}

#[test]
fn crate_paths_are_found_in_code_only() {
    let text =
        "use crate::pgn::{Span};\n// crate::input\nlet x = crate::rules::replay(); // crate::cmd\n";
    assert_eq!(crate_paths(text), ["pgn", "rules"]);
}
