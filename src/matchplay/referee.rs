//! The referee: plays each move an engine sends on shishi's own game record and decides when the
//! game is over, by shishi's rules alone. A move must parse and be legal (`notation::parse_move`,
//! and under a `forbid` repetition rule it must not repeat an earlier position); the endings are
//! `game::GameRecord::outcome`: the position-based ones of `Position::outcome` plus the fourfold
//! repetition of docs/rules.md section 8 with its perpetual check or attack loss.

use crate::game::{GameRecord, PlayError};
use crate::moves::Move;
use crate::notation::Notation;
use crate::position::{Outcome, Position};

/// Judges one game: owns its record from the opening's root on.
pub struct Referee {
    record: GameRecord,
}

impl Referee {
    /// A game starting at `pos`, under `pos`'s rules; `pos`'s own move history is dropped.
    pub fn new(pos: Position) -> Referee {
        Referee {
            record: GameRecord::new(pos),
        }
    }

    /// The current position; its history holds every move played since the root.
    pub fn position(&self) -> &Position {
        self.record.position()
    }

    /// Plays `text` if it is a legal move here, returning the move; otherwise the reason.
    pub fn play(&mut self, text: &str, notation: Notation) -> Result<Move, PlayError> {
        self.record.play_text(text, notation)
    }

    /// The result if the game is over in the current position.
    pub fn outcome(&self) -> Option<Outcome> {
        self.record.outcome()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Variant;
    use crate::position::OutcomeReason;
    use crate::rules::Preset;

    fn shuffle(referee: &mut Referee, moves: &[&str]) -> Option<Outcome> {
        for m in moves {
            referee.play(m, Notation::Usi).unwrap();
            if let Some(o) = referee.outcome() {
                return Some(o);
            }
        }
        None
    }

    #[test]
    fn fourfold_repetition_of_king_shuffles_is_a_draw() {
        let mut r = Referee::new(Position::startpos(Variant::Heian));
        let cycle = ["5i5h", "5a5b", "5h5i", "5b5a"];
        let mut all = Vec::new();
        for _ in 0..3 {
            all.extend_from_slice(&cycle);
        }
        assert_eq!(
            shuffle(&mut r, &all),
            Some(Outcome::draw(OutcomeReason::Repetition))
        );
        assert_eq!(r.position().plies_played(), 12);
    }

    #[test]
    fn forbidden_repetition_is_an_illegal_move() {
        let pos = Position::startpos(Variant::Heian).with_rules(Preset::Hachu.rules());
        let mut r = Referee::new(pos);
        shuffle(&mut r, &["5i5h", "5a5b", "5h5i"]);
        let err = r.play("5b5a", Notation::Usi).unwrap_err();
        assert!(matches!(err, PlayError::Move(_)), "{err:?}");
        assert!(err.to_string().contains("repeats"), "{err}");
        assert_eq!(r.position().plies_played(), 3);
    }

    #[test]
    fn unparsable_and_illegal_moves_are_refused() {
        let mut r = Referee::new(Position::startpos(Variant::Chushogi));
        assert!(r.play("hello", Notation::Usi).is_err());
        assert!(r.play("7g7f", Notation::Usi).is_err());
        assert_eq!(r.position().plies_played(), 0);
    }
}
