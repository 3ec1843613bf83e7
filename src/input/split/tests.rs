//! The splitter against itself: games must not depend on how the bytes are read.
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    reason = "a test fails loudly"
)]

use std::io::{BufReader, Cursor};

use super::scan::{ends_word, find_byte, find_close, word_len};
use super::{Limits, Splitter};
use crate::pgn::{InputProblemKind, TokenKind, numbers_as_marks};

/// The eight-bytes-at-once scans agree with a byte-at-a-time scan, for every byte value
/// at every position of a word.
#[test]
fn word_ends_are_found_as_byte_by_byte() {
    for len in 1..20 {
        for stop in 0..=255u8 {
            let mut word = vec![b'a'; len];
            word.push(stop);
            word.extend_from_slice(b"xyz  ");
            let expected = word.iter().position(|&b| ends_word(b)).unwrap();
            assert_eq!(word_len(&word), expected, "byte {stop:#x} after {len}");
            word.truncate(len);
            assert_eq!(word_len(&word), len);
        }
    }
}

#[test]
fn short_searches_agree_with_memchr() {
    for len in 0..80 {
        for at in 0..len {
            for needle in [b'}', b'\n', b'x'] {
                let mut hay = vec![b'a'; len];
                hay[at] = needle;
                if at + 3 < len {
                    hay[at + 3] = b'\n';
                }
                assert_eq!(find_byte(needle, &hay), memchr::memchr(needle, &hay));
                let close = memchr::memchr2(b'}', b'\n', &hay).map(|i| (i, hay[i]));
                assert_eq!(find_close(&hay), close);
            }
        }
    }
}

/// `limits` as given and keeping move numbers as tokens.
fn both_ways(limits: Limits) -> [Limits; 2] {
    [
        limits,
        Limits {
            move_numbers: true,
            ..limits
        },
    ]
}

/// The default limits, move numbers kept as tokens.
fn keeping_numbers() -> Limits {
    Limits {
        move_numbers: true,
        ..Limits::default()
    }
}

fn split_all(reader: impl std::io::BufRead, limits: Limits) -> Vec<String> {
    let mut splitter = Splitter::new(reader, "t".into(), limits);
    let mut games = Vec::new();
    while let Some(game) = splitter.next_game().unwrap() {
        games.push(format!("{game:?}"));
    }
    games
}

/// Lines are tokenised in the reader's buffer when they lie whole in it and copied
/// first when they do not: both ways give the same games, whatever the buffer size.
#[test]
fn games_do_not_depend_on_the_read_buffer() {
    let pgn = concat!(
        "\u{feff}[Event \"a\"]\n[White \"x \"y\" z\"]\n\n",
        "1.e4 {a comment\n[Not \"a tag\" ... } e5 ; rest\r\n",
        "% escape\n2... Nf3!? $12 (2. d4 (2. c4)) ½-½ +- N\n\n",
        "1. d4 d5 1-0\n1. c4 *\n[Event \"b\"\n[Site \"c\"] 1. e4\n",
        "{ open [Event \"d\"]\n[Event \"e\"]\n1. f4 { never closed",
    )
    .as_bytes();
    let limits = Limits {
        max_game_bytes: 64,
        max_depth: 1,
        move_numbers: false,
    };
    for limits in [Limits::default(), limits].into_iter().flat_map(both_ways) {
        let expected = split_all(Cursor::new(pgn), limits);
        assert!(expected.len() > 2, "{expected:#?}");
        for capacity in [1, 2, 3, 7, 16, 64, 4096] {
            let reader = BufReader::with_capacity(capacity, pgn);
            assert_eq!(split_all(reader, limits), expected, "capacity {capacity}");
        }
    }
}

/// Without move numbers kept as tokens (the default), a game's tokens are those it has
/// with them less the numbers, the token before each number saying that one follows
/// (`Token::number_follows`; a number before the first token follows none); its bytes,
/// tags, lines and problems are the same. A game cut at the size limit may end in a word
/// cut through, which is dropped: whether a number followed the last token kept is not
/// said there (nothing follows it to be read).
#[test]
fn move_numbers_left_out_are_said_by_the_token_before() {
    let pgn = concat!(
        "[Event \"a\"]\n\n1. e4 e5 2.Nf3 2...Nc6 3 . Bb5 ...a6 12.5 (3... d6 4. d4) ",
        "4.Ba4 {c} 4... Nf6 $1 5. O-O 1-0\n\n",
        "1. e4 2. + 2... e5 3. exd6 4. e.p. 5. e8 6. (Q) 7. Qh4# 8. 0-1\n",
        "1 e4 1... 2. 3. e5 (( 4. )) 12.\\$14 d4 { 5. } ; 6. 7.\n 8. *\n",
        "[Event \"tail\"] 1.\n[Site \"s\"] 2. e4\n3. e5 9.\n",
    )
    .as_bytes();
    let big = format!("1. e4 {} 20. Nf3 21.", "1. e4 e5 ".repeat(20));
    // Where the input ends after a move number on a line of its own (a fuzzed file): the
    // game ends on that line either way (`input.truncated`, a variation never closed).
    let ends: [&[u8]; 4] = [
        b"1. e4 e5\n2.\n",
        b"1. e4 (1. d4\n2.\n\n",
        b"[Event \"x\"]\n\n1. e4\n\x1a\n1...\n",
        b"[A \"a\"] 1.\n[B \"b\"] 2.\n",
    ];
    let games = |bytes: &[u8], limits| {
        let mut splitter = Splitter::new(Cursor::new(bytes.to_vec()), "t".into(), limits);
        std::iter::from_fn(|| splitter.next_game().unwrap()).collect::<Vec<_>>()
    };
    let small = Limits {
        max_game_bytes: 90,
        max_depth: 1,
        move_numbers: false,
    };
    for bytes in [pgn, big.as_bytes()].into_iter().chain(ends) {
        for limits in [Limits::default(), small] {
            let kept = games(
                bytes,
                Limits {
                    move_numbers: true,
                    ..limits
                },
            );
            let left = games(bytes, limits);
            assert_eq!(kept.len(), left.len());
            assert!(
                kept.iter()
                    .any(|g| g.tokens.iter().any(|t| t.kind == TokenKind::MoveNumber))
            );
            for (kept, left) in kept.iter().zip(&left) {
                assert!(kept.tokens.iter().all(|t| !t.number_follows));
                let mut expected = numbers_as_marks(&kept.tokens);
                let mut found = left.tokens.clone();
                if left
                    .problems
                    .iter()
                    .any(|p| p.kind == InputProblemKind::LimitExceeded)
                {
                    for tokens in [&mut expected, &mut found] {
                        if let Some(last) = tokens.last_mut() {
                            last.number_follows = false;
                        }
                    }
                }
                assert_eq!(
                    found,
                    expected,
                    "{:?}",
                    String::from_utf8_lossy(&left.bytes)
                );
                assert_eq!(left.bytes, kept.bytes);
                assert_eq!(format!("{:?}", left.tags), format!("{:?}", kept.tags));
                assert_eq!(left.problems, kept.problems);
                assert_eq!((left.line, left.index), (kept.line, kept.index));
            }
        }
    }
}

/// Each game as its tag names, its tokens' text (`{..}` for a comment) and its problems.
fn summaries(reader: impl std::io::BufRead, limits: Limits) -> Vec<String> {
    let mut splitter = Splitter::new(reader, "t".into(), limits);
    let mut games = Vec::new();
    while let Some(game) = splitter.next_game().unwrap() {
        let text = |span| String::from_utf8_lossy(game.text(span)).into_owned();
        let mut parts: Vec<String> = game.tags.iter().map(|t| text(t.name)).collect();
        parts.extend(game.tokens.iter().map(|t| match t.kind {
            TokenKind::Comment => "{..}".to_string(),
            _ => text(t.span),
        }));
        parts.extend(game.problems.iter().map(|p| format!("{:?}", p.kind)));
        games.push(parts.join(" "));
    }
    games
}

/// Past the size limit the bytes of a game are followed, not kept: its termination
/// marker (outside comments and variations) ends it, also where the cut at the limit or
/// the end of the read buffer goes through it, and movetext without tags after it is
/// the next game. The same games come out whatever the read buffer's size.
#[test]
fn oversized_games_end_at_their_termination_marker() {
    let x = |n| "x".repeat(n);
    let cases = [
        // The marker is on the line cut at the limit, past the cut.
        (
            64,
            format!("1. e4 {{{}}} e5 *\n1. d4 d5 *\n", x(5000)),
            "1. e4 LimitExceeded",
            "1. d4 d5 *",
        ),
        // A comment open when the limit is crossed, closed lines later.
        (
            64,
            format!("1. e4 {{{}\n{}\n}} e5 *\n\n1. d4 *\n", x(70), x(70)),
            "1. e4 LimitExceeded",
            "1. d4 *",
        ),
        // Markers that do not end a game: in a variation, a `;` comment, an escape
        // line, a `{}` comment, a line that is not a tag.
        (
            64,
            format!(
                "1. e4 {{{}\n}} e5\n(2. d4 1-0) ; 0-1\n% *\n{{ 1/2-1/2 }}\n[Not a tag *\n{}",
                x(70),
                "2. Nf3 1/2-1/2\n1. c4 *\n",
            ),
            "1. e4 LimitExceeded",
            "1. c4 *",
        ),
        // The cut at the limit goes through the marker (`1/2` is kept, not read as a
        // move).
        (
            64,
            format!("1. e4 {{{}}} 1/2-1/2\n1. d4 *\n", x(4084)),
            "1. e4 {..} LimitExceeded",
            "1. d4 *",
        ),
        // So does the end of what is copied of a long line past the limit.
        (
            64,
            format!("1. e4 {{{}}} e5\n{} ½-½\n1. d4 *\n", x(70), x(4090)),
            "1. e4 {..} e5 LimitExceeded",
            "1. d4 *",
        ),
        // Periods glued to a result, and a result glued to a `[`, are seen past the
        // limit as the main lexer sees them.
        (
            64,
            format!("1. e4 {{{}\n}} e5 ...1/2-1/2\n1. c4 *\n", x(70)),
            "1. e4 LimitExceeded",
            "1. c4 *",
        ),
        (
            64,
            format!("1. e4 {{{}\n}} e5 1-0[Event \"B\"]\n1. c4 *\n", x(70)),
            "1. e4 LimitExceeded",
            "1. c4 *",
        ),
        // Past a bad tag pair, or `[/`, the line goes on as movetext, as
        // `parse_tag_line` reads it; a quoted value left open runs to the line's end.
        // (`[1 "` would be a tag line: a name may start with a digit.)
        (
            64,
            format!(
                "1. e4 {{{}\n}} e5\n[-1 \"A * ]\n[pgn] e5 [/pgn 1-0]\n[/pgn] 1-0\n1. c4 *\n",
                x(70)
            ),
            "1. e4 LimitExceeded",
            "1. c4 *",
        ),
        // A long first tag line of the next game is read under that game's limit.
        (
            5000,
            format!(
                "1. e4 {{{}}} *\n[Event \"{}\"]\n1. d4 *\n",
                x(6000),
                "E".repeat(4500)
            ),
            "1. e4 LimitExceeded",
            "Event 1. d4 *",
        ),
    ];
    for (case, (max_game_bytes, pgn, first, second)) in cases.iter().enumerate() {
        let limits = Limits {
            max_game_bytes: *max_game_bytes,
            ..keeping_numbers()
        };
        let pgn = pgn.as_bytes();
        let expected = summaries(Cursor::new(pgn), limits);
        assert_eq!(expected, [*first, *second], "case {case}");
        for capacity in (1..=64).chain([100, 1000, 4095, 4096, 4097, 8192]) {
            let reader = BufReader::with_capacity(capacity, pgn);
            let games = summaries(reader, limits);
            assert_eq!(games, expected, "case {case}, capacity {capacity}");
        }
    }
}

/// Games that start on the line of the last game's termination marker, bad tag lines
/// and lines between games come out the same whatever the read buffer's size (lines
/// that cross the buffer's end are copied first, then split).
#[test]
fn games_on_one_line_do_not_depend_on_the_read_buffer() {
    let pgn = concat!(
        "% escape\n; comment\n\n",
        "1. e4 e5 1-0 1. d4 d5 0-1  1. c4 * [Event \"b\"] [Site \"s\"] 1. f4 ...e5 1/2-1/2\n",
        "; Game Nr. 1\n[pgn][Event \"c\"]\n[White A]\n[Black \"B\n1. e4 ) 1-0[/pgn]\n",
        "[Event \"d\"] 1. e4 1-0 1. d4 *",
    )
    .as_bytes();
    let expected = summaries(Cursor::new(pgn), keeping_numbers());
    assert_eq!(
        expected,
        [
            "1. e4 e5 1-0",
            "1. d4 d5 0-1",
            "1. c4 *",
            "Event Site 1. f4 ... e5 1/2-1/2",
            "Event White Black 1. e4 ) 1-0 BadTag BadTag BadTag BadTag UnbalancedParenthesis",
            "Event 1. e4 1-0",
            "1. d4 *",
        ]
    );
    for capacity in (1..=64).chain([100, 4096]) {
        let reader = BufReader::with_capacity(capacity, pgn);
        let games = summaries(reader, keeping_numbers());
        assert_eq!(games, expected, "capacity {capacity}");
        let lines: Vec<u64> = {
            let mut splitter = Splitter::new(
                BufReader::with_capacity(capacity, pgn),
                "t".into(),
                Limits::default(),
            );
            std::iter::from_fn(|| splitter.next_game().unwrap().map(|g| g.line)).collect()
        };
        assert_eq!(lines, [4, 4, 4, 4, 6, 10, 10], "capacity {capacity}");
    }
}

/// Games handed back with `recycle` are reused for later games and carry nothing of
/// the game they held: the games read after recycling equal those of a fresh splitter.
#[test]
fn recycled_games_start_empty() {
    let pgn = concat!(
        "[Event \"a\"]\n[White \"x\"]\n\n1. e4 { a long comment } e5 $1 (1... c5) 1-0\n\n",
        "[Event \"b\"]\n\n1. d4 {unclosed\n\n[Event \"c\"]\n1. c4 *\n\n",
        "[Event \"d\"]\n[Site \"bad \"quote\" here\"]\n\n1. Nf3 1/2-1/2\n\n",
        "1. g3 0-1\n\n[Event \"f\"]\n\n1. b3\n",
    )
    .as_bytes();
    let expected = split_all(Cursor::new(pgn), Limits::default());
    let mut splitter = Splitter::new(Cursor::new(pgn), "t".into(), Limits::default());
    let mut found = Vec::new();
    while let Some(game) = splitter.next_game().unwrap() {
        found.push(format!("{game:?}"));
        // Every game goes back at once, so each later one reuses an earlier one.
        splitter.recycle(&mut vec![game]);
    }
    assert!(expected.len() >= 5, "{expected:#?}");
    assert_eq!(found, expected);
}

/// Where a game stands after each line: (finished, variation depth, open comment). The
/// two lexers must agree on it, since it decides where a game ends.
type Ending = (bool, u32, bool);

/// Follows `text` line by line through the lexer (`tokenise_line`, the movetext of a game
/// read whole, going on after a termination marker as a cut line does) and through `Skip`
/// (the same bytes past the size limit), and returns what each made of every line.
fn endings(text: &[u8]) -> (Vec<Ending>, Vec<Ending>) {
    use super::assemble::tokenise_line;
    use super::lines::first_significant;
    use super::skip::Skip;
    use super::{Builder, LexLine, Out};

    let limits = Limits::default();
    let (mut tokens, mut tags, mut problems) = (Vec::new(), Vec::new(), Vec::new());
    let mut lexed = Builder::default();
    let mut skipped = Builder::default();
    let mut skip = Skip::default();
    let (mut by_lexer, mut by_skip) = (Vec::new(), Vec::new());
    let ending = |b: &Builder| (b.finished, b.depth, b.open_comment.is_some());
    let mut base = 0;
    for line in text.split_inclusive(|&b| b == b'\n') {
        let mut out = Out {
            tokens: &mut tokens,
            tags: &mut tags,
            problems: &mut problems,
            move_numbers: limits.move_numbers,
        };
        let line_bytes = LexLine {
            bytes: line,
            base,
            first: first_significant(line),
            offset: 0,
            cut: true,
        };
        let end = tokenise_line(&mut lexed, &mut out, &limits, line_bytes);
        assert_eq!(end, line.len(), "the lexer stopped inside {line:?}");
        skip.scan(&mut skipped, line);
        by_lexer.push(ending(&lexed));
        by_skip.push(ending(&skipped));
        base += line.len();
    }
    (by_lexer, by_skip)
}

/// The movetext lexer and `Skip`, which follows a game past its size limit byte by byte,
/// agree on where a game ends, line by line, on the inputs that tell them apart most.
#[test]
fn the_two_lexers_agree_on_where_a_game_ends() {
    let cases: &[&str] = &[
        "1. e4 e5 2. Nf3 1-0\n",
        "1. e4 e5 0-1\n",
        "1. e4 1/2-1/2\n",
        "1. e4 ½-½\n",
        "1. e4 *\n",
        "1. e4 (1. d4 1-0) e5 *\n",
        "1. e4 (1. d4 (1. c4 *) 0-1) 1-0\n",
        "1. e4 ) ) 1-0\n",
        "1. e4 { a comment 1-0 } e5\n",
        "1. e4 { a comment\nthat goes on 1-0\n} 0-1\n",
        "1. e4 ; a comment 1-0\n1-0\n",
        "% an escape 1-0\n1. e4\n",
        " % not an escape: 1-0\n",
        "12.1-0\n",
        "12...1-0\n",
        "1-0x\n",
        "x1-0\n",
        "1-0) *\n",
        "$12 1-0\n",
        "$1-0\n",
        "!?1-0\n",
        "e4!1-0\n",
        "\u{feff}1-0\n",
        "e4\u{feff}1-0\n",
        "[Event \"a\"] 1-0\n",
        "[Event \"a ] 1-0\"] e4\n",
        "[Event \"a\\\" ] 1-0\"] *\n",
        "[Event \"unclosed 1-0\n*\n",
        "[Event \"a\"] [Site \"b\"] 1-0\n",
        "  [Event \"a\"] *\n",
        "e4 [Event \"a\"] 1-0\n",
        "e4 [/pgn] 1-0\n",
        "e4 [/pgn \"*\"] e5\n",
        "1. e4 1-0 1. d4 { open\n[Event \"x\"] } (\n1-0\n",
        "1. e4 (((((\n)))) ) *\n",
        "{}{}}1-0{\n}\n",
        "1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 {the Ruy Lopez} 4.Ba4 Nf6 5.O-O 1/2-1/2\n",
        "1. f3 e5 2. g4 Qh4#0-1\n",
        "1... R8xg20-1\n",
        "Kf2½-½\n",
        "Kf21/2-1/2\n",
        "1. e4 1/2\n",
        "1. e4 1–0\n",
        "1. e4 ½–½\n",
        "1. e4 1/2–1/2\n",
        "+1-0\n",
        "e41/2\n",
        "121-0\n",
        "1. e4 } 1-0\n",
        "Nbd7xe5f6g7h8a1-0\n",
        "1-0\n}\n)\n",
        "1-0 (\n)\n",
        "1-0\u{1a}\n",
        "e4\u{1a}1-0\n",
        "1-0\u{1a}e4 0-1\n",
    ];
    for case in cases {
        let (by_lexer, by_skip) = endings(case.as_bytes());
        assert_eq!(by_lexer, by_skip, "on {case:?}");
    }
}

/// The same over inputs made of the pieces the lexers treat differently, glued at random
/// (a fixed seed, so a failure repeats). Stray `"` and `\\` are left out: in a tag pair
/// the parser repairs (no name, unescaped quotes), `Skip` follows the quotes while the
/// parser skips to the first `]`, and the two can disagree past the size limit (a known
/// gap: `[/ "x ] 1-0` ends a game below the limit, not above it).
#[test]
fn the_two_lexers_agree_on_mixed_inputs() {
    const PIECES: &[&str] = &[
        "e4",
        " ",
        "  ",
        "\n",
        "\t",
        "1.",
        "12",
        ".",
        "...",
        "1-0",
        "0-1",
        "1/2-1/2",
        "½-½",
        "*",
        "(",
        ")",
        "{",
        "}",
        ";",
        "%",
        "$",
        "$3",
        "!",
        "?",
        "!?",
        "[",
        "[/",
        "]",
        "[Site \"b\"]",
        "Nf3",
        "\u{feff}",
        "+-",
        "=",
        "N",
        "x",
        "-",
        "/",
        "Qh4#",
        "1/2",
        "–",
        "R8xg2",
    ];
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..20_000 {
        let len = 1 + next() % 24;
        let mut text = String::new();
        for _ in 0..len {
            text.push_str(PIECES[(next() % PIECES.len() as u64) as usize]);
        }
        text.push('\n');
        let (by_lexer, by_skip) = endings(text.as_bytes());
        assert_eq!(by_lexer, by_skip, "on {text:?}");
    }
}

/// A game started with its tag lines (`with_head`, a Parquet row's) is the game of its
/// movetext read alone, with the tag lines put in front: the same bytes after them, the
/// same tokens, problems and tags after the head's, every span moved by the head.
#[test]
fn a_game_with_a_head_is_its_movetext_read_alone_behind_the_head() {
    let head = b"[Event \"a\"]\n[White \"x \\\"y\\\"\"]\n\n";
    let tags = {
        let mut splitter = Splitter::new(&head[..], "t".into(), Limits::default());
        splitter.next_game().unwrap().unwrap().tags
    };
    let movetexts = [
        "1. e4 e5 2. Nf3 { [%clk 0:03:00] } Nc6 1-0",
        "1.e4 {a comment\n[Not \"a tag\" ... } e5 ; rest\r\n2... Nf3!? $12 (2. d4) *",
        "1. d4 d5 1-0 1. c4 *",
        "[Round \"1\"]\n1. d4 *",
        "{ never closed",
        "1. e4 e5 ( 2. Nf3",
        "\n\n1. e4 } e5 ) 0-1 \u{1a}",
        "1. f4 1-0\n\u{1}\u{2}",
        "",
        "\u{1}\u{2}",
    ];
    let seen = |game: &crate::pgn::RawGame| {
        let tokens: Vec<_> = game.tokens.iter().map(|t| (t.kind, t.span)).collect();
        let tags: Vec<_> = game.tags.iter().map(|t| (t.name, t.value)).collect();
        let problems: Vec<_> = game.problems.iter().map(|p| (p.kind, &p.detail)).collect();
        format!("{:?} {tags:?} {tokens:?} {problems:?}", game.bytes)
    };
    let split = |moves: &str, with_head: bool| {
        let mut splitter = Splitter::for_part(
            moves.as_bytes(),
            "t".into(),
            Limits::default(),
            1,
            false,
            true,
        );
        if with_head {
            splitter = splitter.with_head(head, &tags);
        }
        let mut games = Vec::new();
        while let Some(game) = splitter.next_game().unwrap() {
            games.push(game);
        }
        games
    };
    for movetext in movetexts {
        let moves = format!("{movetext}\n");
        let mut alone = split(&moves, false);
        if let Some(first) = alone.first_mut() {
            first.bytes.splice(0..0, head.iter().copied());
            for token in &mut first.tokens {
                token.span = token.span.shifted(head.len());
            }
            for tag in &mut first.tags {
                tag.name = tag.name.shifted(head.len());
                tag.value = tag.value.shifted(head.len());
            }
            first.tags.splice(0..0, tags.iter().copied());
        }
        let expected: Vec<_> = alone.iter().map(seen).collect();
        let games: Vec<_> = split(&moves, true).iter().map(seen).collect();
        assert_eq!(games, expected, "{movetext:?}");
    }
}

/// The head does not count toward the size limit: a row's moves are cut where the
/// movetext alone reaches it.
#[test]
fn a_head_does_not_count_toward_the_size_limit() {
    let limits = Limits {
        max_game_bytes: 64,
        ..Limits::default()
    };
    let head = [
        b"[Event \"a long event name, longer than the limit is\"]\n".repeat(2),
        b"\n".to_vec(),
    ]
    .concat();
    // With its line end the line is taken in the reader's buffer; without, it is copied
    // first (`read_one_line`): the limit is the same both ways.
    for moves in [
        &b"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n"[..],
        b"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0",
    ] {
        let mut splitter =
            Splitter::for_part(moves, "t".into(), limits, 1, false, true).with_head(&head, &[]);
        let game = splitter.next_game().unwrap().unwrap();
        assert!(game.problems.is_empty(), "{:?}", game.problems);
        assert_eq!(game.bytes, [&head[..], moves].concat());
        assert_eq!(game.tokens.last().unwrap().kind, TokenKind::Result);
    }
}

/// A header's plain tag line is read in one go (`tags::plain_tag_line`), other lines by
/// the lexer: each shape of tag line gives the same games as the lexer alone gives (a
/// one-byte read buffer copies every line first, which the one-go path never sees).
#[test]
fn tag_lines_read_in_one_go_are_read_as_the_lexer_reads_them() {
    let lines = [
        "[Event \"Plain\"]\n",
        "[Site  \"two spaces\"]  \t\r\n",
        "[ White \"space before the name\"]\n",
        " [Black \"a space before the bracket\"]\n",
        "[Round \"1\"] [Date \"two on a line\"]\n",
        "[Result \"1-0\"] 1. e4\n",
        "[Annotator \"say \"what\" now\"]\n",
        "[Opening \"an \\\"escaped\\\" quote \\\\\"]\n",
        "[ECO \"no bracket\"\n",
        "[Bad_ \"a name ending in _\"]\n",
        "[_Bad \"a name starting with _\"]\n",
        "[TimeControl \"a ] in the value\"]\n",
        "[Emoji \"\u{2654} caf\u{e9}\"]\n",
        "[Empty \"\"]\n",
        "\u{feff}[Bom \"after a byte order mark\"]\n",
        "[Event \"glued\"]{a comment}\n",
    ];
    let mut pgn = String::new();
    for (i, line) in lines.iter().enumerate() {
        pgn.push_str(line);
        pgn.push_str("[Event \"next\"]\n\n1. d4 d5 *\n\n");
        if i % 3 == 0 {
            // A tag line after movetext starts the next game; one in a comment does not.
            pgn.push_str("[Event \"x\"]\n1. e4 { [Site \"in a comment\"]\n} ");
            pgn.push_str(line);
            pgn.push_str("1-0\n\n");
        }
    }
    // The last line without its `\n`.
    pgn.push_str("[Event \"last\"]");
    let small = Limits {
        max_game_bytes: 40,
        max_depth: 4,
        move_numbers: false,
    };
    for limits in [Limits::default(), small].into_iter().flat_map(both_ways) {
        let expected = split_all(BufReader::with_capacity(1, pgn.as_bytes()), limits);
        assert!(expected.len() > lines.len(), "{expected:#?}");
        for capacity in [2, 5, 64, 4096] {
            let reader = BufReader::with_capacity(capacity, pgn.as_bytes());
            assert_eq!(split_all(reader, limits), expected, "capacity {capacity}");
        }
    }
}

/// What the one-go read of a tag line takes: a well-formed pair at the line's start with
/// only white space after it; every other line is left to the lexer.
#[test]
fn plain_tag_lines_are_read_in_one_go() {
    use super::tags::plain_tag_line;
    let text = |bytes: &[u8], span: crate::pgn::Span| {
        String::from_utf8_lossy(span.shifted(0).of(bytes)).into_owned()
    };
    for (line, name, value) in [
        (
            "[Event \"Rated Blitz game\"]\n",
            "Event",
            "Rated Blitz game",
        ),
        ("[Site  \"x\"] \t\r\n", "Site", "x"),
        ("[Opening \"a \\\"b\\\"\"]\n", "Opening", "a \\\"b\\\""),
        ("[Empty \"\"]\n", "Empty", ""),
    ] {
        let bytes = format!("{line}1. e4").into_bytes();
        let found = plain_tag_line(&bytes, 0, 3);
        assert!(found.is_some(), "{line:?}");
        let (tag, len) = found.unwrap();
        assert_eq!(len, line.len(), "{line:?}");
        assert_eq!(
            (text(&bytes, tag.name), text(&bytes, tag.value)),
            (name.into(), value.into())
        );
        assert_eq!(tag.line, 3);
        let (shifted, _) = plain_tag_line(&bytes, 100, 3).unwrap();
        assert_eq!(shifted.name.start, tag.name.start + 100);
    }
    for line in [
        " [Event \"a\"]\n",
        "[Event \"a\"] [Site \"b\"]\n",
        "[Event \"a\"] 1. e4\n",
        "[Event \"say \"what\" now\"]\n",
        "[Event \"a\"\n",
        "[Event \"a\"]",
        "[_Event \"a\"]\n",
        "\u{feff}[Event \"a\"]\n",
    ] {
        assert!(plain_tag_line(line.as_bytes(), 0, 0).is_none(), "{line:?}");
    }
}

/// Stray bytes or closers after a termination marker, on its line, make no game: the
/// finished game takes them, whether the line lies whole in the read buffer or crosses
/// its end (a fuzzed file: a line copied first started a game at the stray bytes).
#[test]
fn what_follows_a_marker_on_its_line_does_not_depend_on_the_read_buffer() {
    let texts = [
        "1. e4 *\0\0\n",
        "[A \"b\"]\n\n1. e4 *\0\0\n[A \"c\"]\n\n1. d4 *\n",
        "1. e4 e5 *\0\n1. d4 *\n",
        "1. e4 * \x01\n",
        "1. e4 * ) }\n1. d4 *\n",
        "1. e4 * 1. d4 * \x01\n",
    ];
    for text in texts {
        let data = text.as_bytes();
        let expected = split_all(Cursor::new(data.to_vec()), keeping_numbers());
        for capacity in 1..12 {
            let reader = BufReader::with_capacity(capacity, data);
            assert_eq!(
                split_all(reader, keeping_numbers()),
                expected,
                "{text:?} {capacity}"
            );
        }
    }
    let games = summaries(
        BufReader::with_capacity(1, &b"1. e4 *\x01\n"[..]),
        keeping_numbers(),
    );
    assert_eq!(games, ["1. e4 * StrayBytes"]);
}
