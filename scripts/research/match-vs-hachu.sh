#!/bin/sh
# The match of issue 6: shishi (USI, RuleSet=hachu, one thread) against HaChu 0.21 (Debian
# package `hachu`, XBoard, single-threaded), 200 Chu games at 10 s + 0.1 s per move over the
# openings of positions/openings-chu.epd (each played twice, colours swapped). Takes several
# hours; run it on an otherwise idle machine (HaChu's clock handling loses on time under load).
# The PGN goes to results/; the summary table is printed at the end and kept next to it.
#
# Usage: scripts/research/match-vs-hachu.sh [GAMES] [CONCURRENCY]
set -eu
cd "$(dirname "$0")/../.."
games="${1:-200}"
concurrency="${2:-1}"
hachu="${HACHU:-/usr/games/hachu}"
[ -x "$hachu" ] || { echo "HaChu not found at $hachu (apt-get install hachu)" >&2; exit 1; }
cargo build --release
mkdir -p results
stamp="$(date +%Y%m%d-%H%M%S)"
pgn="results/shishi-vs-hachu-$stamp.pgn"
./target/release/shishi match \
    --engine "$PWD/target/release/shishi" \
    --engine "$hachu" \
    --proto usi,xboard \
    --variant chushogi --rules hachu \
    --games "$games" --tc 10+0.1 \
    --openings positions/openings-chu.epd \
    --concurrency "$concurrency" \
    --pgn "$pgn" | tee "results/shishi-vs-hachu-$stamp.txt"
gzip -9 -k "$pgn"
echo "PGN: $pgn (and $pgn.gz)"
