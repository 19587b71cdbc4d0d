//! The answer to XBoard's `lift`: a colour board (same layout as a FEN board) marking where the
//! lifted piece can go. Yellow: a quiet move; red: a capture; magenta: a promotion choice; cyan:
//! the middle square of a lion double move, where the move is not finished yet.

use crate::board::Square;
use crate::notation::parse_xboard_square;
use crate::position::Position;

/// The highlight board for the piece on `square` (XBoard notation), or `None` if `square` is not
/// a square of the board. A square with no piece of the side to move gives an empty board.
pub(super) fn board(pos: &Position, square: &str) -> Option<String> {
    let variant = pos.variant();
    let from = parse_xboard_square(variant, square.trim())?;
    let (w, h) = (variant.width() as usize, variant.height() as usize);
    let mut marks = vec![None; w * h];
    let index = |sq: Square| sq.row() as usize * w + sq.col() as usize;
    let rank = |mark: char| match mark {
        'C' => 3,
        'M' => 2,
        'R' => 1,
        _ => 0,
    };
    let mut mark = |sq: Square, m: char| {
        let slot: &mut Option<char> = &mut marks[index(sq)];
        if slot.is_none_or(|old| rank(m) > rank(old)) {
            *slot = Some(m);
        }
    };
    for mv in pos.legal_moves().iter().copied() {
        if mv.is_pass() || mv.from() != from {
            continue;
        }
        if let Some(mid) = mv.mid() {
            mark(mid, 'C');
            continue;
        }
        let to = mv.to();
        let m = if mv.is_promotion() {
            'M'
        } else if pos.piece_at(to).is_some() {
            'R'
        } else {
            'Y'
        };
        mark(to, m);
    }
    let mut text = String::new();
    for row in 0..h {
        if row > 0 {
            text.push('/');
        }
        let mut empty = 0;
        for col in 0..w {
            match marks[row * w + col] {
                Some(m) => {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(m);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
    }
    Some(text)
}
