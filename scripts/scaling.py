#!/usr/bin/env python3
"""How far pgnkit's parallel run can scale, measured on this machine and predicted for a
larger one (issue 46).

    scripts/scaling.py [--size MB] [--cut MB] [--runs N] [--commands validate,stats]

For each input kind (plain PGN, .pgn.zst, .pgn.gz, a lichess-layout Parquet table, all
made by `scripts/bench.sh --inputs-only` from the same games) it measures:

1. The serial share: of all the instructions of a run at 2 threads (callgrind, on a cut
   of --cut MiB), those inside the sections that run one thread at a time: the reading
   turn (`pipeline::reading::Input::next`), the numbering turn (`Numbering::number`) and
   the writing turn (`InOrder::add`). Two stages run beside the workers instead, and are
   counted apart: the decompressor's own thread (`fill_block`, one per source whatever
   the workers) and a table's row-group decoders (`GroupBatches::next`, several at once);
   they do not hold the workers up while they keep ahead, so they bind through the feed
   limit, not Amdahl's share.
2. The feed limit: how many MiB/s of the input the one-at-a-time reading can hand out,
   timed alone (`examples/feed_rate.rs`, the median of --runs).
3. One worker's rate: the MiB/s of `pgnkit CMD --threads 1` (median of --runs), and the
   speed-up measured at this machine's cores.

From these it predicts the speed-up at N worker threads: Amdahl's 1 / (s + (1 - s) / N)
with s the serial share, capped by the feed limit over one worker's rate; and for a table,
by its row groups decoded at once (one decoder per three workers). Instructions stand
for time in the share: an approximation, said with the figures.

Needs valgrind (callgrind_annotate), and python with pyarrow for the table (bench.sh
makes it). BENCH_DIR as for bench.sh. Prints Markdown.
"""

import argparse
import math
import os
import re
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PGNKIT = os.path.join(REPO, "target/release/pgnkit")
FEED = os.path.join(REPO, "target/release/examples/feed_rate")

# The sections that run one thread at a time, by the function that holds each (its
# inclusive instructions), and a table's decoding, which runs beside them by row group.
SERIAL = {
    "reading turn": "pgnkit::pipeline::reading::Input::next",
    "numbering turn": "pgnkit::pipeline::parallel::Numbering::number",
    "writing turn": "pgnkit::pipeline::parallel::InOrder<T,D>::add",
}
# The stages beside the workers: counted, not part of the serial share.
BESIDE = {
    "decompressor thread": "pgnkit::input::decompress::fill_block",
    "decoding": "pgnkit::input::table::groups::GroupBatches::next",
}
PREDICT_AT = [2, 8, 16, 64]
# The decoders of a table for N workers (input/pieces.rs, `table_decoders`).
TABLE_DECODERS = lambda workers: max(1, math.ceil(workers / 3))  # noqa: E731


def say(text):
    print(f"scaling: {text}", file=sys.stderr, flush=True)


def run(args, **kw):
    return subprocess.run(args, check=True, **kw)


def run_pgnkit(args, **kw):
    """A pgnkit run: exit 1 (findings reported) is a run like any other."""
    done = subprocess.run(args, **kw)
    if done.returncode not in (0, 1):
        raise subprocess.CalledProcessError(done.returncode, args)
    return done


def inputs(size):
    out = run(
        [os.path.join(REPO, "scripts/bench.sh"), "--size", str(size), "--inputs-only"],
        capture_output=True,
        text=True,
    ).stdout.split()
    kinds = {}
    for path in out:
        kind = ("parquet" if path.endswith(".parquet") else "zst" if path.endswith(".zst")
                else "gz" if path.endswith(".gz") else "pgn")
        kinds[kind] = path
    return kinds


def cut_of(kinds, cut_mb, bench_dir):
    """The same input kinds, made from every k-th game of the input (about --cut MiB),
    so that the cut holds the input's mix (bench.sh's input starts with short puzzles)."""
    pgn = kinds["pgn"]
    cut = os.path.join(bench_dir, f"scaling-cut-{cut_mb}.pgn")
    made = {"pgn": cut}
    if not os.path.exists(cut):
        every = max(1, os.path.getsize(pgn) // (cut_mb * 1024 * 1024))
        game = 0
        with open(pgn, "rb") as source, open(cut, "wb") as out:
            for line in source:
                if line.startswith(b"[Event "):
                    game += 1
                if game % every == 1 or every == 1:
                    out.write(line)
    if "zst" in kinds:
        made["zst"] = cut + ".zst"
        if not os.path.exists(made["zst"]):
            run(["zstd", "-q", "-3", "-f", cut, "-o", made["zst"]])
    if "gz" in kinds:
        made["gz"] = cut + ".gz"
        if not os.path.exists(made["gz"]):
            with open(made["gz"], "wb") as out:
                run(["gzip", "-6", "-c", cut], stdout=out)
    if "parquet" in kinds:
        table = os.path.join(bench_dir, f"scaling-cut-{cut_mb}.parquet")
        python = os.environ.get(
            "PYTHON", os.path.expanduser("~/.cache/pgnkit/spark-venv/bin/python"))
        if not os.path.exists(table):
            script = (
                "import sys; sys.path.insert(0, sys.argv[1])\n"
                "import parquet_fixtures as f, pyarrow.parquet as pq\n"
                "t = f.lichess_table(f.standard(f.read_pgn(sys.argv[2])))\n"
                "pq.write_table(t, sys.argv[3], compression='zstd', row_group_size=20_000)\n"
            )
            run([python, "-c", script, os.path.join(REPO, "scripts"), cut, table])
        made["parquet"] = table
    return made


def instructions(command, path, bench_dir):
    """Total instructions of a 2-thread run, and those inside each serial section."""
    out = os.path.join(bench_dir, "scaling.callgrind")
    run_pgnkit(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", PGNKIT,
                "--threads", "2", command, "-q", path],
               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return inclusive_costs(out)


def inclusive_costs(path):
    """The run's total, and each wanted function's inclusive instructions: the costs of
    the calls made to it (none of them recursive), read from callgrind's own file."""
    wanted = dict(SERIAL, **BESIDE)
    names = {}  # compressed id -> name
    found = {name: 0 for name in wanted}
    total = 0
    target = None  # the section a `calls=` line points at, for the cost line after it
    pending = False
    id_re = re.compile(r"^c?fn=\((\d+)\)(?: (.*))?$")
    with open(path, encoding="utf-8", errors="replace") as lines:
        for line in lines:
            line = line.rstrip("\n")
            if line.startswith(("fn=", "cfn=")):
                match = id_re.match(line)
                if match:
                    ident, name = match.groups()
                    if name:
                        names[ident] = name
                    if line.startswith("cfn="):
                        full = names.get(ident, "")
                        target = next((key for key, function in wanted.items()
                                       if full.endswith(function)), None)
                continue
            if line.startswith("calls="):
                pending = True
                continue
            if pending:
                pending = False
                parts = line.split()
                if target and len(parts) >= 2:
                    found[target] += int(parts[1])
                continue
            if line.startswith(("summary:", "totals:")):
                total = int(line.split()[1])
    return total, found


def wall(args, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run_pgnkit(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def feed_rate(path, workers, runs):
    rates = []
    for _ in range(runs):
        line = run([FEED, "--workers", str(workers), path], capture_output=True,
                   text=True).stdout.split()
        rates.append(float(line[4]))
    return statistics.median(rates)


def row_groups(path):
    python = os.environ.get(
        "PYTHON", os.path.expanduser("~/.cache/pgnkit/spark-venv/bin/python"))
    out = run([python, "-c", "import sys, pyarrow.parquet as pq; "
               "print(pq.ParquetFile(sys.argv[1]).num_row_groups)", path],
              capture_output=True, text=True).stdout
    return int(out.strip())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=200, help="input MiB (bench.sh's)")
    parser.add_argument("--cut", type=int, default=8, help="MiB measured under callgrind")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--commands", default="validate,stats")
    parser.add_argument("--skip-callgrind", action="store_true",
                        help="no serial share (taken as 0): the wall figures only")
    parser.add_argument("--skip-wall", action="store_true",
                        help="the serial share only (callgrind's counts need no quiet host)")
    args = parser.parse_args()
    bench_dir = os.environ.get("BENCH_DIR", os.path.join(os.environ.get("TMPDIR", "/tmp"),
                                                         "pgnkit-bench"))
    os.makedirs(bench_dir, exist_ok=True)
    say("building pgnkit and examples/feed_rate (release)")
    run(["cargo", "build", "--release", "--quiet", "--bin", "pgnkit", "--example",
         "feed_rate"], cwd=REPO)
    kinds = inputs(args.size)
    cuts = cut_of(kinds, args.cut, bench_dir)
    cores = os.cpu_count() or 1
    commands = args.commands.split(",")

    print(f"# pgnkit scaling, {args.size} MiB input, {cores} cores here\n")
    print("## Serial share (instructions at --threads 2, callgrind, "
          f"{args.cut} MiB cut)\n")
    print("| input | command | total | reading turn | numbering | writing | "
          "decompressor | serial share | table decoding |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    share = {}
    for kind, path in cuts.items():
        for command in commands:
            if args.skip_callgrind:
                share[(kind, command)] = 0.0
                continue
            say(f"callgrind: {command} {path}")
            total, found = instructions(command, path, bench_dir)
            serial = sum(found[name] for name in SERIAL)
            share[(kind, command)] = serial / total if total else 0.0
            m = lambda n: f"{n / 1e6:,.1f} M"  # noqa: E731
            print(f"| {kind} | {command} | {m(total)} | {m(found['reading turn'])} | "
                  f"{m(found['numbering turn'])} | {m(found['writing turn'])} | "
                  f"{m(found['decompressor thread'])} | {100 * share[(kind, command)]:.2f}% | "
                  f"{m(found['decoding'])} |")

    if args.skip_wall:
        return
    print(f"\n## Feed limit and one worker's rate (wall, median of {args.runs})\n")
    print("| input | MiB | feed limit (MiB/s) | command | 1 thread (MiB/s) | "
          f"{cores} threads (MiB/s) | speed-up at {cores} | feed / 1 thread |")
    print("| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: |")
    rates = {}
    for kind, path in kinds.items():
        mib = os.path.getsize(path) / 1048576
        say(f"feed rate: {path}")
        # One worker: a table then decodes one row group at a time, its rate per decoder.
        feed = feed_rate(path, 1 if kind == "parquet" else 2, args.runs)
        for command in commands:
            say(f"wall: {command} {path}")
            one = mib / wall([PGNKIT, "--threads", "1", command, "-q", path], args.runs)
            many = mib / wall([PGNKIT, "--threads", str(cores), command, "-q", path],
                              args.runs)
            rates[(kind, command)] = (feed, one)
            print(f"| {kind} | {mib:.1f} | {feed:,.0f} | {command} | {one:.1f} | "
                  f"{many:.1f} | {many / one:.2f}x | {feed / one:.1f} |")

    groups = row_groups(kinds["parquet"]) if "parquet" in kinds else 0
    print("\n## Predicted speed-up at N worker threads (x N: the efficiency)\n")
    print("Amdahl's law on the serial share, capped by the feed limit over one worker's "
          "rate (for a table: by the row groups decoded at once, one decoder per three "
          f"workers, at most the file's {groups} row groups).\n")
    print("| input | command | serial share | " +
          " | ".join(f"N = {n}" for n in PREDICT_AT) + " |")
    print("| --- | --- | ---: | " + " | ".join("---:" for _ in PREDICT_AT) + " |")
    for (kind, command), (feed, one) in rates.items():
        s = share.get((kind, command), 0.0)
        cells = []
        for n in PREDICT_AT:
            amdahl = 1 / (s + (1 - s) / n)
            cap = feed / one
            if kind == "parquet":
                cap *= min(TABLE_DECODERS(n), max(groups, 1))
            speedup = min(amdahl, cap)
            cells.append(f"{speedup:.1f}x ({speedup / n:.2f})")
        print(f"| {kind} | {command} | {100 * s:.2f}% | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
