//! The two families of games, Chu Shogi and Heian Shogi, and what sets them apart, written
//! once per family in a [`Descriptor`] (as Fairy-Stockfish describes a variant): the layers
//! above read its fields instead of matching on the family wherever a number or a yes/no is
//! all that differs. Where the two differ in what code runs (move generation, game end, the
//! evaluation's terms) the code still branches, on the family itself.

use super::piece::{Kind, NUM_KINDS};
use std::ops::Range;

/// Chu Shogi or one of the Heian boards: decides the piece set and the rules applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Chu Shogi pieces and rules.
    Chu,
    /// Heian Shogi pieces and rules, on any of its four boards.
    Heian,
}

/// What the engine needs to know of a family, beyond its pieces' moves.
#[derive(Debug)]
pub struct Descriptor {
    /// The family's position in [`Family::ALL`]: the index of per-family tables and the
    /// family's byte in a net file.
    pub index: usize,
    /// Files and ranks of the family's largest board: the side of the evaluation's grids.
    pub side: usize,
    /// Its piece kinds: their [`Kind::index`] values, contiguous, Chu's first.
    pub kinds: Range<usize>,
    /// The most pieces a position holds: its fullest start position (pieces are captured,
    /// never added).
    pub max_pieces: usize,
    /// Ranks in each promotion zone.
    pub zone_depth: u8,
    /// Whether a move may not leave its own royal attacked (shogi's check rule, Heian's); Chu
    /// has none: a royal left in attack may be captured (`docs/rules.md` section 5).
    pub check_rule: bool,
}

const HEIAN_KINDS: usize = Kind::HeianKing as usize;

static CHU: Descriptor = Descriptor {
    index: 0,
    side: 12,
    kinds: 0..HEIAN_KINDS,
    max_pieces: 92,
    zone_depth: 4,
    check_rule: false,
};

static HEIAN: Descriptor = Descriptor {
    index: 1,
    side: 9,
    kinds: HEIAN_KINDS..NUM_KINDS,
    max_pieces: 36,
    zone_depth: 3,
    check_rule: true,
};

impl Family {
    /// Both families, in the order of [`Descriptor::index`].
    pub const ALL: [Family; 2] = [Family::Chu, Family::Heian];

    /// What sets this family apart.
    #[inline]
    pub fn descriptor(self) -> &'static Descriptor {
        match self {
            Family::Chu => &CHU,
            Family::Heian => &HEIAN,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Variant, KINDS};

    #[test]
    fn each_descriptor_agrees_with_the_boards_and_pieces_it_describes() {
        for (i, family) in Family::ALL.into_iter().enumerate() {
            let d = family.descriptor();
            assert_eq!(d.index, i);
            let variants: Vec<Variant> = Variant::ALL
                .into_iter()
                .filter(|v| v.family() == family)
                .collect();
            let widest = variants.iter().map(|v| v.width().max(v.height())).max();
            assert_eq!(widest, Some(d.side as u8));
            // A start position's pieces are the letters of its SFEN's board field.
            let fullest = variants
                .iter()
                .map(|v| {
                    let board = v.start_sfen().split(' ').next().unwrap();
                    board.chars().filter(char::is_ascii_alphabetic).count()
                })
                .max();
            assert_eq!(fullest, Some(d.max_pieces));
            for kind in KINDS {
                assert_eq!(
                    d.kinds.contains(&kind.index()),
                    kind.family() == family,
                    "{kind:?}"
                );
            }
        }
    }
}
