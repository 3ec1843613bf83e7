//! Diagnostics on stderr that can never stop the run: a closed or full stderr loses the
//! message and nothing else (`eprintln!` would panic on a full one, so src/ denies it).

use std::fmt;
use std::io::{self, Write};

/// Writes one line to stderr; a write error is dropped (the data output does not depend
/// on it, and there is nowhere left to report it).
pub fn line(args: fmt::Arguments<'_>) {
    let mut err = io::stderr().lock();
    let _ = err.write_fmt(args).and_then(|()| err.write_all(b"\n"));
}

/// Writes text to stderr as it is (no newline added); errors dropped as by `line`.
pub fn text(args: fmt::Arguments<'_>) {
    let _ = io::stderr().lock().write_fmt(args);
}

/// `eprintln!` that cannot panic: `say!("pgnkit: cannot open {name}")`. Named by its
/// path (`crate::stderr::say!`), so that the imports show who uses the helper.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::stderr::line(format_args!($($arg)*))
    };
}
pub(crate) use say;

/// Stderr as a writer whose errors are dropped: for findings written to stderr by
/// commands whose data goes to stdout (`fen`, `convert`).
#[derive(Debug, Default, Clone, Copy)]
pub struct LossyStderr;

impl Write for LossyStderr {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let _ = io::stderr().write_all(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        let _ = io::stderr().flush();
        Ok(())
    }
}
