//! (tests below)
