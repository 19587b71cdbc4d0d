//! The df-pn tsume solver: composed Heian problems, composed Chu problems
//! (`positions/tsume-chu-composed.epd`, `tsume-chu-composed-long.epd` and
//! `tsume-chu-composed-longest.epd`, made by `examples/make_long_tsume.rs`, `make_longer_tsume.rs`
//! and `make_longest_tsume.rs`) and problems
//! derived from shishi's own games (`positions/tsume-chu.epd`, made by `examples/make_tsume.rs`)
//! are solved at their shortest length in the published convention (the line ends with the
//! mating move) and every proof is
//! replayed against all defences by the independent verifier; positions without a mate answer
//! no mate; a broken proof is rejected; `stop` interrupts.

use shishi::platform::StopSignal;
use shishi::tsume::{
    exhaustive_mate, solve, verify, Exhaustive, MateLimits, MateOutcome, Royals, VerifyError,
};
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

/// Solves `pos`, checks the proof with the verifier and that the mate is proven shortest, and
/// returns the line's length.
fn proven_length(pos: &Position) -> usize {
    let report = solve(pos, limits());
    let MateOutcome::Mate(line) = &report.outcome else {
        panic!("{pos:?}: {:?} {:?}", report.outcome, report.rejected);
    };
    assert!(report.shortest, "{pos:?}: not proven shortest");
    let longest = verify(pos, &report.proof, line.len(), Royals::All)
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

/// Every problem of a derived suite (`SFEN ; plies` lines) up to `max_plies` whose recorded
/// length is proven shortest is proven, shortest, at that length; returns how many were checked.
fn check_suite(suite: &str, max_plies: usize) -> usize {
    let mut checked = 0;
    for line in suite
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (line, note) = line.split_once('#').unwrap_or((line, ""));
        if note.contains("shortest not proven") {
            continue;
        }
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
        verify(&pos, &wrong, 5, Royals::All),
        Err(VerifyError::NotACheck { .. })
    ));
    let empty = Default::default();
    assert!(matches!(
        verify(&pos, &empty, 5, Royals::All),
        Err(VerifyError::Missing { .. })
    ));
    // A proof checked against too short a length: the defender survives.
    let five = Position::from_sfen_any(FIRST_FIVE_CHU).unwrap();
    let report = solve(&five, limits());
    assert!(matches!(report.outcome, MateOutcome::Mate(ref l) if l.len() == 3));
    assert_eq!(verify(&five, &report.proof, 3, Royals::All), Ok(3));
    assert!(matches!(
        verify(&five, &report.proof, 2, Royals::All),
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

/// The first problem of the derived Chu suite that was a mate in 5 when the capture of the king
/// was counted; a mate in 3 now.
const FIRST_FIVE_CHU: &str =
    "5g1g4/+L4ket4/2N9/4c7/11p/6+D5/3np3P3/12/1PMP1PP4P/3T7A/4SOET2F1/1FC1GK1GSC1L b - 233";

/// The longest problem of the derived suite's first lines, for the stop test.
const FIRST_LONG_CHU: &str =
    "3s2kg1c2/5e1t4/9f2/f2p8/2pim3p3/12/8K3/L2I1q6/3P8/8T3/12/6+l5 w - 424";

/// Every problem of up to 11 plies in the derived Chu suite whose length is proven shortest is
/// proven, shortest, at that length.
#[test]
fn derived_chu_problems_are_proven_at_their_length() {
    let checked = check_suite(include_str!("../positions/tsume-chu.epd"), 11);
    assert!(checked >= 60, "only {checked} problems of up to 11 plies");
}

/// Chu problems without an attacker king load and are solved; the lines are verified.
/// The composed suite (`examples/make_long_tsume.rs`, Go-Between lanes): every problem, 3 to 63
/// plies, is proven shortest at its recorded length; a milliseconds-long check of the longest
/// forced lines shishi has.
#[test]
fn composed_chu_problems_are_proven_at_their_length() {
    let checked = check_suite(include_str!("../positions/tsume-chu-composed.epd"), 63);
    assert_eq!(checked, 30);
}

/// The longer composed suite (`examples/make_longer_tsume.rs`, six lanes at most with a compact
/// change of lane): every problem, 1 to 129 plies, is proven shortest at its recorded length.
#[test]
fn longer_composed_chu_problems_are_proven_at_their_length() {
    let checked = check_suite(
        include_str!("../positions/tsume-chu-composed-long.epd"),
        129,
    );
    assert_eq!(checked, 60);
}

/// The longest composed suite (`examples/make_longest_tsume.rs`, six lanes with exchanges in the
/// last lane): every problem of the designed material, 143 to 161 plies, is proven shortest at
/// its recorded length (about a second each); the tuned ones (173 to 191 plies, some 5 s each)
/// are left to `shishi mate --file`.
#[test]
fn longest_composed_chu_problems_are_proven_at_their_length() {
    let checked = check_suite(
        include_str!("../positions/tsume-chu-composed-longest.epd"),
        161,
    );
    assert_eq!(checked, 10);
}

#[test]
fn chu_problems_without_an_attacker_king() {
    let chu = |sfen: &str| Position::from_sfen(Variant::Chushogi, sfen).unwrap();
    // The queen checks up the 12th file: every step of the king leaves it to the rook or the
    // queen, so the check is mate (the capture of the king is not part of the line).
    assert_eq!(
        proven_length(&chu("k11/2p9/12/1R10/12/12/12/12/12/12/12/2Q9 b - 1")),
        1
    );
    // Two golds drive the king into the corner.
    assert_eq!(
        proven_length(&chu("1k10/12/1G1G8/12/12/12/12/12/12/12/12/12 b - 1")),
        3
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
            verify(&pos, &report.proof, line.len(), Royals::All)
                .expect("a proof the defender cannot break");
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
        assert!((1..=3).contains(&n), "{preset:?}: {n}");
    }
}

/// kinu01 from the issue: a published 7-ply mate (10d7d 8e7d 4c6a+ 5b6a 6e8c 7d8c 1c6c), for
/// which the first solver printed a 17-ply line. It is now proven shortest at 7 plies.
#[test]
fn kinu01_is_mated_at_its_published_length() {
    let pos = Position::from_sfen_any(
        "5ex1+Pc2/6okt3/3s4X2+H/2+D9/3p+v1+Dpt3/12/12/2+a6q2/12/12/12/12 b - 1",
    )
    .unwrap();
    assert_eq!(proven_length(&pos), 7);
}

/// kinu66 from the issue: the first solver ruled out the defender's Drunk Elephant promoting
/// to Crown Prince while its King stayed attacked, and the verifier rejected the proof ("no
/// attacker move"). With a second royal, taking the King no longer ends the game, so that
/// promotion is an escape.
#[test]
fn promoting_to_crown_prince_is_an_escape() {
    let pos = Position::from_sfen_any(
        "8k1+hl/7tsc1a/4N+H2g3/7ppp1p/8tbp1/12/4+D5R1/7ex3/6b3R1/6+p+i4/8+c3/12 b - 1",
    )
    .unwrap();
    assert_eq!(proven_length(&pos), 7);
}

/// kinu57 from the issue was answered "no mate" in 0.2 s, a disproof that rested on a
/// repetition met on one path and reused on another. The published mate is 19 plies; the
/// solver must find a verified mate (shortening it may take longer than the test allows).
#[test]
fn kinu57_has_a_mate() {
    let pos =
        Position::from_sfen_any("8+a2l/6s5/8+le1f/7nkg2/8g2+A/5NO5/5Q4P1/12/12/12/12/12 b - 1")
            .unwrap();
    let report = solve(
        &pos,
        MateLimits {
            time: Some(Duration::from_secs(5)),
            ..MateLimits::default()
        },
    );
    let MateOutcome::Mate(line) = &report.outcome else {
        panic!("{:?} {:?}", report.outcome, report.rejected);
    };
    assert_eq!(
        verify(&pos, &report.proof, line.len(), Royals::All),
        Ok(line.len())
    );
}

/// The solver's line ends with the mating move: in the Chu mate in 1 below the King is not
/// taken, and the line has a single move.
#[test]
fn the_line_ends_with_the_mating_move() {
    let pos = Position::from_sfen(
        Variant::Chushogi,
        "k11/2p9/12/1R10/12/12/12/12/12/12/12/2Q9 b - 1",
    )
    .unwrap();
    let report = solve(&pos, limits());
    let MateOutcome::Mate(line) = &report.outcome else {
        panic!("{:?}", report.outcome);
    };
    let mut after = pos.clone();
    after.play(line[0]);
    assert_eq!(line.len(), 1);
    assert!(
        after.royals(shishi::Color::Gote).any(),
        "the king is still on the board"
    );
}

/// A 19-ply problem of the derived suite searched with a 1 MiB table (16 384 entries) expands
/// about 70 000 positions, so the garbage collector runs many times; proven entries are never
/// collected, so the proof is read back whole, verified, and still proven shortest.
#[test]
fn a_table_too_small_for_the_search_keeps_the_proof() {
    let pos = Position::from_sfen_any(
        "2+R1gtk5/4v1gt4/6e5/+L2+D7+L/6+VN4/12/5+AP5/4PP6/1P1P2S1PPP1/1M10/4TGG5/1FCS1KE1TCF1 b - 241",
    )
    .unwrap();
    let report = solve(
        &pos,
        MateLimits {
            table_mb: 1,
            ..limits()
        },
    );
    assert!(report.nodes > 16_384, "{} nodes", report.nodes);
    let MateOutcome::Mate(line) = &report.outcome else {
        panic!("{:?} {:?}", report.outcome, report.rejected);
    };
    assert_eq!(line.len(), 19);
    assert!(report.shortest);
    assert_eq!(verify(&pos, &report.proof, 19, Royals::All), Ok(19));
}

/// "No mate within N plies" is a proven answer: kinu57 has no mate of up to 19 plies (its
/// published length) under shishi's rules, whichever rule set; its shortest mate is longer.
#[test]
fn kinu57_has_no_mate_within_its_published_length() {
    for preset in [
        shishi::Preset::Lishogi,
        shishi::Preset::Jcsa,
        shishi::Preset::Hachu,
    ] {
        let pos =
            Position::from_sfen_any("8+a2l/6s5/8+le1f/7nkg2/8g2+A/5NO5/5Q4P1/12/12/12/12/12 b - 1")
                .unwrap()
                .with_rules(preset.rules());
        let report = solve(
            &pos,
            MateLimits {
                max_plies: 19,
                ..limits()
            },
        );
        assert_eq!(report.outcome, MateOutcome::NoMate, "{preset:?}");
    }
}

/// Issue 74: the problem of issue 41 published as a mate in 15 is a mate in 21 by Muller's
/// errata to Hodges' Middle Shogi Manual; the suite gives 21, and 21 is proven shortest.
#[test]
fn the_corrected_length_of_the_published_fifteen_is_proven() {
    let sfen = "12/11r/9c2/12/6+t4H/12/8+h2L/7+p1c2/5N1+H1+p1+p/3q4+pk2/6D+M4/7+l1CF1 b - 1";
    let suite = std::fs::read_to_string("positions/tsume-issue41.epd").unwrap();
    let line = suite
        .lines()
        .find(|l| l.starts_with(sfen))
        .expect("in the suite");
    assert!(line.ends_with("; 21"), "{line}");
    assert_eq!(proven_length(&Position::from_sfen_any(sfen).unwrap()), 21);
}

/// Issue 74: with King and Crown Prince, a check threatens to take both (asahi-net 詰め中将棋
/// No. 3, published as a mate in 17: its first move puts the Lion beside both royals, and the
/// page says every other first move fails because the next move could take only one of them).
/// Under `Royals::Any`, where an attack on either royal is a check, it mates in 5 (more than
/// one way: the Kirin's promoted Lion attacking both from two squares away, 4h2j, or 4i2j), and
/// the solver's order among them decides which it gives.
#[test]
fn two_royals_follow_the_published_convention() {
    let pos =
        Position::from_sfen_any("12/12/12/12/12/12/10s1/8+O1G1/8N3/6Q5/12/8G1k+e b - 1").unwrap();
    for (royals, plies, first) in [
        (Royals::All, 17, &["4i2k"][..]),
        (Royals::Any, 5, &["4h2j", "4i2j"][..]),
    ] {
        let report = solve(&pos, MateLimits { royals, ..limits() });
        let MateOutcome::Mate(line) = &report.outcome else {
            panic!("{royals:?}: {:?}", report.outcome);
        };
        assert!(report.shortest, "{royals:?}");
        assert_eq!(line.len(), plies, "{royals:?}");
        let shown = shishi::notation::write_move(&pos, line[0], shishi::notation::Notation::Usi);
        assert!(first.contains(&shown.as_str()), "{royals:?}: {shown}");
        assert_eq!(verify(&pos, &report.proof, plies, royals), Ok(plies));
    }
    // The 5-ply proof is no proof under the published convention: its first move attacks the
    // two royals but cannot take both.
    let any = solve(
        &pos,
        MateLimits {
            royals: Royals::Any,
            ..limits()
        },
    );
    assert!(matches!(
        verify(&pos, &any.proof, 5, Royals::All),
        Err(VerifyError::NotACheck { .. })
    ));
}

/// `mate --progress`: while the first search runs, the reports carry the root's proof and
/// disproof numbers as the search computes them (the root's table entry is written only when
/// its search returns, so reading the table showed 1 and 1 for a whole long solve).
#[test]
fn progress_reports_the_roots_numbers_while_it_is_searched() {
    use shishi::tsume::{MateProgress, ProgressHook};
    use std::sync::Mutex;
    // kinu34 of the historic suite: no answer within a few million nodes.
    let sfen = "1r9+V/+M+F2d2et3/2m1+P1g1s1x1/1+V3spk1p+H1/3p1p1Tp3/7+M1b1+v/3r4i3/1+F+p9/1+p7+L2/+p6+a2+r1/11Q/3+H3B4 b - 1";
    let pos = Position::from_sfen_any(sfen).unwrap();
    let seen: Arc<Mutex<Vec<(u32, u32)>>> = Arc::default();
    let sink = Arc::clone(&seen);
    let report = solve(
        &pos,
        MateLimits {
            nodes: Some(300_000),
            progress: Some(ProgressHook {
                every: Duration::ZERO,
                report: Arc::new(move |p: &MateProgress| {
                    sink.lock().unwrap().push((p.root_pn, p.root_dn));
                }),
            }),
            ..limits()
        },
    );
    assert_eq!(report.outcome, MateOutcome::Timeout);
    let seen = seen.lock().unwrap();
    assert!(!seen.is_empty(), "no progress reported");
    assert!(
        seen.iter()
            .any(|&(pn, dn)| (pn, dn) != (1, 1) && pn > 0 && dn > 0),
        "{seen:?}"
    );
}

/// A proof table kept from one solve to the next (`solve_in`, as `shishi mate --file` runs a
/// suite) gives every answer a fresh table gives, node for node, whatever the earlier problems
/// left in it, and a table of another size is replaced.
#[test]
fn a_reused_proof_table_gives_the_answers_of_a_fresh_one() {
    use shishi::tsume::{solve_in, ProofMemory};
    let problems: Vec<Position> = include_str!("../positions/tsume-chu-long.epd")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(12)
        .map(|l| Position::from_sfen_any(l.split(';').next().unwrap().trim()).unwrap())
        .collect();
    let mut memory = ProofMemory::default();
    for (i, pos) in problems.iter().enumerate() {
        // Two table sizes in turn, so that a table is also replaced by one of another size.
        let limits = || MateLimits {
            nodes: Some(40_000),
            time: None,
            table_mb: 1 + i % 2,
            ..MateLimits::default()
        };
        for _ in 0..2 {
            let reused = solve_in(pos, limits(), &mut memory);
            let fresh = solve(pos, limits());
            assert_eq!(
                (&reused.outcome, reused.shortest, reused.nodes),
                (&fresh.outcome, fresh.shortest, fresh.nodes),
                "problem {i}"
            );
        }
    }
}

/// A defender with no royal at all is left with none by any move, which the conventions count
/// as a check and a win: a mate in 1, as the exhaustive search says. The solver's move filter
/// aimed at royals and found no check (the tsume fuzz target's first find).
#[test]
fn a_defender_without_a_royal_is_mated_by_any_move() {
    let pos =
        Position::from_sfen_any("12/12/12/12/12/12/10s1/8+O1G1/8N3/6Q5/12/8G1o+g b - 1").unwrap();
    assert!(pos.royals(!pos.side_to_move()).is_empty());
    assert_eq!(proven_length(&pos), 1);
    assert_eq!(
        exhaustive_mate(&pos, 9, Royals::All, 5000),
        Exhaustive::Mate(1)
    );
}
