//! Bytes in: which files an INPUT names, opening them (decompressed by magic bytes), and
//! splitting the byte stream into games that carry their file, index and line; a Parquet
//! file's rows are games too (`table`). The games
//! are the model of `pgn`; this module knows nothing of chess (`rules`).

mod chunk;
mod cut;
mod decompress;
mod encoding;
mod line_ends;
mod sources;
mod split;
mod table;

pub use chunk::{CHUNK_BYTES, Chunk, Chunker, MAX_CHUNK_BYTES, Piece, Rest};
pub use decompress::{Decoded, Decompression, Opened, open_decoded, open_source, open_source_with};
pub use sources::{Listing, Source, expand_inputs};
pub use split::{Limits, Splitter, keep_spares};
pub use table::{RowMaker, TableGames, TableRows};
