#!/usr/bin/env bash
# The benchmark of "Who can still mate" (issue 28; figures in docs/benchmarks-history.md). Not a test.
#
#   scripts/mate_bench.sh [OUT_DIR]        (default target/mate-bench)
#
# 1. examples/mate_positions.rs times every position of testdata/chasolver/positions.txt
#    once, at fast and at full, in one process, and keeps the 50 slowest at fast
#    (OUT_DIR/slowest-fast.tsv, OUT_DIR/slowest-full.tsv: microseconds, label, FEN). Wall
#    time of one process: on a loaded machine an upper bound.
# 2. OUT_DIR/fast.pgn: 10,000 games, each ending in one of the 50 slowest positions at fast
#    (cycled: every position recurs 200 times), run through `stats --mate-check fast`;
#    OUT_DIR/full.pgn: the first 100 of them, through `stats --mate-check full`. Each run
#    once with --threads 1 under /usr/bin/time (peak memory, seconds) and, for fast, under
#    callgrind (instructions: the same on any machine).
# 3. The same two files at `material`, the floor: what the replay costs without analysis.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/mate-bench}
mkdir -p "$out"

cargo build --release --locked --quiet
cargo build --release --locked --quiet --example mate_positions
bin=target/release/pgnkit
positions=target/release/examples/mate_positions

"$positions" fast testdata/chasolver/positions.txt 50 >"$out/slowest-fast.tsv"
"$positions" full testdata/chasolver/positions.txt 50 >"$out/slowest-full.tsv"

# Games with no moves from the FEN: the final position is the one analysed.
python3 - "$out" <<'EOF'
import sys
out = sys.argv[1]
rows = [line.rstrip("\n").split("\t") for line in open(f"{out}/slowest-fast.tsv")]
def games(n):
    text = []
    for i in range(n):
        _, label, fen = rows[i % len(rows)]
        text.append(f'[Event "{label}"]\n[Round "{i + 1}"]\n[Result "*"]\n[SetUp "1"]\n[FEN "{fen}"]\n\n*\n')
    return "\n".join(text)
open(f"{out}/fast.pgn", "w").write(games(10_000))
open(f"{out}/full.pgn", "w").write(games(100))
EOF

measure() { # LEVEL FILE
    /usr/bin/time -f "$1 $(basename "$2"): %e s, %M KiB peak" \
        "$bin" stats --quiet --threads 1 --mate-check "$1" "$2" -o /dev/null
}
for level in material fast; do
    measure "$level" "$out/fast.pgn"
    valgrind --tool=callgrind --callgrind-out-file="$out/$level.cg" \
        "$bin" stats --quiet --threads 1 --mate-check "$level" "$out/fast.pgn" -o /dev/null 2>&1 |
        grep -E "Collected" | sed "s/^==[0-9]*==/$level fast.pgn instructions:/"
done
measure material "$out/full.pgn"
measure full "$out/full.pgn"
echo "slowest position at fast: $(head -1 "$out/slowest-fast.tsv" | cut -f1) us; at full: $(head -1 "$out/slowest-full.tsv" | cut -f1) us"
