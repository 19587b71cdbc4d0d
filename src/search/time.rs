//! Time management: from the GUI's `Limits` to a target time (stop deepening after about this
//! long) and a hard limit (abort the search), both measured from when the clock started running
//! for us (search start, or `ponderhit`). The hard limit always leaves the move overhead and a
//! reserve on the clock, so the engine never loses on time.

use super::params::SearchParams;
use super::Limits;
use crate::board::{Color, Family};
use std::time::Duration;

/// How long the search may think, measured from when our clock started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimePlan {
    /// Do not start a new iteration beyond a share of this.
    pub target: Option<Duration>,
    /// Abort the search at this time.
    pub hard: Option<Duration>,
}

impl TimePlan {
    /// No limit: infinite analysis, or depth and node limits only.
    pub const UNLIMITED: TimePlan = TimePlan {
        target: None,
        hard: None,
    };
}

/// The plan for `side` to move in a game of `family` under `limits` by the time-management
/// numbers of `params`; unlimited for infinite searches and for limits without any clock or
/// move time.
pub fn plan(
    limits: &Limits,
    family: Family,
    side: Color,
    overhead: Duration,
    params: &SearchParams,
) -> TimePlan {
    plan_scaled(limits, family, side, overhead, params, 100)
}

/// The plan for a move where the opponent threatens mate: on a clock, the target is
/// `threat_time_pct` percent of the usual one and the hard limit follows it, within the same
/// share of the clock. Move time and byoyomi alone plan as usual, since they already give the
/// move all it may have. `None` where `params` asks for no threat look in `family`, or nothing
/// would change.
pub(super) fn threat_plan(
    limits: &Limits,
    family: Family,
    side: Color,
    overhead: Duration,
    params: &SearchParams,
) -> Option<TimePlan> {
    if params.threat_plies(family) == 0 {
        return None;
    }
    let usual = plan(limits, family, side, overhead, params);
    let widened = plan_scaled(
        limits,
        family,
        side,
        overhead,
        params,
        params.threat_time_pct,
    );
    (widened != usual).then_some(widened)
}

/// `plan` with the clock-based target at `target_pct` percent.
fn plan_scaled(
    limits: &Limits,
    family: Family,
    side: Color,
    overhead: Duration,
    params: &SearchParams,
    target_pct: u32,
) -> TimePlan {
    if limits.infinite {
        return TimePlan::UNLIMITED;
    }
    let reserve = Duration::from_millis(params.clock_reserve_ms);
    let floor = Duration::from_millis(1);
    if let Some(movetime) = limits.movetime {
        let t = movetime.saturating_sub(overhead).max(floor);
        return TimePlan {
            target: Some(t),
            hard: Some(t),
        };
    }
    let Some(remaining) = limits.time[side.index()] else {
        if limits.byoyomi > Duration::ZERO {
            let t = limits.byoyomi.saturating_sub(overhead + reserve).max(floor);
            return TimePlan {
                target: Some(t),
                hard: Some(t),
            };
        }
        return TimePlan::UNLIMITED;
    };
    let increment = limits.increment[side.index()];
    let byoyomi = limits.byoyomi;
    let horizon = params.sudden_death_moves(family);
    let moves = limits
        .moves_to_go
        .filter(|&m| m > 0)
        .unwrap_or(horizon)
        .min(horizon);
    // What this move may use: the clock plus its byoyomi, less the overhead (the time the GUI
    // charges beyond our own thinking) and a reserve. Every limit below is a share of it, so a
    // low clock with an increment settles where each move costs less than the increment.
    let usable = (remaining + byoyomi)
        .saturating_sub(overhead + reserve)
        .max(floor);
    let clock = remaining.saturating_sub(overhead + reserve);
    let spendable_increment = increment.saturating_sub(overhead);
    let mut target = (clock / moves
        + spendable_increment * params.increment_share / 1000
        + byoyomi.saturating_sub(overhead))
        * target_pct
        / 100;
    let clock_share = clock * params.hard_limit_clock_share / 1000;
    let mut hard =
        (target * params.hard_limit_factor).min(clock_share + byoyomi + spendable_increment / 2);
    hard = hard.min(usable).max(floor);
    target = target.min(hard).max(floor);
    TimePlan {
        target: Some(target),
        hard: Some(hard),
    }
}

/// The percentage of the target time after which no new iteration starts: the more iterations
/// in a row have kept the best move, the sooner the search settles; a score that fell since the
/// last iteration buys more (30% by default).
pub(super) fn new_iteration_pct(
    params: &SearchParams,
    stable_iterations: usize,
    score_fell: bool,
) -> u32 {
    let shares = params.new_iteration_pcts();
    let pct = shares[stable_iterations.min(shares.len() - 1)];
    if score_fell {
        pct * params.score_drop_time_pct / 100
    } else {
        pct
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stable_best_move_settles_sooner_and_a_falling_score_buys_time() {
        let p = &SearchParams::default();
        let shares: Vec<u32> = (0..8).map(|n| new_iteration_pct(p, n, false)).collect();
        assert_eq!(shares, [82, 66, 55, 55, 38, 38, 38, 38]);
        assert!(shares.windows(2).all(|w| w[0] >= w[1]));
        assert_eq!(new_iteration_pct(p, 0, true), 106);
        assert_eq!(new_iteration_pct(p, 4, true), 49);
        assert!((0..8).all(|n| new_iteration_pct(p, n, true) > new_iteration_pct(p, n, false)));
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn never_plans_beyond_the_clock() {
        for family in Family::ALL {
            for remaining in [0, 5, 60, 1000, 60_000] {
                for byoyomi in [0, 100, 5000] {
                    let limits = Limits {
                        time: [Some(ms(remaining)), Some(ms(remaining))],
                        byoyomi: ms(byoyomi),
                        ..Limits::default()
                    };
                    let p = &SearchParams::default();
                    let plan = plan(&limits, family, Color::Sente, ms(50), p);
                    let hard = plan.hard.expect("hard limit");
                    assert!(plan.target.expect("target") <= hard);
                    assert!(
                        hard <= ms((remaining + byoyomi).saturating_sub(80)).max(ms(1)),
                        "{family:?} {remaining} {byoyomi} {hard:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_whole_game_of_worst_case_moves_never_flags() {
        // Every move runs to its hard limit and the GUI charges the full overhead on top; with an
        // increment larger than the overhead the clock must settle, never run out.
        let games = [
            (10_000, 100, 50),
            (10_000, 100, 90),
            (1_000, 100, 50),
            (1_000, 10, 5),
        ];
        for family in Family::ALL {
            for (start, inc, overhead) in games {
                let mut remaining: i64 = start;
                for mv in 0..400 {
                    let limits = Limits {
                        time: [Some(ms(remaining as u64)), Some(ms(remaining as u64))],
                        increment: [ms(inc), ms(inc)],
                        ..Limits::default()
                    };
                    let p = &SearchParams::default();
                    let plan = plan(&limits, family, Color::Sente, ms(overhead), p);
                    remaining -= (plan.hard.unwrap() + ms(overhead)).as_millis() as i64;
                    assert!(
                        remaining > 0,
                        "{family:?} flagged at move {mv}: {start}+{inc} overhead {overhead}"
                    );
                    remaining += inc as i64;
                }
            }
        }
    }

    #[test]
    fn heian_spends_its_clock_on_a_shorter_horizon_than_chu() {
        let limits = Limits {
            time: [Some(ms(10_000)), Some(ms(10_000))],
            ..Limits::default()
        };
        let p = &SearchParams::default();
        let target = |family| {
            plan(&limits, family, Color::Sente, ms(50), p)
                .target
                .unwrap()
        };
        // (10 000 - 50 - 30) ms over 40 moves in Chu, over 20 in Heian.
        assert_eq!(target(Family::Chu), ms(248));
        assert_eq!(target(Family::Heian), ms(496));
    }

    #[test]
    fn a_threat_widens_a_clock_plan_within_its_share_of_the_clock() {
        // Late in a Chu game at 1 s + 0.01 s: 400 ms left, 10 ms of overhead.
        let limits = Limits {
            time: [Some(ms(400)), Some(ms(400))],
            increment: [ms(10), ms(10)],
            ..Limits::default()
        };
        let off = SearchParams::default();
        let on = SearchParams {
            threat_plies_chu: 7,
            ..off
        };
        let threat = |p: &SearchParams, family, limits: &Limits| {
            threat_plan(limits, family, Color::Sente, ms(10), p)
        };
        assert_eq!(threat(&off, Family::Chu, &limits), None, "off by default");
        assert_eq!(
            threat(&on, Family::Heian, &limits),
            None,
            "asked in Chu only"
        );
        let usual = plan(&limits, Family::Chu, Color::Sente, ms(10), &on);
        let widened = threat(&on, Family::Chu, &limits).expect("a wider plan");
        // (400 - 10 - 30) / 40 = 9 ms, four times that; the hard limit stays at a quarter of
        // the clock (90 ms), where the usual one is four times its target.
        assert_eq!(usual.target, Some(ms(9)));
        assert_eq!(usual.hard, Some(ms(36)));
        assert_eq!(widened.target, Some(ms(36)));
        assert_eq!(widened.hard, Some(ms(90)));
        let movetime = Limits {
            movetime: Some(ms(1000)),
            ..Limits::default()
        };
        assert_eq!(
            threat(&on, Family::Chu, &movetime),
            None,
            "a move time is all there is"
        );
    }

    #[test]
    fn movetime_and_infinite() {
        let limits = Limits {
            movetime: Some(ms(1000)),
            ..Limits::default()
        };
        assert_eq!(
            plan(
                &limits,
                Family::Chu,
                Color::Gote,
                ms(50),
                &SearchParams::default()
            )
            .hard,
            Some(ms(950))
        );
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        assert_eq!(
            plan(
                &limits,
                Family::Heian,
                Color::Gote,
                ms(50),
                &SearchParams::default()
            ),
            TimePlan::UNLIMITED
        );
    }
}
