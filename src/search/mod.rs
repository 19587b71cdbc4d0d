//! Search: iterative deepening PVS alpha-beta with Lazy SMP over a shared lock-free
//! transposition table. Knows positions and moves, nothing of protocols.
//!
//! API contract used by `protocol` and `cli` (keep these signatures stable):
//! - `Limits`: what the GUI asked for (clocks, byoyomi, movetime, depth, nodes, infinite, ponder).
//! - `Engine`: owns the table and options; `Engine::start` runs a search on background threads
//!   and returns a `SearchHandle`; info lines go through the `on_info` callback, called from
//!   the main search thread. `Engine::run_here` runs it on the calling thread instead (hosts
//!   without threads), hearing the GUI through a `Poll` hook that acts through `Control`.
//! - `SearchHandle::stop`, `ponderhit`, `wait`, `is_finished`.

use crate::board::Family;
use crate::eval::nnue::Network;
use crate::moves::Move;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// The longest clock, increment or move time a protocol accepts (2^40 ms, about 35 years), so
/// the time arithmetic can never overflow.
pub const MAX_TIME: Duration = Duration::from_millis(1 << 40);

/// Search limits, as a GUI gives them. Times are for the side to move unless named.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Remaining clock of sente and gote.
    pub time: [Option<Duration>; 2],
    /// Fischer increment of sente and gote.
    pub increment: [Duration; 2],
    /// USI byoyomi per move.
    pub byoyomi: Duration,
    /// XBoard moves to the next time control (0 = sudden death).
    pub moves_to_go: Option<u32>,
    /// Think exactly this long.
    pub movetime: Option<Duration>,
    /// Stop after this many plies of iterative deepening.
    pub depth: Option<u32>,
    /// Stop after this many nodes (all threads together).
    pub nodes: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Pondering: search as if infinite until `ponderhit` (then the clocks apply) or `stop`.
    pub ponder: bool,
}

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns: the evaluation's units inside the engine, hundredths of a pawn once
    /// `in_centipawns` has converted it for a user.
    Cp(i32),
    /// Mate in this many plies: positive when the side to move wins.
    Mate(i32),
}

impl Score {
    /// The score as users read it: the evaluation's units converted to hundredths of a pawn
    /// of `family` (mates unchanged).
    pub fn in_centipawns(self, family: Family) -> Score {
        match self {
            Score::Cp(units) => Score::Cp(crate::eval::units_to_centipawns(family, units)),
            mate => mate,
        }
    }
}

/// `cp N` or `mate N` (plies), as USI writes them; width and alignment apply to the whole.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            Score::Cp(cp) => format!("cp {cp}"),
            Score::Mate(plies) => format!("mate {plies}"),
        };
        f.pad(&text)
    }
}

/// One search progress report.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// The completed iteration's depth in plies.
    pub depth: u32,
    /// The deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// The line's rank (1 = best) under MultiPV.
    pub multipv: u32,
    /// The line's score from the side to move's view.
    pub score: Score,
    /// Nodes searched so far, all threads.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Permille of the table in use.
    pub hashfull: u32,
    /// The principal variation, from the root.
    pub pv: Vec<Move>,
}

/// The final answer of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `None` only when the side to move has no legal move (the game is over).
    pub best: Option<Move>,
    /// The expected reply, to ponder on.
    pub ponder: Option<Move>,
    /// The best move's score from the side to move's view.
    pub score: Score,
    /// The depth of the iteration the move comes from.
    pub depth: u32,
    /// Nodes searched, all threads.
    pub nodes: u64,
}

/// Engine options shared by both protocols.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads (Lazy SMP).
    pub threads: usize,
    /// Principal variations reported.
    pub multipv: u32,
    /// Time the GUI charges per move beyond our thinking, kept off the clock.
    pub move_overhead: Duration,
    /// Which evaluation the search uses.
    pub eval: EvalOptions,
    /// The tunable numbers of search, ordering and time management (the `Tune_` options).
    pub params: params::SearchParams,
}

/// Which evaluation the search uses: the network of the position's family (the embedded one,
/// or the one `EvalFile` loaded for that family) or the hand-crafted evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalOptions {
    /// Evaluate by the network where the family has one (`UseNNUE`); by hand otherwise.
    pub use_nnue: bool,
    /// A net loaded from a file (`EvalFile`): its path and the net, which replaces the
    /// embedded net of its family.
    pub file_net: Option<(String, Arc<Network>)>,
}

impl Default for EvalOptions {
    fn default() -> Self {
        EvalOptions {
            use_nnue: true,
            file_net: None,
        }
    }
}

impl EvalOptions {
    /// The net that evaluates `family`, or `None` for the hand-crafted evaluation.
    pub fn net_for(&self, family: Family) -> Option<Arc<Network>> {
        if !self.use_nnue {
            return None;
        }
        match &self.file_net {
            Some((_, net)) if net.family == family => Some(net.clone()),
            _ => crate::eval::nnue::embedded::embedded(family),
        }
    }
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: 64,
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(50),
            eval: EvalOptions::default(),
            params: params::SearchParams::default(),
        }
    }
}

mod bench;
mod engine;
pub mod params;
pub mod picker;
pub(crate) mod see;
mod shared;
mod threat;
mod time;
pub mod tt;
mod worker;

pub use bench::{bench, bench_positions, BenchResult};
pub use engine::{Engine, OnInfo, SearchHandle, Waker};
pub use shared::{Control, Poll};
pub use time::{plan as time_plan, TimePlan};
pub use worker::{MATE, MAX_PLY};

#[cfg(test)]
mod tests {
    use super::Score;
    use crate::board::{Family, Kind};
    use crate::eval::weights::{Layout, Weights};

    #[test]
    fn reported_heian_scores_count_a_pawn_as_100() {
        let weights = Weights::embedded(Family::Heian);
        let pawn = weights.get(Layout::of(Family::Heian).material(Kind::HeianPawn));
        assert!(
            pawn > 100,
            "the test needs a pawn weight off the centipawn scale: {pawn}"
        );
        assert_eq!(Score::Cp(pawn).in_centipawns(Family::Heian), Score::Cp(100));
        assert_eq!(
            Score::Cp(-3 * pawn).in_centipawns(Family::Heian),
            Score::Cp(-300)
        );
        assert_eq!(Score::Cp(pawn).in_centipawns(Family::Chu), Score::Cp(pawn));
        assert_eq!(
            Score::Mate(-7).in_centipawns(Family::Heian),
            Score::Mate(-7)
        );
        assert_eq!(format!("[{:<8}]", Score::Cp(-42)), "[cp -42  ]");
        assert_eq!(format!("{}", Score::Mate(5)), "mate 5");
    }
}
