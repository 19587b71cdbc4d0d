// SFEN and USI move text for drawing: the board, side to move, and squares of a move. No rules:
// the engine validates and answers `d` with the SFEN of the position to draw.

/** Variants by board size, as USI_Variant names them. */
export const VARIANTS = {
  chushogi: { width: 12, height: 12, family: 'chu', label: 'Chu Shogi 12x12' },
  heian: { width: 9, height: 9, family: 'heian', label: 'Heian Shogi 9x9' },
  heian9x8: { width: 9, height: 8, family: 'heian', label: 'Heian Shogi 9x8' },
  heian8x9: { width: 8, height: 9, family: 'heian', label: 'Heian Shogi 8x9' },
  heian8x8: { width: 8, height: 8, family: 'heian', label: 'Heian Shogi 8x8' },
};

/**
 * Parses a SFEN: `{ width, height, rows: [[token|null]], side: 'b'|'w', hands, ply }`, rows
 * from rank `a` (gote's side, drawn on top) down, files from the highest number (left) on.
 * Throws on malformed text.
 */
export function parseSfen(text) {
  const fields = text.trim().split(/\s+/);
  const rows = fields[0].split('/').map((rank) => {
    const row = [];
    const re = /(\d+)|(\+?[A-Za-z])/g;
    let m;
    let seen = 0;
    while ((m = re.exec(rank))) {
      if (m.index !== seen) throw new Error(`bad SFEN rank '${rank}'`);
      seen = re.lastIndex;
      if (m[1]) for (let i = 0; i < Number(m[1]); i++) row.push(null);
      else row.push(m[2]);
    }
    if (seen !== rank.length) throw new Error(`bad SFEN rank '${rank}'`);
    return row;
  });
  const width = rows[0]?.length ?? 0;
  if (!width || rows.some((r) => r.length !== width)) throw new Error('bad SFEN: ranks differ in width');
  return {
    width,
    height: rows.length,
    rows,
    side: fields[1] === 'w' ? 'w' : 'b',
    hands: fields[2] ?? '-',
    ply: Number(fields[3] ?? 1),
  };
}

/** The USI_Variant name of a board `width` x `height`, or null. */
export function variantOfSize(width, height) {
  for (const [name, v] of Object.entries(VARIANTS)) if (v.width === width && v.height === height) return name;
  return null;
}

/** USI square name of column `col` (0 = left, highest file) and row `row` (0 = rank a). */
export function squareName(width, col, row) {
  return `${width - col}${String.fromCharCode(97 + row)}`;
}

/** `{col, row}` of a USI square name (`7f`, `12a`), or null. */
export function parseSquare(width, text) {
  const m = /^(\d+)([a-l])$/.exec(text);
  if (!m) return null;
  return { col: width - Number(m[1]), row: m[2].charCodeAt(0) - 97 };
}

/** The squares a USI move touches (`7g7f`, `5e5c+`, `8g7f8g`), or [] for a pass or bad text. */
export function moveSquares(width, move) {
  const m = /^(\d+[a-l])(\d+[a-l])(\d+[a-l])?\+?$/.exec(move ?? '');
  if (!m) return [];
  return [m[1], m[2], m[3]].filter(Boolean).map((s) => parseSquare(width, s));
}

/**
 * The board after the USI move `move`, for drawing only: the piece goes from its square to the
 * last one (taking what stands on the middle square of a double move, and promoting on `+`),
 * the side to move changes. No rules: the engine has accepted or printed the move. A pass
 * spelled `0000` or a drop leaves the pieces where they are.
 */
export function applyMove(board, move) {
  const rows = board.rows.map((r) => [...r]);
  const next = { ...board, rows, side: board.side === 'b' ? 'w' : 'b', ply: board.ply + 1 };
  const m = /^(\d+[a-l])(\d+[a-l])(\d+[a-l])?(\+)?$/.exec(move ?? '');
  if (!m) return next;
  const [from, ...rest] = [m[1], m[2], m[3]].filter(Boolean).map((s) => parseSquare(board.width, s));
  const to = rest.at(-1);
  let token = rows[from.row][from.col];
  rows[from.row][from.col] = null;
  if (rest.length === 2) rows[rest[0].row][rest[0].col] = null;
  if (m[4] && token && !token.startsWith('+')) token = `+${token}`;
  rows[to.row][to.col] = token;
  return next;
}

/** Reads an `info ...` line: `{depth, seldepth, multipv, score: {cp|mate, bound}, nodes, nps, time, hashfull, pv: []}`. */
export function parseInfo(line) {
  const words = line.trim().split(/\s+/);
  if (words[0] !== 'info') return null;
  const info = {};
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    if (w === 'string') {
      info.string = words.slice(i + 1).join(' ');
      break;
    }
    if (w === 'pv') {
      info.pv = words.slice(i + 1);
      break;
    }
    if (w === 'score') {
      const kind = words[++i];
      const value = Number(words[++i]);
      info.score = { [kind]: value };
      if (words[i + 1] === 'lowerbound' || words[i + 1] === 'upperbound') info.score.bound = words[++i];
    } else if (['depth', 'seldepth', 'multipv', 'nodes', 'nps', 'time', 'hashfull', 'currmovenumber'].includes(w)) {
      info[w] = Number(words[++i]);
    } else if (w === 'currmove') {
      info.currmove = words[++i];
    }
  }
  return info;
}
