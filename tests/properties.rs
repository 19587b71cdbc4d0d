//! Properties checked over seeded random games of both families: undo restores the position
//! bit for bit, the incremental key equals the key from scratch, every legal move survives a
//! round trip through both notations, SFEN and XBoard FEN round-trip, no two generated moves
//! have the same effect, and the tactical generator gives exactly the captures and promotions.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shishi::board::Variant;
use shishi::movegen::{generate_tactical, MoveList};
use shishi::notation::{parse_move, write_move, Notation};
use shishi::position::Position;
use std::collections::HashSet;

/// Plays `plies` random legal moves from the start of `variant` (restarting when a game ends),
/// calling `check` on every position reached.
fn random_walk(variant: Variant, seed: u64, plies: usize, mut check: impl FnMut(&Position)) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut pos = Position::startpos(variant);
    for _ in 0..plies {
        check(&pos);
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.outcome().is_some() {
            pos = Position::startpos(variant);
            continue;
        }
        // Prefer captures now and then so games reach sparse, promoted, lion-trading positions.
        let captures: Vec<_> = moves
            .iter()
            .copied()
            .filter(|&m| pos.is_capture(m))
            .collect();
        let mv = if !captures.is_empty() && rng.gen_bool(0.6) {
            captures[rng.gen_range(0..captures.len())]
        } else {
            moves[rng.gen_range(0..moves.len())]
        };
        pos.play(mv);
    }
}

fn all_variants() -> [Variant; 5] {
    Variant::ALL
}

#[test]
fn undo_restores_the_position_and_keys_stay_exact() {
    for (i, v) in all_variants().into_iter().enumerate() {
        random_walk(v, 11 + i as u64, 1500, |pos| {
            pos.check_consistency().unwrap();
            for mv in pos.legal_moves() {
                let mut after = pos.clone();
                after.play(mv);
                after
                    .check_consistency()
                    .unwrap_or_else(|e| panic!("{e} after {mv:?} in {pos:?}"));
                after.undo();
                assert_eq!(&after, pos, "undo of {mv:?}");
                assert_eq!(after.key(), pos.key());
                after.check_consistency().unwrap();
            }
        });
    }
}

#[test]
fn every_legal_move_round_trips_through_both_notations() {
    // Kinds of move seen, so the test proves it exercised every lion move kind.
    let (mut passes, mut igui, mut doubles, mut promotions, mut counter_strikes) = (0, 0, 0, 0, 0);
    for (i, v) in all_variants().into_iter().enumerate() {
        random_walk(v, 101 + i as u64, 800, |pos| {
            counter_strikes += pos.counter_strike().is_some() as u32;
            for mv in pos.legal_moves() {
                passes += mv.is_pass() as u32;
                igui += mv.is_igui() as u32;
                doubles += (mv.mid().is_some() && !mv.is_igui()) as u32;
                promotions += mv.is_promotion() as u32;
                for notation in [Notation::Usi, Notation::Xboard] {
                    let text = write_move(pos, mv, notation);
                    let back = parse_move(pos, &text, notation).unwrap_or_else(|e| {
                        panic!("{text} ({notation:?}) rejected: {e} in {pos:?}")
                    });
                    assert_eq!(back, mv, "{text} ({notation:?}) in {pos:?}");
                }
            }
        });
    }
    assert!(passes > 0 && igui > 0 && doubles > 0 && promotions > 0 && counter_strikes > 0,
        "walk too narrow: {passes} passes, {igui} igui, {doubles} double moves, {promotions} promotions, {counter_strikes} counter-strike positions");
}

#[test]
fn sfen_and_xboard_fen_round_trip() {
    for (i, v) in all_variants().into_iter().enumerate() {
        random_walk(v, 202 + i as u64, 1500, |pos| {
            let sfen = pos.to_sfen();
            let back = Position::from_sfen(v, &sfen).unwrap();
            assert_eq!(&back, pos, "{sfen}");
            assert_eq!(back.key(), pos.key(), "{sfen}");
            assert_eq!(back.to_sfen(), sfen);
            let fen = pos.to_xboard_fen();
            let back = Position::from_xboard_fen(v, &fen).unwrap();
            // XBoard FEN has no counter-strike field.
            assert_eq!(back.board_string(), pos.board_string(), "{fen}");
            assert_eq!(back.side_to_move(), pos.side_to_move(), "{fen}");
        });
    }
}

#[test]
fn no_two_generated_moves_have_the_same_effect() {
    for (i, v) in all_variants().into_iter().enumerate() {
        random_walk(v, 303 + i as u64, 1500, |pos| {
            let moves = pos.legal_moves();
            let mut effects = HashSet::new();
            for &mv in &moves {
                let mut after = pos.clone();
                after.play(mv);
                assert!(
                    effects.insert((after.board_string(), after.counter_strike())),
                    "{mv:?} repeats the effect of another move in {pos:?}"
                );
            }
        });
    }
}

#[test]
fn tactical_generator_gives_exactly_the_captures_and_promotions() {
    for (i, v) in all_variants().into_iter().enumerate() {
        random_walk(v, 505 + i as u64, 3000, |pos| {
            let mut expected: Vec<u32> = pos
                .legal_moves()
                .iter()
                .filter(|m| m.is_promotion() || pos.is_capture(**m))
                .map(|m| m.bits())
                .collect();
            let mut tactical = MoveList::new();
            if pos.royals(pos.side_to_move()).any() {
                generate_tactical(pos, &mut tactical);
            }
            let mut got: Vec<u32> = tactical.iter().map(|m| m.bits()).collect();
            expected.sort_unstable();
            got.sort_unstable();
            assert_eq!(got, expected, "tactical moves differ in {pos:?}");
        });
    }
}
