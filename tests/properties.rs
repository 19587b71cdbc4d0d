//! Properties checked over seeded random games of both families: undo restores the position
//! bit for bit, the incremental key equals the key from scratch, every legal move survives a
//! round trip through both notations, SFEN and XBoard FEN round-trip, no two generated moves
//! have the same effect, the tactical generator gives exactly the captures and promotions, and a
//! peek at a move agrees with the move made.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shishi::board::{Color, Square, Variant};
use shishi::movegen::{generate, generate_tactical, MoveList};
use shishi::notation::{parse_move, write_move, Notation};
use shishi::position::Position;
use shishi::rules::Preset;
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

/// A peek at each generated move (`Position::peek`, the move not made) agrees with the move
/// made: the piece on every square, the royals, the checks on both sides and the key, under
/// every rule set. The games must hold double moves (igui among them), promotions, Lions taken
/// by other pieces (the counter-strike square) and pawns declining promotion (HaChu's rule), so
/// that every part of the peek is tried.
#[test]
fn a_peek_at_a_move_agrees_with_the_move_made() {
    let (mut doubles, mut igui, mut promotions, mut counter_strikes, mut declines) =
        (0, 0, 0, 0, 0);
    for (i, v) in all_variants().into_iter().enumerate() {
        for preset in Preset::ALL {
            random_walk(v, 57 + i as u64, 1000, |game_pos| {
                let mut pos = game_pos.clone().with_rules(preset.rules());
                let mut moves = MoveList::new();
                generate(&pos, &mut moves);
                for mv in moves {
                    let (squares, royals, checks, key) = {
                        let peek = pos.peek(mv);
                        (
                            Square::all().map(|s| peek.piece_at(s)).collect::<Vec<_>>(),
                            [peek.royals(Color::Sente), peek.royals(Color::Gote)],
                            [peek.in_check(Color::Sente), peek.in_check(Color::Gote)],
                            peek.key(),
                        )
                    };
                    pos.play(mv);
                    let what = format!("{} after {mv:?}", pos.to_sfen());
                    let made: Vec<_> = Square::all().map(|s| pos.piece_at(s)).collect();
                    assert_eq!(squares, made, "{what}");
                    let made_royals = [pos.royals(Color::Sente), pos.royals(Color::Gote)];
                    assert_eq!(royals, made_royals, "{what}");
                    let made_checks = [pos.in_check(Color::Sente), pos.in_check(Color::Gote)];
                    assert_eq!(checks, made_checks, "{what}");
                    assert_eq!(key, pos.key(), "{what}");
                    counter_strikes += usize::from(pos.counter_strike().is_some());
                    declines += usize::from(pos.declined_pawns().any());
                    pos.undo();
                    doubles += usize::from(mv.mid().is_some());
                    igui += usize::from(!mv.is_pass() && mv.from() == mv.to());
                    promotions += usize::from(mv.is_promotion());
                }
            });
        }
    }
    let seen = [doubles, igui, promotions, counter_strikes, declines];
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
}
