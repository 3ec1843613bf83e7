//! The layering of ARCHITECTURE.md, checked on the sources: every part of `src/` is in
//! `ALLOWED` with the parts it may name (`crate::NAME` in code), so that an edge against
//! the flow fails this test with the file and the name; and clap is named only where the
//! command line is defined (`cli.rs`, the commands' flags in `cmd/`, `main.rs`).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test fails loudly"
)]

use std::path::{Path, PathBuf};

/// The cross-cutting helpers (`say!` is `stderr`'s): any part above `rules` may use them.
const HELPERS: &[&str] = &["stderr", "say", "interrupt", "progress", "exit", "terminal"];

/// Each part of `src/` and the parts it may name besides itself; `+helpers` adds
/// `HELPERS`. A part missing here fails `every_part_is_in_the_table`.
const ALLOWED: &[(&str, &[&str])] = &[
    // The two models: a game's bytes, and a record's columns and cells.
    ("pgn", &[]),
    ("record", &[]),
    ("input", &["pgn"]),
    ("rules", &["pgn"]),
    ("stats", &["pgn", "rules", "record"]),
    ("filter", &["pgn", "rules", "stats", "record", "+helpers"]),
    ("pipeline", &["pgn", "input", "+helpers"]),
    ("output", &["pgn", "rules", "stats", "record", "+helpers"]),
    (
        "cmd",
        &[
            "pgn", "input", "rules", "stats", "record", "filter", "pipeline", "output", "cli",
            "+helpers",
        ],
    ),
    // The clap definitions, parsed into the parts' own types.
    (
        "cli",
        &[
            "pgn", "rules", "filter", "output", "pipeline", "cmd", "+helpers",
        ],
    ),
    ("stderr", &[]),
    ("interrupt", &["say"]),
    ("progress", &["terminal"]),
    ("exit", &[]),
    ("terminal", &[]),
];

/// The root: it declares the parts and dispatches to `cmd` (it may name anything).
const ROOT: &[&str] = &["lib", "main", "layers"];

/// Every `crate::NAME` a source file names in code (outside comments), each with whether
/// it stands in the file's `#[cfg(test)]` module.
fn crate_paths(text: &str) -> Vec<(String, bool)> {
    let mut found = Vec::new();
    let mut in_test = false;
    for line in text.lines() {
        in_test |= line.trim_start().starts_with("#[cfg(test)]");
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            found.push((name, in_test));
            rest = after;
        }
    }
    found
}

/// What a part's test modules may name besides its own edges: `input`, to build games
/// from text, for the parts after `rules` (which reads games but stands apart from
/// `input`: its tests make games with `RawGame::of_tag_lines` or build them elsewhere).
/// Nothing after the part in the flow: a test of the part's own output belongs to the
/// part that writes it.
const TESTS_ALSO: &[(&str, &[&str])] = &[
    ("stats", &["input"]),
    ("filter", &["input"]),
    ("output", &["input"]),
];

/// Whether a test module of `part` may name `name` beyond the part's own edges.
fn test_may_name(part: &str, name: &str) -> bool {
    TESTS_ALSO
        .iter()
        .any(|(tested, names)| *tested == part && names.contains(&name))
}

/// The sources of a part: `src/NAME.rs` and everything below `src/NAME/`.
fn sources(dir: &Path, files: &mut Vec<PathBuf>) {
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

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The names a part may use.
fn allowed(part: &str) -> Vec<&'static str> {
    let (_, names) = ALLOWED.iter().find(|(name, _)| *name == part).unwrap();
    let mut out = Vec::new();
    for name in *names {
        if *name == "+helpers" {
            out.extend_from_slice(HELPERS);
        } else {
            out.push(*name);
        }
    }
    out
}

/// The forbidden names of the sources under `src/`, as `file: crate::NAME` lines.
fn forbidden_edges(src: &Path) -> Vec<String> {
    let mut wrong = Vec::new();
    for (part, _) in ALLOWED {
        let mut files = Vec::new();
        sources(&src.join(part), &mut files);
        assert!(!files.is_empty(), "no sources for {part}");
        let allowed = allowed(part);
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for (name, in_test) in crate_paths(&text) {
                let also = in_test && test_may_name(part, &name);
                if name != *part && !allowed.contains(&name.as_str()) && !also {
                    wrong.push(format!("{}: crate::{name}", file.display()));
                }
            }
        }
    }
    wrong
}

/// A module that names a part it must not (`use crate::input::Splitter` in `rules/`)
/// fails this test, with the file and the name.
#[test]
fn layers_name_only_the_layers_before_them() {
    let wrong = forbidden_edges(&src());
    assert!(wrong.is_empty(), "forbidden imports:\n{}", wrong.join("\n"));
}

/// Every file and folder of `src/` is a part of the table or the root.
#[test]
fn every_part_is_in_the_table() {
    for entry in std::fs::read_dir(src()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        assert!(
            ROOT.contains(&name.as_str()) || ALLOWED.iter().any(|(part, _)| *part == name),
            "src/{name} is in no layer of src/layers.rs"
        );
    }
}

/// Clap is the command line's: `cli.rs`, the commands' flags (`cmd/`) and `main.rs`.
#[test]
fn clap_is_named_only_by_the_command_line() {
    let mut wrong = Vec::new();
    for (part, _) in ALLOWED
        .iter()
        .filter(|(part, _)| !["cli", "cmd"].contains(part))
    {
        let mut files = Vec::new();
        sources(&src().join(part), &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let code: String = text
                .lines()
                .take_while(|line| !line.trim_start().starts_with("#[cfg(test)]"))
                .map(|line| line.split("//").next().unwrap_or(""))
                .collect::<Vec<_>>()
                .join("\n");
            if code.contains("clap") || code.contains("#[arg(") || code.contains("#[command(") {
                wrong.push(file.display().to_string());
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "clap outside the command line:\n{}",
        wrong.join("\n")
    );
}

/// A copy of the parts' sources, to put edges in.
fn copy_of_src() -> tempfile::TempDir {
    let copy = tempfile::tempdir().unwrap();
    for (part, _) in ALLOWED {
        let mut files = Vec::new();
        sources(&src().join(part), &mut files);
        for file in files {
            let to = copy.path().join(file.strip_prefix(src()).unwrap());
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(&file, &to).unwrap();
        }
    }
    copy
}

/// The test sees an edge against the flow: a copy of `src/` where `rules/` names
/// `output` and `stats/` names `output` fails with both files.
#[test]
fn a_forbidden_edge_is_seen() {
    let copy = copy_of_src();
    for (file, edge) in [
        ("rules/mod.rs", "use crate::output::Output;\n"),
        ("stats/summary.rs", "use crate::output::summary_csv;\n"),
        ("pipeline/mod.rs", "use crate::output::terminal::visible;\n"),
    ] {
        let path = copy.path().join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, format!("{edge}{text}")).unwrap();
    }
    // A test module that reaches downstream is an edge too; one that builds games with
    // `input` is not.
    let picker = copy.path().join("filter/picker.rs");
    let text = std::fs::read_to_string(&picker).unwrap();
    std::fs::write(
        &picker,
        format!("{text}\n#[cfg(test)]\nmod t {{\n    use crate::input::Splitter;\n    use crate::output::records::encode;\n}}\n"),
    )
    .unwrap();
    let wrong = forbidden_edges(copy.path());
    assert_eq!(wrong.len(), 4, "{wrong:?}");
    assert!(
        wrong
            .iter()
            .any(|w| w.ends_with("picker.rs: crate::output")),
        "{wrong:?}"
    );
}

/// `rules` stands apart from `input` in its tests too: a test module there that builds
/// games with the splitter is an edge, where the same module in `filter` is not.
#[test]
fn a_rules_test_that_splits_games_is_an_edge() {
    let copy = copy_of_src();
    let module = "\n#[cfg(test)]\nmod t {\n    use crate::input::Splitter;\n}\n";
    for file in ["rules/tags/checks.rs", "filter/picker.rs"] {
        let path = copy.path().join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, format!("{text}{module}")).unwrap();
    }
    let wrong = forbidden_edges(copy.path());
    assert_eq!(wrong.len(), 1, "{wrong:?}");
    assert!(
        wrong
            .first()
            .is_some_and(|w| w.ends_with("checks.rs: crate::input")),
        "{wrong:?}"
    );
}

#[test]
fn crate_paths_are_found_in_code_only() {
    let text = "use crate::pgn::{Span};\n// crate::input\nlet x = crate::rules::replay(); // crate::cmd\n#[cfg(test)]\nuse crate::cli;\n";
    let paths = crate_paths(text);
    let found: Vec<(&str, bool)> = paths
        .iter()
        .map(|(name, in_test)| (name.as_str(), *in_test))
        .collect();
    assert_eq!(found, [("pgn", false), ("rules", false), ("cli", true)]);
}
