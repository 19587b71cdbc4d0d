#!/usr/bin/env bash
# PGN both ways with the real XBoard (headless): a Chu game and a Heian game written by
# `shishi convert` are loaded by XBoard and saved back by it, and shishi reads XBoard's file into
# the same moves.
#   Chu: XBoard's match mode takes the game as its opening (-lgf), two shishi engines play on,
#        and XBoard saves the whole game (-sgf): its first plies must be shishi's.
#   Heian is a variant the engine defines (`setup`), which XBoard cannot have when it reads
#        -lgf at startup (it refuses even its own saved Heian game there), so the game is loaded
#        and saved through XBoard's File menu (xdotool on a private Xvfb display).
# Usage: scripts/xboard-pgn.sh [OUTDIR]   (SHISHI=/path/to/shishi to skip the build)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${1:-$(mktemp -d)}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"

installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }
need=()
for pkg in xboard xvfb xauth xdotool; do installed "$pkg" || need+=("$pkg"); done
if [ ${#need[@]} -gt 0 ]; then
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
XBOARD=/usr/games/xboard
if [ -z "${SHISHI:-}" ]; then
    (cd "$ROOT" && cargo build --release --quiet)
    SHISHI="${CARGO_TARGET_DIR:-$ROOT/target}/release/shishi"
fi

# The moves of a game record as one USI line, and whether the first is a prefix of the second.
moves() { "$SHISHI" convert --input "$1" --output "$OUT/$2.usi" >/dev/null && sed 's/.* moves //' "$OUT/$2.usi"; }
check() { # name, shishi's record, XBoard's record
    local ours theirs
    ours=$(moves "$2" "$1-ours") || { echo "$1: shishi cannot read its own record"; return 1; }
    theirs=$(moves "$3" "$1-xboard") || { echo "$1: shishi cannot read XBoard's record $3"; return 1; }
    local n; n=$(wc -w <<<"$ours")
    if [ "$(cut -d' ' -f1-"$n" <<<"$theirs")" = "$ours" ]; then
        echo "$1: XBoard loaded and saved all $n plies of shishi's PGN; shishi read them back alike"
    else
        echo "$1: the moves differ (see $2 and $3)"; return 1
    fi
}

status=0
echo "== Chu (match mode, the game as opening)"
"$SHISHI" convert --input "$ROOT/tests/data/kif/chu01-286p-pass-igui-promo.kif" --output "$OUT/chu.pgn" >/dev/null
timeout 300 xvfb-run -a "$XBOARD" -fcp "$SHISHI" -scp "$SHISHI" -fd "$OUT" -sd "$OUT" -variant chu \
    -mm -mg 1 -lgf "$OUT/chu.pgn" -lgi 1 -tc 0:03 -inc 0 -sgf "$OUT/chu-xboard.pgn" \
    -autoCallFlag true -popupExitMessage false -ponderNextMove false \
    -saveSettingsOnExit false -settingsFile /dev/null >/dev/null 2>&1 || true
check chu "$OUT/chu.pgn" "$OUT/chu-xboard.pgn" || status=1

echo "== Heian (File menu)"
zcat "$ROOT/results/fsf-heian-tenth-net4.pgn.gz" | awk '/^\[Event/{n++} n==3' > "$OUT/heian-match.pgn"
"$SHISHI" convert --input "$OUT/heian-match.pgn" --output "$OUT/heian.usi" >/dev/null
"$SHISHI" convert --input "$OUT/heian.usi" --output "$OUT/heian.pgn" >/dev/null
home="$OUT/home"
mkdir -p "$home/.config/gtk-2.0"
printf '[Filechooser Settings]\nLocationMode=filename-entry\nStartupMode=cwd\n' > "$home/.config/gtk-2.0/gtkfilechooser.ini"
heian_gui() { # the main window at (500,400): engine windows open at the origin and cannot hide its menu
    local display=":$((90 + RANDOM % 100))"
    Xvfb "$display" -screen 0 1400x1000x24 >/dev/null 2>&1 &
    local xvfb=$!
    sleep 1
    DISPLAY="$display" HOME="$home" "$XBOARD" -fcp "$SHISHI" -fd "$OUT" -x 500 -y 400 -variant heian \
        -saveSettingsOnExit false -settingsFile /dev/null -popupExitMessage false >/dev/null 2>&1 &
    local xb=$!
    sleep 3
    for step in "569 509 $OUT/heian.pgn 4" "570 601 $OUT/heian-xboard.pgn 3"; do
        read -r x y file wait <<<"$step"
        DISPLAY="$display" xdotool mousemove 521 414 click 1; sleep 1
        DISPLAY="$display" xdotool mousemove "$x" "$y" click 1; sleep 2
        DISPLAY="$display" xdotool key ctrl+a type --delay 100 "$file"; sleep 0.5
        DISPLAY="$display" xdotool key Return; sleep "$wait"
    done
    kill "$xb" "$xvfb" 2>/dev/null || true
    wait "$xb" "$xvfb" 2>/dev/null || true
}
for attempt in 1 2 3; do
    rm -f "$OUT/heian-xboard.pgn"
    heian_gui
    [ -s "$OUT/heian-xboard.pgn" ] && break
    echo "heian: XBoard saved nothing (attempt $attempt)"
done
check heian "$OUT/heian.pgn" "$OUT/heian-xboard.pgn" || status=1
exit $status
