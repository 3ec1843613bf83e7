#!/usr/bin/env python3
"""Compare `pgnkit validate` with python-chess, game by game.

For every PGN file under the given folders (default: ../shared/corpus without broken/ and
variants/), python-chess replays each game's main line and notes the ply of the first
move it rejects; pgnkit validate --format jsonl notes the ply of its first error finding.
Every game where the two differ is printed with both verdicts.

    pip install chess
    cargo build && python3 scripts/compare_validate_python.py [--pgnkit target/debug/pgnkit] [ROOT]

Games are matched by their 1-based index within the file; where the two tools split a
file into a different number of games, the file is reported and compared up to the
shorter count (the names of White and Black are checked where pgnkit gives them).
"""

import argparse
import io
import json
import logging
import os
import re
import subprocess
import sys

import chess
import chess.pgn

logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)

SKIP_DIRS = {"broken", "variants"}
REPLAYED_VARIANTS = {"", "standard", "chess", "fromposition", "chess960", "960",
                     "fischerandom", "fischerrandom", "frc"}


class FirstError(chess.pgn.GameBuilder):
    """Records the main-line ply of the first rejected move."""

    def begin_game(self):
        super().begin_game()
        self.first_error = None

    def handle_error(self, error):
        super().handle_error(error)
        if self.first_error is None and len(self.variation_stack) == 1:
            node = self.variation_stack[-1]
            # Plies from the game's own start (a FEN may start at any move number).
            ply = node.ply() - self.game.ply() + 1
            self.first_error = (ply, str(error))

    def result(self):
        game = super().result()
        game.first_error = self.first_error
        return game


def python_verdicts(path):
    data = open(path, "rb").read()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    stream = io.StringIO(text)
    verdicts = []
    previous_empty = False
    while True:
        game = chess.pgn.read_game(stream, Visitor=FirstError)
        if game is None:
            break
        headerless = all(game.headers.get(k) == "?" for k in ("Event", "White", "Black"))
        if previous_empty and headerless and verdicts:
            # python-chess splits a game at blank lines between its tags and its movetext;
            # pgnkit (SPEC "What a game is") reads one game: merge them back.
            _, _, headers = verdicts.pop()
            verdicts.append(("ok" if game.first_error is None else "error",
                             game.first_error, headers))
            previous_empty = False
            continue
        previous_empty = game.next() is None
        variant = re.sub(r"\s", "", game.headers.get("Variant", "")).lower()
        if variant not in REPLAYED_VARIANTS:
            verdicts.append(("skipped", None, game.headers))
            continue
        verdicts.append(("ok" if game.first_error is None else "error",
                         game.first_error, game.headers))
    return verdicts


def pgnkit_verdicts(pgnkit, path):
    out = subprocess.run([pgnkit, "validate", "--format", "jsonl", "--level", "error",
                          "--threads", "1", "-q", path],
                         capture_output=True, text=True)
    first = {}
    for line in out.stdout.splitlines():
        f = json.loads(line)
        game = f["game"]
        if game not in first:
            first[game] = f
    return first


def pgnkit_game_count(pgnkit, path):
    out = subprocess.run([pgnkit, "validate", "--level", "error", "--threads", "1", path],
                         capture_output=True, text=True)
    m = re.search(r"(\d[\d,]*) games?", out.stderr)
    return int(m.group(1).replace(",", "")) if m else None


def pgn_files(roots):
    for root in roots:
        if os.path.isfile(root):
            yield root
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
            for name in sorted(filenames):
                if name.lower().endswith(".pgn"):
                    yield os.path.join(dirpath, name)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pgnkit", default="target/debug/pgnkit")
    parser.add_argument("roots", nargs="*", default=["../shared/corpus"])
    args = parser.parse_args()

    compared = agreed = 0
    disagreements = []
    for path in pgn_files(args.roots):
        python = python_verdicts(path)
        pgnkit = pgnkit_verdicts(args.pgnkit, path)
        count = pgnkit_game_count(args.pgnkit, path)
        if count is not None and count != len(python):
            print(f"# {path}: pgnkit reads {count} games, python-chess {len(python)}")
        for index, (status, error, headers) in enumerate(python, start=1):
            if count is not None and index > count:
                break
            finding = pgnkit.get(index)
            if status == "skipped":
                continue
            if finding and finding["code"].startswith(("setup.unsupported", "input.")):
                continue
            compared += 1
            py_ply = error[0] if error else None
            kit_ply = finding["ply"] if finding else None
            names = tuple("" if headers.get(k, "?") == "?" else headers[k]
                          for k in ("White", "Black"))
            if finding and (finding["white"] or "", finding["black"] or "") != names \
                    and (finding["white"], finding["black"]) != ("?", "?"):
                disagreements.append((path, index, "misaligned", finding, error))
                continue
            if py_ply == kit_ply:
                agreed += 1
                continue
            disagreements.append((path, index, "differ", finding, error))

    for path, index, kind, finding, error in disagreements:
        kit = (f"pgnkit ply {finding['ply']} {finding['code']} `{finding['san']}`: "
               f"{finding['message']}") if finding else "pgnkit: no error"
        py = f"python-chess ply {error[0]}: {error[1]}" if error else "python-chess: no error"
        print(f"{path} game {index} [{kind}]\n    {kit}\n    {py}")
    print(f"compared {compared} games: {agreed} agree, {len(disagreements)} differ")
    return 0


if __name__ == "__main__":
    sys.exit(main())
