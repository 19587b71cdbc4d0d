//! The search on the caller's thread (`Engine::run_here`, the browser build's only search):
//! it finds what the threaded search finds, and its poll hook is how `stop` and `ponderhit`
//! reach it.

use shishi::search::{Control, Engine, EngineOptions, Limits};
use shishi::{Position, Variant};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::Duration;

fn engine() -> Engine {
    Engine::new(EngineOptions {
        hash_mb: 16,
        ..EngineOptions::default()
    })
}

#[test]
fn a_search_on_this_thread_finds_what_the_search_thread_finds() {
    let pos = Position::startpos(Variant::Heian);
    let limits = Limits {
        depth: Some(5),
        ..Limits::default()
    };
    let threaded = engine()
        .start(&pos, limits.clone(), Box::new(|_| {}))
        .wait();
    let here = engine()
        .run_here(&pos, limits, Box::new(|_| {}), Box::new(|_: &Control| {}))
        .wait();
    assert_eq!(here.best, threaded.best);
    assert_eq!(here.nodes, threaded.nodes);
    assert_eq!(here.score, threaded.score);
}

#[test]
fn an_infinite_search_on_this_thread_ends_when_its_poll_says_stop() {
    let pos = Position::startpos(Variant::Chushogi);
    let polls = Arc::new(AtomicU32::new(0));
    let counted = Arc::clone(&polls);
    let poll = Box::new(move |control: &Control| {
        if counted.fetch_add(1, Ordering::Relaxed) == 20 {
            control.stop();
        }
    });
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let result = engine()
        .run_here(&pos, limits, Box::new(|_| {}), poll)
        .wait();
    assert_eq!(polls.load(Ordering::Relaxed), 21);
    let best = result.best.expect("a best move");
    assert!(pos.legal_moves().contains(&best));
}

#[test]
fn ponderhit_through_the_poll_starts_the_clock() {
    let pos = Position::startpos(Variant::Heian);
    let polls = Arc::new(AtomicU32::new(0));
    let counted = Arc::clone(&polls);
    let poll = Box::new(move |control: &Control| {
        if counted.fetch_add(1, Ordering::Relaxed) == 5 {
            control.ponderhit();
        }
    });
    let limits = Limits {
        ponder: true,
        movetime: Some(Duration::from_millis(200)),
        ..Limits::default()
    };
    let started = std::time::Instant::now();
    let result = engine()
        .run_here(&pos, limits, Box::new(|_| {}), poll)
        .wait();
    assert!(result.best.is_some());
    assert!(started.elapsed() < Duration::from_secs(5));
}
