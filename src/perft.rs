//! Perft and divide: count the leaves of the legal-move tree, bulk-counted at the last ply and
//! parallel over root moves with rayon. Game-end positions (RULES.md section 5 and 10) are
//! leaves with no children; repetition is ignored.

use crate::movegen::{generate, MoveList};
use crate::moves::Move;
use crate::notation::{write_move, Notation};
use crate::position::Position;
use rayon::prelude::*;

/// Leaves of the tree of depth `depth` below `pos`.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.is_over_before_moves() {
        return 0;
    }
    let mut moves = MoveList::new();
    generate(pos, &mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for &mv in &moves {
        pos.play(mv);
        nodes += perft(pos, depth - 1);
        pos.undo();
    }
    nodes
}

/// The count below each root move (in the generator's order) for `depth >= 1`, computed in
/// parallel on the current rayon pool.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 || pos.is_over_before_moves() {
        return Vec::new();
    }
    let mut moves = MoveList::new();
    generate(pos, &mut moves);
    moves
        .par_iter()
        .map(|&mv| {
            let mut child = pos.clone();
            child.play(mv);
            (mv, perft(&mut child, depth - 1))
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
    let mut rows: Vec<(String, u64)> = divide(pos, depth)
        .into_iter()
        .map(|(mv, n)| (write_move(pos, mv, notation), n))
        .collect();
    rows.sort();
    let total = rows.iter().map(|r| r.1).sum();
    (
        rows.into_iter().map(|(m, n)| format!("{m} {n}")).collect(),
        total,
    )
}
