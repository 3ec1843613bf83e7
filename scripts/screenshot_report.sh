#!/usr/bin/env bash
# Renders a pgnkit HTML report in headless Chromium and saves a screenshot, to look at
# what a person sees. Not a test: it needs Chromium (Debian: apt-get install -y chromium).
#
#   scripts/screenshot_report.sh [REPORT.html] [SHOT.png]
#
# Without REPORT.html it first writes one from testdata/ux/event.pgn with a debug build.
set -euo pipefail
cd "$(dirname "$0")/.."

report=${1:-}
shot=${2:-target/report-screenshot.png}
if [[ -z "$report" ]]; then
    report=target/report-sample.html
    cargo build --quiet
    target/debug/pgnkit report --quiet testdata/ux/event.pgn --title "Club Championship 2024" -o "$report"
fi

browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [[ -z "$browser" ]]; then
    echo "screenshot_report.sh: no Chromium found (apt-get install -y chromium)" >&2
    exit 2
fi

profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
"$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" \
    --hide-scrollbars --screenshot="$(realpath -m "$shot")" --window-size=1280,2000 \
    "file://$(realpath "$report")" 2>/dev/null
echo "screenshot_report.sh: $report -> $shot"
