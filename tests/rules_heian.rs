//! Heian Shogi rules that read like docs/rules.md section 10: checkmate and stalemate lose, the bare
//! king with its reply rule, compulsory promotion where a piece could never move again.

use shishi::board::Color;
use shishi::notation::{parse_move, IllegalMove, Notation};
use shishi::position::{Outcome, OutcomeReason, Position};
use shishi::Variant;

fn heian(sfen: &str) -> Position {
    Position::from_sfen(Variant::from_name("heian").unwrap(), sfen)
        .unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn play(pos: &mut Position, usi: &str) {
    let mv = parse_move(pos, usi, Notation::Usi).unwrap_or_else(|e| panic!("{usi}: {e}"));
    pos.play(mv);
}

#[test]
fn checkmate_loses() {
    // Gote's king on 5a faces a gold on 5b protected by the pawn on 5c.
    let pos = heian("4k4/4G4/p3P3p/9/9/9/9/9/4K4 w - 1");
    assert!(pos.legal_moves().is_empty());
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Color::Sente, OutcomeReason::Checkmate))
    );
}

#[test]
fn stalemate_loses() {
    // Gote's lone king on 1a is not attacked, but 2a, 1b and 2b are; sente has only king and
    // gold, too few to bare it.
    let pos = heian("6G1k/9/7K1/9/9/9/9/9/9 w - 1");
    assert!(!pos.in_check(Color::Gote));
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Color::Sente, OutcomeReason::Stalemate))
    );
}

#[test]
fn the_king_may_not_stay_in_check() {
    let pos = heian("4k4/4G4/9/9/9/9/9/9/4K4 w - 1");
    let err = parse_move(&pos, "5a4a", Notation::Usi).unwrap_err();
    assert_eq!(err.reason, IllegalMove::LeavesKingInCheck);
    assert!(err.to_string().contains("check"), "{err}");
}

#[test]
fn bared_king_facing_king_and_one_piece_draws_by_capturing_it_at_once() {
    let mut pos = heian("4k4/4G4/9/9/9/9/9/9/4K4 w - 1");
    assert_eq!(
        pos.outcome(),
        None,
        "a bare king against two pieces may still move"
    );
    play(&mut pos, "5a5b");
    assert_eq!(pos.outcome(), Some(Outcome::draw(OutcomeReason::TwoRoyals)));
}

#[test]
fn side_to_move_wins_when_the_mover_is_bare_against_two_pieces() {
    let pos = heian("4k4/9/9/9/9/9/9/4G4/4K4 b - 1");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Color::Sente, OutcomeReason::BareKing))
    );
}

#[test]
fn bare_king_to_move_loses_against_three_pieces() {
    let pos = heian("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Color::Sente, OutcomeReason::BareKing))
    );
}

#[test]
fn pawn_must_promote_on_the_last_rank() {
    let pos = heian("4k4/8P/9/9/9/9/p8/9/4K4 b - 1");
    let err = parse_move(&pos, "1b1a", Notation::Usi).unwrap_err();
    assert!(
        matches!(err.reason, IllegalMove::MustPromote { .. }),
        "{err}"
    );
    assert!(parse_move(&pos, "1b1a+", Notation::Usi).is_ok());
}

#[test]
fn knight_must_promote_on_the_last_two_ranks() {
    let pos = heian("4k4/9/9/7N1/9/9/p8/9/4K4 b - 1");
    let err = parse_move(&pos, "2d3b", Notation::Usi).unwrap_err();
    assert!(
        matches!(err.reason, IllegalMove::MustPromote { .. }),
        "{err}"
    );
    assert!(parse_move(&pos, "2d3b+", Notation::Usi).is_ok());
}

#[test]
fn silver_may_promote_or_not_in_the_zone() {
    let pos = heian("4k4/9/9/6S2/9/9/p8/9/4K4 b - 1");
    assert!(parse_move(&pos, "3d3c", Notation::Usi).is_ok());
    assert!(parse_move(&pos, "3d3c+", Notation::Usi).is_ok());
}
