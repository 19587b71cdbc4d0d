//! The two sides. Sente (uppercase in SFEN, `w` in XBoard FEN, White in PGN) moves first and
//! starts at the bottom.

/// A side of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Moves first; uppercase letters in SFEN.
    Sente = 0,
    /// Moves second; lowercase letters in SFEN.
    Gote = 1,
}

impl Color {
    /// Both sides, in index order.
    pub const BOTH: [Color; 2] = [Color::Sente, Color::Gote];

    /// 0 for sente, 1 for gote: the index of per-side arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    #[inline]
    #[must_use]
    pub fn flip(self) -> Color {
        match self {
            Color::Sente => Color::Gote,
            Color::Gote => Color::Sente,
        }
    }

    /// `b` for sente, `w` for gote, as SFEN writes the side to move.
    pub fn sfen_char(self) -> char {
        match self {
            Color::Sente => 'b',
            Color::Gote => 'w',
        }
    }

    /// `sente` or `gote`, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Color::Sente => "sente",
            Color::Gote => "gote",
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        self.flip()
    }
}
