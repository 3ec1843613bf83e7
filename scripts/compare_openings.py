#!/usr/bin/env python3
"""Compare pgnkit's opening names with the ECO and Opening tags lichess wrote.

Runs `pgnkit stats` on the given PGN files (lichess exports), reads its `opening_eco`,
`opening_name` and `opening_ply` columns, and compares them with each game's `ECO` and
`Opening` tags (lichess wrote them from an older version of the same data set). Games are
matched by file and 1-based index; a file's games are found by their `[Event ` lines, so
the files must be plain lichess exports (the script stops if the counts differ).

    python3 scripts/compare_openings.py --pgnkit target/release/pgnkit \
        ../shared/corpus/lichess/*.pgn

Prints the games compared (those with both tags and a standard start), the agreement of
the ECO code and of the name, and the most frequent disagreements with an example game.
"""

import argparse
import collections
import csv
import io
import re
import subprocess
import sys

TAG = re.compile(r'^\[(\w+) "(.*)"\]\s*$')


def tags_by_game(path):
    """The tags of each game of a lichess export, in order."""
    games = []
    with open(path, encoding="utf-8", errors="replace") as text:
        for line in text:
            if line.startswith("[Event "):
                games.append({})
            match = TAG.match(line)
            if match and games:
                games[-1][match.group(1)] = match.group(2)
    return games


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pgnkit", default="target/release/pgnkit")
    parser.add_argument("--examples", type=int, default=12)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()

    compared = eco_same = name_same = both_same = 0
    differences = collections.Counter()
    example = {}
    for path in args.files:
        tags = tags_by_game(path)
        out = subprocess.run(
            [args.pgnkit, "stats", "--quiet", path],
            check=True, capture_output=True, text=True,
        ).stdout
        rows = list(csv.DictReader(io.StringIO(out)))
        if len(rows) != len(tags):
            sys.exit(f"{path}: pgnkit read {len(rows)} games, the script {len(tags)}")
        for row, game in zip(rows, tags):
            if "ECO" not in game or "Opening" not in game or "FEN" in game:
                continue
            if game.get("Variant", "Standard") != "Standard":
                continue
            compared += 1
            # lichess writes `?` for a game it did not name (no moves): pgnkit's empty cells.
            eco, name = (("", "") if game["ECO"] == "?" else (game["ECO"], game["Opening"]))
            same_eco = row["opening_eco"] == eco
            same_name = row["opening_name"] == name
            eco_same += same_eco
            name_same += same_name
            both_same += same_eco and same_name
            if not (same_eco and same_name):
                key = (game["ECO"], game["Opening"], row["opening_eco"], row["opening_name"])
                differences[key] += 1
                example.setdefault(key, f"{path} game {row['game']} (ply {row['opening_ply']})")

    if compared == 0:
        sys.exit("no game with ECO and Opening tags")
    share = lambda n: f"{n} ({100.0 * n / compared:.1f}%)"
    print(f"games compared: {compared}")
    print(f"same ECO:       {share(eco_same)}")
    print(f"same name:      {share(name_same)}")
    print(f"same both:      {share(both_same)}")
    print(f"\nmost frequent differences (lichess tag -> pgnkit), of {len(differences)} kinds:")
    for (eco, name, our_eco, our_name), n in differences.most_common(args.examples):
        print(f"{n:5}  {eco} {name}\n       -> {our_eco} {our_name}\n       e.g. {example[(eco, name, our_eco, our_name)]}")


if __name__ == "__main__":
    main()
