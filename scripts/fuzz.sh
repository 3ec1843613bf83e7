#!/usr/bin/env bash
# scripts/fuzz.sh [SECONDS] [TARGET...]
#
# Runs pgnkit's cargo-fuzz targets (fuzz/: split, pipeline, validate, fen, moves,
# san_shortcut, mate_check, parquet), each for SECONDS (default 600, i.e. ten minutes), two at a time, niced;
# MAX_LEN caps the input size (default 1048576: inputs of up to 1 MiB reach several chunks
# and the pipeline's cuts). Needs a nightly toolchain and `cargo install cargo-fuzz`. Seeds
# fuzz/corpus/TARGET from testdata/ and, when present, ../shared/corpus.
#
#   scripts/fuzz.sh                  every target for ten minutes
#   scripts/fuzz.sh 600 pipeline     one target for ten minutes: the threaded pipeline
#                                    (2 and 3 workers) against one thread, game for game
#   scripts/fuzz.sh 600 split        the splitter and the chunker against one splitter
#
# FUZZ_TIMEOUT (default 20) is the seconds an input may take before it counts as a hang:
# on a busy machine the pipeline target (three runs of inputs repeated past three chunks,
# under the sanitizer) took 15 s for one input, so give it 120 there.
# Crashes land in fuzz/artifacts/TARGET/; logs in fuzz/logs/TARGET.log; the last status
# line of each run (executions, coverage, features, corpus) is printed at the end.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(split pipeline validate fen moves san_shortcut mate_check parquet)
shared=../shared/corpus

mkdir -p fuzz/logs fuzz/corpus/split fuzz/corpus/pipeline fuzz/corpus/validate fuzz/corpus/fen \
  fuzz/corpus/moves
for t in "${targets[@]}"; do mkdir -p "fuzz/corpus/$t" "fuzz/artifacts/$t"; done

# Seeds: whole PGN files for the splitter, single games for the validator (pgnkit-sized
# inputs run faster), FEN lines for the FEN checker, movetext lines for the move parser.
seed() { # seed TARGET NAME < data
  cat > "fuzz/corpus/$1/seed-$2"
}
pgns=(testdata/*.pgn testdata/*/*.pgn)
[ -d "$shared" ] && pgns+=("$shared"/broken/*.pgn "$shared"/rules/*.pgn)
n=0
for f in "${pgns[@]}"; do
  [ -f "$f" ] || continue
  n=$((n + 1))
  head -c 1048576 "$f" | seed split "$n"
  head -c 1048576 "$f" | seed pipeline "$n"
  # The first three games of the file, one seed each.
  awk -v base="fuzz/corpus/validate/seed-$n-" '
    /^\[Event / { g++ } g >= 1 && g <= 3 { print > (base g) }' "$f"
  grep -v '^\[' "$f" | grep -E '^[0-9]+\.' | head -20 | while IFS= read -r line; do
    printf '\000%s' "$line"
  done | seed moves "$n" || true
done
if [ -d "$shared/positions" ]; then
  i=0
  cat "$shared"/positions/*.epd 2>/dev/null | head -300 | while IFS= read -r line; do
    i=$((i + 1))
    printf '%s' "$line" | cut -d' ' -f1-6 | tr -d '\r' | seed fen "$i"
  done
fi
# The Parquet reader: the small tables written by pyarrow (the damaged ones included).
mkdir -p fuzz/corpus/parquet
for f in testdata/parquet/*.parquet; do
  [ "$(stat -c %s "$f")" -le 1048576 ] && seed parquet "$(basename "$f" .parquet)" < "$f"
done
printf 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' | seed fen start
# The mate check: the labelled positions of chasolver, each at fast (the first byte `.`).
mkdir -p fuzz/corpus/mate_check
grep -v '^#' testdata/chasolver/lichess.txt | awk 'NR % 256 == 1' | cut -d' ' -f2- |
  while IFS= read -r fen; do printf '.%s' "$fen" > "fuzz/corpus/mate_check/seed-$(printf '%s' "$fen" | cksum | cut -d' ' -f1)"; done
grep -v '^#' testdata/chasolver/positions.txt | awk 'NR % 32 == 1' | cut -d' ' -f2- |
  while IFS= read -r fen; do printf '.%s' "$fen" > "fuzz/corpus/mate_check/seed-$(printf '%s' "$fen" | cksum | cut -d' ' -f1)"; done
printf '\000e4 e5 Nf3 Nc6 Bb5 a6 O-O Nf6 0-0-0 e1g1 e7e8q' | seed moves start

run() {
  local t=$1
  nice -n 10 cargo +nightly fuzz run -O "$t" "fuzz/corpus/$t" -- \
    -max_total_time="$seconds" -rss_limit_mb=2048 -max_len="${MAX_LEN:-1048576}" -timeout="${FUZZ_TIMEOUT:-20}" \
    -print_final_stats=1 -artifact_prefix="fuzz/artifacts/$t/" > "fuzz/logs/$t.log" 2>&1
  echo "$t: exit $?"
}
cargo +nightly fuzz build -O || exit 2
for ((i = 0; i < ${#targets[@]}; i += 2)); do
  run "${targets[$i]}" &
  if [ $((i + 1)) -lt ${#targets[@]} ]; then run "${targets[$((i + 1))]}" & fi
  wait
done
for t in "${targets[@]}"; do
  echo "== $t"
  grep -E '^#[0-9]+.*(DONE|pulse|NEW)' "fuzz/logs/$t.log" | tail -1 || true
  grep -E 'stat::number_of_executed_units|stat::peak_rss_mb' "fuzz/logs/$t.log" || true
  ls "fuzz/artifacts/$t" 2>/dev/null | sed 's/^/  finding: /'
done
