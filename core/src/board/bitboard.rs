//! 144-bit bitboards: a `u128` for squares 0..=127 and a `u16` overflow word for 128..=143.
//!
//! Squares keep their grid index as their bit index, so rank `k` (row 10 of the 12x12 grid,
//! squares 120..=131) straddles the two words: its first eight squares sit in the top of the
//! `u128`, its last four in the overflow word. Nothing relies on a rank being inside one word:
//! leaper attacks come from precomputed tables and sliders use the classical ray method (first
//! blocker by bit scan, then remove the ray behind it), which needs only AND, XOR and a bit scan
//! across the two words. `benches/movegen.rs` measures slider lookups on this layout.

use super::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

/// A set of squares of the 12x12 grid.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard {
    lo: u128,
    hi: u16,
}

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard { lo: 0, hi: 0 };
    /// All 144 squares of the grid.
    pub const FULL: Bitboard = Bitboard {
        lo: u128::MAX,
        hi: u16::MAX,
    };

    /// The set holding only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        let i = sq.index();
        if i < 128 {
            Bitboard {
                lo: shl128(1, i as u32),
                hi: 0,
            }
        } else {
            Bitboard {
                lo: 0,
                hi: 1u16 << (i - 128),
            }
        }
    }

    /// True if the set holds no square.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.lo == 0 && self.hi == 0
    }

    /// True if the set holds at least one square.
    #[inline]
    pub const fn any(self) -> bool {
        !self.is_empty()
    }

    /// Number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.lo.count_ones() + self.hi.count_ones()
    }

    /// True if `sq` is in the set.
    #[inline]
    pub const fn has(self, sq: Square) -> bool {
        // One 64-bit word and a 64-bit shift: a 128-bit shift costs several instructions.
        let i = sq.index();
        let word = if i < 64 {
            self.lo as u64
        } else if i < 128 {
            (self.lo >> 64) as u64
        } else {
            self.hi as u64
        };
        word >> (i & 63) & 1 != 0
    }

    /// Adds `sq`.
    #[inline]
    pub fn set(&mut self, sq: Square) {
        *self |= Bitboard::from_square(sq);
    }

    /// Removes `sq`.
    #[inline]
    pub fn clear(&mut self, sq: Square) {
        *self &= !Bitboard::from_square(sq);
    }

    /// A copy with `sq` added.
    #[inline]
    #[must_use]
    pub fn with(self, sq: Square) -> Bitboard {
        self | Bitboard::from_square(sq)
    }

    /// A copy with `sq` removed.
    #[inline]
    #[must_use]
    pub fn without(self, sq: Square) -> Bitboard {
        self & !Bitboard::from_square(sq)
    }

    /// The lowest square; the set must not be empty.
    #[inline]
    pub fn lowest(self) -> Square {
        debug_assert!(self.any());
        if self.lo != 0 {
            Square::new(self.lo.trailing_zeros() as u8)
        } else {
            Square::new(128 + self.hi.trailing_zeros() as u8)
        }
    }

    /// The highest square; the set must not be empty.
    #[inline]
    pub fn highest(self) -> Square {
        debug_assert!(self.any());
        if self.hi != 0 {
            Square::new(143 - self.hi.leading_zeros() as u8)
        } else {
            Square::new(127 - self.lo.leading_zeros() as u8)
        }
    }

    /// The only square of a one-square set, or `None`.
    #[inline]
    pub fn single(self) -> Option<Square> {
        if self.lo != 0 {
            (self.lo & (self.lo - 1) == 0 && self.hi == 0).then(|| self.lowest())
        } else {
            (self.hi != 0 && self.hi & (self.hi - 1) == 0).then(|| self.lowest())
        }
    }

    /// The squares of the set, lowest index first.
    #[inline]
    pub fn iter(self) -> BitboardIter {
        BitboardIter::new(self)
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "Bitboard")?;
        for row in 0..12u8 {
            for col in 0..12u8 {
                let c = if self.has(Square::from_coords(col, row)) {
                    'x'
                } else {
                    '.'
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

macro_rules! bit_op {
    ($trait:ident, $fn:ident, $assign_trait:ident, $assign_fn:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $fn(self, rhs: Bitboard) -> Bitboard {
                Bitboard { lo: self.lo $op rhs.lo, hi: self.hi $op rhs.hi }
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_fn(&mut self, rhs: Bitboard) {
                self.lo = self.lo $op rhs.lo;
                self.hi = self.hi $op rhs.hi;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

/// Square `i` moves to `i + n` (`n` below 128); squares past 143 drop off. A shift by
/// `dc + 12 * dr` steps every square along the grid, wrapping across a row's end, so callers
/// mask out what wrapped (on a Heian board it lands on files the board lacks).
impl Shl<u32> for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn shl(self, n: u32) -> Bitboard {
        debug_assert!(n < 128);
        if n == 0 {
            return self;
        }
        Bitboard {
            lo: shl128(self.lo, n),
            hi: (shl128(u128::from(self.hi), n) | shr128(self.lo, 128 - n)) as u16,
        }
    }
}

/// Square `i` moves to `i - n` (`n` below 128); squares below 0 drop off.
impl Shr<u32> for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn shr(self, n: u32) -> Bitboard {
        debug_assert!(n < 128);
        if n == 0 {
            return self;
        }
        Bitboard {
            lo: shr128(self.lo, n) | shl128(u128::from(self.hi), 128 - n),
            hi: shr128(u128::from(self.hi), n) as u16,
        }
    }
}

/// `x << n` for `n < 128`. On wasm32 a 128-bit shift by a variable amount is a call into
/// compiler-rt (`__ashlti3`), which the bitboards would make at every square bit and step;
/// there it is done on the two 64-bit halves instead, inline.
#[inline(always)]
const fn shl128(x: u128, n: u32) -> u128 {
    if cfg!(target_arch = "wasm32") {
        shl128_halves(x, n)
    } else {
        x << n
    }
}

/// `x >> n` for `n < 128`, as [`shl128`] does it (`__lshrti3` on wasm32).
#[inline(always)]
const fn shr128(x: u128, n: u32) -> u128 {
    if cfg!(target_arch = "wasm32") {
        shr128_halves(x, n)
    } else {
        x >> n
    }
}

#[inline(always)]
const fn shl128_halves(x: u128, n: u32) -> u128 {
    let (lo, hi) = (x as u64, (x >> 64) as u64);
    let (lo, hi) = if n >= 64 {
        (0, lo << (n - 64))
    } else if n == 0 {
        (lo, hi)
    } else {
        (lo << n, hi << n | lo >> (64 - n))
    };
    (hi as u128) << 64 | lo as u128
}

#[inline(always)]
const fn shr128_halves(x: u128, n: u32) -> u128 {
    let (lo, hi) = (x as u64, (x >> 64) as u64);
    let (lo, hi) = if n >= 64 {
        (hi >> (n - 64), 0)
    } else if n == 0 {
        (lo, hi)
    } else {
        (lo >> n | hi << (64 - n), hi >> n)
    };
    (hi as u128) << 64 | lo as u128
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard {
            lo: !self.lo,
            hi: !self.hi,
        }
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitboardIter;
    #[inline]
    fn into_iter(self) -> BitboardIter {
        BitboardIter::new(self)
    }
}

/// Iterates the squares of a set from the lowest index up, a 64-bit word at a time: a bit scan
/// and the clearing of the lowest bit are one instruction each on a word, several on a `u128`
/// (and more in WebAssembly, which has no carry flag for the borrow across the halves).
pub struct BitboardIter {
    /// Squares 0..=63, 64..=127 and 128..=143 not yet yielded.
    low: u64,
    middle: u64,
    high: u64,
}

impl BitboardIter {
    #[inline]
    fn new(b: Bitboard) -> BitboardIter {
        BitboardIter {
            low: b.lo as u64,
            middle: (b.lo >> 64) as u64,
            high: u64::from(b.hi),
        }
    }
}

/// The lowest bit of a non-empty `word`, cleared, as a square index from `offset`.
#[inline(always)]
fn take_lowest(word: &mut u64, offset: u8) -> Square {
    let bit = word.trailing_zeros() as u8;
    *word &= *word - 1;
    Square::new(offset + bit)
}

impl Iterator for BitboardIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.low != 0 {
            Some(take_lowest(&mut self.low, 0))
        } else if self.middle != 0 {
            Some(take_lowest(&mut self.middle, 64))
        } else if self.high != 0 {
            Some(take_lowest(&mut self.high, 128))
        } else {
            None
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n =
            (self.low.count_ones() + self.middle.count_ones() + self.high.count_ones()) as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitboardIter {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scans_cross_the_word_boundary() {
        let a = Square::new(127);
        let b = Square::new(128);
        let bb = Bitboard::from_square(a) | Bitboard::from_square(b);
        assert_eq!(bb.lowest(), a);
        assert_eq!(bb.highest(), b);
        assert_eq!(bb.count(), 2);
        assert_eq!(bb.iter().collect::<Vec<_>>(), vec![a, b]);
        assert_eq!(Bitboard::FULL.count(), 144);
        assert_eq!(Bitboard::FULL.highest(), Square::new(143));
    }

    #[test]
    fn membership_agrees_with_iteration_on_every_square_of_both_words() {
        let mut bb = Bitboard::EMPTY;
        for i in [0u8, 1, 63, 64, 65, 100, 127, 128, 129, 143] {
            bb.set(Square::new(i));
        }
        let listed: Vec<usize> = bb.iter().map(|s| s.index()).collect();
        for i in 0..144u8 {
            let sq = Square::new(i);
            assert_eq!(bb.has(sq), listed.contains(&sq.index()), "square {i}");
            assert!(Bitboard::from_square(sq).has(sq));
            assert!(!(!Bitboard::from_square(sq)).has(sq));
        }
    }

    #[test]
    fn iteration_yields_every_square_once_in_order_and_knows_how_many_are_left() {
        let sets = [
            [0u8, 1, 63, 64, 65, 100, 127, 128, 129, 143].as_slice(),
            &[63, 64],
            &[127, 128],
            &[143],
            &[],
        ];
        for squares in sets {
            let mut bb = Bitboard::EMPTY;
            for &i in squares {
                bb.set(Square::new(i));
            }
            let mut iter = bb.iter();
            for (yielded, &expected) in squares.iter().enumerate() {
                assert_eq!(iter.len(), squares.len() - yielded, "{squares:?}");
                assert_eq!(iter.next().map(|s| s.index()), Some(expected as usize));
            }
            assert_eq!((iter.len(), iter.next()), (0, None), "{squares:?}");
            assert_eq!(bb.iter().count(), bb.count() as usize);
        }
    }

    #[test]
    fn shifts_move_every_square_by_the_same_index_across_both_words() {
        for n in [1u32, 11, 12, 13, 24, 100, 127] {
            for i in 0..144usize {
                let bb = Bitboard::from_square(Square::new(i as u8));
                let up: Vec<usize> = (bb << n).iter().map(|s| s.index()).collect();
                let down: Vec<usize> = (bb >> n).iter().map(|s| s.index()).collect();
                let expect_up: Vec<usize> = Some(i + n as usize)
                    .filter(|&j| j < 144)
                    .into_iter()
                    .collect();
                let expect_down: Vec<usize> = i.checked_sub(n as usize).into_iter().collect();
                assert_eq!(up, expect_up, "{i} << {n}");
                assert_eq!(down, expect_down, "{i} >> {n}");
            }
        }
        assert_eq!(Bitboard::FULL << 0, Bitboard::FULL);
        assert_eq!((Bitboard::FULL >> 1).count(), 143);
    }

    #[test]
    fn shifts_on_two_halves_equal_the_128_bit_shifts() {
        let values = [
            1u128,
            u128::MAX,
            0x8000_0000_0000_0001_0000_0000_0000_0001,
            0xdead_beef << 60,
        ];
        for x in values {
            for n in 0..128 {
                assert_eq!(shl128_halves(x, n), x << n, "{x:#x} << {n}");
                assert_eq!(shr128_halves(x, n), x >> n, "{x:#x} >> {n}");
            }
        }
    }
}
