//! The df-pn tsume solver: composed Heian problems and problems derived from shishi's own games
//! (`positions/tsume-chu.epd`, made by `examples/make_tsume.rs`) are solved and every proof is
//! replayed against all defences by the independent verifier; positions without a mate answer
//! no mate; a broken proof is rejected; `stop` interrupts.

use shishi::platform::StopSignal;
use shishi::tsume::{solve, verify, MateLimits, MateOutcome, VerifyError};
use shishi::{Position, Variant};
use std::sync::Arc;
use std::time::Duration;

fn limits() -> MateLimits {
    MateLimits {
        time: Some(Duration::from_secs(20)),
        ..MateLimits::default()
    }
}

fn heian(sfen: &str) -> Position {
    Position::from_sfen(Variant::Heian, sfen).unwrap()
}

/// Solves `pos`, checks the proof with the verifier and returns the line's length.
fn proven_length(pos: &Position) -> usize {
    let report = solve(pos, limits());
    let MateOutcome::Mate(line) = &report.outcome else {
        panic!("{pos:?}: {:?}", report.outcome);
    };
    let longest = verify(pos, &report.proof, line.len())
        .unwrap_or_else(|e| panic!("{pos:?}: proof rejected: {e}"));
    assert_eq!(
        longest,
        line.len(),
        "{pos:?}: the line is not the longest defence"
    );
    line.len()
}

#[test]
fn a_composed_heian_mate_in_one_is_proven_and_verified() {
    // The attacker has no king, as in published tsume. A gold-mover on 5b, guarded, covers
    // every square of the king on 5a.
    assert_eq!(proven_length(&heian("4k4/9/3SG4/9/9/9/9/9/9 b - 1")), 1);
}

/// Every problem of a derived suite (`SFEN ; plies` lines) up to `max_plies` is proven at its
/// recorded length; returns how many were checked.
fn check_suite(suite: &str, max_plies: usize) -> usize {
    let mut checked = 0;
    for line in suite
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (sfen, plies) = line.split_once(';').expect("SFEN ; plies");
        let plies: usize = plies.trim().parse().unwrap();
        if plies > max_plies {
            continue;
        }
        let pos = Position::from_sfen_any(sfen.trim()).unwrap();
        assert_eq!(proven_length(&pos), plies, "{sfen}");
        checked += 1;
    }
    checked
}

#[test]
fn derived_heian_problems_are_proven_at_their_length() {
    let checked = check_suite(include_str!("../positions/tsume-heian.epd"), 31);
    assert!(checked >= 5, "only {checked} problems");
}

#[test]
fn positions_without_a_mate_say_so() {
    // A lone gold can check, but the king takes it.
    let lone = solve(&heian("4k4/9/4G4/9/9/9/9/9/9 b - 1"), limits());
    assert_eq!(lone.outcome, MateOutcome::NoMate);
    // No check at all from the Chu start position.
    let start = solve(&Position::startpos(Variant::Chushogi), limits());
    assert_eq!(start.outcome, MateOutcome::NoMate);
}

#[test]
fn a_broken_proof_is_rejected() {
    let pos = heian("4k4/9/3SG4/9/9/9/9/9/9 b - 1");
    let report = solve(&pos, limits());
    assert!(matches!(report.outcome, MateOutcome::Mate(_)));
    let mut wrong = report.proof.clone();
    let mut moves = shishi::movegen::MoveList::new();
    shishi::movegen::generate(&pos, &mut moves);
    let quiet = moves
        .into_iter()
        .find(|&mv| {
            let mut after = pos.clone();
            after.play(mv);
            !after.in_check(shishi::Color::Gote)
        })
        .expect("a move that gives no check");
    wrong.insert(pos.key(), quiet);
    assert!(matches!(
        verify(&pos, &wrong, 5),
        Err(VerifyError::NotACheck { .. })
    ));
    let empty = Default::default();
    assert!(matches!(
        verify(&pos, &empty, 5),
        Err(VerifyError::Missing { .. })
    ));
    // A proof checked against too short a length: the defender survives.
    let five = Position::from_sfen_any(FIRST_FIVE_CHU).unwrap();
    let report = solve(&five, limits());
    assert!(matches!(report.outcome, MateOutcome::Mate(ref l) if l.len() == 5));
    assert_eq!(verify(&five, &report.proof, 5), Ok(5));
    assert!(matches!(
        verify(&five, &report.proof, 3),
        Err(VerifyError::TooLong { .. })
    ));
}

#[test]
fn stop_interrupts_the_solver() {
    let stop = Arc::new(StopSignal::new());
    stop.set();
    let report = solve(
        &Position::from_sfen_any(FIRST_LONG_CHU).unwrap(),
        MateLimits {
            stop: Some(stop),
            ..MateLimits::default()
        },
    );
    assert_eq!(report.outcome, MateOutcome::Timeout);
}

/// The first 5-ply problem of the derived Chu suite.
const FIRST_FIVE_CHU: &str =
    "5g1g4/+L4ket4/2N9/4c7/11p/6+D5/3np3P3/12/1PMP1PP4P/3T7A/4SOET2F1/1FC1GK1GSC1L b - 233";

/// The longest problem of the derived suite's first lines, for the stop test.
const FIRST_LONG_CHU: &str =
    "3s2kg1c2/5e1t4/9f2/f2p8/2pim3p3/12/8K3/L2I1q6/3P8/8T3/12/6+l5 w - 424";

/// Every problem of up to 11 plies in the derived Chu suite is proven at its recorded length.
#[test]
fn derived_chu_problems_are_proven_at_their_length() {
    let checked = check_suite(include_str!("../positions/tsume-chu.epd"), 11);
    assert!(checked >= 20, "only {checked} problems of up to 11 plies");
}

/// Chu problems without an attacker king load and are solved; the lines are verified.
#[test]
fn chu_problems_without_an_attacker_king() {
    let chu = |sfen: &str| Position::from_sfen(Variant::Chushogi, sfen).unwrap();
    // The queen checks up the 12th file, the king steps aside, the rook takes it.
    assert_eq!(
        proven_length(&chu("k11/2p9/12/1R10/12/12/12/12/12/12/12/2Q9 b - 1")),
        3
    );
    // Two golds drive the king into the corner.
    assert_eq!(
        proven_length(&chu("1k10/12/1G1G8/12/12/12/12/12/12/12/12/12 b - 1")),
        5
    );
}

/// From a HaChu game: the defender's best reply takes the attacker's last king while leaving
/// its own attacked. The first solver counted that reply as no escape and claimed a mate the
/// verifier rejects (`AttackerLost`); whatever the solver answers must now survive it.
#[test]
fn taking_the_attackers_last_king_is_a_defence() {
    let pos = Position::from_sfen_any(
        "6kg3l/5te4a/12/3pc3p2p/7ps1+X1/5+d6/4no6/1P1I6P1/P1PP2P4P/MVG3O5/A3T3T3/LFCS1KEGSC2 w - 194",
    )
    .unwrap();
    let report = solve(&pos, limits());
    match &report.outcome {
        MateOutcome::Mate(line) => {
            verify(&pos, &report.proof, line.len()).expect("a proof the defender cannot break");
        }
        other => assert_eq!(*other, MateOutcome::NoMate),
    }
}

/// Rule sets reach the solver: the same problem under HaChu's rules is proven and verified.
#[test]
fn problems_solve_under_every_rule_set() {
    for preset in [
        shishi::Preset::Lishogi,
        shishi::Preset::Jcsa,
        shishi::Preset::Hachu,
    ] {
        let pos = Position::from_sfen_any(FIRST_FIVE_CHU)
            .unwrap()
            .with_rules(preset.rules());
        let n = proven_length(&pos);
        assert!((1..=5).contains(&n), "{preset:?}: {n}");
    }
}
