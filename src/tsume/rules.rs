//! Which moves a tsume allows: the attacker's checks and the defender's escapes (see the
//! module doc of `tsume` for the conventions).

use crate::board::Color;
use crate::movegen::{generate, MoveList};
use crate::moves::Move;
use crate::position::Position;

/// The defender has no royal left: the attacker has won.
pub(super) fn royals_gone(pos: &Position, defender: Color) -> bool {
    pos.royals(defender).is_empty()
}

/// Whether the position after an attacker move threatens the defender: a royal is attacked or
/// none is left.
pub(super) fn is_check(after: &Position, defender: Color) -> bool {
    royals_gone(after, defender) || after.in_check(defender)
}

/// A move of the side to move that takes `defender`'s last royal, if any: with one royal left
/// its capture, with King and Crown Prince a Lion's double capture of both.
pub(super) fn last_royal_capture(pos: &mut Position, defender: Color) -> Option<Move> {
    let mut moves = MoveList::new();
    generate(pos, &mut moves);
    moves.into_iter().find(|&mv| {
        pos.play(mv);
        let won = royals_gone(pos, defender);
        pos.undo();
        won
    })
}

/// Whether the position after a defender move is an escape: a legal move after which the
/// attacker cannot take the defender's last royal, or one that took the attacker's last royal.
/// With a single royal that is "not attacked"; with two (a Drunk Elephant promoted to Crown
/// Prince) only a Lion's double capture of both takes the last one, so the move is an escape
/// unless the attacker has such a capture, which is what the verifier asks too. The defender
/// is mated when no legal move is an escape.
///
/// `attacker_royal`: the attacker had a royal before the move.
pub(super) fn is_escape(after: &mut Position, defender: Color, attacker_royal: bool) -> bool {
    // Taking the attacker's last royal wins for the defender, whatever else hangs.
    if attacker_royal && royals_gone(after, !defender) {
        return true;
    }
    if !after.in_check(defender) {
        return true;
    }
    after.royals(defender).count() > 1 && last_royal_capture(after, defender).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Variant;

    /// Gote's King (5a) and Crown Prince (4a) beside sente's Lion: the Lion takes both in one
    /// double move, so the position is no escape for gote; a Lion two squares off takes only
    /// one of them, which leaves gote a royal.
    #[test]
    fn two_royals_escape_unless_a_lion_takes_both() {
        let mut both = Position::from_sfen(
            Variant::Chushogi,
            "7k+e3/7N4/12/12/12/12/12/12/12/12/12/6K5 b - 1",
        )
        .unwrap();
        assert_eq!(both.royals(Color::Gote).count(), 2);
        assert!(last_royal_capture(&mut both, Color::Gote).is_some());
        assert!(!is_escape(&mut both, Color::Gote, true));
        let mut one = Position::from_sfen(
            Variant::Chushogi,
            "7k+e3/12/7N4/12/12/12/12/12/12/12/12/6K5 b - 1",
        )
        .unwrap();
        assert!(one.in_check(Color::Gote));
        assert!(last_royal_capture(&mut one, Color::Gote).is_none());
        assert!(is_escape(&mut one, Color::Gote, true));
    }
}
