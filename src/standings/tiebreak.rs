//! The tie-break list: FIDE's Technical Commission notation (`BH/C1`), parsed once, with
//! C.07's default per system.

use super::System;

/// One tie-break of SPEC.md's list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Name {
    Pts,
    De,
    Win,
    Won,
    Bpg,
    Bwg,
    Rep,
    Ps,
    Bh,
    Aob,
    Fb,
    Sb,
    Ks,
    Aro,
    Tpr,
    Ptp,
    Apro,
    Appo,
}

const NAMES: &[(&str, Name)] = &[
    ("PTS", Name::Pts),
    ("DE", Name::De),
    ("WIN", Name::Win),
    ("WON", Name::Won),
    ("BPG", Name::Bpg),
    ("BWG", Name::Bwg),
    ("REP", Name::Rep),
    ("PS", Name::Ps),
    ("BH", Name::Bh),
    ("AOB", Name::Aob),
    ("FB", Name::Fb),
    ("SB", Name::Sb),
    ("KS", Name::Ks),
    ("ARO", Name::Aro),
    ("TPR", Name::Tpr),
    ("PTP", Name::Ptp),
    ("APRO", Name::Apro),
    ("APPO", Name::Appo),
];

/// The tie-breaks C.07 lets a cut or median modify (article 14): the sums over
/// opponents, the progressive score and the average rating of opponents.
const MODIFIABLE: &[Name] = &[Name::Bh, Name::Fb, Name::Sb, Name::Ps, Name::Aro];

/// Of those, the ones the TEC's list of mandatory tie-breaks gives a cut but no median.
const CUT_ONLY: &[Name] = &[Name::Sb, Name::Ps];

/// `/C1`, `/C2`: the lowest one or two values cut; `/M1`, `/M2`: the highest and the
/// lowest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Modifier {
    Cut(u8),
    Median(u8),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TieBreak {
    pub name: Name,
    pub modifier: Option<Modifier>,
}

impl TieBreak {
    /// As written on the command line: `BH/C1`.
    pub fn label(&self) -> String {
        let name = NAMES
            .iter()
            .find(|(_, n)| *n == self.name)
            .map_or("?", |(text, _)| text);
        match self.modifier {
            None => name.to_string(),
            Some(Modifier::Cut(n)) => format!("{name}/C{n}"),
            Some(Modifier::Median(n)) => format!("{name}/M{n}"),
        }
    }

    /// The record column: the label in lower case with `/` as `_` (`bh_c1`).
    pub fn column(&self) -> String {
        self.label().to_lowercase().replace('/', "_")
    }
}

/// Parses `--tiebreaks`; the error names the unknown name or modifier.
pub fn parse_list(text: &str) -> Result<Vec<TieBreak>, String> {
    text.split(',')
        .map(|item| {
            let item = item.trim();
            let (name, modifier) = match item.split_once('/') {
                Some((name, modifier)) => (name, Some(modifier)),
                None => (item, None),
            };
            let upper = name.to_ascii_uppercase();
            let name = NAMES
                .iter()
                .find(|(text, _)| *text == upper)
                .map(|(_, n)| *n)
                .ok_or_else(|| format!("unknown tie-break {item:?}"))?;
            let modifier = match modifier.map(|m| m.to_ascii_uppercase()).as_deref() {
                None => None,
                Some("C1") => Some(Modifier::Cut(1)),
                Some("C2") => Some(Modifier::Cut(2)),
                Some("M1") => Some(Modifier::Median(1)),
                Some("M2") => Some(Modifier::Median(2)),
                Some(other) => return Err(format!("unknown modifier {other:?} in {item:?}")),
            };
            if modifier.is_some() && !MODIFIABLE.contains(&name) {
                return Err(format!("tie-break {item:?} takes no modifier"));
            }
            if matches!(modifier, Some(Modifier::Median(_))) && CUT_ONLY.contains(&name) {
                return Err(format!("tie-break {item:?} takes /C1 or /C2 only"));
            }
            Ok(TieBreak { name, modifier })
        })
        .collect()
}

/// The list used when `--tiebreaks` is not given. C.07-2026 itself names no list: the
/// organiser chooses one and the Chief Arbiter completes it (articles 2.1, 4.1, 4.1.1).
/// These follow its definitions: a round robin DE, SB, WIN (article 8's Buchholz family
/// is not for round robins); a Swiss BH/C1, BH, DE.
pub fn default_for(system: System) -> Vec<TieBreak> {
    let plain = |name| TieBreak {
        name,
        modifier: None,
    };
    match system {
        System::RoundRobin => vec![plain(Name::De), plain(Name::Sb), plain(Name::Win)],
        System::Swiss => vec![
            TieBreak {
                name: Name::Bh,
                modifier: Some(Modifier::Cut(1)),
            },
            plain(Name::Bh),
            plain(Name::De),
        ],
    }
}
