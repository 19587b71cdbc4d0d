//! The staged move picker: hash move, then captures and promotions by MVV-LVA (a lion double
//! capture counts both victims, a royal victim first of all), then killers and (when given) the
//! counter move, then quiet moves by history, then the captures that lose material (a negative
//! static exchange, `see`). The moves come from the legal move generator, so every stage yields
//! only legal moves and, all stages together, each legal move exactly once. Later stages are
//! scored only when reached, and a capture's exchange is worked out only when it comes up, so a
//! cut-off on a capture costs neither quiet-move scoring nor the exchanges of the captures after
//! it. Where the moves of its piece alone tell whether the hash move is legal (Chu), it is yielded
//! before any move is generated, so a cut-off on it costs no generation.

use super::params::SearchParams;
use super::see::see_ge;
use crate::board::{Color, Piece, Square};
use crate::eval::{captured_value, victim_value};
use crate::movegen::{generate, generate_tactical, is_legal_by_piece, MoveList};
use crate::moves::Move;
use crate::position::Position;
use smallvec::SmallVec;

/// Quiet-move history, indexed by side, from and to square, and the counter-move table: for
/// the piece that made the opponent's last move and its destination, the quiet move that last
/// refuted it.
pub struct History {
    scores: Vec<i32>,
    counters: Vec<Option<Move>>,
}

impl History {
    /// An empty history: every move scores 0 and no move has a counter.
    pub fn new() -> History {
        History {
            scores: vec![0; 2 * 144 * 144],
            counters: vec![None; 128 * 144],
        }
    }

    #[inline]
    fn counter_index(mover: Piece, to: Square) -> usize {
        mover.code() * 144 + to.index()
    }

    /// The quiet move that last refuted a move of `mover` to `to` (`mover` standing there now).
    #[inline]
    pub fn counter(&self, mover: Piece, to: Square) -> Option<Move> {
        self.counters[History::counter_index(mover, to)]
    }

    /// Records `reply` as the refutation of a move of `mover` to `to`.
    #[inline]
    pub fn set_counter(&mut self, mover: Piece, to: Square, reply: Move) {
        self.counters[History::counter_index(mover, to)] = Some(reply);
    }

    #[inline]
    fn index(color: Color, mv: Move) -> usize {
        (color.index() * 144 + mv.from().index()) * 144 + mv.to().index()
    }

    /// The score of `color`'s quiet move `mv`: positive when it often refuted, negative when
    /// it was often tried in vain.
    #[inline]
    pub fn get(&self, color: Color, mv: Move) -> i32 {
        self.scores[History::index(color, mv)]
    }

    /// Moves the entry towards `bonus` (positive or negative), bounded by `max`
    /// (`SearchParams::history_max`).
    #[inline]
    pub fn update(&mut self, color: Color, mv: Move, bonus: i32, max: i32) {
        let bonus = bonus.clamp(-max, max);
        let e = &mut self.scores[History::index(color, mv)];
        *e += bonus - *e * bonus.abs() / max;
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.scores.iter_mut().for_each(|e| *e = 0);
        self.counters.iter_mut().for_each(|c| *c = None);
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
    Generate,
    Tactical,
    Killers,
    Quiets,
    BadTactical,
    Done,
}

/// How the tactical stage orders captures and promotions (`SearchParams`, `capture_gain_scale`
/// and the three after it).
#[derive(Clone, Copy)]
struct CaptureOrder {
    gain_scale: i32,
    attacker_divisor: i32,
    attacker_cap: i32,
    promotion_bonus: i32,
}

impl CaptureOrder {
    fn of(params: &SearchParams) -> CaptureOrder {
        CaptureOrder {
            gain_scale: params.capture_gain_scale,
            attacker_divisor: params.attacker_divisor,
            attacker_cap: params.attacker_cap,
            promotion_bonus: params.promotion_bonus,
        }
    }
}

/// Yields the moves of a position in search order, one stage at a time.
pub struct Picker {
    moves: MoveList,
    scores: SmallVec<[i32; 256]>,
    stage: Stage,
    hash: Option<Move>,
    /// The two killers, then the counter move.
    killers: [Option<Move>; 3],
    /// Moves before `next` have been yielded. The list is laid out as tactical moves not found
    /// to lose material up to `split`, quiet moves up to `quiet_end`, then the captures that do.
    next: usize,
    split: usize,
    quiet_end: usize,
    killer_index: usize,
    tactical_only: bool,
    /// Whether `moves` holds the generated moves yet.
    generated: bool,
    order: CaptureOrder,
}

/// Whether a move belongs to the tactical stage: it captures or promotes.
#[inline]
pub fn is_tactical(pos: &Position, mv: Move) -> bool {
    mv.is_promotion() || pos.is_capture(mv)
}

/// Moves the tactical moves to the front in the generator's order and returns their number. The
/// quiet moves keep the order that the swaps leave; quiet moves of equal history are tried in
/// that order, so the search tree depends on it.
fn partition_tactical(pos: &Position, moves: &mut [Move]) -> usize {
    let mut split = 0;
    for i in 0..moves.len() {
        if is_tactical(pos, moves[i]) {
            moves.swap(i, split);
            split += 1;
        }
    }
    split
}

impl Picker {
    /// A picker over every legal move of `pos`, captures ordered by `params`.
    pub fn new(
        pos: &Position,
        hash: Option<Move>,
        killers: [Option<Move>; 2],
        params: &SearchParams,
    ) -> Picker {
        let mut picker = Picker::empty(killers, false, params);
        // The hash move can be stale, or another position's by a key collision.
        let legal = |&h: &Move| match is_legal_by_piece(pos, h) {
            Some(legal) => legal,
            None => {
                picker.generate(pos);
                picker.moves.contains(&h)
            }
        };
        let hash = hash.filter(legal);
        picker.hash = hash;
        // Without a hash move the moves are needed at once, if only to know whether there is one.
        if hash.is_none() && !picker.generated {
            picker.generate(pos);
        }
        picker
    }

    /// Tries `counter`, when it is a legal quiet move, after the killers.
    pub fn with_counter(mut self, counter: Option<Move>) -> Picker {
        self.killers[2] = counter;
        self
    }

    /// A picker over the captures and promotions of `pos` only (quiescence search).
    pub fn tactical(pos: &Position, params: &SearchParams) -> Picker {
        let mut picker = Picker::empty([None, None], true, params);
        picker.generate(pos);
        picker
    }

    fn empty(killers: [Option<Move>; 2], tactical_only: bool, params: &SearchParams) -> Picker {
        Picker {
            moves: MoveList::new(),
            scores: SmallVec::new(),
            stage: Stage::Hash,
            hash: None,
            killers: [killers[0], killers[1], None],
            next: 0,
            split: 0,
            quiet_end: 0,
            killer_index: 0,
            tactical_only,
            generated: false,
            order: CaptureOrder::of(params),
        }
    }

    /// Generates the moves of this picker's mode: tactical moves first, then quiet ones.
    fn generate(&mut self, pos: &Position) {
        self.generated = true;
        if pos.royals(pos.side_to_move()).any() {
            if self.tactical_only {
                generate_tactical(pos, &mut self.moves);
            } else {
                generate(pos, &mut self.moves);
            }
        }
        self.split = partition_tactical(pos, &mut self.moves);
        self.quiet_end = self.moves.len();
        self.scores.resize(self.moves.len(), 0);
    }

    /// Whether the picker has any move to yield: for `new`, whether `pos` has a legal move.
    pub fn has_moves(&self) -> bool {
        self.hash.is_some() || !self.moves.is_empty()
    }

    /// The next move, or `None` when every move of this picker's mode was yielded.
    pub fn next(&mut self, pos: &Position, history: &History) -> Option<Move> {
        loop {
            match self.stage {
                Stage::Hash => {
                    self.stage = Stage::Generate;
                    if let Some(h) = self.hash {
                        return Some(h);
                    }
                }
                Stage::Generate => {
                    self.stage = Stage::Tactical;
                    if !self.generated {
                        self.generate(pos);
                    }
                    self.score_tactical(pos);
                }
                Stage::Tactical => {
                    while let Some(mv) = self.pick_best(self.split) {
                        if self.tactical_only || mv.is_promotion() || see_ge(pos, mv, 0) {
                            return Some(mv);
                        }
                        self.defer_losing();
                    }
                    if self.tactical_only {
                        self.stage = Stage::Done;
                        return None;
                    }
                    self.stage = Stage::Killers;
                }
                Stage::Killers => {
                    while self.killer_index < self.killers.len() {
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
        let order = self.order;
        for i in 0..self.split {
            let mv = self.moves[i];
            let attacker = victim_value(pos.piece_at(mv.from()).kind()).min(order.attacker_cap);
            let promotion = if mv.is_promotion() {
                order.promotion_bonus
            } else {
                0
            };
            let gain = captured_value(pos, mv);
            self.scores[i] =
                gain * order.gain_scale - attacker / order.attacker_divisor + promotion;
        }
    }

    /// The capture just picked loses material by static exchange: it goes behind the quiet
    /// moves, to be tried after them. The exchange is only worked out for a capture about to be
    /// tried, since a cutoff often makes the rest unneeded.
    fn defer_losing(&mut self) {
        self.next -= 1;
        let i = self.next;
        self.split -= 1;
        self.moves.swap(i, self.split);
        self.scores.swap(i, self.split);
        self.quiet_end -= 1;
        self.moves.swap(self.split, self.quiet_end);
        self.scores.swap(self.split, self.quiet_end);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Square, Variant};
    use crate::movegen::random_playout;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The picker as it was before the hash move could come first: every move generated at once,
    /// the hash move checked against them.
    fn generated_at_once(pos: &Position, hash: Option<Move>, killers: [Option<Move>; 2]) -> Picker {
        let mut picker = Picker::empty(killers, false, &SearchParams::default());
        picker.generate(pos);
        picker.hash = hash.filter(|h| picker.moves.contains(h));
        picker
    }

    /// A picker ordering captures by the default parameters.
    fn default_picker(pos: &Position, hash: Option<Move>, killers: [Option<Move>; 2]) -> Picker {
        Picker::new(pos, hash, killers, &SearchParams::default())
    }

    /// Every move a picker yields, in order; from the `skip_from`th move on, quiet moves are
    /// dropped as late move pruning does.
    fn drain(mut picker: Picker, pos: &Position, history: &History, skip_from: usize) -> Vec<Move> {
        let mut out = Vec::new();
        while let Some(mv) = picker.next(pos, history) {
            out.push(mv);
            if out.len() >= skip_from {
                picker.skip_quiets();
            }
        }
        out
    }

    /// Asserts that `got` holds each move of `legal` exactly once, in any order.
    fn assert_each_legal_move_once(got: &[Move], legal: &[Move], pos: &Position) {
        let mut sorted: Vec<u32> = got.iter().map(|m| m.bits()).collect();
        sorted.sort_unstable();
        let mut expected: Vec<u32> = legal.iter().map(|m| m.bits()).collect();
        expected.sort_unstable();
        assert_eq!(sorted, expected, "not each legal move once in {pos:?}");
    }

    /// Chu positions of random playouts, each with the moves of the position before it (legal
    /// there, often stale here).
    /// Positions of random Chu and Heian games, each with the moves of the position before
    /// (candidate stale hash moves).
    fn positions() -> Vec<(Position, MoveList)> {
        let mut rng = StdRng::seed_from_u64(17);
        let mut out = Vec::new();
        for variant in [Variant::Chushogi; 6].into_iter().chain([
            Variant::Heian,
            Variant::Heian9x8,
            Variant::Heian8x8,
        ]) {
            let plies = rng.gen_range(40..140);
            let game = random_playout(variant, plies, 0.4, &mut rng);
            for pair in game.windows(2).step_by(3) {
                out.push((pair[1].clone(), pair[0].legal_moves()));
            }
        }
        out
    }

    /// A history with random scores for some moves, so quiet moves are ordered and also tie.
    fn random_history(moves: &[Move], rng: &mut StdRng) -> History {
        let mut history = History::new();
        for &mv in moves {
            if rng.gen_bool(0.3) {
                let max = SearchParams::default().history_max;
                history.update(Color::Sente, mv, rng.gen_range(-max..max), max);
                history.update(Color::Gote, mv, rng.gen_range(-max..max), max);
            }
        }
        history
    }

    /// Hash moves and killers to try: none, legal quiet and tactical moves, stale moves of the
    /// position before, igui (legal or not), the pass, and a move from an empty square.
    fn candidates(
        pos: &Position,
        legal: &[Move],
        before: &[Move],
        rng: &mut StdRng,
    ) -> Vec<Option<Move>> {
        let quiet: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| !is_tactical(pos, m))
            .collect();
        let tactical: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| is_tactical(pos, m))
            .collect();
        let stale: Vec<Move> = before
            .iter()
            .copied()
            .filter(|m| !legal.contains(m))
            .collect();
        let igui: Vec<Move> = legal
            .iter()
            .chain(before)
            .copied()
            .filter(|m| m.mid().is_some() && m.to() == m.from())
            .collect();
        let mut pick =
            |list: &[Move]| (!list.is_empty()).then(|| list[rng.gen_range(0..list.len())]);
        let empty = Square::all()
            .find(|&sq| pos.piece_at(sq).is_none() && !pos.variant().off_board().has(sq));
        vec![
            None,
            pick(&quiet),
            pick(&quiet),
            pick(&tactical),
            pick(&stale),
            pick(&stale),
            pick(&igui),
            Some(Move::PASS),
            empty.map(|sq| Move::normal(sq, sq)),
        ]
    }

    #[test]
    fn hash_first_picker_yields_the_legal_moves_in_the_same_order() {
        let mut rng = StdRng::seed_from_u64(3);
        for (pos, before) in positions() {
            let legal = pos.legal_moves();
            let history = random_history(&legal, &mut rng);
            let options = candidates(&pos, &legal, &before, &mut rng);
            for _ in 0..4 {
                let hash = options[rng.gen_range(0..options.len())];
                let killers = [0, 1].map(|_| options[rng.gen_range(0..options.len())]);
                let staged = default_picker(&pos, hash, killers);
                let full = generated_at_once(&pos, hash, killers);
                assert_eq!(staged.has_moves(), !legal.is_empty());
                let skip_from = rng.gen_range(1..40);
                let got = drain(staged, &pos, &history, usize::MAX);
                let want = drain(full, &pos, &history, usize::MAX);
                assert_eq!(
                    got, want,
                    "order differs in {pos:?}, hash {hash:?}, killers {killers:?}"
                );
                assert_each_legal_move_once(&got, &legal, &pos);
                let staged = default_picker(&pos, hash, killers);
                let full = generated_at_once(&pos, hash, killers);
                assert_eq!(
                    drain(staged, &pos, &history, skip_from),
                    drain(full, &pos, &history, skip_from),
                    "order differs after skipping quiet moves in {pos:?}"
                );
            }
        }
    }

    #[test]
    fn captures_that_lose_material_come_after_the_quiet_moves() {
        let mut rng = StdRng::seed_from_u64(11);
        let mut losing_seen = 0;
        for (pos, before) in positions() {
            let legal = pos.legal_moves();
            let history = random_history(&legal, &mut rng);
            let options = candidates(&pos, &legal, &before, &mut rng);
            let hash = options[rng.gen_range(0..options.len())];
            let got = drain(
                default_picker(&pos, hash, [None, None]),
                &pos,
                &history,
                usize::MAX,
            );
            assert_each_legal_move_once(&got, &legal, &pos);
            let rest = match hash.filter(|h| legal.contains(h)) {
                Some(h) => {
                    assert_eq!(got[0], h, "hash move not first in {pos:?}");
                    &got[1..]
                }
                None => &got[..],
            };
            let group = |mv: Move| match (is_tactical(&pos, mv), mv.is_promotion()) {
                (false, _) => 1,
                (true, true) => 0,
                (true, false) if see_ge(&pos, mv, 0) => 0,
                (true, false) => 2,
            };
            let groups: Vec<u8> = rest.iter().map(|&m| group(m)).collect();
            losing_seen += groups.iter().filter(|&&g| g == 2).count();
            assert!(
                groups.windows(2).all(|w| w[0] <= w[1]),
                "good tactical, quiet, losing captures out of order in {pos:?}: {groups:?}"
            );
        }
        assert!(
            losing_seen > 50,
            "too few losing captures seen: {losing_seen}"
        );
    }

    #[test]
    fn stale_hash_move_is_never_yielded() {
        let history = History::new();
        let mut stale_quiet = 0;
        for (pos, before) in positions() {
            let legal = pos.legal_moves();
            for &mv in before.iter().filter(|m| !legal.contains(m)) {
                stale_quiet += usize::from(!is_tactical(&pos, mv));
                let picker = default_picker(&pos, Some(mv), [Some(mv), None]);
                let got = drain(picker, &pos, &history, usize::MAX);
                assert!(!got.contains(&mv), "stale {mv:?} yielded in {pos:?}");
                assert_eq!(got.len(), legal.len());
            }
        }
        assert!(
            stale_quiet > 100,
            "too few stale quiet moves tried: {stale_quiet}"
        );
    }

    #[test]
    fn counter_move_comes_after_the_killers_and_before_other_quiet_moves() {
        let mut rng = StdRng::seed_from_u64(5);
        let mut counters_tried = 0;
        for (pos, before) in positions() {
            let legal = pos.legal_moves();
            let history = random_history(&legal, &mut rng);
            let options = candidates(&pos, &legal, &before, &mut rng);
            let killers = [0, 1].map(|_| options[rng.gen_range(0..options.len())]);
            let counter = options[rng.gen_range(0..options.len())];
            let got = drain(
                default_picker(&pos, None, killers).with_counter(counter),
                &pos,
                &history,
                usize::MAX,
            );
            let without = drain(
                default_picker(&pos, None, killers),
                &pos,
                &history,
                usize::MAX,
            );
            assert_eq!(
                got.len(),
                legal.len(),
                "not each legal move once in {pos:?}"
            );
            let legal_quiet =
                |m: &Option<Move>| m.filter(|m| legal.contains(m) && !is_tactical(&pos, *m));
            let Some(c) = legal_quiet(&counter).filter(|&c| !killers.contains(&Some(c))) else {
                assert_eq!(
                    got, without,
                    "a counter that is no new quiet move changed the order"
                );
                continue;
            };
            counters_tried += 1;
            let first_quiet = without
                .iter()
                .position(|m| !is_tactical(&pos, *m) && !killers.contains(&Some(*m)))
                .expect("the counter is a quiet move besides the killers");
            assert_eq!(
                got[first_quiet], c,
                "counter {c:?} not right after the killers in {pos:?}"
            );
            assert_eq!(
                got[..first_quiet],
                without[..first_quiet],
                "order before the counter changed"
            );
            assert_each_legal_move_once(&got, &legal, &pos);
        }
        assert!(
            counters_tried > 20,
            "too few legal quiet counters tried: {counters_tried}"
        );
    }
}
