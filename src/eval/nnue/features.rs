//! The network's inputs: one per (colour relative to the viewer, piece kind, square as the
//! viewer sees it). Each family has its own input space: Chu's 38 kinds on 144 squares, Heian's
//! 10 kinds on 81 squares (every Heian board sits in the top-left corner of the 9x9 grid). The
//! viewer sees the board turned so that its own pieces start at the bottom: gote's view turns
//! the variant's board by 180 degrees.

use crate::board::{Color, Family, Kind, Piece, Square, Variant};
use crate::position::Position;

/// Number of piece kinds of `family`: the kinds of one family are contiguous in [`KINDS`],
/// Chu's first.
#[inline]
pub(crate) fn kind_count(family: Family) -> usize {
    family.descriptor().kinds.len()
}

/// Index of the first kind of `family` in [`KINDS`].
#[inline]
fn first_kind(family: Family) -> usize {
    family.descriptor().kinds.start
}

/// Squares of the family's input grid: 12x12 for Chu, 9x9 for every Heian board.
pub(crate) fn grid_side(family: Family) -> usize {
    family.descriptor().side
}

/// Number of inputs of `family` (per viewer).
pub fn feature_count(family: Family) -> usize {
    2 * kind_count(family) * grid_side(family) * grid_side(family)
}

/// The most pieces a position of `family` holds: its fullest start position (pieces are never
/// added, only captured).
pub(crate) fn max_pieces(family: Family) -> usize {
    family.descriptor().max_pieces
}

/// The output bucket of a position of `family` holding `pieces` pieces, out of `buckets`:
/// equal shares of the piece count, the fullest boards in the last bucket.
#[inline]
pub(crate) fn output_bucket(family: Family, pieces: usize, buckets: usize) -> usize {
    (pieces.saturating_sub(1) * buckets / max_pieces(family)).min(buckets - 1)
}

/// The input index of `piece` on `sq` as `viewer` sees it, on a board of `variant`.
#[inline]
pub(crate) fn feature(variant: Variant, viewer: Color, piece: Piece, sq: Square) -> usize {
    let family = variant.family();
    let side = grid_side(family);
    let (mut col, mut row) = (sq.col() as usize, sq.row() as usize);
    if viewer == Color::Gote {
        col = variant.width() as usize - 1 - col;
        row = variant.height() as usize - 1 - row;
    }
    let relative = usize::from(piece.color() != viewer);
    let kind = piece.kind().index() - first_kind(family);
    ((relative * kind_count(family) + kind) * side + row) * side + col
}

/// Zones of a viewer's royal: the left, middle and right files, on the viewer's three home
/// ranks or beyond them. A net with royal buckets keeps one set of inputs per bucket of zones
/// (see [`royal_bucket`]), so a piece's worth can depend on where the royal it threatens or
/// guards stands.
pub(crate) const ROYAL_ZONES: usize = 6;

/// The royal bucket counts a net may have: none (1), home or advanced (2), the file thirds (3),
/// or all six zones.
pub(crate) const ROYAL_BUCKET_COUNTS: [usize; 4] = [1, 2, 3, 6];

/// The bucket of royal zone `zone` in a net of `buckets` royal buckets (one of
/// [`ROYAL_BUCKET_COUNTS`]).
#[inline]
pub(crate) fn royal_bucket(zone: usize, buckets: usize) -> usize {
    match buckets {
        2 => zone / 3,
        3 => zone % 3,
        6 => zone,
        _ => 0,
    }
}

/// The zone (0..[`ROYAL_ZONES`]) of `viewer`'s royal in `pos` as the viewer sees the board
/// (reflected left to right if `reflect`): its King, else its Prince; zone 0 without one. The
/// thirds are symmetric on every width, so a reflection swaps left and right and keeps the
/// middle.
#[inline]
pub(crate) fn royal_zone(pos: &Position, viewer: Color, reflect: bool) -> usize {
    let royals = pos.royals(viewer);
    let kings = royals & (pos.kind_bb(Kind::King) | pos.kind_bb(Kind::HeianKing));
    let Some(sq) = kings.iter().next().or_else(|| royals.iter().next()) else {
        return 0;
    };
    let variant = pos.variant();
    let (width, height) = (variant.width() as usize, variant.height() as usize);
    let (mut col, mut row) = (sq.col() as usize, sq.row() as usize);
    if viewer == Color::Gote {
        col = width - 1 - col;
        row = height - 1 - row;
    }
    if reflect {
        col = width - 1 - col;
    }
    let edge = width / 3;
    let third = if col < edge {
        0
    } else if col >= width - edge {
        2
    } else {
        1
    };
    // The viewer's home ranks are the bottom three of its view.
    let advanced = usize::from(row + 3 < height);
    let zone = third + 3 * advanced;
    debug_assert!(zone < ROYAL_ZONES);
    zone
}

/// Every input `pos` switches on for `viewer`, in square order (the tests' reference; the
/// engine sums them through `refresh_cache`).
#[cfg(test)]
pub(crate) fn active(pos: &Position, viewer: Color) -> impl Iterator<Item = usize> + '_ {
    let variant = pos.variant();
    pos.occupied()
        .iter()
        .map(move |sq| feature(variant, viewer, pos.piece_at(sq), sq))
}

/// `sq` reflected left to right on `variant`'s board. Every piece of both families moves the
/// same way to the left as to the right, so a reflected position is worth what the original
/// is: the trainer uses reflections to double its data (the browser build has no trainer).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn mirrored(variant: Variant, sq: Square) -> Square {
    Square::from_coords(variant.width() - 1 - sq.col(), sq.row())
}

/// The kind an input stands for (its inverse, which the tests check).
#[cfg(test)]
fn kind_of(family: Family, feature: usize) -> Kind {
    let side = grid_side(family);
    let kind = feature / (side * side) % kind_count(family);
    crate::board::KINDS[first_kind(family) + kind]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_family_owns_its_contiguous_kinds() {
        for family in Family::ALL {
            let kinds: Vec<usize> = crate::board::KINDS
                .iter()
                .filter(|k| k.family() == family)
                .map(|k| k.index())
                .collect();
            assert_eq!(kinds.len(), kind_count(family));
            assert_eq!(kinds[0], first_kind(family));
            assert!(kinds.windows(2).all(|w| w[1] == w[0] + 1));
        }
    }

    #[test]
    fn every_start_piece_has_a_distinct_input_in_range() {
        for variant in Variant::ALL {
            let pos = Position::startpos(variant);
            let family = variant.family();
            for viewer in [Color::Sente, Color::Gote] {
                let mut seen: Vec<usize> = active(&pos, viewer).collect();
                assert!(seen.iter().all(|&f| f < feature_count(family)));
                let n = seen.len();
                seen.sort_unstable();
                seen.dedup();
                assert_eq!(seen.len(), n, "{variant:?}");
                for sq in pos.occupied().iter() {
                    let f = feature(variant, viewer, pos.piece_at(sq), sq);
                    assert_eq!(kind_of(family, f), pos.piece_at(sq).kind());
                }
            }
        }
    }

    #[test]
    fn max_pieces_is_the_fullest_start_position_and_buckets_cover_every_count() {
        for family in Family::ALL {
            let fullest = Variant::ALL
                .into_iter()
                .filter(|v| v.family() == family)
                .map(|v| Position::startpos(v).occupied().count() as usize)
                .max();
            assert_eq!(fullest, Some(max_pieces(family)), "{family:?}");
            for buckets in [1, 2, 8] {
                let of = |p| output_bucket(family, p, buckets);
                assert_eq!(of(2), 0);
                assert_eq!(of(max_pieces(family)), buckets - 1);
                assert!((2..max_pieces(family)).all(|p| of(p) <= of(p + 1)));
            }
        }
    }

    #[test]
    fn royals_start_in_the_middle_zone_at_home_and_a_reflection_swaps_left_and_right() {
        for variant in Variant::ALL {
            let pos = Position::startpos(variant);
            for viewer in [Color::Sente, Color::Gote] {
                assert_eq!(royal_zone(&pos, viewer, false), 1, "{variant:?} {viewer:?}");
                assert_eq!(royal_zone(&pos, viewer, true), 1, "{variant:?} {viewer:?}");
            }
        }
        // A sente King on the left edge, three ranks up (the gote King stays at home).
        let pos = Position::from_sfen(Variant::Heian, "3gkg3/9/9/9/9/K8/9/9/9 b - 1").unwrap();
        let zone = royal_zone(&pos, Color::Sente, false);
        assert_eq!(zone, 3, "left and advanced");
        assert_eq!(
            royal_zone(&pos, Color::Sente, true),
            5,
            "right once reflected"
        );
        assert!(zone < ROYAL_ZONES);
        assert_eq!(royal_zone(&pos, Color::Gote, false), 1);
        let buckets: Vec<usize> = [1, 2, 3, 6].map(|n| royal_bucket(zone, n)).to_vec();
        assert_eq!(buckets, [0, 1, 0, 3]);
        assert!(ROYAL_BUCKET_COUNTS
            .iter()
            .all(|&n| (0..ROYAL_ZONES).all(|z| royal_bucket(z, n) < n)));
    }

    #[test]
    fn the_start_position_looks_the_same_to_both_sides() {
        // Every start position is symmetric under the half turn with colours swapped, so both
        // viewers switch on the same inputs.
        for variant in Variant::ALL {
            let pos = Position::startpos(variant);
            let mut sente: Vec<usize> = active(&pos, Color::Sente).collect();
            let mut gote: Vec<usize> = active(&pos, Color::Gote).collect();
            sente.sort_unstable();
            gote.sort_unstable();
            assert_eq!(sente, gote, "{variant:?}");
        }
    }
}
