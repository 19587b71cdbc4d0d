//! The proof and disproof numbers a child starts with before it is searched (df-pn+, after
//! KomoringHeights and GPS Shogi's liberty estimator): plain df-pn gives every new position
//! (1, 1), so that a node with many checks spreads its work evenly over all of them. A cheap
//! look at the square a move goes to ranks them instead: a check onto a square the attacker
//! holds, or that takes a defender, is tried first; an escape that takes the checker, or
//! interposes on a square the defender holds, is taken as the harder one for the attacker.
//! The numbers order the search only; no proof or disproof depends on them.

use crate::moves::Move;
use crate::position::Position;

/// The starting (proof, disproof) numbers of the position `mv` leads to from `pos`; `or`
/// says the attacker is to move in `pos`.
pub(super) fn initial_numbers(pos: &Position, mv: Move, or: bool) -> (u32, u32) {
    if mv.is_pass() {
        return (1, 1);
    }
    let us = pos.side_to_move();
    let them = !us;
    let to = mv.to();
    let captures = mv.mid().is_some() || (to != mv.from() && pos.piece_at(to).is_some());
    let attackers = pos.attackers_of_both(to, pos.occupied());
    let ours = (attackers & pos.pieces(us)).count();
    let theirs = (attackers & pos.pieces(them)).count();
    if or {
        let pn = 1 + u32::from(theirs >= 2);
        if ours > theirs || captures {
            (pn, 2)
        } else {
            (pn + 1, 1)
        }
    } else if captures {
        (2, 1)
    } else if pos.royals(us).has(mv.from()) {
        (1, 1)
    } else if ours > theirs {
        (2, 1)
    } else {
        (1, 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Variant;
    use crate::notation::{parse_move, Notation};

    fn numbers(sfen: &str, mv: &str, or: bool) -> (u32, u32) {
        let pos = Position::from_sfen(Variant::Heian, sfen).unwrap();
        let mv = parse_move(&pos, mv, Notation::Usi).unwrap();
        initial_numbers(&pos, mv, or)
    }

    #[test]
    fn tsume_a_check_onto_a_square_the_attacker_holds_starts_nearer_a_proof() {
        let alone = numbers("4k4/9/4G4/9/9/9/9/9/4K4 b - 1", "5c5b", true);
        let backed = numbers("4k4/9/4GS3/9/9/9/9/9/4K4 b - 1", "5c5b", true);
        assert_eq!(alone, (2, 1));
        assert_eq!(backed, (1, 2));
    }

    #[test]
    fn tsume_an_escape_that_takes_the_checker_starts_harder_to_prove_than_a_royal_step() {
        let sfen = "4k4/4S4/9/9/9/9/9/9/4K4 w - 1";
        assert_eq!(numbers(sfen, "5a5b", false), (2, 1));
        assert_eq!(numbers(sfen, "5a4b", false), (1, 1));
    }
}
