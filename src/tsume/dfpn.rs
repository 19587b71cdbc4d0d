//! Depth-first proof-number search (df-pn, Nagai 2002) with the 1+epsilon trick (Pawlewicz and
//! Lew 2007): each child is searched until its proof or disproof number passes a threshold set by
//! its best sibling, widened by a quarter, which avoids the thrashing of plain df-pn. Proof and
//! disproof numbers live in the solver's own table, bounded by `MateLimits::table_mb`; when it
//! is full, the entries with the least work below them go first (proofs and disproofs stay).
//!
//! A proven entry also keeps the number of plies to the end along its proof (the shortest over
//! the attacker's proven moves, the longest over the defender's escapes), so the line given is
//! the shortest mate the proof establishes, with the defender's longest resistance.

use super::rules::{checks, escapes, royals_gone};
use crate::board::Color;
use crate::movegen::{generate, MoveList};
use crate::moves::Move;
use crate::platform::{Instant, StopSignal};
use crate::position::Position;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

/// "Infinite" proof or disproof number: proven or disproven.
const INF: u32 = u32::MAX / 4;
/// Deeper than this the attack is taken as failed (a path-dependent failure, not stored).
const MAX_PLIES: usize = 250;
/// Approximate bytes one table entry costs in the hash map.
const ENTRY_BYTES: usize = 48;

/// When the solver must give up.
#[derive(Clone, Debug)]
pub struct MateLimits {
    /// Wall-clock budget from the start of the solve.
    pub time: Option<Duration>,
    /// Node budget: positions the solver expands.
    pub nodes: Option<u64>,
    /// Memory for the proof table, in MiB.
    pub table_mb: usize,
    /// Interrupts the solver (`stop`): set from another thread, or polled by the solver.
    pub stop: Option<Arc<StopSignal>>,
}

impl Default for MateLimits {
    fn default() -> Self {
        MateLimits {
            time: None,
            nodes: None,
            table_mb: 64,
            stop: None,
        }
    }
}

/// What the solver established.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateOutcome {
    /// A forced mate: the attacker's moves and the defender's longest resistance, in plies.
    Mate(Vec<Move>),
    /// The attacker has no forced mate by checks.
    NoMate,
    /// Time, nodes or `stop` ended the search first.
    Timeout,
}

/// The solver's answer with what it cost, and the proof for a verifier.
#[derive(Clone, Debug)]
pub struct MateReport {
    /// The answer.
    pub outcome: MateOutcome,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall-clock time the solve took.
    pub elapsed: Duration,
    /// For every attacker position of the proof (by key), the move the proof plays there.
    pub proof: HashMap<u64, Move>,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    pn: u32,
    dn: u32,
    /// Plies to the end along the proof, for proven entries.
    dist: u16,
    /// Nodes searched below this entry, for replacement.
    work: u64,
}

impl Entry {
    fn proven(dist: u16) -> Entry {
        Entry {
            pn: 0,
            dn: INF,
            dist,
            work: 0,
        }
    }

    fn disproven() -> Entry {
        Entry {
            pn: INF,
            dn: 0,
            dist: 0,
            work: 0,
        }
    }

    fn settled(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}

#[inline]
fn add(a: u32, b: u32) -> u32 {
    a.saturating_add(b).min(INF)
}

/// A move of the node and the position it leads to.
#[derive(Clone, Copy)]
struct Child {
    mv: Move,
    key: u64,
    /// The attacker's move takes the defender's last royal.
    wins: bool,
}

struct Solver {
    pos: Position,
    attacker: Color,
    /// The attacker started with a royal: losing its last one loses the problem.
    attacker_royal: bool,
    table: HashMap<u64, Entry>,
    capacity: usize,
    path: Vec<u64>,
    nodes: u64,
    limits: MateLimits,
    start: Instant,
    stopped: bool,
}

/// Solves the tsume in `pos` (the side to move attacks) within `limits`.
pub fn solve(pos: &Position, limits: MateLimits) -> MateReport {
    let capacity = (limits.table_mb.max(1) * 1024 * 1024 / ENTRY_BYTES).max(1024);
    let mut solver = Solver {
        pos: pos.clone(),
        attacker: pos.side_to_move(),
        attacker_royal: pos.royals(pos.side_to_move()).any(),
        table: HashMap::new(),
        capacity,
        path: Vec::new(),
        nodes: 0,
        limits,
        start: Instant::now(),
        stopped: false,
    };
    let root = loop {
        let e = solver.mid(INF - 1, INF - 1);
        if e.settled() || solver.stopped {
            break e;
        }
    };
    let outcome = if root.pn == 0 {
        MateOutcome::Mate(solver.line())
    } else if root.dn == 0 {
        MateOutcome::NoMate
    } else {
        MateOutcome::Timeout
    };
    let proof = if root.pn == 0 {
        solver.proof_moves()
    } else {
        HashMap::new()
    };
    MateReport {
        outcome,
        nodes: solver.nodes,
        elapsed: solver.start.elapsed(),
        proof,
    }
}

impl Solver {
    fn is_attacker_to_move(&self) -> bool {
        self.pos.side_to_move() == self.attacker
    }

    /// The stop signal at every node (it polls the host only now and then); the clock and the
    /// node budget every 1024 nodes.
    fn check_limits(&mut self) {
        let stop = self.limits.stop.as_ref().is_some_and(|s| s.is_set());
        if self.nodes & 1023 != 1 {
            self.stopped |= stop;
            return;
        }
        let time = self.limits.time.is_some_and(|t| self.start.elapsed() >= t);
        let nodes = self.limits.nodes.is_some_and(|n| self.nodes >= n);
        self.stopped |= stop || time || nodes;
    }

    fn child_entry(&self, child: &Child) -> Entry {
        if child.wins {
            return Entry::proven(0);
        }
        if self.path.contains(&child.key) {
            return Entry::disproven();
        }
        self.table.get(&child.key).copied().unwrap_or(Entry {
            pn: 1,
            dn: 1,
            dist: 0,
            work: 0,
        })
    }

    fn store(&mut self, key: u64, entry: Entry) {
        self.table.insert(key, entry);
        if self.table.len() > self.capacity {
            self.collect_garbage();
        }
    }

    /// Drops the open entries with the least work below them until the table is 3/4 full.
    fn collect_garbage(&mut self) {
        let mut work: Vec<u64> = self
            .table
            .values()
            .filter(|e| !e.settled())
            .map(|e| e.work)
            .collect();
        let excess = self.table.len().saturating_sub(self.capacity * 3 / 4);
        if work.is_empty() || excess == 0 {
            return;
        }
        let cut = excess.min(work.len()) - 1;
        let (_, &mut threshold, _) = work.select_nth_unstable(cut);
        self.table.retain(|_, e| e.settled() || e.work > threshold);
    }

    /// The moves of the side to move that the tsume allows, and whether it is mated (defender
    /// with no escape) at once.
    fn children(&mut self) -> (MoveList, bool) {
        if self.attacker_royal && royals_gone(&self.pos, self.attacker) {
            // The defender took the attacker's last royal: the attack has failed.
            return (MoveList::new(), false);
        }
        if self.is_attacker_to_move() {
            (checks(&mut self.pos), false)
        } else {
            let list = escapes(&mut self.pos);
            let mated = list.is_empty();
            (list, mated)
        }
    }

    /// Plies from a defender with no escape to the end: none when it has no legal move at all
    /// (checkmate, or a stalemate lost under the rules), two in Chu where it must still move and
    /// the attacker then takes its royal.
    fn mated_distance(&self) -> u16 {
        let mut all = MoveList::new();
        if !royals_gone(&self.pos, self.pos.side_to_move()) {
            generate(&self.pos, &mut all);
        }
        if all.is_empty() {
            0
        } else {
            2
        }
    }

    fn mid(&mut self, th_pn: u32, th_dn: u32) -> Entry {
        self.nodes += 1;
        self.check_limits();
        let key = self.pos.key();
        let or = self.is_attacker_to_move();
        let (moves, mated) = self.children();
        if moves.is_empty() {
            let e = if mated {
                Entry::proven(self.mated_distance())
            } else {
                Entry::disproven()
            };
            self.store(key, e);
            return e;
        }
        if self.path.len() >= MAX_PLIES {
            return Entry::disproven();
        }
        let children = self.child_list(&moves);
        let work_before = self.nodes;
        self.path.push(key);
        let entry = loop {
            // Per child, `m` is the number this node minimises (the child's delta) and `s` the
            // one it sums (the child's phi): pn and dn at an OR node, dn and pn at an AND node.
            let (mut best, mut phi, mut second, mut delta) = (0, INF, INF, 0);
            for (i, child) in children.iter().enumerate() {
                let (m, s) = Self::m_s(self.child_entry(child), or);
                delta = add(delta, s);
                if m < phi {
                    second = phi;
                    phi = m;
                    best = i;
                } else if m < second {
                    second = m;
                }
            }
            let (pn, dn) = if or { (phi, delta) } else { (delta, phi) };
            if pn == 0 || dn == 0 || pn >= th_pn || dn >= th_dn || self.stopped {
                break self.summarise(&children, pn, dn, or);
            }
            let (th_phi, th_delta) = if or { (th_pn, th_dn) } else { (th_dn, th_pn) };
            let (_, best_s) = Self::m_s(self.child_entry(&children[best]), or);
            let widened = ((second as u64 * 5 / 4) + 1).min(INF as u64) as u32;
            let th_m = th_phi.min(widened);
            let th_s = add(th_delta - delta, best_s);
            let (child_th_pn, child_th_dn) = if or { (th_m, th_s) } else { (th_s, th_m) };
            self.pos.play(children[best].mv);
            self.mid(child_th_pn, child_th_dn);
            self.pos.undo();
        };
        self.path.pop();
        let entry = Entry {
            work: self.nodes - work_before,
            ..entry
        };
        self.store(key, entry);
        entry
    }

    /// A child's numbers as (minimised, summed) by its parent.
    #[inline]
    fn m_s(e: Entry, parent_is_or: bool) -> (u32, u32) {
        if parent_is_or {
            (e.pn, e.dn)
        } else {
            (e.dn, e.pn)
        }
    }

    /// The node's entry from its children's numbers, with the distance when proven.
    fn summarise(&self, children: &[Child], pn: u32, dn: u32, or: bool) -> Entry {
        if pn != 0 {
            return Entry {
                pn,
                dn,
                dist: 0,
                work: 0,
            };
        }
        let dists = children.iter().filter_map(|c| {
            let e = self.child_entry(c);
            (e.pn == 0).then_some(e.dist)
        });
        let dist = if or { dists.min() } else { dists.max() }.unwrap_or(0);
        Entry::proven(dist.saturating_add(1))
    }

    /// The proven child the line follows: the attacker's shortest, the defender's longest.
    fn line_child(&mut self, children: &[Child], or: bool) -> Option<(Move, u16)> {
        let proven = children.iter().filter_map(|c| {
            let e = self.child_entry(c);
            (e.pn == 0).then_some((c.mv, e.dist))
        });
        if or {
            proven.min_by_key(|&(_, d)| d)
        } else {
            proven.max_by_key(|&(_, d)| d)
        }
    }

    fn child_list(&mut self, moves: &MoveList) -> Vec<Child> {
        let or = self.is_attacker_to_move();
        let defender = !self.attacker;
        moves
            .iter()
            .map(|&mv| {
                self.pos.play(mv);
                let child = Child {
                    mv,
                    key: self.pos.key(),
                    wins: or && royals_gone(&self.pos, defender),
                };
                self.pos.undo();
                child
            })
            .collect()
    }

    /// The proven line from the root.
    fn line(&mut self) -> Vec<Move> {
        let mut line = Vec::new();
        let plies = self.pos.plies_played();
        self.path.clear();
        while line.len() < MAX_PLIES {
            if royals_gone(&self.pos, !self.attacker) {
                break;
            }
            let or = self.is_attacker_to_move();
            let (moves, mated) = self.children();
            let next = if mated {
                // Chu: the defender must still move; any move loses the royal.
                let mut all = MoveList::new();
                generate(&self.pos, &mut all);
                all.first().copied()
            } else {
                let children = self.child_list(&moves);
                self.line_child(&children, or).map(|(mv, _)| mv)
            };
            let Some(mv) = next else {
                break;
            };
            line.push(mv);
            self.pos.play(mv);
        }
        while self.pos.plies_played() > plies {
            self.pos.undo();
        }
        line
    }

    /// The attacker's move at every attacker position of the proof tree.
    fn proof_moves(&mut self) -> HashMap<u64, Move> {
        let mut proof = HashMap::new();
        self.path.clear();
        self.collect_proof(&mut proof);
        proof
    }

    fn collect_proof(&mut self, proof: &mut HashMap<u64, Move>) {
        let key = self.pos.key();
        let or = self.is_attacker_to_move();
        if (or && proof.contains_key(&key)) || self.path.len() >= MAX_PLIES {
            return;
        }
        let (moves, mated) = self.children();
        if mated {
            return;
        }
        let children = self.child_list(&moves);
        let chosen: Vec<Move> = if or {
            match self.line_child(&children, true) {
                Some((mv, _)) => {
                    proof.insert(key, mv);
                    vec![mv]
                }
                None => Vec::new(),
            }
        } else {
            children.iter().map(|c| c.mv).collect()
        };
        self.path.push(key);
        for mv in chosen {
            self.pos.play(mv);
            if !royals_gone(&self.pos, !self.attacker) {
                self.collect_proof(proof);
            }
            self.pos.undo();
        }
        self.path.pop();
    }
}
