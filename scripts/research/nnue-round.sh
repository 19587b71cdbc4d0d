#!/usr/bin/env bash
# One round of the network evaluation on one machine: self-play data in packed shards (one
# datagen process per shard, so the shards run on every core and concatenate to the run one
# process would write), a net trained on it and every earlier round's data, and an SPRT of the
# new net against the embedded evaluation. Every command line is printed before it runs, so the
# round can be recorded and rerun (the data depends only on the seed and the game count).
#
# Usage: scripts/research/nnue-round.sh FAMILY SEED GAMES SHARDS OUT_DIR [EARLIER_DATA...]
#   FAMILY heian|chu; SHARDS datagen processes at once (the machine's cores);
#   OUT_DIR gets data-SEED.spk, net-SEED.nnue and sprt-SEED.log.
# Environment: NODES (5000), HIDDEN (128), EPOCHS (4), TC (2+0.02), SPRT_GAMES (2000),
#   DATAGEN_EVAL (--hce: the hand-crafted evaluation plays; empty: the embedded net).
set -euo pipefail
family=$1 seed=$2 games=$3 shards=$4 out=$5
shift 5
bin=${SHISHI:-./target/release/shishi}
mkdir -p "$out"
case $family in
    heian) variants=heian,heian,heian,heian9x8,heian8x9,heian8x8 book=positions/openings-heian.epd
           match_variant=heian ;;
    chu) variants=chu book=positions/openings-chu.epd match_variant=chushogi ;;
    *) echo "family is heian or chu" >&2; exit 2 ;;
esac
run() { echo "+ $*" >&2; "$@"; }
for k in $(seq 0 $((shards - 1))); do
    run "$bin" datagen --variant "$variants" --games "$games" --nodes "${NODES:-5000}" --threads 1 \
        --seed "$seed" --shard "$k/$shards" ${DATAGEN_EVAL---hce} --out "$out/shard-$seed-$k.spk" \
        > "$out/shard-$seed-$k.log" 2>&1 &
done
wait
for k in $(seq 0 $((shards - 1))); do cat "$out/shard-$seed-$k.spk"; done > "$out/data-$seed.spk"
rm -f "$out"/shard-"$seed"-*.spk
run "$bin" train --data "$out/data-$seed.spk" "$@" --family "$family" --out "$out/net-$seed.nnue" \
    --hidden "${HIDDEN:-128}" --epochs "${EPOCHS:-4}" --mirror | tee "$out/train-$seed.log"
run "$bin" match --engine "cmd=$bin,name=new,option.EvalFile=$PWD/$out/net-$seed.nnue" \
    --engine "cmd=$bin,name=main" --variant "$match_variant" --tc "${TC:-2+0.02}" --openings "$book" \
    --games "${SPRT_GAMES:-2000}" --concurrency "$((shards / 2 > 0 ? shards / 2 : 1))" \
    --resign-adjudication movecount=3,score=1000 --draw-adjudication movenumber=40,movecount=8,score=10 \
    --max-moves 200 --sprt elo0=0,elo1=10 --pgn "$out/sprt-$seed.pgn" | tee "$out/sprt-$seed.log"
