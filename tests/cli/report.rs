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
    for outside in ["<script", " src=", "href=", "url(", "@import", "https:"] {
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

#[test]
fn report_draws_a_board_with_an_arrow_for_each_error() {
    let html = report_of(&[]);
    let cards = articles(&html);
    assert_eq!(cards.len(), 2, "one card per error");
    for (card, position) in cards.iter().zip(["5. O-O", "4. Nd5"]) {
        assert_eq!(card.matches("<svg").count(), 1, "one board: {card}");
        assert!(card.contains(&format!("aria-label=\"position before {position}\"")));
        // The arrow's head is the board's only polygon.
        assert_eq!(card.matches("<polygon").count(), 1, "one arrow: {card}");
    }
    let text = text_of(&html);
    assert!(
        text.contains(" White Clark, C. "),
        "the game's tags: {text}"
    );
    assert!(text.contains("the knight on c3 is pinned by Bb4 against the king on e1"));
    assert!(!text.contains("not drawn"));

    let limited = report_of(&["--limit", "1"]);
    assert_eq!(articles(&limited).len(), 1);
    assert!(
        text_of(&limited).contains("1 more error finding not drawn"),
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
