"""Run pgnkit over archives too large for one machine, on Apache Spark (SPEC.md
"Scale-out on Apache Spark"), with the same answers as one machine:

    spark-submit spark/pgnkit_spark.py --pgnkit PATH_TO_BINARY --out OUT_DIR [--shards N] INPUT...

The driver expands INPUTs with pgnkit's folder rule, so every game keeps the `file` name one
`pgnkit` run on the same INPUTs would give it. Each task runs the binary (shipped with the
job) on one file, or on one `--shard K/N` of it, streams its output line by line into typed
rows, and Spark commits the task's rows only when the task succeeds: a retried task never
counts twice. Writes OUT/games/ and OUT/findings/ (Parquet) and OUT/summary.csv (the task
summaries added up by `pgnkit stats --merge`).
"""

import argparse
import csv
import io
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile

from pgnkit_schema import (
    FINDING_COLUMNS,
    STATS_COLUMNS,
    findings_schema,
    games_schema,
    typed_cell,
)

GAME_FILE_SUFFIXES = (".pgn", ".pgn.gz", ".pgn.zst", ".pgn.bz2")
# The marker that lets the driver find pgnkit's own message in Spark's error chain.
FAILURE_MARK = "pgnkit-spark task failed: "


class PgnkitFailed(RuntimeError):
    pass


def expand_inputs(inputs):
    """pgnkit's rule (SPEC.md "Inputs", src/input/sources.rs): a folder means every game file
    below it, hidden entries skipped, symlinks followed, sorted byte-wise by path, each named
    the folder joined with its path inside it; anything else is a file named as given (a
    missing one fails in its task with pgnkit's message). Returns (files, listing errors)."""
    files, errors = [], []
    for given in inputs:
        if given == "-":
            errors.append("stdin (`-`) cannot be read by the executors: give a path")
        elif os.path.isdir(given):
            found = []
            walk(given, found, errors)
            files.extend(sorted(found, key=os.fsencode))
        else:
            files.append(given)
    return files, errors


def is_game_file(name):
    return name.lower().endswith(GAME_FILE_SUFFIXES)


def walk(folder, found, errors):
    try:
        names = os.listdir(folder)
    except OSError as err:
        errors.append(f"{folder}: {err.strerror}")
        return
    for name in names:
        if name.startswith("."):
            continue
        path = os.path.join(folder, name)
        try:
            is_dir = stat.S_ISDIR(os.stat(path).st_mode)
        except OSError as err:
            if is_game_file(name):
                errors.append(f"{path}: {err.strerror}")
            continue
        if is_dir:
            walk(path, found, errors)
        elif is_game_file(name):
            found.append(path)


def work_units(files, shards):
    """One task per file, or per `--shard K/N` of each file."""
    return [(path, shard) for path in files for shard in range(shards)]


def unit_options(unit, shards, threads):
    """The options every task passes after its command, ending with its input path."""
    path, shard = unit
    shard_option = ["--shard", f"{shard}/{shards}"] if shards > 1 else []
    return ["--quiet", "--threads", str(threads)] + shard_option + ["--", path]


def unit_name(command, unit, shards):
    """How a failure names its task: the command, the file and the shard."""
    shard = f" (shard {unit[1]}/{shards})" if shards > 1 else ""
    return f"pgnkit {command} on {unit[0]}{shard}"


def executor_binary(name):
    """The shipped binary on this executor, made executable (SparkFiles keeps no modes)."""
    from pyspark import SparkFiles

    binary = SparkFiles.get(name)
    mode = os.stat(binary).st_mode
    if not mode & stat.S_IXUSR:
        os.chmod(binary, mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return binary


def task_threads():
    from pyspark import TaskContext

    context = TaskContext.get()
    return max(1, context.cpus()) if context is not None else 1


def stream(command, ok_codes, what, workdir):
    """Yields pgnkit's stdout as text lines while it runs; fails the task with pgnkit's own
    message (its stderr) when it exits with a code outside `ok_codes`. pgnkit runs in the
    driver's working folder where the executor sees it too (a shared file system or local
    mode), so that relative INPUTs open there and keep the names they were given."""
    cwd = workdir if os.path.isdir(workdir) else None
    with tempfile.TemporaryFile() as stderr:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr, cwd=cwd)
        try:
            # newline="" keeps CRLF and newlines inside quoted CSV cells for the csv module.
            yield from io.TextIOWrapper(process.stdout, encoding="utf-8", newline="")
            code = process.wait()
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
        if code not in ok_codes:
            stderr.seek(0)
            # One line, so that it survives Spark's wrapping whole.
            message = " ".join(stderr.read().decode("utf-8", "replace").split("\n")).strip()
            raise PgnkitFailed(
                f"{FAILURE_MARK}{what}: exit code {code}: {message or '(no message)'}"
            )


def games_of_unit(binary_name, unit, shards, tags, workdir, summary_parts):
    """The typed game rows of one task; its summary goes to the accumulator at the end."""
    binary = executor_binary(binary_name)
    threads = task_threads()
    expected_header = [name for name, _ in STATS_COLUMNS] + tags
    kinds = [kind for _, kind in STATS_COLUMNS]
    scratch = tempfile.mkdtemp(prefix="pgnkit-spark-")
    try:
        summary = os.path.join(scratch, "summary.csv")
        command = [binary, "stats", "--summary-output", summary]
        if tags:
            command += ["--tags", ",".join(tags)]
        command += unit_options(unit, shards, threads)
        what = unit_name("stats", unit, shards)
        records = csv.reader(stream(command, {0}, what, workdir))
        header = next(records, None)
        if header != expected_header:
            raise PgnkitFailed(
                f"{FAILURE_MARK}{what}: the binary's header {header} is not the schema's "
                f"{expected_header} (spark/pgnkit_schema.py)"
            )
        for record in records:
            if len(record) != len(expected_header):
                raise PgnkitFailed(
                    f"{FAILURE_MARK}{what}: a row of {len(record)} cells under a header of "
                    f"{len(expected_header)}: {record[:3]}"
                )
            cells = [typed_cell(text, kind) for text, kind in zip(record, kinds)]
            yield tuple(cells + record[len(kinds):])
        # Reached only when pgnkit exited 0: the complete summary of this unit.
        with open(summary, encoding="utf-8") as part:
            summary_parts.add([(unit, part.read())])
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def findings_of_unit(binary_name, unit, shards, level, workdir):
    binary = executor_binary(binary_name)
    command = [binary, "validate", "--format", "jsonl", "--level", level]
    command += unit_options(unit, shards, task_threads())
    what = unit_name("validate", unit, shards)
    keys = [name for name, _ in FINDING_COLUMNS]
    # Exit 1 means "error findings were reported": data, not a failure.
    for line in stream(command, {0, 1}, what, workdir):
        finding = json.loads(line)
        if list(finding) != keys:
            raise PgnkitFailed(f"{FAILURE_MARK}{what}: keys {list(finding)} are not the schema's {keys}")
        yield tuple(finding[key] for key in keys)


def merge_summaries(binary, parts, destination):
    """`pgnkit stats --merge` of the task summaries, in work-unit order; no unit at all gives
    the summary of an empty input."""
    with tempfile.TemporaryDirectory(prefix="pgnkit-spark-summary-") as folder:
        names = []
        for index, (_, text) in enumerate(sorted(parts)):
            name = os.path.join(folder, f"part-{index:06}.csv")
            with open(name, "w", encoding="utf-8", newline="") as part:
                part.write(text)
            names.append(name)
        if names:
            command = [binary, "stats", "--merge", "--quiet", "-o", destination, "--"] + names
        else:
            command = [binary, "stats", "--quiet", "-o", os.devnull, "--summary-output", destination]
        done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True)
        if done.returncode != 0:
            raise PgnkitFailed(f"{FAILURE_MARK}pgnkit stats --merge: {done.stderr.strip()}")


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="pgnkit_spark.py",
        description="Run pgnkit stats and validate over PGN archives on Apache Spark.",
    )
    add = parser.add_argument
    add("--pgnkit", required=True, help="the pgnkit binary (shipped to the executors)")
    add("--out", required=True, help="output folder (games/, findings/, summary.csv)")
    add("--shards", type=int, default=1, help="tasks per file (--shard K/N), default 1")
    add("--tags", default="", help="extra tag columns for games, as stats --tags A,B")
    add("--level", default="warning", choices=["error", "warning", "info"],
        help="validate --level for findings (default warning)")
    add("inputs", nargs="+", metavar="INPUT", help="files or folders every executor can read")
    args = parser.parse_args(argv)
    if args.shards < 1:
        parser.error("--shards must be at least 1")
    args.tags = [tag for tag in args.tags.split(",") if tag] if args.tags else []
    taken = {name.lower() for name, _ in STATS_COLUMNS}
    for tag in args.tags:
        if tag.lower() in taken:
            parser.error(f"--tags {tag}: the games table already has a column of that name")
        taken.add(tag.lower())
    return args


def failure_message(err):
    """pgnkit's own message out of Spark's chain of Java and Python errors."""
    text = str(err)
    at = text.find(FAILURE_MARK)
    if at < 0:
        return text
    return text[at + len(FAILURE_MARK):].splitlines()[0]


def main(argv):
    args = parse_args(argv)
    binary = os.path.abspath(args.pgnkit)
    # Checked before Spark starts, so that the mistake is named at once.
    if not os.path.isfile(binary) or not os.access(binary, os.X_OK):
        print(f"pgnkit-spark: no executable pgnkit binary at {args.pgnkit}", file=sys.stderr)
        return 2
    files, errors = expand_inputs(args.inputs)
    if errors:
        for error in errors:
            print(f"pgnkit-spark: {error}", file=sys.stderr)
        return 2
    out = args.out
    if os.path.exists(os.path.join(out, "summary.csv")):
        print(f"pgnkit-spark: {out}/summary.csv exists: give a new --out", file=sys.stderr)
        return 2

    from pyspark import AccumulatorParam
    from pyspark.sql import SparkSession

    class ListParam(AccumulatorParam):
        def zero(self, value):
            return []

        def addInPlace(self, left, right):
            left.extend(right)
            return left

    spark = SparkSession.builder.appName("pgnkit").getOrCreate()
    context = spark.sparkContext
    context.setLogLevel("WARN")
    context.addFile(binary)
    context.addPyFile(os.path.join(os.path.dirname(os.path.abspath(__file__)), "pgnkit_schema.py"))
    binary_name = os.path.basename(binary)
    units = work_units(files, args.shards)
    slices = max(1, len(units))
    shards, tags, level, workdir = args.shards, args.tags, args.level, os.getcwd()
    # Spark merges the accumulator updates of a result task once, from its successful attempt
    # only: the summary of a failed or retried attempt is never counted.
    summary_parts = context.accumulator([], ListParam())

    def games_of_part(part):
        for unit in part:
            yield from games_of_unit(binary_name, unit, shards, tags, workdir, summary_parts)

    def findings_of_part(part):
        for unit in part:
            yield from findings_of_unit(binary_name, unit, shards, level, workdir)

    try:
        games = context.parallelize(units, slices).mapPartitions(games_of_part)
        spark.createDataFrame(games, games_schema(tags), verifySchema=False).write.parquet(
            os.path.join(out, "games")
        )
        findings = context.parallelize(units, slices).mapPartitions(findings_of_part)
        spark.createDataFrame(findings, findings_schema(), verifySchema=False).write.parquet(
            os.path.join(out, "findings")
        )
        parts = summary_parts.value
        if sorted(unit for unit, _ in parts) != sorted(units):
            raise PgnkitFailed(f"{FAILURE_MARK}{len(parts)} task summaries for {len(units)} tasks")
        merge_summaries(binary, parts, os.path.join(out, "summary.csv"))
    except Exception as err:  # Spark wraps the task's error in Java exceptions.
        print(f"pgnkit-spark: {failure_message(err)}", file=sys.stderr)
        return 2
    finally:
        spark.stop()
    print(f"pgnkit-spark: {len(files)} files, {len(units)} tasks -> {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
