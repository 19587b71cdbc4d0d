//! Perft and divide: count the leaves of the legal-move tree, bulk-counted at the last ply and
//! parallel over root moves with rayon. Game-end positions (docs/rules.md section 5 and 10) are
//! leaves with no children; repetition is ignored. Every count can be interrupted through a
//! `StopSignal`, so a protocol can answer `stop` while a long perft runs. The browser build has
//! no threads: there the root moves are counted one after the other.

use crate::movegen::{generate, MoveList};
use crate::moves::Move;
use crate::notation::{write_move, Notation};
use crate::platform::StopSignal;
use crate::position::Position;
#[cfg(not(target_arch = "wasm32"))]
use rayon::prelude::*;

/// Leaves of the tree of depth `depth` below `pos`.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    perft_until(pos, depth, &StopSignal::new()).unwrap_or(0)
}

/// Leaves of the tree of depth `depth` below `pos`, or `None` once `stop` is set.
pub fn perft_until(pos: &mut Position, depth: u32, stop: &StopSignal) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    if pos.is_over_before_moves() {
        return Some(0);
    }
    let mut moves = MoveList::new();
    generate(pos, &mut moves);
    if depth == 1 {
        return Some(moves.len() as u64);
    }
    if stop.is_set() {
        return None;
    }
    let mut nodes = 0;
    for &mv in &moves {
        pos.play(mv);
        let below = perft_until(pos, depth - 1, stop);
        pos.undo();
        nodes += below?;
    }
    Some(nodes)
}

/// The count below each root move (in the generator's order) for `depth >= 1`, computed in
/// parallel on the current rayon pool (in turn in the browser build).
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    divide_until(pos, depth, &StopSignal::new()).unwrap_or_default()
}

/// `divide`, or `None` once `stop` is set.
pub fn divide_until(pos: &Position, depth: u32, stop: &StopSignal) -> Option<Vec<(Move, u64)>> {
    if depth == 0 || pos.is_over_before_moves() {
        return Some(Vec::new());
    }
    let mut moves = MoveList::new();
    generate(pos, &mut moves);
    #[cfg(not(target_arch = "wasm32"))]
    let root = moves.par_iter();
    #[cfg(target_arch = "wasm32")]
    let root = moves.iter();
    root.map(|&mv| {
        let mut child = pos.clone();
        child.play(mv);
        perft_until(&mut child, depth - 1, stop).map(|n| (mv, n))
    })
    .collect()
}

/// Perft with the root split over rayon's threads.
pub fn perft_parallel(pos: &Position, depth: u32) -> u64 {
    if depth <= 1 {
        return perft(&mut pos.clone(), depth);
    }
    divide(pos, depth).iter().map(|&(_, n)| n).sum()
}

/// Divide lines `move count`, sorted by move text, in `notation`.
pub fn divide_lines(pos: &Position, depth: u32, notation: Notation) -> (Vec<String>, u64) {
    divide_lines_until(pos, depth, notation, &StopSignal::new()).unwrap_or_default()
}

/// `divide_lines`, or `None` once `stop` is set.
pub fn divide_lines_until(
    pos: &Position,
    depth: u32,
    notation: Notation,
    stop: &StopSignal,
) -> Option<(Vec<String>, u64)> {
    let mut rows: Vec<(String, u64)> = divide_until(pos, depth, stop)?
        .into_iter()
        .map(|(mv, n)| (write_move(pos, mv, notation), n))
        .collect();
    rows.sort();
    let total = rows.iter().map(|r| r.1).sum();
    Some((
        rows.into_iter().map(|(m, n)| format!("{m} {n}")).collect(),
        total,
    ))
}
