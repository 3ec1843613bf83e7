//! FIDE's rating tables as data, and the rating figures made from them: ARO, TPR, PTP
//! (SPEC.md "Rating figures"; C.07 articles 10.1-10.5).
//!
//! Both tables are FIDE Handbook B.02 (the FIDE Rating Regulations), article 8.1: 8.1.1
//! gives dp for a fraction of points scored, 8.1.2 the expected score for a rating
//! difference.

/// B.02 8.1.1: `DP[p]` is dp for a score of `p` percent, 50 % and up; below 50 % dp is
/// the negative of the table at `100 - p`.
const DP: [i64; 51] = [
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158,
    166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366,
    383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
];

/// B.02 8.1.2: the higher-rated player's expected score in percent is `51 + i` when the
/// rating difference is at most `PD_UPPER[i]` and more than the bound before it; 50 up
/// to a difference of 3, 100 above 735.
const PD_UPPER: [u32; 50] = [
    10,
    17,
    25,
    32,
    39,
    46,
    53,
    61,
    68,
    76,
    83,
    91,
    98,
    106,
    113,
    121,
    129,
    137,
    145,
    153,
    162,
    170,
    179,
    188,
    197,
    206,
    215,
    225,
    235,
    245,
    256,
    267,
    278,
    290,
    302,
    315,
    328,
    344,
    357,
    374,
    391,
    411,
    432,
    456,
    484,
    517,
    559,
    619,
    735,
    u32::MAX,
];

/// dp for a score of `percent` (0 to 100).
pub fn dp(percent: i64) -> i64 {
    let lookup = |p: i64| {
        usize::try_from(p)
            .ok()
            .and_then(|p| DP.get(p))
            .copied()
            .unwrap_or(800)
    };
    if percent >= 50 {
        lookup(percent - 50)
    } else {
        -lookup(50 - percent)
    }
}

/// The expected score in percent of a player rated `diff` above the opponent (negative
/// when below); C.07 caps the difference at 800, which the table's 100 % already covers.
pub fn expected(diff: i64) -> i64 {
    let gap = u32::try_from(diff.unsigned_abs()).unwrap_or(u32::MAX);
    let high = if gap <= 3 {
        50
    } else {
        // The bands below the difference, found by bisection: PTP asks this often.
        51 + PD_UPPER.partition_point(|upper| gap > *upper) as i64
    };
    if diff >= 0 { high } else { 100 - high }
}

/// `num / den` rounded half up (den > 0).
pub fn round_half_up(num: i64, den: i64) -> i64 {
    (2 * num + den).div_euclid(2 * den)
}

/// The average of `ratings`, rounded half up; `None` when there are none.
pub fn average(ratings: &[i64]) -> Option<i64> {
    let count = i64::try_from(ratings.len()).ok().filter(|c| *c > 0)?;
    Some(round_half_up(ratings.iter().sum(), count))
}

/// TPR: ARO + dp for the fraction of `halves` scored in `ratings.len()` games, rounded
/// half up to whole percent.
pub fn tpr(ratings: &[i64], halves: i64) -> Option<i64> {
    let aro = average(ratings)?;
    let games = i64::try_from(ratings.len()).ok()?;
    // halves / (2 * games) as a percent: 100 * halves / (2 * games).
    let percent = round_half_up(100 * halves, 2 * games);
    Some(aro + dp(percent))
}

/// PTP: the lowest integer rating whose expected scores against `ratings` add up to at
/// least the `halves` scored. A full score gives the highest + 736 (where every expected
/// score is 100 %), no point the lowest - 800.
pub fn ptp(ratings: &[i64], halves: i64) -> Option<i64> {
    let low = ratings.iter().min()? - 800;
    let high = ratings.iter().max()? + 736;
    // In percent, a half point is 50.
    let wanted = halves * 50;
    let reaches = |r: i64| ratings.iter().map(|opp| expected(r - opp)).sum::<i64>() >= wanted;
    // The sum grows with r, and `high` always reaches: find the first r that does.
    let (mut lo, mut hi) = (low, high);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if reaches(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Some(lo)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dp_follows_the_table_both_ways() {
        assert_eq!(dp(50), 0);
        assert_eq!(dp(100), 800);
        assert_eq!(dp(0), -800);
        assert_eq!(dp(75), 193);
        assert_eq!(dp(25), -193);
        assert_eq!(dp(99), 677);
    }

    #[test]
    fn expected_scores_at_the_band_edges() {
        assert_eq!(expected(0), 50);
        assert_eq!(expected(3), 50);
        assert_eq!(expected(4), 51);
        assert_eq!(expected(10), 51);
        assert_eq!(expected(11), 52);
        assert_eq!(expected(-11), 48);
        assert_eq!(expected(619), 98);
        assert_eq!(expected(620), 99);
        assert_eq!(expected(735), 99);
        assert_eq!(expected(736), 100);
        assert_eq!(expected(-900), 0);
    }

    #[test]
    fn performance_figures() {
        // 1½ of 2 against 2000 and 2100: ARO 2050, 75 % gives dp 193.
        assert_eq!(tpr(&[2000, 2100], 3), Some(2243));
        // 2 of 3 is 66.67 %, rounded to 67 %: dp 125; ARO (1800+1900+2000)/3 = 1900.
        assert_eq!(tpr(&[1800, 1900, 2000], 4), Some(2025));
        // Full score: highest + 736; no point: lowest - 800.
        assert_eq!(ptp(&[2000, 2100], 4), Some(2836));
        assert_eq!(ptp(&[2000, 2100], 0), Some(1200));
        // ½ of 1 against 2000: the lowest rating expected to score 50 % is 1997.
        assert_eq!(ptp(&[2000], 1), Some(1997));
        assert_eq!(average(&[]), None);
        // 2001 + 2002 = 4003, / 2 = 2001.5, up to 2002.
        assert_eq!(average(&[2001, 2002]), Some(2002));
    }
}
