// The analysis page: draws the engine's position as SVG, takes moves by clicking, analyses and
// plays. It knows no rules: every position and move goes to the engine (`position ...`), an
// `info string error <reason>` answer rejects it, and `d` returns the SFEN that is drawn.
// What the analysis says is drawn from the engine's `info` lines: the best move as an arrow,
// an evaluation bar, the MultiPV lines, and for the game a score after each move and a graph.

import { createShishi } from '../src/index.js';
import { pieceInfo, hasLionPower } from './pieces.js';
import { VARIANTS, parseSfen, variantOfSize, squareName, parseSquare, moveSquares, applyMove, parseInfo } from './sfen.js';

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';
const S = 48; // square size in SVG units
const MARGIN = 22;
// A score is kept for a position (move list, graph) once its search has reached this depth.
const STORED_DEPTH = 4;

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
      this.collect.onLine?.(line);
      if (this.collect.isEnd ? this.collect.isEnd(line) : line === 'readyok') {
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

  /** Sends `line` (no search may run); calls onLine(line) for each line that comes; resolves
   * to the lines up to the one `isEnd` accepts. */
  run(line, isEnd, onLine) {
    return new Promise((resolve) => {
      this.collect = { lines: [], resolve, isEnd, onLine };
      this.send(line);
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
  baseBoard: null, // parseSfen() of the position before the first move
  sfen: '',
  legalMoves: null,
  selected: null, // {col, row}
  middle: null, // {col, row}: a lion's first step
  flipped: false,
  notation: 'abbr',
  analysing: null, // {stopRequested, done: Promise}
  engineSide: '',
  multipv: 1,
  // The latest search's position (key, side to move, board) and its lines by multipv - 1:
  // {depth, score (sente's view), pv}. Shown while that position is.
  analysis: null,
  // Scores by position key: {score (sente's view), depth}, the deepest one reached.
  scores: new Map(),
  // The whole-game analysis of the shown game (the engine's `annotate` JSON), its key the
  // game's, and whether one runs.
  annotation: null,
  annotating: false,
};
// Figures the test reads: each finished search's `go` line and milliseconds to bestmove, how
// long `stop` took to be answered, and the moves of each line played by a click.
const stats = { searches: [], stops: [], lines: [] };
let io;

const current = () => state.moves.slice(0, state.ply);
/** The key of the position after `moves` from the shown game's start. */
const keyOf = (moves) => `${state.variant}|${state.base}|${moves.join(' ')}`;
const shownAnalysis = () => (state.analysis?.key === keyOf(current()) ? state.analysis : null);
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
  svg.append(el('g', { id: 'arrows' }));
  drawArrows();
}

/** The centre of a square in SVG units, on the board as it is turned. */
function squareCenter({ col, row }) {
  const { width: w, height: h } = state.board;
  const x = state.flipped ? w - 1 - col : col;
  const y = state.flipped ? h - 1 - row : row;
  return { x: 2 + x * S + S / 2, y: MARGIN + y * S + S / 2 };
}

/** Arrows for the first move of each line of the shown position's analysis, the best on top. */
function drawArrows() {
  const g = $('arrows');
  if (!g) return;
  g.replaceChildren();
  const lines = shownAnalysis()?.lines ?? [];
  for (let i = lines.length - 1; i >= 0; i--) {
    if (lines[i]?.pv.length) g.append(arrow(lines[i].pv[0], i === 0 ? 'best' : 'alt'));
  }
}

/**
 * An arrow for a USI move: one leg for a plain move, two for a lion's double move (a dot on
 * the first step); a second leg back to the start (igui, or a pass) bends so that both show.
 */
function arrow(move, kind) {
  const g = el('g', { class: `arrow ${kind}`, 'data-move': move });
  const pts = moveSquares(state.board.width, move).map(squareCenter);
  if (pts.length < 2) return g;
  const width = kind === 'best' ? 0.19 * S : 0.13 * S;
  const head = 2.2 * width;
  for (let i = 1; i < pts.length; i++) {
    const a = pts[i - 1];
    const b = pts[i];
    const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
    const back = i === 2 && b.x === pts[0].x && b.y === pts[0].y;
    // A bent leg is a quadratic curve whose control point stands off the straight line.
    const c = back
      ? { x: (a.x + b.x) / 2 - ((b.y - a.y) / len) * 0.55 * S, y: (a.y + b.y) / 2 + ((b.x - a.x) / len) * 0.55 * S }
      : a;
    const last = i === pts.length - 1;
    // The leg's direction where it ends.
    const dx = b.x - c.x || b.x - a.x;
    const dy = b.y - c.y || b.y - a.y;
    const dl = Math.hypot(dx, dy) || 1;
    const u = { x: dx / dl, y: dy / dl };
    const tip = last ? { x: b.x - u.x * 0.12 * S, y: b.y - u.y * 0.12 * S } : b;
    const end = last ? { x: tip.x - u.x * head * 0.8, y: tip.y - u.y * head * 0.8 } : b;
    const d = back ? `M ${a.x} ${a.y} Q ${c.x} ${c.y} ${end.x} ${end.y}` : `M ${a.x} ${a.y} L ${end.x} ${end.y}`;
    g.append(el('path', { d, 'stroke-width': width }));
    if (last) {
      const n = { x: -u.y, y: u.x };
      const base = { x: tip.x - u.x * head, y: tip.y - u.y * head };
      const p = [tip, { x: base.x + n.x * head * 0.6, y: base.y + n.y * head * 0.6 }, { x: base.x - n.x * head * 0.6, y: base.y - n.y * head * 0.6 }];
      g.append(el('polygon', { points: p.map((q) => `${q.x.toFixed(1)},${q.y.toFixed(1)}`).join(' ') }));
    } else {
      g.append(el('circle', { class: 'step', cx: b.x, cy: b.y, r: width * 0.9 }));
    }
  }
  return g;
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

/** The move list of the game, each move in words with the score of the position after it. */
function showMoves() {
  const list = $('move-list');
  list.replaceChildren();
  let board = state.baseBoard;
  state.moves.forEach((m, i) => {
    const li = document.createElement('li');
    const n = document.createElement('span');
    n.className = 'n';
    n.textContent = `${i + 1}.`;
    const text = document.createElement('span');
    text.className = 'mv';
    text.textContent = board ? moveText(board, m) : m;
    const score = document.createElement('span');
    score.className = 'score';
    const judged = judgmentOf(i + 1);
    const glyph = document.createElement('span');
    glyph.className = 'glyph';
    if (judged) {
      li.classList.add(judged);
      glyph.textContent = GLYPHS[judged];
    }
    li.append(n, text, glyph, score);
    li.title = m;
    li.dataset.ply = String(i + 1);
    if (i === state.ply - 1) li.classList.add('current');
    if (i >= state.ply) li.classList.add('future');
    li.addEventListener('click', () => goToPly(i + 1));
    list.append(li);
    if (board) board = applyMove(board, m);
  });
  list.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
  $('moves').value = state.moves.join(' ');
  $('shown-sfen').textContent = state.sfen;
  showScores();
}

/** A USI move in words on `board` (the position before it): `☗獅7j-7i-7j`, `☖歩7dx7e+`. */
function moveText(board, move) {
  const squares = moveSquares(board.width, move);
  const mark = board.side === 'b' ? '☗' : '☖';
  if (squares.length < 2) return `${mark}${move === '0000' ? 'pass' : move}`;
  const token = board.rows[squares[0].row][squares[0].col];
  const p = token ? pieceInfo(VARIANTS[state.variant].family, token) : null;
  const name = !p ? '' : state.notation === 'letter' ? p.letter : p.abbr;
  const names = move.match(/\d+[a-l]/g);
  let text = `${mark}${name}${names[0]}`;
  for (let i = 1; i < squares.length; i++) {
    const { col, row } = squares[i];
    const home = col === squares[0].col && row === squares[0].row;
    text += (board.rows[row][col] && !home ? 'x' : '-') + names[i];
  }
  return text + (move.endsWith('+') ? '+' : '');
}

// ---------------------------------------------------------------------------------------------
// Scores: the analysis as an arrow, an evaluation bar, lines, and a score after each move.

/** A score from the side to move's view (`{cp}` or `{mate}`, maybe a bound) in sente's view:
 * `{cp}`, or `{mate: plies, winner: 'b' | 'w'}`. */
function senteScore(score, side) {
  const other = side === 'b' ? 'w' : 'b';
  const bound = score.bound ? { bound: score.bound } : {};
  if (score.mate !== undefined) {
    // `mate -N` and `mate 0`: the side to move is mated.
    return { mate: Math.abs(score.mate), winner: score.mate > 0 ? side : other, ...bound };
  }
  return { cp: side === 'b' ? score.cp : -score.cp, ...bound };
}

/** Sente's share of the evaluation bar, 0 to 1: centipawns through the logistic curve lichess
 * uses for its bar, a mate fills the bar for the side that mates. */
function shareOf(score) {
  if (score.mate !== undefined) return score.winner === 'b' ? 1 : 0;
  return 1 / (1 + Math.exp(-0.00368208 * score.cp));
}

/** `+35`, `-120`, `#+3` (sente mates in 3 plies), `#-2`. */
function scoreText(score) {
  if (score.mate !== undefined) return `#${score.winner === 'b' ? '+' : '-'}${score.mate}`;
  return `${score.cp > 0 ? '+' : ''}${score.cp}`;
}

/** Keeps `score` for the position `key` unless a deeper one is kept. */
function storeScore(key, score, depth) {
  if (score.bound || depth < 1) return;
  const old = state.scores.get(key);
  if (!old || depth >= old.depth) state.scores.set(key, { score, depth });
}

/** A new analysis of the shown position: its lines fill in as `info` lines come. */
function newAnalysis() {
  state.analysis = { key: keyOf(current()), side: state.board.side, board: state.board, lines: [] };
  render();
  return state.analysis;
}

/** Takes an `info` line of analysis `a`: its line, and the position's score once deep enough. */
function takeInfo(a, info) {
  if (info.depth === undefined || !info.score || !info.pv?.length) return;
  const k = info.multipv ?? 1;
  if (k > state.multipv) return;
  const score = senteScore(info.score, a.side);
  a.lines[k - 1] = { depth: info.depth, score, pv: info.pv };
  if (k === 1 && info.depth >= STORED_DEPTH) storeScore(a.key, score, info.depth);
  scheduleRender();
}

let renderPending = false;
/** Redraws what the analysis shows at the next frame (info lines come faster than frames). */
function scheduleRender() {
  if (renderPending) return;
  renderPending = true;
  requestAnimationFrame(() => {
    renderPending = false;
    render();
  });
}

function render() {
  drawArrows();
  showLines();
  showEvalBar();
  showScores();
}

let linesShown = '';
/** The lines of the shown position's analysis, each move in words. */
function showLines() {
  const a = shownAnalysis();
  const lines = a?.lines.slice(0, state.multipv) ?? [];
  // Rebuild only when something changed, so a click is not lost to a rebuild.
  const sig = JSON.stringify([a?.key, state.notation, lines]);
  if (sig === linesShown) return;
  linesShown = sig;
  const list = $('lines');
  list.replaceChildren();
  lines.forEach((line, i) => {
    if (!line) return;
    const li = document.createElement('li');
    li.className = 'line';
    li.dataset.multipv = String(i + 1);
    const score = document.createElement('span');
    score.className = 'score';
    score.textContent = (line.score.bound === 'lowerbound' ? '≥' : line.score.bound === 'upperbound' ? '≤' : '') + scoreText(line.score);
    const depth = document.createElement('span');
    depth.className = 'depth';
    depth.textContent = `d${line.depth}`;
    li.append(score, depth);
    let board = a.board;
    line.pv.forEach((m, j) => {
      const mv = document.createElement('span');
      mv.className = `mv ${board.side === 'b' ? 'sente' : 'gote'}`;
      mv.dataset.index = String(j);
      mv.title = m;
      mv.textContent = moveText(board, m);
      li.append(mv);
      board = applyMove(board, m);
    });
    list.append(li);
  });
}

/** The evaluation bar: the shown position's analysis, or the score kept for it. */
function showEvalBar() {
  const bar = $('eval-bar');
  const score = shownAnalysis()?.lines[0]?.score ?? state.scores.get(keyOf(current()))?.score ?? null;
  const share = score ? shareOf(score) : 0.5;
  bar.dataset.share = share.toFixed(3);
  bar.dataset.score = score ? scoreText(score) : '';
  bar.classList.toggle('flipped', state.flipped);
  $('eval-fill').style.height = `${(share * 100).toFixed(1)}%`;
  const text = $('eval-text');
  text.textContent = score ? scoreText(score) : '';
  // The figure stands at the end of the side ahead, on its colour.
  const senteAhead = share >= 0.5;
  text.classList.toggle('top', senteAhead === state.flipped);
  text.classList.toggle('on-dark', !senteAhead);
}

/** The keys of the positions after 0, 1, ... moves of the game. */
function gameKeys() {
  const keys = [keyOf([])];
  for (let i = 1; i <= state.moves.length; i++) keys.push(keyOf(state.moves.slice(0, i)));
  return keys;
}

/** The score after each move in the move list, and the graph of them. */
function showScores() {
  const keys = gameKeys();
  const items = $('move-list').children;
  for (let i = 0; i < items.length; i++) {
    const s = state.scores.get(keys[i + 1]);
    items[i].querySelector('.score').textContent = s ? scoreText(s.score) : '';
  }
  drawGraph(keys);
}

const GRAPH = { w: 400, h: 100, pad: 6 };

/** The evaluation graph: sente's share after each move (light below the line), a point for
 * each position with a score, and a mark at the shown one. */
function drawGraph(keys) {
  const svg = $('graph');
  const { w, h, pad } = GRAPH;
  const n = state.moves.length;
  const x = (ply) => pad + (n ? (ply * (w - 2 * pad)) / n : (w - 2 * pad) / 2);
  const y = (share) => pad + (1 - share) * (h - 2 * pad);
  const points = [];
  keys.forEach((key, ply) => {
    const s = state.scores.get(key);
    if (s) points.push({ ply, x: x(ply), y: y(shareOf(s.score)), text: scoreText(s.score) });
  });
  svg.replaceChildren();
  if (points.length) {
    const line = points.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
    svg.append(el('polygon', { class: 'sente-area', points: `${points[0].x.toFixed(1)},${h} ${line} ${points.at(-1).x.toFixed(1)},${h}` }));
  }
  svg.append(el('line', { class: 'axis', x1: 0, x2: w, y1: h / 2, y2: h / 2 }));
  svg.append(el('line', { class: 'current', x1: x(state.ply), x2: x(state.ply), y1: 0, y2: h }));
  if (points.length) svg.append(el('polyline', { class: 'line', points: points.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ') }));
  for (const p of points) {
    const judged = judgmentOf(p.ply);
    const cls = judged ? `point judged ${judged}` : 'point';
    const c = el('circle', { class: cls, cx: p.x.toFixed(1), cy: p.y.toFixed(1), r: judged ? 3 : 2.2, 'data-ply': p.ply });
    c.append(el('title', {}, `after move ${p.ply}: ${p.text}${judged ? ` (${judged})` : ''}`));
    svg.append(c);
  }
}

/** Plays line `index` of the shown analysis up to its move `upto` (from 0). Positions along a
 * principal variation keep its score, as from a shallower search, until they are searched. */
async function playLine(index, upto) {
  const a = shownAnalysis();
  const line = a?.lines[index];
  if (!line || state.busyEngine) return;
  const pv = line.pv.slice(0, upto + 1);
  const start = current();
  stats.lines.push({ multipv: index + 1, moves: pv });
  pv.forEach((_, i) => storeScore(keyOf([...start, ...pv.slice(0, i + 1)]), line.score, line.depth - i - 1));
  const resume = state.analysing?.limit === 'infinite';
  const ahead = state.moves.slice(state.ply, state.ply + pv.length).join(' ') === pv.join(' ');
  const errors = await setPosition(state.variant, state.base, ahead ? state.moves : [...start, ...pv], start.length + pv.length);
  if (errors.length) message(`rejected: ${errors[0]}`, true);
  else if (state.engineSide) afterMove();
  else if (resume && state.legalMoves !== 0) analyse('infinite');
}

/** Sets MultiPV (1 to 5); an infinite analysis starts again with it. */
async function setMultiPV(n) {
  const resume = state.analysing?.limit === 'infinite';
  await halt();
  await io.exclusive(() => io.query([`setoption name MultiPV value ${n}`]));
  state.multipv = n;
  render();
  if (resume && state.legalMoves !== 0) analyse('infinite');
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
    // The game's first position too, to write the moves in words.
    lines.push(positionCommand([], base), 'd', positionCommand(moves.slice(0, ply), base), 'd');
    const out = await io.query(lines);
    // A bad start position is reported for both position commands: once is enough.
    const errors = [...new Set(errorsIn(out))];
    if (errors.length) {
      // The engine kept its previous position (or, after a new variant, none): go back to ours.
      if (variant !== state.variant) await io.query([`setoption name USI_Variant value ${state.variant}`]);
      return errors;
    }
    const sfenLines = out.filter((l) => l.startsWith('sfen '));
    const sfenLine = sfenLines.at(-1);
    const legal = out.filter((l) => l.startsWith('variant ')).at(-1)?.match(/legal moves (\d+)/);
    Object.assign(state, {
      variant,
      base,
      moves: [...moves],
      ply,
      sfen: sfenLine.slice(5),
      board: parseSfen(sfenLine.slice(5)),
      baseBoard: parseSfen(sfenLines[0].slice(5)),
      legalMoves: legal ? Number(legal[1]) : null,
      selected: null,
      middle: null,
    });
    $('variant').value = variant;
    $('position-error').textContent = '';
    draw();
    showMoves();
    render();
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
}

function clearInfo() {
  for (const id of ['a-depth', 'a-score', 'a-nodes', 'a-nps', 'a-time', 'a-hash']) $(id).textContent = '–';
  $('bestmove').textContent = '';
}

/** Starts an analysis of the shown position with `limit` ('infinite', 'depth 8', ...). */
async function analyse(limit) {
  await halt();
  clearInfo();
  const side = state.board.side;
  const analysis = newAnalysis();
  const run = { stopRequested: false, limit };
  let finish;
  run.done = new Promise((r) => (finish = r));
  state.analysing = run;
  $('stop').disabled = false;
  $('analyse').disabled = true;
  io.exclusive(async () => {
    try {
      await io.query([positionCommand(current())]);
      const onInfo = (info) => {
        showInfo(info, side);
        takeInfo(analysis, info);
      };
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
  const analysis = newAnalysis();
  let best;
  try {
    best = await io.exclusive(async () => {
      await io.query([positionCommand(current())]);
      const r = await io.go(`go movetime ${ms}`, (info) => {
        showInfo(info, side);
        takeInfo(analysis, info);
      });
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

// ---------------------------------------------------------------------------------------------
// Game records and the whole-game analysis (the engine's `loadgame` and `annotate`).

const GLYPHS = { inaccuracy: '?!', mistake: '?', blunder: '??' };
/** The key of the shown game as a whole: its variant, start and moves. */
const gameKey = () => `${state.variant}|${state.base}|${state.moves.join(' ')}`;

/** The judgment of move `ply` of the shown game by its analysis, if any. */
function judgmentOf(ply) {
  const a = state.annotation;
  if (!a || a.key !== gameKey()) return null;
  return a.json.plies[ply - 1]?.judgment ?? null;
}

/** Reads a KIF, PGN or USI record through the engine and shows its game from the start. */
async function loadRecord(text) {
  await halt();
  const out = await io.exclusive(() => io.query([`loadgame ${JSON.stringify(text)}`]));
  const errors = errorsIn(out);
  if (errors.length) {
    message(errors.join('; '), true);
    return errors;
  }
  const line = out.find((l) => l.startsWith('info string game variant '));
  const m = line?.match(/^info string game variant (\S+) sfen (.+?)(?: moves (.+))?$/);
  if (!m) {
    message('the engine did not describe the game', true);
    return ['no game'];
  }
  const [, variant, sfen, moves] = m;
  const errs = await setPosition(variant, `sfen ${sfen}`, moves ? moves.split(' ') : [], 0);
  if (!errs.length) message(`game loaded: ${moves ? moves.split(' ').length : 0} moves; ← and → step through it`);
  return errs;
}

/** Analyses every position of the shown game with `limit` ('movetime 1000', 'nodes 20000'):
 * a score after every move, the judgments on the moves and the graph, the summary. */
async function annotateGame(limit) {
  await halt();
  const moves = [...state.moves];
  const key = gameKey();
  state.annotating = true;
  $('annotate').disabled = true;
  $('annotate-stop').disabled = false;
  $('annotate-status').textContent = 'analysing the game…';
  try {
    const out = await io.exclusive(async () => {
      await io.query([positionCommand(moves)]);
      return io.run(
        `annotate ${limit}`,
        (l) => l.startsWith('info string annotation ') || l === 'info string annotate stopped' || l.startsWith('info string error'),
        (l) => {
          const p = l.match(/^info string annotate position (\d+) of (\d+)/);
          if (p) $('annotate-status').textContent = `analysing the game: position ${p[1]} of ${p[2]}`;
        },
      );
    });
    const last = out.at(-1);
    if (!last.startsWith('info string annotation ')) {
      $('annotate-status').textContent = last.replace('info string ', '');
      return null;
    }
    const json = JSON.parse(last.slice('info string annotation '.length));
    for (const p of json.plies) {
      const score = p.mate !== undefined
        ? { mate: Math.abs(p.mate), winner: p.mate > 0 ? 'b' : 'w' }
        : p.result !== undefined
          ? (p.result === 'draw' ? { cp: 0 } : { mate: 0, winner: p.result.startsWith('sente') ? 'b' : 'w' })
          : { cp: p.cp };
      const k = keyOf(moves.slice(0, p.ply));
      const old = state.scores.get(k);
      if (!old || old.depth <= Math.max(1, p.depth)) state.scores.set(k, { score, depth: Math.max(1, p.depth) });
    }
    state.annotation = { key, json };
    const side = (name, s) => s.accuracy === null
      ? `${name}: no move analysed`
      : `${name}: ${s.inaccuracies} inaccuracies, ${s.mistakes} mistakes, ${s.blunders} blunders, ` +
      `average centipawn loss ${s.acpl}, accuracy ${s.accuracy.toFixed(1)}%`;
    $('annotate-summary').textContent = `${side('sente', json.summary.sente)}. ${side('gote', json.summary.gote)}.`;
    $('annotate-status').textContent = `analysed ${json.plies.length + 1} positions (${limit})`;
    showMoves();
    render();
    return json;
  } finally {
    state.annotating = false;
    $('annotate').disabled = false;
    $('annotate-stop').disabled = true;
  }
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
    render();
  });
  $('notation').addEventListener('change', () => {
    state.notation = $('notation').value;
    draw();
    showMoves();
    render();
  });
  $('multipv').addEventListener('change', () => setMultiPV(Number($('multipv').value)));
  // On mousedown, as lichess does: the lines are redrawn as info lines come, and a click whose
  // press and release land on two versions of a line would be lost.
  $('lines').addEventListener('mousedown', (e) => {
    const li = e.target.closest('li.line');
    if (e.button !== 0 || !li) return;
    const mv = e.target.closest('.mv');
    playLine(Number(li.dataset.multipv) - 1, mv ? Number(mv.dataset.index) : 0);
  });
  $('graph').addEventListener('click', (e) => {
    const n = state.moves.length;
    if (!n) return;
    const r = $('graph').getBoundingClientRect();
    const x = ((e.clientX - r.left) / r.width) * GRAPH.w;
    goToPly(Math.round(((x - GRAPH.pad) / (GRAPH.w - 2 * GRAPH.pad)) * n));
  });
  $('analyse').addEventListener('click', () => analyse($('limit').value));
  $('record-file').addEventListener('change', async () => {
    const file = $('record-file').files[0];
    if (!file) return;
    const bytes = new Uint8Array(await file.arrayBuffer());
    // Shift-JIS KIF files are common: read as UTF-8 when the bytes are, else as Shift-JIS.
    let text;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      text = new TextDecoder('shift_jis').decode(bytes);
    }
    $('record-text').value = text;
    loadRecord(text);
  });
  $('load-record').addEventListener('click', () => loadRecord($('record-text').value));
  $('annotate').addEventListener('click', () => annotateGame($('annotate-limit').value));
  $('annotate-stop').addEventListener('click', () => {
    if (state.annotating && io.interruptible) io.send('stop');
  });
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
window.shishiPage = { state, stats, get io() { return io; }, setPosition, analyse, halt, tryMove, playLine, setMultiPV, loadRecord, annotateGame };

main().catch((e) => {
  $('engine-status').textContent = `engine failed: ${e.message}`;
  console.error(e);
});
