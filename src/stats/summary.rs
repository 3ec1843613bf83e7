//! The aggregate of a `stats` run: additive `section,key,count` figures that merge exactly,
//! so the parts of a split archive add up to the figures of one run.

use std::collections::BTreeMap;
use std::io::{Read, Write};

use anyhow::{Context as _, bail};

use crate::output::summary::thousands;
use crate::rules::GameReport;
use crate::stats::row::insufficient_material;

/// Counts by section and key. Rows are kept sorted, so writing is deterministic.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// section -> key -> count
    counts: BTreeMap<String, BTreeMap<String, u64>>,
}

const HEADER: [&str; 3] = ["section", "key", "count"];

impl Summary {
    /// Adds `n` to one count.
    pub fn add(&mut self, section: &str, key: &str, n: u64) {
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

    /// Every (section, key, count), sorted.
    pub fn rows(&self) -> impl Iterator<Item = (&str, &str, u64)> {
        self.counts.iter().flat_map(|(section, keys)| {
            keys.iter()
                .map(move |(key, n)| (section.as_str(), key.as_str(), *n))
        })
    }

    /// The count of one key (0 when absent).
    pub fn get(&self, section: &str, key: &str) -> u64 {
        self.counts
            .get(section)
            .and_then(|keys| keys.get(key))
            .copied()
            .unwrap_or(0)
    }

    /// Counts one game.
    pub fn add_game(&mut self, report: &GameReport) {
        self.add("games", "games", 1);
        self.add("result", &report.result, 1);
        self.add("status", report.status.as_str(), 1);
        // Games that never reached a position have no termination.
        if report.final_pos.is_some() {
            self.add("termination", report.termination.as_str(), 1);
        }
        for finding in &report.findings {
            self.add("finding", finding.code.as_str(), 1);
        }
        let draws = &report.draws;
        let rules = [
            ("threefold", draws.threefold_ply.is_some()),
            ("fivefold", draws.fivefold_ply.is_some()),
            ("fifty_move", draws.fifty_move_ply.is_some()),
            ("seventy_five_move", draws.seventy_five_move_ply.is_some()),
            ("perpetual_check", report.perpetual_check),
            ("insufficient_material", insufficient_material(report)),
        ];
        for (rule, held) in rules {
            if held {
                self.add("draw_rule", rule, 1);
            }
        }
        let counts = &report.counts;
        let moves = [
            ("plies", report.plies),
            ("checks", counts.checks),
            ("captures", counts.captures),
            ("castles", counts.castles),
            ("en_passant", counts.en_passant),
            ("promotions", counts.promotions),
            ("under_promotions", counts.under_promotions),
            ("missed_en_passant", counts.missed_en_passant),
        ];
        for (key, n) in moves {
            self.add("moves", key, u64::from(n));
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
    pub fn read_csv(input: impl Read, name: &str) -> anyhow::Result<Summary> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(true)
            .from_reader(input);
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
        let width = self
            .rows()
            .map(|(_, key, _)| key.chars().count())
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
        ];
        let rank = |section: &str| {
            order
                .iter()
                .position(|s| *s == section)
                .unwrap_or(order.len())
        };
        let mut sections: Vec<_> = self.counts.iter().collect();
        sections.sort_by_key(|(section, _)| rank(section));
        let mut out = String::new();
        for (section, keys) in sections {
            out.push_str(section);
            out.push('\n');
            let shares = !matches!(section.as_str(), "moves" | "finding") && games > 0;
            for (key, n) in keys {
                let share = if shares {
                    format!("  {:5.1}%", *n as f64 * 100.0 / games as f64)
                } else {
                    String::new()
                };
                out.push_str(&format!("  {key:<width$}  {:>12}{share}\n", thousands(*n)));
            }
        }
        out
    }
}
