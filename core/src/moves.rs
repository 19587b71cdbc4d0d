//! `Move`: a compact move that knows its squares, not its effect. Notation (USI, XBoard) lives in
//! `notation`, since spelling a move needs the position it is played in.
//!
//! A move is identified by the position it produces (docs/rules.md section 4). The generator emits
//! one canonical `Move` per effect: single moves `from -> to`, double moves `from -> mid -> to`
//! (a capture on `mid`; `to == from` is igui), and one `Move::PASS` for every way of passing.

use crate::board::Square;
use std::num::NonZeroU32;

const NO_MID: u32 = 0xff;
const PROMOTE: u32 = 1 << 24;
const PASS_FLAG: u32 = 1 << 25;

/// A move in 32 bits: from, to, middle square, flags. Never zero, so `Option<Move>` is free.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(NonZeroU32);

impl Move {
    /// The pass: the board stays as it is and the turn goes over.
    pub const PASS: Move = Move(match NonZeroU32::new(PASS_FLAG | NO_MID << 16) {
        Some(v) => v,
        None => unreachable!(),
    });

    #[inline]
    fn pack(from: Square, to: Square, mid: u32, flags: u32) -> Move {
        let v = from.index() as u32 | (to.index() as u32) << 8 | mid << 16 | flags;
        // A move always has a mid byte (0xff when absent), so the value is never zero.
        Move(NonZeroU32::new(v).unwrap_or(Move::PASS.0))
    }

    /// A single move from `from` to `to` without promotion, capturing whatever stands on `to`.
    #[inline]
    pub fn normal(from: Square, to: Square) -> Move {
        Move::pack(from, to, NO_MID, 0)
    }

    /// A single move from `from` to `to` that promotes the piece.
    #[inline]
    pub fn promoting(from: Square, to: Square) -> Move {
        Move::pack(from, to, NO_MID, PROMOTE)
    }

    /// A lion-power double move capturing on `mid`; `to == from` is igui.
    #[inline]
    pub fn double(from: Square, mid: Square, to: Square) -> Move {
        Move::pack(from, to, mid.index() as u32, 0)
    }

    /// The square the piece leaves; meaningless for [`Move::PASS`].
    #[inline]
    pub fn from(self) -> Square {
        Square::new((self.0.get() & 0xff) as u8)
    }

    /// The square the piece ends on (`from` for igui); meaningless for [`Move::PASS`].
    #[inline]
    pub fn to(self) -> Square {
        Square::new((self.0.get() >> 8 & 0xff) as u8)
    }

    /// The middle square of a double move.
    #[inline]
    pub fn mid(self) -> Option<Square> {
        let m = self.0.get() >> 16 & 0xff;
        (m != NO_MID).then(|| Square::new(m as u8))
    }

    /// True if the piece promotes at the end of the move.
    #[inline]
    pub fn is_promotion(self) -> bool {
        self.0.get() & PROMOTE != 0
    }

    /// True for [`Move::PASS`].
    #[inline]
    pub fn is_pass(self) -> bool {
        self.0.get() & PASS_FLAG != 0
    }

    /// True for igui: capture on the middle square and step back to the start.
    #[inline]
    pub fn is_igui(self) -> bool {
        self.mid().is_some() && self.from() == self.to()
    }

    /// The raw bits, for the transposition table.
    #[inline]
    pub fn bits(self) -> u32 {
        self.0.get()
    }

    /// The move with raw bits `bits` (from [`Move::bits`]); `None` for 0. Other bits are not checked.
    #[inline]
    pub fn from_bits(bits: u32) -> Option<Move> {
        NonZeroU32::new(bits).map(Move)
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_pass() {
            return write!(f, "pass");
        }
        write!(f, "{}", self.from().index())?;
        if let Some(m) = self.mid() {
            write!(f, "-{}", m.index())?;
        }
        write!(
            f,
            "-{}{}",
            self.to().index(),
            if self.is_promotion() { "+" } else { "" }
        )
    }
}
