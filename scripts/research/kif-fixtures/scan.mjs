// scan shishi result PGNs: extract chu games, replay with shogiops, classify
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { loadPosition, parseLegal } from '/tmp/churef/churef.mjs';
import { makeSfen } from 'shogiops/sfen';
const dir = '/work/main/results';
const out = [];
for (const f of readdirSync(dir).filter(f => !f.startsWith('hachu-') || true).filter(f => /\.pgn(\.gz)?$/.test(f)).sort()) {
  let txt = readFileSync(`${dir}/${f}`);
  if (f.endsWith('.gz')) txt = gunzipSync(txt);
  txt = txt.toString('utf8');
  const games = txt.split(/\n(?=\[Event )/);
  let taken = 0;
  games.forEach((g, gi) => {
    if (taken >= 8) return;
    if (!/\b\d{1,2}[a-l]\d{1,2}[a-l]\d{1,2}[a-l]\b/.test(g) && gi % 40 !== 0) return;
    const tags = {};
    for (const m of g.matchAll(/^\[(\w+) "(.*)"\]/gm)) tags[m[1]] = m[2];
    if ((tags.Variant || '').toLowerCase() !== 'chu') return;
    let body = g.replace(/^\[.*\]\s*$/gm, '').replace(/\{[^}]*\}/g, ' ').replace(/;[^\n]*/g, ' ');
    const toks = body.split(/\s+/).filter(t => t && !/^\d+\.+$/.test(t) && !/^(1-0|0-1|1\/2-1\/2|\*)$/.test(t));
    const fen = tags.FEN || 'startpos';
    let pos; try { pos = loadPosition(fen); } catch (e) { return; }
    const start = makeSfen(pos);
    const st = { file: f, idx: gi, fen: start, result: tags.Result, term: tags.Termination, moves: [], dbl: 0, igui: 0, pass: 0, promo: 0, lionish: 0, err: null };
    for (const t of toks) {
      const r = parseLegal(pos, t);
      if (r.err) { st.err = r.err; break; }
      const m = r.move;
      if (m.midStep !== undefined) {
        st.dbl++;
        if (m.to === m.from) { if (pos.board.get(m.midStep)) st.igui++; else st.pass++; }
      }
      if (m.promotion) st.promo++;
      st.moves.push(t);
      pos.play(m);
    }
    taken++;
    st.over = pos.outcome() ? pos.outcome().result : null;
    out.push(st);
  });
}
writeFileSync('/tmp/kifwork/games.json', JSON.stringify(out));
const ok = out.filter(g => !g.err);
console.log('games', out.length, 'ok', ok.length, 'err', out.length - ok.length);
console.log('with dbl', ok.filter(g => g.dbl).length, 'igui', ok.filter(g => g.igui).length, 'pass', ok.filter(g => g.pass).length, '>300', ok.filter(g => g.moves.length > 300).length);
const errs = out.filter(g => g.err).slice(0, 5).map(g => g.file + ' ' + g.err);
console.log(errs.join('\n'));
