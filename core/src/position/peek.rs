//! A move's outcome read without making it: the board after the move as far as what attacks
//! what, the royals, and the key. Testing a candidate move for check or escape by making and
//! unmaking it was most of the tsume solver's time; a peek costs a few bitboard operations.
//! `tests/properties.rs` checks it against the move made.

use super::Position;
use crate::board::{zobrist, Bitboard, Color, Piece, Square};
use crate::moves::Move;

/// The position after a move of the side to move, seen from the position before it.
pub struct Peek<'a> {
    pos: &'a Position,
    mv: Move,
    /// The piece the move puts down and its square (`None` for a pass).
    placed: Option<(Square, Piece)>,
    /// Every square the move changes: its start, a captured middle square, its destination.
    changed: Bitboard,
    by_color: [Bitboard; 2],
}

impl Position {
    /// The position after `mv` (a move the move generator gives here), without making it.
    #[inline]
    pub fn peek(&self, mv: Move) -> Peek<'_> {
        if mv.is_pass() {
            return Peek {
                pos: self,
                mv,
                placed: None,
                changed: Bitboard::EMPTY,
                by_color: self.by_color,
            };
        }
        let (from, to) = (mv.from(), mv.to());
        let to_bb = Bitboard::from_square(to);
        let mut changed = Bitboard::from_square(from) | to_bb;
        if let Some(mid) = mv.mid() {
            changed |= Bitboard::from_square(mid);
        }
        let placed = self.placed_piece(mv);
        let [mut sente, mut gote] = [0, 1].map(|c| self.by_color[c] & !changed);
        match placed.color() {
            Color::Sente => sente |= to_bb,
            Color::Gote => gote |= to_bb,
        }
        Peek {
            pos: self,
            mv,
            placed: Some((to, placed)),
            changed,
            by_color: [sente, gote],
        }
    }
}

impl Peek<'_> {
    /// The piece on `sq` after the move.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Piece {
        match self.placed {
            Some((to, piece)) if to == sq => piece,
            _ if self.changed.has(sq) => Piece::NONE,
            _ => self.pos.board[sq.index()],
        }
    }

    /// Squares holding a piece of `color` after the move.
    #[inline]
    pub fn pieces(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Squares holding a piece of either side after the move.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The royals of `color` after the move (see [`Position::royals`]).
    pub fn royals(&self, color: Color) -> Bitboard {
        let mut royals = self.pos.royals(color) & !self.changed;
        if let Some((to, piece)) = self.placed {
            if piece.color() == color && piece.kind().is_royal() {
                royals.set(to);
            }
        }
        royals
    }

    /// Whether any piece of `by` attacks `sq` after the move.
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        let theirs = self.by_color[by.index()];
        self.pos
            .scan_attackers_on(
                sq,
                Some(by),
                theirs,
                self.occupied(),
                |s| self.piece_at(s),
                true,
            )
            .any()
    }

    /// Whether any royal of `color` is attacked after the move.
    pub fn in_check(&self, color: Color) -> bool {
        self.royals(color)
            .iter()
            .any(|r| self.is_attacked(r, !color))
    }

    /// The key of the position after the move: what [`Position::key`] gives once it is made.
    pub fn key(&self) -> u64 {
        let pos = self.pos;
        let mut key = pos.key ^ zobrist::gote_to_move();
        for sq in self.changed {
            let before = pos.board[sq.index()];
            if before.is_some() {
                key ^= zobrist::piece(before, sq);
            }
        }
        if let Some((to, piece)) = self.placed {
            key ^= zobrist::piece(piece, to);
        }
        if let Some(old) = pos.counter_strike {
            key ^= zobrist::counter_strike(old);
        }
        if let Some(new) = pos.counter_strike_after(self.mv) {
            key ^= zobrist::counter_strike(new);
        }
        for sq in pos.declined_pawns ^ pos.declined_pawns_after(self.mv) {
            key ^= zobrist::declined_pawn(sq);
        }
        key
    }
}
