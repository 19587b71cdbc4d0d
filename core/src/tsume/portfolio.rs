//! Two searches for the first mate at once (a portfolio). How the defender's moves are grouped
//! in the proof numbers (`Grouping`) moves the node of the first mate by a factor of three either
//! way, problem by problem, and no grouping is best everywhere; run side by side on two threads,
//! the first to settle answers, so a problem takes about as long as under the better grouping.
//! Each search has a table of its own: both are sound alone, and the winner's proof is read,
//! verified and shortened as in a single solve while the other stops.

use super::dfpn::{MateLimits, MateReport, ProofMemory, Solver, SOLVER_STACK_BYTES};
use crate::position::Position;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// Which seat settled its first search first.
pub(super) struct Race {
    winner: AtomicUsize,
}

/// No seat has settled yet.
const OPEN: usize = usize::MAX;

impl Race {
    fn new() -> Race {
        Race {
            winner: AtomicUsize::new(OPEN),
        }
    }

    /// `seat` settled its first search: whether it is the first to.
    pub(super) fn claim(&self, seat: usize) -> bool {
        match self
            .winner
            .compare_exchange(OPEN, seat, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) => true,
            Err(winner) => winner == seat,
        }
    }

    /// Another seat won: `seat`'s search is of no more use.
    pub(super) fn lost(&self, seat: usize) -> bool {
        let winner = self.winner.load(Ordering::Acquire);
        winner != OPEN && winner != seat
    }

    /// Whether `seat` tells a watching user how the solve stands: the first seat until one
    /// wins, then the winner.
    pub(super) fn reports(&self, seat: usize) -> bool {
        match self.winner.load(Ordering::Acquire) {
            OPEN => seat == 0,
            winner => winner == seat,
        }
    }

    fn winner(&self) -> Option<usize> {
        match self.winner.load(Ordering::Acquire) {
            OPEN => None,
            winner => Some(winner),
        }
    }
}

/// [`super::solve_in`] with two threads: this one in seat 0 (the grouping of a single solve),
/// another in seat 1. The report is the winner's (seat 0's when neither settles), with the
/// nodes of both.
pub(super) fn solve_raced(
    pos: &Position,
    limits: MateLimits,
    memory: &mut ProofMemory,
) -> MateReport {
    let race = Arc::new(Race::new());
    let mut rival_memory = memory.rival_share();
    let (mut report, rival) = std::thread::scope(|scope| {
        let rival_race = Arc::clone(&race);
        let rival_limits = limits.clone();
        let rival_memory = &mut rival_memory;
        let rival = std::thread::Builder::new()
            .name("mate rival".to_string())
            .stack_size(SOLVER_STACK_BYTES)
            .spawn_scoped(scope, move || {
                let (mut solver, limit) =
                    Solver::for_solve(pos, rival_limits, rival_memory, 1, Some(rival_race));
                let report = solver.solve(pos, limit);
                solver.keep_table(rival_memory, 1);
                report
            });
        // Without a second thread this one runs alone, and wins.
        let (mut solver, limit) =
            Solver::for_solve(pos, limits, memory, 0, Some(Arc::clone(&race)));
        let report = solver.solve(pos, limit);
        solver.keep_table(memory, 0);
        let rival = rival.ok().map(|handle| {
            handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        });
        (report, rival)
    });
    memory.take_back(rival_memory);
    if let Some(rival) = rival {
        let nodes = report.nodes + rival.nodes;
        if race.winner() == Some(1) {
            report = rival;
        }
        report.nodes = nodes;
    }
    report
}
