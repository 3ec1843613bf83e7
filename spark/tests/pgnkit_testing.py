"""What the Python tests of pgnkit's output share: the binary, its CSV, DuckDB's cells as
pgnkit writes them, and the SQL blocks of the README and the guide they run."""

import csv
import io
import os
import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TESTDATA = REPO / "testdata"
CORPUS = REPO.parent / "shared" / "corpus" / "lichess"
PGNKIT = Path(os.environ.get("PGNKIT_BIN", REPO / "target" / "debug" / "pgnkit")).resolve()


def pgnkit(*args, exit_codes=(0, 1)):
    """pgnkit's stdout; its exit code must be one of `exit_codes`."""
    done = subprocess.run(
        [str(PGNKIT), "--quiet", *map(str, args)],
        capture_output=True, stdin=subprocess.DEVNULL, cwd=REPO,
    )
    assert done.returncode in exit_codes, done.stderr.decode()
    return done.stdout


def csv_rows(data):
    reader = csv.reader(io.StringIO(data.decode("utf-8")))
    header = next(reader)
    return header, list(reader)


def cell_text(value, duck_type):
    """A DuckDB value as pgnkit's CSV writes it."""
    if value is None:
        return ""
    if duck_type == "BOOLEAN":
        return "true" if value else "false"
    if duck_type == "DOUBLE":
        return value  # compared as numbers
    return str(value)


def sql_block(marker):
    """The ```sql block of the README or the guide (docs/GUIDE.md) that holds `marker`."""
    text = (REPO / "README.md").read_text() + (REPO / "docs" / "GUIDE.md").read_text()
    blocks = re.findall(r"```sql\n(.*?)```", text, re.S)
    return next(block for block in blocks if marker in block)
