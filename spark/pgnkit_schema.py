"""The typed columns of the Spark job's output: written once here, checked against the
binary's own header by every task (and by spark/tests), never inferred from CSV at run time.

`pgnkit stats --format csv` and `pgnkit validate --format jsonl` (SPEC.md "stats CSV" and
"validate findings") are the sources; the types follow SPEC.md: counts and plies are
integers (empty cell -> null), clocks are doubles, booleans are `true`/`false`, everything else is a string
kept exactly as pgnkit writes it ("" stays "").
"""

from pyspark.sql.types import (
    BooleanType,
    DoubleType,
    LongType,
    StringType,
    StructField,
    StructType,
)

# Integers are 64-bit (`I` and `L` alike), as in `pgnkit stats --format parquet` (INT64):
# the job's games table and pgnkit's own Parquet have one schema (spark/tests/test_parquet.py).
S, I, L, B, D = StringType(), LongType(), LongType(), BooleanType(), DoubleType()

# `pgnkit stats` columns, in the order of its header (src/stats/row.rs StatsRow::HEADER).
STATS_COLUMNS = [
    ("file", S),
    ("game", L),
    ("line", L),
    ("event", S),
    ("site", S),
    ("date", S),
    ("round", S),
    ("white", S),
    ("black", S),
    ("white_elo", S),
    ("black_elo", S),
    ("eco", S),
    ("result", S),
    ("plies", I),
    ("status", S),
    ("termination", S),
    ("final_fen", S),
    ("first_error_ply", I),
    ("first_error_code", S),
    ("checks", I),
    ("captures", I),
    ("castles", I),
    ("en_passant", I),
    ("promotions", I),
    ("missed_en_passant", I),
    ("max_repetition", I),
    ("threefold_ply", I),
    ("fivefold_ply", I),
    ("fifty_move_ply", I),
    ("seventy_five_move_ply", I),
    ("perpetual_check", B),
    ("insufficient_material", B),
    ("result_consistent", B),
    ("under_promotions", I),
    ("opening_eco", S),
    ("opening_name", S),
    ("opening_ply", I),
    # SPEC.md "Tag columns and annotations": clocks in seconds (decimals where written so).
    ("clocks", I),
    ("white_clock_end", D),
    ("black_clock_end", D),
    ("white_clock_min", D),
    ("black_clock_min", D),
    ("evals", I),
    ("white_acpl", I),
    ("black_acpl", I),
    ("white_inaccuracies", I),
    ("black_inaccuracies", I),
    ("white_mistakes", I),
    ("black_mistakes", I),
    ("white_blunders", I),
    ("black_blunders", I),
    # SPEC.md "Who can still mate": `white`, `black`, `both` or null; the first dead ply.
    ("cannot_mate", S),
    ("dead_position_ply", I),
    # SPEC.md "How the game ended": the time control's standard form, move times in seconds.
    ("time_control", S),
    ("white_time_used", D),
    ("black_time_used", D),
    ("white_move_time_max", D),
    ("black_move_time_max", D),
]

# `pgnkit validate --format jsonl` keys, in their order.
FINDING_COLUMNS = [
    ("file", S),
    ("game", L),
    ("line", L),
    ("white", S),
    ("black", S),
    ("ply", I),
    ("move", S),
    ("san", S),
    ("severity", S),
    ("code", S),
    ("message", S),
    ("fen", S),
    ("move_line", L),
]


def games_schema(tags):
    """The games table: the stats columns, then one string column per `--tags` name (null
    allowed, as `stats --format parquet` writes an absent tag)."""
    fields = [StructField(name, kind, nullable=True) for name, kind in STATS_COLUMNS]
    fields += [StructField(tag, S, nullable=True) for tag in tags]
    return StructType(fields)


def findings_schema():
    return StructType([StructField(name, kind, nullable=True) for name, kind in FINDING_COLUMNS])


def typed_cell(text, kind):
    """A CSV cell as the column's Spark value: "" is null for integers and booleans."""
    if isinstance(kind, StringType):
        return text
    if text == "":
        return None
    if isinstance(kind, BooleanType):
        if text == "true":
            return True
        if text == "false":
            return False
        raise ValueError(f"not a boolean: {text!r}")
    if isinstance(kind, DoubleType):
        return float(text)
    return int(text)
