//! Every tunable number of the search, in one place, so a match-tested change touches this file
//! only. Scores are centipawns (a Chu pawn is 100). The evaluation's weights are data, in
//! `weights/*.txt` (see `weights`), which the tuner rewrites; `material` here is the fixed
//! piece value that move ordering and pruning use.

use crate::board::{Family, Kind};

/// Material value of a piece kind for move ordering and pruning (royals: `ROYAL_VALUE`).
pub const fn material(kind: Kind) -> i32 {
    use Kind::*;
    match kind {
        King | Prince | HeianKing => ROYAL_VALUE,
        Elephant => 350,
        Gold => 300,
        PromotedGold => 550,
        Silver => 250,
        PromotedSilver => 370,
        Copper => 200,
        PromotedCopper => 350,
        Leopard => 280,
        PromotedLeopard => 450,
        Tiger => 300,
        Stag => 600,
        Kirin => 330,
        PromotedKirin => 1800,
        Phoenix => 340,
        PromotedPhoenix => 1200,
        Pawn => 100,
        Tokin => 320,
        GoBetween => 110,
        PromotedGoBetween => 350,
        Lance => 200,
        WhiteHorse => 600,
        Chariot => 250,
        Whale => 550,
        SideMover => 330,
        Boar => 700,
        VerticalMover => 350,
        Ox => 750,
        Bishop => 450,
        PromotedBishop => 650,
        Rook => 550,
        PromotedRook => 750,
        Horse => 650,
        Falcon => 1000,
        Dragon => 750,
        Eagle => 1100,
        Queen => 1200,
        Lion => 1800,
        HeianGold => 500,
        HeianSilver => 450,
        HeianKnight => 330,
        HeianLance => 300,
        HeianPawn => 100,
        HeianPromotedSilver => 500,
        HeianPromotedKnight => 500,
        HeianPromotedLance => 500,
        HeianTokin => 520,
    }
}

/// The material of a royal for move ordering (a capture of one is valued by `eval::victim_value`).
pub const ROYAL_VALUE: i32 = 1000;
/// Aspiration window half-width at the start of an iteration, and from which depth.
pub const ASPIRATION_DELTA: i32 = 30;
/// Iterations below this depth search the full window.
pub const ASPIRATION_MIN_DEPTH: i32 = 5;
/// Plies added to the depth of a node whose side to move has a royal under attack.
pub const CHECK_EXTENSION: i32 = 1;
/// Reverse futility pruning: at most this depth, a non-PV node whose static evaluation beats
/// beta by `RFP_MARGIN` per ply of depth returns it.
pub const RFP_MAX_DEPTH: i32 = 6;
/// Centipawns above beta per ply of depth for reverse futility.
pub const RFP_MARGIN: i32 = 90;
/// Late move reductions: from this depth, after this many moves.
pub const LMR_MIN_DEPTH: i32 = 3;
/// Moves searched before late move reductions start.
pub const LMR_MIN_MOVES: usize = 3;
/// Late move pruning: at most this depth, quiet moves after `lmp_moves` tried moves are skipped.
pub const LMP_MAX_DEPTH: i32 = 3;

/// Moves tried before late move pruning at `depth`: `4 + 2 depth^2` in Heian (6, 12 and 22 at
/// depths 1 to 3), twice that in Chu, where the tighter count lost in self-play.
pub const fn lmp_moves(family: Family, depth: i32) -> i32 {
    match family {
        Family::Heian => 4 + 2 * depth * depth,
        Family::Chu => 8 + 4 * depth * depth,
    }
}
/// Quiescence delta pruning margin.
pub const DELTA_MARGIN: i32 = 200;
/// Quiescence plies after which only captures of the last-moved-to square are tried.
pub const QSEARCH_RECAPTURE_ONLY_AFTER: i32 = 6;
/// History bonus cap, so scores stay in `i32` and older knowledge ages.
pub const HISTORY_MAX: i32 = 1 << 14;

/// Time management: share of the remaining time (1/N) per move in sudden death.
pub const SUDDEN_DEATH_MOVES: u32 = 40;
/// The hard limit is at most this many times the target time.
pub const HARD_LIMIT_FACTOR: u32 = 4;
/// Do not start a new iteration after this percentage of the target time, by how many
/// iterations in a row have ended with the same best move (the last entry for more).
pub const NEW_ITERATION_PCT_BY_STABILITY: [u32; 5] = [82, 66, 55, 55, 38];
/// A score that fell by at least this much since the last iteration buys 30% more time.
pub const SCORE_DROP_MARGIN: i32 = 30;
/// Safety margin kept on the clock beyond the move overhead.
pub const CLOCK_RESERVE_MS: u64 = 30;
