//! The game model shared by the reading and the chess: a game's bytes as the splitter
//! found them (`RawGame`), its tag pairs and movetext tokens as `Span`s into those bytes,
//! the defects of its bytes (`InputProblem`), and the decoding of its text (`TextDecoder`).
//! `input` builds these, `rules` reads them; neither depends on the other, and this
//! module depends on no other part of the crate.

mod game;
mod span;
mod text;

pub use game::{
    InputProblem, InputProblemKind, LONE_CR, RawGame, RawTag, Token, TokenKind, numbers_as_marks,
    restore_lone_crs,
};
pub use span::Span;
pub use text::{TextDecoder, UnknownEncoding};
