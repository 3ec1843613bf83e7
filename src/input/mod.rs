//! Bytes in: which files an INPUT names, opening them (decompressed by magic bytes), and
//! splitting the byte stream into games that carry their file, index and line; a Parquet
//! file's rows are games too (`table`). A source is read game by game on one thread
//! (`GameStream`), or in pieces that make their own games on the worker that takes them
//! (`PieceStream`, `Piece`): the pipeline knows no format. The games are the model of
//! `pgn`; this module knows nothing of chess (`rules`).

mod chunk;
mod cut;
mod decompress;
mod encoding;
mod games;
mod line_ends;
mod pieces;
mod sources;
mod split;
mod table;

pub use chunk::{CHUNK_BYTES, Chunk, Chunker, Cut, MAX_CHUNK_BYTES, Rest};
pub use decompress::{Decoded, Decompression, Opened, open_decoded, open_source, open_source_with};
pub use games::GameStream;
pub use pieces::{MAX_REUSED_BUFFER, Piece, PieceBounds, PieceStream, Workbench};
pub use sources::{Listing, Source, expand_inputs};
pub use split::{Limits, Splitter, keep_spares};
pub use table::TableGames;
