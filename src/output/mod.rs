//! Bytes out: where data goes (stdout or `-o FILE`, written atomically), and the writers
//! of each format.

pub mod board;
pub mod findings;
pub mod pgn;
pub mod report;
pub mod summary;
pub mod terminal;

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::Context as _;

const BUFFER_SIZE: usize = 256 * 1024;

/// The destination of a command's data.
pub struct Output {
    writer: BufWriter<Box<dyn Write + Send>>,
    /// A regular file written under a temporary name, renamed into place by `finish`.
    pending: Option<(tempfile::TempPath, PathBuf)>,
    /// What write errors name: `stdout` or the path.
    target: String,
}

impl Output {
    /// Stdout, or FILE: a regular file (or a new one) is written to a temporary file beside
    /// it and renamed when complete; special files (`/dev/stdout`, a pipe) are written directly.
    pub fn create(path: Option<&Path>) -> anyhow::Result<Output> {
        let Some(path) = path else {
            return Ok(Output {
                writer: BufWriter::with_capacity(BUFFER_SIZE, Box::new(io::stdout())),
                pending: None,
                target: "stdout".to_string(),
            });
        };
        let is_special = fs::metadata(path).is_ok_and(|m| !m.is_file());
        if is_special {
            let file = fs::OpenOptions::new()
                .write(true)
                .open(path)
                .with_context(|| format!("cannot open {} for writing", path.display()))?;
            return Ok(Output {
                writer: BufWriter::with_capacity(BUFFER_SIZE, Box::new(file)),
                pending: None,
                target: path.display().to_string(),
            });
        }
        let dir = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        let temp = tempfile::Builder::new()
            .prefix(".pgnkit-")
            .tempfile_in(dir)
            .with_context(|| format!("cannot create a file in {}", dir.display()))?;
        let (file, temp_path) = temp.into_parts();
        crate::interrupt::track(&temp_path);
        Ok(Output {
            writer: BufWriter::with_capacity(BUFFER_SIZE, Box::new(file)),
            pending: Some((temp_path, path.to_path_buf())),
            target: path.display().to_string(),
        })
    }

    pub fn writer(&mut self) -> &mut BufWriter<Box<dyn Write + Send>> {
        &mut self.writer
    }

    /// Flushes, and moves a file written under a temporary name to its final name.
    pub fn finish(mut self) -> anyhow::Result<()> {
        let target = std::mem::take(&mut self.target);
        self.writer
            .flush()
            .with_context(|| format!("cannot write to {target}"))?;
        if let Some((temp, path)) = self.pending.take() {
            set_final_permissions(&temp, &path);
            crate::interrupt::untrack(&temp);
            temp.persist(&path)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        Ok(())
    }
}

impl Output {
    /// A write error that names the destination; its kind is kept (a closed pipe stays one).
    fn named(&self, err: io::Error) -> io::Error {
        io::Error::new(
            err.kind(),
            format!("cannot write to {}: {err}", self.target),
        )
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.writer.write(buf).map_err(|e| self.named(e))
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.writer.write_all(buf).map_err(|e| self.named(e))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer.flush().map_err(|e| self.named(e))
    }
}

/// A temporary file is private (0600); the file it becomes keeps the permissions of the
/// file it replaces, or gets the usual 0644, so a report or a clean PGN can be shared.
/// Failing to set them is not worth failing the run for.
fn set_final_permissions(temp: &Path, path: &Path) {
    let permissions = match fs::metadata(path) {
        Ok(existing) => existing.permissions(),
        Err(_) => {
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                fs::Permissions::from_mode(0o644)
            }
            #[cfg(not(unix))]
            {
                return;
            }
        }
    };
    let _ = fs::set_permissions(temp, permissions);
}

/// A closed pipe (`pgnkit fen big.pgn | head -1`) ends the run quietly.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
            || cause
                .downcast_ref::<serde_json::Error>()
                .is_some_and(|e| e.io_error_kind() == Some(io::ErrorKind::BrokenPipe))
            || cause
                .downcast_ref::<csv::Error>()
                .is_some_and(|e| matches!(e.kind(), csv::ErrorKind::Io(io) if io.kind() == io::ErrorKind::BrokenPipe))
    })
}
