//! Every tunable number of search, move ordering and time management, in one place: the
//! `SearchParams` a search runs with, each number also a `Tune_` option (`TUNABLES`), so an
//! experiment is an option setting in `shishi match`, not a patch. The defaults are the numbers
//! the search was tuned with; `bench` with them is the search's signature. Scores are centipawns
//! (a Chu pawn is 100); fractions are whole thousandths or percent, so options stay integers.
//! The evaluation's weights are data, in `eval/weights/*.txt` (see `eval::weights`), which the
//! tuner rewrites; `material`, re-exported here from the evaluation layer, is the fixed piece
//! value that move ordering and pruning use.

use crate::board::Family;

pub use crate::eval::{material, ROYAL_VALUE};

/// One tunable number as an option: its name, range and default, and how to read and set it in
/// a `SearchParams`.
#[derive(Clone, Copy)]
pub struct Tunable {
    /// The option's name (`Tune_...`).
    pub name: &'static str,
    /// The smallest value accepted.
    pub min: i64,
    /// The largest value accepted.
    pub max: i64,
    /// The search's own value.
    pub default: i64,
    /// The value in `params`.
    pub get: fn(&SearchParams) -> i64,
    /// Sets the value in `params` (already checked against the range).
    pub set: fn(&mut SearchParams, i64),
}

/// Declares `SearchParams`, its defaults and the `TUNABLES` table from one list, so a number
/// cannot be in one and missing from another.
macro_rules! search_params {
    ($($(#[doc = $doc:literal])* $field:ident: $ty:ty = $default:expr, $option:literal, $min:expr, $max:expr;)*) => {
        /// The tunable numbers a search runs with (`Default`: the tuned values).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $($(#[doc = $doc])* pub $field: $ty,)*
        }

        impl Default for SearchParams {
            fn default() -> Self {
                SearchParams { $($field: $default,)* }
            }
        }

        /// Every field of `SearchParams` as an option, in declaration order.
        pub const TUNABLES: &[Tunable] = &[$(Tunable {
            name: $option,
            min: $min,
            max: $max,
            default: $default as i64,
            get: |p| p.$field as i64,
            set: |p, v| p.$field = v as $ty,
        },)*];
    };
}

search_params! {
    /// Aspiration window half-width at the start of an iteration.
    aspiration_delta: i32 = 30, "Tune_AspirationDelta", 1, 1000;
    /// Iterations below this depth search the full window.
    aspiration_min_depth: i32 = 5, "Tune_AspirationMinDepth", 1, 100;
    /// Once the doubling half-width exceeds this, the window opens fully.
    aspiration_give_up: i32 = 1000, "Tune_AspirationGiveUp", 1, 30000;
    /// Plies added to the depth of a node whose side to move has a royal under attack.
    check_extension: i32 = 1, "Tune_CheckExtension", 0, 2;
    /// Reverse futility pruning: at most this depth, a non-PV node whose static evaluation
    /// beats beta by `rfp_margin` per ply of depth returns it.
    rfp_max_depth: i32 = 6, "Tune_RfpMaxDepth", 0, 30;
    /// Centipawns above beta per ply of depth for reverse futility.
    rfp_margin: i32 = 90, "Tune_RfpMargin", 0, 2000;
    /// Late move reductions from this depth.
    lmr_min_depth: i32 = 3, "Tune_LmrMinDepth", 1, 100;
    /// Moves searched before late move reductions start.
    lmr_min_moves: usize = 3, "Tune_LmrMinMoves", 1, 64;
    /// The reduction is `base + ln(depth) ln(moves) / divisor` plies: `base` in thousandths.
    lmr_base: i32 = 500, "Tune_LmrBase", -5000, 5000;
    /// The reduction's divisor, in thousandths.
    lmr_divisor: i32 = 2200, "Tune_LmrDivisor", 100, 20000;
    /// Plies less reduction at PV nodes.
    lmr_pv_less: i32 = 1, "Tune_LmrPvLess", 0, 10;
    /// Late move pruning: at most this depth, quiet moves after `lmp_moves` tried moves are
    /// skipped.
    lmp_max_depth: i32 = 3, "Tune_LmpMaxDepth", 0, 30;
    /// Moves tried before late move pruning in Chu: `base + scale depth^2`.
    lmp_base_chu: i32 = 8, "Tune_LmpBaseChu", 0, 1000;
    /// See `lmp_base_chu`.
    lmp_scale_chu: i32 = 4, "Tune_LmpScaleChu", 0, 1000;
    /// Moves tried before late move pruning in Heian: `base + scale depth^2`.
    lmp_base_heian: i32 = 4, "Tune_LmpBaseHeian", 0, 1000;
    /// See `lmp_base_heian`.
    lmp_scale_heian: i32 = 2, "Tune_LmpScaleHeian", 0, 1000;
    /// Quiet moves remembered per node for the history malus of a cut-off.
    quiet_cap: usize = 32, "Tune_QuietCap", 0, 256;
    /// History bonus (and malus) of a cut-off: this times depth squared.
    history_bonus: i32 = 16, "Tune_HistoryBonus", 0, 1000;
    /// History scores stay within this, so older knowledge ages (at most 2^15, so that an
    /// entry times a bonus fits in `i32`).
    history_max: i32 = 1 << 14, "Tune_HistoryMax", 1, 1 << 15;
    /// Quiescence delta pruning margin.
    delta_margin: i32 = 200, "Tune_DeltaMargin", 0, 5000;
    /// Chu quiescence with the side to move's only royal attacked: 1 searches the moves that
    /// may save it (captures, royal moves, interpositions) without standing pat; 0 stands pat.
    /// Off: its SPRT is in docs/search.md.
    qsearch_chu_evasions: i32 = 0, "Tune_QsChuEvasions", 0, 1;
    /// Quiescence plies after which only captures of the last-moved-to square are tried, in
    /// Chu (3 against 6: its SPRT in docs/search.md)...
    qsearch_recapture_only_after_chu: i32 = 3, "Tune_QsRecaptureOnlyAfterChu", 0, 100;
    /// ...and in Heian.
    qsearch_recapture_only_after_heian: i32 = 6, "Tune_QsRecaptureOnlyAfterHeian", 0, 100;
    /// Quiescence promotions in Chu: 1 skips those that lose material by static exchange, as
    /// captures are skipped; 0 tries them all (1 against 0: its SPRT in docs/search.md)...
    qsearch_promotion_see_chu: i32 = 1, "Tune_QsPromotionSeeChu", 0, 1;
    /// ...and in Heian (not tested at 1).
    qsearch_promotion_see_heian: i32 = 0, "Tune_QsPromotionSeeHeian", 0, 1;
    /// Move ordering of captures: the captured value times this...
    capture_gain_scale: i32 = 16, "Tune_PickerGainScale", 0, 1000;
    /// ...less the capturing piece's value (at most `attacker_cap`) divided by this...
    attacker_divisor: i32 = 8, "Tune_PickerAttackerDivisor", 1, 1000;
    /// ...which is capped at this...
    attacker_cap: i32 = 3000, "Tune_PickerAttackerCap", 0, 100000;
    /// ...plus this for a promotion.
    promotion_bonus: i32 = 200, "Tune_PickerPromotionBonus", -100000, 100000;
    /// Time management in Chu: share of the remaining time (1/N) per move in sudden death.
    sudden_death_moves_chu: u32 = 40, "Tune_SuddenDeathMovesChu", 1, 1000;
    /// The same in Heian, whose games are shorter.
    sudden_death_moves_heian: u32 = 20, "Tune_SuddenDeathMovesHeian", 1, 1000;
    /// Thousandths of the increment (less the overhead) added to a move's target time.
    increment_share: u32 = 750, "Tune_IncrementShare", 0, 1000;
    /// The hard limit is at most this many times the target time...
    hard_limit_factor: u32 = 4, "Tune_HardLimitFactor", 1, 100;
    /// ...and at most this many thousandths of the clock (plus byoyomi and half the increment).
    hard_limit_clock_share: u32 = 250, "Tune_HardLimitClockShare", 1, 1000;
    /// Percent of the target time after which no new iteration starts, by how many
    /// iterations in a row have ended with the same best move: none...
    new_iteration_pct_0: u32 = 82, "Tune_NewIterationPct0", 1, 1000;
    /// ...one...
    new_iteration_pct_1: u32 = 66, "Tune_NewIterationPct1", 1, 1000;
    /// ...two...
    new_iteration_pct_2: u32 = 55, "Tune_NewIterationPct2", 1, 1000;
    /// ...three...
    new_iteration_pct_3: u32 = 55, "Tune_NewIterationPct3", 1, 1000;
    /// ...four or more.
    new_iteration_pct_4: u32 = 38, "Tune_NewIterationPct4", 1, 1000;
    /// A score that fell by at least this much since the last iteration buys more time...
    score_drop_margin: i32 = 30, "Tune_ScoreDropMargin", 0, 30000;
    /// ...this percentage of the time it would have had.
    score_drop_time_pct: u32 = 130, "Tune_ScoreDropTimePct", 1, 1000;
    /// On a clock, iterative deepening in Chu goes on until this depth is complete whatever
    /// the target time, cut short only by the hard limit (0: the target decides alone)...
    min_depth_chu: i32 = 0, "Tune_MinDepthChu", 0, 100;
    /// ...and in Heian.
    min_depth_heian: i32 = 0, "Tune_MinDepthHeian", 0, 100;
    /// Safety margin kept on the clock beyond the move overhead, in milliseconds.
    clock_reserve_ms: u64 = 30, "Tune_ClockReserveMs", 0, 10000;
    /// A move on the clock first asks whether the opponent, were it to move now, would mate
    /// by checks within this many plies in Chu (0: never asks)...
    threat_plies_chu: u32 = 0, "Tune_ThreatPliesChu", 0, 31;
    /// ...and in Heian.
    threat_plies_heian: u32 = 0, "Tune_ThreatPliesHeian", 0, 31;
    /// The mate solver's node budget for that question.
    threat_nodes: u64 = 512, "Tune_ThreatNodes", 1, 1_000_000;
    /// Where it finds such a mate, the move's target time is this percentage of the usual one
    /// (the hard limit follows, within its share of the clock).
    threat_time_pct: u32 = 400, "Tune_ThreatTimePct", 100, 10_000;
}

impl SearchParams {
    /// Moves tried before late move pruning at `depth`: `4 + 2 depth^2` in Heian (6, 12 and 22
    /// at depths 1 to 3), twice that in Chu, where the tighter count lost in self-play.
    pub fn lmp_moves(&self, family: Family, depth: i32) -> i32 {
        match family {
            Family::Heian => self.lmp_base_heian + self.lmp_scale_heian * depth * depth,
            Family::Chu => self.lmp_base_chu + self.lmp_scale_chu * depth * depth,
        }
    }

    /// The sudden-death horizon of `family`: a move's base time is 1/N of the clock. Heian
    /// spends its clock twice as fast as Chu (docs/search.md: each kept by its own SPRT).
    pub fn sudden_death_moves(&self, family: Family) -> u32 {
        match family {
            Family::Heian => self.sudden_death_moves_heian,
            Family::Chu => self.sudden_death_moves_chu,
        }
    }

    /// The depth a clocked search of `family` completes before the target time may end it.
    pub fn min_depth(&self, family: Family) -> i32 {
        match family {
            Family::Heian => self.min_depth_heian,
            Family::Chu => self.min_depth_chu,
        }
    }

    /// How far the look for the opponent's mate threat reaches in `family`, in plies (0: it
    /// is not made).
    pub fn threat_plies(&self, family: Family) -> u32 {
        match family {
            Family::Heian => self.threat_plies_heian,
            Family::Chu => self.threat_plies_chu,
        }
    }

    /// Quiescence plies in `family` after which only recaptures on the last-moved-to square
    /// are tried.
    pub fn qsearch_recapture_only_after(&self, family: Family) -> i32 {
        match family {
            Family::Heian => self.qsearch_recapture_only_after_heian,
            Family::Chu => self.qsearch_recapture_only_after_chu,
        }
    }

    /// Whether the quiescence search of `family` skips promotions that lose material by static
    /// exchange.
    pub fn qsearch_promotion_see(&self, family: Family) -> bool {
        match family {
            Family::Heian => self.qsearch_promotion_see_heian != 0,
            Family::Chu => self.qsearch_promotion_see_chu != 0,
        }
    }

    /// The late move reduction table, `[depth][moves]` up to 63 each.
    pub fn lmr_table(&self) -> Vec<[u8; 64]> {
        let base = f64::from(self.lmr_base) / 1000.0;
        let divisor = f64::from(self.lmr_divisor) / 1000.0;
        (0..64)
            .map(|depth| {
                let mut row = [0u8; 64];
                for (moves, r) in row.iter_mut().enumerate() {
                    if depth > 0 && moves > 0 {
                        let v = base + (depth as f64).ln() * (moves as f64).ln() / divisor;
                        *r = v.max(0.0) as u8;
                    }
                }
                row
            })
            .collect()
    }

    /// The percentages of the target time after which no new iteration starts, by stability.
    pub fn new_iteration_pcts(&self) -> [u32; 5] {
        [
            self.new_iteration_pct_0,
            self.new_iteration_pct_1,
            self.new_iteration_pct_2,
            self.new_iteration_pct_3,
            self.new_iteration_pct_4,
        ]
    }

    /// The tunable named `name` (ignoring case).
    pub fn tunable(name: &str) -> Option<&'static Tunable> {
        TUNABLES.iter().find(|t| t.name.eq_ignore_ascii_case(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_is_in_its_range_and_names_are_unique() {
        let params = SearchParams::default();
        for (i, t) in TUNABLES.iter().enumerate() {
            assert!((t.min..=t.max).contains(&t.default), "{}", t.name);
            assert_eq!((t.get)(&params), t.default, "{}", t.name);
            assert!(t.name.starts_with("Tune_"), "{}", t.name);
            assert!(TUNABLES[..i]
                .iter()
                .all(|u| !u.name.eq_ignore_ascii_case(t.name)));
        }
    }

    #[test]
    fn a_tunable_sets_its_own_field_only() {
        for t in TUNABLES {
            let mut params = SearchParams::default();
            let value = if t.default == t.max { t.min } else { t.max };
            (t.set)(&mut params, value);
            assert_eq!((t.get)(&params), value, "{}", t.name);
            let others_unchanged = TUNABLES
                .iter()
                .filter(|u| u.name != t.name)
                .all(|u| (u.get)(&params) == u.default);
            assert!(others_unchanged, "{} changed another field", t.name);
        }
    }

    #[test]
    fn the_default_reduction_table_is_the_tuned_formula() {
        let table = SearchParams::default().lmr_table();
        for (depth, row) in table.iter().enumerate().skip(1) {
            for (moves, &r) in row.iter().enumerate().skip(1) {
                let v = 0.5 + (depth as f64).ln() * (moves as f64).ln() / 2.2;
                assert_eq!(r, v.max(0.0) as u8, "depth {depth} moves {moves}");
            }
        }
    }
}
