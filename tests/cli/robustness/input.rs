//! See the parent module: damaged and strange input never crashes, and no game is lost.

use super::*;
use crate::util::*;

// ---- random and malformed bytes -------------------------------------------------------

#[test]
fn random_bytes_never_crash_and_every_game_is_counted() {
    for seed in [1u64, 2, 3] {
        let mut noise = Noise(0x9e37_79b9_7f4a_7c15 ^ seed);
        // Printable-heavy noise reaches the tokeniser; raw noise reaches the byte paths.
        let mut bytes = noise.bytes(64 * 1024);
        if seed == 2 {
            let alphabet = b"[]{}()\"\n .123456789abcdefghKQRBNOx-+=#*$!?%;\\/";
            for b in &mut bytes {
                *b = alphabet[*b as usize % alphabet.len()];
            }
        }
        // The same bytes at several thread counts: `determinism`'s "random" input.
        let one = validate_with(&["-"], &bytes);
        assert!(matches!(one.code, 0 | 1), "seed {seed}: exit {}", one.code);
        // Every game that has a finding was counted.
        let counted = one.summary("games");
        assert!(one.codes().iter().all(|(_, game, _)| *game <= counted));
    }
}

#[test]
fn file_cut_mid_tag_is_one_game_with_the_tag_reported() {
    let run = validate_bytes(b"[Event \"T\"]\n[White \"Ab");
    // The cut tag is repaired (closed), a warning like the cut.
    assert_eq!(run.code, 0);
    assert_eq!(run.summary("games"), 1);
    let codes = codes_of_game(&run, 1);
    assert!(codes.contains(&"input.bad-tag".to_string()), "{codes:?}");
    assert!(codes.contains(&"input.truncated".to_string()), "{codes:?}");
    assert!(
        run.findings[0]["message"]
            .as_str()
            .unwrap()
            .contains("[White \"Ab")
    );
}

#[test]
fn file_cut_mid_comment_keeps_the_moves_before_it() {
    // pgn-reader returns an error here and loses the game; pgnkit keeps both plies.
    let run = validate_bytes(b"[Event \"T\"]\n\n1. e4 e5 {a comm");
    run.assert_counts(0, 1, 2);
    // A game-level finding: the last ply replayed, here 2.
    run.assert_only(
        "input.unterminated-comment",
        1,
        2,
        "moves before it are kept",
    );
    // A game-level finding: `move_line` is the game's line, the message names the line.
    assert_eq!(run.findings[0]["move_line"], 1);
    assert!(
        run.findings[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("line 3: ")
    );
}

#[test]
fn unterminated_comment_at_end_of_file_after_good_games() {
    let mut pgn = String::from(GAME_B);
    pgn.push_str("\n[Event \"C\"]\n\n1. e4 e5 2. Nf3 { never closed\n\n2... Nc6 3. Bb5\n");
    let run = validate_bytes(pgn.as_bytes());
    // 2 plies of game 1, 3 of game 2 (the moves inside the open comment are not moves).
    run.assert_counts(0, 2, 5);
    run.assert_only("input.unterminated-comment", 2, 3, "never closed");
}

#[test]
fn file_cut_mid_move_reports_the_stump_and_the_cut() {
    let run = validate_bytes(b"[Event \"T\"]\n\n1. e4 e5 2. Nf");
    assert_eq!(run.code, 1);
    assert_eq!(run.summary("games"), 1);
    assert_eq!(run.summary("plies"), 2);
    let codes = run.codes();
    assert!(
        codes.contains(&("input.truncated".to_string(), 1, 2)),
        "{codes:?}"
    );
    assert!(
        codes.contains(&("move.syntax".to_string(), 1, 3)),
        "{codes:?}"
    );
    let syntax = run
        .findings
        .iter()
        .find(|f| f["code"] == "move.syntax")
        .unwrap();
    assert_eq!(syntax["move"], "2. Nf");
}

#[test]
fn nul_bytes_are_a_bad_token_not_a_crash() {
    let run = validate_bytes(b"[Event \"T\"]\n\n1. e4 \0\0 e5 *\n\n[Event \"B\"]\n\n1. d4 d5 *\n");
    run.assert_counts(1, 2, 3);
    run.assert_only("move.syntax", 1, 2, "not a move");
    assert_eq!(run.findings[0]["san"], "\u{0}\u{0}");
}

#[test]
fn empty_input_is_zero_games() {
    let (_dir, path) = temp_file("empty.pgn", b"");
    let run = validate_path(&path);
    assert_eq!(run.code, 0);
    assert_eq!(run.summary("games"), 0);
    assert!(run.findings.is_empty());
}

#[test]
fn tags_only_and_movetext_only_are_games() {
    let run = validate_bytes(b"[Event \"Tags\"]\n[Result \"*\"]\n");
    assert_eq!((run.code, run.summary("games")), (0, 1));
    assert_eq!(run.codes(), vec![("input.truncated".to_string(), 1, 0)]);

    let run = validate_bytes(b"1. e4 e5 *\n\n1. d4 d5 *\n");
    run.assert_counts(0, 2, 4);
    assert!(run.findings.is_empty());
}

#[test]
fn byte_order_mark_in_the_middle_starts_a_game_like_any_other() {
    let mut pgn = b"[Event \"A\"]\n\n1. e4 *\n\n".to_vec();
    pgn.extend_from_slice(b"\xef\xbb\xbf[Event \"B\"]\n\n1. d4 d5 *\n");
    let run = validate_bytes(&pgn);
    run.assert_counts(0, 2, 3);
    assert!(run.findings.is_empty(), "{:?}", run.codes());
}

#[test]
fn utf16_input_is_unsupported_encoding() {
    let text = "[Event \"A\"]\n\n1. e4 e5 *\n";
    for bom in [&[0xff_u8, 0xfe][..], &[][..]] {
        let mut bytes = bom.to_vec();
        bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        let run = validate_bytes(&bytes);
        assert_eq!(run.code, 1);
        assert_eq!(run.summary("games"), 1);
        assert_eq!(
            run.codes(),
            vec![("input.unsupported-encoding".to_string(), 1, 0)]
        );
        assert!(
            run.findings[0]["message"]
                .as_str()
                .unwrap()
                .contains("UTF-16")
        );
    }
}

#[test]
fn wide_text_without_a_bom_is_unsupported_encoding_in_every_byte_order() {
    let text = "[Event \"A\"]\n\n1. e4 e5 *\n";
    let utf16be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
    let utf32le: Vec<u8> = text
        .chars()
        .flat_map(|c| u32::from(c).to_le_bytes())
        .collect();
    for bytes in [utf16be, utf32le] {
        let run = validate_bytes(&bytes);
        assert_eq!(run.code, 1);
        assert_eq!(
            run.codes(),
            vec![("input.unsupported-encoding".to_string(), 1, 0)]
        );
    }
}

#[test]
fn a_nul_after_the_first_byte_is_not_utf16() {
    // Two bytes, a byte and a NUL: a bad token, not a wide encoding.
    let run = validate_bytes(b"e\0");
    run.assert_counts(1, 1, 0);
    assert_eq!(
        codes_of_game(&run, 1),
        vec!["input.truncated".to_string(), "move.syntax".to_string()]
    );
    // A binary blob that opens with a little-endian number: read as (bad) text.
    let mut blob = vec![7, 0, 0, 0];
    blob.extend((0..=255u8).rev());
    let run = validate_bytes(&blob);
    assert_eq!((run.code, run.summary("games")), (1, 1));
    assert!(
        run.codes()
            .iter()
            .all(|(code, _, _)| code != "input.unsupported-encoding"),
        "{:?}",
        run.codes()
    );
    assert!(run.codes().iter().any(|(code, _, _)| code == "move.syntax"));
    // A stray NUL in the first game's move number: the games after it are read.
    let mut pgn = b"1\0. e4 e5 *\n\n".to_vec();
    pgn.extend_from_slice(GAME_B.as_bytes());
    let run = validate_bytes(&pgn);
    run.assert_counts(1, 2, 2);
    assert_eq!(codes_of_game(&run, 1), vec!["move.syntax".to_string()]);
    assert!(codes_of_game(&run, 2).is_empty(), "{:?}", run.codes());
}

// ---- text encodings --------------------------------------------------------------------

#[test]
fn tag_values_are_utf8_when_valid_else_latin1() {
    let run = validate_bytes(&game_with_white(b"M\xfcller"));
    assert_eq!(run.findings[0]["white"], "Müller");
    let run = validate_bytes(&game_with_white("Müller".as_bytes()));
    assert_eq!(run.findings[0]["white"], "Müller");
}

#[test]
fn cp437_file_is_read_with_encoding_cp437() {
    // In code page 437, 0x81 is ü and 0x94 is ö; in Latin-1 they are control characters.
    let (_dir, path) = temp_file("dos.pgn", &game_with_white(b"M\x81ller, J\x94rg"));
    let path = path.to_str().unwrap();
    let dos = validate_with(&["--encoding", "cp437", path], b"");
    assert_eq!(dos.code, 1);
    assert_eq!(dos.findings[0]["white"], "Müller, Jörg");
    let auto = validate_with(&[path], b"");
    assert_eq!(auto.findings[0]["white"], "M\u{81}ller, J\u{94}rg");
    let unknown = validate_with(&["--encoding", "cp9999", path], b"");
    assert_eq!(unknown.code, 2);
    assert!(unknown.stderr.contains("unknown encoding `cp9999`"));
}

// ---- nothing lost ------------------------------------------------------------------------

#[test]
fn every_game_of_a_mixed_file_is_counted_and_named() {
    let games: [&[u8]; 8] = [
        b"[Event \"good\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n",
        b"[Event \"illegal\"]\n\n1. e4 e4 *\n",
        b"[Event \"bad tag\n\n1. d4 d5 *\n",
        b"1. c4 c5 1-0\n",
        b"[Event \"nul\"]\n\n1. \0 *\n",
        b"[Event \"syntax\"]\n\n1. e4 @@ *\n",
        b"[Event \"good\"]\n\n1. d4 Nf6 *\n",
        b"[Event \"open\"]\n\n1. e4 { never closed\n",
    ];
    let pgn: Vec<u8> = games.join(&b"\n"[..]);
    for threads in ["1", "2"] {
        let run = validate_with(&["--threads", threads, "-"], &pgn);
        assert_eq!(run.code, 1);
        assert_eq!(run.summary("games"), 8, "{}", run.stderr);
        let with_findings: std::collections::BTreeSet<u64> =
            run.codes().iter().map(|(_, game, _)| *game).collect();
        assert_eq!(
            with_findings.into_iter().collect::<Vec<_>>(),
            vec![2, 3, 5, 6, 8],
            "{:?}",
            run.codes()
        );
        assert_eq!(codes_of_game(&run, 2), vec!["move.illegal"]);
        assert_eq!(codes_of_game(&run, 8), vec!["input.unterminated-comment"]);

        // `stats` gives every one of them a row, the broken ones with their status.
        let (code, csv, _) = crate::util::run(
            &["stats", "--threads", threads, "-q"],
            &String::from_utf8_lossy(&pgn),
        );
        assert_eq!(code, 0);
        let rows: Vec<Vec<&str>> = csv
            .lines()
            .skip(1)
            .map(|l| l.split(',').collect())
            .collect();
        let numbered: Vec<(&str, &str)> = rows.iter().map(|r| (r[1], r[14])).collect();
        assert_eq!(
            numbered,
            vec![
                ("1", "ok"),
                ("2", "illegal"),
                // The tag line is repaired (`input.bad-tag`) and the moves replayed.
                ("3", "ok"),
                ("4", "ok"),
                ("5", "illegal"),
                ("6", "illegal"),
                ("7", "ok"),
                ("8", "ok"),
            ]
        );
    }
}
