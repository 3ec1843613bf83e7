#!/usr/bin/env bash
# scripts/memory.sh [SIZE_MB...]
#
# Peak memory does not grow with the input: builds PGN files of each size (default 50 and
# 500 MB) with ../shared/bench/make-corpus.sh, runs `pgnkit $CMD FILE -o /dev/null` on each
# at the default thread count, and prints the peak RSS (GNU time's maximum resident set
# size). Environment: PGNKIT (the binary; default target/release/pgnkit, built if missing),
# CMD (default `stats`), WORK (where the big files go; default a temporary folder, removed).
# Target: under 64 MB for every size.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(50 500)
cmd=${CMD:-stats}
bin=${PGNKIT:-target/release/pgnkit}
make_corpus=../shared/bench/make-corpus.sh
[ -x "$bin" ] || cargo build --release || exit 2
[ -f "$make_corpus" ] || { echo "memory.sh: $make_corpus not found" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "memory.sh: needs GNU time (apt-get install time)" >&2; exit 2; }
work=${WORK:-$(mktemp -d)}
[ -n "${WORK:-}" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work"

status=0
measure() { # measure LABEL FILE
  /usr/bin/time -f '%M %e' -o "$work/time" "$bin" "$cmd" --quiet "$2" -o /dev/null
  local code=$? kb secs
  # GNU time puts "Command exited with non-zero status N" first when the exit is not 0.
  read -r kb secs < <(tail -n 1 "$work/time")
  printf '%s %-26s peak RSS %6.1f MB, %6.1f s, exit %s\n' \
    "$cmd" "$1:" "$(echo "$kb / 1024" | bc -l)" "$secs" "$code"
  [ "$kb" -lt $((64 * 1024)) ] || status=1
}

# One pathological game each: bounded by the documented limits, not by the input.
python3 -c "print('[Event \"A\"]\n\n1. e4 {' + 'x' * 10_000_000 + '} e5 *')" > "$work/comment.pgn"
python3 -c "print('[Event \"A\"]\n\n1. e4 ' + '( 1. d4 ' * 50_000 + ')' * 50_000 + ' *')" > "$work/nested.pgn"
measure "10 MB comment" "$work/comment.pgn"
measure "50,000 nested variations" "$work/nested.pgn"
for mb in "${sizes[@]}"; do
  file=$work/bench-$mb.pgn
  [ -f "$file" ] || bash "$make_corpus" "$file" "$mb" > /dev/null || exit 2
  measure "$mb MB" "$file"
done
exit $status
