//! Composes Chu tsume of 143 to 161 plies and prints them as `SFEN ; plies  # comment` lines for
//! `shishi mate --file` (published convention: the line ends with the mating move).
//!
//! The six Go-Between lanes of `examples/make_longer_tsume.rs` (ranks f to k, 22 plies a lane,
//! 129 plies from file 2) with **exchanges in the last lane**: on rank k the King's next square
//! is taken by a gote piece, which can leave it only by capturing the checking Go-Between; a
//! White Horse retakes with check, and the King steps on. Each capture and recapture adds two
//! plies.
//!
//! - Rank k, walked from file 11 to file 2, holds gote Dragon Kings (`+r`, promoted Rooks, which
//!   cannot promote) on k1 to k9: the King's next square for the files 10 to 2. Rank l holds gote
//!   Kirins (`o`) on the files 3 to 10, which can jump over the King onto the checker's square;
//!   the other squares of rank l keep the gote Reverse Chariots of the six-lane closure.
//! - Over the files 3 to 10 the Reverse Chariot of rank c is a White Horse (`+L`), with two more
//!   on ranks a and b: after the Go-Between's descent the file is empty, and a White Horse slides
//!   down it to retake on the checker's square. A White Horse cannot promote and its diagonals
//!   point up the board; a Reverse Chariot retaking from the promotion zone (ranks a to d) would
//!   promote to a Whale, whose backward diagonals cover the King's next square and mate at once.
//! - The retaking piece keeps attacking its file below the King once the King has left, so only
//!   the last lane can have exchanges: in an earlier lane that line would cover the square of the
//!   same file in the next lane, which the King could then never enter.
//! - Gote pawns on a2, b2, a11 and b11 keep the White Horses' diagonals off the files 2 and 11,
//!   where the changes of lane rely on a Reverse Chariot of rank c that retakes without a guard
//!   behind it (see `make_longer_tsume.rs`): a White Horse sliding onto those files checks down
//!   them and mates sooner (45 plies). For the same reason files 2 and 11 keep their single
//!   Reverse Chariot.
//!
//! The solver's longest defence (`shishi mate`, verified, proven shortest) takes the checker with
//! the Dragon King at every file from 10 to 3 (one White Horse retakes), with the Kirin too at
//! file 4 (a second White Horse retakes); at file 2 the Dragon King from k1 takes, the Reverse
//! Chariot from c2 retakes as a Whale, and the King takes the Whale and climbs to j2, where the
//! White Horses standing on j10 to j6 come up their diagonals onto file 2 (b2 to f2), each taken
//! by the pawn from a2 stepping down, until the one from j4 mates on h2. The Kirins shape that
//! defence: with Reverse Chariots instead of them on rank l the mate comes at 117 plies.
//!
//! Every problem is six lanes entered at file `start` (2 to 11) of rank f; its length is 32 plies
//! more than the six-lane problem with the same start, `2 * (11 - start) + 1 + 22 * 5 + 32`, from
//! 143 (start 11) to 161 (start 2), each the shortest mate (`shishi mate --file ... --movetime
//! 60000`). What keeps the construction short of 200 plies is in `docs/tsume.md` ("What is
//! left").
//!
//! `cargo run --release --example make_longest_tsume > positions/tsume-chu-composed-longest.epd`
//! (or, without building the crate, `rustc -O --edition 2021 examples/make_longest_tsume.rs`).

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
    // the last lane (k1 to k9), a Kirin under the King.
    for file in EXCHANGES {
        for row in b.iter_mut().take(3) {
            row[file] = Some("+L");
        }
        b[last][file - 1] = Some("+r");
        b[last + 1][file] = Some("o");
    }
    b[last][1] = Some("+r");
    for (rank, file) in [(0, 2), (1, 2), (0, 11), (1, 11)] {
        b[rank][file] = Some("p");
    }
    b[FIRST][start] = Some("k");
    tsume_board::sfen(&b)
}

fn plies(start: usize) -> usize {
    2 * (11 - start) + 1 + 22 * (LANES - 1) + 32
}

fn main() {
    println!("# Chu tsume composed by examples/make_longest_tsume.rs (six Go-Between lanes with");
    println!("# exchanges in the last lane, see its module doc):");
    println!(
        "#   cargo run --release --example make_longest_tsume > positions/tsume-chu-composed-longest.epd"
    );
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
