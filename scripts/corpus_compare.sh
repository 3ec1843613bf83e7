#!/usr/bin/env bash
# corpus_compare.sh BASE_BIN NEW_BIN [CORPUS_DIR]
#
# Runs two pgnkit binaries over every file of the corpus (default ../shared/corpus) and
# prints, per file, what changed between them: games counted (stats rows), findings per
# code (validate --level info), and the stats rows whose `plies` or `status` differ.
# Nothing is printed for a file whose outputs are identical. Used to show that a change
# moves the corpus's figures only where it means to.
set -euo pipefail
base=${1:?usage: corpus_compare.sh BASE_BIN NEW_BIN [CORPUS_DIR]}
new=${2:?usage: corpus_compare.sh BASE_BIN NEW_BIN [CORPUS_DIR]}
here=$(cd "$(dirname "$0")/.." && pwd)
corpus=${3:-$here/../shared/corpus}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

changed=0
while IFS= read -r -d '' f; do
  rel=${f#"$corpus"/}
  for tag in base new; do
    bin=$base; [ "$tag" = new ] && bin=$new
    "$bin" validate --quiet --level info --format jsonl "$f" >"$work/$tag.v" 2>/dev/null || true
    "$bin" stats --quiet "$f" >"$work/$tag.s" 2>/dev/null || true
  done
  if cmp -s "$work/base.v" "$work/new.v" && cmp -s "$work/base.s" "$work/new.s"; then
    continue
  fi
  changed=$((changed + 1))
  rows_base=$(($(wc -l <"$work/base.s") - 1)); rows_new=$(($(wc -l <"$work/new.s") - 1))
  echo "== $rel: games $rows_base -> $rows_new"
  python3 - "$work" <<'PY'
import collections, csv, json, sys
work = sys.argv[1]
def codes(path):
    c = collections.Counter()
    for line in open(path, encoding="utf-8", errors="replace"):
        if line.strip():
            c[json.loads(line)["code"]] += 1
    return c
b, n = codes(f"{work}/base.v"), codes(f"{work}/new.v")
for code in sorted(set(b) | set(n)):
    if b[code] != n[code]:
        print(f"   finding {code}: {b[code]} -> {n[code]}")
def rows(path):
    with open(path, encoding="utf-8", errors="replace", newline="") as fh:
        return {(r["game"], r["line"]): r for r in csv.DictReader(fh)}
rb, rn = rows(f"{work}/base.s"), rows(f"{work}/new.s")
diff = [k for k in rb if k in rn and (rb[k]["plies"], rb[k]["status"]) != (rn[k]["plies"], rn[k]["status"])]
for k in diff[:5]:
    print(f"   game {k[0]} (line {k[1]}): plies/status {rb[k]['plies']}/{rb[k]['status']} -> {rn[k]['plies']}/{rn[k]['status']}")
if len(diff) > 5:
    print(f"   ... {len(diff) - 5} more games with changed plies/status")
gone = len(set(rb) - set(rn)); added = len(set(rn) - set(rb))
if gone or added:
    print(f"   games by (game, line): {gone} gone, {added} new")
PY
done < <(find "$corpus" -type f \( -iname '*.pgn' -o -iname '*.pgn.gz' -o -iname '*.pgn.zst' -o -iname '*.pgn.bz2' \) -print0 | sort -z)
echo "$changed files changed"
