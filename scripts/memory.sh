#!/usr/bin/env bash
# scripts/memory.sh [THREADS...]
#
# Bounded under attack (issue 15): builds each hostile input and prints, for each command
# at each thread count (default 1, 2 and 16), the peak RSS (GNU time's maximum resident set
# size) and seconds, against the bound it must stay under:
#
#   1M `*` lines (2 MB), 100k `1. e4 *` games, 9 MB of `[A ""]\n*\n`     validate, stats
#   eight legal 7.8 MB games, moves and variations on every line          stats, convert,
#                                                                         validate --variations
#   one game of a million tags (under the 8 MiB game limit)               validate
#   a 60 MB EPD file                                 check-fen --input, pgn --input
#   50 MB of ordinary games (../shared/bench/make-corpus.sh)             validate
#
# The bound is 64 MB, except for the eight 8 MB games: each worker holds its game's bytes
# and its tokens (16 bytes per token: up to about 5 times the bytes of dense movetext) and
# what the command keeps of it (convert: the game's output), and the C library's allocator
# keeps some of what each thread freed, so the bound there is 64 MB + 64 MB per worker
# (about 8 times a game's bytes; 16 threads are 8 workers on 2 cores, and 8 games are at
# most 8 at once). A run over its bound is marked OVER and the exit status is 1. Environment: PGNKIT (the binary; default target/release/pgnkit, built if missing),
# WORK (where the inputs go; default a temporary folder, removed).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
threads=("$@")
[ ${#threads[@]} -gt 0 ] || threads=(1 2 16)
bin=${PGNKIT:-target/release/pgnkit}
# The benchmark corpus script, next to the repository (or to its worktree folder).
make_corpus=${MAKE_CORPUS:-../shared/bench/make-corpus.sh}
[ -f "$make_corpus" ] || make_corpus=../../shared/bench/make-corpus.sh
[ -x "$bin" ] || cargo build --release --locked || exit 2
[ -x /usr/bin/time ] || { echo "memory.sh: needs GNU time (apt-get install time)" >&2; exit 2; }
work=${WORK:-$(mktemp -d)}
[ -n "${WORK:-}" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work"

status=0
# measure LABEL BOUND_MB THREADS COMMAND... : runs pgnkit, prints peak RSS and seconds.
measure() {
  local label=$1 bound=$2 t=$3
  shift 3
  /usr/bin/time -f '%M %e' -o "$work/time" "$bin" "$@" --threads "$t" -o /dev/null \
    > /dev/null 2> "$work/stderr"
  local code=$? kb secs mark=""
  # GNU time puts "Command exited with non-zero status N" first when the exit is not 0.
  read -r kb secs < <(tail -n 1 "$work/time")
  if [ "$kb" -ge $((bound * 1024)) ] || [ "$code" -gt 1 ]; then mark=OVER; status=1; fi
  printf '%-34s %-22s --threads %-2s peak RSS %7.1f MB (bound %4s MB) %7.2f s exit %s %s\n' \
    "$label" "$1" "$t" "$(echo "$kb / 1024" | bc -l)" "$bound" "$secs" "$code" "$mark"
}

echo "building the inputs in $work" >&2
python3 - "$work" <<'EOF'
import sys
work = sys.argv[1]
open(f"{work}/stars.pgn", "w").write("*\n" * 1_000_000)
open(f"{work}/e4.pgn", "w").write("1. e4 *\n" * 100_000)
tiny = '[A ""]\n*\n'
open(f"{work}/tiny-tagged.pgn", "w").write(tiny * (9_000_000 // len(tiny)))
# A million tags: two-letter names, each repeated (2704 tag.duplicate findings).
letters = [chr(c) for c in list(range(65, 91)) + list(range(97, 123))]
names = [a + b for a in letters for b in letters]
with open(f"{work}/tags.pgn", "w") as out:
    out.write("".join('[%s ""]\n' % names[i % len(names)] for i in range(1_000_000)))
    out.write("\n*\n")
# Eight legal 7.8 MB games: 40 plies of a Ruy Lopez, each followed by variations that
# replay the next plies from there, one per line.
moves = ("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7 "
         "Nbd2 Bb7 Bc2 Re8 Nf1 Bf8 Ng3 g6 a4 c5 d5 c4 Bg5 h6 Be3 Nc5 Qd2 h5 Bg5 Be7").split()
def line(i, end):
    out = []
    for j in range(i, end):
        if j % 2 == 0 or j == i:
            out.append("%d.%s" % (j // 2 + 1, "" if j % 2 == 0 else ".."))
        out.append(moves[j])
    return " ".join(out)
per_ply = 7_800_000 // len(moves)
with open(f"{work}/large-games.pgn", "w") as out:
    for g in range(8):
        out.write('[Event "large %d"]\n[Site "?"]\n[Date "2024.01.01"]\n[Round "1"]\n'
                  '[White "a"]\n[Black "b"]\n[Result "*"]\n\n' % g)
        for i in range(len(moves)):
            variation = "(" + line(i, min(i + 12, len(moves))) + ")\n"
            out.write(line(i, i + 1) + "\n" + variation * (per_ply // len(variation)))
        out.write("*\n\n")
# 60 MB of EPD lines.
epd = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 bm e5; id \"pos\";\n"
open(f"{work}/positions.epd", "w").write(epd * (60_000_000 // len(epd)))
EOF
if [ -f "$make_corpus" ]; then
  bash "$make_corpus" "$work/ordinary.pgn" 50 > /dev/null 2>&1
fi

for t in "${threads[@]}"; do
  large=$((64 + 64 * (t < 8 ? t : 8)))
  measure "1M '*' lines (2 MB)" 64 "$t" validate --quiet "$work/stars.pgn"
  measure "1M '*' lines (2 MB)" 64 "$t" stats --quiet "$work/stars.pgn"
  measure "100k '1. e4 *'" 64 "$t" validate --quiet "$work/e4.pgn"
  measure "100k '1. e4 *'" 64 "$t" stats --quiet "$work/e4.pgn"
  measure "9 MB of '[A \"\"] *'" 64 "$t" validate --quiet "$work/tiny-tagged.pgn"
  measure "9 MB of '[A \"\"] *'" 64 "$t" stats --quiet "$work/tiny-tagged.pgn"
  measure "8 legal 7.8 MB games" "$large" "$t" stats --quiet "$work/large-games.pgn"
  measure "8 legal 7.8 MB games" "$large" "$t" convert --quiet "$work/large-games.pgn"
  measure "8 legal 7.8 MB games" "$large" "$t" validate --variations --quiet "$work/large-games.pgn"
  measure "1M tags in one game" 128 "$t" validate --quiet "$work/tags.pgn"
  measure "60 MB EPD" 64 "$t" check-fen --input "$work/positions.epd"
  measure "60 MB EPD" 64 "$t" pgn --input "$work/positions.epd"
  [ -f "$work/ordinary.pgn" ] && measure "50 MB ordinary games" 64 "$t" validate --quiet "$work/ordinary.pgn"
done
exit $status
