//! The transformer's sums for every ply of a search, kept as moves are made and taken back.
//!
//! One frame per ply holds both viewers' sums (`2 x hidden` i32, sente's first). `push` copies
//! the frame below and applies the last move's [`BoardChange`]: each piece taken off
//! subtracts its input's column, the piece put down adds one. Every move kind is one change:
//! a plain move or promotion (mover off, victim off, piece on), a lion double move (a second
//! victim on the middle square), igui (the mover off and on its own square, the victim off), a
//! pass (nothing). The frames are allocated once, so the search allocates nothing.
//!
//! With royal buckets each frame also keeps where each viewer's inputs start (its royal's
//! bucket, [`Network::input_base`]); a move that takes a royal into another bucket refreshes
//! that viewer's sums instead, from the sums it last had in that bucket and the squares
//! changed since (`RefreshCache`).
//!
//! [`BoardChange`]: crate::position::BoardChange

use super::features::feature;
use super::network::Network;
use super::refresh_cache::RefreshCache;
use super::simd::{add, sub, widest};
use crate::board::Color;
use crate::position::{BoardChange, Position};
use std::sync::Arc;

/// The accumulator frames of one search thread.
#[derive(Clone, Debug)]
pub struct NnueStack {
    net: Arc<Network>,
    /// The net's output sums fit i32 lanes (`Network::output_fits_i32`), decided once.
    output_in_i32: bool,
    frames: Vec<i32>,
    /// Each frame's input bases, sente's then gote's.
    bases: Vec<[usize; 2]>,
    top: usize,
    cache: RefreshCache,
}

impl NnueStack {
    /// Frames for `plies` moves beyond `pos`, the first filled from `pos`.
    pub fn new(net: Arc<Network>, pos: &Position, plies: usize) -> NnueStack {
        let frames = vec![0; 2 * net.hidden * (plies + 1)];
        let mut stack = NnueStack {
            cache: RefreshCache::new(&net),
            output_in_i32: net.output_fits_i32(),
            net,
            frames,
            bases: vec![[0; 2]; plies + 1],
            top: 0,
        };
        stack.refresh(pos);
        stack
    }

    /// The net evaluating.
    pub fn net(&self) -> &Arc<Network> {
        &self.net
    }

    fn frame_len(&self) -> usize {
        2 * self.net.hidden
    }

    /// Recomputes the current frame from the board.
    pub fn refresh(&mut self, pos: &Position) {
        for viewer in [Color::Sente, Color::Gote] {
            self.refresh_half(pos, viewer);
        }
    }

    /// Recomputes `viewer`'s sums of the current frame from the board.
    fn refresh_half(&mut self, pos: &Position, viewer: Color) {
        let h = self.net.hidden;
        let half = viewer.index();
        let start = self.top * 2 * h + half * h;
        let base = self.net.input_base(pos, viewer);
        self.bases[self.top][half] = base;
        let sums = &mut self.frames[start..start + h];
        self.cache.refresh(&self.net, pos, viewer, base, sums);
    }

    /// A new frame for the move `pos` has just played. Falls back to a refresh when `pos` has
    /// no last move or the frames are used up (never in a search within its ply limit).
    pub fn push(&mut self, pos: &Position) {
        let len = self.frame_len();
        if (self.top + 2) * len > self.frames.len() {
            self.frames.resize((self.top + 2) * len, 0);
        }
        if self.top + 2 > self.bases.len() {
            self.bases.resize(self.top + 2, [0; 2]);
        }
        self.top += 1;
        let Some(change) = pos.last_change() else {
            self.refresh(pos);
            return;
        };
        let bases = self.bases[self.top - 1];
        self.bases[self.top] = bases;
        let (below, above) = self.frames.split_at_mut(self.top * len);
        let src = &below[(self.top - 1) * len..];
        let dst = &mut above[..len];
        apply_widest(&self.net, pos, &change, bases, src, dst);
        if self.net.royal_buckets > 1 {
            for viewer in [Color::Sente, Color::Gote] {
                if self.net.input_base(pos, viewer) != bases[viewer.index()] {
                    self.refresh_half(pos, viewer);
                }
            }
        }
    }

    /// Drops the current frame (the move was taken back).
    pub fn pop(&mut self) {
        self.top = self.top.saturating_sub(1);
    }

    /// Both viewers' sums of the current frame, sente's first.
    pub fn sums(&self) -> (&[i32], &[i32]) {
        let len = self.frame_len();
        let frame = &self.frames[self.top * len..(self.top + 1) * len];
        frame.split_at(self.net.hidden)
    }

    /// The evaluation of `pos` (the position of the current frame) from its side to move's
    /// view, in evaluation units.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let (sente, gote) = self.sums();
        let bucket = self.net.bucket(pos.occupied().count() as usize);
        let (us, them) = match pos.side_to_move() {
            Color::Sente => (sente, gote),
            Color::Gote => (gote, sente),
        };
        if self.output_in_i32 {
            self.net.output_in_i32(us, them, bucket)
        } else {
            self.net.output(us, them, bucket)
        }
    }
}

/// Writes into `dst` both viewers' sums of the frame `src` changed by `change`, the move
/// `pos` has just played, each viewer's inputs starting at its entry of `bases`: one pass over
/// the sums for a quiet move and for a capture.
#[inline(always)]
fn apply(
    net: &Network,
    pos: &Position,
    change: &BoardChange,
    bases: [usize; 2],
    src: &[i32],
    dst: &mut [i32],
) {
    let h = net.hidden;
    let variant = pos.variant();
    for (half, viewer) in [Color::Sente, Color::Gote].into_iter().enumerate() {
        let base = bases[half];
        let column = |(sq, piece)| net.column(base + feature(variant, viewer, piece, sq));
        let mut removed = change
            .removed
            .iter()
            .filter(|(_, piece)| piece.is_some())
            .map(|&c| column(c));
        let added = change.added.map(column);
        let (src, dst) = (
            &src[half * h..(half + 1) * h],
            &mut dst[half * h..(half + 1) * h],
        );
        match (removed.next(), removed.next(), added) {
            // A quiet move, and a capture: one pass each.
            (Some(off), None, Some(on)) => {
                for (((d, &s), &off), &on) in dst.iter_mut().zip(src).zip(off).zip(on) {
                    *d = s - i32::from(off) + i32::from(on);
                }
            }
            (Some(off), Some(taken), Some(on)) => {
                let columns = off.iter().zip(taken).zip(on);
                for ((d, &s), ((&off, &taken), &on)) in dst.iter_mut().zip(src).zip(columns) {
                    *d = s - i32::from(off) - i32::from(taken) + i32::from(on);
                }
                // A lion's second victim.
                for rest in removed {
                    sub(dst, rest);
                }
            }
            (first, second, on) => {
                dst.copy_from_slice(src);
                for off in first.into_iter().chain(second).chain(removed) {
                    sub(dst, off);
                }
                if let Some(on) = on {
                    add(dst, on);
                }
            }
        }
    }
}

widest!(
    /// [`apply`] on the widest vector instructions this processor has.
    fn apply_widest = apply(
        net: &Network,
        pos: &Position,
        change: &BoardChange,
        bases: [usize; 2],
        src: &[i32],
        dst: &mut [i32],
    )
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Variant;
    use crate::eval::nnue::network::tests::{royal_tiny, tiny};
    use crate::moves::Move;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The positions of a random game, captures preferred (so pieces promote and lions take).
    fn random_game(variant: Variant, plies: usize, rng: &mut StdRng) -> Vec<Position> {
        playout(variant, plies, rng, 0.4, |pos, mv| pos.is_capture(mv))
    }

    /// A random game whose royals move whenever they can, half the time: they wander between
    /// zones, and some are taken.
    fn royal_walk(variant: Variant, plies: usize, rng: &mut StdRng) -> Vec<Position> {
        playout(variant, plies, rng, 0.5, |pos, mv| {
            pos.royals(pos.side_to_move()).has(mv.from())
        })
    }

    /// The positions of a random game that plays a move `preferred` picks with probability
    /// `share` when there is one, any legal move otherwise.
    fn playout(
        variant: Variant,
        plies: usize,
        rng: &mut StdRng,
        share: f64,
        preferred: impl Fn(&Position, Move) -> bool,
    ) -> Vec<Position> {
        let mut pos = Position::startpos(variant);
        let mut out = vec![pos.clone()];
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            let picks: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| preferred(&pos, m))
                .collect();
            let mv = if !picks.is_empty() && rng.gen_bool(share) {
                picks[rng.gen_range(0..picks.len())]
            } else {
                moves[rng.gen_range(0..moves.len())]
            };
            pos.play(mv);
            out.push(pos.clone());
        }
        out
    }

    /// `viewer`'s sums of `pos` added up from nothing: the bias and every active input's column.
    fn summed(net: &Network, pos: &Position, viewer: Color) -> Vec<i32> {
        let base = net.input_base(pos, viewer);
        let mut sums: Vec<i32> = net.ft_bias.iter().map(|&b| i32::from(b)).collect();
        for f in crate::eval::nnue::features::active(pos, viewer) {
            add(&mut sums, net.column(base + f));
        }
        sums
    }

    #[test]
    fn with_royal_buckets_the_kept_frames_equal_fresh_ones_as_royals_change_zones() {
        let mut rng = StdRng::seed_from_u64(12);
        for royal_buckets in [2, 3, 6] {
            for variant in [Variant::Chushogi, Variant::Heian, Variant::Heian8x8] {
                let net = Arc::new(royal_tiny(variant.family(), 16, royal_buckets));
                let mut crossings = 0;
                for game in 0..4 {
                    let game = if game % 2 == 0 {
                        royal_walk(variant, 160, &mut rng)
                    } else {
                        random_game(variant, 160, &mut rng)
                    };
                    let mut stack = NnueStack::new(net.clone(), &game[0], game.len());
                    for pair in game.windows(2) {
                        let before = stack.bases[stack.top];
                        stack.push(&pair[1]);
                        crossings += usize::from(stack.bases[stack.top] != before);
                        let fresh = NnueStack::new(net.clone(), &pair[1], 0);
                        assert_eq!(stack.sums(), fresh.sums(), "{:?}", pair[1]);
                        let (sente, gote) = stack.sums();
                        assert_eq!(sente, summed(&net, &pair[1], Color::Sente));
                        assert_eq!(gote, summed(&net, &pair[1], Color::Gote));
                        assert_eq!(stack.bases[stack.top], fresh.bases[0]);
                    }
                }
                assert!(crossings > 0, "{variant:?}: no royal changed bucket");
            }
        }
    }

    #[test]
    fn the_portable_and_the_widest_frame_updates_agree() {
        // The search takes the widest copy (AVX2's where the processor has it), so the
        // portable one (every other processor, the browser build) is checked here against
        // it, and both against a fresh frame, over every kind of move of random games.
        let mut rng = StdRng::seed_from_u64(11);
        for variant in [Variant::Chushogi, Variant::Heian, Variant::Heian8x8] {
            let net = Arc::new(tiny(variant.family(), 32));
            let game = random_game(variant, 120, &mut rng);
            for pair in game.windows(2) {
                let (before, after) = (&pair[0], &pair[1]);
                let Some(change) = after.last_change() else {
                    continue;
                };
                let src = NnueStack::new(net.clone(), before, 0).frames;
                let fresh = NnueStack::new(net.clone(), after, 0).frames;
                let mut portable = vec![0; src.len()];
                apply(&net, after, &change, [0; 2], &src, &mut portable);
                assert_eq!(portable, fresh, "{after:?}");
                let mut wide = vec![0; src.len()];
                apply_widest(&net, after, &change, [0; 2], &src, &mut wide);
                assert_eq!(wide, fresh, "{after:?}");
            }
        }
    }
}
