//! Static exchange evaluation (SEE): the material a move wins or loses once both sides have
//! finished capturing on its destination square, each taking with its least valuable piece and
//! each free to stop. Move ordering puts the captures with a negative balance after the quiet
//! moves and the quiescence search skips them; the cheaper test it replaces ("the capturer is
//! worth more than its victims and the square is defended") called a rook taking a pawn that
//! only a lion defends a loss, and a lion taking a pawn next to a gold a win.
//!
//! Pieces are valued by `params::material` (a royal victim by `eval::victim_value`). Lions make
//! three things differ from chess:
//! - a double move wins both victims; the exchange then goes on where the piece ends. An igui
//!   wins its victim and leaves nothing on that square, so its balance is the victim's value;
//! - a piece with lion power next to the square (a Lion, or a Horned Falcon or Soaring Eagle
//!   with the square on a lion line) captures there by igui and stays where it is: the side that
//!   has one wins the piece on the square and the exchange ends, which no other capture beats;
//! - the lion-trading rules (docs/rules.md section 6) as they bear on one square. Rule 2: a Lion two
//!   squares away may take a Lion on the square only if no enemy defends it, with the capturer
//!   gone from its start. Rule 4: after a non-Lion takes a Lion, a recapture on that same square
//!   is allowed, so the rule only bites when the piece left there is itself a Lion (a Kirin that
//!   promoted while taking) and the rules have no recapture exception (HaChu); with the Okazaki
//!   rule only while that Lion is defended.
//!
//! Approximations: recaptures are single captures onto the square (or igui); a recapture that
//! first takes a piece elsewhere with a double move, and its promotion, are not considered (the
//! first move's promotion is: its gain counts and the promoted piece is what stands on the
//! square). Rule 3 (bridge capture) is left to the first move's legality. Taking a royal ends
//! the exchange, as it usually ends the game. Heian pins are ignored; a king recapturing into a
//! defended square loses a royal's value, so it is never chosen.

use super::params as p;
use crate::board::attacks::tables;
use crate::board::{Bitboard, Color, Kind, Square};
use crate::eval::{captured_value, victim_value};
use crate::moves::Move;
use crate::position::Position;

/// Captures followed on one square at most; real exchanges are far shorter.
const MAX_EXCHANGE: usize = 64;

/// The material balance of the exchange `mv` (a legal move) starts, from the mover's view.
pub(crate) fn see(pos: &Position, mv: Move) -> i32 {
    if mv.is_pass() {
        return 0;
    }
    if mv.is_igui() {
        return captured_value(pos, mv);
    }
    let (from, to) = (mv.from(), mv.to());
    let us = pos.side_to_move();
    let moved = pos.piece_at(from).kind();
    let victim = pos.piece_at(to);
    let mut on_square = placed_kind(moved, mv);
    let mut gains = [0i32; MAX_EXCHANGE];
    gains[0] = captured_value(pos, mv) + (p::material(on_square) - p::material(moved));
    let took_royal = (victim.is_some() && victim.kind().is_royal())
        || mv
            .mid()
            .is_some_and(|mid| pos.piece_at(mid).kind().is_royal());
    if took_royal {
        return gains[0];
    }
    let mut occupied = pos.occupied().without(from);
    if let Some(mid) = mv.mid() {
        occupied.clear(mid);
    }
    // Rule 4 on the square itself: a Lion left there by a non-Lion that took a Lion.
    let mut non_lions_barred = !pos.rules().counter_strike_recapture
        && !moved.is_lion()
        && on_square.is_lion()
        && victim.is_some()
        && victim.kind().is_lion();
    if non_lions_barred && pos.rules().okazaki {
        non_lions_barred = (pos.attackers_to(to, us, occupied) & occupied).any();
    }
    let mut side = !us;
    let mut depth = 1;
    while depth < MAX_EXCHANGE {
        let attackers = pos.attackers_to(to, side, occupied) & occupied;
        let Some(capture) = cheapest_capture(
            pos,
            attackers,
            to,
            side,
            on_square,
            occupied,
            non_lions_barred,
        ) else {
            break;
        };
        gains[depth] = victim_value(on_square);
        depth += 1;
        if capture.igui || on_square.is_royal() {
            break;
        }
        occupied.clear(capture.from);
        on_square = pos.piece_at(capture.from).kind();
        non_lions_barred = false;
        side = !side;
    }
    // Each side takes only when what it wins beats what the best reply then costs it.
    let mut balance = 0;
    for &gain in gains[..depth].iter().rev() {
        balance = gain - balance.max(0);
    }
    balance
}

/// Whether the exchange `mv` starts wins at least `threshold`; quicker than `see` when the
/// victims alone decide it.
pub(crate) fn see_ge(pos: &Position, mv: Move, threshold: i32) -> bool {
    if mv.is_pass() || mv.is_igui() {
        return see(pos, mv) >= threshold;
    }
    let moved = pos.piece_at(mv.from()).kind();
    let on_square = placed_kind(moved, mv);
    let gain = captured_value(pos, mv) + (p::material(on_square) - p::material(moved));
    // The opponent can at most win back the piece on the square.
    if gain < threshold {
        return false;
    }
    if gain - victim_value(on_square) >= threshold {
        return true;
    }
    see(pos, mv) >= threshold
}

/// The kind standing on the destination after `mv`.
fn placed_kind(moved: Kind, mv: Move) -> Kind {
    match (mv.is_promotion(), moved.promotes_to()) {
        (true, Some(promoted)) => promoted,
        _ => moved,
    }
}

/// A capture on the exchange square.
struct Capture {
    from: Square,
    /// Taken by igui: the capturer stays where it is and the exchange ends.
    igui: bool,
}

/// The capture `side` makes next on `to`: an igui if it has one, otherwise its least valuable
/// attacker that the lion-trading rules allow to take the `on_square` piece.
fn cheapest_capture(
    pos: &Position,
    attackers: Bitboard,
    to: Square,
    side: Color,
    on_square: Kind,
    occupied: Bitboard,
    non_lions_barred: bool,
) -> Option<Capture> {
    let t = tables();
    let mut best: Option<(i32, Square)> = None;
    for from in attackers {
        let kind = pos.piece_at(from).kind();
        if on_square.is_lion() {
            if !kind.is_lion() && non_lions_barred {
                continue;
            }
            if kind.is_lion() && from.distance(to) == 2 {
                // Rule 2: a distant Lion is out of reach while anything defends it.
                let rest = occupied.without(from);
                if (pos.attackers_to(to, !side, rest) & rest).any() {
                    continue;
                }
            }
        }
        if t.lion_first(kind, side, from).has(to) {
            return Some(Capture { from, igui: true });
        }
        let value = victim_value(kind);
        if best.is_none_or(|(v, _)| value < v) {
            best = Some((value, from));
        }
    }
    best.map(|(_, from)| Capture { from, igui: false })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Variant;
    use crate::movegen::random_playout;
    use crate::notation::{parse_move, Notation};
    use crate::rules::Preset;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    fn see_of(variant: Variant, sfen: &str, preset: Preset, usi: &str) -> i32 {
        let pos = Position::from_sfen(variant, sfen)
            .unwrap_or_else(|e| panic!("{sfen}: {e}"))
            .with_rules(preset.rules());
        let mv = parse_move(&pos, usi, Notation::Usi).unwrap_or_else(|e| panic!("{usi}: {e}"));
        let value = see(&pos, mv);
        for threshold in [value - 1, value, value + 1] {
            assert_eq!(see_ge(&pos, mv, threshold), value >= threshold, "{usi}");
        }
        value
    }

    fn chu(sfen: &str, usi: &str) -> i32 {
        see_of(Variant::Chushogi, sfen, Preset::Lishogi, usi)
    }

    #[test]
    fn a_pawn_taking_a_pawn_defended_by_a_pawn_breaks_even() {
        // Sente pawn 6g takes 6f; the gote pawn on 6e takes back: 100 - 100.
        let sfen = "k11/12/12/12/6p5/6p5/6P5/12/12/12/12/11K b - 1";
        assert_eq!(chu(sfen, "6g6f"), 0);
    }

    #[test]
    fn a_rook_taking_a_pawn_defended_by_a_pawn_loses_the_rook() {
        // 100 for the pawn, 550 for the rook.
        let sfen = "k11/12/12/12/6p5/6p5/12/12/6R5/12/12/11K b - 1";
        assert_eq!(chu(sfen, "6i6f"), 100 - 550);
    }

    #[test]
    fn a_rook_behind_a_rook_joins_the_exchange() {
        // R takes the gold (300), the gote rook on 6c takes back (550), the rook that stood
        // behind on 6j takes that (550): gote does better not to recapture, 300.
        let sfen = "k11/12/6r5/12/12/6g5/12/12/6R5/6R5/12/11K b - 1";
        assert_eq!(chu(sfen, "6i6f"), 300);
        // A gote lance behind the rook on 6c joins in too: R x G, R x R, R x R, L x R, so
        // sente's second rook does not take (550 - 550 = 0) and gote's first does (550).
        let sfen = "k11/6l5/6r5/12/12/6g5/12/12/6R5/6R5/12/11K b - 1";
        assert_eq!(chu(sfen, "6i6f"), 300 - 550);
    }

    #[test]
    fn a_lion_double_capture_wins_both_victims_then_risks_the_lion() {
        // Gote pawn 6g defended by the gold on 6f, which the silver on 6e defends.
        let sfen = "k11/12/12/12/6s5/6g5/6p5/6N5/12/12/12/11K b - 1";
        assert_eq!(chu(sfen, "6h6g"), 100 - 1800);
        assert_eq!(chu(sfen, "6h6g6f"), 100 + 300 - 1800);
        // Igui: the pawn is taken and the lion stays on 6h, where nothing attacks it.
        assert_eq!(chu(sfen, "6h6g6h"), 100);
        // Without the silver the double capture is free.
        let sfen = "k11/12/12/12/12/6g5/6p5/6N5/12/12/12/11K b - 1";
        assert_eq!(chu(sfen, "6h6g6f"), 100 + 300);
    }

    #[test]
    fn an_adjacent_lion_takes_back_by_igui_out_of_reach() {
        // R x P on 6f; the gote lion on 5e takes the rook by igui and stays on 5e, so the
        // second sente rook on 6j has nothing to take back: 100 - 550.
        let sfen = "k11/12/12/12/7n4/6p5/12/12/6R5/6R5/12/11K b - 1";
        assert_eq!(chu(sfen, "6i6f"), 100 - 550);
    }

    #[test]
    fn a_gold_taking_a_lion_is_retaken_and_retakes() {
        // G x N (1800), the gote silver on 6e takes the gold (300), the sente silver on 5g the
        // silver (250): gote's recapture nets 300 - 250 = 50.
        let sfen = "k11/12/12/12/6s5/6n5/6GS4/12/12/12/12/11K b - 1";
        assert_eq!(chu(sfen, "6g6f"), 1800 - (300 - 250));
    }

    #[test]
    fn a_kirin_promoting_to_lion_on_a_lion_may_be_retaken_except_under_hachu() {
        // The kirin on 6f jumps onto the gote lion on 6d and promotes: 1800 for the lion plus
        // 1800 - 330 for the promotion. The gote silver on 6c may take the new lion back under
        // lishogi's rules (counter-strike exception), not under HaChu's.
        let sfen = "k11/12/6s5/6n5/12/6O5/12/12/12/12/12/11K b - 1";
        let gain = 1800 + (1800 - 330);
        assert_eq!(chu(sfen, "6f6d+"), gain - 1800);
        let chu_with = |preset| see_of(Variant::Chushogi, sfen, preset, "6f6d+");
        assert_eq!(chu_with(Preset::Jcsa), gain - 1800);
        assert_eq!(chu_with(Preset::Hachu), gain);
        // Unpromoted, the kirin is what the silver takes back: 1800 - 330 under every preset.
        assert_eq!(
            see_of(Variant::Chushogi, sfen, Preset::Hachu, "6f6d"),
            1800 - 330
        );
    }

    #[test]
    fn a_protected_lion_cannot_be_taken_by_a_distant_lion() {
        // Sente lion 6g takes the gold on 6f (300), where the sente silver on 7g defends it. The
        // gote lion on 6d, two squares away, may not take it; the gote king on 5e may, and loses
        // itself to the silver, so gote stops: 300. (Were the jump allowed: L x G, N x N, S x N,
        // K x S would net sente 300 - 250.)
        let sfen = "12/12/12/6n5/7k4/6g5/5SN5/12/12/12/12/11K b - 1";
        assert_eq!(chu(sfen, "6g6f"), 300);
    }

    #[test]
    fn heian_exchanges_follow_the_same_rules_without_lions() {
        // Silver x P (100), gold x S (450), the lance behind the silver x G (500): gote does
        // better not to take back, 100.
        let sfen = "k8/9/9/4g4/4p4/4S4/4L4/9/8K b - 1";
        assert_eq!(see_of(Variant::Heian, sfen, Preset::Lishogi, "5f5e"), 100);
        // Without the lance the silver is lost for a pawn.
        let sfen = "k8/9/9/4g4/4p4/4S4/9/9/8K b - 1";
        assert_eq!(
            see_of(Variant::Heian, sfen, Preset::Lishogi, "5f5e"),
            100 - 450
        );
    }

    #[test]
    fn the_quick_threshold_test_agrees_with_the_full_exchange() {
        let mut rng = StdRng::seed_from_u64(11);
        let mut captures = 0;
        for variant in [Variant::Chushogi, Variant::Heian] {
            for pos in (0..4).flat_map(|_| random_playout(variant, 150, 0.4, &mut rng)) {
                for mv in pos.legal_moves() {
                    if !pos.is_capture(mv) {
                        continue;
                    }
                    captures += 1;
                    let value = see(&pos, mv);
                    for threshold in [-100, 0, 100] {
                        assert_eq!(
                            see_ge(&pos, mv, threshold),
                            value >= threshold,
                            "{mv:?} in {pos:?}"
                        );
                    }
                }
            }
        }
        assert!(captures > 1000, "only {captures} captures");
    }
}
