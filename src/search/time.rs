//! Time management: from the GUI's `Limits` to a target time (stop deepening after about this
//! long) and a hard limit (abort the search), both measured from when the clock started running
//! for us (search start, or `ponderhit`). The hard limit always leaves the move overhead and a
//! reserve on the clock, so the engine never loses on time.

use super::params as p;
use super::Limits;
use crate::board::Color;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimePlan {
    /// Do not start a new iteration beyond a share of this.
    pub target: Option<Duration>,
    /// Abort the search at this time.
    pub hard: Option<Duration>,
}

impl TimePlan {
    pub const UNLIMITED: TimePlan = TimePlan {
        target: None,
        hard: None,
    };
}

/// The plan for `side` to move under `limits`; unlimited for infinite searches and for limits
/// without any clock or move time.
pub fn plan(limits: &Limits, side: Color, overhead: Duration) -> TimePlan {
    if limits.infinite {
        return TimePlan::UNLIMITED;
    }
    let reserve = Duration::from_millis(p::CLOCK_RESERVE_MS);
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
    let moves = limits
        .moves_to_go
        .filter(|&m| m > 0)
        .unwrap_or(p::SUDDEN_DEATH_MOVES)
        .min(p::SUDDEN_DEATH_MOVES);
    // The most we can spend: the clock plus this move's byoyomi, less overhead and reserve.
    let usable = (remaining + byoyomi)
        .saturating_sub(overhead + reserve)
        .max(floor);
    let mut target = remaining / moves + increment * 3 / 4 + byoyomi.saturating_sub(overhead);
    let mut hard = (target * p::HARD_LIMIT_FACTOR).min(remaining / 4 + byoyomi + increment / 2);
    hard = hard.min(usable).max(floor);
    target = target.min(hard).max(floor);
    TimePlan {
        target: Some(target),
        hard: Some(hard),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn never_plans_beyond_the_clock() {
        for remaining in [0, 5, 60, 1000, 60_000] {
            for byoyomi in [0, 100, 5000] {
                let limits = Limits {
                    time: [Some(ms(remaining)), Some(ms(remaining))],
                    byoyomi: ms(byoyomi),
                    ..Limits::default()
                };
                let plan = plan(&limits, Color::Sente, ms(50));
                let hard = plan.hard.expect("hard limit");
                assert!(plan.target.expect("target") <= hard);
                assert!(
                    hard <= ms((remaining + byoyomi).saturating_sub(80)).max(ms(1)),
                    "{remaining} {byoyomi} {hard:?}"
                );
            }
        }
    }

    #[test]
    fn movetime_and_infinite() {
        let limits = Limits {
            movetime: Some(ms(1000)),
            ..Limits::default()
        };
        assert_eq!(plan(&limits, Color::Gote, ms(50)).hard, Some(ms(950)));
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        assert_eq!(plan(&limits, Color::Gote, ms(50)), TimePlan::UNLIMITED);
    }
}
