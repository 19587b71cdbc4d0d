// pick 50 chu games from /tmp/kifwork/games.json (output of scan.mjs) and write games.tsv:
// name \t start(startpos|sfen) \t usi moves (space separated) \t result flag (投了 or -) \t times (1/0)
import { readFileSync, writeFileSync } from 'node:fs';
import { loadPosition, parseLegal } from '/tmp/churef/churef.mjs';
import { makeSfen } from 'shogiops/sfen';
const games = JSON.parse(readFileSync('/tmp/kifwork/games.json')).filter(g => !g.err && g.dbl > 0 && g.moves.length <= 400);
const ep = {};
for (const f of ['openings-chu.epd', 'openings-chu-heldout.epd'])
  for (const l of readFileSync('/work/main/positions/' + f, 'utf8').split('\n')) {
    if (!l || l[0] === '#') continue;
    const [fen, rest] = l.split(' ; moves ');
    ep[fen.trim()] = rest ? rest.trim().split(/\s+/) : [];
  }
let seed = 12345;
const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
const shuffle = a => { for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; } return a; };
const picked = new Set();
const take = (list, n) => { for (const g of shuffle(list.filter(g => !picked.has(g)))) { if (n <= 0) break; picked.add(g); n--; } };
take(games.filter(g => g.pass > 0 && g.moves.length <= 330), 7);
take(games.filter(g => g.moves.length > 300), 6);
take(games.filter(g => g.moves.length < 100), 12);
take(games.filter(g => g.over === 'kingslost'), 6);
take(games.filter(g => g.moves.length >= 100 && g.moves.length <= 200), 50 - picked.size - 3);
const diag = shuffle(games.filter(g => !picked.has(g) && g.moves.length > 140 && g.moves.length < 200 && g.promo > 2)).slice(0, 3);
const rows = [];
let i = 0;
for (const g of [...picked]) {
  i++;
  const pos = loadPosition(g.fen);
  const open = ep[g.fen.split(' ').slice(0, 4).join(' ')] ?? ep[g.fen];
  if (!open) throw new Error('no opening for ' + g.fen);
  const moves = [...open, ...g.moves];
  for (const u of g.moves) pos.play(parseLegal(pos, u).move);
  const loser = g.result === '1-0' ? 'gote' : g.result === '0-1' ? 'sente' : null; // PGN Black = first mover = sente
  const resign = !pos.outcome() && loser && pos.turn === loser;
  const tags = [g.pass ? 'pass' : '', g.igui ? 'igui' : '', g.promo ? 'promo' : '', pos.outcome() ? pos.outcome().result : ''].filter(Boolean).join('-');
  rows.push([`chu${String(i).padStart(2, '0')}-${moves.length}p-${tags}`, 'startpos', moves.join(' '), resign ? '投了' : '-', i % 3 === 0 ? 1 : 0]);
}
// three games from a non-start position: the PGN's own opening SFEN (sente to move), and two mid-game
// positions (one with gote to move) whose counter-strike field is '-'
diag.forEach((g, k) => {
  const pos = loadPosition(g.fen);
  let skip = k === 0 ? 0 : k === 1 ? 81 : 120;
  for (const u of g.moves.slice(0, skip)) pos.play(parseLegal(pos, u).move);
  while (makeSfen(pos).split(' ')[2] !== '-') pos.play(parseLegal(pos, g.moves[skip++]).move);
  const rest = g.moves.slice(skip);
  rows.push([`chudiag${k + 1}-${pos.turn}-${rest.length}p`, makeSfen(pos), rest.join(' '), '-', k === 2 ? 1 : 0]);
});
// a fourth: every promoted kind on the board (gote to move), 60 seeded random plies from churef
import { execFileSync } from 'node:child_process';
const P = '+l+f+c+s+gek+g+s+c+f+l/+a1+b1+t+x+o+t1+b1+a/+m+v+r+h+dqnd+h+r+v+m/+p+p+p+p+p+p+p+p+p+p+p+p/3+i4+i3/12/12/3+I4+I3/+P+P+P+P+P+P+P+P+P+P+P+P/+M+V+R+H+DNQ+D+H+R+V+M/+A1+B1+T+O+X+T1+B1+A/+L+F+C+S+GKE+G+S+C+F+L w - 1';
const pm = execFileSync('node', ['/tmp/churef/churef.mjs', 'random', P, '60', '7', '--print-moves']).toString().split('\n')[0].trim();
rows.push(['chudiag4-allpromoted-gote-60p', P, pm, '-', 0]);
writeFileSync('/tmp/kif-fixtures/tools/games.tsv', rows.map(r => r.join('\t')).join('\n') + '\n');
console.log(rows.map(r => r[0] + ' ' + r[3] + ' src').join('\n'));
