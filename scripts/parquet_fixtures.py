#!/usr/bin/env python3
"""Writes the Parquet fixtures of testdata/parquet/ with pyarrow (a real writer, not
pgnkit's own), and is the module the Parquet interop tests (spark/tests/test_parquet.py)
use to turn PGN games into a table in the lichess layout and back.

    python3 scripts/parquet_fixtures.py        # rewrites testdata/parquet/

The lichess layout is the one the lichess database is published in (SPEC.md "Parquet"):
string tags, int16 ratings, UTCDate date32, UTCTime time32[s], and `movetext`.
"""

import datetime
import os
import re
import sys

import pyarrow as pa
import pyarrow.parquet as pq

LICHESS_COLUMNS = [
    ("Event", pa.string()),
    ("Site", pa.string()),
    ("White", pa.string()),
    ("Black", pa.string()),
    ("Result", pa.string()),
    ("WhiteTitle", pa.string()),
    ("BlackTitle", pa.string()),
    ("WhiteElo", pa.int16()),
    ("BlackElo", pa.int16()),
    ("WhiteRatingDiff", pa.int16()),
    ("BlackRatingDiff", pa.int16()),
    ("UTCDate", pa.date32()),
    ("UTCTime", pa.time32("s")),
    ("ECO", pa.string()),
    ("Opening", pa.string()),
    ("Termination", pa.string()),
    ("TimeControl", pa.string()),
    ("movetext", pa.string()),
]

TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')


def read_pgn(path):
    """The games of a PGN file as (tags, movetext): tags a dict, movetext one line."""
    games, tags, moves = [], {}, []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            match = TAG.match(line)
            if match and moves:
                games.append((tags, " ".join(moves)))
                tags, moves = {}, []
            if match:
                value = match.group(2).replace('\\"', '"').replace("\\\\", "\\")
                tags[match.group(1)] = value
            elif line.strip():
                moves.append(line.strip())
    if tags or moves:
        games.append((tags, " ".join(moves)))
    return games


def standard(games):
    """The games the lichess table holds: standard chess from the start position."""
    return [
        (tags, moves)
        for tags, moves in games
        if tags.get("Variant", "Standard") == "Standard" and "FEN" not in tags
    ]


def _typed(name, kind, text):
    if text is None:
        return None
    if kind == pa.int16():
        try:
            return int(text)
        except ValueError:
            return None  # `?`: an int16 cannot hold it
    if kind == pa.date32():
        try:
            return datetime.datetime.strptime(text, "%Y.%m.%d").date()
        except ValueError:
            return None
    if kind == pa.time32("s"):
        try:
            return datetime.datetime.strptime(text, "%H:%M:%S").time()
        except ValueError:
            return None
    return text


def lichess_table(games):
    """The games as a table in the lichess layout (absent tags are null)."""
    columns = {name: [] for name, _ in LICHESS_COLUMNS}
    for tags, moves in games:
        for name, kind in LICHESS_COLUMNS:
            text = moves if name == "movetext" else tags.get(name)
            columns[name].append(_typed(name, kind, text))
    schema = pa.schema([pa.field(name, kind) for name, kind in LICHESS_COLUMNS])
    return pa.table(columns, schema=schema)


def _tag_text(value):
    if isinstance(value, datetime.date):
        return value.strftime("%Y.%m.%d")
    if isinstance(value, datetime.time):
        return value.strftime("%H:%M:%S")
    return str(value)


def table_pgn(table):
    """PGN written from a table's own values: its tags in column order, then the movetext."""
    out = []
    names = table.column_names
    for row in table.to_pylist():
        for name in names:
            value = row[name]
            if name == "movetext" or value is None:
                continue
            text = _tag_text(value).replace("\\", "\\\\").replace('"', '\\"')
            out.append(f'[{name} "{text}"]\n')
        out.append("\n" + (row.get("movetext") or "") + "\n\n")
    return "".join(out)


def write_fixtures(out_dir, source_pgn):
    os.makedirs(out_dir, exist_ok=True)
    games = standard(read_pgn(source_pgn))[:60]
    table = lichess_table(games)
    path = lambda name: os.path.join(out_dir, name)  # noqa: E731
    # The lichess layout, zstd, in row groups of 16 rows (so that batches cross them).
    pq.write_table(table, path("lichess.parquet"), compression="zstd", row_group_size=16)
    with open(path("lichess.pgn"), "w", encoding="utf-8") as f:
        f.write(table_pgn(table))
    small = table.slice(0, 12)
    for codec in ["snappy", "gzip", "lz4", "brotli", "none"]:
        pq.write_table(small, path(f"lichess-{codec}.parquet"), compression=codec)

    # pandas' index column and a list column: skipped with one warning.
    pandas_like = pa.table(
        {
            "Event": ["a", "b"],
            "movetext": ["1. e4 e5 *", None],
            "__index_level_0__": pa.array([7, 8], pa.int64()),
            "Moves": pa.array([["e4", "e5"], []], pa.list_(pa.string())),
            "Rated": [True, None],
            "Accuracy": pa.array([0.1, 2.5], pa.float64()),
        }
    )
    pq.write_table(pandas_like, path("pandas.parquet"))
    pq.write_table(pa.table({"Event": ["a"], "moves": ["1. e4 *"]}), path("no-movetext.parquet"))
    pq.write_table(
        pa.table({"Event": ["a"], "movetext": pa.array([1], pa.int32())}),
        path("movetext-not-string.parquet"),
    )

    # Bytes that are not UTF-8 (Latin-1) in tag and movetext cells, between valid rows.
    latin1 = pa.table(
        {
            "White": pa.array([b"Anna", b"J\xf6rg", b"Zo\xc3\xa9"], pa.binary()),
            "Event": pa.array([b"ok", b"caf\xe9 \"open\"", b"ok"], pa.binary()),
            "movetext": pa.array(
                [b"1. e4 e5 1-0", b"1. d4 { caf\xe9 } d5 0-1", b"1. c4 *"], pa.binary()
            ),
        }
    )
    pq.write_table(latin1, path("latin1.parquet"))

    # One row group of ten million empty rows: a few kilobytes on disk.
    rows = 10_000_000
    offsets = pa.py_buffer(bytes(4 * (rows + 1)))
    empty = pa.StringArray.from_buffers(rows, offsets, pa.py_buffer(b""))
    pq.write_table(
        pa.table({"movetext": empty}),
        path("empty-rows.parquet"),
        compression="zstd",
        row_group_size=rows,
    )

    # Damaged copies of lichess-none.parquet.
    with open(path("lichess-none.parquet"), "rb") as f:
        good = f.read()
    with open(path("truncated.parquet"), "wb") as f:
        f.write(good[: len(good) // 2])
    with open(path("wrong-magic.parquet"), "wb") as f:
        f.write(good[:-4] + b"PAR0")
    footer_outside = good[:-8] + (0x7FFFFFF0).to_bytes(4, "little") + b"PAR1"
    with open(path("footer-outside.parquet"), "wb") as f:
        f.write(footer_outside)


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    source = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "testdata/parquet/source.pgn")
    write_fixtures(os.path.join(root, "testdata/parquet"), source)
