//! Composes Chu tsume of 141 to 159 plies and prints them as `SFEN ; plies  # comment` lines for
//! `shishi mate --file` (published convention: the line ends with the mating move).
//!
//! The six Go-Between lanes of `examples/make_longer_tsume.rs` (ranks f to k, 22 plies a lane,
//! 129 plies from file 2) with **exchanges in the last lane**: at most files of rank k the
//! defender must first capture the checking piece twice before its King may step on, and each
//! capture and the recapture that checks again add two plies.
//!
//! - In the last lane (rank k, walked from file 11 to file 2) the King's next square holds a gote
//!   Dragon King (`+r`, a promoted Rook, so it cannot promote) for the files 10 to 3: the King has
//!   no escape but to take the checking Go-Between diagonally with it. Under rank k, rank l holds
//!   gote Kirins (`o`) on the files 3 to 10, which jump over the King onto the checker's square.
//! - Over those files the Reverse Chariot of rank c is a White Horse (`+L`), with two more White
//!   Horses on ranks a and b: they slide down the file (emptied by the Go-Between's descent) and
//!   retake on the checker's square, checking again. A White Horse cannot promote, and its own
//!   diagonals point up the board, away from the King; a Reverse Chariot retaking from the
//!   promotion zone (ranks a to d) would promote to a Whale, whose backward diagonals cover the
//!   King's next square and mate at once.
//! - The recapturing piece slides down the file and keeps attacking it below the King once the
//!   King has left, so only the last lane can do this: in an earlier lane that line covers the
//!   square of the same file in the next lane, and the King could never enter it.
//! - Gote pawns on a2, b2, a11 and b11 keep the White Horses' diagonals off the files 2 and 11:
//!   there the lanes' changes rely on a Reverse Chariot of rank c that retakes without a guard
//!   behind it (see `make_longer_tsume.rs`), and a White Horse sliding onto those files would
//!   check down them and mate sooner (45 plies). Files 2 and 11 have no exchange for the same
//!   reason (a guarded retake there refutes nothing), and k1 holds a gote Reverse Chariot.
//!
//! The longest defence uses 15 exchanges (two at the files 10 to 3, one at file 6, as the solver's
//! line shows): every problem is 30 plies longer than the six-lane problem with the same start,
//! `2 * (11 - start) + 1 + 22 * 5 + 30` plies, from 141 (start 11) to 159 (start 2); each is the
//! shortest mate (`shishi mate --file ... --movetime 60000`: solved, verified, proven shortest).
//! What keeps this short of 200 plies is in `docs/tsume.md` ("What is left").
//!
//! `rustc -O --edition 2021 examples/make_longest_tsume.rs -o /tmp/make_longest_tsume &&
//! /tmp/make_longest_tsume > positions/tsume-chu-composed-longest.epd`
//! (or `cargo run --release --example make_longest_tsume`).

#[path = "shared/tsume_board.rs"]
mod tsume_board;

use tsume_board::Board;

/// Rank of the first lane (f).
const FIRST: usize = 5;
/// Lanes (ranks f to k).
const LANES: usize = 6;
/// Files of the last lane with exchanges.
const EXCHANGES: std::ops::RangeInclusive<usize> = 3..=10;

/// Six lanes entered at file `start` (2..=11) of rank f, as `make_longer_tsume.rs` builds them,
/// with the pieces of the exchanges in the last lane.
fn compose(start: usize) -> String {
    let mut b: Board = [[None; 13]; 12];
    for file in 2..=11 {
        b[FIRST - 3][file] = Some("A");
        b[if file < start { FIRST - 1 } else { FIRST - 2 }][file] = Some("I");
    }
    b[FIRST - 2][12] = Some("A");
    b[FIRST - 1][12] = Some("A");
    b[FIRST - 1][1] = Some("A");
    b[FIRST][1] = Some("A");
    for k in 1..LANES {
        let rank = FIRST + k - 1;
        let edge = if k % 2 == 1 { 12 } else { 1 };
        b[rank][edge] = Some("r");
        b[rank + 1][edge] = Some("M");
    }
    let last = FIRST + LANES - 1;
    for square in b[last + 1].iter_mut().skip(1) {
        *square = Some("a");
    }
    // The exchanges: White Horses on ranks a to c, a Dragon King on the King's next square of
    // the last lane, a Kirin under the King.
    for file in EXCHANGES {
        for rank in 0..=2 {
            b[rank][file] = Some("+L");
        }
        b[last][file - 1] = Some("+r");
        b[last + 1][file] = Some("o");
    }
    b[last][1] = Some("a");
    for (rank, file) in [(0, 2), (1, 2), (0, 11), (1, 11)] {
        b[rank][file] = Some("p");
    }
    b[FIRST][start] = Some("k");
    tsume_board::sfen(&b)
}

fn plies(start: usize) -> usize {
    2 * (11 - start) + 1 + 22 * (LANES - 1) + 30
}

fn main() {
    println!("# Chu tsume composed by examples/make_longest_tsume.rs (six Go-Between lanes with");
    println!("# exchanges in the last lane, see its module doc):");
    println!("#   rustc -O --edition 2021 examples/make_longest_tsume.rs -o /tmp/make_longest_tsume");
    println!("#   /tmp/make_longest_tsume > positions/tsume-chu-composed-longest.epd");
    println!("# six lanes entered at file `start`; lengths in plies (published convention),");
    println!("# each the shortest mate (shishi mate --file ... --movetime 60000).");
    for start in (2..=11).rev() {
        println!(
            "{} ; {}  # lanes 6 with exchanges, start {start}",
            compose(start),
            plies(start)
        );
    }
}
