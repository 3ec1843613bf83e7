//! A game's tag pairs, decoded to text.

use crate::input::{RawGame, TextDecoder};

/// Tag pairs in input order, decoded (escapes resolved, UTF-8 or Latin-1).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tags {
    pub pairs: Vec<(String, String)>,
}

impl Tags {
    pub fn decode(raw: &RawGame, decoder: &TextDecoder) -> Tags {
        let pairs = raw
            .tags
            .iter()
            .map(|tag| {
                let name = decoder
                    .decode(raw.text(tag.name.0, tag.name.1))
                    .into_owned();
                let value = unescape(&decoder.decode(raw.text(tag.value.0, tag.value.1)));
                (name, value)
            })
            .collect();
        Tags { pairs }
    }

    /// The value of the first tag with this name (names are case-sensitive, as in PGN).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The value, or `""` when absent.
    pub fn value(&self, name: &str) -> &str {
        self.get(name).unwrap_or("")
    }
}

/// Resolves the PGN escapes `\"` and `\\`.
fn unescape(value: &str) -> String {
    if !value.contains('\\') {
        return value.to_string();
    }
    let mut out = String::with_capacity(value.len());
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
    out
}
