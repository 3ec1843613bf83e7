#!/usr/bin/env python3
"""What `pgnkit moves` writes of each main-line move, done with python-chess: the side of
issue 44's comparison with a python-chess script ("at least 300x"). Per move: game, ply,
SAN, UCI, clock (seconds, `[%clk]`) and evaluation (`eval_cp`, `eval_mate`, White's
view, as `[%eval]` writes it), as CSV.

    python3 scripts/moves_python_chess.py GAMES.pgn > moves.csv
    python3 scripts/moves_python_chess.py --compare target/release/pgnkit GAMES.pgn

`--compare` runs `pgnkit moves` on the same file and checks that every row's columns
equal this script's (the clock as a number): it prints the first rows that differ and
exits 1 if any do. Games in a variant pgnkit does not replay give no rows on either side.
"""

import argparse
import csv
import io
import subprocess
import sys

import chess
import chess.pgn

COLUMNS = ["game", "ply", "san", "uci", "clock", "eval_cp", "eval_mate"]


def seconds_text(seconds):
    """Seconds as pgnkit writes them: an integer, or the decimal without trailing zeros
    (milliseconds at most)."""
    millis = round(seconds * 1000)
    whole, fraction = divmod(millis, 1000)
    if fraction == 0:
        return str(whole)
    return f"{whole}.{fraction:03d}".rstrip("0")


def rows(handle):
    """Each main-line move of each game: its cells in `COLUMNS` order, as text."""
    game_no = 0
    while (game := chess.pgn.read_game(handle)) is not None:
        game_no += 1
        if type(game.board()) is not chess.Board:
            continue  # a variant: pgnkit gives it no moves
        node = game
        ply = 0
        while node.variations:
            parent, node = node, node.variations[0]
            ply += 1
            clock = node.clock()
            score = node.eval()
            white = score.white() if score is not None else None
            yield [
                str(game_no),
                str(ply),
                parent.board().san(node.move),
                node.move.uci(),
                "" if clock is None else seconds_text(clock),
                "" if white is None or white.is_mate() else str(white.score()),
                "" if white is None or not white.is_mate() else str(white.mate()),
            ]


def pgnkit_rows(binary, path):
    """`pgnkit moves`' rows, cut to `COLUMNS`."""
    out = subprocess.run(
        [binary, "--quiet", "moves", path], check=True, capture_output=True
    ).stdout.decode("utf-8")
    return [[row[name] for name in COLUMNS] for row in csv.DictReader(io.StringIO(out))]


def same(ours, theirs):
    """Two rows equal, the clock compared as a number."""
    clock = COLUMNS.index("clock")
    for i, (a, b) in enumerate(zip(ours, theirs)):
        if i == clock and a and b:
            if abs(float(a) - float(b)) > 1e-9:
                return False
        elif a != b:
            return False
    return len(ours) == len(theirs)


def compare(binary, path):
    with open(path, encoding="utf-8", errors="replace") as handle:
        theirs = list(rows(handle))
    ours = pgnkit_rows(binary, path)
    differ = [(a, b) for a, b in zip(ours, theirs) if not same(a, b)]
    for a, b in differ[:5]:
        print(f"pgnkit       {a}\npython-chess {b}", file=sys.stderr)
    if len(ours) != len(theirs):
        print(f"{len(ours)} rows from pgnkit, {len(theirs)} from python-chess", file=sys.stderr)
    clocks = sum(1 for row in theirs if row[4])
    evals = sum(1 for row in theirs if row[5] or row[6])
    print(f"{len(theirs)} moves ({clocks} with a clock, {evals} with an evaluation): "
          + ("equal" if not differ and len(ours) == len(theirs) else f"{len(differ)} differ"))
    return 0 if not differ and len(ours) == len(theirs) else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn")
    parser.add_argument("--compare", metavar="PGNKIT", help="check the rows against pgnkit's")
    args = parser.parse_args()
    if args.compare:
        return compare(args.compare, args.pgn)
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(COLUMNS)
    with open(args.pgn, encoding="utf-8", errors="replace") as handle:
        writer.writerows(rows(handle))
    return 0


if __name__ == "__main__":
    sys.exit(main())
