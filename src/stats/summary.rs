//! The aggregate of a `stats` run: additive `section,key,count` figures that merge exactly,
//! so the parts of a split archive add up to the figures of one run.

use std::collections::{BTreeMap, HashMap};

use crate::rules::mate_check::{CannotMate, MateCheck};
use crate::rules::result::Termination;
use crate::rules::{Code, GameReport, Status};
use crate::stats::row::insufficient_material;

/// Counts by section and key. Rows are kept sorted, so writing is deterministic.
#[derive(Debug, Clone)]
pub struct Summary {
    /// section -> key -> count, for the keys not in `FIXED_KEYS` or the openings: a
    /// Result tag of another value, and whatever a merged file holds (the views and the
    /// files are sorted).
    counts: BTreeMap<String, HashMap<String, u64>>,
    /// The counts of the `FIXED_KEYS`; `None` until a key is first added (a key added
    /// with 0 is listed, one never added is not).
    fixed: [Option<u64>; FIXED_KEYS],
    /// The `opening` counts of the games added, by the opening's place in the data set
    /// (a game adds to a slot, not to a key of thousands; `sections` names them).
    openings: Vec<u64>,
}

impl Default for Summary {
    fn default() -> Summary {
        Summary {
            counts: BTreeMap::new(),
            fixed: [None; FIXED_KEYS],
            openings: Vec::new(),
        }
    }
}

/// Equal when every (section, key, count) is, however the counts are kept.
impl PartialEq for Summary {
    fn eq(&self, other: &Summary) -> bool {
        self.rows() == other.rows()
    }
}

impl Eq for Summary {}

/// A `draw_rule` key and whether the rule held in a game.
type DrawRule = (&'static str, fn(&GameReport) -> bool);

/// A `moves` key and a game's count of it.
type MoveCount = (&'static str, fn(&GameReport) -> u32);

/// The `draw_rule` section: games in which each rule held at some ply. The one list of
/// the draw rules: the summary counts them, and the report and the table show them.
pub const DRAW_RULES: [DrawRule; 7] = [
    ("threefold", |r| r.draws.threefold_ply.is_some()),
    ("fivefold", |r| r.draws.fivefold_ply.is_some()),
    ("fifty_move", |r| r.draws.fifty_move_ply.is_some()),
    ("seventy_five_move", |r| {
        r.draws.seventy_five_move_ply.is_some()
    }),
    ("perpetual_check", |r| r.perpetual_check),
    ("insufficient_material", insufficient_material),
    // SPEC.md "Who can still mate": a dead position at some ply (insufficient material too).
    ("dead_position", |r| r.mate.dead_position_ply.is_some()),
];

/// The `moves` section: move totals over all games.
pub const MOVE_COUNTS: [MoveCount; 8] = [
    ("plies", |r| r.plies),
    ("checks", |r| r.counts.checks),
    ("captures", |r| r.counts.captures),
    ("castles", |r| r.counts.castles),
    ("en_passant", |r| r.counts.en_passant),
    ("promotions", |r| r.counts.promotions),
    ("under_promotions", |r| r.counts.under_promotions),
    ("missed_en_passant", |r| r.counts.missed_en_passant),
];

/// The `result` keys of the four results a game can record; any other Result tag value
/// is a key of the map.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// The keys known before any game is read, counted in an array instead of the map (every
/// game adds to a dozen of them, and a map lookup hashes two strings): `games`, then
/// `DRAW_RULES`, `MOVE_COUNTS`, the four results, the statuses, the terminations, the
/// finding codes, the `--mate-check` levels and `budget`, and the `cannot_mate` sides.
const FIXED_KEYS: usize = FIRST_CANNOT_MATE + CannotMate::ALL.len();
const FIRST_DRAW_RULE: usize = 1;
const FIRST_MOVE_COUNT: usize = FIRST_DRAW_RULE + DRAW_RULES.len();
const FIRST_RESULT: usize = FIRST_MOVE_COUNT + MOVE_COUNTS.len();
const FIRST_STATUS: usize = FIRST_RESULT + RESULTS.len();
const FIRST_TERMINATION: usize = FIRST_STATUS + Status::ALL.len();
const FIRST_FINDING: usize = FIRST_TERMINATION + Termination::ALL.len();
const FIRST_MATE_LEVEL: usize = FIRST_FINDING + Code::ALL.len();
const MATE_BUDGET: usize = FIRST_MATE_LEVEL + MateCheck::ALL.len();
const FIRST_CANNOT_MATE: usize = MATE_BUDGET + 1;

/// The (section, key) of each `FIXED_KEYS` slot, in slot order.
fn fixed_keys() -> impl Iterator<Item = (&'static str, &'static str)> {
    std::iter::once(("games", "games"))
        .chain(DRAW_RULES.iter().map(|&(key, _)| ("draw_rule", key)))
        .chain(MOVE_COUNTS.iter().map(|&(key, _)| ("moves", key)))
        .chain(RESULTS.iter().map(|&key| ("result", key)))
        .chain(Status::ALL.iter().map(|s| ("status", s.as_str())))
        .chain(Termination::ALL.iter().map(|t| ("termination", t.as_str())))
        .chain(Code::ALL.iter().map(|c| ("finding", c.as_str())))
        .chain(MateCheck::ALL.iter().map(|l| ("mate_check", l.as_str())))
        .chain(std::iter::once(("mate_check", "budget")))
        .chain(CannotMate::ALL.iter().map(|s| ("cannot_mate", s.as_str())))
}

fn fixed_index(section: &str, key: &str) -> Option<usize> {
    fixed_keys().position(|(s, k)| s == section && k == key)
}

/// The slot of `value` among `all`, from slot `first` on.
fn slot<T: PartialEq>(first: usize, all: &[T], value: &T) -> Option<usize> {
    all.iter().position(|v| v == value).map(|i| first + i)
}

/// A count that would pass 2^64 - 1 when added to.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the count of `{section},{key}` does not fit in 64 bits ({count} + {added}): a merge is exact or it fails"
)]
pub struct Overflow {
    pub section: String,
    pub key: String,
    pub count: u64,
    pub added: u64,
}

impl Summary {
    /// Adds `n` to one count; a sum that does not fit in 64 bits is an error naming the
    /// key, and leaves the count as it was (a merge is exact or it fails).
    pub fn add(&mut self, section: &str, key: &str, n: u64) -> Result<(), Overflow> {
        let count = match fixed_index(section, key) {
            Some(index) => match self.fixed.get_mut(index) {
                Some(slot) => slot.get_or_insert(0),
                None => return Ok(()),
            },
            None => self
                .counts
                .entry(section.to_string())
                .or_default()
                .entry(key.to_string())
                .or_default(),
        };
        *count = count.checked_add(n).ok_or_else(|| Overflow {
            section: section.to_string(),
            key: key.to_string(),
            count: *count,
            added: n,
        })?;
        Ok(())
    }

    /// Adds to a key that is not one of the fixed keys (a game's own counts: far from
    /// overflowing).
    fn add_to_map(&mut self, section: &str, key: &str, n: u64) {
        // Look up before allocating: after the first games every key exists.
        if let Some(count) = self
            .counts
            .get_mut(section)
            .and_then(|keys| keys.get_mut(key))
        {
            *count = count.saturating_add(n);
            return;
        }
        let count = self
            .counts
            .entry(section.to_string())
            .or_default()
            .entry(key.to_string())
            .or_default();
        *count = count.saturating_add(n);
    }

    /// Adds one to `(section, key)`: in its slot, or in the map if it has none (a Result
    /// tag of another value; an enum value left out of its `ALL` list would be counted
    /// there too, not lost).
    fn add_one(&mut self, index: Option<usize>, section: &str, key: &str) {
        match index {
            Some(index) => self.add_fixed(index, 1),
            None => self.add_to_map(section, key, 1),
        }
    }

    fn add_fixed(&mut self, index: usize, n: u64) {
        if let Some(slot) = self.fixed.get_mut(index) {
            *slot = Some(slot.unwrap_or(0).saturating_add(n));
        }
    }

    /// section -> key -> count, the fixed keys included: what is written and shown.
    pub fn sections(&self) -> BTreeMap<&str, BTreeMap<&str, u64>> {
        let mut view: BTreeMap<&str, BTreeMap<&str, u64>> = self
            .counts
            .iter()
            .map(|(section, keys)| {
                let keys = keys.iter().map(|(key, n)| (key.as_str(), *n)).collect();
                (section.as_str(), keys)
            })
            .collect();
        for ((section, key), n) in fixed_keys().zip(self.fixed) {
            if let Some(n) = n {
                view.entry(section).or_default().insert(key, n);
            }
        }
        for (key, n) in self.opening_slots() {
            *view.entry("opening").or_default().entry(key).or_default() += n;
        }
        view
    }

    /// The `opening` counts kept by slot, with their keys.
    fn opening_slots(&self) -> impl Iterator<Item = (&'static str, u64)> + '_ {
        crate::rules::openings::book()
            .lines
            .iter()
            .zip(&self.openings)
            .filter(|&(_, &n)| n > 0)
            .map(|(line, &n)| (line.summary_key(), n))
    }

    /// Every (section, key, count), sorted.
    pub fn rows(&self) -> Vec<(&str, &str, u64)> {
        self.sections()
            .into_iter()
            .flat_map(|(section, keys)| keys.into_iter().map(move |(key, n)| (section, key, n)))
            .collect()
    }

    /// The count of one key (0 when absent).
    pub fn get(&self, section: &str, key: &str) -> u64 {
        if let Some(index) = fixed_index(section, key) {
            return self.fixed.get(index).copied().flatten().unwrap_or(0);
        }
        let by_slot: u64 = if section == "opening" {
            self.opening_slots()
                .filter(|&(slot_key, _)| slot_key == key)
                .map(|(_, n)| n)
                .sum()
        } else {
            0
        };
        by_slot
            + self
                .counts
                .get(section)
                .and_then(|keys| keys.get(key))
                .copied()
                .unwrap_or(0)
    }

    /// Counts one game.
    pub fn add_game(&mut self, report: &GameReport) {
        self.add_fixed(0, 1);
        let result = report.result.as_str();
        self.add_one(slot(FIRST_RESULT, &RESULTS, &result), "result", result);
        let status = report.status;
        let index = slot(FIRST_STATUS, &Status::ALL, &status);
        self.add_one(index, "status", status.as_str());
        // Games that never reached a position have no termination.
        if report.final_pos.is_some() {
            let termination = report.termination;
            let index = slot(FIRST_TERMINATION, &Termination::ALL, &termination);
            self.add_one(index, "termination", termination.as_str());
        }
        for finding in &report.findings {
            let index = slot(FIRST_FINDING, Code::ALL, &finding.code);
            self.add_one(index, "finding", finding.code.as_str());
        }
        if let Some(level) = report.mate.level {
            let index = slot(FIRST_MATE_LEVEL, &MateCheck::ALL, &level);
            self.add_one(index, "mate_check", level.as_str());
            if report.mate.budget {
                self.add_fixed(MATE_BUDGET, 1);
            }
        }
        if let Some(sides) = report.mate.verdict.cannot_mate() {
            let index = slot(FIRST_CANNOT_MATE, &CannotMate::ALL, &sides);
            self.add_one(index, "cannot_mate", sides.as_str());
        }
        if let Some(found) = report.opening {
            let index = found.opening.index;
            if self.openings.len() <= index {
                self.openings.resize(index + 1, 0);
            }
            if let Some(slot) = self.openings.get_mut(index) {
                *slot += 1;
            }
        }
        for (index, (_, held)) in (FIRST_DRAW_RULE..).zip(DRAW_RULES) {
            if held(report) {
                self.add_fixed(index, 1);
            }
        }
        for (index, (_, count)) in (FIRST_MOVE_COUNT..).zip(MOVE_COUNTS) {
            self.add_fixed(index, u64::from(count(report)));
        }
    }

    /// The `--mate-check` levels the summary's games were analysed at.
    pub fn mate_levels(&self) -> Vec<&'static str> {
        MateCheck::ALL
            .iter()
            .map(|level| level.as_str())
            .filter(|&level| self.get("mate_check", level) > 0)
            .collect()
    }

    /// Adds another summary to this one; fails on the first sum that does not fit.
    pub fn merge(&mut self, other: &Summary) -> Result<(), Overflow> {
        for (section, key, n) in other.rows() {
            self.add(section, key, n)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    /// Each value `add_game` counts lands in the slot `fixed_keys` names by its own
    /// section and key, so rows, files and merges read it there.
    #[test]
    fn each_counted_value_has_the_slot_of_its_key() {
        let keys: Vec<_> = fixed_keys().collect();
        assert_eq!(keys.len(), FIXED_KEYS);
        assert_eq!(keys.iter().collect::<HashSet<_>>().len(), FIXED_KEYS);
        let named = |index: Option<usize>| index.and_then(|i| keys.get(i).copied());
        for result in RESULTS {
            let index = slot(FIRST_RESULT, &RESULTS, &result);
            assert_eq!(named(index), Some(("result", result)));
        }
        for status in Status::ALL {
            let index = slot(FIRST_STATUS, &Status::ALL, &status);
            assert_eq!(named(index), Some(("status", status.as_str())));
        }
        for termination in Termination::ALL {
            let index = slot(FIRST_TERMINATION, &Termination::ALL, &termination);
            assert_eq!(named(index), Some(("termination", termination.as_str())));
        }
        for &code in Code::ALL {
            let index = slot(FIRST_FINDING, Code::ALL, &code);
            assert_eq!(named(index), Some(("finding", code.as_str())));
        }
        for level in MateCheck::ALL {
            let index = slot(FIRST_MATE_LEVEL, &MateCheck::ALL, &level);
            assert_eq!(named(index), Some(("mate_check", level.as_str())));
        }
        assert_eq!(named(Some(MATE_BUDGET)), Some(("mate_check", "budget")));
        for sides in CannotMate::ALL {
            let index = slot(FIRST_CANNOT_MATE, &CannotMate::ALL, &sides);
            assert_eq!(named(index), Some(("cannot_mate", sides.as_str())));
        }
    }

    /// A key counted by a game and the same key added from a summary file are one count,
    /// in a slot or in the map.
    #[test]
    fn a_game_count_and_a_merged_count_add_up() -> Result<(), Overflow> {
        let mut summary = Summary::default();
        summary.add_one(slot(FIRST_RESULT, &RESULTS, &"1-0"), "result", "1-0");
        summary.add_one(None, "result", "adjourned");
        summary.add("result", "1-0", 2)?;
        summary.add("result", "adjourned", 3)?;
        assert_eq!(summary.get("result", "1-0"), 3);
        assert_eq!(summary.get("result", "adjourned"), 4);
        assert_eq!(
            summary.rows(),
            vec![("result", "1-0", 3), ("result", "adjourned", 4)]
        );
        Ok(())
    }
}
