//! A game's tag pairs, decoded to text.

use crate::input::{RawGame, TextDecoder};

/// Tag pairs in input order, decoded (escapes resolved, UTF-8 or Latin-1). All the text
/// lives in one string, so a game's tags cost two allocations, not two per tag.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tags {
    text: String,
    /// (name start, name end, value end) in `text`; the value starts at the name's end.
    spans: Vec<(usize, usize, usize)>,
}

impl Tags {
    pub fn decode(raw: &RawGame, decoder: &TextDecoder) -> Tags {
        let mut tags = Tags {
            text: String::with_capacity(
                raw.tags
                    .iter()
                    .map(|t| (t.value.1 - t.name.0) as usize)
                    .sum(),
            ),
            spans: Vec::with_capacity(raw.tags.len()),
        };
        for tag in &raw.tags {
            let start = tags.text.len();
            tags.text
                .push_str(&decoder.decode(raw.text(tag.name.0, tag.name.1)));
            let name_end = tags.text.len();
            unescape_into(
                &decoder.decode(raw.text(tag.value.0, tag.value.1)),
                &mut tags.text,
            );
            tags.spans.push((start, name_end, tags.text.len()));
        }
        tags
    }

    /// The (name, value) pairs in input order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.spans.iter().map(|&(start, name_end, end)| {
            (
                self.text.get(start..name_end).unwrap_or_default(),
                self.text.get(name_end..end).unwrap_or_default(),
            )
        })
    }

    /// How many tag pairs the game has.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The value of the first tag with this name (names are case-sensitive, as in PGN).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    /// The value, or `""` when absent.
    pub fn value(&self, name: &str) -> &str {
        self.get(name).unwrap_or("")
    }
}

/// Appends `value` to `out` with the PGN escapes `\"` and `\\` resolved.
fn unescape_into(value: &str, out: &mut String) {
    if !value.contains('\\') {
        out.push_str(value);
        return;
    }
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some(next @ ('"' | '\\')) => out.push(next),
                Some(other) => {
                    out.push('\\');
                    out.push(other);
                }
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
}
