//! Search behaviour: legal answers from varied positions, mates found with the right distance,
//! a move picker that yields exactly the legal moves, deterministic bench, stop and ponder.

use rand::{Rng, SeedableRng};
use shishi::protocol::options::Settings;
use shishi::search::params::{SearchParams, TUNABLES};
use shishi::search::picker::{History, Picker};
use shishi::search::{
    bench, Engine, EngineOptions, EvalOptions, Limits, Score, SearchInfo, SearchResult,
};
use shishi::{Position, Variant};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn engine() -> Engine {
    Engine::new(EngineOptions {
        hash_mb: 8,
        ..EngineOptions::default()
    })
}

fn search(pos: &Position, limits: Limits) -> SearchResult {
    engine().start(pos, limits, Box::new(|_| {})).wait()
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// Searches `pos` and returns the result with every progress line reported on the way.
fn search_with_lines(
    engine: &mut Engine,
    pos: &Position,
    limits: Limits,
) -> (SearchResult, Vec<SearchInfo>) {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let sink = lines.clone();
    let result = engine
        .start(
            pos,
            limits,
            Box::new(move |info| sink.lock().unwrap().push(info.clone())),
        )
        .wait();
    let lines = std::mem::take(&mut *lines.lock().unwrap());
    (result, lines)
}

/// Positions reached by seeded random playouts from every start position.
fn random_positions(count: usize, seed: u64) -> Vec<Position> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let variant = Variant::ALL[out.len() % Variant::ALL.len()];
        let mut pos = Position::startpos(variant);
        let plies = rng.gen_range(0..80);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            pos.play(moves[rng.gen_range(0..moves.len())]);
        }
        if pos.outcome().is_none() {
            out.push(pos);
        }
    }
    out
}

#[test]
fn short_searches_return_a_legal_move_from_varied_positions() {
    for pos in random_positions(20, 7) {
        for limits in [
            depth(3),
            Limits {
                nodes: Some(3000),
                ..Limits::default()
            },
        ] {
            let result = search(&pos, limits);
            let best = result.best.unwrap_or_else(|| panic!("no move in {pos:?}"));
            assert!(pos.is_legal(best), "illegal {best:?} in {pos:?}");
        }
    }
}

#[test]
fn move_picker_yields_exactly_the_legal_moves() {
    let history = History::new();
    for pos in random_positions(60, 11) {
        let legal = pos.legal_moves();
        let mut expected: Vec<u32> = legal.iter().map(|m| m.bits()).collect();
        expected.sort_unstable();
        // A legal hash move and killers, and a killer that is not legal here.
        let hash = legal.get(legal.len() / 2).copied();
        let killers = [legal.last().copied(), Some(shishi::Move::PASS)];
        let mut picker = Picker::new(&pos, hash, killers, &SearchParams::default());
        let mut got = Vec::new();
        while let Some(mv) = picker.next(&pos, &history) {
            got.push(mv.bits());
        }
        got.sort_unstable();
        assert_eq!(got, expected, "picker differs from legal moves in {pos:?}");
        let mut tactical = Picker::tactical(&pos, &SearchParams::default());
        let mut got = Vec::new();
        while let Some(mv) = tactical.next(&pos, &history) {
            got.push(mv.bits());
        }
        got.sort_unstable();
        let mut expected: Vec<u32> = legal
            .iter()
            .filter(|m| m.is_promotion() || pos.is_capture(**m))
            .map(|m| m.bits())
            .collect();
        expected.sort_unstable();
        assert_eq!(got, expected, "tactical picker differs in {pos:?}");
    }
}

fn position(variant: &str, sfen: &str) -> Position {
    Position::from_sfen(Variant::from_name(variant).expect("variant"), sfen).expect("sfen")
}

#[test]
fn chu_royal_capture_is_mate_in_one() {
    let pos = position("chushogi", "g5k5/12/12/12/12/6R5/12/12/12/12/12/K11 b - 1");
    let result = search(&pos, depth(4));
    assert_eq!(result.score, Score::Mate(1));
    let best = result.best.expect("move");
    let mut after = pos.clone();
    after.play(best);
    assert!(
        after.royals(after.side_to_move()).is_empty(),
        "{best:?} did not take the king"
    );
}

#[test]
fn heian_checkmate_in_one() {
    let pos = position("heian", "p3k3p/9/3GP4/9/9/9/9/9/4K4 b - 1");
    let result = search(&pos, depth(3));
    assert_eq!(result.score, Score::Mate(1));
    let mut after = pos.clone();
    after.play(result.best.expect("move"));
    let outcome = after.outcome().expect("game over");
    assert_eq!(outcome.reason, shishi::position::OutcomeReason::Checkmate);
}

#[test]
fn heian_bare_king_win_in_one() {
    let pos = position("heian", "4k4/9/9/9/4p4/4G4/9/3S5/4K4 b - 1");
    let result = search(&pos, depth(3));
    assert_eq!(result.score, Score::Mate(1));
    let mut after = pos.clone();
    after.play(result.best.expect("move"));
    let outcome = after.outcome().expect("game over");
    assert_eq!(outcome.reason, shishi::position::OutcomeReason::BareKing);
}

#[test]
fn chu_lion_hunts_the_king_in_three_plies() {
    // The lion is three squares from the cornered king: it closes in to two squares, and every
    // king move stays inside its reach.
    let pos = position("chushogi", "k10p/12/12/3N8/12/12/12/12/12/12/12/11K b - 1");
    let result = search(&pos, depth(5));
    assert_eq!(result.score, Score::Mate(3));
    // And the losing side sees the same mate one ply later.
    let mut after = pos.clone();
    after.play(result.best.expect("move"));
    assert_eq!(search(&after, depth(5)).score, Score::Mate(-2));
}

#[test]
fn bench_node_count_is_deterministic() {
    let run = |eval: &EvalOptions| {
        bench(
            Some(3),
            eval,
            &SearchParams::default(),
            &mut std::io::sink(),
        )
        .expect("bench")
        .nodes
    };
    let net = EvalOptions::default();
    let by_hand = EvalOptions {
        use_nnue: false,
        file_net: None,
    };
    let first = run(&net);
    assert!(first > 0);
    assert_eq!(first, run(&net));
    // The Heian positions are evaluated by the embedded net unless the hand-crafted
    // evaluation is chosen, and each evaluation has its own signature.
    let hand = run(&by_hand);
    assert_eq!(hand, run(&by_hand));
    assert_ne!(first, hand);
}

#[test]
fn a_tune_option_changes_the_bench_signature() {
    let run = |s: &Settings| {
        bench(
            Some(3),
            &s.engine.eval,
            &s.engine.params,
            &mut std::io::sink(),
        )
        .expect("bench")
        .nodes
    };
    let defaults = Settings::default();
    let signature = run(&defaults);
    for (name, value) in [("Tune_LmrBase", "2000"), ("Tune_RfpMargin", "30")] {
        let mut tuned = Settings::default();
        tuned.set(name, value).expect(name);
        assert_ne!(
            run(&tuned),
            signature,
            "{name}={value} left the search unchanged"
        );
    }
    // Setting an option to its default is the default search.
    let mut same = Settings::default();
    same.set("Tune_LmrDivisor", "2200")
        .expect("Tune_LmrDivisor");
    assert_eq!(run(&same), signature);
}

#[test]
fn every_search_parameter_is_documented_with_its_default_and_range() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/tuning-options.md");
    let doc = std::fs::read_to_string(path).expect("docs/tuning-options.md");
    for t in TUNABLES {
        let row = format!("| `{}` | {} | {} .. {} |", t.name, t.default, t.min, t.max);
        assert!(
            doc.contains(&row),
            "docs/tuning-options.md lacks the row {row}"
        );
    }
}

#[test]
fn stop_ends_an_infinite_search_quickly() {
    let pos = Position::startpos(Variant::Chushogi);
    let mut engine = engine();
    let handle = engine.start(
        &pos,
        Limits {
            infinite: true,
            ..Limits::default()
        },
        Box::new(|_| {}),
    );
    std::thread::sleep(Duration::from_millis(300));
    assert!(!handle.is_finished(), "an infinite search ended by itself");
    let asked = Instant::now();
    handle.stop();
    let result = handle.wait();
    let latency = asked.elapsed();
    eprintln!("stop latency {latency:?}");
    assert!(
        latency < Duration::from_millis(500),
        "stop took {latency:?}"
    );
    assert!(pos.is_legal(result.best.expect("move")));
}

#[test]
fn ponder_search_waits_for_ponderhit() {
    let pos = Position::startpos(Variant::Heian);
    let mut engine = engine();
    let handle = engine.start(
        &pos,
        Limits {
            ponder: true,
            depth: Some(2),
            ..Limits::default()
        },
        Box::new(|_| {}),
    );
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        !handle.is_finished(),
        "a ponder search returned before ponderhit"
    );
    handle.ponderhit();
    let result = handle.wait();
    assert!(pos.is_legal(result.best.expect("move")));
}

#[test]
fn timed_search_respects_the_clock() {
    let pos = Position::startpos(Variant::Chushogi);
    let start = Instant::now();
    let result = search(
        &pos,
        Limits {
            time: [Some(Duration::from_millis(2000)); 2],
            ..Limits::default()
        },
    );
    assert!(start.elapsed() < Duration::from_millis(1500));
    assert!(pos.is_legal(result.best.expect("move")));
}

/// With a target time far too short for depth 6 and a hard limit far beyond it, the minimum
/// depth decides how deep a clocked search goes.
#[test]
fn a_clocked_search_completes_the_minimum_depth() {
    let pos = Position::startpos(Variant::Chushogi);
    let depth_with = |min_depth_chu: i32| {
        let params = SearchParams {
            sudden_death_moves_chu: 1000,
            hard_limit_factor: 100,
            hard_limit_clock_share: 1000,
            min_depth_chu,
            ..SearchParams::default()
        };
        let mut engine = Engine::new(EngineOptions {
            hash_mb: 8,
            move_overhead: Duration::ZERO,
            params,
            ..EngineOptions::default()
        });
        // Target about 1 ms, hard limit about 100 ms.
        let limits = Limits {
            time: [Some(Duration::from_millis(1000)); 2],
            ..Limits::default()
        };
        let result = engine.start(&pos, limits, Box::new(|_| {})).wait();
        assert!(pos.is_legal(result.best.expect("move")));
        result.depth
    };
    assert!(depth_with(0) < 6, "the target alone stops before depth 6");
    assert_eq!(depth_with(6), 6);
}

#[test]
fn multipv_reports_distinct_lines_best_first() {
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        threads: 1,
        multipv: 3,
        ..EngineOptions::default()
    });
    let pos = Position::startpos(Variant::Heian);
    let (result, lines) = search_with_lines(&mut engine, &pos, depth(4));
    let last_depth: Vec<_> = lines.iter().filter(|i| i.depth == 4).collect();
    assert_eq!(
        last_depth.iter().map(|i| i.multipv).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    let firsts: std::collections::HashSet<_> = last_depth.iter().map(|i| i.pv[0]).collect();
    assert_eq!(firsts.len(), 3, "three different root moves");
    assert_eq!(last_depth[0].pv[0], result.best.unwrap());
    let cp = |s: Score| match s {
        Score::Cp(c) => c,
        Score::Mate(m) => {
            if m > 0 {
                100_000 - m
            } else {
                -100_000 - m
            }
        }
    };
    assert!(cp(last_depth[0].score) >= cp(last_depth[1].score));
}

/// With helpers, whichever thread finishes the requested depth first ends the search; the last
/// line the GUI sees must be the one whose move is played, at the depth reported.
#[test]
fn two_threads_report_the_line_they_play() {
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        threads: 2,
        ..EngineOptions::default()
    });
    for pos in random_positions(6, 77) {
        let (result, lines) = search_with_lines(&mut engine, &pos, depth(5));
        let Some(best) = result.best else { continue };
        let last = lines.last().expect("at least one line");
        assert_eq!(last.depth, result.depth, "{}", pos.to_sfen());
        assert_eq!(last.pv.first(), Some(&best), "{}", pos.to_sfen());
    }
}

#[test]
fn the_waker_hears_each_search_end_with_its_result_ready() {
    // The protocol loop sleeps until its input or this call: the search must be over (its
    // result ready) when it comes, and it must come once per search.
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    let tx = Mutex::new(tx);
    let mut engine = engine();
    engine.set_waker(Some(Arc::new(move || {
        tx.lock().unwrap().send(()).unwrap();
    })));
    let pos = Position::startpos(Variant::Heian);
    for d in [1, 3] {
        let handle = engine.start(&pos, depth(d), Box::new(|_| {}));
        rx.recv_timeout(Duration::from_secs(60))
            .expect("woken at the end");
        assert!(handle.is_finished());
        assert!(handle.wait().best.is_some());
        assert!(rx.try_recv().is_err(), "one wake-up per search");
    }
}

/// A search thread that panics (here in its progress callback, with a helper thread searching
/// beside it and no limit but `stop`) ends at once and answers a legal move, not "no move".
#[test]
fn a_panicking_search_answers_a_legal_move() {
    for variant in [Variant::Chushogi, Variant::Heian] {
        let pos = Position::startpos(variant);
        let mut engine = Engine::new(EngineOptions {
            hash_mb: 8,
            threads: 2,
            ..EngineOptions::default()
        });
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        let handle = engine.start(
            &pos,
            limits,
            Box::new(|_| panic!("a progress line that cannot be written")),
        );
        let started = Instant::now();
        while !handle.is_finished() {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "{variant:?}: the panicked search did not end"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        let best = handle.wait().best.expect("a move after the panic");
        assert!(pos.legal_moves().contains(&best), "{variant:?}: {best:?}");
    }
}
