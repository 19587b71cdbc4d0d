//! Game records (core/src/game/): seeded random games under every preset end with a result whose
//! reason the final position confirms, and the repetition rule of docs/rules.md section 8: a cycle
//! of passes, a perpetual check, a perpetual attack, and HaChu's ban on any repeat.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use shishi::board::{Color, Kind};
use shishi::game::{GameError, GameRecord};
use shishi::moves::Move;
use shishi::notation::{IllegalMove, Notation};
use shishi::position::{Outcome, OutcomeReason, Position};
use shishi::rules::{Preset, Repetition};
use shishi::Variant;

fn record(sfen: &str, preset: Preset) -> GameRecord {
    let variant = Variant::from_name("chushogi").unwrap();
    let pos = Position::from_sfen(variant, sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    GameRecord::new(pos.with_rules(preset.rules()))
}

fn play_usi(game: &mut GameRecord, moves: &[&str]) {
    for text in moves {
        assert!(
            game.outcome().is_none(),
            "game over before {text}: {:?}",
            game.outcome()
        );
        let mv = game
            .parse(text, Notation::Usi)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        game.play(mv).unwrap();
    }
}

/// Checks that the result is what the final position and history say it is.
fn assert_result_is_justified(game: &GameRecord, outcome: Outcome, preset: Preset) {
    let pos = game.position();
    let to_move = pos.side_to_move();
    let rules = pos.rules();
    match outcome.reason {
        OutcomeReason::RoyalsCaptured => {
            assert!(pos.royals(to_move).is_empty());
            assert_eq!(outcome.winner, Some(!to_move));
        }
        OutcomeReason::Stalemate => {
            assert!(game.legal_moves().is_empty());
            assert_eq!(outcome.winner, Some(!to_move));
        }
        OutcomeReason::BareKing => {
            assert!(rules.bare_king, "{preset:?} has no bare-king rule");
            let loser = !outcome.winner.expect("bare king has a winner");
            let one_way = pos.kind_bb(Kind::Pawn) | pos.kind_bb(Kind::Lance);
            assert_eq!(
                (pos.pieces(loser) & !one_way).count(),
                1,
                "bared side keeps one royal"
            );
            assert_eq!(pos.royals(loser).count(), 1);
        }
        OutcomeReason::TwoRoyals => {
            assert!(rules.bare_king, "{preset:?} has no two-royal draw");
            assert_eq!(outcome.winner, None);
            assert!(Color::BOTH.iter().all(|&c| pos.royals(c).count() == 1));
        }
        OutcomeReason::Repetition | OutcomeReason::PerpetualAttack => {
            assert_eq!(rules.repetition, Repetition::Fourfold);
            assert_eq!(game.repetition_count(), 4);
        }
        other => panic!("{preset:?}: a random game of legal moves cannot end by {other:?}"),
    }
}

fn random_games(preset: Preset, seed: u64, min_total_plies: usize) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut total = 0;
    let mut games = 0;
    while total < min_total_plies {
        let mut game = GameRecord::new(
            Position::startpos(Variant::from_name("chushogi").unwrap()).with_rules(preset.rules()),
        );
        let outcome = loop {
            if let Some(o) = game.outcome() {
                break o;
            }
            assert!(game.plies() < 20_000, "{preset:?}: game did not end");
            if preset.rules().repetition == Repetition::Forbid {
                assert_eq!(
                    game.repetition_count(),
                    1,
                    "a repeat was played under forbid"
                );
            }
            let moves = game.legal_moves();
            let mv = *moves.choose(&mut rng).expect("no move but no outcome");
            game.play(mv).unwrap();
        };
        assert_result_is_justified(&game, outcome, preset);
        let any = game
            .position()
            .legal_moves()
            .first()
            .copied()
            .unwrap_or(Move::PASS);
        assert_eq!(game.play(any), Err(GameError::GameOver(outcome)));
        total += game.plies();
        games += 1;
    }
    assert!(games >= 1 && total >= min_total_plies);
}

#[test]
fn random_games_end_with_a_justified_result_under_lishogi() {
    random_games(Preset::Lishogi, 1, 3000);
}

#[test]
fn random_games_end_with_a_justified_result_under_jcsa() {
    random_games(Preset::Jcsa, 2, 3000);
}

#[test]
fn random_games_end_with_a_justified_result_under_hachu() {
    random_games(Preset::Hachu, 3, 3000);
}

/// Lions on both sides, far apart, so either side may pass.
const LIONS_FAR_APART: &str = "1s1k8/12/12/6n5/12/12/12/6N5/12/12/12/5SKG4 b - 1";

#[test]
fn fourth_occurrence_after_passes_is_a_draw() {
    let mut game = record(LIONS_FAR_APART, Preset::Lishogi);
    for ply in 0..6 {
        assert_eq!(game.outcome(), None, "over too early at ply {ply}");
        game.play(Move::PASS).unwrap();
    }
    assert_eq!(game.repetition_count(), 4);
    assert_eq!(
        game.outcome(),
        Some(Outcome::draw(OutcomeReason::Repetition))
    );
}

#[test]
fn undo_takes_back_a_repetition() {
    let mut game = record(LIONS_FAR_APART, Preset::Lishogi);
    for _ in 0..6 {
        game.play(Move::PASS).unwrap();
    }
    assert_eq!(game.undo(), Some(Move::PASS));
    assert_eq!(game.outcome(), None);
    assert_eq!(game.repetition_count(), 3);
}

#[test]
fn hachu_forbids_a_pass_that_repeats_the_position() {
    let mut game = record(LIONS_FAR_APART, Preset::Hachu);
    assert!(game.legal_moves().contains(&Move::PASS));
    game.play(Move::PASS).unwrap();
    // Gote passing back would recreate the start position.
    assert!(game.position().legal_moves().contains(&Move::PASS));
    assert!(!game.legal_moves().contains(&Move::PASS));
    let err = game.parse("0000", Notation::Usi).unwrap_err();
    assert_eq!(err.reason, IllegalMove::ForbiddenRepetition);
    assert!(err.to_string().contains("repeats"), "{err}");
    // Forced in anyway (by a protocol peer), it loses.
    game.play(Move::PASS).unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::Sente, OutcomeReason::IllegalMove))
    );
}

#[test]
fn hachu_forbids_a_lion_shuffle_back_to_the_start() {
    let mut game = record(
        "1s1k8/12/12/6n5/12/12/12/6N5/1P10/12/12/5SKG4 b - 1",
        Preset::Hachu,
    );
    play_usi(&mut game, &["6h6g", "6d6e", "6g6h"]);
    let back = game
        .position()
        .legal_moves()
        .into_iter()
        .find(|&m| game.write(m, Notation::Usi) == "6e6d");
    let back = back.expect("6e6d is a lion move of the position");
    assert!(!game.legal_moves().contains(&back));
    assert!(game.parse("6e6d", Notation::Usi).is_err());
}

/// Position after a Soaring Eagle took the Lion on 2b (HaChu game 41 of
/// `results/hachu-thirtieth-5533e49-stopped.pgn.gz`, ply 517): the counter-strike square is
/// set, though neither side has a Lion left.
const AFTER_LION_CAPTURE: &str =
    "l11/a3e2tk1+D1/4t7/2m9/1pv5p1f1/4+l1p3p1/12/PV6i3/12/3S5F2/A4TETS3/L1+p1+HK3C2 w 2b 526";

#[test]
fn hachu_compares_boards_without_the_counter_strike_state() {
    // The Eagle goes 2b2a and back while the King goes 4b4a and back: the board and side to
    // move of the start again, without the counter-strike square. HaChu refused 2a2b as
    // "Repeats earlier position"; under `hachu` it is a forbidden repetition.
    let mut game = record(AFTER_LION_CAPTURE, Preset::Hachu);
    play_usi(&mut game, &["4b4a", "2b2a", "4a4b"]);
    let err = game.parse("2a2b", Notation::Usi).unwrap_err();
    assert_eq!(err.reason, IllegalMove::ForbiddenRepetition);
    // Under the other rule sets the counter-strike state is part of the position (docs/rules.md
    // section 8): the same move makes a new position.
    let mut game = record(AFTER_LION_CAPTURE, Preset::Lishogi);
    play_usi(&mut game, &["4b4a", "2b2a", "4a4b", "2a2b"]);
    assert_eq!(game.repetition_count(), 1);
}

#[test]
fn an_irreversible_move_starts_a_new_repetition_window() {
    let mut game = record(
        "1s1k8/12/12/6n5/12/12/12/6N5/1P10/12/12/5SKG4 b - 1",
        Preset::Lishogi,
    );
    play_usi(&mut game, &["6h6g", "6d6e"]);
    assert_eq!(game.repetition_history().len(), 3);
    play_usi(&mut game, &["11i11h"]);
    assert_eq!(game.repetition_history().len(), 1);
    play_usi(&mut game, &["6e6d", "6g6h"]);
    assert_eq!(game.repetition_history().len(), 3);
}

/// Sente's rook checks the gote king on every move; the king shuffles between 1a and 2a.
const ROOK_CHECKS: &str = "gs9k/12/12/12/9R2/12/12/12/12/12/12/5SKG4 b - 1";

#[test]
fn perpetual_check_loses_for_the_checking_side() {
    let mut game = record(ROOK_CHECKS, Preset::Lishogi);
    play_usi(&mut game, &["3e1e"]);
    for _ in 0..3 {
        play_usi(&mut game, &["1a2a", "1e2e", "2a1a", "2e1e"]);
    }
    assert_eq!(game.repetition_count(), 4);
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::Gote, OutcomeReason::PerpetualAttack))
    );
}

/// Sente's rook attacks the gote gold on every move; the gold steps between 1c and 2c.
const ROOK_CHASES_GOLD: &str = "1s1k8/12/11g/12/12/12/12/9R2/12/12/12/5SKG4 b - 1";

#[test]
fn perpetual_attack_loses_for_the_attacking_side() {
    let mut game = record(ROOK_CHASES_GOLD, Preset::Lishogi);
    play_usi(&mut game, &["3h1h"]);
    for _ in 0..3 {
        play_usi(&mut game, &["1c2c", "1h2h", "2c1c", "2h1h"]);
    }
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::Gote, OutcomeReason::PerpetualAttack))
    );
}

#[test]
fn repetition_where_the_attacks_stop_is_a_draw() {
    // The rook chases the gold twice, then once steps away without attacking.
    let mut game = record(ROOK_CHASES_GOLD, Preset::Lishogi);
    play_usi(&mut game, &["3h1h"]);
    play_usi(&mut game, &["1c2c", "1h2h", "2c1c", "2h1h"]);
    play_usi(&mut game, &["1c2c", "1h3h", "2c1c", "3h1h"]);
    play_usi(&mut game, &["1c2c", "1h2h", "2c1c", "2h1h"]);
    assert_eq!(game.repetition_count(), 4);
    assert_eq!(
        game.outcome(),
        Some(Outcome::draw(OutcomeReason::Repetition))
    );
}

#[test]
fn position_outcome_comes_through_the_record() {
    // Sente's lion takes the gote king: royals captured.
    let mut game = record(
        "12/12/12/6k5/12/6N5/12/12/12/12/12/5SKG4 b - 1",
        Preset::Hachu,
    );
    play_usi(&mut game, &["6f6d"]);
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::Sente, OutcomeReason::RoyalsCaptured))
    );
}

#[test]
fn a_move_the_generator_does_not_make_is_refused_and_changes_nothing() {
    let mut game = record(ROOK_CHECKS, Preset::Lishogi);
    let before = game.position().to_sfen();
    let bogus = Move::PASS;
    assert!(!game.position().legal_moves().contains(&bogus));
    assert_eq!(game.play(bogus), Err(GameError::NotLegal(bogus)));
    assert_eq!(game.position().to_sfen(), before);
    assert_eq!(game.plies(), 0);
}

#[test]
fn a_cycle_walked_back_on_the_position_is_judged_as_the_record_judges_it() {
    // The search has no record: it takes the cycle's moves back on a copy of its position.
    use shishi::game::repetition::cycle_outcome_of;
    for (sfen, moves) in [
        (ROOK_CHECKS, ["1a2a", "1e2e", "2a1a", "2e1e"]),
        (ROOK_CHASES_GOLD, ["1c2c", "1h2h", "2c1c", "2h1h"]),
    ] {
        let mut game = record(sfen, Preset::Lishogi);
        play_usi(
            &mut game,
            &[if sfen == ROOK_CHECKS { "3e1e" } else { "3h1h" }],
        );
        for round in 0..3 {
            assert!(game.outcome().is_none(), "round {round}");
            play_usi(&mut game, &moves);
        }
        assert_eq!(
            game.outcome().map(|o| o.reason),
            Some(OutcomeReason::PerpetualAttack)
        );
        for plies in [4, 12] {
            assert_eq!(cycle_outcome_of(game.position(), plies), game.outcome());
        }
    }
}
