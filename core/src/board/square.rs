//! Squares and directions.
//!
//! Every variant lives on the same 12-column grid: square index = `row * 12 + col`, where row 0 is
//! rank `a` (gote's back rank, the top) and col 0 is sente's leftmost file (the highest USI file
//! number, XBoard file `a`). A Heian board simply uses the top-left `width x height` corner, so one
//! set of attack tables serves all five variants.

/// Columns of the shared grid.
pub(super) const GRID: u8 = 12;
/// Squares of the shared grid.
pub(super) const GRID_SQUARES: usize = 144;

/// A square of the 12x12 grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with grid index `index` (`row * 12 + col`, below 144).
    #[inline]
    pub const fn new(index: u8) -> Square {
        debug_assert!(index < 144);
        Square(index)
    }

    /// The square at column `col` and row `row` of the grid (both below 12).
    #[inline]
    pub const fn from_coords(col: u8, row: u8) -> Square {
        Square(row * GRID + col)
    }

    /// The square `(col + dc, row + dr)` if it is on the 12x12 grid.
    #[inline]
    pub fn offset(self, dc: i8, dr: i8) -> Option<Square> {
        let c = self.col() as i8 + dc;
        let r = self.row() as i8 + dr;
        if (0..GRID as i8).contains(&c) && (0..GRID as i8).contains(&r) {
            Some(Square::from_coords(c as u8, r as u8))
        } else {
            None
        }
    }

    /// Grid index `row * 12 + col`, 0..144; also the square's bit in a [`Bitboard`](super::Bitboard).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Column 0..12, 0 being sente's leftmost file.
    #[inline]
    pub const fn col(self) -> u8 {
        self.0 % GRID
    }

    /// Row 0..12, 0 being rank `a` (gote's back rank).
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 / GRID
    }

    /// Chebyshev distance: 1 for neighbours, 2 for the outer ring of a lion's reach.
    #[inline]
    pub fn distance(self, other: Square) -> u8 {
        let dc = self.col().abs_diff(other.col());
        let dr = self.row().abs_diff(other.row());
        dc.max(dr)
    }

    /// All 144 squares of the grid in index order, including those a Heian board does not use.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..GRID_SQUARES as u8).map(Square)
    }
}

/// One of the eight directions on the board, absolute (not relative to a side).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Direction(pub u8);

/// `(dcol, drow)` of the absolute directions, clockwise from up (towards rank `a`).
pub const DIRECTIONS: [(i8, i8); 8] = [
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

impl Direction {
    /// `(dcol, drow)` of one step in this direction.
    #[inline]
    pub fn delta(self) -> (i8, i8) {
        DIRECTIONS[self.0 as usize]
    }

    /// The direction turned by 180 degrees.
    #[inline]
    pub fn opposite(self) -> Direction {
        Direction((self.0 + 4) & 7)
    }

    /// Directions whose index step is positive scan towards higher bits.
    #[inline]
    pub fn is_increasing(self) -> bool {
        matches!(self.0, 2..=5)
    }
}
