//! Hand-worked events: the same as `testdata/standings/events/*.pgn`, written here as
//! compact tables (round, White, Black, result; `+-` / `-+` a forfeit, Black `BYE` a bye).
//! Values are hundredths: `Some(1125)` is 11.25.
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    reason = "a test fails loudly"
)]

use super::table::{Options, Standing, standings};
use super::tiebreak::{Modifier, Name, TieBreak, default_for, parse_list};
use super::{Entry, Field, Half, Play, Player, System};

type Game = (u32, &'static str, &'static str, &'static str);

fn field(players: &[(&str, Option<u32>)], rounds: u32, system: System, games: &[Game]) -> Field {
    let id = |name: &str| players.iter().position(|(n, _)| *n == name).unwrap();
    let mut entries: Vec<Vec<Entry>> = vec![Vec::new(); players.len()];
    for &(round, white, black, result) in games {
        let round = Some(round);
        let (ws, bs, forfeit) = match result {
            "1-0" => (2, 0, false),
            "0-1" => (0, 2, false),
            "=" => (1, 1, false),
            "+-" => (2, 0, true),
            "-+" => (0, 2, true),
            other => panic!("{other}"),
        };
        let (w, score) = (id(white), Half(ws));
        if black == "BYE" {
            entries[w].push(Entry {
                round,
                play: Play::Bye,
                score,
            });
            continue;
        }
        let b = id(black);
        let play = |opponent, white| match forfeit {
            true => Play::Forfeit { opponent, white },
            false => Play::Game { opponent, white },
        };
        entries[w].push(Entry {
            round,
            play: play(b, true),
            score,
        });
        entries[b].push(Entry {
            round,
            play: play(w, false),
            score: Half(bs),
        });
    }
    for list in &mut entries {
        for r in 1..=rounds {
            if !list.iter().any(|e| e.round == Some(r)) {
                list.push(Entry {
                    round: Some(r),
                    play: Play::Absent,
                    score: Half(0),
                });
            }
        }
        list.sort_by_key(|e| e.round);
    }
    Field {
        players: players
            .iter()
            .map(|(name, rating)| Player {
                name: name.to_string(),
                fide_id: None,
                rating: *rating,
                title: String::new(),
            })
            .collect(),
        rounds,
        system,
        entries,
    }
}

struct Table {
    field: Field,
    list: Vec<TieBreak>,
    rows: Vec<Standing>,
}

impl Table {
    fn new(field: Field, list: &str, unrated: Option<u32>) -> Table {
        let list = parse_list(list).unwrap();
        let rows = standings(&field, &list, &Options { unrated });
        Table { field, list, rows }
    }

    fn row(&self, name: &str) -> &Standing {
        self.rows
            .iter()
            .find(|r| self.field.players[r.player].name == name)
            .unwrap()
    }

    /// The value of the tie-break labelled `label` for the player.
    fn get(&self, name: &str, label: &str) -> Option<i64> {
        let at = self.list.iter().position(|tb| tb.label() == label).unwrap();
        self.row(name).values[at]
    }

    fn order(&self) -> Vec<(&str, (u32, u32))> {
        self.rows
            .iter()
            .map(|r| (self.field.players[r.player].name.as_str(), r.rank))
            .collect()
    }
}

// ---- a 4-player double round robin (double-rr4.pgn): one forfeit, DE between two ----

const FOUR: &[(&str, Option<u32>)] = &[
    ("North", Some(2500)),
    ("East", Some(2450)),
    ("South", Some(2400)),
    ("West", Some(2350)),
];

const FOUR_GAMES: &[Game] = &[
    (1, "North", "West", "="),
    (1, "East", "South", "1-0"),
    (2, "West", "South", "0-1"),
    (2, "North", "East", "1-0"),
    (3, "East", "West", "1-0"),
    (3, "South", "North", "="),
    (4, "West", "North", "="),
    (4, "South", "East", "0-1"),
    (5, "South", "West", "+-"),
    (5, "East", "North", "="),
    (6, "West", "East", "="),
    (6, "North", "South", "1-0"),
];

#[test]
fn double_round_robin_of_four() {
    let f = field(FOUR, 6, System::RoundRobin, FOUR_GAMES);
    let t = Table::new(f, "DE,SB,WIN", None);
    // Points: North ½+1+½+½+½+1 = 4, East 1+0+1+1+½+½ = 4, South 2½, West 1½.
    assert_eq!(t.row("North").points, Half(8));
    assert_eq!(t.row("West").points, Half(3));
    // DE between North and East, tied on 4, who met twice: the average counts (C.07
    // 6.1.2): North (1 + ½) / 2 = 0.75, East (0 + ½) / 2 = 0.25.
    assert_eq!(t.get("North", "DE"), Some(75));
    assert_eq!(t.get("East", "DE"), Some(25));
    // Alone on their points, South and West have no one to meet in their group.
    assert_eq!(t.get("South", "DE"), Some(0));
    // SB North: East 4 x (1 + ½) = 6, South 2½ x (½ + 1) = 3.75, West 1½ x (½ + ½) = 1.5:
    // 11.25.
    assert_eq!(t.get("North", "SB"), Some(1125));
    // SB South: the forfeit win over West counts as played in a round robin:
    // North 4 x (½ + 0) = 2, East 0, West 1½ x (1 + 1) = 3: 5.
    assert_eq!(t.get("South", "SB"), Some(500));
    // SB West: North 4 x (½ + ½) = 4, East 4 x (0 + ½) = 2, South 0: 6.
    assert_eq!(t.get("West", "SB"), Some(600));
    // WIN South: round 2 over the board and round 5 by forfeit: 2.
    assert_eq!(t.get("South", "WIN"), Some(200));
    // South played 5 games over the board (the forfeit is none).
    assert_eq!(t.row("South").games, 5);
    // ARO South: (2500 x 2 + 2450 x 2 + 2350) / 5 = 12250 / 5 = 2450; TPR: 1½ of 5 is
    // 30 %, dp -149: 2301.
    assert_eq!(t.row("South").aro, Some(245_000));
    assert_eq!(t.row("South").tpr, Some(230_100));
    // ARO North: (2450 + 2400 + 2350) x 2 / 6 = 2400; 4 of 6 is 66.67 %, 67 %, dp 125.
    assert_eq!(t.row("North").tpr, Some(252_500));
    assert_eq!(
        t.order(),
        [
            ("North", (1, 1)),
            ("East", (2, 2)),
            ("South", (3, 3)),
            ("West", (4, 4))
        ]
    );
}

// ---- a 6-player round robin (round-robin6.pgn): DE, SB and Koya ties ----

const SIX: &[(&str, Option<u32>)] = &[
    ("Ash", Some(2300)),
    ("Beech", Some(2280)),
    ("Cherry", Some(2260)),
    ("Dogwood", Some(2240)),
    ("Elm", Some(2220)),
    ("Fir", Some(2200)),
];

const SIX_GAMES: &[Game] = &[
    (1, "Ash", "Fir", "1-0"),
    (1, "Beech", "Elm", "="),
    (1, "Cherry", "Dogwood", "="),
    (2, "Fir", "Dogwood", "="),
    (2, "Elm", "Cherry", "0-1"),
    (2, "Ash", "Beech", "1-0"),
    (3, "Beech", "Fir", "1-0"),
    (3, "Cherry", "Ash", "1-0"),
    (3, "Dogwood", "Elm", "="),
    (4, "Fir", "Elm", "="),
    (4, "Ash", "Dogwood", "="),
    (4, "Beech", "Cherry", "1-0"),
    (5, "Cherry", "Fir", "1-0"),
    (5, "Dogwood", "Beech", "0-1"),
    (5, "Elm", "Ash", "0-1"),
];

#[test]
fn round_robin_of_six_with_koya_and_berger_ties() {
    let f = field(SIX, 5, System::RoundRobin, SIX_GAMES);
    let t = Table::new(f, "SB,KS,DE,WIN", None);
    // Ash, Beech and Cherry have 3½ each (Ash beat Beech, Beech Cherry, Cherry Ash).
    // SB Beech: Cherry 3½ + Dogwood 2 + Fir 1 + ½ x Elm 1½ = 7.25.
    assert_eq!(t.get("Beech", "SB"), Some(725));
    // SB Ash: Beech 3½ + ½ x Dogwood 2 + Elm 1½ + Fir 1 = 7; Cherry: Ash 3½ + ½ x 2 + 1½
    // + 1 = 7: tied.
    assert_eq!(t.get("Ash", "SB"), Some(700));
    assert_eq!(t.get("Cherry", "SB"), Some(700));
    // KS: half of the 5 games is 2½, reached by Ash, Beech and Cherry. Ash: 1 (Beech) + 0
    // (Cherry) = 1; Cherry: 1 (Ash) + 0 (Beech) = 1: still tied. Dogwood: ½ + 0 + ½ = 1;
    // Elm: ½ (Beech); Fir: 0.
    assert_eq!(t.get("Ash", "KS"), Some(100));
    assert_eq!(t.get("Cherry", "KS"), Some(100));
    assert_eq!(t.get("Elm", "KS"), Some(50));
    assert_eq!(t.get("Fir", "KS"), Some(0));
    // DE in the group still tied after SB and KS, {Ash, Cherry}: Cherry won their game.
    assert_eq!(t.get("Cherry", "DE"), Some(100));
    assert_eq!(t.get("Ash", "DE"), Some(0));
    // Beech is alone after SB: no one to meet.
    assert_eq!(t.get("Beech", "DE"), Some(0));
    assert_eq!(
        t.order()[..3],
        [("Beech", (1, 1)), ("Cherry", (2, 2)), ("Ash", (3, 3))]
    );
}

#[test]
fn round_robin_of_six_by_the_default_list_shares_a_place() {
    let f = field(SIX, 5, System::RoundRobin, SIX_GAMES);
    let t = Table::new(f, "DE,SB,WIN", None);
    // DE among Ash, Beech, Cherry (all met): 1 each, the cycle separates no one.
    assert_eq!(t.get("Ash", "DE"), Some(100));
    assert_eq!(t.get("Beech", "DE"), Some(100));
    // SB puts Beech (7.25) first; Ash and Cherry have 7 and 3 wins each (Ash: Beech, Elm,
    // Fir; Cherry: Ash, Elm, Fir): they share places 2-3, listed by name.
    assert_eq!(t.get("Ash", "WIN"), Some(300));
    assert_eq!(t.get("Cherry", "WIN"), Some(300));
    assert_eq!(
        t.order()[..3],
        [("Beech", (1, 1)), ("Ash", (2, 3)), ("Cherry", (2, 3))]
    );
}

// ---- a 9-round Swiss of 12 (swiss12.pgn): Holly takes a half-point bye in round 3,
// Alder loses round 5 by forfeit to Cypress, Rowan withdraws after round 6 ----

const TWELVE: &[(&str, Option<u32>)] = &[
    ("Alder", Some(2410)),
    ("Bamboo", Some(2385)),
    ("Cedar", Some(2350)),
    ("Cypress", Some(2322)),
    ("Hazel", Some(2290)),
    ("Holly", Some(2261)),
    ("Juniper", Some(2233)),
    ("Linden", Some(2198)),
    ("Maple", Some(2170)),
    ("Oak", Some(2143)),
    ("Poplar", Some(2105)),
    ("Rowan", Some(2080)),
];

const TWELVE_GAMES: &[Game] = &[
    (1, "Alder", "Bamboo", "="),
    (1, "Cedar", "Cypress", "1-0"),
    (1, "Hazel", "Holly", "1-0"),
    (1, "Juniper", "Linden", "1-0"),
    (1, "Maple", "Oak", "0-1"),
    (1, "Poplar", "Rowan", "="),
    (2, "Bamboo", "Rowan", "1-0"),
    (2, "Cedar", "Hazel", "0-1"),
    (2, "Holly", "Cypress", "0-1"),
    (2, "Linden", "Maple", "1-0"),
    (2, "Oak", "Juniper", "1-0"),
    (2, "Poplar", "Alder", "0-1"),
    (3, "Alder", "Cedar", "1-0"),
    (3, "Cypress", "Bamboo", "1-0"),
    (3, "Holly", "BYE", "="),
    (3, "Juniper", "Poplar", "0-1"),
    (3, "Maple", "BYE", "1-0"),
    (3, "Oak", "Hazel", "0-1"),
    (3, "Rowan", "Linden", "0-1"),
    (4, "Bamboo", "Oak", "1-0"),
    (4, "Cedar", "Poplar", "="),
    (4, "Hazel", "Alder", "0-1"),
    (4, "Linden", "Cypress", "0-1"),
    (4, "Maple", "Juniper", "0-1"),
    (4, "Rowan", "Holly", "0-1"),
    (5, "Cypress", "Alder", "+-"),
    (5, "Hazel", "Bamboo", "0-1"),
    (5, "Holly", "Poplar", "="),
    (5, "Juniper", "Cedar", "="),
    (5, "Linden", "Oak", "1-0"),
    (5, "Rowan", "Maple", "0-1"),
    (6, "Alder", "Linden", "1-0"),
    (6, "Bamboo", "Juniper", "="),
    (6, "Cypress", "Hazel", "="),
    (6, "Holly", "Cedar", "0-1"),
    (6, "Oak", "Rowan", "1-0"),
    (6, "Poplar", "Maple", "0-1"),
    (7, "Alder", "Juniper", "1-0"),
    (7, "Cedar", "Bamboo", "="),
    (7, "Holly", "BYE", "1-0"),
    (7, "Linden", "Hazel", "="),
    (7, "Maple", "Cypress", "0-1"),
    (7, "Oak", "Poplar", "1-0"),
    (8, "Bamboo", "Holly", "0-1"),
    (8, "Cedar", "Linden", "="),
    (8, "Cypress", "Juniper", "="),
    (8, "Hazel", "Maple", "1-0"),
    (8, "Oak", "Alder", "0-1"),
    (8, "Poplar", "BYE", "1-0"),
    (9, "Alder", "Holly", "="),
    (9, "Cypress", "Oak", "1-0"),
    (9, "Juniper", "BYE", "1-0"),
    (9, "Linden", "Bamboo", "="),
    (9, "Maple", "Cedar", "="),
    (9, "Poplar", "Hazel", "="),
];

const SWISS_LIST: &str = "BH/C1,BH,BH/M1,SB,AOB,FB,PS,REP,WIN,WON,BPG,BWG,ARO,TPR,PTP,APRO,APPO,DE";

fn swiss() -> Table {
    Table::new(
        field(TWELVE, 9, System::Swiss, TWELVE_GAMES),
        SWISS_LIST,
        None,
    )
}

#[test]
fn swiss_buchholz_with_unplayed_rounds() {
    let t = swiss();
    // Final points (adjusted as opponents where it differs): Alder 7, Cypress 7, Hazel
    // 5½, Bamboo 5, Cedar, Holly, Juniper, Linden 4½, Oak, Poplar 4, Maple 3½, Rowan ½
    // (adjusted 2: his three absences after round 6 count ½ each).
    //
    // BH Cypress: Maple 3½ + Oak 4 + Cedar, Holly, Linden, Juniper 4½ x 4 + Bamboo 5 +
    // Hazel 5½ + the forfeit win of round 5 against a dummy worth min(own 7, Alder 7) = 7:
    // 3.5 + 4 + 18 + 5 + 5.5 + 7 = 43.
    assert_eq!(t.get("Cypress", "BH"), Some(4300));
    // BH/C1 Cypress: a forfeit win is no voluntary round: the lowest, Maple 3½, goes: 39.5.
    assert_eq!(t.get("Cypress", "BH/C1"), Some(3950));
    // BH/M1 Cypress: also the highest, the dummy's 7: 32.5.
    assert_eq!(t.get("Cypress", "BH/M1"), Some(3250));
    // BH Alder: Poplar 4 + Oak 4 + Cedar, Linden, Juniper, Holly 4½ x 4 + Bamboo 5 + Hazel
    // 5½ + the forfeit loss against a dummy of min(7, Cypress 7) = 7: 43.5.
    assert_eq!(t.get("Alder", "BH"), Some(4350));
    // BH/C1 Alder: the forfeit loss is voluntary, so its 7 goes first, not the lowest 4:
    // 36.5.
    assert_eq!(t.get("Alder", "BH/C1"), Some(3650));
    // BH/M1 Alder: then the highest, Hazel 5½: 31.
    assert_eq!(t.get("Alder", "BH/M1"), Some(3100));
    // BH Holly: Rowan 2 + Poplar 4 + Cedar 4½ + Bamboo 5 + Hazel 5½ + Cypress 7 + Alder 7,
    // and two dummies of min(own 4½, half of 9 = 4½) = 4½ for the byes of rounds 3 and 7:
    // 2 + 4 + 4.5 + 5 + 5.5 + 7 + 7 + 9 = 44.
    assert_eq!(t.get("Holly", "BH"), Some(4400));
    // BH/C1 Holly: the half-point bye of round 3 is voluntary and goes first (4½), not
    // Rowan's 2: 39.5.
    assert_eq!(t.get("Holly", "BH/C1"), Some(3950));
    // BH Rowan: three absences against dummies of min(own ½, 4½) = ½ each, + Maple 3½ +
    // Poplar 4 + Oak 4 + Linden 4½ + Holly 4½ + Bamboo 5: 1.5 + 25.5 = 27.
    assert_eq!(t.get("Rowan", "BH"), Some(2700));
    // BH/C1 Rowan: one absence (½) cut: 26.5.
    assert_eq!(t.get("Rowan", "BH/C1"), Some(2650));
}

#[test]
fn swiss_berger_and_fore_buchholz() {
    let t = swiss();
    // SB Cypress: wins over Maple 3½, Oak 4, Holly 4½, Linden 4½, Bamboo 5 and the dummy
    // 7 of the forfeit win; draws with Hazel 5½ and Juniper 4½ count half; the loss to
    // Cedar 0: 3.5 + 4 + 4.5 + 4.5 + 5 + 7 + 2.75 + 2.25 = 33.5.
    assert_eq!(t.get("Cypress", "SB"), Some(3350));
    // SB Alder: wins over Poplar 4, Oak 4, Cedar 4½, Linden 4½, Juniper 4½, Hazel 5½;
    // draws with Holly 4½ and Bamboo 5 (2.25 + 2.5); the forfeit loss 0: 27 + 4.75 = 31.75.
    assert_eq!(t.get("Alder", "SB"), Some(3175));
    // SB Holly: wins over Rowan 2, Bamboo 5; draws with Poplar 4, Alder 7 (2 + 3.5); the
    // pairing-allocated bye of round 7 a win over the 4½ dummy, the half-point bye half
    // of it (2.25): 2 + 5 + 5.5 + 4.5 + 2.25 = 19.25.
    assert_eq!(t.get("Holly", "SB"), Some(1925));
    // FB Cypress: round 9 as a draw for everyone paired, so his own points are 6½ and Oak
    // (lost round 9) has 4½: the dummy is min(6½, Alder 7) = 6½ and Oak counts ½ more:
    // 43 - 0.5 + 0.5 = 43.
    assert_eq!(t.get("Cypress", "FB"), Some(4300));
    // FB Alder: Oak 4½ (+½) and the dummy min(Alder's 7, Cypress 6½) = 6½ (-½): 43.5.
    assert_eq!(t.get("Alder", "FB"), Some(4350));
    // FB Holly: Cypress 6½ instead of 7, the rest as in BH (Alder drew round 9): 43.5.
    assert_eq!(t.get("Holly", "FB"), Some(4350));
    // AOB Cypress: the BH of the eight met over the board, Cedar 45.5, Holly 44, Bamboo
    // 43.5, Linden 43, Hazel 44, Maple 39.5, Juniper 44, Oak 43: 346.5 / 8 = 43.3125, 43.31.
    assert_eq!(t.get("Cypress", "AOB"), Some(4331));
}

#[test]
fn swiss_own_results() {
    let t = swiss();
    // PS Cypress: running 0, 1, 2, 3, 4, 4½, 5½, 6, 7: 33.
    assert_eq!(t.get("Cypress", "PS"), Some(3300));
    // PS Holly: 0, 0, ½, 1½, 2, 2, 3, 4, 4½: 17.5.
    assert_eq!(t.get("Holly", "PS"), Some(1750));
    // REP Cypress: 8 games and the forfeit win: 9. Alder: 8 games, not the forfeit loss.
    // Holly: 7 games and the pairing-allocated bye, not the half-point bye: 8. Rowan: 6.
    assert_eq!(t.get("Cypress", "REP"), Some(900));
    assert_eq!(t.get("Alder", "REP"), Some(800));
    assert_eq!(t.get("Holly", "REP"), Some(800));
    assert_eq!(t.get("Rowan", "REP"), Some(600));
    // WIN Cypress: Holly, Bamboo, Linden, Maple, Oak and the forfeit: 6; WON: 5.
    assert_eq!(t.get("Cypress", "WIN"), Some(600));
    assert_eq!(t.get("Cypress", "WON"), Some(500));
    // WIN Holly: Rowan, Bamboo and the bye of round 7: 3; WON 2.
    assert_eq!(t.get("Holly", "WIN"), Some(300));
    assert_eq!(t.get("Holly", "WON"), Some(200));
    // BPG Cypress: Black against Cedar, Holly, Linden, Maple: 4; BWG: the last three.
    assert_eq!(t.get("Cypress", "BPG"), Some(400));
    assert_eq!(t.get("Cypress", "BWG"), Some(300));
    // Games over the board: Cypress 8 (round 5 forfeited), Holly 7, Rowan 6.
    assert_eq!(t.row("Cypress").games, 8);
    assert_eq!(t.row("Holly").games, 7);
}

#[test]
fn swiss_rating_figures() {
    let t = swiss();
    // ARO Cypress: 2350 + 2261 + 2385 + 2198 + 2290 + 2170 + 2233 + 2143 = 18030, / 8 =
    // 2253.75, 2254. TPR: 6 of 8 is 75 %, dp 193: 2447.
    assert_eq!(t.get("Cypress", "ARO"), Some(225_400));
    assert_eq!(t.get("Cypress", "TPR"), Some(244_700));
    // PTP Cypress: at 2454 the expected scores are 64, 75, 60, 81, 72, 84, 78, 86 %, 600
    // in all, the 6 points he scored; at 2453 Bamboo's is 59 and the sum 599.
    assert_eq!(t.get("Cypress", "PTP"), Some(245_400));
    // APRO Cypress: the opponents' TPR 2264 + 2227 + 2297 + 2265 + 2340 + 2074 + 2217 +
    // 2201 = 17885, / 8 = 2235.625, 2236. APPO: their PTP 2265 + 2223 + 2297 + 2265 +
    // 2347 + 2067 + 2212 + 2201 = 17877, / 8 = 2234.625, 2235.
    assert_eq!(t.get("Cypress", "APRO"), Some(223_600));
    assert_eq!(t.get("Cypress", "APPO"), Some(223_500));
    // Holly: 2290 + 2322 + 2080 + 2105 + 2350 + 2385 + 2410 = 15942, / 7 = 2277.4, 2277;
    // 3 of 7 is 42.86 %, 43 %, dp -50: 2227. The byes are no games.
    assert_eq!(t.get("Holly", "ARO"), Some(227_700));
    assert_eq!(t.get("Holly", "TPR"), Some(222_700));
    // Rowan: ½ of 6 is 8.33 %, 8 %, dp -(dp of 92 %) = -401; ARO 13262 / 6 = 2210.33,
    // 2210: 1809.
    assert_eq!(t.get("Rowan", "TPR"), Some(180_900));
}

#[test]
fn swiss_ranks() {
    let t = swiss();
    // Alder and Cypress share 7 points; BH/C1 puts Cypress (39.5) ahead of Alder (36.5).
    // Cedar, Linden, Juniper, Holly share 4½: BH/C1 42, 41, 40.5, 39.5.
    let names: Vec<&str> = t.order().iter().map(|(n, _)| *n).collect();
    assert_eq!(
        names,
        [
            "Cypress", "Alder", "Hazel", "Bamboo", "Cedar", "Linden", "Juniper", "Holly", "Oak",
            "Poplar", "Maple", "Rowan"
        ]
    );
    // No one is tied on every key before DE: DE is 0 for all.
    assert!(t.rows.iter().all(|r| *r.values.last().unwrap() == Some(0)));
}

#[test]
fn direct_encounter_waits_for_unplayed_games_in_a_swiss() {
    // A and B tie on 1½ and never met: DE has nothing to separate them by, both 0, and
    // they share first place.
    let players = &[("A", None), ("B", None), ("C", None), ("D", None)];
    let games: &[Game] = &[
        (1, "A", "C", "1-0"),
        (1, "B", "D", "1-0"),
        (2, "A", "D", "="),
        (2, "B", "C", "="),
    ];
    let t = Table::new(field(players, 2, System::Swiss, games), "DE", None);
    assert_eq!(t.get("A", "DE"), Some(0));
    assert_eq!(t.get("B", "DE"), Some(0));
    assert_eq!(t.order()[..2], [("A", (1, 2)), ("B", (1, 2))]);
}

#[test]
fn direct_encounter_separates_only_who_cannot_be_caught() {
    // Three tied on 2 in a Swiss: A beat B, B and C drew, A and C never met. DE in the
    // group: A 1, B ½ + 0 = ½, C ½. C could still reach ½ + 1 (the unplayed game) = 1½
    // > 1, so A is not separated from anyone; all three take the lowest, ½.
    let players = &[
        ("A", None),
        ("B", None),
        ("C", None),
        ("X", None),
        ("Y", None),
    ];
    let games: &[Game] = &[
        (1, "A", "B", "1-0"),
        (1, "C", "X", "1-0"),
        (2, "B", "C", "="),
        (2, "A", "Y", "0-1"),
        (3, "A", "X", "1-0"),
        (3, "B", "Y", "1-0"),
        (4, "C", "Y", "="),
        (4, "B", "X", "="),
    ];
    let f = field(players, 4, System::Swiss, games);
    let t = Table::new(f, "DE", None);
    // Points: A 1 + 0 + 1 = 2, B 0 + ½ + 1 + ½ = 2, C 1 + ½ + ½ = 2.
    assert_eq!(t.row("A").points, Half(4));
    assert_eq!(t.row("C").points, Half(4));
    assert_eq!(t.get("A", "DE"), Some(50));
    assert_eq!(t.get("B", "DE"), Some(50));
    assert_eq!(t.get("C", "DE"), Some(50));

    // Once A has also beaten C, every pair has met: A 2, B ½, C ½.
    let mut more = games.to_vec();
    more.push((5, "A", "C", "1-0"));
    more.push((5, "X", "Y", "1-0"));
    let t = Table::new(field(players, 5, System::Swiss, &more), "DE", None);
    assert_eq!(t.row("A").points, Half(6));
    // A now stands alone on 3; B and C (2 each; X and Y 1½) met once, a draw: ½ each.
    assert_eq!(t.get("A", "DE"), Some(0));
    assert_eq!(t.get("B", "DE"), Some(50));
    assert_eq!(t.get("C", "DE"), Some(50));
}

#[test]
fn only_the_voluntary_rounds_after_the_last_game_count_half() {
    // Z is absent in round 1, loses to A in round 2, is absent in round 3.
    let players = &[("A", None), ("B", None), ("C", None), ("Z", None)];
    let games: &[Game] = &[
        (1, "A", "B", "1-0"),
        (1, "C", "BYE", "1-0"),
        (2, "Z", "A", "0-1"),
        (2, "B", "C", "="),
        (3, "A", "C", "="),
        (3, "B", "BYE", "1-0"),
    ];
    let t = Table::new(field(players, 3, System::Swiss, games), "BH", None);
    // As A's opponent Z counts 0 (round 1, before his last game, as scored) + 0 + ½
    // (round 3, after it) = ½; B 0 + ½ + 1 = 1½; C 1 + ½ + ½ = 2. BH A: 1½ + ½ + 2 = 4.
    assert_eq!(t.get("A", "BH"), Some(400));
    // BH Z: two absences against dummies of min(own 0, 1½) = 0, and A's 2½: 2.5.
    assert_eq!(t.get("Z", "BH"), Some(250));
}

#[test]
fn a_forfeit_loss_closes_the_rounds_that_count_half() {
    // Z loses to A in round 1, is absent in round 2 and loses round 3 by forfeit: both are
    // voluntary, after his last game: the absence counts ½, the forfeit loss 0.
    let players = &[
        ("A", None),
        ("B", None),
        ("C", None),
        ("D", None),
        ("Z", None),
    ];
    let games: &[Game] = &[
        (1, "A", "Z", "1-0"),
        (1, "B", "C", "="),
        (1, "D", "BYE", "1-0"),
        (2, "A", "B", "0-1"),
        (2, "C", "D", "1-0"),
        (3, "Z", "B", "-+"),
        (3, "A", "C", "="),
        (3, "D", "BYE", "="),
    ];
    let t = Table::new(field(players, 3, System::Swiss, games), "BH", None);
    // BH A: Z 0 + ½ + 0 = ½, B ½ + 1 + 1 = 2½, C ½ + 1 + ½ = 2: 5.
    assert_eq!(t.get("A", "BH"), Some(500));
}

#[test]
fn fore_buchholz_plays_a_forfeit_of_the_last_round_as_a_draw() {
    // W wins round 3 by forfeit against B.
    let players = &[
        ("A", None),
        ("B", None),
        ("C", None),
        ("D", None),
        ("W", None),
    ];
    let games: &[Game] = &[
        (1, "A", "W", "1-0"),
        (1, "B", "C", "1-0"),
        (1, "D", "BYE", "1-0"),
        (2, "A", "B", "0-1"),
        (2, "C", "W", "0-1"),
        (2, "D", "BYE", "="),
        (3, "W", "B", "+-"),
        (3, "A", "C", "1-0"),
    ];
    let t = Table::new(field(players, 3, System::Swiss, games), "BH,FB", None);
    // Points: A 1 + 0 + 1 = 2, B 1 + 1 + 0 = 2, C 0, W 0 + 1 + 1 = 2. BH W: A 2 + C 0 + the
    // forfeit win against a dummy of min(own 2, B's 2) = 2: 4.
    assert_eq!(t.get("W", "BH"), Some(400));
    // FB, every paired game of round 3 a draw: A 1 + 0 + ½ = 1½, C 0 + 0 + ½ = ½, B 1 + 1 +
    // ½ = 2½, W 0 + 1 + ½ = 1½. The forfeit is a played draw against B: 1.5 + 0.5 + 2.5 =
    // 4.5 (a dummy would have been min(own 1½, B's 2½) = 1½, giving 3.5).
    assert_eq!(t.get("W", "FB"), Some(450));
}

#[test]
fn sonneborn_berger_cut_drops_the_weakest_opponent_or_a_voluntary_round() {
    let t = Table::new(field(TWELVE, 9, System::Swiss, TWELVE_GAMES), "SB/C1", None);
    // SB Cypress 33.5; the weakest opponent is Maple (3½, a win: 3.5), not Cedar (4½, a
    // loss: 0): 33.5 - 3.5 = 30.
    assert_eq!(t.get("Cypress", "SB/C1"), Some(3000));
    // Holly's half-point bye (round 3) is voluntary: its 4½ x ½ = 2.25 against the least
    // significant, Rowan's 2 x 1 = 2; the higher goes (C.07 16.5): 19.25 - 2.25 = 17.
    assert_eq!(t.get("Holly", "SB/C1"), Some(1700));
    // Alder's forfeit loss is voluntary but gives 7 x 0 = 0, below the least significant
    // (Poplar 4, a win: 4): the 4 goes: 31.75 - 4 = 27.75.
    assert_eq!(t.get("Alder", "SB/C1"), Some(2775));
}

// ---- unrated players (unrated.pgn, unrated-1400.pgn) ----

const BIRDS: &[(&str, Option<u32>)] = &[
    ("Kite", Some(2000)),
    ("Lark", Some(1800)),
    ("Merlin", None),
    ("Osprey", None),
];

const BIRD_GAMES: &[Game] = &[
    (1, "Kite", "Osprey", "0-1"),
    (1, "Lark", "Merlin", "1-0"),
    (2, "Osprey", "Merlin", "="),
    (2, "Kite", "Lark", "="),
    (3, "Lark", "Osprey", "="),
    (3, "Merlin", "Kite", "0-1"),
];

#[test]
fn unrated_opponents_are_left_out() {
    let f = field(BIRDS, 3, System::RoundRobin, BIRD_GAMES);
    let t = Table::new(f, "ARO/C1,PTP,APRO", None);
    // Osprey met Kite 2000 (won) and Lark 1800 (drew); Merlin has no rating. ARO 1900;
    // 1½ of 2 is 75 %, dp 193: TPR 2093.
    assert_eq!(t.row("Osprey").aro, Some(190_000));
    assert_eq!(t.row("Osprey").tpr, Some(209_300));
    // ARO/C1 Osprey: 1800 cut, 2000 left.
    assert_eq!(t.get("Osprey", "ARO/C1"), Some(200_000));
    // Lark met one rated player (Kite): ARO/C1 cuts it and leaves nothing.
    assert_eq!(t.get("Lark", "ARO/C1"), None);
    // PTP Osprey: at 2103 the expected scores against 2000 and 1800 are 64 % and 86 %,
    // 150 in all for his 1½; at 2102 85 % against 1800, 149.
    assert_eq!(t.get("Osprey", "PTP"), Some(210_300));
    // PTP Merlin: no point against Kite and Lark: the lowest, 1800, - 800 = 1000.
    assert_eq!(t.get("Merlin", "PTP"), Some(100_000));
}

#[test]
fn unrated_opponents_rated_by_the_option() {
    let f = field(BIRDS, 3, System::RoundRobin, BIRD_GAMES);
    let t = Table::new(f, "ARO/C1,PTP,APRO", Some(1400));
    // Osprey: (2000 + 1800 + 1400) / 3 = 1733.33, 1733; 2 of 3 is 66.67 %, 67 %, dp 125:
    // 1858.
    assert_eq!(t.row("Osprey").aro, Some(173_300));
    assert_eq!(t.row("Osprey").tpr, Some(185_800));
    // ARO/C1 Lark: 1400 and 1400 (Merlin, Osprey) and Kite 2000; one 1400 cut: 1700.
    assert_eq!(t.get("Lark", "ARO/C1"), Some(170_000));
}

#[test]
fn a_player_who_met_no_rated_opponent_has_no_rating_figures() {
    let players = &[("P", None), ("Q", None), ("R", Some(2000))];
    let games: &[Game] = &[(1, "P", "Q", "1-0"), (2, "R", "Q", "=")];
    let t = Table::new(field(players, 2, System::Swiss, games), "TPR,APRO", None);
    assert_eq!(t.row("P").aro, None);
    assert_eq!(t.get("P", "TPR"), None);
    // Q met R (2000): ½ of 1 is 50 %, TPR 2000; P's APRO is Q's TPR.
    assert_eq!(t.get("Q", "TPR"), Some(200_000));
    assert_eq!(t.get("P", "APRO"), Some(200_000));
    // An empty value ranks after every value: Q and R have ½ each, Q's TPR 2000 before
    // R's none (R met only Q, who has no rating).
    assert_eq!(t.order(), [("P", (1, 1)), ("Q", (2, 2)), ("R", (3, 3))]);
}

// ---- the list ----

#[test]
fn the_list_parses_with_its_modifiers() {
    let list = parse_list("PTS,bh/c1,FB/M2,DE").unwrap();
    assert_eq!(
        list[1],
        TieBreak {
            name: Name::Bh,
            modifier: Some(Modifier::Cut(1))
        }
    );
    assert_eq!(list[2].label(), "FB/M2");
    assert_eq!(list[1].column(), "bh_c1");
    assert!(parse_list("BH/C3").unwrap_err().contains("C3"));
    assert!(parse_list("XYZ").unwrap_err().contains("XYZ"));
    assert!(parse_list("WIN/C1").unwrap_err().contains("WIN/C1"));
    assert!(parse_list("SB/M1").unwrap_err().contains("/C1 or /C2"));
    assert!(parse_list("SB/C2,PS/C1,ARO/M2").is_ok());
}

#[test]
fn the_default_lists() {
    let labels = |s| {
        default_for(s)
            .iter()
            .map(TieBreak::label)
            .collect::<Vec<_>>()
    };
    assert_eq!(labels(System::RoundRobin), ["DE", "SB", "WIN"]);
    assert_eq!(labels(System::Swiss), ["BH/C1", "BH", "DE"]);
}

#[test]
fn points_head_the_values() {
    let f = field(FOUR, 6, System::RoundRobin, FOUR_GAMES);
    let t = Table::new(f, "PTS,WIN", None);
    // North 4 points: 400 hundredths.
    assert_eq!(t.get("North", "PTS"), Some(400));
}

#[test]
fn a_huge_swiss_ranks_in_time() {
    // 100,000 players, 4 rounds: player i meets i ± 1, ± 2 (mod n): every figure and
    // every tied group (most players tie on 2 points) stays near-linear. A quadratic
    // step would take minutes here.
    let n = 100_000;
    let mut entries = vec![Vec::new(); n];
    for i in 0..n {
        for (round, step) in [(1u32, 1usize), (2, 2)] {
            let j = (i + step) % n;
            let score = if (i / step) % 2 == 0 { 2 } else { 1 };
            entries[i].push(Entry {
                round: Some(round + 2 * ((i / step) % 2) as u32),
                play: Play::Game {
                    opponent: j,
                    white: true,
                },
                score: Half(score),
            });
            entries[j].push(Entry {
                round: Some(round + 2 * ((i / step) % 2) as u32),
                play: Play::Game {
                    opponent: i,
                    white: false,
                },
                score: Half(2 - score),
            });
        }
    }
    for list in &mut entries {
        list.sort_by_key(|e| e.round);
    }
    let players = (0..n)
        .map(|i| Player {
            name: format!("p{i:06}"),
            fide_id: None,
            rating: Some(1500 + (i % 700) as u32),
            title: String::new(),
        })
        .collect();
    let f = Field {
        players,
        rounds: 4,
        system: System::Swiss,
        entries,
    };
    let list = parse_list("BH/C1,BH,DE,SB,ARO,TPR,PTP,APRO").unwrap();
    let started = std::time::Instant::now();
    let rows = standings(&f, &list, &Options::default());
    assert_eq!(rows.len(), n);
    // Ranks cover 1..=n without a gap.
    assert_eq!(rows.first().unwrap().rank.0, 1);
    assert_eq!(rows.last().unwrap().rank.1, n as u32);
    assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());
}

// ---- the events' expected CSV (written by an independent computation) ----

/// `v` hundredths with the fewest decimals that show it exactly, as the CSV writes it.
fn number(v: Option<i64>) -> String {
    match v {
        None => String::new(),
        Some(v) if v % 100 == 0 => (v / 100).to_string(),
        Some(v) if v % 10 == 0 => format!("{}.{}", v / 100, (v % 100) / 10),
        Some(v) => format!("{}.{:02}", v / 100, v % 100),
    }
}

/// The rank, player, points and value cells of `NAME.csv` against the engine's.
fn agrees_with_csv(name: &str, f: Field) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/standings/events/");
    let args = std::fs::read_to_string(format!("{dir}{name}.args")).unwrap();
    let words: Vec<&str> = args.split_whitespace().collect();
    let flag = |name: &str| {
        words
            .iter()
            .position(|w| *w == name)
            .map(|at| words[at + 1])
    };
    let list = match flag("--tiebreaks") {
        Some(text) => parse_list(text).unwrap(),
        None => default_for(f.system),
    };
    let unrated = flag("--unrated").map(|r| r.parse().unwrap());
    let rows = standings(&f, &list, &Options { unrated });
    let csv = std::fs::read_to_string(format!("{dir}{name}.csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    for (row, line) in rows.iter().zip(lines) {
        let cells: Vec<&str> = line.split(',').collect();
        let cell = |column: &str| cells[header.iter().position(|h| *h == column).unwrap()];
        let (a, b) = row.rank;
        let rank = if a == b {
            a.to_string()
        } else {
            format!("{a}-{b}")
        };
        assert_eq!(cell("rank"), rank, "{name} {line}");
        assert_eq!(cell("player"), f.players[row.player].name, "{name} {line}");
        assert_eq!(cell("points"), number(Some(i64::from(row.points.0) * 50)));
        assert_eq!(cell("games"), row.games.to_string(), "{name} {line}");
        for (tb, value) in list.iter().zip(&row.values) {
            if tb.name != Name::Pts {
                assert_eq!(
                    cell(&tb.column()),
                    number(*value),
                    "{name} {} {line}",
                    tb.label()
                );
            }
        }
        for (column, value) in [("aro", row.aro), ("tpr", row.tpr)] {
            if header.contains(&column) {
                assert_eq!(cell(column), number(value), "{name} {column} {line}");
            }
        }
    }
    assert_eq!(csv.lines().count(), rows.len() + 1);
}

#[test]
fn the_test_events_agree_with_their_csv() {
    agrees_with_csv("double-rr4", field(FOUR, 6, System::RoundRobin, FOUR_GAMES));
    agrees_with_csv("round-robin6", field(SIX, 5, System::RoundRobin, SIX_GAMES));
    agrees_with_csv("swiss12", field(TWELVE, 9, System::Swiss, TWELVE_GAMES));
    agrees_with_csv("unrated", field(BIRDS, 3, System::RoundRobin, BIRD_GAMES));
    agrees_with_csv(
        "unrated-1400",
        field(BIRDS, 3, System::RoundRobin, BIRD_GAMES),
    );
}
