#!/usr/bin/env bash
# Plays shishi in the real XBoard (headless under Xvfb): a Chu match against HaChu in XBoard's
# match mode, and a Heian game of shishi against itself through the engine-defined variant.
# Then checks the saved games and XBoard's debug logs: every game must be complete (a result with
# a reason), with no illegal move, no protocol error and no time forfeit.
#
# Usage: scripts/xboard-vs-hachu.sh [CHU_GAMES] [TIME_CONTROL_MIN:SEC] [INCREMENT_SEC]
#   defaults: 2 games at 0:30 + 0.1 s. Set SHISHI=/path/to/shishi to skip the build.
# Outputs: results/xboard-chu.pgn, results/xboard-heian.pgn, results/xboard-*.debug
set -euo pipefail

GAMES="${1:-2}"
TC="${2:-0:30}"
INC="${3:-0.1}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
RESULTS="$ROOT/results"
mkdir -p "$RESULTS"

need=()
command -v xboard >/dev/null || [ -x /usr/games/xboard ] || need+=(xboard)
command -v xvfb-run >/dev/null || need+=(xvfb xauth)
[ -x /usr/games/hachu ] || need+=(hachu)
if [ ${#need[@]} -gt 0 ]; then
    echo "installing: ${need[*]}"
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
XBOARD="$(command -v xboard || echo /usr/games/xboard)"

if [ -z "${SHISHI:-}" ]; then
    (cd "$ROOT" && cargo build --release --quiet)
    SHISHI="${CARGO_TARGET_DIR:-$ROOT/target}/release/shishi"
fi
[ -x "$SHISHI" ] || { echo "no shishi binary at $SHISHI" >&2; exit 2; }

run_xboard() { # name, then extra xboard arguments
    local name="$1"; shift
    rm -f "$RESULTS/xboard-$name.pgn" "$RESULTS/xboard-$name.debug"
    timeout 1800 xvfb-run -a "$XBOARD" \
        -fcp "$SHISHI" -fd "$RESULTS" \
        -tc "$TC" -inc "$INC" \
        -saveGameFile "$RESULTS/xboard-$name.pgn" \
        -debugMode true -nameOfDebugFile "$RESULTS/xboard-$name.debug" \
        -autoCallFlag true -popupExitMessage false \
        -ponderNextMove false -saveSettingsOnExit false -settingsFile /dev/null \
        "$@" >/dev/null 2>&1 || true
}

check() { # name, expected games
    local name="$1" want="$2" pgn="$RESULTS/xboard-$1.pgn" debug="$RESULTS/xboard-$1.debug" ok=1
    local games results
    games=$(grep -c '^\[Result ' "$pgn" 2>/dev/null) || games=0
    results=$(grep -cE '^\[Result "(1-0|0-1|1/2-1/2)"\]' "$pgn" 2>/dev/null) || results=0
    echo "$name: $games games saved, $results with a result (wanted $want)"
    [ "$results" -ge "$want" ] || ok=0
    if grep -nE 'Illegal move|Error \(|illegal|forfeit|on time|xboard exit|crash' "$debug" "$pgn" 2>/dev/null | grep -v 'feature' | head -20; then
        ok=0
    fi
    grep -hE '^\[Result |\{' "$pgn" 2>/dev/null | head -20 || true
    [ "$ok" -eq 1 ] && echo "$name: OK" || { echo "$name: FAILED (see $debug)"; return 1; }
}

status=0
echo "== Chu: shishi (RuleSet=hachu) vs HaChu, $GAMES games at $TC + $INC s"
run_xboard chu -scp /usr/games/hachu -sd "$RESULTS" -variant chu \
    -firstOptions "RuleSet=hachu" -matchGames "$GAMES"
check chu "$GAMES" || status=1

echo "== Heian (engine-defined variant): shishi vs shishi, 1 game"
run_xboard heian -scp "$SHISHI" -sd "$RESULTS" -variant heian -matchGames 1
check heian 1 || status=1
exit $status
