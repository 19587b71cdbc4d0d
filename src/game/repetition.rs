//! The repetition rule of RULES.md section 8, written once for the game record, the search and
//! its root: where the current position occurred before among the positions since the last
//! irreversible move, and what a repetition cycle means under `Repetition::Fourfold`.
//!
//! Positions are compared by key (board, side to move, counter-strike state). A key window is
//! the keys of the positions since the last irreversible move, oldest first; only every second
//! position has the side to move of the one after the window, so only those are compared.

use crate::board::Color;
use crate::position::{Outcome, OutcomeReason, Position};

/// Where the position with key `key`, standing right after `before` (a key window), occurred
/// in it: its indices in `before`, latest first.
pub fn occurrences(before: &[u64], key: u64) -> impl Iterator<Item = usize> + '_ {
    before
        .iter()
        .enumerate()
        .rev()
        .skip(1)
        .step_by(2)
        .filter(move |&(_, &k)| k == key)
        .map(|(i, _)| i)
}

/// The latest earlier occurrence of the position with key `key` that stands right after
/// `before` (a key window): its index in `before`.
#[inline]
pub fn last_occurrence(before: &[u64], key: u64) -> Option<usize> {
    occurrences(before, key).next()
}

/// Under `Repetition::Fourfold` a position's fourth occurrence ends the game. When the position
/// with key `key` standing right after `before` (a key window) is that occurrence (or a later
/// one), the index in `before` of its first occurrence, where the repetition cycle starts.
pub fn fourfold_cycle_start(before: &[u64], key: u64) -> Option<usize> {
    let mut earlier = occurrences(before, key);
    let third = earlier.nth(2)?;
    Some(earlier.last().unwrap_or(third))
}

/// RULES.md section 8: the result of a repetition cycle, given for each side whether its every
/// move in the cycle was a check or an attack (indexed by `Color::index`). That side loses,
/// unless both sides' were (then, as when neither's were, it is a draw).
pub fn cycle_outcome(attacked_throughout: [bool; 2]) -> Outcome {
    match (
        attacked_throughout[Color::Sente.index()],
        attacked_throughout[Color::Gote.index()],
    ) {
        (true, false) => Outcome::win(Color::Gote, OutcomeReason::PerpetualAttack),
        (false, true) => Outcome::win(Color::Sente, OutcomeReason::PerpetualAttack),
        _ => Outcome::draw(OutcomeReason::Repetition),
    }
}

/// `cycle_outcome` of the cycle made by the last `plies` moves of `pos`'s own history, found by
/// taking them back on a copy; `None` if the history is shorter.
pub fn cycle_outcome_of(pos: &Position, plies: usize) -> Option<Outcome> {
    let mut probe = pos.clone();
    let mut attacked_throughout = [true; 2];
    for _ in 0..plies {
        let mover = (!probe.side_to_move()).index();
        if attacked_throughout[mover] && !probe.last_move_checks_or_attacks() {
            attacked_throughout[mover] = false;
        }
        probe.undo()?;
    }
    Some(cycle_outcome(attacked_throughout))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_positions_with_the_same_side_to_move_are_compared() {
        let before = [1, 2, 1, 2];
        assert_eq!(occurrences(&before, 1).collect::<Vec<_>>(), vec![2, 0]);
        assert_eq!(last_occurrence(&before, 2), None);
        assert_eq!(last_occurrence(&[], 1), None);
    }

    #[test]
    fn the_fourth_occurrence_starts_its_cycle_at_the_first() {
        let before = [7, 1, 2, 1, 2, 1, 2];
        assert_eq!(fourfold_cycle_start(&before, 1), Some(1));
        assert_eq!(fourfold_cycle_start(&before[2..], 1), None);
    }

    #[test]
    fn the_side_that_attacked_throughout_loses_unless_both_did() {
        let gote_wins = Outcome::win(Color::Gote, OutcomeReason::PerpetualAttack);
        assert_eq!(cycle_outcome([true, false]), gote_wins);
        let draw = Outcome::draw(OutcomeReason::Repetition);
        assert_eq!(cycle_outcome([true, true]), draw);
        assert_eq!(cycle_outcome([false, false]), draw);
    }
}
