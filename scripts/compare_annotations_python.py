#!/usr/bin/env python3
"""Cross-check the clock and evaluation columns of `pgnkit stats` against python-chess.

Reads every game of the given PGN files or folders with python-chess (1.11), takes each
main-line move's clock (`node.clock()`) and evaluation (`node.eval()`), computes the
columns of ../shared/SPEC.md "Tag columns and annotations" from them (lichess's
definitions: scores clamped to +-1000, a mate as 1000 for the side that mates, ply 1
never counted, loss = max(0, before - after) for the mover, acpl rounded half away from
zero, judgements by the drop in W(cp) = 2 / (1 + exp(-0.00368208 cp)) - 1 when both
scores are centipawns), runs `pgnkit stats` on the same files and diffs the columns.
Games are matched by file and 1-based index within the file. Also times python-chess
alone (reading the games and computing the columns) and prints its MB/s.

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install chess
    /tmp/venv/bin/python scripts/compare_annotations_python.py \
        --pgnkit target/debug/pgnkit ../shared/corpus/lichess

Where python-chess reads annotations differently from SPEC.md, SPEC.md wins; none of
these occurs in the lichess corpus, and the games where one could are counted apart:
- python-chess joins all comments after a move, also those after a variation that
  follows the move, into the comment of the *next* move; pgnkit gives every main-line
  comment after a move (variations passed over) to that move. Games with a variation
  are listed apart, not compared.
- python-chess's regular expressions want exactly one space after `%clk` / `%eval`,
  read any number of minute and second digits (`0:75:00`), and read 1 to 2 decimals of
  a pawn score only: pgnkit takes any blank space, minutes and seconds below 60 with
  one or two digits, and the same decimals. A game where the two read a different
  number of clocks or evaluations is reported as a disagreement, with its cells.
- `#0` is resolved by python-chess in favour of the side that mated, as SPEC.md does.
- python-chess's `Mate.score(mate_score=...)` is not used: SPEC.md counts a mate as
  exactly 1000 for the side that mates, whatever its distance.

Exit code 0 when every compared cell agrees, 1 otherwise.
"""

import argparse
import collections
import csv
import io
import logging
import math
import os
import subprocess
import sys
import time

import chess
import chess.pgn

logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)

COLUMNS = [
    "clocks", "white_clock_end", "black_clock_end", "white_clock_min", "black_clock_min",
    "evals", "white_acpl", "black_acpl", "white_inaccuracies", "black_inaccuracies",
    "white_mistakes", "black_mistakes", "white_blunders", "black_blunders",
]

CEILING = 1000


def pgn_files(inputs):
    """The .pgn files below the inputs, in byte-wise path order (as pgnkit lists them)."""
    files = []
    for path in inputs:
        if os.path.isdir(path):
            for root, dirs, names in os.walk(path):
                dirs[:] = [d for d in dirs if not d.startswith(".")]
                files += [os.path.join(root, n) for n in names
                          if n.lower().endswith(".pgn") and not n.startswith(".")]
        else:
            files.append(path)
    return sorted(files, key=os.fsencode)


def decode(data):
    """UTF-8 where valid, else Latin-1 (SPEC.md's rule); a BOM is dropped."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def seconds_text(value):
    """pgnkit's format: whole seconds as an integer, else the shortest decimal."""
    if value is None:
        return ""
    if value == int(value):
        return str(int(value))
    return repr(value)


def winning_chances(cp):
    return 2 / (1 + math.exp(-0.00368208 * cp)) - 1


def white_score(pov_score):
    """(centipawns clamped to +-1000 from White's view, whether it was a mate)."""
    white = pov_score.white()
    mate = white.mate()
    if mate is not None:
        # Mate(0) from python-chess's PovScore: the side to move is mated; white() gives
        # -0 for a mated White, +0 for a mated Black.
        if mate == 0:
            white_mates = pov_score.turn == chess.BLACK
        else:
            white_mates = mate > 0
        return (CEILING if white_mates else -CEILING), True
    return max(-CEILING, min(CEILING, white.score())), False


def python_row(game):
    """The annotation columns of one game, from python-chess's clock() and eval()."""
    clocks = evals = 0
    clock_end = [None, None]
    clock_min = [None, None]
    counted = [0, 0]
    loss_sum = [0, 0]
    judged = {"inaccuracies": [0, 0], "mistakes": [0, 0], "blunders": [0, 0]}
    previous = None  # (ply, score) of the last move with an evaluation
    for ply, node in enumerate(game.mainline(), start=1):
        side = 0 if node.turn() == chess.BLACK else 1  # the mover: White when Black is to move
        clock = node.clock()
        if clock is not None:
            clocks += 1
            clock_end[side] = clock
            clock_min[side] = clock if clock_min[side] is None else min(clock_min[side], clock)
        pov = node.eval()
        if pov is None:
            continue
        evals += 1
        score = white_score(pov)
        if previous is not None and ply >= 2 and previous[0] == ply - 1:
            (before, before_mate), (after, after_mate) = previous[1], score
            loss = before - after if side == 0 else after - before
            counted[side] += 1
            loss_sum[side] += max(0, loss)
            if not (before_mate or after_mate):
                change = winning_chances(after) - winning_chances(before)
                drop = -change if side == 0 else change
                if drop >= 0.3:
                    judged["blunders"][side] += 1
                elif drop >= 0.2:
                    judged["mistakes"][side] += 1
                elif drop >= 0.1:
                    judged["inaccuracies"][side] += 1
        previous = (ply, score)

    def acpl(side):
        if counted[side] == 0:
            return ""
        return str((2 * loss_sum[side] + counted[side]) // (2 * counted[side]))

    row = {
        "clocks": str(clocks),
        "white_clock_end": seconds_text(clock_end[0]),
        "black_clock_end": seconds_text(clock_end[1]),
        "white_clock_min": seconds_text(clock_min[0]),
        "black_clock_min": seconds_text(clock_min[1]),
        "evals": str(evals),
        "white_acpl": acpl(0),
        "black_acpl": acpl(1),
    }
    for name, per_side in judged.items():
        row[f"white_{name}"] = str(per_side[0])
        row[f"black_{name}"] = str(per_side[1])
    return row


def has_variation(game):
    return any(len(node.variations) > 1 for node in game.mainline()) or \
        len(game.variations) > 1


def pgnkit_rows(binary, path):
    out = subprocess.run([binary, "stats", "--quiet", path], check=True,
                         capture_output=True).stdout.decode("utf-8")
    return list(csv.DictReader(io.StringIO(out)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pgnkit", default="target/debug/pgnkit")
    parser.add_argument("--examples", type=int, default=3, help="examples per column")
    parser.add_argument("inputs", nargs="+")
    args = parser.parse_args()

    games_total = annotated = compared_cells = 0
    with_clocks = with_evals = 0
    skipped = collections.Counter()
    disagreeing = []
    by_column = collections.defaultdict(list)
    count_mismatch = []
    python_seconds = 0.0
    python_bytes = 0
    for path in pgn_files(args.inputs):
        with open(path, "rb") as f:
            data = f.read()
        started = time.perf_counter()
        stream = io.StringIO(decode(data))
        theirs = []
        while True:
            game = chess.pgn.read_game(stream)
            if game is None:
                break
            theirs.append((game, python_row(game)))
        python_seconds += time.perf_counter() - started
        python_bytes += len(data)
        ours = pgnkit_rows(args.pgnkit, path)
        games_total += len(ours)
        if len(theirs) != len(ours):
            count_mismatch.append((path, len(ours), len(theirs)))
            continue
        for row, (game, expected) in zip(ours, theirs):
            if row["clocks"] == "0" and row["evals"] == "0" \
                    and expected["clocks"] == "0" and expected["evals"] == "0":
                continue  # no annotations: nothing to compare
            annotated += 1
            if row["status"] != "ok" or game.errors:
                skipped["not replayed to the end"] += 1
                continue
            if has_variation(game):
                skipped["variations (python-chess moves comments after them)"] += 1
                continue
            with_clocks += row["clocks"] != "0"
            with_evals += row["evals"] != "0"
            compared_cells += len(COLUMNS)
            wrong = [c for c in COLUMNS if row[c] != expected[c]]
            if wrong:
                disagreeing.append((path, row["game"]))
            for c in wrong:
                by_column[c].append((path, row["game"], row[c], expected[c]))

    compared = annotated - sum(skipped.values())
    print(f"games (pgnkit rows): {games_total}")
    print(f"games with annotations: {annotated}; compared: {compared} "
          f"({with_clocks} with clocks, {with_evals} with evaluations); "
          f"skipped: {dict(skipped)}")
    for path, n_ours, n_theirs in count_mismatch:
        print(f"  game count differs in {path}: pgnkit {n_ours}, python-chess {n_theirs}")
    agreeing = compared - len(disagreeing)
    share = 100.0 * agreeing / compared if compared else 100.0
    print(f"games agreeing on all {len(COLUMNS)} columns: {agreeing} of {compared} "
          f"({share:.1f}%); cells compared: {compared_cells}")
    for column in COLUMNS:
        cases = by_column.get(column, [])
        if cases:
            print(f"  {column}: {len(cases)}")
            for path, game, ours, theirs in cases[:args.examples]:
                print(f"    {path} game {game}: pgnkit {ours!r}, python-chess {theirs!r}")
    if python_seconds > 0:
        print(f"python-chess {chess.__version__} reading and computing: "
              f"{python_bytes / 1e6:.2f} MB in {python_seconds:.2f} s = "
              f"{python_bytes / 1e6 / python_seconds:.2f} MB/s")
    return 1 if disagreeing or count_mismatch else 0


if __name__ == "__main__":
    sys.exit(main())
