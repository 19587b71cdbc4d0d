//! Chu Shogi moves: steps, jumps and slides from the attack tables, then lion power (double
//! moves, igui, the pass) and the lion-trading rules.

use super::MoveList;
use crate::board::attacks::tables;
use crate::board::{Bitboard, Color, Kind, LionPower, Square};
use crate::moves::Move;
use crate::position::Position;

/// Squares holding an enemy Lion that a non-Lion may not capture now: under a counter-strike
/// every enemy Lion except, where the rules allow it, one on the counter-strike square itself
/// (rule 4; HaChu forbids that recapture too); with the Okazaki rule, unprotected Lions are fair
/// game (rule 5).
pub(crate) fn counter_strike_forbidden(pos: &Position) -> Bitboard {
    let Some(cs) = pos.counter_strike() else {
        return Bitboard::EMPTY;
    };
    let them = !pos.side_to_move();
    let mut forbidden = pos.lions(them);
    if pos.rules().counter_strike_recapture {
        forbidden.clear(cs);
    }
    if pos.rules().okazaki {
        let occ = pos.occupied();
        for lion in forbidden {
            if pos.attackers_to(lion, them, occ).is_empty() {
                forbidden.clear(lion);
            }
        }
    }
    forbidden
}

/// Whether a Lion on `from` may take the Lion on `target`, two squares away, by a single move
/// (rule 2): not if the target is protected with the capturer gone from its start.
pub(crate) fn distant_lion_protected(pos: &Position, from: Square, target: Square) -> bool {
    let them = !pos.side_to_move();
    pos.attackers_to(target, them, pos.occupied().without(from))
        .any()
}

/// Rule 3 for a double move whose first step took `mid` (a pawn or go-between) and whose second
/// step takes the Lion on `target`, two squares from `from`: illegal when the target is
/// protected with start and middle vacated; under lishogi's reading the captured middle piece
/// counts as a protector.
pub(crate) fn bridge_capture_protected(
    pos: &Position,
    from: Square,
    mid: Square,
    target: Square,
) -> bool {
    let them = !pos.side_to_move();
    let clear = pos.occupied().without(from).without(mid);
    let mut protectors = pos.attackers_to(target, them, clear);
    if !pos.rules().lion_middle_protector {
        protectors.clear(mid);
    }
    protectors.any()
}

/// Appends the legal moves, or with `tactical_only` just the captures and promotions among them.
pub(super) fn generate(pos: &Position, tactical_only: bool, out: &mut MoveList) {
    generate_from(
        pos,
        Bitboard::FULL,
        tactical_only,
        |_, _| Bitboard::FULL,
        out,
    );
}

/// Appends the moves of `generate` that may take a piece on `targets`, in its order, a superset
/// of those that do: the tactical moves of only the pieces whose empty-board reach meets
/// `targets`, and of those other than Lions only the single moves onto `targets`.
pub(super) fn captures_on_candidates(pos: &Position, targets: Bitboard, out: &mut MoveList) {
    let t = tables();
    let us = pos.side_to_move();
    let mut origins = Bitboard::EMPTY;
    for from in pos.pieces(us) {
        if (t.reach(pos.piece_at(from).kind(), us, from) & targets).any() {
            origins.set(from);
        }
    }
    generate_from(pos, origins, true, |_, _| targets, out);
}

/// Whether `mv` is among the moves `generate` lists, found from the moves of the piece on its
/// start square alone; `None` for a pass (any piece may make it) and an igui (the generator
/// lists it under the first capturer only).
pub(super) fn is_legal_by_piece(pos: &Position, mv: Move) -> Option<bool> {
    if mv.is_pass() || (mv.mid().is_some() && mv.to() == mv.from()) {
        return None;
    }
    let mut moves = MoveList::new();
    let origin = Bitboard::from_square(mv.from());
    generate_from(pos, origin, false, |_, _| Bitboard::FULL, &mut moves);
    Some(moves.contains(&mv))
}

/// `generate` for the pieces standing on `origins` only, and of a piece other than a Lion only
/// the single moves to `destinations(kind, from)` (double moves, igui and the pass all).
pub(super) fn generate_from(
    pos: &Position,
    origins: Bitboard,
    tactical_only: bool,
    destinations: impl Fn(Kind, Square) -> Bitboard,
    out: &mut MoveList,
) {
    let t = tables();
    let us = pos.side_to_move();
    let them = !us;
    let own = pos.pieces(us);
    let enemy = pos.pieces(them);
    let occ = own | enemy;
    let walls = occ | pos.variant().off_board();
    let blocked = own | pos.variant().off_board();
    let enemy_lions = pos.lions(them);
    let cs_forbidden = counter_strike_forbidden(pos);
    let promotion_rules = pos.promotions();
    // Igui of one victim is one move whoever makes it, unless only one capturer sets the
    // counter-strike: index 1 marks igui by a non-Lion of a Lion.
    let mut igui_done = [Bitboard::EMPTY; 2];
    let mut can_pass = false;
    // Every capture lands on an enemy and every promotion on or from the zone: a piece whose
    // empty-board reach meets neither has no tactical move (lion double moves start with a
    // capture).
    let tactical_squares = enemy | pos.variant().zone(us);

    for from in own & origins {
        let kind = pos.piece_at(from).kind();
        let dirs = t.slide_dirs(kind, us);
        let leaps = t.leaper(kind, us, from);
        if tactical_only {
            let reach = if dirs == 0 {
                leaps
            } else {
                t.reach(kind, us, from)
            };
            if (reach & tactical_squares).is_empty() {
                continue;
            }
        }
        let mut targets = leaps & !blocked;
        if dirs != 0 {
            targets |= t.slides(dirs, from, walls) & !blocked;
        }
        let power = kind.lion_power();
        if power != LionPower::None && !can_pass && !tactical_only {
            can_pass = (t.lion_first(kind, us, from) & !walls).any();
        }
        if kind.is_lion() {
            for lion in targets & enemy_lions & !t.neighbours(from) {
                if distant_lion_protected(pos, from, lion) {
                    targets.clear(lion);
                }
            }
            if tactical_only {
                targets &= enemy;
            }
            for to in targets {
                out.push(Move::normal(from, to));
            }
            lion_double_moves(pos, from, enemy, blocked, enemy_lions, &mut igui_done, out);
            continue;
        }
        targets &= !cs_forbidden & destinations(kind, from);
        let promotions = promotion_rules.squares(kind, from, targets, enemy);
        for to in promotions {
            out.push(Move::promoting(from, to));
        }
        let mut plain = targets & !promotion_rules.forced(kind, promotions);
        if tactical_only {
            plain &= enemy;
        }
        for to in plain {
            out.push(Move::normal(from, to));
        }
        if let LionPower::Lines(_) = power {
            line_double_moves(
                pos,
                kind,
                from,
                enemy,
                blocked,
                cs_forbidden,
                &mut igui_done,
                out,
            );
        }
    }
    if can_pass {
        out.push(Move::PASS);
    }
}

/// Double moves of a Lion whose first step captures: igui, and a second king step anywhere not
/// holding a friendly piece. Double moves through an empty square are direct moves or the pass.
fn lion_double_moves(
    pos: &Position,
    from: Square,
    enemy: Bitboard,
    blocked: Bitboard,
    enemy_lions: Bitboard,
    igui_done: &mut [Bitboard; 2],
    out: &mut MoveList,
) {
    let t = tables();
    for mid in t.neighbours(from) & enemy {
        if !igui_done[0].has(mid) {
            igui_done[0].set(mid);
            out.push(Move::double(from, mid, from));
        }
        let victim = pos.piece_at(mid).kind();
        let weak_first_victim = matches!(victim, Kind::Pawn | Kind::GoBetween);
        for to in t.neighbours(mid) & !blocked {
            if weak_first_victim
                && enemy_lions.has(to)
                && from.distance(to) == 2
                && bridge_capture_protected(pos, from, mid, to)
            {
                continue;
            }
            out.push(Move::double(from, mid, to));
        }
    }
}

/// Double moves of a Horned Falcon or Soaring Eagle along a lion line whose first square holds
/// an enemy: igui, or on to the next square of the line.
#[allow(clippy::too_many_arguments)]
fn line_double_moves(
    pos: &Position,
    kind: Kind,
    from: Square,
    enemy: Bitboard,
    blocked: Bitboard,
    cs_forbidden: Bitboard,
    igui_done: &mut [Bitboard; 2],
    out: &mut MoveList,
) {
    let t = tables();
    let us: Color = pos.side_to_move();
    for mid in t.lion_first(kind, us, from) & enemy & !cs_forbidden {
        let sets_counter_strike = pos.piece_at(mid).kind().is_lion() as usize;
        if !igui_done[sets_counter_strike].has(mid) {
            igui_done[sets_counter_strike].set(mid);
            out.push(Move::double(from, mid, from));
        }
        let dc = mid.col() as i8 - from.col() as i8;
        let dr = mid.row() as i8 - from.row() as i8;
        if let Some(to) = mid.offset(dc, dr) {
            if !blocked.has(to) && !cs_forbidden.has(to) {
                out.push(Move::double(from, mid, to));
            }
        }
    }
}
