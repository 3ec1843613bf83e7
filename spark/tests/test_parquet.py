"""Parquet with real engines (SPEC.md "Parquet", issue 29): DuckDB reads pgnkit's
`--format parquet` files (row counts, column names and types, every cell against the CSV
cell); the Spark games schema is `stats --format parquet`'s; the README's DuckDB query
gives the CSV's figures; pyarrow writes lichess-layout tables of the corpus's lichess
games, which pgnkit reads as it reads their PGN. Runs in `.ci/run`'s virtual environment
with $PGNKIT_BIN (default: target/debug/pgnkit).
"""

import os
import sys
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

SPARK_DIR = Path(__file__).resolve().parents[1]

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(SPARK_DIR))
sys.path.insert(0, str(SPARK_DIR.parent / "scripts"))
from pgnkit_schema import findings_schema, games_schema  # noqa: E402
from pyspark.sql.types import BooleanType, DoubleType, LongType, StringType  # noqa: E402

import parquet_fixtures  # noqa: E402
from pgnkit_testing import CORPUS, REPO, TESTDATA, cell_text, csv_rows, pgnkit, sql_block  # noqa: E402


DUCKDB_TYPE = {StringType(): "VARCHAR", LongType(): "BIGINT", DoubleType(): "DOUBLE", BooleanType(): "BOOLEAN"}


FEN_TYPES = {"file": "VARCHAR", "game": "BIGINT", "line": "BIGINT", "ply": "BIGINT", "san": "VARCHAR", "fen": "VARCHAR"}
CASES = [
    ("stats", ["stats", "--tags", "TimeControl,WhiteTitle,Nope", TESTDATA / "bench" / "lichess_manwithavan.pgn"]),
    ("stats-broken", ["stats", TESTDATA / "stats", TESTDATA / "validate"]),
    ("validate", ["validate", "--level", "info", TESTDATA / "validate", TESTDATA / "sample"]),
    ("fen", ["fen", "--every-ply", TESTDATA / "clean.pgn", TESTDATA / "validate" / "codes.pgn"]),
]


def expected_types(name, header):
    if name.startswith("stats"):
        tags = header[len(games_schema([]).fields):]
        schema = games_schema(tags)
        return {f.name: DUCKDB_TYPE[f.dataType] for f in schema.fields}
    if name == "validate":
        return {f.name: DUCKDB_TYPE[f.dataType] for f in findings_schema().fields}
    return FEN_TYPES


@pytest.mark.parametrize("name,args", CASES, ids=[c[0] for c in CASES])
def test_duckdb_reads_our_parquet_as_the_csv(name, args, tmp_path):
    out = tmp_path / "out.parquet"
    pgnkit(*args, "--format", "parquet", "-o", out)
    header, rows = csv_rows(pgnkit(*args, "--format", "csv"))
    assert len(rows) > 5
    con = duckdb.connect()
    described = con.execute(f"DESCRIBE SELECT * FROM read_parquet('{out}')").fetchall()
    names = [row[0] for row in described]
    types = [row[1] for row in described]
    assert names == header
    expected = expected_types(name, header)
    assert types == [expected[n] for n in names]
    assert all(row[2] == "YES" for row in described)  # every column may be null
    assert con.execute(f"SELECT count(*) FROM read_parquet('{out}')").fetchone()[0] == len(rows)
    table = con.execute(f"SELECT * FROM read_parquet('{out}')").fetchall()
    strings_null_when_empty = name != "validate"  # findings keep "" (as their jsonl does)
    for got, want in zip(table, rows):
        for value, text, duck_type, column in zip(got, want, types, names):
            if duck_type == "DOUBLE" and text != "":
                assert value == float(text), column
                continue
            assert cell_text(value, duck_type) == text, (column, value, text)
            if duck_type != "VARCHAR" or strings_null_when_empty:
                assert (value is None) == (text == ""), (column, value, text)


def test_spark_games_schema_is_the_schema_of_stats_parquet(tmp_path):
    out = tmp_path / "games.parquet"
    tags = ["TimeControl", "Opening"]
    pgnkit("stats", "--tags", ",".join(tags), "--format", "parquet", "-o", out, TESTDATA / "clean.pgn")
    header = pgnkit("stats", "--tags", ",".join(tags), TESTDATA / "clean.pgn").decode().splitlines()[0].split(",")
    arrow = pq.read_schema(out)
    spark = games_schema(tags)
    arrow_type = {StringType(): pa.string(), LongType(): pa.int64(), DoubleType(): pa.float64(), BooleanType(): pa.bool_()}
    assert arrow.names == header == [f.name for f in spark.fields]
    for name in header:
        assert arrow.field(name).type == arrow_type[spark[name].dataType], name
        assert arrow.field(name).nullable == spark[name].nullable, name


def test_readme_duckdb_query_gives_the_csv_figures(tmp_path):
    source = TESTDATA / "bench" / "lichess_manwithavan.pgn"
    out = tmp_path / "games.parquet"
    tags = "--tags=TimeControl,Termination"
    pgnkit("stats", source, tags, "--format", "parquet", "-o", out)
    header, rows = csv_rows(pgnkit("stats", source, tags))
    col = {name: i for i, name in enumerate(header)}
    sql = sql_block("FROM 'games.parquet'\n")
    con = duckdb.connect()
    os.chdir(tmp_path)
    draw_sql, time_sql = [s.strip() for s in sql.split(";") if s.strip()]
    by_band = con.execute(draw_sql).fetchall()
    expected = {}
    for row in rows:
        try:
            band = (int(row[col["white_elo"]]) + int(row[col["black_elo"]])) // 400 * 200
        except ValueError:
            continue
        games, draws = expected.get(band, (0, 0))
        expected[band] = (games + 1, draws + (row[col["result"]] == "1/2-1/2"))
    assert [(int(b), g) for b, g, _ in by_band] == sorted((b, g) for b, (g, _) in expected.items())
    for band, games, rate in by_band:
        assert rate == round(expected[int(band)][1] / games, 3)
    on_time = con.execute(time_sql).fetchall()
    counts = {}
    for row in rows:
        games, lost = counts.get(row[col["TimeControl"]], (0, 0))
        counts[row[col["TimeControl"]]] = (games + 1, lost + (row[col["Termination"]] == "Time forfeit"))
    # DuckDB matches column names whatever their case: the tag is `Termination_1` there.
    assert "Termination_1" in sql
    assert sorted(on_time) == sorted((tc, g, l) for tc, (g, l) in counts.items())
    assert any(lost > 0 for _, _, lost in on_time)


def stats_without_position(*args):
    header, rows = csv_rows(pgnkit("stats", *args))
    keep = [i for i, name in enumerate(header) if name not in ("file", "game", "line")]
    return [[row[i] for i in keep] for row in rows], rows


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not beside the repository")
@pytest.mark.parametrize("path", sorted(CORPUS.glob("*.pgn")) if CORPUS.is_dir() else [], ids=lambda p: p.name)
def test_a_lichess_table_of_the_corpus_reads_as_its_pgn(path, tmp_path):
    games = parquet_fixtures.standard(parquet_fixtures.read_pgn(path))
    table = parquet_fixtures.lichess_table(games)
    parquet = tmp_path / "table.parquet"
    pq.write_table(table, parquet, compression="zstd", row_group_size=100_000)
    pgn = tmp_path / "games.pgn"
    pgn.write_text(parquet_fixtures.table_pgn(table), encoding="utf-8")
    from_table, rows = stats_without_position(parquet)
    from_pgn, _ = stats_without_position(pgn)
    assert len(from_table) == len(games) > 0
    assert from_table == from_pgn
    assert [(r[1], r[2]) for r in rows] == [(str(i), str(i)) for i in range(1, len(rows) + 1)]
    # select writes PGN that reads back to the same rows.
    selected = tmp_path / "selected.pgn"
    selected.write_bytes(pgnkit("select", parquet))
    assert stats_without_position(selected)[0] == from_table
