//! The reading with one thread (and for a `--games` range, which stops at its end).

use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use super::batch::{Batch, InputError};
use super::{Message, Pipeline, ReadCounts};
use crate::input::{GameStream, Source};
use crate::pgn::RawGame;

/// The reading with one thread: opens each source in turn, splits it into games and emits
/// batches of the games picked. `emit` may hand back games already written, for their
/// buffers' reuse.
pub(super) fn read_all(
    sources: &[Source],
    pipeline: &Pipeline,
    counter: Arc<AtomicU64>,
    emit: &mut impl FnMut(Message) -> anyhow::Result<Option<Vec<RawGame>>>,
) -> anyhow::Result<ReadCounts> {
    let mut global_index = 0u64;
    let mut sources_reached = 0u64;
    let mut batch = Batch::new();
    'sources: for source in sources {
        if pipeline
            .games
            .is_some_and(|range| range.is_past(global_index))
        {
            break;
        }
        sources_reached += 1;
        let mut stream = match GameStream::open(source, pipeline.limits, counter.clone()) {
            Ok(games) => games,
            Err(err) => {
                if !batch.is_empty() {
                    emit(Message::Games(batch.take()))?;
                }
                emit(Message::InputError(InputError::open(source, err)))?;
                continue;
            }
        };
        super::batch::say_warnings(stream.warnings());
        loop {
            crate::interrupt::check()?;
            match stream.next_game() {
                Ok(Some(mut game)) => {
                    if pipeline
                        .games
                        .is_some_and(|range| range.is_past(global_index))
                    {
                        break 'sources;
                    }
                    game.global_index = global_index;
                    global_index += 1;
                    if !pipeline.picks(game.global_index) {
                        continue;
                    }
                    batch.push(game);
                    if batch.is_full()
                        && let Some(mut spent) = emit(Message::Games(batch.take()))?
                    {
                        stream.recycle(&mut spent);
                    }
                }
                Ok(None) => break,
                Err(err) => {
                    if !batch.is_empty() {
                        emit(Message::Games(batch.take()))?;
                    }
                    emit(Message::InputError(InputError::read(source, err)))?;
                    break;
                }
            }
        }
    }
    if !batch.is_empty() {
        emit(Message::Games(batch.into_games()))?;
    }
    Ok(ReadCounts {
        sources: sources_reached,
        games: global_index,
    })
}
