//! The repetition rule of docs/rules.md section 8, written once for the game record, the search and
//! its root: what a repetition cycle means under `Repetition::Fourfold`. Where the current
//! position occurred before among the positions since the last irreversible move is the
//! position's own answer (`Position::earlier_occurrences` and the queries built on it): its
//! undo stack is the one owner of the game's history.

use crate::board::Color;
use crate::position::{Outcome, OutcomeReason, Position};

/// docs/rules.md section 8: the result of a repetition cycle, given for each side whether its every
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

    fn play(pos: &mut Position, moves: &str) {
        for text in moves.split_whitespace() {
            let mv = crate::notation::parse_move(pos, text, crate::notation::Notation::Usi)
                .unwrap_or_else(|e| panic!("{text}: {e:?}"));
            pos.play(mv);
        }
    }

    #[test]
    fn the_position_counts_occurrences_with_the_same_side_to_move() {
        let mut pos = Position::startpos(crate::board::Variant::Heian);
        let shuffle = "5i5h 5a5b 5h5i 5b5a";
        play(&mut pos, shuffle);
        assert_eq!(pos.earlier_occurrences().collect::<Vec<_>>(), vec![4]);
        assert_eq!(pos.last_repetition(), Some(4));
        assert_eq!(pos.repetition_count(), 2);
        assert_eq!(pos.fourfold_cycle_plies(), None);
        play(&mut pos, "5i5h");
        // The position after the first move again, four plies later.
        assert_eq!(pos.last_repetition(), Some(4));
        play(&mut pos, "5a5b 5h5i 5b5a");
        play(&mut pos, shuffle);
        assert_eq!(pos.repetition_count(), 4);
        assert_eq!(pos.fourfold_cycle_plies(), Some(12));
        // A pawn move is irreversible: the window starts again.
        play(&mut pos, "7g7f");
        assert_eq!(pos.repetition_window().count(), 0);
        assert_eq!(pos.repetition_count(), 1);
        pos.undo();
        assert_eq!(pos.repetition_count(), 4);
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
