//! When an XBoard game is over: the position's own endings (royals captured, stalemate, bare
//! king, two royals) and fourfold repetition with its perpetual-attack exception, so the
//! protocol can announce the result with its reason.

use crate::position::{Outcome, Position};
use crate::rules::Repetition;

/// How many earlier positions since the last irreversible move equal the current one.
fn earlier_occurrences(pos: &Position) -> usize {
    let key = pos.key();
    pos.repetition_window().filter(|&k| k == key).count()
}

/// Whether the current position occurred before (since the last irreversible move).
pub fn repeats(pos: &Position) -> bool {
    earlier_occurrences(pos) > 0
}

/// The result if the game is over in `pos`.
pub fn outcome(pos: &Position) -> Option<Outcome> {
    if let Some(o) = pos.outcome() {
        return Some(o);
    }
    if pos.rules().repetition == Repetition::Fourfold {
        return crate::game::fourfold_outcome(pos);
    }
    None
}
