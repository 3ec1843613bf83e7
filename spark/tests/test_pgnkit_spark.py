"""The Spark job against one machine: the same games, findings and summary (SPEC.md
"Scale-out on Apache Spark"). Runs `spark-submit` in local mode with the binary named by
$PGNKIT_BIN (default: the repository's target/debug/pgnkit, built by `cargo test`).

`file` fairness: the job and the one-machine run get the same INPUT arguments (an absolute
folder and a file relative to the repository, both run from there), so pgnkit's rules name
every file the same way in both.
"""

import collections
import csv
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SPARK_DIR = Path(__file__).resolve().parents[1]
REPO = SPARK_DIR.parent
TESTDATA = REPO / "testdata"
PGNKIT = Path(os.environ.get("PGNKIT_BIN", REPO / "target" / "debug" / "pgnkit")).resolve()
SPARK_SUBMIT = Path(sys.executable).parent / "spark-submit"
TAGS = "EventDate,Annotator"

sys.path.insert(0, str(SPARK_DIR))
from pgnkit_schema import FINDING_COLUMNS, STATS_COLUMNS  # noqa: E402


def pgnkit(*args):
    return subprocess.run(
        [str(PGNKIT), *args], capture_output=True, text=True, stdin=subprocess.DEVNULL, cwd=REPO
    )


def submit(out, inputs, *, binary=PGNKIT, master="local[2]", extra=()):
    """Runs the job; returns (exit code, its output). spark-submit passes the Python driver's
    stderr on to its own stdout, so both streams are read together."""
    command = [
        str(SPARK_SUBMIT),
        "--master", master,
        "--conf", "spark.ui.enabled=false",
        "--conf", "spark.sql.shuffle.partitions=2",
        *extra,
        str(SPARK_DIR / "pgnkit_spark.py"),
        "--pgnkit", str(binary),
        "--out", str(out),
        "--shards", "3",
        "--tags", TAGS,
        "--level", "info",
        *map(str, inputs),
    ]
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable)
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=REPO)
    return done.returncode, done.stdout


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    """A folder of plain, gzip and zstd files, a file of broken games (upper-case suffix), a
    subfolder, and entries the folder rule skips; plus one file given on its own."""
    root = tmp_path_factory.mktemp("archive")
    folder = root / "archive"
    (folder / "sub").mkdir(parents=True)
    (folder / ".hidden").mkdir()
    shutil.copy(TESTDATA / "sample" / "twic1599-excerpt.pgn", folder / "twic.pgn")
    shutil.copy(TESTDATA / "sample" / "problems.pgn", folder / "sub" / "problems.pgn")
    shutil.copy(TESTDATA / "validate" / "compressed" / "games.pgn.gz", folder / "sub" / "games.pgn.gz")
    shutil.copy(TESTDATA / "validate" / "compressed" / "games.pgn.zst", folder / "games.pgn.zst")
    shutil.copy(TESTDATA / "validate" / "input.pgn", folder / "Broken.PGN")
    shutil.copy(TESTDATA / "clean.pgn", folder / ".hidden" / "skipped.pgn")
    (folder / "notes.txt").write_text("not a game file\n")
    alone = root / "alone.pgn"
    shutil.copy(TESTDATA / "stats" / "broken.pgn", alone)
    return [folder, os.path.relpath(alone, REPO)]


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[1]")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "1")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def as_text(value):
    """A Parquet value as pgnkit writes the cell."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def one_run(inputs):
    """(header, game rows, finding rows, summary text) of one pgnkit run on one machine."""
    names = list(map(str, inputs))
    stats = pgnkit("stats", "--quiet", "--tags", TAGS, "--summary-output", "/dev/stdout", "-o", "/dev/null", *names)
    assert stats.returncode == 0, stats.stderr
    summary = stats.stdout
    stats = pgnkit("stats", "--quiet", "--tags", TAGS, *names)
    records = list(csv.reader(io.StringIO(stats.stdout, newline="")))
    validate = pgnkit("validate", "--quiet", "--format", "jsonl", "--level", "info", *names)
    assert validate.returncode == 1, validate.stderr
    findings = [tuple(json.loads(line).values()) for line in validate.stdout.splitlines()]
    return records[0], [tuple(r) for r in records[1:]], findings, summary


def assert_same_as_one_run(spark, out, inputs):
    header, games, findings, summary = one_run(inputs)
    job_games = spark.read.parquet(str(out / "games"))
    assert job_games.columns == header
    job_rows = [tuple(as_text(v) for v in row) for row in job_games.collect()]
    assert collections.Counter(job_rows) == collections.Counter(games)
    job_findings = spark.read.parquet(str(out / "findings"))
    assert job_findings.columns == [name for name, _ in FINDING_COLUMNS]
    assert collections.Counter(tuple(row) for row in job_findings.collect()) == collections.Counter(findings)
    assert (out / "summary.csv").read_text() == summary
    return games, findings


def test_schema_names_the_columns_of_the_binary():
    header = pgnkit("stats", "--quiet").stdout.strip().split(",")
    assert header == [name for name, _ in STATS_COLUMNS]
    keys = json.loads(pgnkit("validate", "--quiet", "--format", "jsonl", str(TESTDATA / "validate" / "codes.pgn")).stdout.splitlines()[0])
    assert list(keys) == [name for name, _ in FINDING_COLUMNS]


def test_job_in_local_mode_equals_one_run(spark, archive, tmp_path):
    code, stderr = submit(tmp_path / "out", archive)
    assert code == 0, stderr
    games, findings = assert_same_as_one_run(spark, tmp_path / "out", archive)
    files = {row[0] for row in games}
    assert len(files) == 6, files  # five in the folder (hidden and .txt skipped), one alone
    assert len(games) > 50 and any(f[8] == "error" for f in findings)
    typed = spark.read.parquet(str(tmp_path / "out" / "games")).schema
    assert typed["game"].dataType.typeName() == "long"
    assert typed["plies"].dataType.typeName() == "long"
    assert typed["perpetual_check"].dataType.typeName() == "boolean"
    assert typed["EventDate"].dataType.typeName() == "string"


def test_a_task_that_fails_once_is_retried_and_counted_once(spark, archive, tmp_path):
    # The first pgnkit run of the job writes its whole output and summary, then dies.
    marker = tmp_path / "failed-once"
    wrapper = tmp_path / "pgnkit-failing-once"
    wrapper.write_text(
        "#!/bin/sh\n"
        f"if mkdir '{marker}' 2>/dev/null; then '{PGNKIT}' \"$@\"; kill -9 $$; fi\n"
        f"exec '{PGNKIT}' \"$@\"\n"
    )
    wrapper.chmod(0o755)
    code, stderr = submit(
        tmp_path / "out", archive, binary=wrapper, master="local[2,2]",
        extra=("--conf", "spark.task.maxFailures=2"),
    )
    assert code == 0, stderr
    assert marker.exists(), "the wrapper failed no task"
    assert_same_as_one_run(spark, tmp_path / "out", archive)


def test_an_unreadable_input_fails_the_job_with_pgnkits_message(tmp_path):
    broken = tmp_path / "cut.pgn.gz"
    broken.write_bytes((TESTDATA / "validate" / "compressed" / "games.pgn.gz").read_bytes()[:100])
    alone = pgnkit("stats", "--quiet", "-o", "/dev/null", str(broken))
    assert alone.returncode == 2
    message = alone.stderr.strip()
    assert message
    code, stderr = submit(tmp_path / "out", [broken])
    assert code == 2
    # Whichever shard of the file fails first names the job's failure.
    failure = [line for line in stderr.splitlines() if line.startswith("pgnkit-spark: ")]
    assert len(failure) == 1, stderr
    assert failure[0].startswith(f"pgnkit-spark: pgnkit stats on {broken} (shard ")
    assert failure[0].endswith(f"/3): exit code 2: {message}")


def test_a_missing_binary_fails_before_spark_starts(tmp_path):
    done = subprocess.run(
        [sys.executable, str(SPARK_DIR / "pgnkit_spark.py"), "--pgnkit", str(tmp_path / "none"),
         "--out", str(tmp_path / "out"), str(TESTDATA / "clean.pgn")],
        capture_output=True, text=True,
    )
    assert done.returncode == 2
    assert f"no executable pgnkit binary at {tmp_path / 'none'}" in done.stderr
