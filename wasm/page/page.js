// The analysis page: draws the engine's position as SVG, takes moves by clicking, analyses and
// plays. It knows no rules: every position and move goes to the engine (`position ...`), an
// `info string error <reason>` answer rejects it, and `d` returns the SFEN that is drawn.

import { createShishi } from '../src/index.js';
import { pieceInfo, hasLionPower } from './pieces.js';
import { VARIANTS, parseSfen, variantOfSize, squareName, parseSquare, moveSquares, parseInfo } from './sfen.js';

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';
const S = 48; // square size in SVG units
const MARGIN = 22;

// ---------------------------------------------------------------------------------------------
// The engine, spoken to one request at a time.

class EngineIO {
  constructor(engine) {
    this.engine = engine;
    this.interruptible = engine.interruptible;
    this.log = []; // {dir: '>' | '<', line, at}
    this.collect = null; // the running query: {lines, resolve}
    this.search = null; // the running search: {onInfo, resolve, lines}
    this.chain = Promise.resolve();
    this.onLog = () => {};
    engine.listen((line) => this.onLine(line));
  }

  send(line) {
    this.log.push({ dir: '>', line, at: performance.now() });
    this.onLog(`> ${line}`);
    this.engine.send(line);
  }

  onLine(line) {
    const at = performance.now();
    this.log.push({ dir: '<', line, at });
    if (!line.startsWith('info depth') || this.log.length % 8 === 0) this.onLog(line);
    if (this.search) {
      if (line.startsWith('bestmove')) {
        const s = this.search;
        this.search = null;
        s.resolve({ line, at });
        return;
      }
      if (line.startsWith('info')) {
        s_info(this.search, line);
        return;
      }
    }
    if (this.collect) {
      this.collect.lines.push(line);
      if (line === 'readyok') {
        const c = this.collect;
        this.collect = null;
        c.resolve(c.lines);
      }
    }
  }

  /** Runs `fn` after every earlier exclusive task has ended. */
  exclusive(fn) {
    const result = this.chain.then(fn);
    this.chain = result.catch(() => {});
    return result;
  }

  /** Sends `lines` and `isready` (no search may run); resolves to the lines up to `readyok`. */
  query(lines) {
    return new Promise((resolve) => {
      this.collect = { lines: [], resolve };
      for (const l of lines) this.send(l);
      this.send('isready');
    });
  }

  /** Sends a `go` line; calls onInfo(info) for each info line; resolves at `bestmove`. */
  go(line, onInfo) {
    return new Promise((resolve) => {
      const sent = performance.now();
      this.search = { onInfo, resolve: ({ line: best, at }) => resolve({ best, ms: at - sent, at }) };
      this.send(line);
    });
  }
}

function s_info(search, line) {
  const info = parseInfo(line);
  if (info) search.onInfo?.(info);
}

const errorsIn = (lines) =>
  lines.filter((l) => l.startsWith('info string error')).map((l) => l.slice('info string error '.length));

// ---------------------------------------------------------------------------------------------
// Page state.

const state = {
  variant: 'chushogi',
  base: 'startpos', // 'startpos' or 'sfen <sfen>'
  moves: [], // the whole line; moves.slice(0, ply) is on the board
  ply: 0,
  board: null, // parseSfen() of the shown position
  sfen: '',
  legalMoves: null,
  selected: null, // {col, row}
  middle: null, // {col, row}: a lion's first step
  flipped: false,
  notation: 'abbr',
  analysing: null, // {stopRequested, done: Promise}
  engineSide: '',
};
// Figures the test reads: each finished search's `go` line and milliseconds to bestmove, and
// how long `stop` took to be answered.
const stats = { searches: [], stops: [] };
let io;

const current = () => state.moves.slice(0, state.ply);
const positionCommand = (moves, base = state.base) =>
  `position ${base}${moves.length ? ' moves ' + moves.join(' ') : ''}`;

function message(text, bad = false) {
  const m = $('message');
  m.textContent = text;
  m.classList.toggle('bad', bad);
}

// ---------------------------------------------------------------------------------------------
// Drawing.

function draw() {
  const svg = $('board');
  const b = state.board;
  if (!b) return;
  const { width: w, height: h } = b;
  svg.setAttribute('viewBox', `0 0 ${w * S + MARGIN + 4} ${h * S + MARGIN + 4}`);
  svg.replaceChildren();
  const view = (col, row) => (state.flipped ? { x: w - 1 - col, y: h - 1 - row } : { x: col, y: row });
  const px = (col, row) => {
    const v = view(col, row);
    return { x: 2 + v.x * S, y: MARGIN + v.y * S };
  };
  const last = moveSquares(w, current().at(-1));
  const isLast = (c, r) => last.some((s) => s && s.col === c && s.row === r);
  const same = (a, c, r) => a && a.col === c && a.row === r;

  for (let row = 0; row < h; row++) {
    for (let col = 0; col < w; col++) {
      const { x, y } = px(col, row);
      const rect = el('rect', { x, y, width: S, height: S, class: 'sq', 'data-sq': squareName(w, col, row) });
      const token = b.rows[row][col];
      if (token) {
        // The tooltip sits on the square: pieces let clicks (and hovering) through to it.
        const p = pieceInfo(VARIANTS[state.variant].family, token);
        rect.append(el('title', {}, `${p.gote ? 'gote' : 'sente'} ${p.name} (${p.full}, ${p.gote ? p.letter.toLowerCase() : p.letter})`));
      }
      if (same(state.selected, col, row)) rect.classList.add('selected');
      else if (same(state.middle, col, row)) rect.classList.add('middle');
      else if (isLast(col, row)) rect.classList.add('last');
      svg.append(rect);
    }
  }
  // Coordinates: file numbers above, rank letters on the right.
  for (let col = 0; col < w; col++) {
    const { x } = px(col, 0);
    svg.append(el('text', { x: x + S / 2, y: MARGIN / 2, class: 'coord' }, String(w - col)));
  }
  for (let row = 0; row < h; row++) {
    const { y } = px(0, row);
    svg.append(el('text', { x: 2 + w * S + MARGIN / 2, y: y + S / 2, class: 'coord' }, String.fromCharCode(97 + row)));
  }
  // Promotion zone lines (4 ranks in Chu, 3 in Heian): dots where they cross.
  const zone = VARIANTS[state.variant].family === 'chu' ? 4 : 3;
  for (const r of [zone, h - zone]) {
    for (const c of [zone, w - zone]) {
      const x = 2 + (state.flipped ? w - c : c) * S;
      const y = MARGIN + (state.flipped ? h - r : r) * S;
      svg.append(el('circle', { cx: x, cy: y, r: 3, class: 'hoshi' }));
    }
  }
  const family = VARIANTS[state.variant].family;
  for (let row = 0; row < h; row++) {
    for (let col = 0; col < w; col++) {
      const token = b.rows[row][col];
      if (!token) continue;
      const { x, y } = px(col, row);
      svg.append(drawPiece(pieceInfo(family, token), x + S / 2, y + S / 2));
    }
  }
}

function el(name, attrs, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function drawPiece(p, cx, cy) {
  const down = p.gote !== state.flipped; // points towards the bottom of the screen
  const g = el('g', { class: 'piece', transform: `translate(${cx} ${cy})` });
  g.classList.toggle('promoted', p.promoted);
  const shape = el('g', { transform: down ? 'rotate(180)' : '' });
  const k = S / 2;
  shape.append(
    el('polygon', {
      class: 'body',
      points: [
        [0, -0.9 * k],
        [0.64 * k, -0.6 * k],
        [0.8 * k, 0.88 * k],
        [-0.8 * k, 0.88 * k],
        [-0.64 * k, -0.6 * k],
      ].map((p) => p.join(',')).join(' '),
    }),
  );
  const letter = p.gote ? p.letter.toLowerCase() : p.letter;
  if (state.notation === 'letter') {
    // Letters read upright; gote pieces are dark, and the shape still points the way they move.
    g.classList.add(p.gote ? 'dark' : 'light');
    g.append(shape);
    g.append(el('text', { class: 'big', x: 0, y: 0.06 * k, 'font-size': (letter.length > 1 ? 0.72 : 0.9) * k }, letter));
    g.append(el('text', { class: 'kanji small', x: 0.56 * k, y: 0.62 * k, 'font-size': 0.36 * k, 'text-anchor': 'end' }, p.abbr));
    return g;
  }
  // Kanji pieces turn round with their owner, letter and all, as on a real board.
  const chars = state.notation === 'full' ? [...p.full] : [...p.abbr];
  if (chars.length === 1) {
    shape.append(el('text', { class: 'kanji', x: 0, y: 0.08 * k, 'font-size': 1.0 * k }, chars[0]));
  } else {
    shape.append(el('text', { class: 'kanji', x: -0.02 * k, y: -0.28 * k, 'font-size': 0.62 * k }, chars[0]));
    shape.append(el('text', { class: 'kanji', x: -0.02 * k, y: 0.36 * k, 'font-size': 0.62 * k }, chars[1]));
  }
  shape.append(
    el('text', { class: 'corner', x: 0.74 * k, y: 0.8 * k, 'font-size': 0.34 * k, 'text-anchor': 'end' }, letter),
  );
  g.append(shape);
  return g;
}

function showMoves() {
  const list = $('move-list');
  list.replaceChildren();
  state.moves.forEach((m, i) => {
    const li = document.createElement('li');
    const n = document.createElement('span');
    n.className = 'n';
    n.textContent = `${i + 1}.`;
    li.append(n, m);
    li.dataset.ply = String(i + 1);
    if (i === state.ply - 1) li.classList.add('current');
    if (i >= state.ply) li.classList.add('future');
    li.addEventListener('click', () => goToPly(i + 1));
    list.append(li);
  });
  list.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
  $('moves').value = state.moves.join(' ');
  $('shown-sfen').textContent = state.sfen;
}

// ---------------------------------------------------------------------------------------------
// Positions and moves through the engine.

/** Asks the engine for the position `base` + `moves` of `variant`: resolves to the errors (none
 * when it was accepted) and, when accepted, updates the state and the drawing. */
async function setPosition(variant, base, moves, ply = moves.length) {
  await halt();
  return io.exclusive(async () => {
    const lines = [];
    if (variant !== state.variant) lines.push(`setoption name USI_Variant value ${variant}`);
    lines.push(positionCommand(moves.slice(0, ply), base), 'd');
    const out = await io.query(lines);
    const errors = errorsIn(out);
    if (errors.length) {
      // The engine kept its previous position (or, after a new variant, none): go back to ours.
      if (variant !== state.variant) await io.query([`setoption name USI_Variant value ${state.variant}`]);
      return errors;
    }
    const sfenLine = out.find((l) => l.startsWith('sfen '));
    const legal = out.find((l) => l.startsWith('variant '))?.match(/legal moves (\d+)/);
    Object.assign(state, {
      variant,
      base,
      moves: [...moves],
      ply,
      sfen: sfenLine.slice(5),
      board: parseSfen(sfenLine.slice(5)),
      legalMoves: legal ? Number(legal[1]) : null,
      selected: null,
      middle: null,
    });
    $('variant').value = variant;
    $('position-error').textContent = '';
    draw();
    showMoves();
    const side = state.board.side === 'b' ? 'sente' : 'gote';
    message(state.legalMoves === 0 ? `game over: ${side} has no legal move` : `${side} to move`);
    return [];
  });
}

/** Whether the engine accepts `move` after the shown position (no state change). */
async function accepts(move) {
  const out = await io.exclusive(() => io.query([positionCommand([...current(), move])]));
  return errorsIn(out);
}

/** Plays `move` (already known to be legal) on the board. */
async function play(move) {
  const line = current();
  const next = state.moves[state.ply] === move ? state.moves : [...line, move];
  const errors = await setPosition(state.variant, state.base, next, state.ply + 1);
  if (errors.length) message(`rejected: ${errors[0]}`, true);
  else afterMove();
  return errors;
}

/** Tries the move `text` and its promotion; asks when both are legal. */
async function tryMove(text, canPromote) {
  const resume = state.analysing?.limit === 'infinite';
  await halt();
  const plain = await accepts(text);
  const promoted = canPromote ? await accepts(text + '+') : ['-'];
  let move = null;
  if (!plain.length && !promoted.length) move = (await askPromotion(text)) ? text + '+' : text;
  else if (!plain.length) move = text;
  else if (!promoted.length) move = text + '+';
  if (!move) {
    state.selected = state.middle = null;
    draw();
    message(`${text}: ${plain[0]}`, true);
    if (resume) analyse('infinite');
    return false;
  }
  const errors = await play(move);
  if (resume && !errors.length && !state.engineSide && state.legalMoves !== 0) analyse('infinite');
  return true;
}

function askPromotion(text) {
  const dialog = $('promote-dialog');
  $('promote-what').textContent = text;
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'yes'), { once: true });
    dialog.showModal();
  });
}

async function onSquare(sq) {
  const b = state.board;
  if (!b || state.busyEngine) return;
  const { col, row } = parseSquare(b.width, sq);
  const token = b.rows[row][col];
  const family = VARIANTS[state.variant].family;
  const mine = token && (token === token.toUpperCase()) === (b.side === 'b');
  const sel = state.selected;
  const name = (s) => squareName(b.width, s.col, s.row);
  if (!sel) {
    if (mine) {
      state.selected = { col, row };
      draw();
      message(`${pieceInfo(family, token).name} on ${sq} selected`);
    } else if (token) message(`it is ${b.side === 'b' ? 'sente' : 'gote'}'s move`, true);
    return;
  }
  const selToken = b.rows[sel.row][sel.col];
  const lion = hasLionPower(family, selToken);
  const isSel = sel.col === col && sel.row === row;
  if (state.middle) {
    const mid = state.middle;
    const midEmpty = !b.rows[mid.row][mid.col];
    if (mid.col === col && mid.row === row) return tryMove(name(sel) + sq, true); // stop on the first step
    if (isSel) return tryMove(name(sel) + name(mid) + sq, false); // igui, or pass over an empty square
    if (midEmpty) return tryMove(name(sel) + sq, true);
    return tryMove(name(sel) + name(mid) + sq, false);
  }
  if (isSel) {
    state.selected = null;
    draw();
    message('');
    return;
  }
  if (mine) {
    state.selected = { col, row };
    draw();
    return;
  }
  if (lion && Math.max(Math.abs(col - sel.col), Math.abs(row - sel.row)) === 1) {
    state.middle = { col, row };
    draw();
    message(`first step ${sq}: click it again to stop there, another square for the second step, ` +
      `or ${name(sel)} to return`);
    return;
  }
  return tryMove(name(sel) + sq, !pieceInfo(family, selToken).promoted);
}

async function goToPly(ply) {
  const resume = state.analysing?.limit === 'infinite';
  const errors = await setPosition(state.variant, state.base, state.moves, Math.max(0, Math.min(ply, state.moves.length)));
  if (errors.length) message(errors[0], true);
  else if (resume && state.legalMoves !== 0) analyse('infinite');
}

// ---------------------------------------------------------------------------------------------
// Analysis and play.

function showInfo(info, side) {
  if (info.depth === undefined) return;
  if (info.multipv && info.multipv !== 1) return;
  const sign = side === 'w' ? -1 : 1;
  $('a-depth').textContent = `${info.depth}${info.seldepth ? '/' + info.seldepth : ''}`;
  if (info.score) {
    const bound = info.score.bound === 'lowerbound' ? ' ≥' : info.score.bound === 'upperbound' ? ' ≤' : '';
    if (info.score.mate !== undefined) {
      const m = info.score.mate * sign;
      $('a-score').textContent = `${bound}mate ${m > 0 ? '+' : ''}${m}`;
    } else {
      const cp = info.score.cp * sign;
      $('a-score').textContent = `${bound}${cp > 0 ? '+' : ''}${cp} cp`;
    }
  }
  if (info.nodes !== undefined) $('a-nodes').textContent = info.nodes.toLocaleString('en');
  if (info.nps !== undefined) $('a-nps').textContent = info.nps.toLocaleString('en');
  if (info.time !== undefined) $('a-time').textContent = `${(info.time / 1000).toFixed(1)} s`;
  if (info.hashfull !== undefined) $('a-hash').textContent = `${(info.hashfull / 10).toFixed(1)} %`;
  if (info.pv) $('pv').textContent = info.pv.join(' ');
}

function clearInfo() {
  for (const id of ['a-depth', 'a-score', 'a-nodes', 'a-nps', 'a-time', 'a-hash']) $(id).textContent = '–';
  $('pv').textContent = '';
  $('bestmove').textContent = '';
}

/** Starts an analysis of the shown position with `limit` ('infinite', 'depth 8', ...). */
async function analyse(limit) {
  await halt();
  clearInfo();
  const side = state.board.side;
  const run = { stopRequested: false, limit };
  let finish;
  run.done = new Promise((r) => (finish = r));
  state.analysing = run;
  $('stop').disabled = false;
  $('analyse').disabled = true;
  io.exclusive(async () => {
    try {
      await io.query([positionCommand(current())]);
      const onInfo = (info) => showInfo(info, side);
      let result;
      if (limit === 'infinite' && !io.interruptible) {
        // No shared memory: `stop` would only be read after the search. Search in slices that
        // grow from 1 to 8 seconds (the hash table keeps what earlier slices found).
        for (let slice = 1000; !run.stopRequested; slice = Math.min(slice * 2, 8000)) {
          result = await io.go(`go movetime ${slice}`, onInfo);
          stats.searches.push({ go: `go movetime ${slice}`, ms: result.ms });
        }
      } else {
        const go = `go ${limit}`;
        result = await io.go(go, onInfo);
        stats.searches.push({ go, ms: result.ms, sfen: state.sfen });
      }
      $('bestmove').textContent = `${result.best}  (${result.ms.toFixed(0)} ms after go)`;
    } finally {
      state.analysing = null;
      $('stop').disabled = true;
      $('analyse').disabled = false;
      finish();
    }
  });
  return run;
}

/** Ends a running analysis and waits until the engine has answered. */
async function halt() {
  const run = state.analysing;
  if (!run) return;
  if (!run.stopRequested) {
    run.stopRequested = true;
    if (io.interruptible && io.search) {
      const asked = performance.now();
      const search = io.search;
      const resolve = search.resolve;
      search.resolve = (r) => {
        stats.stops.push({ ms: r.at - asked });
        message(`stopped: bestmove ${(r.at - asked).toFixed(1)} ms after stop`);
        resolve(r);
      };
      io.send('stop');
    }
  }
  await run.done;
}

async function afterMove() {
  if (!state.engineSide || state.legalMoves === 0) return;
  if (state.board.side === state.engineSide) await engineMove();
}

/** The engine plays the side to move with `go movetime N`. */
async function engineMove() {
  await halt();
  if (state.legalMoves === 0) return;
  const ms = Math.max(50, Number($('movetime').value) || 1000);
  const side = state.board.side;
  state.busyEngine = true;
  message(`the engine thinks (${ms} ms)…`);
  clearInfo();
  let best;
  try {
    best = await io.exclusive(async () => {
      await io.query([positionCommand(current())]);
      const r = await io.go(`go movetime ${ms}`, (info) => showInfo(info, side));
      stats.searches.push({ go: `go movetime ${ms}`, ms: r.ms });
      return r.best.split(/\s+/)[1];
    });
  } finally {
    state.busyEngine = false;
  }
  $('bestmove').textContent = `engine: ${best}`;
  if (!best || best === 'resign' || best === '(none)' || best === 'win') {
    message(`the engine answers ${best}`, true);
    return;
  }
  const errors = await setPosition(state.variant, state.base, [...current(), best]);
  if (errors.length) message(`engine move ${best} rejected: ${errors[0]}`, true);
  else if (state.legalMoves === 0) message(`game over after ${best}`);
  else message(`engine played ${best}; your move`);
}

// ---------------------------------------------------------------------------------------------
// Setup.

/** Reads the SFEN field: '' or 'startpos' → the start position; a SFEN, maybe with `sfen`
 * before it and `moves ...` after it. */
function readSetup() {
  let text = $('sfen').value.trim().replace(/^position\s+/, '');
  let moves = $('moves').value.trim().split(/\s+/).filter(Boolean);
  const at = text.indexOf(' moves ');
  if (at >= 0 || text.startsWith('moves ')) {
    const cut = text.startsWith('moves ') ? 0 : at;
    moves = text.slice(cut).replace(/^\s*moves\s+/, '').split(/\s+/).filter(Boolean).concat(moves);
    text = text.slice(0, cut).trim();
  }
  text = text.replace(/^sfen\s+/, '');
  if (!text || text === 'startpos') return { variant: $('variant').value, base: 'startpos', moves };
  let variant = $('variant').value;
  try {
    const b = parseSfen(text);
    variant = variantOfSize(b.width, b.height) ?? variant;
  } catch {
    // Let the engine say what is wrong with it.
  }
  return { variant, base: `sfen ${text}`, moves };
}

async function load() {
  const { variant, base, moves } = readSetup();
  $('position-error').textContent = '';
  const errors = await setPosition(variant, base, moves);
  if (errors.length) $('position-error').textContent = errors.join('; ');
  return errors;
}

async function main() {
  for (const [name, v] of Object.entries(VARIANTS)) {
    const o = document.createElement('option');
    o.value = name;
    o.textContent = v.label;
    $('variant').append(o);
  }
  const engine = await createShishi();
  io = new EngineIO(engine);
  const log = $('log');
  io.onLog = (line) => {
    log.textContent += line + '\n';
    if (log.textContent.length > 20000) log.textContent = log.textContent.slice(-15000);
    log.scrollTop = log.scrollHeight;
  };
  $('engine-status').textContent = io.interruptible
    ? 'engine ready; cross-origin isolated: stop interrupts a search at once'
    : 'engine ready; not cross-origin isolated (no COOP/COEP headers): infinite analysis runs in slices';
  await io.exclusive(() => io.query(['usi', 'setoption name USI_Hash value 64', `setoption name USI_Variant value ${state.variant}`]));

  $('board').addEventListener('click', (e) => {
    const sq = e.target.closest?.('[data-sq]')?.getAttribute('data-sq');
    if (sq) onSquare(sq);
  });
  $('variant').addEventListener('change', () => {
    $('sfen').value = '';
    $('moves').value = '';
    setPosition($('variant').value, 'startpos', []);
  });
  $('load').addEventListener('click', load);
  $('reset').addEventListener('click', () => {
    $('sfen').value = '';
    setPosition(state.variant, 'startpos', []);
  });
  $('copy-sfen').addEventListener('click', () => {
    $('sfen').value = state.sfen;
    $('moves').value = '';
  });
  $('back').addEventListener('click', () => goToPly(state.ply - 1));
  $('forward').addEventListener('click', () => goToPly(state.ply + 1));
  document.addEventListener('keydown', (e) => {
    if (e.target.closest('input, textarea, select')) return;
    if (e.key === 'ArrowLeft') goToPly(state.ply - 1);
    if (e.key === 'ArrowRight') goToPly(state.ply + 1);
  });
  $('flip').addEventListener('click', () => {
    state.flipped = !state.flipped;
    draw();
  });
  $('notation').addEventListener('change', () => {
    state.notation = $('notation').value;
    draw();
  });
  $('analyse').addEventListener('click', () => analyse($('limit').value));
  $('stop').addEventListener('click', () => halt());
  $('engine-side').addEventListener('change', () => {
    state.engineSide = $('engine-side').value;
    if (state.engineSide && state.board.side === state.engineSide) engineMove();
  });
  $('engine-move').addEventListener('click', () => engineMove());
  $('usi-send').addEventListener('click', () => {
    const line = $('usi-line').value.trim();
    if (line) io.send(line);
  });

  await setPosition(state.variant, 'startpos', []);
  document.body.dataset.ready = 'true';
}

// For tests and the console.
window.shishiPage = { state, stats, get io() { return io; }, setPosition, analyse, halt, tryMove };

main().catch((e) => {
  $('engine-status').textContent = `engine failed: ${e.message}`;
  console.error(e);
});
