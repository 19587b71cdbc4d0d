//! Criterion benches of the search: fixed-depth single-thread searches of the Chu and Heian
//! start positions with a fresh table each time (deterministic work per iteration).

// `criterion_group!` makes a public function it gives no doc comment.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion};
use shishi::search::{Engine, EngineOptions, Limits};
use shishi::{Position, Variant};

fn fixed_depth(c: &mut Criterion) {
    let cases = [(Variant::Chushogi, 5), (Variant::Heian, 6)];
    for (variant, depth) in cases {
        let pos = Position::startpos(variant);
        let mut engine = Engine::new(EngineOptions {
            hash_mb: 16,
            ..EngineOptions::default()
        });
        c.bench_function(&format!("search {variant} depth {depth}"), |b| {
            b.iter(|| {
                engine.new_game();
                let limits = Limits {
                    depth: Some(depth),
                    ..Limits::default()
                };
                engine.start(&pos, limits, Box::new(|_| {})).wait().nodes
            });
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = fixed_depth
}
criterion_main!(benches);
