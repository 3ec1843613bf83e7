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

/// The cross-cutting helpers (`say!` is `stderr`'s, named `crate::stderr::say!`): the parts
/// after `stats` may use them.
const HELPERS: &[&str] = &["stderr", "interrupt", "progress", "exit", "terminal"];

/// Each part of `src/` and the parts it may name besides itself; `+helpers` adds
/// `HELPERS`. A part missing here fails `every_part_is_in_the_table`.
const ALLOWED: &[(&str, &[&str])] = &[
    // The two models: a game's bytes, and a record's columns and cells.
    ("pgn", &[]),
    ("record", &[]),
    ("input", &["pgn"]),
    ("rules", &["pgn"]),
    ("stats", &["pgn", "rules", "record"]),
    ("standings", &["pgn", "rules", "record"]),
    ("filter", &["pgn", "rules", "stats", "record", "+helpers"]),
    ("pipeline", &["pgn", "input", "+helpers"]),
    (
        "output",
        &["pgn", "rules", "stats", "standings", "record", "+helpers"],
    ),
    (
        "cmd",
        &[
            "pgn",
            "input",
            "rules",
            "stats",
            "standings",
            "record",
            "filter",
            "pipeline",
            "output",
            "+helpers",
        ],
    ),
    // The command line: the subcommand enum that names each command's flags (`cmd` never
    // names it back).
    ("cli", &["cmd"]),
    ("stderr", &[]),
    ("interrupt", &["stderr"]),
    ("progress", &["terminal"]),
    ("exit", &[]),
    ("terminal", &[]),
];

/// The root: it declares the parts and dispatches to `cmd` (it may name anything).
const ROOT: &[&str] = &["lib", "main", "layers"];

/// Every part a source file names in code (outside comments and strings), each with
/// whether it stands in a `#[cfg(test)]` item: `crate::NAME`, `crate::{NAME, ..}`, and a
/// `super::` path that climbs out of the part to the crate root (`super::super::NAME`
/// from `src/part/sub/file.rs`). `module` is the file's module path (`["rules",
/// "replay", "end"]`); the inline modules it opens are followed, so that a `super::` in
/// a test module climbs from there. Only the `#[cfg(test)]` item itself is test code:
/// what follows its closing brace is not.
fn crate_paths(text: &str, module: &[String]) -> Vec<(String, bool)> {
    let mut found = Vec::new();
    let mut scan = Scan::default();
    for line in text.lines() {
        let code = code_of(line);
        let trimmed = code.trim_start();
        if trimmed.starts_with("#[cfg(test)]") {
            scan.test_pending = true;
            continue;
        }
        if scan.test_pending && !trimmed.is_empty() && !trimmed.starts_with("#[") {
            scan.test_pending = false;
            scan.test_from = Some(scan.depth);
        }
        let in_test = scan.test_from.is_some();
        let mut path: Vec<String> = module.to_vec();
        path.extend(scan.modules.iter().map(|(name, _)| name.clone()));
        for name in names_of(&code, "crate::") {
            found.push((name, in_test));
        }
        let mut rest = code.as_str();
        while let Some(at) = rest.find("super::") {
            // Only the first `super::` of a chain (one not after `::`) starts a path.
            let before = &rest[..at];
            let mut after = &rest[at..];
            if !before.ends_with("::") {
                let mut climbs = 0;
                while let Some(next) = after.strip_prefix("super::") {
                    climbs += 1;
                    after = next;
                }
                if climbs >= path.len() {
                    for name in names_of(&format!("crate::{after}"), "crate::")
                        .into_iter()
                        .take(8)
                    {
                        found.push((name, in_test));
                    }
                }
            }
            rest = &rest[at + "super::".len()..];
        }
        scan.step(&code);
    }
    found
}

/// Where the scan of a file stands: the brace depth, the inline modules open and the
/// depth at which a `#[cfg(test)]` item began.
#[derive(Default)]
struct Scan {
    depth: usize,
    modules: Vec<(String, usize)>,
    test_pending: bool,
    test_from: Option<usize>,
}

impl Scan {
    /// Follows one line of code: modules opened (`mod NAME {`), braces, and the end of a
    /// test item (its braces closed, or a `;` at its depth).
    fn step(&mut self, code: &str) {
        let trimmed = code.trim_start();
        let declaration = trimmed
            .strip_prefix("pub(crate) ")
            .or_else(|| trimmed.strip_prefix("pub(super) "))
            .or_else(|| trimmed.strip_prefix("pub "))
            .unwrap_or(trimmed);
        if let Some(rest) = declaration.strip_prefix("mod ")
            && rest.trim_end().ends_with('{')
        {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            self.modules.push((name, self.depth));
        }
        for c in code.chars() {
            match c {
                '{' => self.depth += 1,
                '}' => {
                    self.depth = self.depth.saturating_sub(1);
                    if self.modules.last().is_some_and(|(_, at)| *at == self.depth) {
                        self.modules.pop();
                    }
                    if self.test_from == Some(self.depth) {
                        self.test_from = None;
                    }
                }
                ';' if self.test_from == Some(self.depth) => self.test_from = None,
                _ => {}
            }
        }
    }
}

/// A line without its comment, string and character literals (whose braces and `//`
/// are not code).
fn code_of(line: &str) -> String {
    let mut code = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => break,
            '"' => {
                while let Some(inner) = chars.next() {
                    match inner {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
                code.push_str("\"\"");
            }
            '\'' => {
                // A character literal ('{', '\'') or a lifetime ('a): skip the literal.
                let literal: String = chars.clone().take(4).collect();
                if let Some(end) = literal.find('\'')
                    && end > 0
                {
                    for _ in 0..=end {
                        chars.next();
                    }
                }
                code.push('\'');
            }
            _ => code.push(c),
        }
    }
    code
}

/// The part names after each `prefix` in `code`: `crate::NAME` or every name of
/// `crate::{NAME::.., NAME}`.
fn names_of(code: &str, prefix: &str) -> Vec<String> {
    let ident = |text: &str| -> String {
        text.trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut names = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find(prefix) {
        let after = &rest[at + prefix.len()..];
        if let Some(list) = after.strip_prefix('{') {
            // The top-level entries of the list, up to its closing brace.
            let mut depth = 0usize;
            let mut entry_start = true;
            for (i, c) in list.char_indices() {
                if entry_start && depth == 0 {
                    let name = ident(&list[i..]);
                    if !name.is_empty() {
                        names.push(name);
                    }
                    entry_start = false;
                }
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => entry_start = true,
                    _ => {}
                }
            }
        } else {
            names.push(ident(after));
        }
        rest = after;
    }
    names
}

/// The module path of a source file below `src/`: `rules/replay/end.rs` is
/// `rules::replay::end`, `rules/replay/mod.rs` and `rules.rs` are `rules::replay` and
/// `rules`.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src).unwrap_or(file).with_extension("");
    let mut path: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if path.last().is_some_and(|last| last == "mod") {
        path.pop();
    }
    path
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
            for (name, in_test) in crate_paths(&text, &module_of(src, &file)) {
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

/// The test sees an edge against the flow, naming the file: a copy of `src/` where
/// `rules/` names `output` (once through `crate::`, once climbing with `super::`),
/// `stats/` names `output`, `pipeline/` names `output`, and code after `stats`' test
/// module names `input` (which only that test module may name).
#[test]
fn a_forbidden_edge_is_seen() {
    let copy = copy_of_src();
    for (file, edge) in [
        ("rules/mod.rs", "use crate::output::Output;\n"),
        (
            "rules/replay/end.rs",
            "use super::super::super::output::Output;\n",
        ),
        ("stats/summary.rs", "use crate::output::summary_csv;\n"),
        ("pipeline/mod.rs", "use crate::output::terminal::visible;\n"),
    ] {
        let path = copy.path().join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, format!("{edge}{text}")).unwrap();
    }
    let summary = copy.path().join("stats/summary.rs");
    let text = std::fs::read_to_string(&summary).unwrap();
    std::fs::write(&summary, format!("{text}\nuse crate::input::Splitter;\n")).unwrap();
    // A test module that reaches downstream is an edge too; one that builds games with
    // `input` is not.
    let picker = copy.path().join("filter/picker.rs");
    let text = std::fs::read_to_string(&picker).unwrap();
    std::fs::write(
        &picker,
        format!("{text}\n#[cfg(test)]\nmod t {{\n    use crate::input::Splitter;\n    use crate::output::records::encode;\n}}\n"),
    )
    .unwrap();
    let root = format!("{}/", copy.path().display());
    let mut wrong: Vec<String> = forbidden_edges(copy.path())
        .into_iter()
        .map(|w| w.replace(&root, ""))
        .collect();
    wrong.sort();
    assert_eq!(
        wrong,
        [
            "filter/picker.rs: crate::output",
            "pipeline/mod.rs: crate::output",
            "rules/mod.rs: crate::output",
            "rules/replay/end.rs: crate::output",
            "stats/summary.rs: crate::input",
            "stats/summary.rs: crate::output",
        ],
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
    let text = "use crate::pgn::{Span};\n// crate::input\nlet x = crate::rules::replay(); // crate::cmd\nlet s = \"crate::output {\";\n#[cfg(test)]\nuse crate::cli;\nuse crate::{stats::A, record};\n";
    let paths = crate_paths(text, &["filter".to_string()]);
    let found: Vec<(&str, bool)> = paths
        .iter()
        .map(|(name, in_test)| (name.as_str(), *in_test))
        .collect();
    // The `#[cfg(test)]` item is the one `use` line: the line after it is not a test's.
    assert_eq!(
        found,
        [
            ("pgn", false),
            ("rules", false),
            ("cli", true),
            ("stats", false),
            ("record", false)
        ]
    );
}

/// A `super::` path that climbs to the crate root names the part it reaches; one that
/// stays in the part names nothing. A test module's `super::` climbs from the module.
#[test]
fn super_paths_are_followed_to_the_root() {
    let end = ["rules".to_string(), "replay".to_string(), "end".to_string()];
    let text = "use super::{Replay, fen_of};\nuse super::super::findings::Code;\nuse super::super::super::output::Output;\nmod t {\n    use super::super::super::super::cmd;\n    use super::super::super::Nothing;\n}\nuse super::super::super::{stats::X, record};\n";
    let found: Vec<String> = crate_paths(text, &end)
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    assert_eq!(found, ["output", "cmd", "stats", "record"]);
}

/// Code after a file's test module is not test code: the module's braces are followed.
#[test]
fn code_after_a_test_module_is_checked_as_code() {
    let text = "#[cfg(test)]\nmod tests {\n    fn f() {\n        let c = '}';\n    }\n    use crate::input::Splitter;\n}\nuse crate::output::Output;\n";
    let found = crate_paths(text, &["rules".to_string()]);
    assert_eq!(
        found,
        [("input".to_string(), true), ("output".to_string(), false)]
    );
}
