//! One search thread: iterative deepening with aspiration windows over a principal-variation
//! alpha-beta search (check extension, reverse futility, late move reductions and pruning), and a quiescence
//! search over captures and promotions. Game ends are scored by the rules core's `outcome`
//! (royals captured, bare king, stalemate, Heian checkmate) with mate distances in plies;
//! repetitions inside the search are draws under `Repetition::Fourfold` (a loss for the side that
//! checked or attacked throughout the cycle) and illegal moves under `Repetition::Forbid`.
//!
//! On a clock, the main thread asks the mate solver after each iteration whether the best move
//! lets the opponent mate by checks (`threat`); such a move is left out at the root by every
//! thread, and the iteration is searched again with the time of a threatened move.
//!
//! The worker owns its position copy (whose undo stack answers repetition questions) and one
//! stack of per-ply state (the piece-square sum and the move that led to the ply), beside the
//! network's accumulator frames; it shares only the transposition table and the flags in
//! `Shared`.

use super::params::SearchParams;
use super::picker::{is_tactical, History, Picker};
use super::see::see_ge;
use super::shared::Shared;
use super::threat;
use super::time::{new_iteration_pct, TimePlan};
use super::tt::{Bound, TtEntry};
use super::{Score, SearchInfo};
use crate::board::attacks::tables;
use crate::board::{Bitboard, Family, Piece, Square};
use crate::eval::nnue::Network;
use crate::eval::{captured_value, Evaluator};
use crate::moves::Move;
use crate::position::{Outcome, Position};
use crate::rules::Repetition;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;

/// The score of capturing the last royal now; a mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this are mate scores.
pub(super) const MATE_BOUND: i32 = MATE - 1_000;
/// The largest static evaluation: below every mate score.
const MAX_EVAL: i32 = MATE_BOUND - 1_000;
/// Above every score: the open window's bounds.
pub(super) const INFINITY: i32 = MATE + 1;
/// The deepest ply the search reaches from the root.
pub const MAX_PLY: usize = 120;

/// What the main thread must watch besides the stop flag.
#[derive(Clone, Copy, Debug)]
pub(super) struct Budget {
    pub plan: TimePlan,
    pub max_depth: i32,
    pub max_nodes: Option<u64>,
    /// Infinite analysis: the search goes on until `stop`.
    pub infinite: bool,
    /// Principal variations the main thread reports (helpers search one).
    pub multipv: usize,
    /// The tunable numbers of search, ordering and time management.
    pub params: SearchParams,
    /// The plan for a move under a mate threat (`threat`), where the clock allows one and the
    /// params ask for the look.
    pub threat_plan: Option<TimePlan>,
}

/// The result of a worker's iterative deepening.
#[derive(Clone, Debug, Default)]
pub(super) struct Finding {
    pub pv: Vec<Move>,
    pub score: i32,
    pub depth: i32,
    pub seldepth: i32,
}

pub(super) struct Worker<'a> {
    shared: &'a Shared,
    id: usize,
    pos: Position,
    history: &'a mut History,
    budget: Budget,
    /// The move that led to each position of the current line (`None` for the root): what
    /// make pushes and unmake pops.
    moves: Vec<Option<Move>>,
    /// The static evaluation, following make and unmake.
    eval: Evaluator,
    killers: Vec<[Option<Move>; 2]>,
    pv: Vec<Vec<Move>>,
    lmr: Vec<[u8; 64]>,
    nodes: u64,
    seldepth: i32,
    stopped: bool,
    root_found: bool,
    root_score: i32,
    /// Root moves left out while searching the second and later MultiPV lines.
    excluded: Vec<Move>,
    /// Root moves that let the opponent mate (`threat`), left out for the rest of the search.
    refuted: Vec<Move>,
    /// Best moves of earlier iterations that the mate solver did not refute.
    safe: Vec<Move>,
    /// Legal moves at the root (counted only where mate threats are asked).
    root_moves: usize,
}

#[inline]
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline]
fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The protocol-facing score: mate in plies, or centipawns.
pub(super) fn to_score(score: i32) -> Score {
    if score > MATE_BOUND {
        Score::Mate(MATE - score)
    } else if score < -MATE_BOUND {
        Score::Mate(-(MATE + score))
    } else {
        Score::Cp(score)
    }
}

/// The progress report for `found`, counting at least `own_nodes` (a thread's unflushed count).
pub(super) fn report_for(shared: &Shared, found: &Finding, own_nodes: u64) -> SearchInfo {
    let elapsed = shared.base.elapsed();
    let nodes = shared.total_nodes().max(own_nodes);
    SearchInfo {
        depth: found.depth.max(0) as u32,
        seldepth: found.seldepth.max(found.depth).max(0) as u32,
        multipv: 1,
        score: to_score(found.score),
        nodes,
        nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
        time: elapsed,
        hashfull: shared.table.hashfull(),
        pv: found.pv.clone(),
    }
}

/// One node of the main search: its window and circumstances.
#[derive(Clone, Copy)]
struct Node {
    alpha: i32,
    beta: i32,
    depth: i32,
    ply: usize,
    is_pv: bool,
    in_check: bool,
}

/// The table's score for this node if its entry is deep enough to decide it (non-PV only).
fn tt_cut(e: TtEntry, is_pv: bool, depth: i32, alpha: i32, beta: i32, ply: usize) -> Option<i32> {
    if is_pv || e.depth < depth {
        return None;
    }
    let s = score_from_tt(e.score, ply);
    let cut = match e.bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
    };
    cut.then_some(s)
}

fn outcome_score(pos: &Position, outcome: Outcome, ply: usize) -> i32 {
    match outcome.winner {
        None => 0,
        Some(c) if c == pos.side_to_move() => MATE - ply as i32,
        Some(_) => -(MATE - ply as i32),
    }
}

impl<'a> Worker<'a> {
    pub(super) fn new(
        shared: &'a Shared,
        id: usize,
        pos: &Position,
        history: &'a mut History,
        budget: Budget,
        net: Option<Arc<Network>>,
    ) -> Worker<'a> {
        Worker {
            shared,
            id,
            pos: pos.clone(),
            history,
            budget,
            moves: vec![None],
            eval: Evaluator::new(net, pos, MAX_PLY + 2),
            root_score: 0,
            killers: vec![[None, None]; MAX_PLY + 2],
            pv: vec![Vec::new(); MAX_PLY + 2],
            lmr: budget.params.lmr_table(),
            nodes: 0,
            seldepth: 0,
            stopped: false,
            root_found: false,
            excluded: Vec::new(),
            refuted: Vec::new(),
            safe: Vec::new(),
            root_moves: budget.threat_plan.map_or(0, |_| pos.legal_moves().len()),
        }
    }

    /// Iterative deepening; the main thread (id 0) reports through `on_info` and owns time.
    pub(super) fn think(&mut self, mut on_info: Option<&mut dyn FnMut(&SearchInfo)>) -> Finding {
        let mut found = Finding::default();
        let mut prev_score = 0;
        let mut stable_iterations = 0usize;
        let mut last_best: Option<Move> = None;
        let mut depth = 1;
        while depth <= self.budget.max_depth {
            if self.id > 0
                && depth > 2
                && (depth + self.id as i32) % 2 == 0
                && depth < self.budget.max_depth
            {
                depth += 1;
            }
            if self.id > 0 {
                self.refuted = self.shared.refuted();
            }
            self.root_found = false;
            self.seldepth = 0;
            let score = self.aspiration(depth, prev_score);
            let complete = !self.stopped;
            if complete || self.root_found {
                if let Some(&best) = self.pv[0].first() {
                    found = Finding {
                        pv: self.pv[0].clone(),
                        score: if complete { score } else { self.root_score },
                        depth: if complete {
                            depth
                        } else {
                            found.depth.max(depth - 1)
                        },
                        seldepth: self.seldepth,
                    };
                    debug_assert!(self.pos.is_legal(best));
                }
            }
            if !complete {
                break;
            }
            if self.id == 0 && self.refute_best(&found) {
                continue;
            }
            let score_fell =
                depth > 1 && prev_score - score >= self.budget.params.score_drop_margin;
            prev_score = score;
            let extra_lines = if self.id == 0 {
                self.other_lines(depth, &found)
            } else {
                Vec::new()
            };
            if let Some(report) = on_info.as_deref_mut() {
                report(&self.info(&found));
                for (k, line) in extra_lines.iter().enumerate() {
                    let mut info = self.info(line);
                    info.multipv = k as u32 + 2;
                    report(&info);
                }
            }
            stable_iterations = if depth > 1 && found.pv.first() == last_best.as_ref() {
                stable_iterations + 1
            } else {
                0
            };
            last_best = found.pv.first().copied();
            if self.id == 0
                && self.out_of_time_for_next_iteration(depth, stable_iterations, score_fell)
            {
                break;
            }
            if score.abs() > MATE_BOUND && MATE - score.abs() < depth {
                // A mate found within the full-width horizon cannot get shorter.
                if self.id == 0 && !self.waiting_for_gui() {
                    break;
                }
            }
            if self.id > 0 && depth >= self.budget.max_depth && !self.waiting_for_gui() {
                // A helper reached the requested depth first: its answer ends the search.
                self.shared.request_stop();
            }
            depth += 1;
        }
        self.flush_nodes();
        found
    }

    /// MultiPV: the second and later best lines at `depth`, each searched with a full window
    /// and the root moves of the lines before it left out. A line cut short by `stop` is dropped.
    fn other_lines(&mut self, depth: i32, best: &Finding) -> Vec<Finding> {
        let wanted = self.budget.multipv.min(self.pos.legal_moves().len());
        let mut lines = Vec::new();
        let Some(&first) = best.pv.first() else {
            return lines;
        };
        self.excluded.push(first);
        while self.excluded.len() < wanted {
            self.pv[0].clear();
            self.root_found = false;
            self.seldepth = 0;
            let score = self.search(-INFINITY, INFINITY, depth, 0, true);
            if self.stopped || !self.root_found {
                break;
            }
            let pv = self.pv[0].clone();
            self.excluded.push(pv[0]);
            lines.push(Finding {
                pv,
                score,
                depth,
                seldepth: self.seldepth,
            });
        }
        self.excluded.clear();
        self.pv[0] = best.pv.clone();
        lines
    }

    /// After an iteration of the main thread: whether its best move lets the opponent mate
    /// (`threat`). Such a move is left out at the root by every thread from then on, and the
    /// move gets the time of a threatened one. The last root move is never left out.
    fn refute_best(&mut self, found: &Finding) -> bool {
        let Some(plan) = self.budget.threat_plan else {
            return false;
        };
        let Some(&best) = found.pv.first() else {
            return false;
        };
        if self.safe.contains(&best) || self.refuted.len() + 1 >= self.root_moves {
            return false;
        }
        if !threat::lets_opponent_mate(&mut self.pos, best, &self.budget.params) {
            self.safe.push(best);
            return false;
        }
        self.refuted.push(best);
        self.shared.refute(best);
        self.budget.plan = plan;
        true
    }

    /// Infinite and ponder searches must not end before the GUI says so.
    fn waiting_for_gui(&self) -> bool {
        self.shared.pondering.load(Relaxed) || self.budget.infinite
    }

    fn info(&self, found: &Finding) -> SearchInfo {
        report_for(self.shared, found, self.nodes)
    }

    /// Whether a new iteration would likely not finish in time (`time::new_iteration_pct`), once
    /// `depth`, the iteration just completed, reaches the family's minimum depth.
    fn out_of_time_for_next_iteration(
        &self,
        depth: i32,
        stable_iterations: usize,
        score_fell: bool,
    ) -> bool {
        let params = &self.budget.params;
        if self.shared.pondering.load(Relaxed) || depth < params.min_depth(self.pos.family()) {
            return false;
        }
        let pct = new_iteration_pct(params, stable_iterations, score_fell);
        match self.budget.plan.target {
            Some(target) => self.shared.clock_elapsed() > target * pct / 100,
            None => false,
        }
    }

    fn aspiration(&mut self, depth: i32, prev: i32) -> i32 {
        let params = &self.budget.params;
        let give_up = params.aspiration_give_up;
        let mut delta = params.aspiration_delta;
        let (mut alpha, mut beta) =
            if depth >= params.aspiration_min_depth && prev.abs() < MATE_BOUND {
                (prev - delta, prev + delta)
            } else {
                (-INFINITY, INFINITY)
            };
        loop {
            let score = self.search(alpha, beta, depth, 0, true);
            if self.stopped {
                return score;
            }
            if score <= alpha && alpha > -INFINITY {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta && beta < INFINITY {
                beta = (score + delta).min(INFINITY);
            } else {
                return score;
            }
            delta *= 2;
            if delta > give_up {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    fn flush_nodes(&self) {
        self.shared.nodes[self.id].0.store(self.nodes, Relaxed);
    }

    /// Counts a node; every 1024 nodes publishes the count and (main thread) checks the clock.
    #[inline]
    fn visit(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.flush_nodes();
            if self.id == 0 {
                self.check_limits();
            }
        }
        if self.shared.stopped() {
            self.stopped = true;
        }
        self.stopped
    }

    fn check_limits(&self) {
        if let Some(max) = self.budget.max_nodes {
            if self.shared.total_nodes() >= max {
                self.shared.request_stop();
            }
        }
        if self.shared.pondering.load(Relaxed) {
            return;
        }
        if let Some(hard) = self.budget.plan.hard {
            if self.shared.clock_elapsed() >= hard {
                self.shared.request_stop();
            }
        }
    }

    /// Plays `mv` on the position, its accumulator and the ply stack. Where the child will probe
    /// the table (`child_probes`: a main-search child, not a quiescence one), its bucket is
    /// fetched while the accumulator is updated.
    fn make(&mut self, mv: Move, child_probes: bool) {
        let change = self.eval.change(&self.pos, mv);
        self.pos.play(mv);
        if child_probes {
            self.shared.table.prefetch(self.pos.key());
        }
        self.eval.push(&self.pos, change);
        self.moves.push(Some(mv));
    }

    /// The static evaluation of the current position, the side to move's view, held below
    /// the mate scores, so that no evaluation reads as a mate.
    fn static_eval(&self) -> i32 {
        self.eval.evaluate(&self.pos).clamp(-MAX_EVAL, MAX_EVAL)
    }

    fn unmake(&mut self) {
        self.pos.undo();
        self.eval.pop();
        self.moves.pop();
    }

    /// Plies back to where the current position occurred earlier since the last irreversible
    /// move, the most recent occurrence (the position's history is the one owner of this).
    fn repetition(&self) -> Option<usize> {
        self.pos.last_repetition()
    }

    /// The score of a repetition under `Fourfold` (docs/rules.md section 8), taken as if the cycle
    /// went on to the fourth occurrence: the game layer's verdict on the cycle (a loss for a side
    /// whose every move in it was a check or an attack while the other's were not, otherwise a
    /// draw), from the moves taken back on a copy (rare enough not to cost speed).
    fn repetition_score(&self, cycle: usize, ply: usize) -> i32 {
        crate::game::repetition::cycle_outcome_of(&self.pos, cycle)
            .map_or(0, |outcome| outcome_score(&self.pos, outcome, ply))
    }

    #[inline]
    fn forbid_repetition(&self) -> bool {
        self.pos.rules().repetition == Repetition::Forbid
    }

    fn search(&mut self, alpha: i32, beta: i32, depth: i32, ply: usize, is_pv: bool) -> i32 {
        if ply > 0 {
            self.pv[ply].clear();
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.qsearch(alpha, beta, ply, 0);
        }
        if self.visit() {
            return 0;
        }
        let (alpha, beta) = match self.node_window(alpha, beta, ply) {
            Ok(window) => window,
            Err(score) => return score,
        };
        let key = self.pos.key();
        let entry = self.shared.table.probe(key);
        if let Some(score) = entry.and_then(|e| tt_cut(e, is_pv, depth, alpha, beta, ply)) {
            return score;
        }
        let in_check = self.pos.in_check(self.pos.side_to_move());
        // A royal under attack is searched a ply deeper: the threat must be answered, and the
        // few replies are cheap to look at.
        let depth = if in_check && ply > 0 {
            depth + self.budget.params.check_extension
        } else {
            depth
        };
        let node = Node {
            alpha,
            beta,
            depth,
            ply,
            is_pv,
            in_check,
        };
        if let Some(score) = self.reverse_futility(&node) {
            return score;
        }
        self.search_moves(node, key, entry.and_then(|e| e.mv))
    }

    /// Ends a node before its moves are searched (royals gone, repetition, game over) with its
    /// score, or narrows the window by the mate distance.
    fn node_window(&self, mut alpha: i32, mut beta: i32, ply: usize) -> Result<(i32, i32), i32> {
        if ply == 0 {
            return Ok((alpha, beta));
        }
        let us = self.pos.side_to_move();
        if self.pos.royals(us).is_empty() {
            return Err(-(MATE - ply as i32));
        }
        if !self.forbid_repetition() {
            if let Some(cycle) = self.repetition() {
                return Err(self.repetition_score(cycle, ply));
            }
        }
        if self.pos.is_over_before_moves() {
            if let Some(o) = self.pos.outcome() {
                return Err(outcome_score(&self.pos, o, ply));
            }
        }
        alpha = alpha.max(-(MATE - ply as i32));
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return Err(alpha);
        }
        Ok((alpha, beta))
    }

    /// Reverse futility: a non-PV node so far above beta that a shallow search would not fall
    /// below it returns its static evaluation.
    fn reverse_futility(&self, node: &Node) -> Option<i32> {
        let params = &self.budget.params;
        if node.is_pv
            || node.in_check
            || node.ply == 0
            || node.depth > params.rfp_max_depth
            || node.beta.abs() >= MATE_BOUND
        {
            return None;
        }
        let static_eval = self.static_eval();
        (static_eval - params.rfp_margin * node.depth >= node.beta).then_some(static_eval)
    }

    /// The move loop of `search`: every move by the picker's order, late moves pruned and
    /// reduced, the result stored in the table.
    fn search_moves(&mut self, mut node: Node, key: u64, hash_move: Option<Move>) -> i32 {
        let Node { depth, ply, .. } = node;
        let params = &self.budget.params;
        let mut picker = Picker::new(&self.pos, hash_move, self.killers[ply], params).with_counter(
            self.previous_move_key()
                .and_then(|(m, to)| self.history.counter(m, to)),
        );
        if !picker.has_moves() {
            let outcome = self.pos.outcome_given_moves(false);
            return outcome.map_or(0, |o| outcome_score(&self.pos, o, ply));
        }
        let original_alpha = node.alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut legal = 0usize;
        let mut quiets_tried: smallvec::SmallVec<[Move; 32]> = smallvec::SmallVec::new();
        let late_move_limit = (!node.is_pv && !node.in_check && depth <= params.lmp_max_depth)
            .then(|| params.lmp_moves(self.pos.family(), depth) as usize);
        let quiet_cap = params.quiet_cap;
        while let Some(mv) = picker.next(&self.pos, self.history) {
            if ply == 0 && (self.excluded.contains(&mv) || self.refuted.contains(&mv)) {
                continue;
            }
            let tactical = is_tactical(&self.pos, mv);
            if late_move_limit.is_some_and(|limit| legal >= limit) && !tactical {
                picker.skip_quiets();
                continue;
            }
            // A child at depth 0 or less goes to quiescence, which does not probe.
            self.make(mv, depth >= 2);
            if self.forbid_repetition() && self.repetition().is_some() {
                self.unmake();
                continue;
            }
            legal += 1;
            let score = self.search_move(&node, legal, tactical);
            self.unmake();
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(mv);
                if score > node.alpha {
                    node.alpha = score;
                    self.new_best_line(mv, score, &node);
                    if score >= node.beta {
                        if !tactical {
                            self.reward_quiet(mv, ply, depth, &quiets_tried);
                        }
                        break;
                    }
                }
            }
            if !tactical && quiets_tried.len() < quiet_cap {
                quiets_tried.push(mv);
            }
        }
        if legal == 0 {
            // Every move repeats a position where repeats are forbidden: no legal move.
            return -(MATE - ply as i32);
        }
        let bound = if best_score >= node.beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if ply > 0 || self.excluded.is_empty() {
            let score = score_to_tt(best_score, ply);
            self.shared.table.store(key, best_move, score, depth, bound);
        }
        best_score
    }

    /// The score of the move just made, the `legal`-th searched at `node`: the first with the
    /// full window, later ones with a null window (reduced when late and quiet), searched again
    /// when they beat alpha.
    fn search_move(&mut self, node: &Node, legal: usize, tactical: bool) -> i32 {
        let (alpha, beta, depth, ply) = (node.alpha, node.beta, node.depth, node.ply);
        if legal == 1 {
            return -self.search(-beta, -alpha, depth - 1, ply + 1, node.is_pv);
        }
        let params = &self.budget.params;
        let mut reduction = 0;
        if depth >= params.lmr_min_depth
            && legal > params.lmr_min_moves
            && !tactical
            && !node.in_check
        {
            let r = self.lmr[(depth as usize).min(63)][legal.min(63)] as i32;
            let pv_less = if node.is_pv { params.lmr_pv_less } else { 0 };
            reduction = (r - pv_less).clamp(0, depth - 2);
        }
        let mut s = -self.search(-alpha - 1, -alpha, depth - 1 - reduction, ply + 1, false);
        if s > alpha && reduction > 0 {
            s = -self.search(-alpha - 1, -alpha, depth - 1, ply + 1, false);
        }
        if s > alpha && s < beta && node.is_pv {
            s = -self.search(-beta, -alpha, depth - 1, ply + 1, true);
        }
        s
    }

    /// A PV node's new best move: its line becomes `mv` and the child's line.
    fn new_best_line(&mut self, mv: Move, score: i32, node: &Node) {
        if !node.is_pv {
            return;
        }
        let ply = node.ply;
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
        if ply == 0 {
            self.root_found = true;
            self.root_score = score;
        }
    }

    /// The piece that made the last move and where it went, the key of the counter-move table
    /// (Chu only: in Heian counter moves did not gain).
    /// The move that led to the current ply (`None` at the root).
    fn last_move(&self) -> Option<Move> {
        self.moves.last().copied().flatten()
    }

    fn previous_move_key(&self) -> Option<(Piece, Square)> {
        if self.pos.family() != Family::Chu {
            return None;
        }
        let last = self.last_move().filter(|m| !m.is_pass())?;
        Some((self.pos.piece_at(last.to()), last.to()))
    }

    fn reward_quiet(&mut self, mv: Move, ply: usize, depth: i32, tried: &[Move]) {
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        if let Some((mover, to)) = self.previous_move_key() {
            self.history.set_counter(mover, to, mv);
        }
        let us = self.pos.side_to_move();
        let max = self.budget.params.history_max;
        let bonus = depth * depth * self.budget.params.history_bonus;
        self.history.update(us, mv, bonus, max);
        for &q in tried {
            self.history.update(us, q, -bonus, max);
        }
    }

    /// In Chu, where nothing forbids leaving a royal attacked, whether the quiescence search
    /// must answer an attack on the side to move's only royal: then that royal's square and the
    /// squares between it and its attackers on a line. Every move that may save the royal takes
    /// a piece, moves the royal or lands on one of those squares.
    fn chu_evasion_squares(&self) -> Option<(Square, Bitboard)> {
        if self.pos.family().descriptor().check_rule || self.budget.params.qsearch_chu_evasions == 0
        {
            return None;
        }
        let us = self.pos.side_to_move();
        let royal = self.pos.royals(us).single()?;
        let occupied = self.pos.occupied();
        let attackers = self.pos.attackers_to(royal, !us, occupied);
        if attackers.is_empty() {
            return None;
        }
        let t = tables();
        let mut blocks = Bitboard::EMPTY;
        for dir in 0..8 {
            let ray = t.ray(dir, royal);
            for attacker in ray & attackers {
                blocks |= ray & !t.ray(dir, attacker) & !Bitboard::from_square(attacker);
            }
        }
        Some((royal, blocks))
    }

    /// Whether the quiescence search passes over `mv` at its `qply`-th ply: late in the
    /// captures, anything but a recapture on `last_to`; a capture that cannot lift the stand-pat
    /// score to alpha or loses material by static exchange; a promotion that loses material,
    /// where the family's parameters say so.
    fn qsearch_skips(
        &self,
        mv: Move,
        stand_pat: i32,
        alpha: i32,
        qply: i32,
        last_to: Option<Square>,
    ) -> bool {
        let params = &self.budget.params;
        let family = self.pos.family();
        if qply >= params.qsearch_recapture_only_after(family) && Some(mv.to()) != last_to {
            return true;
        }
        if mv.is_promotion() {
            return params.qsearch_promotion_see(family) && !see_ge(&self.pos, mv, 0);
        }
        stand_pat + captured_value(&self.pos, mv) + params.delta_margin <= alpha
            || !see_ge(&self.pos, mv, 0)
    }

    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, qply: i32) -> i32 {
        if self.visit() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply as i32);
        let us = self.pos.side_to_move();
        if self.pos.royals(us).is_empty() {
            return -(MATE - ply as i32);
        }
        if self.pos.is_over_before_moves() {
            if let Some(o) = self.pos.outcome() {
                return outcome_score(&self.pos, o, ply);
            }
        }
        if ply >= MAX_PLY {
            return self.static_eval();
        }
        let chu_evasion = self.chu_evasion_squares();
        let evasions = chu_evasion.is_some()
            || (self.pos.family().descriptor().check_rule && self.pos.in_check(us));
        let stand_pat = if chu_evasion.is_some() {
            // A move that does not save the royal loses it on the next ply.
            -(MATE - ply as i32 - 2)
        } else if evasions {
            -INFINITY
        } else {
            self.static_eval()
        };
        if stand_pat >= beta {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let mut picker = if evasions {
            Picker::new(&self.pos, None, [None, None], &self.budget.params)
        } else {
            Picker::tactical(&self.pos, &self.budget.params)
        };
        if evasions && !picker.has_moves() {
            let outcome = self.pos.outcome_given_moves(false);
            return outcome.map_or(0, |o| outcome_score(&self.pos, o, ply));
        }
        let last_to = self.last_move().filter(|m| !m.is_pass()).map(|m| m.to());
        let mut best = stand_pat;
        while let Some(mv) = picker.next(&self.pos, self.history) {
            if let Some((royal, blocks)) = chu_evasion {
                if mv.from() != royal && !blocks.has(mv.to()) && !is_tactical(&self.pos, mv) {
                    continue;
                }
            }
            if !evasions && self.qsearch_skips(mv, stand_pat, alpha, qply, last_to) {
                continue;
            }
            self.make(mv, false);
            let score = -self.qsearch(-beta, -alpha, ply + 1, qply + 1);
            self.unmake();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
