//! The aggregate of a `stats` run: additive `section,key,count` figures that merge exactly,
//! so the parts of a split archive add up to the figures of one run.

use std::collections::BTreeMap;
use std::io::{Read, Write};

use anyhow::{Context as _, bail};

use crate::output::summary::thousands;
use crate::output::terminal::visible;
use crate::rules::GameReport;
use crate::stats::row::insufficient_material;

/// The longest line of a summary file read by `--merge`: its lines are a section, a key
/// and a count, tens of bytes.
pub const MAX_SUMMARY_LINE: usize = 64 * 1024;

/// A reader that fails at a line longer than `max` bytes, naming the line.
struct LineLimit<R> {
    inner: R,
    max: usize,
    /// Bytes since the last line end, and lines ended so far.
    in_line: usize,
    lines: u64,
}

impl<R: Read> LineLimit<R> {
    fn new(inner: R, max: usize) -> LineLimit<R> {
        LineLimit {
            inner,
            max,
            in_line: 0,
            lines: 0,
        }
    }
}

impl<R: Read> Read for LineLimit<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        for &byte in buf.get(..n).unwrap_or_default() {
            if byte == b'\n' {
                self.lines += 1;
                self.in_line = 0;
            } else {
                self.in_line += 1;
                if self.in_line > self.max {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        format!("line {} is longer than {} bytes", self.lines + 1, self.max),
                    ));
                }
            }
        }
        Ok(n)
    }
}

/// Counts by section and key. Rows are kept sorted, so writing is deterministic.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// section -> key -> count, for the keys not in `FIXED`.
    counts: BTreeMap<String, BTreeMap<String, u64>>,
    /// The counts of the `FIXED` keys; `None` until a key is first added (a key added
    /// with 0 is listed, one never added is not).
    fixed: [Option<u64>; FIXED.len()],
}

const HEADER: [&str; 3] = ["section", "key", "count"];

/// The keys every game adds to: counted in an array instead of the map, as most of a
/// game's additions are these (`add_game` names them by index).
const FIXED: [(&str, &str); 15] = [
    ("games", "games"),
    ("draw_rule", "threefold"),
    ("draw_rule", "fivefold"),
    ("draw_rule", "fifty_move"),
    ("draw_rule", "seventy_five_move"),
    ("draw_rule", "perpetual_check"),
    ("draw_rule", "insufficient_material"),
    ("moves", "plies"),
    ("moves", "checks"),
    ("moves", "captures"),
    ("moves", "castles"),
    ("moves", "en_passant"),
    ("moves", "promotions"),
    ("moves", "under_promotions"),
    ("moves", "missed_en_passant"),
];
const GAMES: usize = 0;
const DRAW_RULES: usize = 1;
const MOVES: usize = 7;

fn fixed_index(section: &str, key: &str) -> Option<usize> {
    FIXED.iter().position(|&(s, k)| s == section && k == key)
}

impl Summary {
    /// Adds `n` to one count.
    pub fn add(&mut self, section: &str, key: &str, n: u64) {
        match fixed_index(section, key) {
            Some(index) => self.add_fixed(index, n),
            None => self.add_to_map(section, key, n),
        }
    }

    /// Adds to a key that is not one of `FIXED`.
    fn add_to_map(&mut self, section: &str, key: &str, n: u64) {
        // Look up before allocating: after the first games every key exists.
        if let Some(count) = self
            .counts
            .get_mut(section)
            .and_then(|keys| keys.get_mut(key))
        {
            *count += n;
            return;
        }
        *self
            .counts
            .entry(section.to_string())
            .or_default()
            .entry(key.to_string())
            .or_default() += n;
    }

    fn add_fixed(&mut self, index: usize, n: u64) {
        if let Some(slot) = self.fixed.get_mut(index) {
            *slot = Some(slot.unwrap_or(0) + n);
        }
    }

    /// section -> key -> count, the `FIXED` keys included: what is written and shown.
    fn view(&self) -> BTreeMap<&str, BTreeMap<&str, u64>> {
        let mut view: BTreeMap<&str, BTreeMap<&str, u64>> = self
            .counts
            .iter()
            .map(|(section, keys)| {
                let keys = keys.iter().map(|(key, n)| (key.as_str(), *n)).collect();
                (section.as_str(), keys)
            })
            .collect();
        for (&(section, key), n) in FIXED.iter().zip(self.fixed) {
            if let Some(n) = n {
                view.entry(section).or_default().insert(key, n);
            }
        }
        view
    }

    /// Every (section, key, count), sorted.
    pub fn rows(&self) -> Vec<(&str, &str, u64)> {
        self.view()
            .into_iter()
            .flat_map(|(section, keys)| keys.into_iter().map(move |(key, n)| (section, key, n)))
            .collect()
    }

    /// The count of one key (0 when absent).
    pub fn get(&self, section: &str, key: &str) -> u64 {
        if let Some(index) = fixed_index(section, key) {
            return self.fixed.get(index).copied().flatten().unwrap_or(0);
        }
        self.counts
            .get(section)
            .and_then(|keys| keys.get(key))
            .copied()
            .unwrap_or(0)
    }

    /// Counts one game.
    pub fn add_game(&mut self, report: &GameReport) {
        self.add_fixed(GAMES, 1);
        self.add_to_map("result", &report.result, 1);
        self.add_to_map("status", report.status.as_str(), 1);
        // Games that never reached a position have no termination.
        if report.final_pos.is_some() {
            self.add_to_map("termination", report.termination.as_str(), 1);
        }
        for finding in &report.findings {
            self.add_to_map("finding", finding.code.as_str(), 1);
        }
        if let Some(found) = report.opening {
            self.add_to_map("opening", &found.opening.summary_key, 1);
        }
        let draws = &report.draws;
        // In the order of `FIXED`.
        let rules = [
            draws.threefold_ply.is_some(),
            draws.fivefold_ply.is_some(),
            draws.fifty_move_ply.is_some(),
            draws.seventy_five_move_ply.is_some(),
            report.perpetual_check,
            insufficient_material(report),
        ];
        for (index, held) in (DRAW_RULES..).zip(rules) {
            if held {
                self.add_fixed(index, 1);
            }
        }
        let counts = &report.counts;
        let moves = [
            report.plies,
            counts.checks,
            counts.captures,
            counts.castles,
            counts.en_passant,
            counts.promotions,
            counts.under_promotions,
            counts.missed_en_passant,
        ];
        for (index, n) in (MOVES..).zip(moves) {
            self.add_fixed(index, u64::from(n));
        }
    }

    /// Adds another summary to this one.
    pub fn merge(&mut self, other: &Summary) {
        for (section, key, n) in other.rows() {
            self.add(section, key, n);
        }
    }

    /// Writes the `section,key,count` CSV, rows sorted.
    pub fn write_csv(&self, out: impl Write) -> anyhow::Result<()> {
        let mut writer = csv::Writer::from_writer(out);
        writer.write_record(HEADER)?;
        for (section, key, n) in self.rows() {
            writer.write_record([section, key, &n.to_string()])?;
        }
        writer.flush()?;
        Ok(())
    }

    /// Reads a `section,key,count` CSV written by `write_csv`; `name` names it in errors.
    /// It is read as a stream; a line longer than `MAX_SUMMARY_LINE` is an error that names
    /// it (a file without line ends, such as `/dev/zero`, is not read into memory).
    pub fn read_csv(input: impl Read, name: &str) -> anyhow::Result<Summary> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(true)
            .from_reader(LineLimit::new(input, MAX_SUMMARY_LINE));
        let header = reader
            .headers()
            .with_context(|| format!("{name}: cannot read the header"))?;
        if header.iter().ne(HEADER) {
            bail!(
                "{name}: not a stats summary (the header must be `section,key,count`, found `{}`)",
                header.iter().collect::<Vec<_>>().join(",")
            );
        }
        let mut summary = Summary::default();
        for record in reader.records() {
            let record = record.with_context(|| format!("{name}: unreadable CSV"))?;
            let line = record.position().map_or(0, |p| p.line());
            let (Some(section), Some(key), Some(count), None) =
                (record.get(0), record.get(1), record.get(2), record.get(3))
            else {
                bail!("{name}:{line}: expected 3 fields, found {}", record.len());
            };
            let count: u64 = count
                .trim()
                .parse()
                .with_context(|| format!("{name}:{line}: count `{count}` is not a number"))?;
            summary.add(section, key, count);
        }
        Ok(summary)
    }

    /// The readable table of `--summary`: one block per section, with shares of all games.
    pub fn table(&self) -> String {
        let games = self.get("games", "games");
        // Opening names are long: they get a column of their own width.
        let width = self
            .rows()
            .into_iter()
            .filter(|(section, _, _)| *section != "opening")
            .map(|(_, key, _)| visible(key).chars().count())
            .max()
            .unwrap_or(0);
        // Sections in reading order; any other section follows.
        let order = [
            "games",
            "result",
            "status",
            "termination",
            "draw_rule",
            "moves",
            "finding",
            "opening",
        ];
        let rank = |section: &str| {
            order
                .iter()
                .position(|s| *s == section)
                .unwrap_or(order.len())
        };
        let mut sections: Vec<_> = self.view().into_iter().collect();
        sections.sort_by_key(|(section, _)| rank(section));
        let mut out = String::new();
        for (section, keys) in sections {
            out.push_str(section);
            out.push('\n');
            let shares = !matches!(section, "moves" | "finding") && games > 0;
            let (keys, width) = if section == "opening" {
                let keys = most_frequent_openings(keys, &mut out);
                let longest = keys
                    .iter()
                    .map(|(key, _)| visible(key).chars().count())
                    .max();
                let opening_width = longest.unwrap_or(0).min(OPENING_WIDTH).max(width);
                (keys, opening_width)
            } else {
                (keys.into_iter().collect(), width)
            };
            for (key, n) in keys {
                let share = if shares {
                    format!("  {:5.1}%", n as f64 * 100.0 / games as f64)
                } else {
                    String::new()
                };
                // Keys are tag values: their control characters must not reach a terminal.
                let key = cut(&visible(key), width);
                out.push_str(&format!("  {key:<width$}  {:>12}{share}\n", thousands(n)));
            }
        }
        out
    }
}

/// Openings the table lists: the most frequent (the CSV has them all).
const OPENINGS_SHOWN: usize = 10;
/// Opening names longer than this are cut in the table.
const OPENING_WIDTH: usize = 60;

/// The `OPENINGS_SHOWN` most frequent openings, most frequent first; says how many more
/// there are under the section's heading.
fn most_frequent_openings<'a>(
    keys: BTreeMap<&'a str, u64>,
    out: &mut String,
) -> Vec<(&'a str, u64)> {
    let mut keys: Vec<(&str, u64)> = keys.into_iter().collect();
    keys.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    if keys.len() > OPENINGS_SHOWN {
        out.push_str(&format!(
            "  (the {OPENINGS_SHOWN} most frequent of {} openings; --summary-output lists all)\n",
            keys.len()
        ));
        keys.truncate(OPENINGS_SHOWN);
    }
    keys
}

/// `text` cut to `width` characters, `…` marking the cut.
fn cut(text: &str, width: usize) -> String {
    if width == 0 || text.chars().count() <= width {
        return text.to_string();
    }
    let mut short: String = text.chars().take(width - 1).collect();
    short.push('…');
    short
}
