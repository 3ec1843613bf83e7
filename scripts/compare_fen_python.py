#!/usr/bin/env python3
"""Compare `pgnkit fen --ep legal --every-ply` with python-chess's `board.fen()`.

For every PGN file under the corpus folder (default ../shared/corpus, `variants/`
skipped), each game's main line is replayed by python-chess and its FEN after every ply
(ply 0 = start position) is looked for among the games pgnkit writes for that file
(`fen --ep legal --every-ply --format csv`): matched by content, since the two split a
few malformed archives into games differently. Games that python-chess cannot replay
(errors, other variants, null moves) are counted apart. Prints one summary line per
file and a total; exits 1 when any FEN differs.

Usage: scripts/compare_fen_python.py [CORPUS_DIR] [--pgnkit PATH] [--show N]
"""

import argparse
import csv
import io
import logging
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

import chess
import chess.pgn

STANDARD_VARIANTS = {"", "standard", "chess", "fromposition", "chess960", "960",
                     "fischerandom", "fischerrandom", "frc"}


def pgnkit_fens(pgnkit, path):
    """The FEN sequence of every game pgnkit replays, in file order."""
    out = subprocess.run(
        [pgnkit, "fen", "--ep", "legal", "--every-ply", "--format", "csv", "--quiet", str(path)],
        capture_output=True, check=False)
    games = defaultdict(list)
    for row in csv.DictReader(io.StringIO(out.stdout.decode("utf-8"))):
        games[int(row["game"])].append(row["fen"])
    return [tuple(fens) for _, fens in sorted(games.items())]


def python_fens(path):
    """(FEN sequences, games skipped) as python-chess reads the file."""
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    handle = io.StringIO(text)
    games, skipped = [], 0
    while True:
        try:
            game = chess.pgn.read_game(handle)
        except (IndexError, ValueError) as err:  # python-chess gives up on some broken files
            print(f"  python-chess stopped reading {path} at game {len(games) + skipped + 1}: {err!r}")
            break
        if game is None:
            break
        variant = "".join(game.headers.get("Variant", "").lower().split())
        moves = list(game.mainline_moves())
        # Errors, other variants, and null moves (which pgnkit reports as errors and stops
        # at, as SPEC.md asks) are not compared.
        if variant not in STANDARD_VARIANTS or game.errors or chess.Move.null() in moves:
            skipped += 1
            continue
        board = game.board()
        fens = [board.fen()]
        for move in moves:
            board.push(move)
            fens.append(board.fen())
        games.append(tuple(fens))
    return games, skipped


def compare_file(ours, theirs, path, shown, show):
    """Matches every python-chess game to a pgnkit game with the same FENs (the two
    libraries split a few archives into games differently, so indices may not line up).
    Returns (fens compared, fens differing, games unmatched, lines printed)."""
    pool = Counter(ours)
    fens = diff = unmatched = 0
    for seq in theirs:
        fens += len(seq)
        if pool[seq] > 0:
            pool[seq] -= 1
            continue
        unmatched += 1
        # The nearest pgnkit game: same start, longest common prefix.
        best, common = None, 0
        for cand in pool:
            if pool[cand] <= 0 or not cand or cand[0] != seq[0]:
                continue
            n = next((k for k, (a, b) in enumerate(zip(cand, seq)) if a != b), min(len(cand), len(seq)))
            if best is None or n > common:
                best, common = cand, n
        diff += len(seq) - common
        if shown < show:
            shown += 1
            theirs_fen = seq[common] if common < len(seq) else "(game ends)"
            ours_fen = best[common] if best and common < len(best) else "(no such ply)"
            print(f"  DIFF {path}: a {len(seq) - 1}-ply game, ply {common}\n"
                  f"    python-chess {theirs_fen}\n    pgnkit       {ours_fen}")
    return fens, diff, unmatched, shown


def main():
    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)  # its errors are counted, not printed
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", default="../shared/corpus")
    parser.add_argument("--pgnkit", default="target/debug/pgnkit")
    parser.add_argument("--show", type=int, default=5, help="differences to print")
    args = parser.parse_args()

    files = sorted(p for p in Path(args.corpus).rglob("*.pgn") if "variants" not in p.parts)
    totals = Counter()
    shown = 0
    for path in files:
        ours = pgnkit_fens(args.pgnkit, path)
        theirs, skipped = python_fens(path)
        fens, diff, unmatched, shown = compare_file(ours, theirs, path, shown, args.show)
        print(f"{path}: {len(theirs)} games, {fens} FENs, {diff} differ, "
              f"{unmatched} games unmatched, {skipped} skipped")
        totals.update(games=len(theirs), fens=fens, diff=diff, unmatched=unmatched, skipped=skipped)
    print(f"TOTAL: {len(files)} files, {totals['games']} games, {totals['fens']} FENs compared, "
          f"{totals['diff']} differ, {totals['unmatched']} games unmatched, "
          f"{totals['skipped']} games skipped (python-chess errors, null moves, variants)")
    return 1 if totals["diff"] else 0


if __name__ == "__main__":
    sys.exit(main())
