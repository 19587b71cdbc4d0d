//! How a match game ended: by the rules (the referee's verdict, or an illegal move), or by what
//! happens around the board and only a match runner decides: a resignation, a time forfeit, a
//! crashed engine, an adjudication. The rules core (`position::OutcomeReason`) knows only the
//! first kind; a match game's result has the same shape (`Outcome`) with this wider reason.

use crate::position::{Describe, Outcome, OutcomeReason};

/// A finished match game: the winner (`None` for a draw) and why.
pub type GameEnd = Outcome<EndReason>;

/// Why a match game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// An ending of the rules: royals captured, bare king, repetition, an illegal move...
    Rules(OutcomeReason),
    /// The loser resigned.
    Resignation,
    /// The loser ran out of time.
    Timeout,
    /// The loser's engine stopped answering or crashed.
    Crash,
    /// Decided by the match runner's adjudication (scores, move limit, a bad opening).
    Adjudication,
}

impl Describe for EndReason {
    fn describe(self) -> &'static str {
        match self {
            EndReason::Rules(reason) => reason.describe(),
            EndReason::Resignation => "resignation",
            EndReason::Timeout => "time forfeit",
            EndReason::Crash => "engine crash or disconnect",
            EndReason::Adjudication => "adjudication",
        }
    }
}

/// The rules' verdict as a match game's result.
pub fn from_rules(outcome: Outcome) -> GameEnd {
    Outcome {
        winner: outcome.winner,
        reason: EndReason::Rules(outcome.reason),
    }
}
