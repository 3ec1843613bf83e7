//! Positions given as arguments or read one per line (check-fen, pgn).

use std::io::BufRead;
use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::cli::Context;

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

impl PositionArgs {
    /// Refuses an `-o` that is the `--input` file, before either is opened.
    pub fn refuse_as_output(&self, output: Option<&Path>) -> anyhow::Result<()> {
        let name = self.input.as_ref().map(|p| p.display().to_string());
        let input = name.as_deref().zip(self.input.as_deref());
        crate::output::refuse_shared_paths(input, &[("-o", output)])
    }

    /// Every position line, in order.
    pub fn lines(&self, ctx: &Context) -> anyhow::Result<Vec<PositionLine>> {
        if !self.fens.is_empty() {
            return Ok(self
                .fens
                .iter()
                .enumerate()
                .map(|(i, fen)| PositionLine {
                    input: i as u64 + 1,
                    source: format!("argument {}", i + 1),
                    text: fen.trim().to_string(),
                })
                .collect());
        }
        let (name, reader): (String, Box<dyn BufRead>) = match &self.input {
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
                    crate::say!(
                        "pgnkit: reading positions from stdin (give FENs or --input FILE, or pipe lines in; Ctrl-D ends)"
                    );
                }
                ("-".to_string(), Box::new(std::io::stdin().lock()))
            }
        };
        let mut lines = Vec::new();
        for (i, line) in reader.split(b'\n').enumerate() {
            let bytes = line.with_context(|| format!("cannot read {name}"))?;
            let text = String::from_utf8_lossy(&bytes);
            let text = text.trim();
            if text.is_empty() || text.starts_with('#') {
                continue;
            }
            let number = i as u64 + 1;
            lines.push(PositionLine {
                input: number,
                source: format!("{name}:{number}"),
                text: text.to_string(),
            });
        }
        Ok(lines)
    }
}
