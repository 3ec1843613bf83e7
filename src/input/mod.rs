//! Bytes in: which files an INPUT names, opening them (decompressed by magic bytes), and
//! splitting the byte stream into games that carry their file, index and line.

mod chunk;
mod decompress;
mod encoding;
mod game;
mod line_ends;
mod sources;
mod split;

pub use chunk::{
    CHUNK_BYTES, COMPRESSED_CHUNK_BYTES, Chunk, Chunker, MAX_CHUNK_BYTES, Piece, Rest,
};
pub use decompress::{Decoded, open_decoded};
pub use encoding::TextDecoder;
pub use game::{InputProblem, InputProblemKind, RawGame, RawTag, Token, TokenKind};
pub use sources::{Listing, Source, expand_inputs};
pub use split::{Limits, Splitter, keep_spares};
