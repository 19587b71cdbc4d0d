#!/usr/bin/env bash
# Games per minute of shishi-cluster sprt against workers: a Heian match at NODES (20000) nodes a
# move, net against hand-crafted evaluation, 8 games
# per worker (slices of one pair, so each worker plays 4 slices), at 1, 2, 4, ... workers up to
# this machine's cores (or MAX_WORKERS). Prints one table row per worker count.
#
# Usage: cluster/throughput.sh SHISHI_BINARY [STATE_DIR]   (shishi-cluster on the PATH)
set -euo pipefail
bin=$(realpath "$1")
state=${2:-$(mktemp -d)}
root=$(cd "$(dirname "$0")/.." && pwd)
max=${MAX_WORKERS:-$(nproc)}
echo "| workers | games | seconds | games/min | speed-up |"
echo "|---|---|---|---|---|"
base=""
for w in 1 2 4 8 16 32 64; do
    [ "$w" -le "$max" ] || break
    games=$((8 * w))
    line=$(shishi-cluster sprt --num-cpus "$w" --workers "$w" --shishi "$bin" --state "$state/w$w" \
        --games "$games" --slice-pairs 1 -- \
        --engine "cmd=$bin,name=a,nodes=${NODES:-20000}" --engine "cmd=$bin,name=b,nodes=${NODES:-20000},option.UseNNUE=false" \
        --variant heian --tc 1000+1 --openings "$root/positions/openings-heian.epd" --max-moves 100 \
        | grep 'this run played')
    secs=$(sed -n 's/.* in \([0-9.]*\) s on .*/\1/p' <<< "$line")
    rate=$(sed -n 's/.*, \([0-9.]*\) games\/min/\1/p' <<< "$line")
    base=${base:-$rate}
    echo "| $w | $games | $secs | $rate | $(awk -v r="$rate" -v b="$base" 'BEGIN { printf "%.2f", r / b }') |"
done
