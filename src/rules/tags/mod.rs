//! A game's tag pairs, decoded to text.

use std::borrow::Cow;
use std::cell::Cell;

pub mod checks;

use crate::pgn::{RawGame, TextDecoder};

/// Tag pairs in input order, decoded (escapes resolved, UTF-8 or Latin-1). All the text
/// lives in one string, so a game's tags cost two allocations, not two per tag.
#[derive(Debug, Clone, Default)]
pub struct Tags {
    text: String,
    spans: Vec<TagText>,
    /// For a game of many tags, the spans' indices sorted by name (stable, so the first
    /// of a name comes first, the last last): `get` searches it instead of every tag, which would make
    /// a finding per tag cost the square of the tags. Empty for ordinary games.
    by_name: Vec<u32>,
    /// One bit per name held (`name_bit`): a name whose bit is clear is absent, and most
    /// lookups of an absent tag (`FEN`, `Variant`) stop there instead of passing every tag.
    names: u64,
    /// The bits of `names` that two or more tags set: only a name whose bit is here may
    /// be held twice.
    repeated: u64,
}

/// Where one tag pair stands in `Tags::text`: its name (`start..name_end`), then its value
/// (`value_start..end`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct TagText {
    start: usize,
    name_end: usize,
    value_start: usize,
    end: usize,
    /// The name's bit in `Tags::names` (its index, 0 to 63).
    bit: u8,
}

/// Tags up to which `get` looks at each tag in turn (cheaper than an index).
const SCANNED_TAGS: usize = 32;

thread_local! {
    /// The buffers of tags a command gave back (`Tags::recycle`), for the thread's next
    /// game: two allocations and two frees a game fewer.
    static SPARE: Cell<(String, Vec<TagText>)> = const { Cell::new((String::new(), Vec::new())) };
}

impl Tags {
    pub fn decode(raw: &RawGame, decoder: &TextDecoder) -> Tags {
        // The common case, with one UTF-8 check for all tags: every name and value is
        // UTF-8 and taken as it is. Otherwise each part is decoded (Latin-1 where it is
        // not UTF-8, or the `--encoding`), which always gives UTF-8.
        let as_is = |bytes| Some(Cow::Borrowed(bytes));
        let decoded = |bytes| {
            Some(match decoder.decode(bytes) {
                Cow::Borrowed(text) => Cow::Borrowed(text.as_bytes()),
                Cow::Owned(text) => Cow::Owned(text.into_bytes()),
            })
        };
        let as_they_are = match decoder {
            TextDecoder::Auto => Tags::copy_region(raw).or_else(|| Tags::collect(raw, as_is)),
            _ => None,
        };
        as_they_are
            .or_else(|| Tags::collect(raw, decoded))
            .unwrap_or_default()
    }

    /// The commonest case at the cost of one copy: the bytes from the first tag's name to
    /// the last one's value, UTF-8 and without a `\\` (so no escape to resolve), taken as
    /// they are, the spans pointing into them. `None` sends the game to `collect`.
    fn copy_region(raw: &RawGame) -> Option<Tags> {
        let (first, last) = (raw.tags.first()?, raw.tags.last()?);
        let base = first.name.start as usize;
        let region = raw.bytes.get(base..last.value.end as usize)?;
        if memchr::memchr(b'\\', region).is_some() {
            return None;
        }
        // Without spares (a command that does not give its tags back), allocated as
        // exactly as before: growing an empty buffer costs more.
        let (text, mut spans) = SPARE.take();
        if spans.capacity() == 0 {
            spans = Vec::with_capacity(raw.tags.len());
        } else {
            spans.clear();
            spans.reserve(raw.tags.len());
        }
        let mut at = 0;
        for tag in &raw.tags {
            let offset = |at: u32| (at as usize).checked_sub(base);
            let span = TagText {
                start: offset(tag.name.start)?,
                name_end: offset(tag.name.end)?,
                value_start: offset(tag.value.start)?,
                end: offset(tag.value.end)?,
                bit: 0,
            };
            // In order and inside the region, as the splitter makes them.
            if !(at <= span.start
                && span.start <= span.name_end
                && span.name_end <= span.value_start
                && span.value_start <= span.end
                && span.end <= region.len())
            {
                return None;
            }
            at = span.end;
            spans.push(span);
        }
        let region = std::str::from_utf8(region).ok()?;
        let text = if text.capacity() == 0 {
            region.to_string()
        } else {
            let mut text = text;
            text.clear();
            text.push_str(region);
            text
        };
        Some(Tags::indexed(text, spans))
    }

    /// Gives the buffers back for the thread's next game (`copy_region` takes them), where
    /// a command is done with the tags on the thread that decoded them; empty afterwards.
    pub fn recycle(&mut self) {
        SPARE.set((
            std::mem::take(&mut self.text),
            std::mem::take(&mut self.spans),
        ));
        *self = Tags::default();
    }

    /// The tags of `text` at `spans`, with the name bits and the index by name.
    fn indexed(text: String, mut spans: Vec<TagText>) -> Tags {
        let by_name = by_name(&text, &spans);
        let (names, repeated) = names(&text, &mut spans);
        Tags {
            text,
            spans,
            by_name,
            names,
            repeated,
        }
    }

    /// Every tag's name and unescaped value, each part's bytes given by `text_of`, into one
    /// string; `None` when the result is not UTF-8. (`\` and `"` are ASCII and never part
    /// of a multi-byte character, so unescaping keeps valid UTF-8 valid and invalid UTF-8
    /// invalid.)
    fn collect<'r>(
        raw: &'r RawGame,
        text_of: impl Fn(&'r [u8]) -> Option<Cow<'r, [u8]>>,
    ) -> Option<Tags> {
        let size = raw
            .tags
            .iter()
            .map(|t| t.value.end.saturating_sub(t.name.start) as usize)
            .sum();
        let mut text = Vec::with_capacity(size);
        let mut spans = Vec::with_capacity(raw.tags.len());
        for tag in &raw.tags {
            let start = text.len();
            text.extend_from_slice(&text_of(raw.text(tag.name))?);
            let name_end = text.len();
            unescape_into(&text_of(raw.text(tag.value))?, &mut text);
            spans.push(TagText {
                start,
                name_end,
                value_start: name_end,
                end: text.len(),
                bit: 0,
            });
        }
        let text = String::from_utf8(text).ok()?;
        Some(Tags::indexed(text, spans))
    }

    /// The (name, value) pairs in input order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.spans.iter().map(
            |&TagText {
                 start,
                 name_end,
                 value_start,
                 end,
                 ..
             }| {
                (
                    self.text.get(start..name_end).unwrap_or_default(),
                    self.text.get(value_start..end).unwrap_or_default(),
                )
            },
        )
    }

    /// How many tag pairs the game has.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The value of the last tag with this name (names are case-sensitive, as in PGN): of
    /// a duplicated tag, the one nearest the movetext counts (SPEC.md `tag.duplicate`).
    pub fn get(&self, name: &str) -> Option<&str> {
        let bit = name_index(name.as_bytes());
        if self.names & (1 << bit) == 0 {
            return None;
        }
        // Names compared as bytes: no character-boundary checks for the tags passed over.
        let text = self.text.as_bytes();
        let name_of = |tag: &TagText| text.get(tag.start..tag.name_end).unwrap_or_default();
        let &TagText {
            value_start, end, ..
        } = if self.by_name.is_empty() {
            let wanted = name.as_bytes();
            // The bit first: most names passed over differ in it.
            self.spans
                .iter()
                .rev()
                .find(|tag| tag.bit == bit && name_of(tag) == wanted)?
        } else {
            let span_at = |i: &u32| self.spans.get(*i as usize);
            // Past the last of the name (the sort is stable: input order within a name).
            let past = self
                .by_name
                .partition_point(|i| span_at(i).map_or(&[][..], name_of) <= name.as_bytes());
            past.checked_sub(1)
                .and_then(|last| self.by_name.get(last))
                .and_then(span_at)
                .filter(|tag| name_of(tag) == name.as_bytes())?
        };
        self.text.get(value_start..end)
    }

    /// For a game of up to 64 tags, a bit per tag that is the second with its name
    /// (`tag.duplicate`); `None` for more tags. Only names whose bit two tags set are
    /// compared, and a game without such names costs no comparison.
    pub fn second_occurrences(&self) -> Option<u64> {
        if self.spans.len() > 64 {
            return None;
        }
        let mut seconds = 0u64;
        if self.repeated == 0 {
            return Some(seconds);
        }
        let text = self.text.as_bytes();
        let name_of = |tag: &TagText| text.get(tag.start..tag.name_end);
        for (index, tag) in self.spans.iter().enumerate() {
            if self.repeated & (1 << tag.bit) == 0 {
                continue;
            }
            let earlier = self.spans.get(..index).unwrap_or_default();
            let same = earlier
                .iter()
                .filter(|other| other.bit == tag.bit && name_of(other) == name_of(tag))
                .count();
            if same == 1 {
                seconds |= 1 << index;
            }
        }
        Some(seconds)
    }

    /// Whether `name` may be held by two tags (when false, it is held once at most).
    pub fn may_repeat(&self, name: &str) -> bool {
        self.repeated & name_bit(name.as_bytes()) != 0
    }

    /// The value, or `""` when absent.
    pub fn value(&self, name: &str) -> &str {
        self.get(name).unwrap_or("")
    }

    /// The values of `names` as [`Tags::value`] gives them, in one pass over the tags: a
    /// stats row reads nine, and a lookup each passes most tags nine times.
    pub fn values<const N: usize>(&self, names: [&str; N]) -> [&str; N] {
        if !self.by_name.is_empty() {
            return names.map(|name| self.value(name));
        }
        let bits = names.map(|name| name_index(name.as_bytes()));
        let wanted = bits.iter().fold(0u64, |all, bit| all | 1 << bit) & self.names;
        let mut found = [(0, 0); N];
        if wanted != 0 {
            let text = self.text.as_bytes();
            // In input order, so that the last tag of a name is the one kept, as `get`'s.
            for tag in &self.spans {
                if wanted & (1 << tag.bit) == 0 {
                    continue;
                }
                let name = text.get(tag.start..tag.name_end).unwrap_or_default();
                for ((slot, wanted), bit) in found.iter_mut().zip(names).zip(bits) {
                    if bit == tag.bit && name == wanted.as_bytes() {
                        *slot = (tag.value_start, tag.end);
                    }
                }
            }
        }
        found.map(|(start, end)| self.text.get(start..end).unwrap_or_default())
    }
}

/// Equal when they hold the same pairs in the same order, however the text is laid out.
impl PartialEq for Tags {
    fn eq(&self, other: &Tags) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for Tags {}

/// A name's index in `Tags::names` (0 to 63), from its length and its first and last
/// bytes.
#[inline]
fn name_index(name: &[u8]) -> u8 {
    let (first, last) = (name.first().copied(), name.last().copied());
    let mix = name
        .len()
        .wrapping_mul(7)
        .wrapping_add(usize::from(first.unwrap_or(0)).wrapping_mul(3))
        .wrapping_add(usize::from(last.unwrap_or(0)));
    (mix % 64) as u8
}

/// A name's bit in `Tags::names`.
#[inline]
fn name_bit(name: &[u8]) -> u64 {
    1 << name_index(name)
}

/// Sets each span's bit, and returns the bits of every name and those set more than once
/// (`Tags::names`, `Tags::repeated`).
fn names(text: &str, spans: &mut [TagText]) -> (u64, u64) {
    let (mut names, mut repeated) = (0u64, 0u64);
    for tag in spans {
        tag.bit = name_index(
            text.as_bytes()
                .get(tag.start..tag.name_end)
                .unwrap_or_default(),
        );
        let bit = 1 << tag.bit;
        repeated |= names & bit;
        names |= bit;
    }
    (names, repeated)
}

/// For a game of many tags, the spans' indices sorted by name (`Tags::by_name`); empty
/// for ordinary games.
fn by_name(text: &str, spans: &[TagText]) -> Vec<u32> {
    if spans.len() <= SCANNED_TAGS {
        return Vec::new();
    }
    let name = |i: &u32| {
        spans
            .get(*i as usize)
            .and_then(|tag| text.as_bytes().get(tag.start..tag.name_end))
            .unwrap_or_default()
    };
    let mut by_name: Vec<u32> = (0..u32::try_from(spans.len()).unwrap_or(u32::MAX)).collect();
    by_name.sort_by(|a, b| name(a).cmp(name(b)));
    by_name
}

/// Appends `value` to `out` with the PGN escapes `\"` and `\\` resolved.
fn unescape_into(value: &[u8], out: &mut Vec<u8>) {
    if memchr::memchr(b'\\', value).is_none() {
        out.extend_from_slice(value);
        return;
    }
    let mut bytes = value.iter();
    while let Some(&b) = bytes.next() {
        if b == b'\\' {
            match bytes.next() {
                Some(&next @ (b'"' | b'\\')) => out.push(next),
                Some(&other) => {
                    out.push(b'\\');
                    out.push(other);
                }
                None => out.push(b'\\'),
            }
        } else {
            out.push(b);
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails loudly")]

    use super::Tags;
    use crate::pgn::{RawGame, TextDecoder};

    fn game(pgn: &[u8]) -> RawGame {
        RawGame::of_tag_lines(pgn)
    }

    fn pairs(tags: &Tags) -> Vec<(String, String)> {
        tags.iter()
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect()
    }

    /// Plain UTF-8 tags are the header's bytes copied once (the brackets and quotes stay
    /// in the text between the spans); an escape, a Latin-1 byte or an `--encoding`
    /// takes the tag-by-tag way; every way reads the same pairs, and `get` the last of a
    /// name.
    #[test]
    fn every_way_reads_the_same_pairs() {
        let plain = game(
            "[Event \"Café\"]\n[White \"A, B\"]\n[Event \"Last\"]\n[Black \"\"]\n1. e4 *\n"
                .as_bytes(),
        );
        let tags = Tags::decode(&plain, &TextDecoder::Auto);
        assert!(tags.text.contains("\"]\n["), "{:?}", tags.text);
        let expected = [
            ("Event", "Café"),
            ("White", "A, B"),
            ("Event", "Last"),
            ("Black", ""),
        ]
        .map(|(name, value)| (name.to_string(), value.to_string()));
        assert_eq!(pairs(&tags), expected);
        assert_eq!(tags.get("Event"), Some("Last"));
        assert_eq!(tags.get("Black"), Some(""));
        assert_eq!(tags.get("Site"), None);
        // Names of one length and bit, absent or present.
        assert_eq!(tags.get("Eventt"), None);
        // One pass for many names reads what a lookup each does, the last of a name too.
        assert_eq!(
            tags.values(["Event", "Site", "Black", "White", "Eventt", "Black"]),
            ["Last", "", "", "A, B", "", ""]
        );
        assert_eq!(tags.get("Evenu"), None);
        assert_eq!(tags.get(""), None);
        let collected = Tags::collect(&plain, |bytes| Some(bytes.into())).unwrap();
        assert!(!collected.text.contains('['));
        assert_eq!(tags, collected);

        let escaped = game(b"[Event \"a \\\"b\\\" \\\\\"]\n[Site \"x\"]\n*\n");
        let tags = Tags::decode(&escaped, &TextDecoder::Auto);
        assert_eq!(tags.get("Event"), Some("a \"b\" \\"));
        assert_eq!(tags.get("Site"), Some("x"));
        assert!(!tags.text.contains('['));

        let latin1 = game(b"[White \"Caf\xe9\"]\n[Black \"B\"]\n*\n");
        let tags = Tags::decode(&latin1, &TextDecoder::Auto);
        assert_eq!(tags.get("White"), Some("Café"));
        assert_eq!(tags.get("Black"), Some("B"));
    }

    /// `values` reads what `value` does, with few tags (one pass) or many (the index).
    #[test]
    fn values_are_the_lookups_of_each_name() {
        for count in [3, 40] {
            let mut pgn = String::from("[Event \"First\"]\n");
            for i in 0..count {
                pgn.push_str(&format!("[T{i} \"v{i}\"]\n"));
            }
            pgn.push_str("[Event \"Last\"]\n[Site \"\"]\n*\n");
            let tags = Tags::decode(&game(pgn.as_bytes()), &TextDecoder::Auto);
            let names = ["T2", "Event", "Site", "Round", "T1", "Event", "Tx"];
            let values = tags.values(names);
            assert_eq!(values, names.map(|name| tags.value(name)), "{count} tags");
            assert_eq!(values, ["v2", "Last", "", "", "v1", "Last", ""]);
        }
    }

    /// A game decoded into the buffers another gave back reads as a fresh decoding.
    #[test]
    fn recycled_buffers_decode_the_same_tags() {
        let long = game(b"[Event \"A long event name\"]\n[Site \"x\"]\n[White \"W\"]\n*\n");
        let short = game(b"[Event \"B\"]\n*\n");
        let mut first = Tags::decode(&long, &TextDecoder::Auto);
        let capacity = first.text.capacity();
        first.recycle();
        assert!(first.is_empty());
        let reused = Tags::decode(&short, &TextDecoder::Auto);
        assert_eq!(reused, Tags::decode(&short, &TextDecoder::Auto));
        assert_eq!(reused.get("Event"), Some("B"));
        // The long game's text buffer, not one of the short game's size.
        assert_eq!(reused.text.capacity(), capacity);
    }
}
