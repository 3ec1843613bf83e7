//! Counting: per-game figures (one CSV row) and the mergeable summary.

pub mod annotations;
mod counts;
pub mod row;
pub mod summary;

pub use counts::MoveCounts;
pub use row::StatsRow;
pub use summary::Summary;
