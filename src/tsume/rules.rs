//! Which moves a tsume allows: the attacker's checks and the defender's escapes (see the
//! module doc of `tsume` for the conventions).

use crate::board::Color;
use crate::movegen::{generate, MoveList};
use crate::position::Position;

/// The defender has no royal left: the attacker has won.
pub fn royals_gone(pos: &Position, defender: Color) -> bool {
    pos.royals(defender).is_empty()
}

/// Whether the position after an attacker move threatens the defender: a royal is attacked or
/// none is left.
pub fn is_check(after: &Position, defender: Color) -> bool {
    royals_gone(after, defender) || after.in_check(defender)
}

/// The attacker's checks in `pos` (attacker to move).
pub fn checks(pos: &mut Position) -> MoveList {
    let defender = !pos.side_to_move();
    let mut all = MoveList::new();
    generate(pos, &mut all);
    all.retain(|mv| {
        pos.play(*mv);
        let check = is_check(pos, defender);
        pos.undo();
        check
    });
    all
}

/// The defender's escapes in `pos` (defender to move): its legal moves, less those after which
/// it has a single royal and that royal is attacked, unless the move took the attacker's last
/// royal. A move that gains a second royal (a Drunk Elephant promoting to Crown Prince) is an
/// escape even when the King stays attacked: taking the King no longer ends the game.
pub fn escapes(pos: &mut Position) -> MoveList {
    let defender = pos.side_to_move();
    let mut all = MoveList::new();
    if royals_gone(pos, defender) {
        return all;
    }
    generate(pos, &mut all);
    let attacker = !defender;
    let attacker_royal = pos.royals(attacker).any();
    all.retain(|mv| {
        pos.play(*mv);
        // Taking the attacker's last royal wins for the defender, whatever else hangs.
        let safe = pos.royals(defender).count() != 1
            || !pos.in_check(defender)
            || (attacker_royal && royals_gone(pos, attacker));
        pos.undo();
        safe
    });
    all
}
