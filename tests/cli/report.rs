//! `pgnkit report`: one self-contained page. The checks read the page's text and its
//! elements, not its exact markup, so a renamed class or a restyled table breaks none.

use crate::util::*;

/// Runs `report` on the fixture event and returns the page.
fn report_of(extra: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("report.html");
    let event = testdata("ux/event.pgn");
    let mut args = vec![
        "report",
        "-q",
        event.to_str().unwrap(),
        "-o",
        page.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let (code, _, stderr) = run_args(&args);
    assert_eq!(code, 0, "report exits 0 with broken games: {stderr}");
    std::fs::read_to_string(&page).unwrap()
}

/// Runs `report` on `games` into `page` (it must exit 0) and returns the page.
fn page_of(games: &std::path::Path, page: &std::path::Path) -> String {
    let (code, _, stderr) = run_args(&[
        "report",
        "-q",
        games.to_str().unwrap(),
        "-o",
        page.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    std::fs::read_to_string(page).unwrap()
}

/// What a reader sees: the text of the page without its style sheet, each element's text
/// separated by one space, with a space at both ends so that ` 4 games ` is a whole figure.
fn text_of(html: &str) -> String {
    let mut text = String::new();
    let mut rest = html;
    if let (Some(start), Some(end)) = (rest.find("<style"), rest.find("</style>")) {
        text.push_str(&rest[..start]);
        text.push(' ');
        rest = &rest[end..];
    }
    let mut in_tag = false;
    for c in rest.chars() {
        match c {
            '<' => {
                in_tag = true;
                text.push(' ');
            }
            '>' => in_tag = false,
            _ if !in_tag => text.push(c),
            _ => {}
        }
    }
    format!(
        " {} ",
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    )
}

/// The parts of the page inside each `<article>` element: one per error drawn.
fn articles(html: &str) -> Vec<&str> {
    html.split("<article")
        .skip(1)
        .map(|part| &part[..part.find("</article>").unwrap()])
        .collect()
}

#[test]
fn report_is_one_self_contained_page() {
    let html = report_of(&[]);
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.trim_end().ends_with("</html>"));
    for outside in [
        "<script",
        " src=",
        "href=\"http",
        "href=\"//",
        "url(",
        "@import",
        "https:",
    ] {
        assert!(
            !html.contains(outside),
            "the page reaches outside: {outside}"
        );
    }
    assert!(
        html.matches("<svg").count() >= 7,
        "charts and boards are inline SVG"
    );
}

#[test]
fn report_summary_counts_the_games() {
    let text = text_of(&report_of(&[]));
    for figure in [
        // The cards: a value above its label.
        " 4 games ",
        " 2 games with an error ",
        " 1 warnings ",
        // The tables: results with their share, terminations, replay status.
        " 1-0 3 75.0% ",
        " 0-1 1 25.0% ",
        " checkmate 2 50.0% ",
        " illegal 2 50.0% ",
        // Findings by code: code, severity, count.
        " castling.through-check error 1 ",
        " move.illegal error 1 ",
        " result.mismatch warning 1 ",
    ] {
        assert!(
            text.contains(figure),
            "no `{figure}` in the page's text:{text}"
        );
    }
}

/// `--ignore` and `--select` choose the codes the whole page counts, as they choose what
/// `validate` reports: the cards and "Findings by code" leave the other codes out.
#[test]
fn report_counts_only_the_codes_selected() {
    let text = text_of(&report_of(&["--ignore", "castling."]));
    for figure in [
        " 4 games ",
        " 1 games with an error ",
        " 1 errors ",
        " move.illegal error 1 ",
        " result.mismatch warning 1 ",
    ] {
        assert!(text.contains(figure), "no `{figure}` in:{text}");
    }
    assert!(!text.contains("castling.through-check"), "{text}");
    assert!(
        text.contains(" every finding of the codes --select / --ignore let in"),
        "{text}"
    );
    // The replay's own figures do not change: the game still stopped at its error.
    assert!(text.contains(" illegal 2 50.0% "), "{text}");

    let text = text_of(&report_of(&["--select", "result."]));
    for figure in [" 0 games with an error ", " 0 errors ", " 1 warnings "] {
        assert!(text.contains(figure), "no `{figure}` in:{text}");
    }
    assert!(!text.contains("move.illegal"), "{text}");
}

#[test]
fn report_draws_a_board_with_an_arrow_for_each_error() {
    let html = report_of(&[]);
    let cards = articles(&html);
    assert_eq!(cards.len(), 2, "one card per error");
    for (card, position) in cards.iter().zip(["5. O-O", "4. Nd5"]) {
        assert_eq!(card.matches("<svg").count(), 1, "one board: {card}");
        assert!(card.contains(&format!("aria-label=\"position before {position}, FEN ")));
        // The arrow's head is the board's only polygon.
        assert_eq!(card.matches("<polygon").count(), 1, "one arrow: {card}");
    }
    let text = text_of(&html);
    assert!(
        text.contains(" Clark, C. \u{2013} Dunn, D. "),
        "the game's players: {text}"
    );
    assert!(text.contains("the knight on c3 is pinned by Bb4 against the king on e1"));
    assert!(!text.contains("without a board"));

    let limited = report_of(&["--limit", "1"]);
    assert_eq!(articles(&limited).len(), 1);
    assert!(
        text_of(&limited).contains("1 more error finding without a board (the first 1 have one"),
        "the rest is counted"
    );
}

#[test]
fn report_escapes_what_the_games_say() {
    let pgn = "[White \"<b>Bold</b> & co\"]\n\n1. e4 e5 2. Ke3 *\n";
    let (code, html, stderr) = run(&["report", "-q", "--title", "A <test>"], pgn);
    assert_eq!(code, 0, "{stderr}");
    assert!(html.contains("&lt;b&gt;Bold&lt;/b&gt; &amp; co"));
    assert!(html.contains("<title>A &lt;test&gt;</title>"));
    assert!(!html.contains("<b>Bold"));
}

#[test]
fn report_lists_insufficient_material_among_the_draw_rules() {
    // Both sides left with a king: the rule holds in the final position.
    let pgn = "[FEN \"4k3/8/8/8/8/8/3q4/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Kxd2 Kd7 1/2-1/2\n";
    let (code, html, stderr) = run(&["report", "--quiet", "-o", "/dev/stdout"], pgn);
    assert_eq!(code, 0, "{stderr}");
    // The termination is `insufficient-material`; the draw rule's name has an underscore.
    assert!(html.contains("insufficient_material"), "{html}");
}

/// `&amp;` and its kin back to text, as a browser shows them.
fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The text of every cell of one table row.
fn cells(row: &tl::HTMLTag, parser: &tl::Parser) -> Vec<String> {
    row.query_selector(parser, "td")
        .unwrap()
        .map(|cell| unescape(&cell.get(parser).unwrap().inner_text(parser)))
        .collect()
}

/// Each group of the findings table: its code and the cells of its rows, in order.
fn code_groups(html: &str) -> Vec<(String, Vec<Vec<String>>)> {
    let dom = tl::parse(html, tl::ParserOptions::default()).unwrap();
    let parser = dom.parser();
    let mut groups = Vec::new();
    for group in dom.query_selector("details").unwrap() {
        let group = group.get(parser).unwrap().as_tag().unwrap();
        let Some(id) = group.attributes().id() else {
            continue;
        };
        let Some(code) = id.as_utf8_str().strip_prefix("code-").map(str::to_string) else {
            continue;
        };
        let rows = group
            .query_selector(parser, "tr")
            .unwrap()
            .map(|row| cells(row.get(parser).unwrap().as_tag().unwrap(), parser))
            .filter(|row| !row.is_empty())
            .collect();
        groups.push((code, rows));
    }
    groups
}

/// The page of `report` over the sample archive and the event, every finding listed,
/// one board, and the findings `validate` reports on the same input.
fn report_and_findings() -> (String, Vec<serde_json::Value>) {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("report.html");
    let sample = testdata("sample").to_str().unwrap().to_string();
    let event = testdata("ux/event.pgn").to_str().unwrap().to_string();
    let inputs = [sample.as_str(), event.as_str()];
    let mut args = vec!["report", "-q", "--level", "info", "--limit", "1"];
    args.extend_from_slice(&inputs);
    args.extend_from_slice(&["-o", page.to_str().unwrap()]);
    let (code, _, stderr) = run_args(&args);
    assert_eq!(code, 0, "{stderr}");
    let mut args = vec!["validate", "-q", "--level", "info", "--format", "jsonl"];
    args.extend_from_slice(&inputs);
    let (_, stdout, _) = run_args(&args);
    let findings = stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    (std::fs::read_to_string(&page).unwrap(), findings)
}

#[test]
fn report_lists_every_finding_with_a_row_that_links_to_its_board() {
    let (html, findings) = report_and_findings();
    assert!(findings.len() > 20, "the input has findings of every kind");
    let dom = tl::parse(&html, tl::ParserOptions::default()).unwrap();
    let parser = dom.parser();

    // Every finding has a row in the group of its code: (code, file, game, message).
    let mut rows = Vec::new();
    for (code, group) in code_groups(&html) {
        for row in group {
            rows.push((code.clone(), row[0].clone(), row[1].clone(), row[4].clone()));
        }
    }
    let mut expected: Vec<(String, String, String, String)> = findings
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_string(),
                f["file"].as_str().unwrap().to_string(),
                f["game"].to_string(),
                f["message"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    rows.sort();
    expected.sort();
    assert_eq!(rows, expected);

    // Every link points inside the page, at an element that exists; the one board drawn
    // is linked from its row.
    let ids: Vec<String> = dom
        .nodes()
        .iter()
        .filter_map(|node| node.as_tag()?.attributes().id())
        .map(|id| id.as_utf8_str().to_string())
        .collect();
    let links: Vec<String> = dom
        .query_selector("a")
        .unwrap()
        .filter_map(|a| a.get(parser)?.as_tag()?.attributes().get("href").flatten())
        .map(|href| href.as_utf8_str().to_string())
        .collect();
    assert_eq!(links, ["#card-1"]);
    for link in &links {
        assert!(ids.contains(&link[1..].to_string()), "{link} has no target");
    }

    // Nothing outside the page: no element loads or links anything else.
    for node in dom.nodes() {
        let Some(tag) = node.as_tag() else { continue };
        let name = tag.name().as_utf8_str().to_string();
        assert!(
            !["script", "link", "img", "iframe"].contains(&name.as_str()),
            "{name}"
        );
        for attribute in ["src", "href", "xlink:href"] {
            if let Some(Some(value)) = tag.attributes().get(attribute) {
                let value = value.as_utf8_str();
                assert!(value.starts_with('#'), "{name} {attribute}={value}");
            }
        }
    }
}

#[test]
fn report_names_the_players_of_a_wrong_result() {
    let html = report_of(&[]);
    let groups = code_groups(&html);
    let (_, rows) = groups
        .iter()
        .find(|(code, _)| code == "result.mismatch")
        .expect("a group for the warning");
    let row = &rows[0];
    assert_eq!(row[1], "4");
    assert_eq!(row[2], "Green, G. \u{2013} Hill, H.");
}

#[test]
fn report_with_limit_zero_draws_no_board_and_still_lists_the_errors() {
    let html = report_of(&["--limit", "0"]);
    assert_eq!(html.matches("<article class=\"error-card\"").count(), 0);
    assert!(html.contains(
        "No board drawn (--limit 0): the 2 error findings are all in the findings table"
    ));
    assert!(!html.contains("the first 0"));
    assert!(html.contains("id=\"code-move.illegal\""));
    assert!(html.contains("id=\"code-castling.through-check\""));
}

#[test]
fn report_card_shows_the_game_and_the_moves_before_and_folds_the_other_tags() {
    let html = report_of(&[]);
    let card = html
        .split("<article class=\"error-card\" id=\"card-1\">")
        .nth(1)
        .unwrap()
        .split("</article>")
        .next()
        .unwrap();
    assert!(card.contains("Clark, C. \u{2013} Dunn, D."), "{card}");
    assert!(card.contains("Club Championship, round"), "{card}");
    assert!(
        card.contains("\u{2026} 2. Nf3 Ba6 3. g3 e6 4. Bg2 Nf6 <strong>5. O-O</strong>"),
        "{card}"
    );
    let folded = card.split("<details>").nth(1).expect("other tags folded");
    assert!(!folded.contains("<th>White</th>"));
    assert!(!card.contains("<th>line</th>"));
}

#[test]
fn report_charts_and_boards_have_a_text_alternative() {
    let html = report_of(&[]);
    let dom = tl::parse(&html, tl::ParserOptions::default()).unwrap();
    let parser = dom.parser();
    let svgs: Vec<_> = dom.query_selector("svg").unwrap().collect();
    assert!(svgs.len() >= 7);
    for svg in svgs {
        let svg = svg.get(parser).unwrap().as_tag().unwrap();
        let label = svg
            .attributes()
            .get("aria-label")
            .flatten()
            .expect("aria-label");
        assert!(label.as_utf8_str().len() > 10, "{:?}", label.as_utf8_str());
    }
    assert!(html.contains("aria-label=\"Results (bar chart): 1-0: 3, 0-1: 1"));
}

/// The rows of the page's time and accuracy panel: each row's heading and its cells;
/// `None` when the page has no such panel.
fn time_and_accuracy_rows(html: &str) -> Option<Vec<(String, Vec<String>)>> {
    let start = html.find("<h2>Time and accuracy</h2>")?;
    let panel = &html[start..start + html[start..].find("</section>").unwrap()];
    let dom = tl::parse(panel, tl::ParserOptions::default()).unwrap();
    let parser = dom.parser();
    let rows = dom
        .query_selector("tr")
        .unwrap()
        .filter_map(|row| {
            let row = row.get(parser)?.as_tag()?;
            let heading = row.query_selector(parser, "th")?.next()?;
            let heading = unescape(&heading.get(parser)?.inner_text(parser));
            let cells = cells(row, parser);
            (!cells.is_empty()).then_some((heading, cells))
        })
        .collect();
    Some(rows)
}

fn row(heading: &str, white: &str, black: &str) -> (String, Vec<String>) {
    (
        heading.to_string(),
        vec![white.to_string(), black.to_string()],
    )
}

/// Two lichess games with a clock and an evaluation after every move
/// (testdata/stats/annotated.pgn, the second lost on time): the figures are those of the
/// `stats` columns of the same games (white_acpl 16 and 41, black_acpl 42 and 58, ...).
#[test]
fn report_shows_time_and_accuracy_of_annotated_games() {
    let path = testdata("stats/annotated.pgn");
    let (code, html, stderr) =
        run_args(&["report", "-q", path.to_str().unwrap(), "-o", "/dev/stdout"]);
    assert_eq!(code, 0, "{stderr}");
    let rows = time_and_accuracy_rows(&html).expect("a time and accuracy panel");
    assert_eq!(
        rows,
        [
            row("games with an ACPL", "2", "2"),
            row("mean ACPL of those games", "28.5", "50.0"),
            row("inaccuracies", "1 (0.5 a game)", "3 (1.5 a game)"),
            row("mistakes", "1 (0.5 a game)", "0 (0.0 a game)"),
            row("blunders", "1 (0.5 a game)", "4 (2.0 a game)"),
            row("games with a clock", "2", "2"),
            row("lowest clock under 60\u{a0}s", "0", "1"),
            row("lowest clock under 10\u{a0}s", "0", "0"),
            row("lost on time (Termination \"Time forfeit\")", "0", "1"),
            row("0-9", "0", "0"),
            row("10-24", "1", "0"),
            row("25-49", "1", "1"),
            row("50-99", "0", "1"),
            row("100+", "0", "0"),
        ]
    );
    assert!(text_of(&html).contains(" 2 of 2 games have clocks, 2 have evaluations. "));
    assert!(html.contains(
        "aria-label=\"ACPL per side and game (bar chart): 0-9: 0, 10-24: 1, 25-49: 2, 50-99: 1, 100+: 0\""
    ));

    // The same games' stats columns give the same ACPLs and judgements.
    let (_, csv, _) = run_args(&["stats", "-q", path.to_str().unwrap()]);
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    // Counted from the end: an opening's name may hold a comma.
    let sum = |column: &str| -> u64 {
        let from_end = header.len() - header.iter().position(|h| *h == column).unwrap();
        csv.lines()
            .skip(1)
            .map(|line| {
                let cells: Vec<&str> = line.split(',').collect();
                cells[cells.len() - from_end].parse::<u64>().unwrap()
            })
            .sum()
    };
    assert_eq!((sum("white_acpl"), sum("black_acpl")), (57, 100));
    assert_eq!((sum("white_blunders"), sum("black_blunders")), (1, 4));
    assert_eq!(
        (sum("white_inaccuracies"), sum("black_inaccuracies")),
        (1, 3)
    );
}

/// Clocks without evaluations: no ACPL, and the time trouble counted from the lowest
/// clock of each side (a fraction of a second too); the game lost on time by White.
#[test]
fn report_counts_low_clocks_and_losses_on_time() {
    let pgn = "[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n[Termination \"Time forfeit\"]\n\n\
               1. e4 { [%clk 0:00:30] } e5 { [%clk 0:00:05] } 2. Nf3 { [%clk 0:00:09.5] } \
               Nc6 { [%clk 0:00:04] } 0-1\n\n\
               [White \"C\"]\n[Black \"D\"]\n[Result \"1-0\"]\n\n\
               1. d4 { [%clk 0:01:00] } d5 { [%clk 0:00:59.9] } 1-0\n";
    let (code, html, stderr) = run(&["report", "-q", "-o", "/dev/stdout"], pgn);
    assert_eq!(code, 0, "{stderr}");
    let rows = time_and_accuracy_rows(&html).expect("a time and accuracy panel");
    assert_eq!(
        rows[..9],
        [
            row("games with an ACPL", "0", "0"),
            row("mean ACPL of those games", "-", "-"),
            row("inaccuracies", "0", "0"),
            row("mistakes", "0", "0"),
            row("blunders", "0", "0"),
            row("games with a clock", "2", "2"),
            row("lowest clock under 60\u{a0}s", "1", "2"),
            row("lowest clock under 10\u{a0}s", "1", "1"),
            row("lost on time (Termination \"Time forfeit\")", "1", "0"),
        ]
    );
    assert!(text_of(&html).contains(" 2 of 2 games have clocks, 0 have evaluations. "));
}

#[test]
fn report_without_clocks_or_evaluations_has_no_time_and_accuracy_panel() {
    let html = report_of(&[]);
    assert!(html.contains("<h2>Openings</h2>"), "the page is whole");
    assert_eq!(time_and_accuracy_rows(&html), None);
    assert!(!html.contains("ACPL"));
}

/// SPEC.md "Who can still mate": a win FIDE 6.9 overturns gets a card with the final
/// board, as errors do, and the overview counts the results overturned.
#[test]
fn report_draws_the_final_board_of_a_win_that_cannot_be() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("report.html");
    let games = testdata("mate/games.pgn");
    let html = page_of(&games, &page);
    // Six of the fixtures' "Time forfeit" wins are on the loser's move: their claim is
    // contradicted too (result.termination-conflict), with a card of its own.
    let all = articles(&html);
    let cards: Vec<&str> = all
        .iter()
        .copied()
        .filter(|card| card.contains("result.unwinnable-win"))
        .collect();
    assert_eq!(cards.len(), 9, "one card per result.unwinnable-win");
    assert_eq!(all.len(), 15, "and one per result.termination-conflict");
    for card in &cards {
        assert_eq!(card.matches("<svg").count(), 1, "one board: {card}");
        assert!(card.contains("aria-label=\"final position, FEN "), "{card}");
    }
    assert!(cards[0].contains("FEN 8/4k3/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3/8 w - - 0 1"));
    let text = text_of(&html);
    assert!(
        text.contains(" 9 results overturned (FIDE 5.2.2, 6.9) "),
        "{text}"
    );
    assert!(
        text.contains(" dead-position "),
        "the termination chart names it"
    );
    // At --limit 2 the other seven are counted, and listed in the table.
    let (code, _, _) = run_args(&[
        "report",
        "-q",
        games.to_str().unwrap(),
        "--limit",
        "2",
        "-o",
        page.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert_eq!(articles(&std::fs::read_to_string(&page).unwrap()).len(), 2);
}

/// The browser the layout tests load pages in (Debian's `chromium`; `.ci/run` installs it).
fn chromium() -> std::path::PathBuf {
    let found = ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            std::env::var_os("PATH").and_then(|path| {
                std::env::split_paths(&path)
                    .map(|dir| dir.join(name))
                    .find(|file| file.is_file())
            })
        });
    found.expect("the report's layout test needs Chromium: apt-get install -y chromium")
}

/// How `page` lays out in a phone's 390 px: (the width of its content, the width of its
/// viewport, the texts that stand out past it). Headless Chromium keeps its window at
/// least 500 px wide, so the page is loaded into a 390 px frame of a wrapper page (as
/// `srcdoc`, of the wrapper's origin, so the wrapper's script may measure it) and the
/// script writes the figures into the DOM that `--dump-dom` prints.
pub fn layout_at_390(page: &std::path::Path) -> (u32, u32, String) {
    let html = std::fs::read_to_string(page).unwrap();
    let srcdoc = html.replace('&', "&amp;").replace('"', "&quot;");
    let wrapper = format!(
        r#"<!doctype html><html><body style="margin:0">
<iframe id="f" style="width:390px;height:800px;border:0" srcdoc="{srcdoc}"></iframe>
<script>
document.getElementById("f").addEventListener("load", () => {{
  const doc = document.getElementById("f").contentDocument;
  const root = doc.documentElement;
  const wide = [];
  const texts = doc.createTreeWalker(doc.body, NodeFilter.SHOW_TEXT);
  while (texts.nextNode()) {{
    const range = doc.createRange();
    range.selectNodeContents(texts.currentNode);
    if (range.getBoundingClientRect().right > root.clientWidth + 0.5) {{
      wide.push(texts.currentNode.textContent.trim().slice(0, 60));
    }}
  }}
  const out = document.createElement("pre");
  out.id = "layout";
  out.textContent = root.scrollWidth + " " + root.clientWidth + " " + wide.join(" | ");
  document.body.appendChild(out);
}});
</script></body></html>"#
    );
    let dir = tempfile::tempdir().unwrap();
    let wrapper_path = dir.path().join("wrapper.html");
    std::fs::write(&wrapper_path, wrapper).unwrap();
    let output = std::process::Command::new("timeout")
        .arg("120")
        .arg(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--window-size=500,900",
            "--virtual-time-budget=5000",
        ])
        .arg(format!(
            "--user-data-dir={}",
            dir.path().join("profile").display()
        ))
        .arg("--dump-dom")
        .arg(format!("file://{}", wrapper_path.display()))
        .output()
        .unwrap();
    let dom = String::from_utf8_lossy(&output.stdout);
    let start = dom.find("<pre id=\"layout\">").unwrap_or_else(|| {
        panic!(
            "no layout figures: {}",
            String::from_utf8_lossy(&output.stderr)
        )
    }) + "<pre id=\"layout\">".len();
    let figures = &dom[start..start + dom[start..].find("</pre>").unwrap()];
    let mut parts = figures.splitn(3, ' ');
    let scroll = parts.next().unwrap().parse().unwrap();
    let client = parts.next().unwrap().parse().unwrap();
    (scroll, client, parts.next().unwrap_or("").to_string())
}

/// Issue 42 item 12: a long file path, a `[FEN "..."]` text, a long event, site or name
/// stand unbroken in an error card; every text must wrap so that the page fits a phone.
#[test]
fn report_fits_a_390_px_phone_whatever_the_paths_and_tags() {
    let dir = tempfile::tempdir().unwrap();
    let deep = dir
        .path()
        .join("a_directory_with_a_very_long_name_that_does_not_break_anywhere_at_all_in_its_path");
    std::fs::create_dir(&deep).unwrap();
    std::fs::copy(
        testdata("trust/wide_card.pgn"),
        deep.join("a_file_whose_name_is_also_long_enough_to_be_wider_than_a_phone.pgn"),
    )
    .unwrap();
    let page = dir.path().join("report.html");
    let (code, _, stderr) = run_args(&[
        "report",
        "-q",
        deep.to_str().unwrap(),
        "-o",
        page.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let html = std::fs::read_to_string(&page).unwrap();
    // The page holds the texts that stood out before: the path, the FEN, the event.
    assert!(
        html.contains("a_file_whose_name_is_also_long_enough"),
        "no path"
    );
    assert!(html.contains("[FEN &quot;rnbq1rk1/") || html.contains("[FEN \"rnbq1rk1/"));
    let (scroll, client, wide) = layout_at_390(&page);
    assert!(client <= 390 && client > 300, "viewport {client} px");
    assert!(
        scroll <= client && wide.is_empty(),
        "the page is {scroll} px wide in {client} px: {wide}"
    );
}

/// SPEC.md "What a Termination tag claims": a contradicted claim and a draw on time that
/// FIDE 6.9 makes a win get a card with the final board, and the overview counts them.
#[test]
fn report_draws_the_final_board_of_a_contradicted_termination() {
    let dir = tempfile::tempdir().unwrap();
    let html = page_of(
        &testdata("termination/claims.pgn"),
        &dir.path().join("report.html"),
    );
    let cards = articles(&html);
    assert_eq!(cards.len(), 2, "{cards:?}");
    assert!(
        cards[0].contains("result.termination-conflict"),
        "{}",
        cards[0]
    );
    assert!(
        cards[1].contains("result.timeout-draw-winnable"),
        "{}",
        cards[1]
    );
    for card in &cards {
        assert_eq!(card.matches("<svg").count(), 1, "one board: {card}");
    }
    assert!(
        cards[1].contains("FEN 8/8/8/3nk3/8/7N/4K3/8 b - - 1 1"),
        "{}",
        cards[1]
    );
    let text = text_of(&html);
    assert!(
        text.contains(" 1 results overturned (FIDE 5.2.2, 6.9) "),
        "{text}"
    );
    assert!(
        text.contains(" 1 Termination claims contradicted "),
        "{text}"
    );
}
