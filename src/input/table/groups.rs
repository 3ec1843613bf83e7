//! A table's row groups decoded into batches of cells: one group at a time by the
//! reading thread (`InLine`), or, for the workers, several groups at once each on a
//! thread of its own (`Ahead`), so that decompression and decoding, most of a table's
//! reading, are not done one at a time in the reading turn. Batches still come out in
//! the file's order, and each decoder holds a bounded number of them.

use super::at_file::AtFile;
use std::collections::VecDeque;
use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::JoinHandle;

use parquet::column::reader::ColumnReader;
use parquet::data_type::ByteArray;
use parquet::file::reader::{FileReader, SerializedFileReader};

use super::cells::{ColumnCells, Values, read_cells};
use super::footer::guarded;
use super::{BATCH_BYTES, BATCH_ROWS, Wanted, invalid};

/// Decoded batches a group's decoder may hold before the reading takes them.
const BATCHES_AHEAD: usize = 1;

/// One row group being decoded in batches.
struct GroupBatches {
    readers: Vec<ColumnReader>,
    rows_left: u64,
    /// The file's row number of the next row (for messages).
    row: u64,
    batch_size: usize,
}

impl GroupBatches {
    /// Opens row group `group`, whose first row is row `first_row` of the file.
    fn open(
        reader: &SerializedFileReader<AtFile>,
        group: usize,
        first_row: u64,
        wanted: &[Wanted],
    ) -> io::Result<GroupBatches> {
        let row_group = reader
            .get_row_group(group)
            .map_err(|err| invalid(format!("row group {}: {err}", group + 1)))?;
        let rows_left = u64::try_from(row_group.metadata().num_rows()).unwrap_or(0);
        let readers = wanted
            .iter()
            .map(|wanted| {
                row_group
                    .get_column_reader(wanted.index)
                    .map_err(|err| invalid(format!("column `{}`: {err}", wanted.name)))
            })
            .collect::<io::Result<_>>()?;
        Ok(GroupBatches {
            readers,
            rows_left,
            row: first_row,
            batch_size: BATCH_ROWS,
        })
    }

    /// The next batch of the group into `batch` (its vectors reused), and its rows;
    /// `None` after the group's last row.
    fn next(
        &mut self,
        wanted: &[Wanted],
        mut batch: Vec<ColumnCells>,
    ) -> io::Result<Option<Batch>> {
        if self.rows_left == 0 {
            return Ok(None);
        }
        let rows = usize::try_from(self.rows_left)
            .unwrap_or(usize::MAX)
            .min(self.batch_size);
        batch.resize_with(wanted.len(), ColumnCells::default);
        let mut bytes = 0;
        for ((wanted, reader), cells) in wanted.iter().zip(&mut self.readers).zip(&mut batch) {
            let read = read_cells(reader, wanted, rows, cells)
                .map_err(|err| invalid(format!("column `{}`: {err}", wanted.name)))?;
            if read != rows {
                return Err(invalid(format!(
                    "column `{}` ends at row {}, before its row group",
                    wanted.name,
                    self.row + read as u64
                )));
            }
            if let Values::Text(values) = &cells.values {
                bytes += values.iter().map(ByteArray::len).sum::<usize>();
            }
        }
        // Many large cells: smaller batches; small ones: back to full batches.
        self.batch_size = if bytes > BATCH_BYTES {
            (rows / 2).max(1)
        } else {
            (self.batch_size * 2).min(BATCH_ROWS)
        };
        self.rows_left -= rows as u64;
        self.row += rows as u64;
        Ok((rows > 0).then_some((batch, rows)))
    }
}

/// The row groups of one file, decoded in order into batches.
pub(super) struct Groups {
    reader: Arc<SerializedFileReader<AtFile>>,
    wanted: Arc<[Wanted]>,
    counter: Arc<AtomicU64>,
    /// The next group to open, and the file's row number of its first row.
    next_group: usize,
    next_first_row: u64,
    decoding: Decoding,
}

enum Decoding {
    /// The group being decoded by the caller.
    InLine(Option<GroupBatches>),
    /// Up to `decoders` groups decoded at once, each on a thread of its own, the first
    /// of them the one being read.
    Ahead {
        decoders: usize,
        running: VecDeque<Decoder>,
    },
}

/// A decoded batch: each wanted column's cells, and the rows.
type Batch = (Vec<ColumnCells>, usize);

/// A row group decoded on a thread of its own: its batches, in order, then its error if
/// it ends on one.
struct Decoder {
    batches: Option<crossbeam_channel::Receiver<io::Result<Batch>>>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for Decoder {
    /// A decoder whose batches are no longer wanted stops at its next one: it is waited
    /// for here, so that no thread of the run outlives it.
    fn drop(&mut self) {
        self.batches = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Groups {
    pub(super) fn new(
        reader: SerializedFileReader<AtFile>,
        wanted: Arc<[Wanted]>,
        counter: Arc<AtomicU64>,
    ) -> Groups {
        Groups {
            reader: Arc::new(reader),
            wanted,
            counter,
            next_group: 0,
            next_first_row: 0,
            decoding: Decoding::InLine(None),
        }
    }

    /// Decodes up to `decoders` row groups at once from now on, each on a thread of its
    /// own (none with fewer than 1).
    pub(super) fn decode_ahead(&mut self, decoders: usize) {
        if decoders > 0 {
            self.decoding = Decoding::Ahead {
                decoders,
                running: VecDeque::new(),
            };
        }
    }

    /// The next batch of the file (its cells in `batch`, reused where decoded in line),
    /// and its rows; `None` after the last row group.
    pub(super) fn next_batch(&mut self, batch: Vec<ColumnCells>) -> io::Result<Option<Batch>> {
        let mut reuse = Some(batch);
        loop {
            match &mut self.decoding {
                Decoding::InLine(current) => {
                    if let Some(group) = current {
                        let batch = reuse.take().unwrap_or_default();
                        if let Some(next) = guarded(|| group.next(&self.wanted, batch))?? {
                            return Ok(Some(next));
                        }
                        *current = None;
                        continue;
                    }
                    let Some((group, first_row)) = self.take_group() else {
                        return Ok(None);
                    };
                    let opened = guarded(|| {
                        GroupBatches::open(&self.reader, group, first_row, &self.wanted)
                    })??;
                    if let Decoding::InLine(current) = &mut self.decoding {
                        *current = Some(opened);
                    }
                }
                Decoding::Ahead { decoders, running } => {
                    while running.len() < *decoders {
                        let Some((group, first_row)) = take_group(
                            &self.reader,
                            &self.counter,
                            &mut self.next_group,
                            &mut self.next_first_row,
                        ) else {
                            break;
                        };
                        running.push_back(spawn_decoder(
                            self.reader.clone(),
                            self.wanted.clone(),
                            group,
                            first_row,
                        )?);
                    }
                    let Some(front) = running.front_mut() else {
                        return Ok(None);
                    };
                    match front.batches.as_ref().map(|rx| rx.recv()) {
                        Some(Ok(Ok(next))) => return Ok(Some(next)),
                        Some(Ok(Err(err))) => {
                            // The groups after an error are not read.
                            running.clear();
                            self.next_group = usize::MAX;
                            return Err(err);
                        }
                        // The group is done.
                        Some(Err(_)) | None => {
                            running.pop_front();
                        }
                    }
                }
            }
        }
    }

    /// The next row group to open and its first row, its compressed bytes counted as
    /// read; `None` after the last.
    fn take_group(&mut self) -> Option<(usize, u64)> {
        take_group(
            &self.reader,
            &self.counter,
            &mut self.next_group,
            &mut self.next_first_row,
        )
    }
}

fn take_group(
    reader: &SerializedFileReader<AtFile>,
    counter: &AtomicU64,
    next_group: &mut usize,
    next_first_row: &mut u64,
) -> Option<(usize, u64)> {
    let group = *next_group;
    let meta = reader.metadata().row_groups().get(group)?;
    counter.fetch_add(
        u64::try_from(meta.compressed_size()).unwrap_or(0),
        Ordering::Relaxed,
    );
    let first_row = *next_first_row;
    *next_group += 1;
    *next_first_row += u64::try_from(meta.num_rows()).unwrap_or(0);
    Some((group, first_row))
}

/// Starts decoding row group `group` on a thread of its own.
fn spawn_decoder(
    reader: Arc<SerializedFileReader<AtFile>>,
    wanted: Arc<[Wanted]>,
    group: usize,
    first_row: u64,
) -> io::Result<Decoder> {
    let (tx, rx) = crossbeam_channel::bounded(BATCHES_AHEAD);
    let thread = std::thread::Builder::new()
        .name(format!("pgnkit-table-{group}"))
        .spawn(move || {
            let mut batches =
                match guarded(|| GroupBatches::open(&reader, group, first_row, &wanted))
                    .and_then(|opened| opened)
                {
                    Ok(batches) => batches,
                    Err(err) => {
                        let _ = tx.send(Err(err));
                        return;
                    }
                };
            loop {
                match guarded(|| batches.next(&wanted, Vec::new())).and_then(|next| next) {
                    Ok(Some(next)) => {
                        // The reading stopped wanting them.
                        if tx.send(Ok(next)).is_err() {
                            return;
                        }
                    }
                    Ok(None) => return,
                    Err(err) => {
                        let _ = tx.send(Err(err));
                        return;
                    }
                }
            }
        })?;
    Ok(Decoder {
        batches: Some(rx),
        thread: Some(thread),
    })
}
