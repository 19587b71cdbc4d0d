//! Criterion benches for the rules core: perft, move generation, make/undo, and the slider
//! method (classical rays with a bit scan across the `u128` + `u16` words, against a plain
//! square-by-square walk, which is what the bitboard layout was chosen over).

// `criterion_group!` makes a public function it gives no doc comment.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use shishi::board::attacks::tables;
use shishi::board::{Bitboard, Square, Variant, DIRECTIONS};
use shishi::perft::perft;
use shishi::position::Position;

fn bench_perft(c: &mut Criterion) {
    let mut chu = Position::startpos(Variant::Chushogi);
    c.bench_function("perft chu startpos depth 3", |b| {
        b.iter(|| perft(black_box(&mut chu), 3));
    });
    let mut heian = Position::startpos(Variant::Heian);
    c.bench_function("perft heian startpos depth 4", |b| {
        b.iter(|| perft(black_box(&mut heian), 4));
    });
}

fn bench_movegen(c: &mut Criterion) {
    let chu = Position::startpos(Variant::Chushogi);
    c.bench_function("legal moves chu startpos", |b| {
        b.iter(|| black_box(&chu).legal_moves().len());
    });
    // A middle game with open lines and lions in contact.
    let open = Position::from_sfen(
        Variant::Chushogi,
        "5skg4/12/12/1p1+o2n2+d2/12/12/12/3+O2N2+H2/2P7P1/12/12/4GKS5 b - 1",
    )
    .unwrap();
    c.bench_function("legal moves chu several lions", |b| {
        b.iter(|| black_box(&open).legal_moves().len());
    });
    let mut pos = Position::startpos(Variant::Chushogi);
    let moves = pos.legal_moves();
    c.bench_function("make and undo chu startpos moves", |b| {
        b.iter(|| {
            for &mv in &moves {
                pos.play(mv);
                pos.undo();
            }
        });
    });
}

/// The alternative to rays on bitboards: walk each direction square by square.
fn walk_slides(dirs: u8, sq: Square, occupied: Bitboard) -> Bitboard {
    let mut acc = Bitboard::EMPTY;
    for (d, &(dc, dr)) in DIRECTIONS.iter().enumerate() {
        if dirs >> d & 1 == 0 {
            continue;
        }
        let mut cur = sq;
        while let Some(next) = cur.offset(dc, dr) {
            acc.set(next);
            if occupied.has(next) {
                break;
            }
            cur = next;
        }
    }
    acc
}

fn bench_sliders(c: &mut Criterion) {
    let pos = Position::startpos(Variant::Chushogi);
    let occ = pos.occupied();
    let squares: Vec<Square> = Square::all().collect();
    let t = tables();
    c.bench_function("queen slides, rays with bit scan, 144 squares", |b| {
        b.iter(|| {
            let mut n = 0;
            for &sq in &squares {
                n += t.slides(0xff, sq, black_box(occ)).count();
            }
            n
        });
    });
    c.bench_function("queen slides, square-by-square walk, 144 squares", |b| {
        b.iter(|| {
            let mut n = 0;
            for &sq in &squares {
                n += walk_slides(0xff, sq, black_box(occ)).count();
            }
            n
        });
    });
    // Both methods must agree, or the comparison means nothing.
    for &sq in &squares {
        assert_eq!(t.slides(0xff, sq, occ), walk_slides(0xff, sq, occ));
    }
}

criterion_group!(benches, bench_perft, bench_movegen, bench_sliders);
criterion_main!(benches);
