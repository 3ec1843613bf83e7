#!/usr/bin/env python3
"""Independent game counter: counts games per file by SPEC.md's definition ("What a game
is") with a simple line-oriented reading of its own, and compares each count with the one
`pgnkit validate` reports. Usage: scripts/count_games.py [PGNKIT] DIR_OR_FILE...

A game is a tag section followed by movetext, or movetext alone. Blank lines do not split
a game; a tag line after movetext, or movetext after a termination marker, starts a new
one. `%` lines are skipped, `{...}` comments may span lines, `;` comments end at the line.
"""
import os
import re
import subprocess
import sys

RESULT = re.compile(rb"^(1-0|0-1|1/2-1/2|\*|\xc2\xbd-\xc2\xbd)$")
TAG_START = re.compile(rb"^\s*(\xef\xbb\xbf)?\s*\[")
TAG_LIKE = re.compile(rb'^\s*\[[A-Za-z][A-Za-z0-9_]*\s*"')


def count_games(data: bytes) -> int:
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or (len(data) > 1 and (data[0] == 0) != (data[1] == 0)):
        return 1  # UTF-16/32: one unreadable game
    games = 0
    in_game = False
    has_movetext = False
    finished = False
    in_comment = False
    depth = 0
    for line in data.split(b"\n"):
        stripped = line.replace(b"\xef\xbb\xbf", b"").strip()
        if in_comment:
            if TAG_LIKE.match(line):  # an open comment ends where a game clearly starts
                in_comment = False
                games += 1
                in_game, has_movetext, finished, depth = True, False, False, 0
                continue
            if b"}" not in line:
                continue
            line = line[line.index(b"}") + 1 :]
            in_comment = False
            stripped = line.strip()
        elif not stripped:
            continue
        elif line.startswith(b"%"):
            continue
        elif TAG_START.match(line):
            if not in_game or has_movetext or finished:
                games += 1
                in_game, has_movetext, finished, depth = True, False, False, 0
            continue
        elif finished or not in_game:
            games += 1
            in_game, has_movetext, finished, depth = True, False, False, 0
        if not stripped:
            continue
        # movetext: strip comments, track variations and results
        i = 0
        text = line
        while i < len(text):
            c = text[i : i + 1]
            if in_comment:
                j = text.find(b"}", i)
                if j < 0:
                    break
                in_comment = False
                i = j + 1
                continue
            if c == b"{":
                in_comment = True
                has_movetext = True
                i += 1
            elif c == b";":
                has_movetext = True
                break
            elif c == b"(":
                depth += 1
                has_movetext = True
                i += 1
            elif c == b")":
                depth = max(0, depth - 1)
                i += 1
            elif c.isspace():
                i += 1
            else:
                m = re.match(rb"[^\s{}();]+", text[i:])
                word = m.group(0) if m else c
                has_movetext = True
                # a result may be glued to nothing else; strip move numbers
                bare = re.sub(rb"^\d+\.+", b"", word)
                if depth == 0 and (RESULT.match(bare) or bare.endswith(b"*")):
                    finished = True
                i += len(word)
    return games


def pgnkit_count(pgnkit: str, path: str) -> int:
    out = subprocess.run([pgnkit, "validate", "--threads", "1", path], capture_output=True)
    m = re.search(rb"files?, ([\d,]+) games", out.stderr)
    return int(m.group(1).replace(b",", b"")) if m else -1


def main() -> int:
    args = sys.argv[1:]
    pgnkit = "target/release/pgnkit"
    if args and os.access(args[0], os.X_OK) and not os.path.isdir(args[0]):
        pgnkit, args = args[0], args[1:]
    files = []
    for arg in args:
        if os.path.isdir(arg):
            for root, dirs, names in os.walk(arg):
                dirs[:] = [d for d in dirs if not d.startswith(".")]
                files += [os.path.join(root, n) for n in names if n.lower().endswith(".pgn")]
        else:
            files.append(arg)
    files.sort(key=os.fsencode)
    total_ours = total_pgnkit = disagreements = 0
    for path in files:
        with open(path, "rb") as f:
            ours = count_games(f.read())
        theirs = pgnkit_count(pgnkit, path)
        total_ours += ours
        total_pgnkit += theirs
        if ours != theirs:
            disagreements += 1
            print(f"DIFF {path}: independent {ours}, pgnkit {theirs}")
    print(f"{len(files)} files, independent count {total_ours}, pgnkit {total_pgnkit}, "
          f"{disagreements} files disagree")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
