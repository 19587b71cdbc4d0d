//! Two threads on one tsume (`MateLimits::threads`, `shishi mate --threads 2` on one problem):
//! two searches for the first mate, the defender's moves grouped two ways, race, and the first to
//! settle answers. Each has the node budget a single solve has, so a problem that either grouping
//! solves within it is solved, and the answer is verified like any other.

mod common;

use common::run_shishi as shishi;
use shishi::platform::StopSignal;
use shishi::tsume::{solve, verify, MateLimits, MateOutcome, Royals};
use shishi::Position;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// tsukuri46 of the historic suite: its first mate needs more than 200 000 nodes with the
/// interpositions grouped (a single solve), fewer with every non-royal move grouped.
const TSUKURI46: &str =
    "12/11r/9c2/12/6+t4H/12/8+h2L/7+p1c2/5N1+H1+p1+p/3q4+pk2/6D+M4/7+l1CF1 b - 1";
/// kinu12: the other way round.
const KINU12: &str =
    "4ek1g+F3/l4to2+Dd1/1Ff4x3r/3psNp1p3/2m6p2/2+M4p4/5+H6/6+r3+L1/12/12/6Q5/12 b - 1";
/// kinu34: no first mate within a few hundred thousand nodes either way.
const KINU34: &str = "1r9+V/+M+F2d2et3/2m1+P1g1s1x1/1+V3spk1p+H1/3p1p1Tp3/7+M1b1+v/3r4i3/1+F+p9/1+p7+L2/+p6+a2+r1/11Q/3+H3B4 b - 1";

const NODES: u64 = 200_000;

fn limits(threads: usize) -> MateLimits {
    MateLimits {
        nodes: Some(NODES),
        time: Some(Duration::from_secs(60)),
        threads,
        ..MateLimits::default()
    }
}

fn mate_line(pos: &Position, threads: usize) -> Option<Vec<shishi::Move>> {
    let report = solve(pos, limits(threads));
    assert_eq!(report.rejected, None);
    let MateOutcome::Mate(line) = report.outcome else {
        return None;
    };
    let longest = verify(pos, &report.proof, line.len(), Royals::All)
        .unwrap_or_else(|e| panic!("proof rejected: {e}"));
    assert_eq!(longest, line.len());
    Some(line)
}

#[test]
fn two_threads_solve_what_either_grouping_solves() {
    let tsukuri46 = Position::from_sfen_any(TSUKURI46).unwrap();
    let kinu12 = Position::from_sfen_any(KINU12).unwrap();
    // One thread: the interpositions' grouping solves kinu12 within the budget, not tsukuri46.
    assert_eq!(mate_line(&tsukuri46, 1), None);
    let single = mate_line(&kinu12, 1).expect("kinu12 within the budget");
    // Two: both, and kinu12 with the single solve's line (the same search wins there).
    let raced = mate_line(&tsukuri46, 2).expect("tsukuri46 with two threads");
    assert!(raced.len() <= 21, "{}", raced.len());
    assert_eq!(mate_line(&kinu12, 2), Some(single));
}

#[test]
fn stop_ends_both_searches() {
    let pos = Position::from_sfen_any(KINU34).unwrap();
    let stop = Arc::new(StopSignal::new());
    let signal = Arc::clone(&stop);
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        signal.set();
    });
    let began = Instant::now();
    let report = solve(
        &pos,
        MateLimits {
            nodes: None,
            stop: Some(stop),
            ..limits(2)
        },
    );
    stopper.join().unwrap();
    assert_eq!(report.outcome, MateOutcome::Timeout);
    assert!(
        began.elapsed() < Duration::from_secs(20),
        "{:?}",
        began.elapsed()
    );
}

#[test]
fn mate_with_two_threads_on_one_problem_races() {
    let nodes = NODES.to_string();
    let answer = |threads: &str| {
        let (code, stdout, stderr) = shishi(&[
            "mate",
            "--sfen",
            TSUKURI46,
            "--nodes",
            &nodes,
            "--threads",
            threads,
            "--progress",
            "0",
        ]);
        assert_eq!(code, 0, "{stdout}{stderr}");
        stdout.lines().next().unwrap_or_default().to_string()
    };
    assert!(answer("1").contains("timeout"), "{}", answer("1"));
    let raced = answer("2");
    assert!(raced.contains(": mate in 21 plies"), "{raced}");
    assert!(raced.contains("verified"), "{raced}");
}

#[test]
fn race_gives_each_problem_of_a_file_two_threads() {
    let dir = std::env::temp_dir().join(format!("shishi-race-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("two.epd");
    std::fs::write(&file, format!("{TSUKURI46}\n{KINU12}\n")).unwrap();
    let nodes = NODES.to_string();
    let answers = |extra: &[&str]| {
        let mut args = vec![
            "mate",
            "--file",
            file.to_str().unwrap(),
            "--nodes",
            &nodes,
            "--progress",
            "0",
        ];
        args.extend_from_slice(extra);
        let (code, stdout, stderr) = shishi(&args);
        (code, stdout + &stderr)
    };
    // Two threads on two problems: one each, so tsukuri46 is not solved within the budget.
    let (code, out) = answers(&["--threads", "2"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("problem 1 (line 1): timeout"), "{out}");
    let (code, out) = answers(&["--threads", "2", "--race"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("problem 1 (line 1): mate in 21 plies"),
        "{out}"
    );
    assert!(out.contains("problem 2 (line 2): mate in"), "{out}");
    let (code, out) = answers(&["--race"]);
    assert_ne!(code, 0, "{out}");
    assert!(out.contains("--race needs --threads 2"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}
