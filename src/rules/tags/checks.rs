//! Checks of the tag section: the seven-tag roster, well-formed values, duplicates, and a
//! `[FEN]` that is legal but implausible.

use std::collections::HashMap;

use shakmaty::fen::Fen;

use crate::rules::findings::Code;
use crate::rules::tags::Tags;

/// The seven tags every PGN game must have (PGN standard 8.1.1).
const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Every tag finding of one game, as (code, message); the info-level ones only when
/// `infos` asks for them (`tag.duplicate` is a warning and always checked).
pub fn check(tags: &Tags, infos: bool) -> Vec<(Code, String)> {
    let mut found = Vec::new();
    // One pass: which roster tags are present, duplicates, malformed values.
    let mut present = [false; ROSTER.len()];
    let seconds = second_occurrences(tags);
    for ((name, value), second) in tags.iter().zip(seconds) {
        if second {
            found.push((
                Code::TagDuplicate,
                format!(
                    "[{name}] appears more than once (two games merged by a missing blank line, or a header-only record before the game?); the last value, nearest the movetext, is used"
                ),
            ));
        }
        if !infos {
            continue;
        }
        if let Some(slot) = roster_index(name).and_then(|i| present.get_mut(i)) {
            *slot = true;
        }
        if let Some(why) = bad_value(name, value) {
            found.push((Code::TagBadValue, format!("[{name} \"{value}\"]: {why}")));
        }
    }
    if infos && present.contains(&false) {
        let missing: Vec<String> = ROSTER
            .iter()
            .zip(present)
            .filter(|(_, here)| !here)
            .map(|(name, _)| format!("[{name}]"))
            .collect();
        found.insert(
            0,
            (
                Code::TagMissingRoster,
                format!("the seven-tag roster lacks {}", missing.join(", ")),
            ),
        );
    }
    if infos && let Some(fen) = tags.get("FEN") {
        found.extend(
            implausible(fen)
                .into_iter()
                .map(|why| (Code::SetupImplausible, format!("[FEN \"{fen}\"]: {why}"))),
        );
    }
    found
}

/// Up to this many tags, names are compared pairwise (cheaper than hashing a few names).
const PAIRWISE_TAGS: usize = 32;

/// For each tag, whether it is the second with its name (where `tag.duplicate` is
/// reported, once per name). Linear in the number of tags: a game of a million tags
/// must not cost a million squared comparisons.
fn second_occurrences(tags: &Tags) -> Vec<bool> {
    if tags.len() <= PAIRWISE_TAGS {
        // The names taken out once: each `Tags::iter` step checks its slices' bounds.
        let names: Vec<&str> = tags.iter().map(|(name, _)| name).collect();
        return names
            .iter()
            .enumerate()
            .map(|(index, name)| {
                let earlier = names.get(..index).unwrap_or_default();
                earlier
                    .iter()
                    .filter(|earlier| same_name(earlier, name))
                    .count()
                    == 1
            })
            .collect();
    }
    let mut seen: HashMap<&str, u32> = HashMap::new();
    tags.iter()
        .map(|(name, _)| {
            let count = seen.entry(name).or_insert(0);
            *count = count.saturating_add(1);
            *count == 2
        })
        .collect()
}

fn roster_index(name: &str) -> Option<usize> {
    ROSTER.iter().position(|r| *r == name)
}

/// Tag names compared cheaply first (length, first byte), as most differ there.
fn same_name(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.as_bytes().first() == b.as_bytes().first() && a == b
}

/// Why a Date, Elo or Result value is malformed, if it is.
fn bad_value(name: &str, value: &str) -> Option<&'static str> {
    match name {
        "Date" | "UTCDate" | "EventDate" if !is_date(value) => {
            Some("a date is written YYYY.MM.DD, with `?` for unknown digits")
        }
        // The PGN standard writes an unknown value `?` and an inapplicable one `-`.
        "WhiteElo" | "BlackElo"
            if !matches!(value, "" | "?" | "-") && !value.bytes().all(|b| b.is_ascii_digit()) =>
        {
            Some("an Elo rating is a number")
        }
        "Result" if !matches!(value, "1-0" | "0-1" | "1/2-1/2" | "*") => {
            Some("a result is one of 1-0, 0-1, 1/2-1/2, *")
        }
        _ => None,
    }
}

/// `YYYY.MM.DD`, each field all digits or all `?`.
fn is_date(value: &str) -> bool {
    let bytes = value.as_bytes();
    let field = |range: std::ops::Range<usize>| {
        bytes
            .get(range)
            .is_some_and(|f| f.iter().all(|&b| b == b'?') || f.iter().all(u8::is_ascii_digit))
    };
    bytes.len() == 10
        && bytes.get(4) == Some(&b'.')
        && bytes.get(7) == Some(&b'.')
        && field(0..4)
        && field(5..7)
        && field(8..10)
}

/// What makes a legal `[FEN]` implausible: missing fields, counters that no game reaches.
fn implausible(text: &str) -> Vec<String> {
    let mut why = Vec::new();
    let fields: Vec<&str> = text.split_whitespace().collect();
    if Fen::from_ascii(text.trim().as_bytes()).is_err() {
        return why;
    }
    if fields.len() != 6 {
        why.push(format!(
            "has {} fields instead of 6 (missing ones default)",
            fields.len()
        ));
    }
    let halfmoves: Option<u32> = fields.get(4).and_then(|f| f.parse().ok());
    let fullmoves: Option<u32> = fields.get(5).and_then(|f| f.parse().ok());
    if fullmoves == Some(0) {
        why.push("the fullmove number is 0 (it starts at 1)".to_string());
    }
    if let (Some(ep), Some(h)) = (fields.get(3), halfmoves)
        && *ep != "-"
        && h != 0
    {
        why.push(format!(
            "an en passant square with halfmove clock {h}: a double step resets the clock to 0"
        ));
    }
    if let Some(h) = halfmoves
        && h >= 150
    {
        why.push(format!(
            "the halfmove clock is {h}: the game was already drawn by the 75-move rule"
        ));
    }
    if let (Some(h), Some(f)) = (halfmoves, fullmoves)
        && f > 0
        && h > 2 * f
    {
        why.push(format!(
            "the halfmove clock {h} is larger than the plies played by move {f}"
        ));
    }
    why
}
