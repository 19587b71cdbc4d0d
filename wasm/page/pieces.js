// Piece names for drawing, keyed by family and SFEN letter (uppercase, `+` first for a promoted
// piece), as src/board/piece.rs spells them. `abbr`: the usual kanji abbreviation on a piece;
// `full`: the whole name (one or two kanji); `name`: English. The engine stays the only judge of
// the rules; these tables only say how to draw a letter.

export const CHU = {
  K: { abbr: '玉', full: '玉将', name: 'king' },
  E: { abbr: '象', full: '酔象', name: 'drunk elephant' },
  '+E': { abbr: '太', full: '太子', name: 'crown prince' },
  G: { abbr: '金', full: '金将', name: 'gold general' },
  '+G': { abbr: '飛', full: '飛車', name: 'rook (promoted gold)' },
  S: { abbr: '銀', full: '銀将', name: 'silver general' },
  '+S': { abbr: '竪', full: '竪行', name: 'vertical mover (promoted silver)' },
  C: { abbr: '銅', full: '銅将', name: 'copper general' },
  '+C': { abbr: '横', full: '横行', name: 'side mover (promoted copper)' },
  F: { abbr: '豹', full: '猛豹', name: 'ferocious leopard' },
  '+F': { abbr: '角', full: '角行', name: 'bishop (promoted leopard)' },
  T: { abbr: '虎', full: '盲虎', name: 'blind tiger' },
  '+T': { abbr: '鹿', full: '飛鹿', name: 'flying stag' },
  O: { abbr: '麒', full: '麒麟', name: 'kirin' },
  '+O': { abbr: '獅', full: '獅子', name: 'lion (promoted kirin)' },
  X: { abbr: '鳳', full: '鳳凰', name: 'phoenix' },
  '+X': { abbr: '奔', full: '奔王', name: 'free king (promoted phoenix)' },
  P: { abbr: '歩', full: '歩兵', name: 'pawn' },
  '+P': { abbr: 'と', full: 'と金', name: 'gold (promoted pawn)' },
  I: { abbr: '仲', full: '仲人', name: 'go-between' },
  '+I': { abbr: '象', full: '酔象', name: 'drunk elephant (promoted go-between)' },
  L: { abbr: '香', full: '香車', name: 'lance' },
  '+L': { abbr: '駒', full: '白駒', name: 'white horse' },
  A: { abbr: '反', full: '反車', name: 'reverse chariot' },
  '+A': { abbr: '鯨', full: '鯨鯢', name: 'whale' },
  M: { abbr: '横', full: '横行', name: 'side mover' },
  '+M': { abbr: '猪', full: '奔猪', name: 'free boar' },
  V: { abbr: '竪', full: '竪行', name: 'vertical mover' },
  '+V': { abbr: '牛', full: '飛牛', name: 'flying ox' },
  B: { abbr: '角', full: '角行', name: 'bishop' },
  '+B': { abbr: '馬', full: '龍馬', name: 'dragon horse (promoted bishop)' },
  R: { abbr: '飛', full: '飛車', name: 'rook' },
  '+R': { abbr: '龍', full: '龍王', name: 'dragon king (promoted rook)' },
  H: { abbr: '馬', full: '龍馬', name: 'dragon horse' },
  '+H': { abbr: '鷹', full: '角鷹', name: 'horned falcon' },
  D: { abbr: '龍', full: '龍王', name: 'dragon king' },
  '+D': { abbr: '鷲', full: '飛鷲', name: 'soaring eagle' },
  Q: { abbr: '奔', full: '奔王', name: 'free king' },
  N: { abbr: '獅', full: '獅子', name: 'lion' },
};

export const HEIAN = {
  K: { abbr: '玉', full: '玉将', name: 'king' },
  G: { abbr: '金', full: '金将', name: 'gold general' },
  S: { abbr: '銀', full: '銀将', name: 'silver general' },
  '+S': { abbr: '全', full: '成銀', name: 'promoted silver' },
  N: { abbr: '桂', full: '桂馬', name: 'knight' },
  '+N': { abbr: '圭', full: '成桂', name: 'promoted knight' },
  L: { abbr: '香', full: '香車', name: 'lance' },
  '+L': { abbr: '杏', full: '成香', name: 'promoted lance' },
  P: { abbr: '歩', full: '歩兵', name: 'pawn' },
  '+P': { abbr: 'と', full: 'と金', name: 'tokin' },
};

/** The drawing info of SFEN piece `token` (`N`, `+o`) in `family` ('chu' or 'heian'). */
export function pieceInfo(family, token) {
  const gote = token !== token.toUpperCase();
  const letter = token.toUpperCase();
  const table = family === 'chu' ? CHU : HEIAN;
  const info = table[letter] ?? { abbr: letter, full: letter, name: letter };
  // By custom the king of the side moving second (gote) is written 王.
  const king = letter === 'K';
  return {
    letter,
    gote,
    promoted: letter.startsWith('+'),
    abbr: king && gote ? '王' : info.abbr,
    full: king && gote ? '王将' : info.full,
    name: info.name,
  };
}

/** Pieces with lion power: their moves may pass through a middle square. */
export function hasLionPower(family, letter) {
  return family === 'chu' && ['N', '+O', '+H', '+D'].includes(letter.toUpperCase());
}
