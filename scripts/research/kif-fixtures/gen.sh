#!/bin/bash
# make NAME.kif / NAME.usi / NAME.sfens for every row of games.tsv, then check each .kif reads back
set -e
CHUREF=${CHUREF:-/tmp/churef}
OUT=${OUT:-/tmp/kif-fixtures}
START='lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1'
while IFS=$'\t' read -r name start moves result times; do
  [ "$start" = startpos ] && sfen=startpos || sfen="$start"
  args=()
  [ "$result" != - ] && args+=(--result "$result")
  [ "$times" = 1 ] && args+=(--times)
  node "$CHUREF/kif.mjs" make "$sfen" $moves "${args[@]}" --sente shishi --gote shishi > "$OUT/$name.kif"
  if [ "$start" = startpos ]; then echo "startpos moves $moves" > "$OUT/$name.usi"; else echo "sfen $start moves $moves" > "$OUT/$name.usi"; fi
  node "$CHUREF/kif.mjs" replay "$sfen" $moves > "$OUT/$name.sfens"
  node "$CHUREF/kif.mjs" parse "$OUT/$name.kif" | cmp -s - "$OUT/$name.sfens" || { echo "ROUND TRIP FAIL $name"; exit 1; }
done < "${1:-$OUT/tools/games.tsv}"
# one Shift-JIS copy
S=$(head -1 "${1:-$OUT/tools/games.tsv}" | cut -f1)
iconv -f UTF-8 -t SHIFT_JIS "$OUT/$S.kif" > "$OUT/$S.sjis.kif"
node "$CHUREF/kif.mjs" parse "$OUT/$S.sjis.kif" | cmp - "$OUT/$S.sfens"
echo done
