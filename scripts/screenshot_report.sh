#!/usr/bin/env bash
# Renders a pgnkit HTML report in headless Chromium and saves full-page screenshots at a
# desktop width (1280 px) and a phone width (390 px), to look at what a person sees. Not
# a test: it needs Chromium (Debian: apt-get install -y chromium) and ImageMagick
# (`convert`, or the one $CONVERT names, to cut each shot at the end of the page).
#
#   scripts/screenshot_report.sh [REPORT.html] [SHOT-PREFIX] [MAX-HEIGHT]
#
# writes SHOT-PREFIX-desktop.png and SHOT-PREFIX-phone.png (default prefix
# target/report-screenshot). Chromium cannot measure a page from the command line, so
# each shot is taken MAX-HEIGHT px tall (default 16000) and cut below the last row that
# is not the page's background; a page taller than that is cut at MAX-HEIGHT (the script
# says so). Without REPORT.html it first writes one from testdata/ux/event.pgn with a
# debug build.
set -euo pipefail
cd "$(dirname "$0")/.."

report=${1:-}
prefix=${2:-target/report-screenshot}
max_height=${3:-16000}
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
convert=${CONVERT:-convert}
if ! command -v "$convert" >/dev/null; then
    echo "screenshot_report.sh: no ImageMagick convert found (apt-get install -y imagemagick)" >&2
    exit 2
fi

profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
url="file://$(realpath "$report")"

shoot() { # WIDTH OUT
    local width=$1 out
    out=$(realpath -m "$2")
    "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" \
        --hide-scrollbars --screenshot="$out" --window-size="$width,$max_height" \
        "$url" 2>/dev/null >/dev/null
    # Flipped, the page's bottom background is the top-left corner that -trim takes for
    # the background: the trim box's height is the page's.
    local box used height
    box=$("$convert" "$out" -flip -trim -format '%@' info:)
    used=${box%%+*}
    used=${used#*x}
    height=$((used + 8))
    if ((height >= max_height)); then
        echo "screenshot_report.sh: $out: the page is taller than $max_height px; cut there" >&2
        height=$max_height
    fi
    "$convert" "$out" -crop "${width}x${height}+0+0" +repage "$out"
    echo "screenshot_report.sh: $report -> $2 (${width}x${height})"
}

mkdir -p "$(dirname "$prefix")"
shoot 1280 "$prefix-desktop.png"
shoot 390 "$prefix-phone.png"
