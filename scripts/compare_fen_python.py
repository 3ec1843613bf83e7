#!/usr/bin/env python3
"""Compare `pgnkit fen --ep legal --every-ply` with python-chess's `board.fen()`.

For every PGN file under the corpus folder (default ../shared/corpus, `variants/`
skipped), each game's main line is replayed by python-chess and the FEN after every ply
(ply 0 = start position) is compared with pgnkit's CSV row of the same game and ply.
Games that python-chess cannot replay (errors, unsupported variants) are counted apart.
Prints one summary line per file and a total; exits 1 when any FEN differs.

Usage: scripts/compare_fen_python.py [CORPUS_DIR] [--pgnkit PATH] [--show N]
"""

import argparse
import csv
import io
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import chess
import chess.pgn

STANDARD_VARIANTS = {"", "standard", "chess", "fromposition", "chess960", "960",
                     "fischerandom", "fischerrandom", "frc"}


def pgnkit_fens(pgnkit, path):
    """{game index: {ply: fen}} from pgnkit's CSV."""
    out = subprocess.run(
        [pgnkit, "fen", "--ep", "legal", "--every-ply", "--format", "csv", "--quiet", str(path)],
        capture_output=True, check=False)
    games = defaultdict(dict)
    for row in csv.DictReader(io.StringIO(out.stdout.decode("utf-8"))):
        games[int(row["game"])][int(row["ply"])] = row["fen"]
    return games


def python_fens(path):
    """[(fens, ok)] per game, in file order, as python-chess reads the file."""
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    handle = io.StringIO(text)
    games = []
    while True:
        game = chess.pgn.read_game(handle)
        if game is None:
            break
        variant = "".join(game.headers.get("Variant", "").lower().split())
        if variant not in STANDARD_VARIANTS or game.errors:
            games.append((None, False))
            continue
        board = game.board()
        fens = [board.fen()]
        for move in game.mainline_moves():
            board.push(move)
            fens.append(board.fen())
        games.append((fens, True))
    return games


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", default="../shared/corpus")
    parser.add_argument("--pgnkit", default="target/debug/pgnkit")
    parser.add_argument("--show", type=int, default=5, help="differences to print")
    args = parser.parse_args()

    files = sorted(p for p in Path(args.corpus).rglob("*.pgn") if "variants" not in p.parts)
    total_games = total_fens = total_diff = total_skipped = 0
    shown = 0
    for path in files:
        ours = pgnkit_fens(args.pgnkit, path)
        theirs = python_fens(path)
        games = fens = diff = skipped = 0
        for index, (fens_py, ok) in enumerate(theirs, start=1):
            if not ok:
                skipped += 1
                continue
            games += 1
            mine = ours.get(index, {})
            for ply, fen in enumerate(fens_py):
                fens += 1
                if mine.get(ply) != fen:
                    diff += 1
                    if shown < args.show:
                        shown += 1
                        print(f"  DIFF {path} game {index} ply {ply}\n"
                              f"    python-chess {fen}\n    pgnkit       {mine.get(ply)}")
            extra = len(mine) - len(fens_py)
            if extra > 0:
                diff += extra
        print(f"{path}: {games} games, {fens} FENs, {diff} differ, {skipped} skipped")
        total_games += games
        total_fens += fens
        total_diff += diff
        total_skipped += skipped
    print(f"TOTAL: {len(files)} files, {total_games} games, {total_fens} FENs compared, "
          f"{total_diff} differ, {total_skipped} games skipped (python-chess errors or variants)")
    return 1 if total_diff else 0


if __name__ == "__main__":
    sys.exit(main())
