//! Chu Shogi rules that read like docs/rules.md sections 5-7 and 9: one test per lion-trading rule,
//! per promotion rule and per preset difference, plus the lion-exchange situations Wikipedia's
//! Chu Shogi article illustrates (adjacent capture despite protection, both lions protected,
//! x-ray protector, pawn plus lion double capture, protected lion taken together with a pawn,
//! rook-protected corner lion, kirin capturing a lion then recaptured, several lions). Each
//! position is a SFEN with sente to move unless stated; moves are lishogi USI.

use shishi::board::Color;
use shishi::notation::{parse_move, Notation};
use shishi::position::{Outcome, OutcomeReason, Position};
use shishi::rules::Preset;
use shishi::Variant;

fn chu(sfen: &str, preset: Preset) -> Position {
    Position::from_sfen(Variant::from_name("chushogi").unwrap(), sfen)
        .unwrap_or_else(|e| panic!("{sfen}: {e}"))
        .with_rules(preset.rules())
}

fn legal(pos: &Position, usi: &str) -> bool {
    parse_move(pos, usi, Notation::Usi).is_ok_and(|mv| mv.is_promotion() == usi.ends_with('+'))
}

fn refused_because(pos: &Position, usi: &str, reason: &str) {
    match parse_move(pos, usi, Notation::Usi) {
        Ok(mv) if mv.is_promotion() == usi.ends_with('+') => {
            panic!("{usi} was accepted, expected: {reason}")
        }
        Ok(_) => {}
        Err(e) => assert!(
            e.reason.to_string().contains(reason),
            "{usi}: '{}' does not say '{reason}'",
            e.reason
        ),
    }
}

fn play(pos: &mut Position, usi: &str) {
    let mv = parse_move(pos, usi, Notation::Usi).unwrap_or_else(|e| panic!("{usi}: {e}"));
    pos.play(mv);
}

const ALL: [Preset; 3] = Preset::ALL;

// Rule 1 (Wikipedia: adjacent lion capture despite protection; both lions protected).
#[test]
fn rule1_lion_may_take_an_adjacent_protected_lion() {
    // Gote lion 6f protected by the gold on 6e; sente lion 6g next to it, protected by a gold.
    for preset in ALL {
        let pos = chu(
            "5skg4/12/12/1p7p2/6g5/6n5/6N5/6G5/2P7P1/12/12/4GKS5 b - 1",
            preset,
        );
        assert!(legal(&pos, "6g6f"), "{preset:?}");
    }
}

// Rule 2.
#[test]
fn rule2_lion_may_not_jump_onto_a_protected_distant_lion() {
    for preset in ALL {
        let pos = chu(
            "5skg4/12/12/1p7p2/6g5/6n5/12/6N5/2P7P1/12/12/4GKS5 b - 1",
            preset,
        );
        refused_because(&pos, "6h6f", "distant capture of a protected lion");
    }
}

#[test]
fn rule2_lion_may_jump_onto_an_unprotected_distant_lion() {
    for preset in ALL {
        let pos = chu(
            "5skg4/12/12/1p7p2/12/6n5/12/6N5/2P7P1/12/12/4GKS5 b - 1",
            preset,
        );
        assert!(legal(&pos, "6h6f"), "{preset:?}");
    }
}

// Wikipedia: x-ray protector (the protection runs through the capturing lion's own square).
#[test]
fn rule2_protection_through_the_capturers_start_square_counts() {
    for preset in ALL {
        let pos = chu(
            "5skg4/12/12/1p7p2/12/6n5/12/6N5/2P7P1/6v5/12/4GKS5 b - 1",
            preset,
        );
        refused_because(&pos, "6h6f", "distant capture of a protected lion");
    }
}

// Rule 3 (Wikipedia: pawn plus lion double capture).
#[test]
fn rule3_bridge_capture_after_taking_a_silver_is_legal() {
    for preset in ALL {
        let pos = chu(
            "5skg4/12/12/1p7p2/6g5/6n5/5p1s4/6N5/2P7P1/12/12/4GKS5 b - 1",
            preset,
        );
        assert!(legal(&pos, "6h5g6f"), "{preset:?}");
        refused_because(&pos, "6h7g6f", "bridge capture of the protected lion");
    }
}

#[test]
fn rule3_bridge_capture_after_a_pawn_of_an_unprotected_lion_is_legal() {
    for preset in ALL {
        let pos = chu(
            "5skg4/12/12/1p7p2/12/6n5/5p6/6N5/2P7P1/12/12/4GKS5 b - 1",
            preset,
        );
        assert!(legal(&pos, "6h7g6f"), "{preset:?}");
    }
}

// Wikipedia: protected lion taken together with the pawn that protects it. The go-between on
// 6g is the lion's only protector.
#[test]
fn rule3_captured_middle_protector_counts_under_lishogi_only() {
    let sfen = "5skg4/12/12/1p7p2/12/6n5/6i5/6N5/2P7P1/12/12/4GKS5 b - 1";
    for preset in [Preset::Lishogi, Preset::Jcsa] {
        refused_because(&chu(sfen, preset), "6h6g6f", "bridge capture");
    }
    assert!(legal(&chu(sfen, Preset::Hachu), "6h6g6f"));
}

// Wikipedia: rook-protected corner lion.
#[test]
fn rule2_and_3_rook_protected_corner_lion() {
    // Gote lion 1a, protected along the rank by the rook on 3a; sente lion 1c; a gote pawn (then
    // a gold) on 2b.
    let sfen = "5k3r1n/10p1/11N/12/12/12/12/12/12/12/12/5SKG4 b - 1";
    for preset in ALL {
        let pos = chu(sfen, preset);
        refused_because(&pos, "1c1a", "distant capture of a protected lion");
        refused_because(&pos, "1c2b1a", "bridge capture");
    }
    let with_gold = "5k3r1n/10g1/11N/12/12/12/12/12/12/12/12/5SKG4 b - 1";
    for preset in ALL {
        assert!(legal(&chu(with_gold, preset), "1c2b1a"), "{preset:?}");
    }
}

// Rule 4.
/// Sente's rook on 6j can take gote's lion on 6d; gote's rook on 3b could then take sente's
/// unprotected lion on 3h.
const COUNTER_STRIKE: &str = "5skg4/9r2/12/1p4n5/12/12/12/9N2/2P7P1/6R5/12/4GKS5 b - 1";

#[test]
fn rule4_no_counter_strike_right_after_a_lion_was_taken_by_a_non_lion() {
    for preset in [Preset::Lishogi, Preset::Hachu] {
        let mut pos = chu(COUNTER_STRIKE, preset);
        play(&mut pos, "6j6d");
        assert!(pos.counter_strike().is_some());
        refused_because(&pos, "3b3h", "counter-strike");
    }
}

#[test]
fn rule4_counter_strike_is_allowed_one_move_later() {
    let mut pos = chu(COUNTER_STRIKE, Preset::Lishogi);
    for mv in ["6j6d", "11d11e", "10i10h"] {
        play(&mut pos, mv);
    }
    assert!(legal(&pos, "3b3h"));
}

// Rule 5, the JCSA preset.
#[test]
fn rule5_okazaki_lets_an_unprotected_lion_be_counter_struck() {
    let mut pos = chu(COUNTER_STRIKE, Preset::Jcsa);
    play(&mut pos, "6j6d");
    assert!(legal(&pos, "3b3h"));
}

// Wikipedia: kirin capturing a lion then recaptured.
const KIRIN: &str = "5skg4/7g4/6n5/12/6O5/12/12/12/2P7P1/12/12/4GKS5 b - 1";

#[test]
fn rule4_kirin_that_promoted_to_lion_may_be_retaken_under_lishogi() {
    for preset in [Preset::Lishogi, Preset::Jcsa] {
        let mut pos = chu(KIRIN, preset);
        play(&mut pos, "6e6c+");
        assert!(legal(&pos, "5b6c"), "{preset:?}");
    }
}

#[test]
fn rule4_kirin_that_promoted_to_lion_may_not_be_retaken_under_hachu() {
    let mut pos = chu(KIRIN, Preset::Hachu);
    play(&mut pos, "6e6c+");
    refused_because(&pos, "5b6c", "counter-strike");
}

#[test]
fn rule4_kirin_that_did_not_promote_is_an_ordinary_capture() {
    for preset in ALL {
        let mut pos = chu(KIRIN, preset);
        play(&mut pos, "6e6c");
        assert!(legal(&pos, "5b6c"), "{preset:?}");
    }
}

// Wikipedia: several lions. Only the Lion-to-Lion rules apply between N and +O; a horned
// falcon is not a Lion and may take a distant protected lion.
#[test]
fn several_lions_promoted_kirin_is_a_lion_falcon_is_not() {
    // Sente +O on 6h, gote lion 6f protected by the gold on 6e; sente falcon on 3h, gote lion 3f
    // protected by the gold on 3e.
    let sfen = "5skg4/12/12/1p7p2/6g2g2/6n2n2/12/6+O2+H2/2P7P1/12/12/4GKS5 b - 1";
    for preset in ALL {
        let pos = chu(sfen, preset);
        refused_because(&pos, "6h6f", "distant capture of a protected lion");
        assert!(legal(&pos, "3h3f"), "{preset:?}");
    }
}

// Section 7, promotion.
const LAST_RANK: &str = "3PLskgp3/2P5P3/1L10/1p7p2/12/12/12/12/2P7P1/12/12/4GKS5 b - 1";

#[test]
fn lishogi_pawn_may_promote_stepping_onto_the_last_rank() {
    let pos = chu(LAST_RANK, Preset::Lishogi);
    assert!(legal(&pos, "10b10a+"));
    assert!(legal(&pos, "10b10a"));
    assert!(legal(&pos, "11c11a+"));
}

#[test]
fn hachu_pawn_may_not_promote_stepping_onto_the_last_rank() {
    let pos = chu(LAST_RANK, Preset::Hachu);
    refused_because(&pos, "10b10a+", "may not promote");
    assert!(legal(&pos, "10b10a"));
    refused_because(&pos, "11c11a+", "may not promote");
}

#[test]
fn hachu_pawn_capturing_onto_the_last_rank_must_promote() {
    let pos = chu(LAST_RANK, Preset::Hachu);
    refused_because(&pos, "4b4a", "must promote");
    assert!(legal(&pos, "4b4a+"));
    let lishogi = chu(LAST_RANK, Preset::Lishogi);
    assert!(legal(&lishogi, "4b4a") && legal(&lishogi, "4b4a+"));
}

/// A sente pawn on 10e below the zone, gote golds on 10c and 10a in its path.
const DECLINE: &str = "2g2skg4/12/2g9/12/2P9/12/12/12/12/12/12/4GKS5 b - 1";

#[test]
fn hachu_pawn_that_declined_promotes_only_capturing_onto_the_last_rank() {
    let mut pos = chu(DECLINE, Preset::Hachu);
    assert!(legal(&pos, "10e10d+"));
    play(&mut pos, "10e10d");
    assert!(pos.declined_pawns().any());
    play(&mut pos, "6a6b");
    refused_because(&pos, "10d10c+", "may not promote");
    play(&mut pos, "10d10c");
    play(&mut pos, "6b6a");
    refused_because(&pos, "10c10b+", "may not promote");
    play(&mut pos, "10c10b");
    play(&mut pos, "6a6b");
    refused_because(&pos, "10b10a", "must promote");
    play(&mut pos, "10b10a+");
    assert!(pos.declined_pawns().is_empty());
    assert_eq!(pos.check_consistency(), Ok(()));
}

#[test]
fn a_pawn_that_never_declined_may_still_promote_capturing_in_the_zone() {
    // The same pawn set up inside the zone, and the same moves under lishogi's rule.
    let inside = "2g2skg4/12/2g9/2P9/12/12/12/12/12/12/12/4GKS5 b - 1";
    assert!(legal(&chu(inside, Preset::Hachu), "10d10c+"));
    let mut pos = chu(DECLINE, Preset::Lishogi);
    play(&mut pos, "10e10d");
    play(&mut pos, "6a6b");
    assert!(pos.declined_pawns().is_empty());
    assert!(legal(&pos, "10d10c+"));
}

#[test]
fn declining_is_part_of_the_key_and_undone_with_the_move() {
    let start = chu(DECLINE, Preset::Hachu);
    let mut declined = start.clone();
    play(&mut declined, "10e10d");
    assert_eq!(declined.check_consistency(), Ok(()));
    // The same board reached without a deferral: a pawn set up on 10d.
    let same_board = chu(
        "2g2skg4/12/2g9/2P9/12/12/12/12/12/12/12/4GKS5 w - 2",
        Preset::Hachu,
    );
    assert_ne!(declined.key(), same_board.key());
    assert_ne!(declined, same_board);
    declined.undo();
    assert_eq!(declined.key(), start.key());
    assert!(declined.declined_pawns().is_empty());
}

#[test]
fn dead_pawn_and_lance_on_the_last_rank_cannot_move() {
    for preset in ALL {
        let pos = chu(LAST_RANK, preset);
        assert!(pos
            .legal_moves()
            .iter()
            .all(|m| m.from().index() != pos_index(&pos, "9a")));
        assert!(pos
            .legal_moves()
            .iter()
            .all(|m| m.from().index() != pos_index(&pos, "8a")));
    }
}

fn pos_index(pos: &Position, usi: &str) -> usize {
    shishi::notation::parse_usi_square(pos.variant(), usi)
        .unwrap()
        .index()
}

#[test]
fn promotion_entering_the_zone_or_capturing_in_it_in_every_preset() {
    // The silver on 5e enters the zone (ranks a-d) at 5d; the gold on 8c is inside it and
    // captures the pawn on 8b, or steps sideways without capturing.
    let sfen = "5skg4/4p7/4G7/1p7p2/7S4/12/12/12/2P7P1/12/12/4GKS5 b - 1";
    for preset in ALL {
        let pos = chu(sfen, preset);
        assert!(legal(&pos, "5e5d+") && legal(&pos, "5e5d"), "{preset:?}");
        assert!(legal(&pos, "8c8b+"), "{preset:?}");
        refused_because(&pos, "8c9c+", "may not promote");
    }
}

// Section 4: move identity.
#[test]
fn every_pass_is_one_move_and_igui_of_one_victim_is_one_move() {
    // Two sente lions (6f and +O on 5f) next to a gote pawn on 6e: each can pass, yet there is
    // one pass; each igui leaves a different position, so each is its own move.
    let pos = chu(
        "5skg4/12/12/1p7p2/6p5/6N+O4/12/12/2P7P1/12/12/4GKS5 b - 1",
        Preset::Lishogi,
    );
    let moves = pos.legal_moves();
    assert_eq!(moves.iter().filter(|m| m.is_pass()).count(), 1);
    let igui: Vec<_> = moves.iter().filter(|m| m.is_igui()).collect();
    let distinct: std::collections::HashSet<_> = igui
        .iter()
        .map(|m| {
            let mut p = pos.clone();
            p.play(**m);
            p.key()
        })
        .collect();
    assert_eq!(
        distinct.len(),
        igui.len(),
        "two igui moves with the same effect"
    );
    assert!(legal(&pos, "6f6e6f"));
    assert!(legal(&pos, "0000"));
}

// Section 5: game end and the preset differences.
#[test]
fn bare_king_loses_under_lishogi_but_not_under_hachu() {
    let sfen = "6k5/12/12/12/12/12/12/12/12/12/12/5KGS4 b - 1";
    assert_eq!(
        chu(sfen, Preset::Lishogi).outcome(),
        Some(Outcome::win(Color::Sente, OutcomeReason::BareKing))
    );
    assert_eq!(chu(sfen, Preset::Hachu).outcome(), None);
}

#[test]
fn two_lone_royals_draw_under_lishogi_but_not_under_hachu() {
    let sfen = "6k5/12/12/12/12/12/12/12/12/12/12/5K6 b - 1";
    assert_eq!(
        chu(sfen, Preset::Lishogi).outcome(),
        Some(Outcome::draw(OutcomeReason::TwoRoyals))
    );
    assert_eq!(chu(sfen, Preset::Hachu).outcome(), None);
}

#[test]
fn losing_every_royal_loses() {
    let sfen = "12/12/12/12/12/6g5/12/12/12/12/12/5K6 w - 1";
    let pos = chu(sfen, Preset::Hachu);
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Color::Sente, OutcomeReason::RoyalsCaptured))
    );
}
