"""`pgnkit moves` with real readers (SPEC.md "moves", issue 44): `key` is python-chess's
`chess.polyglot.zobrist_hash` on every ply of the corpus's lichess games; DuckDB reads
the Parquet with the declared types (UBIGINT key) and every cell equals the CSV's; DuckDB
and Polars read `--per-game` as typed LIST columns equal to the per-move rows. Runs in
`.ci/run`'s virtual environment with $PGNKIT_BIN (default: target/debug/pgnkit).
"""

import csv
import io
import os
import sys
from pathlib import Path

import chess.pgn
import chess.polyglot
import duckdb
import polars as pl
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pgnkit_testing import CORPUS, PGNKIT, TESTDATA, cell_text, csv_rows, pgnkit, sql_block  # noqa: E402

LICHESS = TESTDATA / "parquet" / "lichess.pgn"

TYPES = {
    "file": "VARCHAR", "game": "BIGINT", "line": "BIGINT", "ply": "BIGINT",
    "move_number": "BIGINT", "color": "VARCHAR", "san": "VARCHAR", "uci": "VARCHAR",
    "piece": "VARCHAR", "from": "VARCHAR", "to": "VARCHAR", "captured": "VARCHAR",
    "promotion": "VARCHAR", "castling": "VARCHAR", "en_passant": "BOOLEAN",
    "check": "BOOLEAN", "mate": "BOOLEAN", "key": "UBIGINT", "halfmove_clock": "BIGINT",
    "repetition": "BIGINT", "clock": "DOUBLE", "move_time": "DOUBLE", "eval_cp": "BIGINT",
    "eval_mate": "BIGINT", "nags": "VARCHAR",
}


def lichess_files():
    files = sorted(CORPUS.glob("*.pgn")) if CORPUS.is_dir() else []
    return files or [LICHESS]


@pytest.mark.parametrize("path", lichess_files(), ids=lambda p: p.name)
def test_key_is_python_chess_zobrist_hash_on_every_ply(path):
    rows = csv.DictReader(io.StringIO(pgnkit("moves", path).decode("utf-8")))
    ours = [(int(r["game"]), int(r["ply"]), int(r["key"])) for r in rows]
    theirs = []
    with open(path, encoding="utf-8", errors="replace") as f:
        game_no = 0
        while (game := chess.pgn.read_game(f)) is not None:
            game_no += 1
            board = game.board()
            if type(board) is not chess.Board:
                continue  # a variant pgnkit does not replay (Three-check): no moves
            for ply, move in enumerate(game.mainline_moves(), 1):
                board.push(move)
                theirs.append((game_no, ply, chess.polyglot.zobrist_hash(board)))
    assert len(ours) > 100
    assert ours == theirs


def test_duckdb_reads_the_declared_types_and_the_csv_cells(tmp_path):
    out = tmp_path / "moves.parquet"
    pgnkit("moves", "--format", "parquet", "-o", out, LICHESS)
    header, *rows = list(csv.reader(io.StringIO(pgnkit("moves", LICHESS).decode("utf-8"))))
    described = duckdb.sql(f"DESCRIBE SELECT * FROM '{out}'").fetchall()
    assert [(name, kind) for name, kind, *_ in described] == list(TYPES.items())
    assert header == list(TYPES)
    table = duckdb.sql(f"SELECT * FROM '{out}'").fetchall()
    assert len(table) == len(rows) > 100
    kinds = list(TYPES.values())
    for ours, csv_row in zip(table, rows):
        for value, cell, kind in zip(ours, csv_row, kinds):
            if kind == "DOUBLE" and value is not None:
                assert value == float(cell)
            else:
                assert cell_text(value, kind) == cell
    assert max(r[17] for r in table) >= 2**63  # the keys above INT64 read unsigned


def test_per_game_lists_read_typed_by_duckdb_and_polars(tmp_path):
    out = tmp_path / "games.parquet"
    moves = tmp_path / "moves.parquet"
    pgnkit("moves", "--per-game", "--format", "parquet", "-o", out, LICHESS)
    pgnkit("moves", "--format", "parquet", "-o", moves, LICHESS)
    described = dict((n, k) for n, k, *_ in duckdb.sql(f"DESCRIBE SELECT * FROM '{out}'").fetchall())
    assert described["plies"] == "BIGINT"
    for name, kind in list(TYPES.items())[6:]:
        assert described[name] == kind + "[]"
    frame = pl.read_parquet(out)
    assert frame.schema["key"] == pl.List(pl.UInt64)
    assert frame.schema["clock"] == pl.List(pl.Float64)
    assert frame.schema["check"] == pl.List(pl.Boolean)
    # The lists are the per-move rows, in ply order.
    per_move = pl.read_parquet(moves)
    exploded = frame.select(["game", "san", "key", "clock", "eval_cp"]).explode(["san", "key", "clock", "eval_cp"])
    assert exploded.to_dicts() == per_move.select(["game", "san", "key", "clock", "eval_cp"]).to_dicts()
    assert frame["plies"].to_list() == [len(s) for s in frame["san"].to_list()]


def test_guide_query_joining_moves_to_stats_gives_the_csv_figures(tmp_path):
    pgnkit("moves", LICHESS, "--format", "parquet", "-o", tmp_path / "moves.parquet")
    pgnkit("stats", LICHESS, "--tags", "TimeControl", "--format", "parquet", "-o", tmp_path / "games.parquet")
    moves = list(csv.DictReader(io.StringIO(pgnkit("moves", LICHESS).decode("utf-8"))))
    games = list(csv.DictReader(io.StringIO(pgnkit("stats", LICHESS, "--tags", "TimeControl").decode("utf-8"))))
    control = {(g["file"], g["game"]): g["TimeControl"] for g in games}
    expected = {}
    for m in moves:
        tc = control[(m["file"], m["game"])]
        ids, count, low = expected.get(tc, (set(), 0, 0))
        ids.add(m["game"])
        low += m["clock"] != "" and float(m["clock"]) < 30
        expected[tc] = (ids, count + 1, low)
    os.chdir(tmp_path)
    got = duckdb.connect().execute(sql_block("'moves.parquet'")).fetchall()
    assert got == sorted((tc, len(ids), n, low) for tc, (ids, n, low) in expected.items())
    assert any(low > 0 for *_, low in got)


def test_the_python_chess_script_writes_pgnkits_san_uci_clock_and_evaluation():
    """scripts/moves_python_chess.py, the other side of issue 44's comparison, writes the
    rows `pgnkit moves` writes for those columns, on a lichess file with clocks and
    evaluations."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
    import moves_python_chess as script

    path = CORPUS / "pgn-reader_lichess_db_1000k.pgn"
    if not path.is_file():
        pytest.skip("the corpus's lichess file with clocks is not here")
    with open(path, encoding="utf-8", errors="replace") as handle:
        theirs = list(script.rows(handle))
    ours = script.pgnkit_rows(str(PGNKIT), str(path))
    assert sum(1 for row in theirs if row[4]) > 1000
    assert sum(1 for row in theirs if row[5] or row[6]) > 100
    assert len(ours) == len(theirs)
    assert all(script.same(a, b) for a, b in zip(ours, theirs))
