//! The only place that builds a progress bar: on stderr, measured in input bytes, hidden
//! when stderr is not a terminal or under `--quiet`.

use std::time::Duration;

use crate::terminal::thousands;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress bar, or nothing.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar over `total_bytes` (a spinner when unknown), shown only when `visible`.
    pub fn new(total_bytes: u64, visible: bool) -> Progress {
        if !visible {
            return Progress { bar: None };
        }
        let bar = if total_bytes > 0 {
            ProgressBar::with_draw_target(Some(total_bytes), ProgressDrawTarget::stderr_with_hz(5))
        } else {
            ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(5))
        };
        let template = if total_bytes > 0 {
            "{spinner} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} {msg} ETA {eta}"
        } else {
            "{spinner} [{elapsed_precise}] {bytes} {msg}"
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress { bar: Some(bar) }
    }

    /// Bytes of input consumed so far and games read so far.
    pub fn update(&self, bytes: u64, games: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(bytes);
            let secs = bar.elapsed().as_secs_f64();
            if secs > 0.0 {
                bar.set_message(format!(
                    "{} {}, {} games/s",
                    thousands(games),
                    if games == 1 { "game" } else { "games" },
                    thousands((games as f64 / secs).round() as u64)
                ));
            }
        }
    }

    /// Removes the bar once the run is complete.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }

    /// Leaves the bar where it stopped (the run failed).
    pub fn abandon(&self) {
        if let Some(bar) = &self.bar {
            bar.abandon();
        }
    }
}
