#!/usr/bin/env python3
"""Cross-check `pgnkit stats` against python-chess.

Computes the stats columns of ../shared/SPEC.md with python-chess (1.11) for every game
of the given PGN files or folders, runs `pgnkit stats` on the same files, and diffs the
two column by column. Games are matched by file and 1-based index within the file.
Prints the number of games compared, the disagreements per column with examples, and
the final-position counts next to the reference numbers of the corpus README.

    pip install chess
    python3 scripts/compare_stats_python.py --pgnkit target/debug/pgnkit \
        ../shared/corpus/lichess ../shared/corpus/otb ../shared/corpus/rules

Exit code 0 when every compared cell agrees, 1 otherwise.
"""

import argparse
import bisect
import collections
import csv
import io
import os
import re
import subprocess
import sys

import chess
import chess.pgn
import logging

logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)

COLUMNS = [
    "result", "plies", "termination", "final_fen", "checks", "captures", "castles",
    "en_passant", "promotions", "under_promotions", "missed_en_passant", "max_repetition",
    "threefold_ply", "fivefold_ply", "fifty_move_ply", "seventy_five_move_ply",
    "perpetual_check", "insufficient_material", "result_consistent",
]

DRAWS = {"1/2-1/2"}
DECISIVE = {"1-0", "0-1"}


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


def opt(value):
    return "" if value is None else str(value)


def flag(value):
    return "true" if value else "false"


def python_row(game):
    """The stats columns of one game, computed with python-chess; None if it did not replay."""
    if game.errors:
        return None
    board = game.board()
    if type(board) is not chess.Board:  # a variant: pgnkit skips it
        return None
    key = board._transposition_key  # FIDE 9.2.3: rights and a legal en passant square
    seen = collections.Counter([key()])
    keys = [key()]
    gave_check = [False]
    counts = collections.Counter()
    row = {"threefold_ply": None, "fivefold_ply": None, "fifty_move_ply": None,
           "seventy_five_move_ply": None}
    max_rep = 1

    def clock_rules(ply):
        if row["fifty_move_ply"] is None and board.is_fifty_moves():
            row["fifty_move_ply"] = ply
        if row["seventy_five_move_ply"] is None and board.is_seventyfive_moves():
            row["seventy_five_move_ply"] = ply

    clock_rules(0)
    ply = 0
    for move in game.mainline_moves():
        counts["captures"] += board.is_capture(move)
        counts["castles"] += board.is_castling(move)
        counts["en_passant"] += board.is_en_passant(move)
        if move.promotion:
            counts["promotions"] += 1
            counts["under_promotions"] += move.promotion != chess.QUEEN
        counts["missed_en_passant"] += (board.has_legal_en_passant()
                                        and not board.is_en_passant(move))
        board.push(move)
        ply += 1
        check = board.is_check()
        counts["checks"] += check
        k = key()
        seen[k] += 1
        keys.append(k)
        gave_check.append(check)
        n = seen[k]
        max_rep = max(max_rep, n)
        if n >= 3 and row["threefold_ply"] is None:
            row["threefold_ply"] = ply
        if n >= 5 and row["fivefold_ply"] is None:
            row["fivefold_ply"] = ply
        clock_rules(ply)

    final_count = seen[keys[-1]]
    clock = board.halfmove_clock
    if board.is_checkmate():
        termination = "checkmate"
    elif board.is_stalemate():
        termination = "stalemate"
    elif board.is_insufficient_material():
        termination = "insufficient-material"
    elif final_count >= 5:
        termination = "fivefold-repetition"
    elif clock >= 150:
        termination = "seventy-five-moves"
    elif final_count >= 3:
        termination = "threefold-repetition"
    elif clock >= 100:
        termination = "fifty-moves"
    else:
        termination = "none"

    # Perpetual check: the final position 3 times, and one side checked with every one
    # of its moves since that position first occurred.
    perpetual = False
    if final_count >= 3:
        first = keys.index(keys[-1])
        last = len(keys) - 1
        for start in (last, last - 1):
            plies = range(start, first, -2)
            if len(plies) and all(gave_check[p] for p in plies):
                perpetual = True

    result = game.headers.get("Result", "*").strip() or "*"
    consistent = True
    if termination == "checkmate":
        winner = "1-0" if board.turn == chess.BLACK else "0-1"
        consistent = not (result in DRAWS or (result in DECISIVE and result != winner))
    elif termination in ("stalemate", "fivefold-repetition", "seventy-five-moves"):
        consistent = result not in DECISIVE

    row.update(counts)
    row.update({
        "result": result,
        "plies": ply,
        "termination": termination,
        "final_fen": board.fen(en_passant="fen"),
        "max_repetition": max_rep,
        "perpetual_check": flag(perpetual),
        "insufficient_material": flag(board.is_insufficient_material()),
        "result_consistent": flag(consistent),
    })
    return {c: opt(row.get(c, 0)) for c in COLUMNS}


def pgnkit_rows(binary, path):
    out = subprocess.run([binary, "stats", "--quiet", path], check=True,
                         capture_output=True).stdout.decode("utf-8")
    return list(csv.DictReader(io.StringIO(out)))


def summary_of(binary, inputs):
    """`pgnkit stats --summary-output` of one run over all inputs: section -> key -> count."""
    out = subprocess.run([binary, "stats", "--quiet", "-o", os.devnull,
                          "--summary-output", "/dev/stdout", *inputs],
                         check=True, capture_output=True).stdout.decode("utf-8")
    summary = collections.defaultdict(dict)
    for row in csv.DictReader(io.StringIO(out)):
        summary[row["section"]][row["key"]] = int(row["count"])
    return summary


def reference_counts(readme, folders):
    """The README's final-position counts summed over the files of the folders."""
    totals = collections.Counter()
    pattern = re.compile(r"^\| `([^`]+)`[^|]*\| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|")
    for line in open(readme, encoding="utf-8"):
        m = pattern.match(line)
        if m and any(m.group(1).startswith(f + "/") for f in folders):
            for name, value in zip(["games", "mate", "stalemate", "insufficient", "5-fold",
                                    "3-fold", "50-move"], m.groups()[1:]):
                totals[name] += int(value)
    return totals


def readme_class(termination):
    """README's order: mate, stalemate, insufficient, 5-fold, 3-fold, 50-move (75 included)."""
    return {"checkmate": "mate", "stalemate": "stalemate",
            "insufficient-material": "insufficient", "fivefold-repetition": "5-fold",
            "threefold-repetition": "3-fold", "fifty-moves": "50-move",
            "seventy-five-moves": "50-move"}.get(termination)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pgnkit", default="target/debug/pgnkit")
    parser.add_argument("--examples", type=int, default=3, help="examples per column")
    parser.add_argument("inputs", nargs="+")
    args = parser.parse_args()

    compared = skipped = 0
    games_total = 0
    disagreeing_games = []
    by_column = collections.defaultdict(list)
    skipped_why = collections.Counter()
    count_mismatch = []
    split_games = []
    crashes = []
    for path in pgn_files(args.inputs):
        with open(path, "rb") as f:
            text = decode(f.read())
        stream = io.StringIO(text)
        ours = pgnkit_rows(args.pgnkit, path)
        games_total += len(ours)
        # python-chess's games, each with the line of its first non-blank character, so
        # that they can be matched to pgnkit's rows by line even where the two split the
        # file differently.
        newlines = [i for i, c in enumerate(text) if c == "\n"]
        theirs = []
        while True:
            offset = stream.tell()
            try:
                game = chess.pgn.read_game(stream)
            except Exception as error:  # python-chess gives up on some broken input
                crashes.append((path, len(theirs) + 1, repr(error)))
                break
            if game is None:
                break
            start = re.compile(r"\S").search(text, offset)
            line = bisect.bisect_left(newlines, start.start() if start else offset) + 1
            theirs.append((line, game))
        if len(theirs) != len(ours):
            count_mismatch.append((path, len(ours), len(theirs)))
        lines = [int(row["line"]) for row in ours]
        groups = collections.defaultdict(list)
        for line, game in theirs:
            groups[bisect.bisect_right(lines, line) - 1].append((line, game))
        for i, row in enumerate(ours):
            group = groups.get(i, [])
            if len(group) != 1:
                split_games.append((path, row["game"], row["line"], [l for l, _ in group]))
                if not group:
                    continue
            # Where python-chess split one game in two, its part with the moves is compared.
            game = max(group, key=lambda lg: len(list(lg[1].mainline_moves())))[1]
            expected = python_row(game)
            if row["status"] != "ok" or expected is None:
                skipped += 1
                skipped_why[(row["status"], "python-chess error" if game.errors else
                             ("variant" if expected is None else "ok"))] += 1
                continue
            compared += 1
            wrong = [c for c in COLUMNS if row[c] != expected[c]]
            if wrong:
                disagreeing_games.append((path, row["game"]))
            for c in wrong:
                by_column[c].append((path, row["game"], row[c], expected[c]))

    print(f"games (pgnkit rows): {games_total}")
    print(f"games compared: {compared}; skipped: {skipped} {dict(skipped_why)}")
    for path, n_ours, n_theirs in count_mismatch:
        print(f"  game count differs in {path}: pgnkit {n_ours}, python-chess {n_theirs}")
    for path, game, error in crashes:
        print(f"  python-chess stopped reading {path} at its game {game}: {error}")
    for path, game, line, starts in split_games:
        print(f"  {path} game {game} (line {line}): python-chess games starting at lines {starts}")
    print(f"games with a disagreement: {len(disagreeing_games)}")
    for column in COLUMNS:
        cases = by_column.get(column, [])
        if cases:
            print(f"  {column}: {len(cases)}")
            for path, game, ours, theirs in cases[:args.examples]:
                print(f"    {path} game {game}: pgnkit {ours!r}, python-chess {theirs!r}")

    folders = sorted({os.path.basename(os.path.normpath(p)) for p in args.inputs
                      if os.path.isdir(p)})
    readme = os.path.join(os.path.dirname(os.path.normpath(args.inputs[0])), "README.md")
    if folders and os.path.exists(readme):
        summary = summary_of(args.pgnkit, args.inputs)
        classes = collections.Counter()
        for key, count in summary.get("termination", {}).items():
            if readme_class(key):
                classes[readme_class(key)] += count
        reference = reference_counts(readme, folders)
        print(f"final positions, pgnkit --summary-output vs {readme} ({', '.join(folders)}):")
        for name in ["games", "mate", "stalemate", "insufficient", "5-fold", "3-fold",
                     "50-move"]:
            ours = summary["games"]["games"] if name == "games" else classes[name]
            mark = "" if ours == reference[name] else "   <- differs"
            print(f"  {name:<13} pgnkit {ours:>6}  README {reference[name]:>6}{mark}")
        print("  (pgnkit's 50-move = fifty-moves + seventy-five-moves; status: "
              f"{summary.get('status')})")
    return 1 if disagreeing_games else 0


if __name__ == "__main__":
    sys.exit(main())
