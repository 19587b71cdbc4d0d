//! The last sums each viewer had in each royal bucket, with the board they were summed from, so
//! that a royal entering a bucket again costs the squares that changed since rather than a sum
//! over every piece (the accumulator refresh cache Stockfish calls "Finny tables"). Late in a
//! Chu game a King walks between zones and a refresh follows about one move in five; summing
//! some fifty columns each time was a sixth of the search's instructions there.

use super::features::{feature, feature_count};
use super::network::Network;
use super::simd::{add, sub, widest, Lane};
use crate::board::{Color, Piece, Square, Variant};
use crate::position::Position;

/// One entry per viewer and royal bucket: its sums (`hidden` lanes) and its board.
#[derive(Clone, Debug)]
pub(super) struct RefreshCache<L> {
    /// The variant the boards are of: the inputs of a square depend on the board's size.
    variant: Option<Variant>,
    sums: Vec<L>,
    boards: Vec<[Piece; 144]>,
}

impl<L: Lane> RefreshCache<L> {
    /// Empty entries for `net`: each holds the transformer's bias, summed from an empty board.
    pub(super) fn new(net: &Network) -> RefreshCache<L> {
        let entries = 2 * net.royal_buckets;
        RefreshCache {
            variant: None,
            sums: net
                .ft_bias
                .iter()
                .map(|&b| L::from_weight(b))
                .cycle()
                .take(entries * net.hidden)
                .collect(),
            boards: vec![[Piece::NONE; 144]; entries],
        }
    }

    /// Writes into `out` `viewer`'s sums of `pos` with its inputs starting at `base` (its
    /// royal's bucket), bringing that bucket's entry up to the board of `pos` on the way.
    pub(super) fn refresh(
        &mut self,
        net: &Network,
        pos: &Position,
        viewer: Color,
        base: usize,
        out: &mut [L],
    ) {
        refresh_widest(self, net, pos, viewer, base, out);
    }
}

#[inline(always)]
fn refresh<L: Lane>(
    cache: &mut RefreshCache<L>,
    net: &Network,
    pos: &Position,
    viewer: Color,
    base: usize,
    out: &mut [L],
) {
    let variant = pos.variant();
    if cache.variant != Some(variant) {
        *cache = RefreshCache::new(net);
        cache.variant = Some(variant);
    }
    let h = net.hidden;
    let entry = viewer.index() * net.royal_buckets + base / feature_count(net.family);
    let sums = &mut cache.sums[entry * h..(entry + 1) * h];
    let board = &mut cache.boards[entry];
    for (i, (kept, &now)) in board.iter_mut().zip(pos.mailbox()).enumerate() {
        if *kept == now {
            continue;
        }
        let sq = Square::new(i as u8);
        if *kept != Piece::NONE {
            sub(sums, net.column(base + feature(variant, viewer, *kept, sq)));
        }
        if now != Piece::NONE {
            add(sums, net.column(base + feature(variant, viewer, now, sq)));
        }
        *kept = now;
    }
    out.copy_from_slice(sums);
}

widest!(
    /// [`refresh`] on the widest vector instructions this processor has.
    fn refresh_widest<L> = refresh(
        cache: &mut RefreshCache<L>,
        net: &Network,
        pos: &Position,
        viewer: Color,
        base: usize,
        out: &mut [L],
    )
);
