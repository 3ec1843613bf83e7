//! The game splitter and tokeniser on any bytes, with small limits so that the limit paths
//! run too: it must never panic, every token and tag must lie inside its game's bytes, and
//! the games must not depend on the reader's buffer size (lines that cross its end take
//! the copy-first path) nor on games handed back with `Splitter::recycle`, nor on the
//! chunks of whole games the parallel pipeline cuts (each split on its own); and where
//! move numbers are kept as tokens, the games are the same but for those tokens, each said
//! by the token before it otherwise (`Token::number_follows`).
#![no_main]

use std::io::{BufRead, BufReader};
use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use pgnkit::input::{Chunker, Cut, Limits, Splitter};
use pgnkit::pgn::{InputProblemKind, RawGame, numbers_as_marks};

const LIMITS: Limits = Limits {
    max_game_bytes: 4096,
    max_depth: 8,
    move_numbers: false,
};

/// Read buffer sizes for the second pass, chosen by the input's length.
const CAPACITIES: [usize; 8] = [1, 2, 3, 7, 8, 9, 64, 4097];

/// Splits everything; each game is checked, written out with `Debug`, and handed back
/// when `recycle` is set. `None` for UTF-16/32 input, which is told from the first read
/// (as long as the reader gives it), not from lines.
fn split_all(reader: impl BufRead, len: usize, recycle: bool) -> Option<Vec<String>> {
    let mut splitter = Splitter::new(reader, Arc::from("fuzz"), LIMITS);
    let mut last_index = 0;
    let mut games = Vec::new();
    while let Ok(Some(game)) = splitter.next_game() {
        assert!(game.index > last_index, "games are numbered in order");
        last_index = game.index;
        if (game.problems.iter()).any(|p| p.kind == InputProblemKind::UnsupportedEncoding) {
            return None;
        }
        let bytes = game.bytes.len();
        for token in &game.tokens {
            assert!(token.span.start <= token.span.end && token.span.end as usize <= bytes);
        }
        for tag in &game.tags {
            assert!(tag.name.end as usize <= bytes && tag.value.end as usize <= bytes);
        }
        games.push(format!("{game:?}"));
        if recycle {
            splitter.recycle(&mut vec![game]);
        }
    }
    assert!(splitter.bytes_read() <= len as u64);
    Some(games)
}

fn games_of(mut splitter: Splitter<impl BufRead>, games: &mut Vec<RawGame>) {
    while let Ok(Some(game)) = splitter.next_game() {
        games.push(game);
    }
}

/// The games of the chunks the pipeline would cut (of `chunk` bytes, given up on past
/// `max`), each split on its own, numbered in order as the pipeline numbers them.
fn split_chunked(data: &[u8], chunk: usize, max: usize) -> Vec<String> {
    let mut chunker = Chunker::with_sizes(data, LIMITS, chunk, max);
    let mut games: Vec<RawGame> = Vec::new();
    // Each chunk is built in the last one's buffer, as the pipeline does.
    let mut buffer = Vec::new();
    loop {
        match chunker.next_piece(std::mem::take(&mut buffer)) {
            Ok(Some(Cut::Chunk(c))) => {
                games_of(c.splitter(Arc::from("fuzz"), LIMITS), &mut games);
                buffer = c.into_buffer();
            }
            Ok(Some(Cut::Rest(rest))) => {
                let reader = chunker.into_reader();
                games_of(rest.splitter(reader, Arc::from("fuzz"), LIMITS), &mut games);
                break;
            }
            _ => break,
        }
    }
    games
        .into_iter()
        .enumerate()
        .map(|(i, mut game)| {
            game.index = i as u64 + 1;
            format!("{game:?}")
        })
        .collect()
}

/// The games with move numbers kept, each turned into the game without: the numbers'
/// tokens dropped, the token before each marked. A game cut at a limit may end in a
/// word cut through and dropped: whether a number followed its last token kept is said
/// in neither.
fn numbers_left_out(data: &[u8]) -> Vec<String> {
    let keeping = Limits {
        move_numbers: true,
        ..LIMITS
    };
    let mut splitter = Splitter::new(data, Arc::from("fuzz"), keeping);
    let mut games = Vec::new();
    while let Ok(Some(mut game)) = splitter.next_game() {
        assert!(
            game.tokens.iter().all(|t| !t.number_follows),
            "a mark where numbers are tokens"
        );
        game.tokens = numbers_as_marks(&game.tokens);
        games.push(game);
    }
    games.iter_mut().for_each(unmark_last_at_limit);
    games.iter().map(|game| format!("{game:?}")).collect()
}

/// Clears the mark of the last token of a game cut at a limit (`numbers_left_out`).
fn unmark_last_at_limit(game: &mut RawGame) {
    let at_limit = (game.problems.iter()).any(|p| p.kind == InputProblemKind::LimitExceeded);
    if let (true, Some(last)) = (at_limit, game.tokens.last_mut()) {
        last.number_follows = false;
    }
}

fuzz_target!(|data: &[u8]| {
    let whole = split_all(data, data.len(), false);
    let capacity = CAPACITIES[data.len() % CAPACITIES.len()];
    let reader = BufReader::with_capacity(capacity, data);
    let pieces = split_all(reader, data.len(), true);
    let (Some(whole), Some(pieces)) = (whole, pieces) else {
        return;
    };
    assert_eq!(
        whole, pieces,
        "read {capacity} bytes at a time, games recycled"
    );
    let chunk = 1 + data.len() % 97;
    let max = [chunk, 300, 1 << 20][data.len() % 3];
    assert_eq!(
        whole,
        split_chunked(data, chunk, max),
        "chunks of {chunk} bytes, given up on past {max}"
    );
    let mut splitter = Splitter::new(data, Arc::from("fuzz"), LIMITS);
    let mut unmarked = Vec::new();
    while let Ok(Some(mut game)) = splitter.next_game() {
        unmark_last_at_limit(&mut game);
        unmarked.push(format!("{game:?}"));
    }
    assert_eq!(
        unmarked,
        numbers_left_out(data),
        "move numbers kept as tokens"
    );
});
