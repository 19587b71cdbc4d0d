//! The one evaluation the search calls. A position is scored by the network where one is
//! loaded, by the hand-crafted evaluation where none is, and by both added where the net was
//! trained to correct the hand-crafted score; which of the three is decided here, once, so the
//! search neither knows nor asks. Both keep state along the searched line (the network its
//! accumulators, the hand-crafted evaluation its piece-square sum), so the evaluator follows
//! make and undo: [`Evaluator::change`] before a move is played, [`Evaluator::push`] after,
//! [`Evaluator::pop`] after it is taken back.

use super::hand_crafted::{evaluate, psq_delta, psq_total};
use super::nnue::{Network, NnueStack};
use crate::moves::Move;
use crate::position::Position;
use std::sync::Arc;

/// The evaluation of the positions along one searched line.
pub struct Evaluator {
    /// The network's accumulators, when a net evaluates.
    nnue: Option<NnueStack>,
    /// Whether the score counts the hand-crafted evaluation: without a net, or with a net that
    /// corrects it.
    hand_crafted: bool,
    /// The hand-crafted piece-square sum of each position of the line, the root's first.
    psq: Vec<i32>,
}

/// What a move changes in the hand-crafted evaluation, read before the move is played.
#[derive(Clone, Copy, Debug)]
pub struct EvalChange(i32);

impl Evaluator {
    /// An evaluator for lines from `root` of up to `plies` moves, with `net` or without one.
    pub fn new(net: Option<Arc<Network>>, root: &Position, plies: usize) -> Evaluator {
        let hand_crafted = net.as_ref().is_none_or(|net| net.adds_hand_crafted);
        let mut psq = Vec::with_capacity(plies + 1);
        psq.push(psq_total(root));
        Evaluator {
            nnue: net.map(|net| NnueStack::new(net, root, plies)),
            hand_crafted,
            psq,
        }
    }

    /// What playing `mv` in `pos` will change, to hand to [`Evaluator::push`] once it is played.
    #[inline]
    pub fn change(&self, pos: &Position, mv: Move) -> EvalChange {
        // The piece-square sum is read only by the hand-crafted evaluation.
        EvalChange(if self.hand_crafted {
            psq_delta(pos, mv)
        } else {
            0
        })
    }

    /// Follows a move just played: `pos` is the position after it.
    #[inline]
    pub fn push(&mut self, pos: &Position, change: EvalChange) {
        if let Some(nnue) = &mut self.nnue {
            nnue.push(pos);
        }
        let top = self.psq.last().copied().unwrap_or(0);
        self.psq.push(top + change.0);
    }

    /// Follows a move just taken back.
    #[inline]
    pub fn pop(&mut self) {
        if let Some(nnue) = &mut self.nnue {
            nnue.pop();
        }
        self.psq.pop();
    }

    /// The static evaluation of `pos`, the last position pushed, in the side to move's view
    /// (evaluation units, not clamped).
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let hand_crafted = || evaluate(pos, self.psq.last().copied().unwrap_or(0));
        match &self.nnue {
            Some(nnue) if self.hand_crafted => nnue.evaluate(pos) + hand_crafted(),
            Some(nnue) => nnue.evaluate(pos),
            None => hand_crafted(),
        }
    }
}
