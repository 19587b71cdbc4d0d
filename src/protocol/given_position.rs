//! The `position` command that set a USI session's game, kept so that the next one plays only
//! the moves it adds. A GUI sends the whole game with every move (`position startpos moves` and
//! all the moves so far), and replaying it through the game record, which judges each move
//! against every legal move, costs about 11 M instructions at ply 300 of a Chu game: a
//! millisecond or more, charged to the engine's clock, out of the ten a move gets at
//! 1 s + 0.01 s. The record after the kept command's moves is the one a replay would make,
//! as long as nothing else has changed the game or the rules it was judged by since.

/// The start and the moves of the `position` command that made the session's game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct GivenPosition {
    setup: Vec<String>,
    moves: Vec<String>,
}

impl GivenPosition {
    /// The command `position <setup> moves <moves>`.
    pub(super) fn new(setup: &[&str], moves: &[&str]) -> GivenPosition {
        GivenPosition {
            setup: setup.iter().map(|w| w.to_string()).collect(),
            moves: moves.iter().map(|w| w.to_string()).collect(),
        }
    }

    /// When `position <setup> moves <moves>` is this command with moves added, how many of
    /// `moves` the game made by this command has already played.
    pub(super) fn played_of(&self, setup: &[&str], moves: &[&str]) -> Option<usize> {
        let same_start =
            self.setup.len() == setup.len() && self.setup.iter().zip(setup).all(|(a, b)| a == b);
        let extends =
            self.moves.len() <= moves.len() && self.moves.iter().zip(moves).all(|(a, b)| a == b);
        (same_start && extends).then_some(self.moves.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_same_start_with_more_moves_extends_a_command() {
        let given = GivenPosition::new(&["startpos"], &["7i7h", "6d6e"]);
        assert_eq!(given.played_of(&["startpos"], &["7i7h", "6d6e"]), Some(2));
        assert_eq!(
            given.played_of(&["startpos"], &["7i7h", "6d6e", "8i8h"]),
            Some(2)
        );
        assert_eq!(given.played_of(&["startpos"], &["7i7h"]), None);
        assert_eq!(
            given.played_of(&["startpos"], &["7i7h", "5d5e", "8i8h"]),
            None
        );
        assert_eq!(
            given.played_of(&["sfen", "startpos"], &["7i7h", "6d6e"]),
            None
        );
        let start = GivenPosition::new(&["sfen", "9/9/9", "b", "-", "1"], &[]);
        assert_eq!(
            start.played_of(&["sfen", "9/9/9", "b", "-", "1"], &["5e5d"]),
            Some(0)
        );
        assert_eq!(
            start.played_of(&["sfen", "9/9/9", "w", "-", "1"], &["5e5d"]),
            None
        );
    }
}
