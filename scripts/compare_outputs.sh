#!/usr/bin/env bash
# compare_outputs.sh OLD_BIN NEW_BIN [INPUT...]
#
# Shows that a change which should not change what pgnkit says (a restructure, a speed-up)
# does not: runs every game-reading command with both binaries over each INPUT and compares
# the outputs byte for byte (stdout, every file written with -o or --*-out, and the exit
# code). Prints one line per command and input: `identical`, or `DIFFERS` with the first
# line that differs. Exits 1 if anything differs, 0 if nothing does, 2 if a binary does
# not run.
#
# Default INPUTs: the whole corpus folder (../shared/corpus) and a 60 MB cut of
# /tmp/bench200.pgn, cut at a game boundary (the 200 MB file is made with
# ../shared/bench/make-corpus.sh if missing). Use release binaries: the 60 MB cut is read
# 20 times in all.
set -euo pipefail
usage="usage: compare_outputs.sh OLD_BIN NEW_BIN [INPUT...]"
old=${1:?$usage}
new=${2:?$usage}
shift 2
for bin in "$old" "$new"; do
  "$bin" --version >/dev/null 2>&1 || { echo "compare_outputs.sh: $bin does not run" >&2; exit 2; }
done
here=$(cd "$(dirname "$0")/.." && pwd)
# ../shared beside the repository (also from a git worktree elsewhere), or $PGNKIT_SHARED.
shared=${PGNKIT_SHARED:-$here/../shared}
if [ ! -d "$shared" ]; then
  common=$(git -C "$here" rev-parse --path-format=absolute --git-common-dir 2>/dev/null || true)
  [ -n "$common" ] && shared=$(dirname "$common")/../shared
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The 60 MB cut: the first 60 MiB of the benchmark file, up to the line before the first
# `[Event ` tag at or after that point, so no game is cut in half.
cut_of_bench() {
  local bench=/tmp/bench200.pgn cut=/tmp/bench60.pgn
  if [ ! -s "$cut" ]; then
    if [ ! -s "$bench" ]; then
      "$shared/bench/make-corpus.sh" "$bench" 200 >/dev/null
    fi
    python3 - "$bench" "$cut" <<'PY'
import sys
src, dst = sys.argv[1], sys.argv[2]
limit = 60 * 1024 * 1024
with open(src, "rb") as fh:
    head = fh.read(limit)
    rest = fh.read(4 * 1024 * 1024)
boundary = rest.find(b"\n[Event ")
if boundary < 0:
    sys.exit(f"no game starts within 4 MiB after 60 MiB of {src}")
with open(dst, "wb") as out:
    out.write(head + rest[: boundary + 1])
PY
  fi
  echo "$cut"
}

if [ $# -eq 0 ]; then
  set -- "$shared/corpus" "$(cut_of_bench)"
fi
for input in "$@"; do
  [ -e "$input" ] || { echo "compare_outputs.sh: no input $input" >&2; exit 2; }
done

# One command per line: a name, then the arguments. OUT is replaced by a file in the run's
# folder, whose content is compared too; the input is appended at the end.
commands=(
  "validate-text|validate --level info"
  "validate-jsonl|validate --level info --format jsonl"
  "validate-csv|validate --level info --format csv"
  "validate-variations|validate --variations --format jsonl"
  "validate-split|validate --clean-out OUT.clean.pgn --broken-out OUT.broken.pgn"
  "stats|stats --summary-output OUT.summary.csv"
  "stats-summary|stats --summary -o OUT.csv"
  "fen-every-ply|fen --every-ply"
  "convert|convert"
  "report|report -o OUT.html"
  "report-info|report --level info -o OUT.html"
  "stats-where|stats --where 'opening_eco ~ \"^B\" && plies > 40'"
  "fen-where|fen --where 'opening_eco == \"C50\"'"
  "convert-opening|convert --add-opening --where 'max_repetition >= 3'"
  "select-where|select --where 'WhiteElo >= 2400 && termination == \"checkmate\"'"
  "select-split|select --split-by opening_eco --out-dir OUT.split"
  "select-dedupe|select --dedupe moves --duplicates-csv OUT.dups.csv --count"
  "select-invert|select --invert --reaches 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -'"
  "moves-csv|moves"
  "moves-jsonl|moves --format jsonl --fen --comments --tags White,TimeControl"
  "moves-per-game|moves --per-game --format jsonl --comments"
  "moves-parquet|moves --format parquet --fen --comments --tags White -o OUT.parquet"
  "moves-per-game-parquet|moves --per-game --format parquet -o OUT.parquet"
  "stats-parquet|stats --format parquet --tags TimeControl -o OUT.parquet"
)

# Runs one binary: its stdout, exit code and written files go into folder $1.
run_one() {
  local dir=$1 bin=$2 args=$3 input=$4
  mkdir -p "$dir"
  # shellcheck disable=SC2086 # the arguments are words on purpose
  eval "set -- ${args//OUT/$dir/out}"
  local code=0
  # stderr too: fen and convert write their error findings there (--quiet: no timings).
  "$bin" --quiet "$@" "$input" >"$dir/stdout" 2>"$dir/stderr" || code=$?
  echo "$code" >"$dir/exit-code"
}

# A Parquet file's content as text: its columns' names and types, then every cell, read by
# pyarrow (the bytes may differ where the content does not: row groups, encodings).
parquet_text() {
  python3 - "$1" <<'PY'
import sys
import pyarrow.parquet as pq
file = pq.ParquetFile(sys.argv[1])
out = sys.stdout
out.write(file.schema_arrow.to_string(show_schema_metadata=False) + "\n")
for batch in file.iter_batches(batch_size=65536):
    out.writelines(repr(row) + "\n" for row in batch.to_pylist())
PY
}

# The first line where two files differ, shortened.
first_difference() {
  local a=$1 b=$2 line
  line=$(cmp "$a" "$b" 2>&1 | sed -n 's/.* line \([0-9]*\).*/\1/p' || true)
  if [ -n "$line" ]; then
    printf 'line %s: old %.100s | new %.100s' "$line" \
      "$(sed -n "${line}p" "$a")" "$(sed -n "${line}p" "$b")"
  else
    cmp "$a" "$b" 2>&1 | head -1 || true # one file is a prefix of the other
  fi
}

status=0
for input in "$@"; do
  for entry in "${commands[@]}"; do
    name=${entry%%|*}
    args=${entry#*|}
    dir=$work/$name
    rm -rf "$dir"
    run_one "$dir/old" "$old" "$args" "$input"
    run_one "$dir/new" "$new" "$args" "$input"
    verdict=identical
    # A split folder's files are compared one by one.
    for f in "$dir"/old/* "$dir"/old/*.split/*; do
      [ -f "$f" ] || continue
      base=${f#"$dir"/old/}
      if [[ $f == *.parquet ]] && [ -f "$dir/new/$base" ]; then
        parquet_text "$f" >"$f.content" 2>&1
        parquet_text "$dir/new/$base" >"$dir/new/$base.content" 2>&1
        f=$f.content
        base=$base.content
      fi
      if ! cmp -s "$f" "$dir/new/$base"; then
        verdict="DIFFERS in $base: $(first_difference "$f" "$dir/new/$base")"
        status=1
        break
      fi
    done
    if [ "$verdict" = identical ] && [ "$(cd "$dir/old" && find . | sort)" != "$(cd "$dir/new" && find . | sort)" ]; then
      verdict="DIFFERS: files written $(cd "$dir/old" && find . | sort | tr '\n' ' ') vs $(cd "$dir/new" && find . | sort | tr '\n' ' ')"
      status=1
    fi
    printf '%-20s %-28s %s\n' "$name" "$(basename "$input")" "$verdict"
  done
done
exit "$status"
