//! FEN and EPD: the one reader of FEN text (`epd`), the checks and the nearest legal
//! position (`check`), a game's start position from its tags (`setup`), and writing a
//! position in the conventions users ask for (`style`).

pub mod check;
pub mod epd;
pub mod setup;
pub mod style;
