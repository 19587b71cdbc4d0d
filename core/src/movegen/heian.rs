//! Heian Shogi moves: shogi piece moves without drops, promotion to gold in the far three ranks
//! (compulsory where the piece could never move again), and king safety.

use super::MoveList;
use crate::board::attacks::tables;
use crate::board::{Bitboard, Kind, Square};
use crate::moves::Move;
use crate::position::Position;

/// Appends every legal move (`tactical`: only the captures and promotions) to `out`.
pub(super) fn generate(pos: &Position, tactical: bool, out: &mut MoveList) {
    let own = pos.pieces(pos.side_to_move());
    generate_from(pos, own, tactical, |_, _| Bitboard::FULL, out);
}

/// Whether `mv` is legal, from the moves of the piece on its start square alone; `None` for a
/// pass or a double move, which no Heian piece makes (the generator then says no).
pub(super) fn is_legal_by_piece(pos: &Position, mv: Move) -> Option<bool> {
    if mv.is_pass() || mv.mid().is_some() {
        return None;
    }
    let mut moves = MoveList::new();
    let origin = Bitboard::from_square(mv.from());
    generate_from(pos, origin, false, |_, _| Bitboard::FULL, &mut moves);
    Some(moves.contains(&mv))
}

/// Appends the moves of `generate` that may take a piece on `targets`, in its order, a superset
/// of those that do: the tactical moves onto `targets`.
pub(super) fn captures_on_candidates(pos: &Position, targets: Bitboard, out: &mut MoveList) {
    generate_from(pos, Bitboard::FULL, true, |_, _| targets, out);
}

/// `generate` for the pieces standing on `origins` only, each with only its moves to
/// `destinations(kind, from)`.
pub(super) fn generate_from(
    pos: &Position,
    origins: Bitboard,
    tactical: bool,
    destinations: impl Fn(Kind, Square) -> Bitboard,
    out: &mut MoveList,
) {
    let t = tables();
    let v = pos.variant();
    let us = pos.side_to_move();
    let them = !us;
    let own = pos.pieces(us);
    let occ = pos.occupied();
    let walls = occ | v.off_board();
    let blocked = own | v.off_board();
    let zone = v.zone(us);
    let last = v.last_rank(us);
    let last_two = v.last_two_ranks(us);

    let king = pos.royals(us).single();
    let in_check = king.is_some_and(|k| pos.attackers_to(k, them, occ).any());
    // Only lances slide in Heian, so only a piece on the king's file can be pinned.
    let lance_file = king.filter(|k| {
        pos.pieces_of(them, Kind::HeianLance)
            .iter()
            .any(|l| l.col() == k.col())
    });
    let safe = |from: Square, to: Square| -> bool {
        let Some(k) = king else { return true };
        let risky = in_check || from == k || lance_file.is_some_and(|k| k.col() == from.col());
        if !risky {
            return true;
        }
        let after = occ.without(from).with(to);
        let target = if from == k { to } else { k };
        (pos.attackers_to(target, them, after) & !Bitboard::from_square(to)).is_empty()
    };

    let enemy = pos.pieces(them);
    for from in own & origins {
        let kind = pos.piece_at(from).kind();
        let mut targets = t.attacks(kind, us, from, walls) & !blocked & destinations(kind, from);
        if targets.is_empty() {
            continue;
        }
        let (may_promote, must_promote) = match kind {
            Kind::HeianPawn | Kind::HeianLance => (true, last),
            Kind::HeianKnight => (true, last_two),
            Kind::HeianSilver => (true, Bitboard::EMPTY),
            _ => (false, Bitboard::EMPTY),
        };
        let promo = if !may_promote {
            Bitboard::EMPTY
        } else if zone.has(from) {
            targets
        } else {
            targets & zone
        };
        if tactical {
            targets &= enemy | promo;
        }
        for to in targets {
            if !safe(from, to) {
                continue;
            }
            if promo.has(to) {
                out.push(Move::promoting(from, to));
            }
            if !must_promote.has(to) && (!tactical || enemy.has(to)) {
                out.push(Move::normal(from, to));
            }
        }
    }
}
