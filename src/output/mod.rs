//! Bytes out: where data goes (stdout or `-o FILE`, written atomically), and the writers
//! of each format.

pub mod board;
pub mod findings;
pub mod parquet;
pub mod pgn;
pub mod pgn_export;
pub mod records;
pub mod report;
pub mod sink;
pub mod split_files;
pub mod standings;
pub mod summary;
pub mod summary_csv;

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::Context as _;

pub use sink::{Format, Sink, SinkFormat};

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
    /// it and renamed when complete, through symbolic links (the link stays, its target is
    /// replaced); `/dev/stdout`, `/dev/fd/1`, `/proc/self/fd/1` (and the same for stderr)
    /// write to the descriptor already open, as a shell redirect does; other special
    /// files (`/dev/fd/N`, a device, a pipe) are opened and written directly.
    pub fn create(path: Option<&Path>) -> anyhow::Result<Output> {
        let Some(path) = path else {
            return Ok(Output {
                writer: BufWriter::with_capacity(BUFFER_SIZE, Box::new(io::stdout())),
                pending: None,
                target: "stdout".to_string(),
            });
        };
        let target = path.display().to_string();
        let final_path = match Target::of(path)? {
            // The descriptor is already open: reopening its name can fail where writing
            // to it works (a file owned by another user, a socket).
            Target::Stream(stream) => {
                let writer: Box<dyn Write + Send> = match stream {
                    Stream::Stdout => Box::new(io::stdout()),
                    Stream::Stderr => Box::new(io::stderr()),
                };
                return Ok(Output {
                    writer: BufWriter::with_capacity(BUFFER_SIZE, writer),
                    pending: None,
                    target,
                });
            }
            Target::Direct => {
                // Appending writes where a shell redirect left the stream (`>` or `>>`).
                let file = fs::OpenOptions::new()
                    .append(true)
                    .open(path)
                    .with_context(|| format!("cannot open {target} for writing"))?;
                return Ok(Output {
                    writer: BufWriter::with_capacity(BUFFER_SIZE, Box::new(file)),
                    pending: None,
                    target,
                });
            }
            Target::Replace(final_path) => final_path,
        };
        let dir = match final_path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        let temp = tempfile::Builder::new()
            .prefix(".pgnkit-")
            .tempfile_in(dir)
            .map_err(|err| cannot_create(&target, dir, &err))?;
        let (file, temp_path) = temp.into_parts();
        crate::interrupt::track(&temp_path);
        Ok(Output {
            writer: BufWriter::with_capacity(BUFFER_SIZE, Box::new(file)),
            pending: Some((temp_path, final_path)),
            target,
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

/// `cannot create PATH: REASON`, without the temporary name that tempfile's error carries
/// (the user never gave it).
fn cannot_create(target: &str, dir: &Path, err: &io::Error) -> anyhow::Error {
    if err.kind() == io::ErrorKind::NotFound {
        anyhow::anyhow!(
            "cannot create {target}: the folder {} does not exist",
            dir.display()
        )
    } else {
        anyhow::anyhow!("cannot create {target}: {}", io::Error::from(err.kind()))
    }
}

/// What `-o PATH` is, decided before anything is opened.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Target {
    /// This process's stdout or stderr, by one of its names: written to the open
    /// descriptor.
    Stream(Stream),
    /// Written as it is: `/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N`, or anything that
    /// is neither a regular file nor a folder (a device, a pipe, a socket).
    Direct,
    /// A regular file, or none yet, at this path (symbolic links followed, as a shell
    /// redirect follows them): replaced by a complete file, by rename.
    Replace(PathBuf),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stream {
    Stdout,
    Stderr,
}

impl Stream {
    /// `/dev/stdout`, `/dev/fd/1` and `/proc/self/fd/1` (and the same for 2), as given.
    fn named(path: &Path) -> Option<Stream> {
        match path.as_os_str().as_encoded_bytes() {
            b"/dev/stdout" | b"/dev/fd/1" | b"/proc/self/fd/1" => Some(Stream::Stdout),
            b"/dev/stderr" | b"/dev/fd/2" | b"/proc/self/fd/2" => Some(Stream::Stderr),
            _ => None,
        }
    }
}

/// Symbolic links followed at most, as the kernel does (ELOOP past 40).
const MAX_LINKS: usize = 40;

impl Target {
    fn of(path: &Path) -> anyhow::Result<Target> {
        if let Some(stream) = Stream::named(path) {
            return Ok(Target::Stream(stream));
        }
        let mut current = path.to_path_buf();
        for _ in 0..=MAX_LINKS {
            // Decided by the name first: on Linux these are links to whatever the stream is
            // (a regular file when stdout is redirected), which must not be renamed over.
            if names_a_descriptor(&current) {
                return Ok(Target::Direct);
            }
            let meta = match fs::symlink_metadata(&current) {
                Ok(meta) => meta,
                // A new file, or one where an error (a missing folder) is reported on create.
                Err(_) => return Ok(Target::Replace(current)),
            };
            let kind = meta.file_type();
            if kind.is_symlink() {
                let link = fs::read_link(&current)
                    .with_context(|| format!("cannot read the link {}", current.display()))?;
                current = match current.parent() {
                    Some(parent) if link.is_relative() => parent.join(link),
                    _ => link,
                };
            } else if kind.is_file() {
                return Ok(Target::Replace(current));
            } else if kind.is_dir() {
                anyhow::bail!("cannot write to {}: it is a folder", path.display());
            } else {
                return Ok(Target::Direct);
            }
        }
        anyhow::bail!(
            "cannot write to {}: more than {MAX_LINKS} symbolic links",
            path.display()
        )
    }
}

/// `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` and `/proc/*/fd/N`: names of an open stream.
fn names_a_descriptor(path: &Path) -> bool {
    let text = path.as_os_str().as_encoded_bytes();
    if text == b"/dev/stdout" || text == b"/dev/stderr" || text.starts_with(b"/dev/fd/") {
        return true;
    }
    let mut parts = path.components().skip(1);
    matches!(
        (parts.next(), parts.next(), parts.next()),
        (Some(a), Some(_), Some(c)) if a.as_os_str() == "proc" && c.as_os_str() == "fd"
    ) && path.starts_with("/")
}

/// A temporary file is private (0600); the file it becomes keeps the permissions of the
/// file it replaces, or gets those of a new file (0666 less the umask), as a shell
/// redirect would. Failing to set them is not worth failing the run for.
fn set_final_permissions(temp: &Path, path: &Path) {
    let permissions = match fs::metadata(path) {
        Ok(existing) => existing.permissions(),
        Err(_) => {
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                fs::Permissions::from_mode(0o666 & !umask())
            }
            #[cfg(not(unix))]
            {
                return;
            }
        }
    };
    let _ = fs::set_permissions(temp, permissions);
}

/// The process's umask, read once: reading it means setting it, so `main` reads it
/// before any other thread exists, and the mask is put back at once.
#[cfg(unix)]
pub fn umask() -> u32 {
    use rustix::fs::Mode;
    static UMASK: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *UMASK.get_or_init(|| {
        let mask = rustix::process::umask(Mode::from_raw_mode(0o022));
        rustix::process::umask(mask);
        mask.as_raw_mode()
    })
}

/// Refuses, before anything is read or written, an output that is also an input (the
/// same file, by device and inode, links followed) or the same file as another output
/// of the command: either would lose data. `outputs` are (flag, path) pairs; special
/// files (`/dev/null` twice, `/dev/stdout`) are not files that could be lost.
pub fn refuse_shared_paths<'a>(
    inputs: impl IntoIterator<Item = (&'a str, &'a Path)>,
    outputs: &[(&str, Option<&Path>)],
) -> anyhow::Result<()> {
    let mut seen: Vec<(&str, &Path, FileId)> = Vec::new();
    let inputs: Vec<(&str, FileId)> = inputs
        .into_iter()
        .filter_map(|(name, path)| FileId::existing(path).map(|id| (name, id)))
        .collect();
    for &(flag, path) in outputs {
        let Some(path) = path else { continue };
        let Target::Replace(final_path) = Target::of(path)? else {
            continue;
        };
        let id = FileId::of(&final_path);
        if let Some((name, _)) = inputs.iter().find(|(_, input)| *input == id) {
            anyhow::bail!(
                "{flag} {} is also an input ({name}): write it to another file",
                path.display()
            );
        }
        if let Some((other_flag, other, _)) = seen.iter().find(|(_, _, other)| *other == id) {
            anyhow::bail!(
                "{other_flag} {} and {flag} {} are the same file: give each output its own",
                other.display(),
                path.display()
            );
        }
        seen.push((flag, path, id));
    }
    Ok(())
}

/// Which file a path names: device and inode where it exists, else the absolute path
/// its folder resolves to.
#[derive(Debug, Clone, PartialEq, Eq)]
enum FileId {
    Inode(u64, u64),
    New(PathBuf),
}

impl FileId {
    fn existing(path: &Path) -> Option<FileId> {
        let meta = fs::metadata(path).ok()?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Some(FileId::Inode(meta.dev(), meta.ino()))
        }
        #[cfg(not(unix))]
        {
            drop(meta);
            path.canonicalize().ok().map(FileId::New)
        }
    }

    fn of(path: &Path) -> FileId {
        if let Some(id) = FileId::existing(path) {
            return id;
        }
        let dir = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        FileId::New(match path.file_name() {
            Some(name) => dir.join(name),
            None => dir,
        })
    }
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
