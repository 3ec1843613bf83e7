//! criterion benchmarks of the per-game hot path: splitting (with the token and line
//! work), the reading turn's cut into chunks (from memory, and from a plain file buffered
//! as in line or read straight into the chunks as with several threads), the replay with
//! every legal-path check (with the stats figures, and without them as `validate`
//! replays), the bare shakmaty replay it is compared with, repetition
//! tracking on its own, the tags (decoded, looked up and checked), the mate analysis of
//! the final positions (every side, or only what a verdict reads), and `convert`'s walk
//! over every line (reading each move, or with the main line's moves known from the
//! replay, as `convert` has them); the output side: a stats row made and written as CSV
//! or as Parquet (gathered and encoded), each game counted into the stats summary, the
//! FEN of every ply as `fen --every-ply` writes it, and a `.zst` read decompressed in
//! line or ahead (on a thread of its own, as with several threads).
//!
//! Input: `testdata/bench/lichess_manwithavan.pgn` (289 real games), or the file named by
//! `PGNKIT_BENCH_PGN`. Run: `cargo bench --bench hot_path`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    reason = "a benchmark stops loudly on bad input"
)]

use std::hint::black_box;
use std::io::{Cursor, Read as _};
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pgnkit::input::{
    CHUNK_BYTES, Chunker, Cut, Decompression, Limits, MAX_CHUNK_BYTES, Opened, Source, Splitter,
    open_source_with,
};
use pgnkit::output::records::encode;
use pgnkit::output::{Format, SinkFormat};
use pgnkit::pgn::TextDecoder;
use pgnkit::pgn::{RawGame, TokenKind};
use pgnkit::rules::draw::DrawTracker;
use pgnkit::rules::fen::style::{FenStyle, RankCache};
use pgnkit::rules::mate_check::{self, MateCheck, Wanted};
use pgnkit::rules::replay::movetext::{walk, walk_known};
use pgnkit::rules::result::GameResult;
use pgnkit::rules::tags::{Tags, checks};
use pgnkit::rules::{ReplayOptions, replay};
use pgnkit::stats::{StatsRow, Summary};
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Move, Position};

fn input() -> Vec<u8> {
    let path = std::env::var("PGNKIT_BENCH_PGN").unwrap_or_else(|_| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/testdata/bench/lichess_manwithavan.pgn"
        )
        .to_string()
    });
    std::fs::read(&path).unwrap_or_else(|err| panic!("cannot read {path}: {err}"))
}

fn split(bytes: &[u8]) -> Vec<RawGame> {
    let mut splitter = Splitter::new(Cursor::new(bytes), Arc::from("bench"), Limits::default());
    let mut games = Vec::new();
    while let Some(game) = splitter.next_game().unwrap() {
        games.push(game);
    }
    games
}

/// A PGN source opened as the pipeline opens it, decompressing where `decompression` says.
fn open_text(source: &Source, decompression: Decompression) -> pgnkit::input::Decoded {
    let counter = Arc::new(AtomicU64::new(0));
    match open_source_with(source, Limits::default(), counter, decompression).unwrap() {
        Opened::Text(reader) => reader,
        Opened::Table(_) => panic!("{} opens as a table", source.name()),
    }
}

/// The pieces `reader` is cut into, each chunk's buffer handed back for the next.
fn chunk_all<R: std::io::BufRead>(reader: R) -> usize {
    let mut chunker = Chunker::with_sizes(reader, Limits::default(), CHUNK_BYTES, MAX_CHUNK_BYTES);
    let (mut pieces, mut buffer) = (0, Vec::new());
    while let Some(piece) = chunker.next_piece(std::mem::take(&mut buffer)).unwrap() {
        pieces += 1;
        if let Cut::Chunk(chunk) = piece {
            buffer = chunk.into_buffer();
        }
    }
    pieces
}

/// The main-line moves of each game, found the way the replay finds them.
fn main_lines(games: &[RawGame]) -> Vec<Vec<Move>> {
    games.iter().map(bare_replay).collect()
}

/// Parses and plays the main line with shakmaty alone, up to the first bad move.
fn bare_replay(game: &RawGame) -> Vec<Move> {
    let mut pos = Chess::default();
    let mut moves = Vec::new();
    for text in main_line_words(game) {
        let Ok(san) = SanPlus::from_ascii(text) else {
            break;
        };
        let Ok(m) = san.san.to_move(&pos) else { break };
        pos.play_unchecked(m);
        moves.push(m);
    }
    moves
}

fn main_line_words(game: &RawGame) -> impl Iterator<Item = &[u8]> {
    let mut depth = 0u32;
    game.tokens.iter().filter_map(move |token| {
        match token.kind {
            TokenKind::VariationStart => depth += 1,
            TokenKind::VariationEnd => depth = depth.saturating_sub(1),
            TokenKind::Word if depth == 0 => return Some(game.token_text(token)),
            _ => {}
        }
        None
    })
}

fn benches(c: &mut Criterion) {
    let bytes = input();
    let games = split(&bytes);
    let lines = main_lines(&games);
    let options = ReplayOptions::default();

    let mut group = c.benchmark_group("hot_path");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("split", |b| b.iter(|| split(black_box(&bytes)).len()));
    // The reading turn of a parallel run: the input cut into chunks of whole games, each
    // chunk's buffer handed back for the next (what the workers wait on, one at a time).
    group.bench_function("chunk", |b| {
        b.iter(|| chunk_all(Cursor::new(black_box(&bytes))))
    });
    // The same turn from a plain file as the parallel path opens it (read straight into
    // the chunks) and as `--threads 1` buffers it (through 64 KiB, copied once more).
    let dir = tempfile::tempdir().unwrap();
    let plain = Source::File {
        name: "bench.pgn".into(),
        path: dir.path().join("bench.pgn"),
    };
    if let Source::File { path, .. } = &plain {
        std::fs::write(path, &bytes).unwrap();
    }
    for (name, decompression) in [
        ("chunk_file_buffered", Decompression::InLine),
        ("chunk_file_read_past", Decompression::Ahead),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| chunk_all(open_text(&plain, decompression)))
        });
    }
    group.bench_function("replay", |b| {
        b.iter(|| {
            games
                .iter()
                .map(|game| replay(black_box(game), &options, &mut ()).plies)
                .sum::<u32>()
        })
    });
    // `validate` below `--level info`: no stats figures.
    let verdict_only = ReplayOptions {
        figures: false,
        ..ReplayOptions::default()
    };
    group.bench_function("replay_verdict_only", |b| {
        b.iter(|| {
            games
                .iter()
                .map(|game| replay(black_box(game), &verdict_only, &mut ()).plies)
                .sum::<u32>()
        })
    });
    group.bench_function("tags", |b| {
        b.iter(|| {
            games
                .iter()
                .map(|game| {
                    let tags = Tags::decode(black_box(game), &TextDecoder::Auto);
                    let found = ["Result", "FEN", "Variant", "WhiteElo"]
                        .iter()
                        .filter(|name| tags.get(name).is_some())
                        .count();
                    found + checks::check(&tags, false).len()
                })
                .sum::<usize>()
        })
    });
    // The final positions that are no mate or stalemate, with their recorded winners.
    // (Answers the gate lets through are cached for the run, as they are in one.)
    let finals: Vec<(Chess, Option<shakmaty::Color>)> = games
        .iter()
        .filter_map(|game| {
            let report = replay(game, &options, &mut ());
            let pos = report.final_pos?;
            let winner = GameResult::parse(&report.result).and_then(GameResult::winner);
            (!pos.is_checkmate() && !pos.is_stalemate()).then_some((pos, winner))
        })
        .collect();
    let standard = shakmaty::CastlingMode::Standard;
    group.bench_function("mate_check_both", |b| {
        b.iter(|| {
            finals
                .iter()
                .filter(|(pos, _)| {
                    mate_check::analyse(black_box(pos), standard, MateCheck::Fast).is_dead()
                })
                .count()
        })
    });
    group.bench_function("mate_check_verdict_only", |b| {
        b.iter(|| {
            finals
                .iter()
                .filter(|(pos, winner)| {
                    let wanted = Wanted::DeadOr(*winner);
                    mate_check::analyse_wanted(black_box(pos), standard, MateCheck::Fast, wanted)
                        .is_dead()
                })
                .count()
        })
    });
    group.bench_function("bare_replay", |b| {
        b.iter(|| {
            games
                .iter()
                .map(|game| bare_replay(black_box(game)).len())
                .sum::<usize>()
        })
    });
    group.bench_function("repetition", |b| {
        b.iter(|| {
            let mut most = 0;
            for moves in &lines {
                let mut pos = Chess::default();
                let mut draws = DrawTracker::default();
                draws.start(&pos);
                for (ply, &m) in (1u32..).zip(moves) {
                    pos.play_unchecked(m);
                    draws.after_move(ply, m, &pos, false);
                }
                most = most.max(draws.max_repetition);
            }
            black_box(most)
        })
    });
    let start = Chess::default();
    group.bench_function("walk", |b| {
        b.iter(|| {
            games
                .iter()
                .map(|game| walk(black_box(game), &start, &options).count())
                .sum::<usize>()
        })
    });
    group.bench_function("walk_known", |b| {
        b.iter(|| {
            games
                .iter()
                .zip(&lines)
                .map(|(game, moves)| walk_known(black_box(game), &start, &options, moves).count())
                .sum::<usize>()
        })
    });
    let reports: Vec<_> = games
        .iter()
        .map(|game| replay(game, &options, &mut ()))
        .collect();
    group.bench_function("stats_rows_csv", |b| {
        b.iter(|| {
            reports
                .iter()
                .map(|report| {
                    let row = StatsRow::new(black_box(report), &[]);
                    encode(&row, Format::Csv, &[])
                        .unwrap()
                        .as_bytes()
                        .map_or(0, <[u8]>::len)
                })
                .sum::<usize>()
        })
    });
    // Each game counted into the `stats` summary, as the writer thread counts every row.
    group.bench_function("stats_summary", |b| {
        b.iter(|| {
            let mut summary = Summary::default();
            for report in &reports {
                summary.add_game(black_box(report));
            }
            summary.get("games", "games")
        })
    });
    // The same rows as one Parquet file: each row's cells made on the worker, gathered
    // by column and the row group encoded (in line, as at `--threads 1`).
    group.bench_function("stats_rows_parquet", |b| {
        b.iter(|| {
            let mut writer = SinkFormat::new(Format::Parquet, false, 1)
                .unwrap()
                .open_records::<StatsRow, _>(Vec::new(), &[])
                .unwrap();
            for report in &reports {
                let row = StatsRow::new(black_box(report), &[]);
                let cells = encode(&row, Format::Parquet, &[]).unwrap();
                writer.write_encoded(&cells).unwrap();
            }
            writer.finish().unwrap().len()
        })
    });
    let style = FenStyle::default();
    group.bench_function("fen_every_ply", |b| {
        let mut text = Vec::new();
        b.iter(|| {
            let mut bytes = 0;
            for moves in &lines {
                text.clear();
                let mut ranks = RankCache::default();
                let mut pos = Chess::default();
                style.write_bytes(&pos, &mut ranks, &mut text);
                for &m in moves {
                    pos.play_unchecked(m);
                    style.write_bytes(&pos, &mut ranks, &mut text);
                    text.push(b'\n');
                }
                bytes += black_box(&text).len();
            }
            bytes
        })
    });
    let zst = dir.path().join("bench.pgn.zst");
    std::fs::write(&zst, zstd::encode_all(bytes.as_slice(), 3).unwrap()).unwrap();
    let source = Source::File {
        name: "bench.pgn.zst".into(),
        path: zst,
    };
    for (name, decompression) in [
        ("zst_in_line", Decompression::InLine),
        ("zst_ahead", Decompression::Ahead),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut reader = open_text(&source, decompression);
                let mut all = Vec::new();
                reader.read_to_end(&mut all).unwrap();
                all.len()
            })
        });
    }
    group.finish();
}

criterion_group!(hot_path, benches);
criterion_main!(hot_path);
