//! Text for people, cross-cutting (the summary line, the progress bar, error messages and
//! the report use it): `thousands` groups digits, and `visible` writes the control
//! characters of the data (tag values, move tokens, file names) in a visible form, so that
//! a file cannot clear the screen, set the window title or write the clipboard through
//! pgnkit's human-readable output.

use std::borrow::Cow;
use std::fmt::Write as _;

/// `text` with every control character but tab written visibly: C0 and DEL as `\x1b`,
/// C1 (U+0080-U+009F) as `\u{9b}`. A newline too, so that one-line output stays one
/// line. Text without control characters is returned as it is.
pub fn visible(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_escaped) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !is_escaped(c) {
            out.push(c);
        } else if c.is_ascii() {
            let _ = write!(out, "\\x{:02x}", u32::from(c));
        } else {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        }
    }
    Cow::Owned(out)
}

/// C0, DEL and C1, but not tab (harmless, and common in real data).
fn is_escaped(c: char) -> bool {
    c.is_control() && c != '\t'
}

/// 1234567 -> "1,234,567"
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::visible;

    #[test]
    fn control_characters_are_written_visibly() {
        assert_eq!(visible("a\u{1b}[2Jb"), "a\\x1b[2Jb");
        assert_eq!(visible("x\ny\u{7f}"), "x\\x0ay\\x7f");
        assert_eq!(visible("\u{9b}31m"), "\\u{9b}31m");
        assert_eq!(visible("tab\tand é ♔"), "tab\tand é ♔");
    }
}
