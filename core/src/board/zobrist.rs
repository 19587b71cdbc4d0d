//! Zobrist keys: one random 64-bit number per (piece, square), one for gote to move, one per
//! counter-strike square, one per square of a pawn that declined promotion under HaChu's rule.
//! Fixed seed, so keys (and the bench signature) are the same every run.

use super::{Piece, Square};
use std::sync::LazyLock;

/// The key tables, generated once from a fixed seed.
pub(crate) struct Keys {
    pieces: Box<[[u64; 144]; 128]>,
    /// XORed in when gote is to move.
    pub gote_to_move: u64,
    counter_strike: [u64; 144],
    declined_pawn: [u64; 144],
}

static KEYS: LazyLock<Keys> = LazyLock::new(|| {
    // splitmix64: tiny, well distributed, and independent of any crate's stream.
    let mut state = 0x5348_4953_4849_2024u64;
    let mut next = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut pieces = Box::new([[0u64; 144]; 128]);
    for row in pieces.iter_mut() {
        for k in row.iter_mut() {
            *k = next();
        }
    }
    let gote_to_move = next();
    let mut counter_strike = [0u64; 144];
    for k in counter_strike.iter_mut() {
        *k = next();
    }
    let mut declined_pawn = [0u64; 144];
    for k in declined_pawn.iter_mut() {
        *k = next();
    }
    Keys {
        pieces,
        gote_to_move,
        counter_strike,
        declined_pawn,
    }
});

/// Key of piece `p` standing on `sq`.
#[inline]
pub(crate) fn piece(p: Piece, sq: Square) -> u64 {
    KEYS.pieces[p.code()][sq.index()]
}

/// Key XORed in when gote is to move.
#[inline]
pub(crate) fn gote_to_move() -> u64 {
    KEYS.gote_to_move
}

/// Key XORed in while `sq` is the counter-strike square.
#[inline]
pub(crate) fn counter_strike(sq: Square) -> u64 {
    KEYS.counter_strike[sq.index()]
}

/// Key XORed in while the pawn on `sq` has declined a promotion (HaChu's `entry-only` rule).
#[inline]
pub(crate) fn declined_pawn(sq: Square) -> u64 {
    KEYS.declined_pawn[sq.index()]
}
