//! The transformer's sums for every ply of a search, kept as moves are made and taken back.
//!
//! One frame per ply holds both viewers' sums (`2 x hidden` lanes, sente's first: i16 where the
//! net's sums fit it, [`Lane`]). `push` copies the frame below and applies the last move's
//! [`BoardChange`]: each piece taken off subtracts its input's column, the piece put down adds
//! one. Every move kind is one change:
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
use super::simd::{add, sub, widest, Lane};
use crate::board::{Color, Piece};
use crate::position::{BoardChange, Position};
use std::sync::{Arc, Mutex, PoisonError, Weak};

/// The accumulator frames of one search thread, in the narrowest lanes its net allows.
#[derive(Clone, Debug)]
pub struct NnueStack(Lanes);

#[derive(Clone, Debug)]
enum Lanes {
    Narrow(Frames<i16>),
    Wide(Frames<i32>),
}

/// `$body` on the frames of `$lanes`, bound to `$frames`, whichever their lanes.
macro_rules! on_frames {
    ($lanes:expr, $frames:ident => $body:expr) => {
        match $lanes {
            Lanes::Narrow($frames) => $body,
            Lanes::Wide($frames) => $body,
        }
    };
}

impl NnueStack {
    /// Frames for `plies` moves beyond `pos`, the first filled from `pos`.
    pub fn new(net: Arc<Network>, pos: &Position, plies: usize) -> NnueStack {
        NnueStack(if sums_fit_i16(&net) {
            Lanes::Narrow(Frames::new(net, pos, plies))
        } else {
            Lanes::Wide(Frames::new(net, pos, plies))
        })
    }

    /// The net evaluating.
    pub fn net(&self) -> &Arc<Network> {
        on_frames!(&self.0, frames => &frames.net)
    }

    /// Recomputes the current frame from the board.
    pub fn refresh(&mut self, pos: &Position) {
        on_frames!(&mut self.0, frames => frames.refresh(pos));
    }

    /// A new frame for the move `pos` has just played. Falls back to a refresh when `pos` has
    /// no last move or the frames are used up (never in a search within its ply limit).
    #[inline]
    pub fn push(&mut self, pos: &Position) {
        on_frames!(&mut self.0, frames => frames.push(pos));
    }

    /// Drops the current frame (the move was taken back).
    #[inline]
    pub fn pop(&mut self) {
        on_frames!(&mut self.0, frames => frames.pop());
    }

    /// The evaluation of `pos` (the position of the current frame) from its side to move's
    /// view, in evaluation units.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        on_frames!(&self.0, frames => frames.evaluate(pos))
    }

    /// Both viewers' sums of the current frame, sente's first, as i32 whatever their lanes.
    pub fn sums(&self) -> (Vec<i32>, Vec<i32>) {
        fn wide<L: Lane>(sums: &[L]) -> Vec<i32> {
            sums.iter().map(|&s| s.into()).collect()
        }
        on_frames!(&self.0, frames => {
            let (sente, gote) = frames.sums();
            (wide(sente), wide(gote))
        })
    }

    /// Where each viewer's inputs start in the current frame, sente's first.
    #[cfg(test)]
    fn bases(&self) -> [usize; 2] {
        on_frames!(&self.0, frames => frames.bases[frames.top])
    }

    /// Whether the sums are kept in i16.
    #[cfg(test)]
    fn is_narrow(&self) -> bool {
        matches!(self.0, Lanes::Narrow(_))
    }
}

/// Whether `change` moves, takes or makes a royal: only such a move can take a viewer's royal
/// into another bucket.
#[inline]
fn touches_a_royal(change: &BoardChange) -> bool {
    let royal = |&(_, piece): &(_, Piece)| piece.is_some() && piece.kind().is_royal();
    change.removed.iter().any(royal) || change.added.as_ref().is_some_and(royal)
}

/// [`Network::sums_fit_i16`], found once per net: it reads every transformer weight, which
/// on Chu's net would cost each search thread about a millisecond at every search. A net is
/// known by its allocation, held weakly: one that is gone, or changed through its own `Arc`
/// (which moves it to a new allocation while this holds it), no longer matches.
fn sums_fit_i16(net: &Arc<Network>) -> bool {
    static KNOWN: Mutex<Vec<(Weak<Network>, bool)>> = Mutex::new(Vec::new());
    let mut known = KNOWN.lock().unwrap_or_else(PoisonError::into_inner);
    known.retain(|(weak, _)| weak.strong_count() > 0);
    let this = Arc::as_ptr(net);
    if let Some(&(_, fits)) = known.iter().find(|(weak, _)| weak.as_ptr() == this) {
        return fits;
    }
    let fits = net.sums_fit_i16();
    known.push((Arc::downgrade(net), fits));
    fits
}

/// The frames of one search thread with their sums in `L` lanes.
#[derive(Clone, Debug)]
struct Frames<L> {
    net: Arc<Network>,
    /// The net's output sums fit i32 lanes (`Network::output_fits_i32`), decided once.
    output_in_i32: bool,
    frames: Vec<L>,
    /// Each frame's input bases, sente's then gote's.
    bases: Vec<[usize; 2]>,
    top: usize,
    cache: RefreshCache<L>,
}

impl<L: Lane> Frames<L> {
    fn new(net: Arc<Network>, pos: &Position, plies: usize) -> Frames<L> {
        let frames = vec![L::default(); 2 * net.hidden * (plies + 1)];
        let mut stack = Frames {
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

    fn frame_len(&self) -> usize {
        2 * self.net.hidden
    }

    fn refresh(&mut self, pos: &Position) {
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

    #[inline]
    fn push(&mut self, pos: &Position) {
        let len = self.frame_len();
        if (self.top + 2) * len > self.frames.len() {
            self.frames.resize((self.top + 2) * len, L::default());
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
        if self.net.royal_buckets > 1 && touches_a_royal(&change) {
            for viewer in [Color::Sente, Color::Gote] {
                if self.net.input_base(pos, viewer) != bases[viewer.index()] {
                    self.refresh_half(pos, viewer);
                }
            }
        }
    }

    #[inline]
    fn pop(&mut self) {
        self.top = self.top.saturating_sub(1);
    }

    /// Both viewers' sums of the current frame, sente's first.
    fn sums(&self) -> (&[L], &[L]) {
        let len = self.frame_len();
        let frame = &self.frames[self.top * len..(self.top + 1) * len];
        frame.split_at(self.net.hidden)
    }

    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
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
fn apply<L: Lane>(
    net: &Network,
    pos: &Position,
    change: &BoardChange,
    bases: [usize; 2],
    src: &[L],
    dst: &mut [L],
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
                    *d = s.minus(off).plus(on);
                }
            }
            (Some(off), Some(taken), Some(on)) => {
                let columns = off.iter().zip(taken).zip(on);
                for ((d, &s), ((&off, &taken), &on)) in dst.iter_mut().zip(src).zip(columns) {
                    *d = s.minus(off).minus(taken).plus(on);
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
    fn apply_widest<L> = apply(
        net: &Network,
        pos: &Position,
        change: &BoardChange,
        bases: [usize; 2],
        src: &[L],
        dst: &mut [L],
    )
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Family, Variant};
    use crate::eval::nnue::features;
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
        for f in features::active(pos, viewer) {
            add(&mut sums, net.column(base + f));
        }
        sums
    }

    /// `net` with every transformer weight `factor` times larger: past some factor its sums can
    /// leave the i16 range, and the stack keeps them in i32.
    fn scaled(net: Network, factor: i16) -> Network {
        Network {
            ft_weights: net.ft_weights.iter().map(|&w| w * factor).collect(),
            ..net
        }
    }

    #[test]
    fn with_royal_buckets_the_kept_frames_equal_fresh_ones_as_royals_change_zones() {
        let mut rng = StdRng::seed_from_u64(12);
        for (factor, narrow) in [(1, true), (40, false)] {
            for royal_buckets in [2, 3, 6] {
                for variant in [Variant::Chushogi, Variant::Heian, Variant::Heian8x8] {
                    let net = scaled(royal_tiny(variant.family(), 16, royal_buckets), factor);
                    let net = Arc::new(net);
                    let mut crossings = 0;
                    for game in 0..4 {
                        let game = if game % 2 == 0 {
                            royal_walk(variant, 160, &mut rng)
                        } else {
                            random_game(variant, 160, &mut rng)
                        };
                        let mut stack = NnueStack::new(net.clone(), &game[0], game.len());
                        assert_eq!(stack.is_narrow(), narrow, "{variant:?} x{factor}");
                        for pair in game.windows(2) {
                            let before = stack.bases();
                            stack.push(&pair[1]);
                            crossings += usize::from(stack.bases() != before);
                            let fresh = NnueStack::new(net.clone(), &pair[1], 0);
                            assert_eq!(stack.sums(), fresh.sums(), "{:?}", pair[1]);
                            let (sente, gote) = stack.sums();
                            assert_eq!(sente, summed(&net, &pair[1], Color::Sente));
                            assert_eq!(gote, summed(&net, &pair[1], Color::Gote));
                            assert_eq!(stack.bases(), fresh.bases());
                        }
                    }
                    assert!(crossings > 0, "{variant:?}: no royal changed bucket");
                }
            }
        }
    }

    #[test]
    fn sums_that_could_leave_i16_are_kept_in_i32_where_i16_would_be_wrong() {
        let start = Position::startpos(Variant::Chushogi);
        let uniform = |w: i16| Network {
            ft_weights: vec![w; features::feature_count(Family::Chu) * 16],
            ft_bias: vec![0; 16],
            ..tiny(Family::Chu, 16)
        };
        // A Chu board holds at most 144 pieces: 227 a piece fits, 228 may not.
        let fits = Arc::new(uniform(227));
        let stack = NnueStack::new(fits.clone(), &start, 4);
        assert!(stack.is_narrow());
        assert_eq!(stack.sums().0, vec![92 * 227; 16]);
        let heavy = Arc::new(uniform(400));
        let stack = NnueStack::new(heavy.clone(), &start, 4);
        assert!(!stack.is_narrow());
        assert_eq!(stack.sums().0, vec![92 * 400; 16]);
        // What the check guards against: the same sums in i16 wrap around.
        let narrow = Frames::<i16>::new(heavy, &start, 4);
        assert_ne!(i32::from(narrow.sums().0[0]), 92 * 400);
        // The answer is kept per net, and a net changed after it was used is checked again.
        let mut net = fits;
        assert!(NnueStack::new(net.clone(), &start, 4).is_narrow());
        Arc::make_mut(&mut net).ft_weights.fill(400);
        let stack = NnueStack::new(net, &start, 4);
        assert!(!stack.is_narrow());
        assert_eq!(stack.sums().0, vec![92 * 400; 16]);
    }

    /// The frames of `game` in `L` lanes, each move applied by the portable and by the widest
    /// kernel, checked against fresh frames. The search takes the widest copy (AVX2's where the
    /// processor has it), so the portable one (every other processor, the browser build) is
    /// checked against it.
    fn check_updates<L: Lane>(net: &Arc<Network>, game: &[Position]) {
        for pair in game.windows(2) {
            let (before, after) = (&pair[0], &pair[1]);
            let Some(change) = after.last_change() else {
                continue;
            };
            let src = Frames::<L>::new(net.clone(), before, 0).frames;
            let fresh = Frames::<L>::new(net.clone(), after, 0).frames;
            let mut portable = vec![L::default(); src.len()];
            apply(net, after, &change, [0; 2], &src, &mut portable);
            assert_eq!(portable, fresh, "{after:?}");
            let mut wide = vec![L::default(); src.len()];
            apply_widest(net, after, &change, [0; 2], &src, &mut wide);
            assert_eq!(wide, fresh, "{after:?}");
        }
    }

    #[test]
    fn the_portable_and_the_widest_frame_updates_agree() {
        let mut rng = StdRng::seed_from_u64(11);
        for variant in [Variant::Chushogi, Variant::Heian, Variant::Heian8x8] {
            let game = random_game(variant, 120, &mut rng);
            let net = Arc::new(tiny(variant.family(), 32));
            check_updates::<i16>(&net, &game);
            check_updates::<i32>(&net, &game);
            check_updates::<i32>(&Arc::new(scaled(tiny(variant.family(), 32), 40)), &game);
        }
    }
}
