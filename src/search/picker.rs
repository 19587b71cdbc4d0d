//! The staged move picker: hash move, then captures and promotions by MVV-LVA (a lion double
//! capture counts both victims, a royal victim first of all), then killers, then quiet moves by
//! history, then the captures that lose material. The moves come from the legal move generator, so every stage yields only legal moves
//! and, all stages together, each legal move exactly once; later stages are scored only when
//! reached, so a cut-off on the hash move or a capture costs no quiet-move scoring.

use super::eval::{captured_value, loses_material, victim_value};
use crate::board::Color;
use crate::movegen::{generate, generate_tactical, MoveList};
use crate::moves::Move;
use crate::position::Position;
use smallvec::SmallVec;

/// Quiet-move history, indexed by side, from and to square.
pub struct History(Vec<i32>);

impl History {
    /// An empty history: every move scores 0.
    pub fn new() -> History {
        History(vec![0; 2 * 144 * 144])
    }

    #[inline]
    fn index(color: Color, mv: Move) -> usize {
        (color.index() * 144 + mv.from().index()) * 144 + mv.to().index()
    }

    /// The score of `color`'s quiet move `mv`: positive when it often refuted, negative when
    /// it was often tried in vain.
    #[inline]
    pub fn get(&self, color: Color, mv: Move) -> i32 {
        self.0[History::index(color, mv)]
    }

    /// Moves the entry towards `bonus` (positive or negative), bounded by `HISTORY_MAX`.
    #[inline]
    pub fn update(&mut self, color: Color, mv: Move, bonus: i32) {
        let max = super::params::HISTORY_MAX;
        let bonus = bonus.clamp(-max, max);
        let e = &mut self.0[History::index(color, mv)];
        *e += bonus - *e * bonus.abs() / max;
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.0.iter_mut().for_each(|e| *e = 0);
    }
}

impl Default for History {
    fn default() -> Self {
        History::new()
    }
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Stage {
    Hash,
    Tactical,
    Killers,
    Quiets,
    BadTactical,
    Done,
}

/// Yields the moves of a position in search order, one stage at a time.
pub struct Picker {
    moves: MoveList,
    scores: SmallVec<[i32; 256]>,
    stage: Stage,
    hash: Option<Move>,
    killers: [Option<Move>; 2],
    /// Moves before `next` have been yielded. The list is laid out as good tactical moves up to
    /// `split`, quiet moves up to `quiet_end`, then the captures that lose material.
    next: usize,
    split: usize,
    quiet_end: usize,
    killer_index: usize,
    tactical_only: bool,
}

/// Whether a move belongs to the tactical stage: it captures or promotes.
#[inline]
pub fn is_tactical(pos: &Position, mv: Move) -> bool {
    mv.is_promotion() || pos.is_capture(mv)
}

impl Picker {
    /// A picker over every legal move of `pos`.
    pub fn new(pos: &Position, hash: Option<Move>, killers: [Option<Move>; 2]) -> Picker {
        Picker::build(pos, hash, killers, false)
    }

    /// A picker over the captures and promotions of `pos` only (quiescence search).
    pub fn tactical(pos: &Position) -> Picker {
        Picker::build(pos, None, [None, None], true)
    }

    fn build(
        pos: &Position,
        hash: Option<Move>,
        killers: [Option<Move>; 2],
        tactical_only: bool,
    ) -> Picker {
        let mut moves = MoveList::new();
        if pos.royals(pos.side_to_move()).any() {
            if tactical_only {
                generate_tactical(pos, &mut moves);
            } else {
                generate(pos, &mut moves);
            }
        }
        // Tactical moves first, then quiet ones; order inside each part is the generator's.
        let mut split = 0;
        for i in 0..moves.len() {
            if is_tactical(pos, moves[i]) {
                moves.swap(i, split);
                split += 1;
            }
        }
        let hash = hash.filter(|h| moves.contains(h));
        let len = moves.len();
        Picker {
            moves,
            scores: smallvec::smallvec![0; len],
            stage: Stage::Hash,
            hash,
            killers,
            next: 0,
            split,
            quiet_end: len,
            killer_index: 0,
            tactical_only,
        }
    }

    /// The number of moves of this picker's mode: every legal move, or the tactical ones.
    pub fn legal_count(&self) -> usize {
        self.moves.len()
    }

    /// The next move, or `None` when every move of this picker's mode was yielded.
    pub fn next(&mut self, pos: &Position, history: &History) -> Option<Move> {
        loop {
            match self.stage {
                Stage::Hash => {
                    self.stage = Stage::Tactical;
                    self.score_tactical(pos);
                    if let Some(h) = self.hash {
                        return Some(h);
                    }
                }
                Stage::Tactical => {
                    if let Some(mv) = self.pick_best(self.split) {
                        return Some(mv);
                    }
                    if self.tactical_only {
                        self.stage = Stage::Done;
                        return None;
                    }
                    self.stage = Stage::Killers;
                }
                Stage::Killers => {
                    while self.killer_index < 2 {
                        let k = self.killers[self.killer_index];
                        self.killer_index += 1;
                        if let Some(k) = k {
                            if Some(k) != self.hash {
                                if let Some(i) = self.moves[self.next..self.quiet_end]
                                    .iter()
                                    .position(|&m| m == k)
                                {
                                    let at = self.next + i;
                                    self.moves.swap(self.next, at);
                                    self.next += 1;
                                    return Some(k);
                                }
                            }
                        }
                    }
                    self.stage = Stage::Quiets;
                    let side = pos.side_to_move();
                    for i in self.next..self.quiet_end {
                        self.scores[i] = history.get(side, self.moves[i]);
                    }
                }
                Stage::Quiets => {
                    if let Some(mv) = self.pick_best(self.quiet_end) {
                        return Some(mv);
                    }
                    self.stage = Stage::BadTactical;
                }
                Stage::BadTactical => {
                    if let Some(mv) = self.pick_best(self.moves.len()) {
                        return Some(mv);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    /// Drops the quiet moves not yet yielded (late move pruning): the picker goes on with the
    /// captures that lose material.
    pub fn skip_quiets(&mut self) {
        if matches!(self.stage, Stage::Killers | Stage::Quiets) {
            self.next = self.quiet_end;
            self.stage = Stage::BadTactical;
        }
    }

    fn score_tactical(&mut self, pos: &Position) {
        let mut losing: SmallVec<[bool; 64]> = smallvec::smallvec![false; self.split];
        for i in 0..self.split {
            let mv = self.moves[i];
            let attacker = victim_value(pos.piece_at(mv.from()).kind()).min(3000);
            let promotion = if mv.is_promotion() { 200 } else { 0 };
            let gain = captured_value(pos, mv);
            self.scores[i] = gain * 16 - attacker / 8 + promotion;
            losing[i] = !self.tactical_only && !mv.is_promotion() && loses_material(pos, mv, gain);
        }
        // Losing captures go to the end of the list, behind the quiet moves.
        let mut i = 0;
        while i < self.split {
            if !losing[i] {
                i += 1;
                continue;
            }
            self.split -= 1;
            self.quiet_end -= 1;
            losing.swap(i, self.split);
            self.moves.swap(i, self.split);
            self.scores.swap(i, self.split);
            self.moves.swap(self.split, self.quiet_end);
            self.scores.swap(self.split, self.quiet_end);
        }
    }

    /// Selection sort step over `next..end`, skipping the hash move already yielded.
    fn pick_best(&mut self, end: usize) -> Option<Move> {
        loop {
            if self.next >= end {
                return None;
            }
            let mut best = self.next;
            for i in self.next + 1..end {
                if self.scores[i] > self.scores[best] {
                    best = i;
                }
            }
            self.moves.swap(self.next, best);
            self.scores.swap(self.next, best);
            let mv = self.moves[self.next];
            self.next += 1;
            if Some(mv) != self.hash {
                return Some(mv);
            }
        }
    }
}
