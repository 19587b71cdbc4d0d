//! Which moves a tsume allows: the attacker's checks and the defender's escapes (see the
//! module doc of `tsume` for the conventions).

use crate::board::Color;
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

/// Whether the position after a defender move is an escape: a legal move after which the
/// defender does not have a single royal left attacked, or one that took the attacker's last
/// royal. A move that gains a second royal (a Drunk Elephant promoting to Crown Prince) is an
/// escape even when the King stays attacked: taking the King no longer ends the game. The
/// defender is mated when no legal move is an escape.
///
/// `attacker_royal`: the attacker had a royal before the move.
pub(super) fn is_escape(after: &Position, defender: Color, attacker_royal: bool) -> bool {
    // Taking the attacker's last royal wins for the defender, whatever else hangs.
    after.royals(defender).count() != 1
        || !after.in_check(defender)
        || (attacker_royal && royals_gone(after, !defender))
}
