//! Composes Chu tsume of 143 to 191 plies and prints them as `SFEN ; plies  # comment` lines for
//! `shishi mate --file` (published convention: the line ends with the mating move).
//!
//! The six Go-Between lanes of `examples/make_longer_tsume.rs` (ranks f to k, 22 plies a lane,
//! 129 plies from file 2) with **exchanges in the last lane**: on rank k the King's next square
//! is taken by a gote piece, which can leave it only by capturing the checking Go-Between; a
//! White Horse retakes with check, and the King steps on. Each capture and recapture adds two
//! plies. Two materials for ranks a to c and k to l, the rest of the board being the six lanes:
//!
//! **Designed** (143 to 161 plies):
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
//! **Tuned** (173 to 191 plies): the rows of ranks a to c and k to l in `TUNED`, found by a
//! random walk from the designed material (start 2): change one or two squares of those ranks
//! (attacker pieces or gote walls on ranks a to c, defender pieces on ranks k and l), solve with
//! `shishi mate` (20 s), keep the change when the mate is proven shortest and no shorter. A gote
//! Bishop on l1 (by hand) gave 167 plies, about 450 steps then reached 191, and the next 470
//! found nothing longer. The rows hold gote Bishops on a9, b12 and c1, gote Reverse Chariots on
//! a1, a5 and b4, a gote Silver on b11, sente Reverse Chariots in place of some White Horses, and
//! on ranks k and l Leopards (k3, k7), a Silver (k2), Kirins (k4, l12), a Tiger (l5), a Copper
//! (l11), a Lance (l2) and a Dragon Horse (l1). The solver's longest defence of the 191-ply
//! problem takes the checker twice at most files of rank k (once at file 5, three times at file
//! 3), the King taking now and then an unguarded White Horse on rank j and stepping back under
//! a check from a diagonal; at file 2 it takes the Whale on j2, climbs to rank g and is mated on
//! i4.
//!
//! Every problem is six lanes entered at file `start` (2 to 11) of rank f; its length is 32 plies
//! (designed) or 62 plies (tuned) more than the six-lane problem with the same start,
//! `2 * (11 - start) + 1 + 22 * 5 + 32` or `+ 62`: 143 to 161 and 173 to 191 plies, each the
//! shortest mate (`shishi mate --file ... --movetime 60000`: solved, verified, proven shortest).
//! What keeps the construction short of 200 plies is in `docs/tsume.md` ("What is left").
//!
//! `cargo run --release --example make_longest_tsume > positions/tsume-chu-composed-longest.epd`
//! (or, without building the crate, `rustc -O --edition 2021 examples/make_longest_tsume.rs`).

#[path = "shared/tsume_board.rs"]
mod tsume_board;

#[path = "shared/go_between_lanes.rs"]
mod go_between_lanes;

use tsume_board::Board;

use go_between_lanes::FIRST;
/// Lanes (ranks f to k).
const LANES: usize = 6;
/// Files of the last lane with exchanges.
const EXCHANGES: std::ops::RangeInclusive<usize> = 3..=10;

/// The tuned material: ranks a to c and k to l as SFEN rows (file 12 first), found by a local
/// search from the designed material (see the module doc).
const TUNED: [(usize, &str); 5] = [
    (0, "1pAb+L1+LaAApa"),
    (1, "bs+L+L+LA1+La+Lp1"),
    (2, "AA+LAAAA+L+LAAb"),
    (10, "M2+r+rf+r+rofs+r"),
    (11, "ocoooootaol+b"),
];

/// Fills rank `rank` of `b` from an SFEN row.
fn put_row(b: &mut Board, rank: usize, row: &'static str) {
    let mut file = 12;
    let mut rest = row;
    while let Some(c) = rest.chars().next() {
        if c.is_ascii_digit() {
            let digits = rest.chars().take_while(char::is_ascii_digit).count();
            let n: usize = rest[..digits].parse().expect("a number of empty squares");
            b[rank][file + 1 - n..=file].fill(None);
            file -= n;
            rest = &rest[digits..];
        } else {
            let len = if c == '+' { 2 } else { 1 };
            b[rank][file] = Some(&rest[..len]);
            file -= 1;
            rest = &rest[len..];
        }
    }
    assert_eq!(
        file, 0,
        "row {row} of rank {rank} does not fill the 12 files"
    );
}

/// Six lanes entered at file `start` (2..=11) of rank f, as `make_longer_tsume.rs` builds them,
/// with the pieces of the exchanges in the last lane: the designed material, or the tuned one.
fn compose(start: usize, tuned: bool) -> String {
    let mut b = go_between_lanes::lanes_board(LANES, start);
    let last = FIRST + LANES - 1;
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
    if tuned {
        for (rank, row) in TUNED {
            put_row(&mut b, rank, row);
        }
    }
    b[FIRST][start] = Some("k");
    tsume_board::sfen(&b)
}

fn plies(start: usize, tuned: bool) -> usize {
    2 * (11 - start) + 1 + 22 * (LANES - 1) + if tuned { 62 } else { 32 }
}

fn main() {
    println!("# Chu tsume composed by examples/make_longest_tsume.rs (six Go-Between lanes with");
    println!("# exchanges in the last lane, see its module doc):");
    println!(
        "#   cargo run --release --example make_longest_tsume > positions/tsume-chu-composed-longest.epd"
    );
    println!("# six lanes entered at file `start`; lengths in plies (published convention),");
    println!("# each the shortest mate (shishi mate --file ... --movetime 60000).");
    for (tuned, name) in [(false, "exchanges"), (true, "tuned exchanges")] {
        for start in (2..=11).rev() {
            println!(
                "{} ; {}  # lanes 6 with {name}, start {start}",
                compose(start, tuned),
                plies(start, tuned)
            );
        }
    }
}
