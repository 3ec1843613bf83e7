//! Counting: per-game figures (one CSV row) and the mergeable summary.

mod counts;

pub use counts::MoveCounts;
