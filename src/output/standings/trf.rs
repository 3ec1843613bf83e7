//! One event as a FIDE Tournament Report File, TRF-16 (Handbook C.04, Annex 2): the
//! tournament lines PGN can fill (012 name, 022 city, 032 federation, 042/052 first and
//! last date, 062/072 players and rated players, 092 type, 132 the rounds' dates) and one
//! 001 line per player in the starting order of C.04 (rating, then name), each field in
//! its columns: 1-3 `001`, 5-8 starting rank, 10 sex, 11-13 title, 15-47 name, 49-52
//! rating, 54-56 federation, 58-68 FIDE number, 70-79 birth date, 81-84 points, 86-89
//! rank, then per round ten columns from 92: 92-95 the opponent's starting rank, 97 the
//! colour, 99 the result (`1 0 =`, `+ -` forfeits, `U` a pairing-allocated bye, `H` a
//! half-point bye, `Z` a zero-point bye or a round missed).

use std::fmt::Write as _;

use super::EventTable;
use crate::standings::{Half, Play, PlayerId, System};

/// The TRF-16 text of one event, each line ended by LF.
pub fn trf_text(table: &EventTable) -> String {
    let event = table.event;
    let field = &event.field;
    let heading = &event.heading;
    let mut out = String::new();
    let line = |out: &mut String, code: &str, value: &str| {
        let value = one_line(value);
        if !value.is_empty() {
            let _ = writeln!(out, "{code} {value}");
        }
    };
    line(&mut out, "012", &heading.event);
    let (city, federation) = city_and_federation(&heading.site);
    line(&mut out, "022", city);
    line(&mut out, "032", federation);
    line(&mut out, "042", &trf_date(&heading.first_date));
    line(&mut out, "052", &trf_date(&heading.last_date));
    line(&mut out, "062", &field.players.len().to_string());
    let rated = field.players.iter().filter(|p| p.rating.is_some()).count();
    line(&mut out, "072", &rated.to_string());
    let kind = match field.system {
        System::RoundRobin => "Round robin",
        System::Swiss => "Swiss",
    };
    line(&mut out, "092", kind);
    if heading.round_dates.iter().any(|d| !d.is_empty()) {
        // The round dates from column 92, ten columns apart (YY/MM/DD).
        let mut dates = format!("132{}", " ".repeat(88));
        for round in 0..field.rounds as usize {
            let date = heading.round_dates.get(round).map_or("", String::as_str);
            let short = trf_date(date);
            let short = short.get(2..).unwrap_or("");
            dates.push_str(&format!("{short:<8}"));
            dates.push_str("  ");
        }
        let _ = writeln!(out, "{}", dates.trim_end());
    }
    let start = starting_ranks(table);
    let mut by_start: Vec<(usize, PlayerId)> =
        start.iter().enumerate().map(|(p, s)| (*s, p)).collect();
    by_start.sort_unstable();
    for (number, player) in by_start {
        let _ = writeln!(out, "{}", player_line(table, &start, number, player));
    }
    out
}

/// The starting rank of each player: by rating (the unrated last), then name (C.04).
pub fn starting_ranks(table: &EventTable) -> Vec<usize> {
    let players = &table.event.field.players;
    let mut order: Vec<PlayerId> = (0..players.len()).collect();
    order.sort_by(|a, b| {
        let (a, b) = (players.get(*a), players.get(*b));
        let rating = |p: Option<&crate::standings::Player>| p.and_then(|p| p.rating).unwrap_or(0);
        let name = |p: Option<&crate::standings::Player>| p.map(|p| p.name.clone());
        rating(b)
            .cmp(&rating(a))
            .then_with(|| name(a).cmp(&name(b)))
    });
    let mut start = vec![0; players.len()];
    for (at, player) in order.into_iter().enumerate() {
        if let Some(slot) = start.get_mut(player) {
            *slot = at + 1;
        }
    }
    start
}

/// One 001 line.
fn player_line(table: &EventTable, start: &[usize], number: usize, player: PlayerId) -> String {
    let field = &table.event.field;
    let p = field.players.get(player);
    let row = table.rows.iter().find(|r| r.player == player);
    let name: String = one_line(p.map_or("", |p| p.name.as_str()))
        .chars()
        .take(33)
        .collect();
    let title: String = p.map_or("", |p| p.title.as_str()).chars().take(3).collect();
    let rating = p
        .and_then(|p| p.rating)
        .filter(|r| *r <= 9999)
        .map_or_else(String::new, |r| r.to_string());
    let id = p
        .and_then(|p| p.fide_id)
        .filter(|id| *id < 100_000_000_000)
        .map_or_else(String::new, |id| id.to_string());
    let points = row.map_or(Half(0), |r| r.points);
    let rank = row.map_or(0, |r| r.rank.0);
    // 1-3, 5-8, 10 (sex: not in PGN), 11-13, 15-47, 49-52, 54-56 (federation: not in
    // PGN), 58-68, 70-79 (birth date: not in PGN), 81-84, 86-89.
    let mut line = format!(
        "001 {number:>4}  {title:>3} {name:<33} {rating:>4} {fed:3} {id:>11} {birth:10} {points:>4} {rank:>4}",
        fed = "",
        birth = "",
        points = trf_points(points),
    );
    let entries = field.entries.get(player).map_or(&[][..], |e| e.as_slice());
    for round in 1..=field.rounds {
        // A round PGN records twice gives its first game (`event.player-twice-in-round`).
        let entry = entries.iter().find(|e| e.round == Some(round));
        let (opponent, colour, result) = match entry.map(|e| (e.play, e.score)) {
            Some((Play::Game { opponent, white }, score)) => (
                start.get(opponent).copied().unwrap_or(0),
                colour_of(white),
                match score.0 {
                    0 => '0',
                    1 => '=',
                    _ => '1',
                },
            ),
            Some((Play::Forfeit { opponent, white }, score)) => (
                start.get(opponent).copied().unwrap_or(0),
                colour_of(white),
                match score.0 {
                    0 => '-',
                    // A double forfeit scored as a draw: a draw that was not played.
                    1 => 'D',
                    _ => '+',
                },
            ),
            Some((Play::Bye, score)) => (
                0,
                '-',
                match score.0 {
                    0 => 'Z',
                    1 => 'H',
                    _ => 'U',
                },
            ),
            Some((Play::Absent, _)) | None => (0, '-', 'Z'),
        };
        // No opponent (a bye, an absence) is `0000`, as FIDE's own example file writes it.
        if opponent == 0 {
            let _ = write!(line, "  0000 {colour} {result}");
        } else {
            let _ = write!(line, "  {opponent:>4} {colour} {result}");
        }
    }
    line
}

fn colour_of(white: bool) -> char {
    if white { 'w' } else { 'b' }
}

/// Points as TRF writes them: `6.5`, `10.0`.
fn trf_points(points: Half) -> String {
    format!("{}.{}", points.0 / 2, if points.0 % 2 == 1 { 5 } else { 0 })
}

/// `YYYY.MM.DD` as `YYYY/MM/DD`; empty unless complete.
fn trf_date(date: &str) -> String {
    let complete = date.len() == 10 && date.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    if complete {
        date.replace('.', "/")
    } else {
        String::new()
    }
}

/// The Seven Tag Roster's `City, Region COUNTRY`: the last word when it is a three-letter
/// federation code, and the city before it.
fn city_and_federation(site: &str) -> (&str, &str) {
    let site = site.trim();
    match site.rsplit_once(' ') {
        Some((city, code)) if code.len() == 3 && code.bytes().all(|b| b.is_ascii_uppercase()) => {
            (city.trim_end_matches([',', ' ']), code)
        }
        _ => (site, ""),
    }
}

/// A value on one line (a TRF line ends at the line end).
fn one_line(value: &str) -> String {
    value.replace(['\r', '\n'], " ").trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_site_gives_city_and_federation() {
        assert_eq!(
            city_and_federation("Wijk aan Zee NED"),
            ("Wijk aan Zee", "NED")
        );
        assert_eq!(city_and_federation("London"), ("London", ""));
        assert_eq!(trf_date("2024.01.13"), "2024/01/13");
        assert_eq!(trf_date("2024.??.??"), "");
        assert_eq!(trf_points(Half(13)), "6.5");
        assert_eq!(trf_points(Half(20)), "10.0");
    }
}
