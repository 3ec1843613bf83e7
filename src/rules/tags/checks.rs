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
    if !infos && seconds.none() {
        return found;
    }
    for (index, (name, value)) in tags.iter().enumerate() {
        if seconds.is_second(index) {
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
        // The PGN standard asks for `[SetUp "1"]` with a FEN; a `0` contradicts it.
        if tags.get("SetUp").is_some_and(|setup| setup.trim() == "0") {
            found.push((
                Code::TagBadValue,
                "[SetUp \"0\"] beside a [FEN]: the two disagree; the FEN is used".to_string(),
            ));
        }
        found.extend(
            implausible(fen)
                .into_iter()
                .map(|why| (Code::SetupImplausible, format!("[FEN \"{fen}\"]: {why}"))),
        );
    }
    found
}

/// Which tags are the second with their name (where `tag.duplicate` is reported, once per
/// name).
enum Seconds {
    /// A bit per tag, for a game of up to 64 tags (`Tags::second_occurrences`).
    Few(u64),
    Many(Vec<bool>),
}

impl Seconds {
    fn is_second(&self, index: usize) -> bool {
        match self {
            Seconds::Few(bits) => index < 64 && bits & (1 << index) != 0,
            Seconds::Many(seconds) => seconds.get(index).copied().unwrap_or(false),
        }
    }

    fn none(&self) -> bool {
        match self {
            Seconds::Few(bits) => *bits == 0,
            Seconds::Many(seconds) => !seconds.contains(&true),
        }
    }
}

/// For each tag, whether it is the second with its name. Linear in the number of tags: a
/// game of a million tags must not cost a million squared comparisons. An ordinary game
/// costs no allocation (`Tags::second_occurrences`).
fn second_occurrences(tags: &Tags) -> Seconds {
    if let Some(bits) = tags.second_occurrences() {
        return Seconds::Few(bits);
    }
    let mut seen: HashMap<&str, u32> = HashMap::new();
    Seconds::Many(
        tags.iter()
            .map(|(name, _)| {
                let count = seen.entry(name).or_insert(0);
                *count = count.saturating_add(1);
                *count == 2
            })
            .collect(),
    )
}

fn roster_index(name: &str) -> Option<usize> {
    ROSTER.iter().position(|r| *r == name)
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

#[cfg(test)]
mod tests {
    #![allow(
        clippy::unwrap_used,
        clippy::indexing_slicing,
        reason = "a test fails loudly"
    )]

    use super::check;
    use crate::pgn::{RawGame, TextDecoder};
    use crate::rules::findings::Code;
    use crate::rules::tags::Tags;

    fn tags(header: &str) -> Tags {
        let pgn = format!("{header}\n*\n");
        Tags::decode(&RawGame::of_tag_lines(pgn.as_bytes()), &TextDecoder::Auto)
    }

    /// `tag.duplicate` once per repeated name, at its second occurrence: `Exent` shares
    /// `Event`'s length and first and last letters (so the two are compared) and is no
    /// duplicate; a game without two names alike has none.
    #[test]
    fn duplicates_are_found_once_per_name() {
        let repeated = tags(
            "[Event \"a\"]\n[Exent \"b\"]\n[Event \"c\"]\n[Site \"d\"]\n[Event \"e\"]\n[Site \"f\"]",
        );
        assert!(repeated.may_repeat("Exent"));
        let found: Vec<String> = check(&repeated, false)
            .into_iter()
            .map(|(code, message)| {
                assert_eq!(code, Code::TagDuplicate);
                message
            })
            .collect();
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].starts_with("[Event]"), "{found:?}");
        assert!(found[1].starts_with("[Site]"), "{found:?}");
        let plain = tags("[Event \"a\"]\n[Site \"b\"]\n[Date \"2024.01.01\"]");
        assert!(check(&plain, false).is_empty());
        assert!(
            check(&plain, true)
                .iter()
                .any(|(code, _)| *code == Code::TagMissingRoster)
        );
    }
}
