//! Counting: per-game figures (one CSV row) and the mergeable summary.

pub mod columns;
pub mod row;
pub mod summary;

pub use row::StatsRow;
pub use summary::Summary;
