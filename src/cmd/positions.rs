//! Positions given as arguments or read one per line (check-fen, pgn).

use std::io::BufRead;
use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::cmd::context::Context;

/// Positions given as arguments, or one per line from a file or stdin (check-fen, pgn).
#[derive(Debug, clap::Args)]
pub struct PositionArgs {
    /// Positions (FEN, or EPD with opcodes).
    #[arg(value_name = "FEN")]
    pub fens: Vec<String>,

    /// Read positions from FILE, one per line (`-`: stdin, the default when no FEN is
    /// given); blank lines and `#` lines are skipped.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "fens",
        help_heading = "Input"
    )]
    pub input: Option<PathBuf>,
}

/// A position line and where it came from.
pub struct PositionLine {
    /// The argument's 1-based index, or the line number in the file.
    pub input: u64,
    /// `argument N` or `FILE:LINE`, for messages.
    pub source: String,
    pub text: String,
}

/// The longest position line read from a file or stdin: a FEN is under 100 bytes, an EPD
/// line with opcodes a few hundred. A longer line is reported and skipped, so that a file
/// without line ends (`/dev/zero`) is read in bounded memory.
pub const MAX_POSITION_LINE: usize = 64 * 1024;

impl PositionArgs {
    /// Refuses an `-o` that is the `--input` file, before either is opened.
    pub fn refuse_as_output(&self, output: Option<&Path>) -> anyhow::Result<()> {
        let name = self.input.as_ref().map(|p| p.display().to_string());
        let input = name.as_deref().zip(self.input.as_deref());
        crate::output::refuse_shared_paths(input, &[("-o", output)])
    }

    /// Hands every position line to `each` in order, reading a file or stdin line by line;
    /// a line longer than `MAX_POSITION_LINE` comes as `Err(FILE:LINE)`, and the reading
    /// goes on after it.
    pub fn each_line(
        &self,
        ctx: &Context,
        mut each: impl FnMut(Result<PositionLine, String>) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        if !self.fens.is_empty() {
            for (i, fen) in self.fens.iter().enumerate() {
                each(Ok(PositionLine {
                    input: i as u64 + 1,
                    source: format!("argument {}", i + 1),
                    text: fen.trim().to_string(),
                }))?;
            }
            return Ok(());
        }
        let (name, mut reader): (String, Box<dyn BufRead>) = match &self.input {
            Some(p) if p.as_os_str() != "-" => {
                let file = std::fs::File::open(p)
                    .with_context(|| format!("cannot open {}", p.display()))?;
                (
                    p.display().to_string(),
                    Box::new(std::io::BufReader::new(file)),
                )
            }
            _ => {
                if ctx.stdin_is_terminal {
                    crate::stderr::say!(
                        "pgnkit: reading positions from stdin (give FENs or --input FILE, or pipe lines in; Ctrl-D ends)"
                    );
                }
                ("-".to_string(), Box::new(std::io::stdin().lock()))
            }
        };
        let mut bytes = Vec::new();
        let mut number = 0u64;
        while let Some(fits) = read_bounded_line(&mut reader, &mut bytes, MAX_POSITION_LINE)
            .with_context(|| format!("cannot read {name}"))?
        {
            number += 1;
            if !fits {
                each(Err(format!("{name}:{number}")))?;
                continue;
            }
            let text = String::from_utf8_lossy(&bytes);
            let text = text.trim();
            if text.is_empty() || text.starts_with('#') {
                continue;
            }
            each(Ok(PositionLine {
                input: number,
                source: format!("{name}:{number}"),
                text: text.to_string(),
            }))?;
        }
        Ok(())
    }
}

/// `FILE:LINE: the line is longer than N bytes; skipped`.
pub fn too_long(source: &str) -> String {
    format!("{source}: the line is longer than {MAX_POSITION_LINE} bytes; skipped")
}

/// Reads the next line into `line` (without its `\n`); `None` at the end of the input,
/// `Some(false)` when the line was longer than `max` bytes (it is read to its end but not
/// kept).
pub fn read_bounded_line(
    reader: &mut impl BufRead,
    line: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<Option<bool>> {
    line.clear();
    let mut fits = true;
    let mut read_any = false;
    loop {
        let available = match reader.fill_buf() {
            Ok(available) => available,
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err),
        };
        if available.is_empty() {
            return Ok(read_any.then_some(fits));
        }
        read_any = true;
        let newline = memchr::memchr(b'\n', available);
        let piece = available
            .get(..newline.unwrap_or(available.len()))
            .unwrap_or_default();
        if fits && line.len() + piece.len() <= max {
            line.extend_from_slice(piece);
        } else {
            fits = false;
            line.clear();
        }
        let used = piece.len() + usize::from(newline.is_some());
        reader.consume(used);
        if newline.is_some() {
            return Ok(Some(fits));
        }
    }
}
