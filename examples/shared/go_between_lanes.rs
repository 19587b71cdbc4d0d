//! The Go-Between lanes that `make_longer_tsume` and `make_longest_tsume` build (described in
//! `make_longer_tsume.rs`): both start from the same board.

use super::tsume_board::Board;

/// Rank of the first lane (f).
pub(crate) const FIRST: usize = 5;

/// `lanes` lanes (1..=6) on ranks f, g, ...; the King enters rank f at file `start` (2..=11),
/// moving towards file 11. The rank below the last lane is closed by gote Reverse Chariots.
pub(crate) fn lanes_board(lanes: usize, start: usize) -> Board {
    let mut b: Board = [[None; 13]; 12];
    for file in 2..=11 {
        b[FIRST - 3][file] = Some("A");
        // Go-Betweens of the files behind the King have already retreated once.
        b[if file < start { FIRST - 1 } else { FIRST - 2 }][file] = Some("I");
    }
    // Each edge: a Reverse Chariot with a clear file down to its first hole, guarded by another.
    b[FIRST - 2][12] = Some("A");
    b[FIRST - 1][12] = Some("A");
    b[FIRST - 1][1] = Some("A");
    b[FIRST][1] = Some("A");
    // Lane k ends at file 12 (k odd) or 1 (k even): a gote Rook on its rank, the pocket below.
    for k in 1..lanes {
        let rank = FIRST + k - 1;
        let edge = if k % 2 == 1 { 12 } else { 1 };
        b[rank][edge] = Some("r");
        b[rank + 1][edge] = Some("M");
    }
    let closed = FIRST + lanes;
    if closed < 12 {
        for square in b[closed].iter_mut().skip(1) {
            square.get_or_insert("a");
        }
    }
    b
}
