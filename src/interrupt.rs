//! Ctrl-C: the first SIGINT asks the pipeline to stop after the game in hand, so the run
//! ends with exit code 130 and an `-o FILE` still under its temporary name is removed
//! (never renamed into place). A run that does not stop within `GRACE` (a read blocked on
//! a silent stdin) is ended by the handler itself, after removing those temporary files.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Temporary output files that must not outlive an interrupted run.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// How long a run may take to wind down on its own after Ctrl-C.
const GRACE: Duration = Duration::from_millis(500);

/// The error a run stopped by Ctrl-C ends with (mapped to exit code 130).
#[derive(Debug, thiserror::Error)]
#[error("interrupted")]
pub struct Interrupted;

/// Installs the SIGINT/SIGTERM handler. A failure (a handler already set by an embedding
/// program) leaves the default behaviour, which still never renames a partial file.
pub fn install() {
    let _ = ctrlc::set_handler(|| {
        INTERRUPTED.store(true, Ordering::SeqCst);
        std::thread::sleep(GRACE);
        remove_pending();
        crate::stderr::say!("pgnkit: interrupted");
        std::process::exit(130);
    });
}

/// Whether Ctrl-C was pressed.
pub fn is_interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// `Err(Interrupted)` once Ctrl-C was pressed: the check the pipeline makes per game.
pub fn check() -> Result<(), Interrupted> {
    if is_interrupted() {
        Err(Interrupted)
    } else {
        Ok(())
    }
}

/// Whether an error chain ends in `Interrupted`.
pub fn is_interruption(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| cause.is::<Interrupted>())
}

/// Records a temporary output file to remove if the run is ended by force.
pub fn track(path: &Path) {
    if let Ok(mut pending) = PENDING.lock() {
        pending.push(path.to_path_buf());
    }
}

/// Forgets a temporary file that was renamed into place or removed.
pub fn untrack(path: &Path) {
    if let Ok(mut pending) = PENDING.lock() {
        pending.retain(|p| p != path);
    }
}

fn remove_pending() {
    if let Ok(pending) = PENDING.lock() {
        for path in pending.iter() {
            let _ = std::fs::remove_file(path);
        }
    }
}
