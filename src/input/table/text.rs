//! A cell's value as tag text: strings escaped as PGN escapes them, numbers, dates and
//! times as the lichess PGN writes them.

use std::io;

use super::Kind;
use super::cells::Values;

/// Appends a value as tag text, escaped as PGN escapes it (`\"`, `\\`); a line break in
/// a string cell becomes a space (a tag pair is one line).
pub(super) fn push_tag_value(out: &mut Vec<u8>, values: &Values, index: usize, kind: Kind) {
    use std::io::Write as _;
    // Writing to a Vec cannot fail.
    let _ = match values {
        Values::Text(values) => {
            let bytes = values.get(index).map_or(&[][..], |v| v.data());
            // Most values need no escape: one look at every byte (without an early exit,
            // so that it is vectorised), then one copy.
            let plain = !bytes.iter().fold(false, |seen, &b| {
                seen | matches!(b, b'"' | b'\\' | b'\n' | b'\r')
            });
            if plain {
                out.extend_from_slice(bytes);
                return;
            }
            for &b in bytes {
                match b {
                    b'"' | b'\\' => out.extend_from_slice(&[b'\\', b]),
                    b'\n' | b'\r' => out.push(b' '),
                    _ => out.push(b),
                }
            }
            Ok(())
        }
        Values::Bool(values) => match values.get(index) {
            Some(true) => write!(out, "true"),
            Some(false) => write!(out, "false"),
            None => Ok(()),
        },
        Values::Int32(values) => match (values.get(index), kind) {
            (Some(&days), Kind::Date) => push_date(out, days),
            (Some(&time), Kind::Time32 { per_second }) => {
                push_time(out, i64::from(time), per_second)
            }
            (Some(&value), _) => {
                push_integer(out, i64::from(value));
                Ok(())
            }
            (None, _) => Ok(()),
        },
        Values::Int64(values) => match (values.get(index), kind) {
            (Some(&time), Kind::Time64 { per_second }) => push_time(out, time, per_second),
            (Some(&value), _) => {
                push_integer(out, value);
                Ok(())
            }
            (None, _) => Ok(()),
        },
        // Rust writes the shortest decimal that reads back as the same float.
        Values::Float(values) => values.get(index).map_or(Ok(()), |v| write!(out, "{v}")),
        Values::Double(values) => values.get(index).map_or(Ok(()), |v| write!(out, "{v}")),
        Values::None => Ok(()),
    };
}

/// Days since 1970-01-01 as `YYYY.MM.DD` (the proleptic Gregorian calendar).
fn push_date(out: &mut Vec<u8>, days: i32) -> io::Result<()> {
    let (year, month, day) = civil_from_days(i64::from(days));
    if (0..10_000).contains(&year) {
        push_padded(out, year, 4);
    } else {
        push_integer(out, year);
    }
    out.push(b'.');
    push_padded(out, month, 2);
    out.push(b'.');
    push_padded(out, day, 2);
    Ok(())
}

/// Appends `n` in decimal (a tag of every row: `write!` costs more than the digits).
fn push_integer(out: &mut Vec<u8>, n: i64) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// Appends `n` (0 or more) with leading zeros to `width` digits.
fn push_padded(out: &mut Vec<u8>, n: i64, width: usize) {
    let digits = n.checked_ilog10().map_or(1, |log| log as usize + 1);
    out.extend(std::iter::repeat_n(b'0', width.saturating_sub(digits)));
    push_integer(out, n);
}

/// The civil date of a day number (days since 1970-01-01), after Howard Hinnant's
/// `civil_from_days` (public domain).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// A time of day in units of 1/`per_second` s as `HH:MM:SS`, with the fraction (its
/// trailing zeros dropped) when it is not zero.
fn push_time(out: &mut Vec<u8>, time: i64, per_second: i64) -> io::Result<()> {
    use std::io::Write as _;
    let per_second = per_second.max(1);
    let seconds = time.div_euclid(per_second);
    let fraction = time.rem_euclid(per_second);
    push_padded(out, seconds / 3600, 2);
    out.push(b':');
    push_padded(out, seconds / 60 % 60, 2);
    out.push(b':');
    push_padded(out, seconds % 60, 2);
    if fraction != 0 {
        let width = per_second.ilog10() as usize;
        let digits = format!("{fraction:0width$}");
        write!(out, ".{}", digits.trim_end_matches('0'))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{civil_from_days, push_date, push_integer, push_time};

    #[test]
    fn day_numbers_are_civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_209), (2025, 5, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn integers_and_dates_as_display_writes_them() {
        for n in [0, 7, -7, 10, 12345, i64::MAX, i64::MIN] {
            let mut out = Vec::new();
            push_integer(&mut out, n);
            assert_eq!(out, n.to_string().into_bytes());
        }
        let mut out = Vec::new();
        push_date(&mut out, 20_209).ok();
        assert_eq!(out, b"2025.05.01");
    }

    #[test]
    fn times_keep_a_fraction_that_is_not_zero() {
        let text = |time, per_second| {
            let mut out = Vec::new();
            push_time(&mut out, time, per_second).ok();
            String::from_utf8(out).unwrap_or_default()
        };
        assert_eq!(text(3_723_000, 1000), "01:02:03");
        assert_eq!(text(3_723_450, 1000), "01:02:03.45");
        assert_eq!(text(86_399_000_001, 1_000_000), "23:59:59.000001");
    }
}
