//! Composes Chu tsume of up to six Go-Between lanes (129 plies) and prints them as
//! `SFEN ; plies  # comment` lines for `shishi mate --file` (published convention: the line
//! ends with the mating move).
//!
//! The lanes are those of `examples/make_long_tsume.rs`: the gote King walks a rank, one file per
//! check; over every file of the lane (files 2 to 11) a sente Go-Between, guarded by a Reverse
//! Chariot behind it, retreats and checks the King's file; the Go-Betweens already retreated
//! cover the squares behind the King, those not yet retreated the rank above, and a Side Mover
//! (the "pocket") in the edge file where the lane ends covers the rank below. What is new is the
//! change of lane, which here uses only two squares of the edge file per lane, so one edge serves
//! every second lane:
//!
//! - the edge square of the lane's rank holds a gote Rook (the "hole"), the square below it the
//!   pocket; higher up in the edge file stand two sente Reverse Chariots, the lower one with a
//!   clear file down to the hole;
//! - at the lane's last file the King's only escape is to take the pocket (diagonally); the lower
//!   Reverse Chariot takes the hole and checks the King from the square above it, guarded by the
//!   other Reverse Chariot; the King steps back into the next lane one rank lower, whose first
//!   check is the retreat of the Go-Between of that file;
//! - the same Reverse Chariot takes the hole of every later lane that ends on its edge (it moves
//!   two ranks down each time), and the rank below the last lane is closed with gote Reverse
//!   Chariots.
//!
//! Why gote Rooks in the holes: the pocket may step up and take the hole with check, both when the
//! King stands at the lane's last file and when it stands on the pocket square of the previous
//! change of lane, two squares above; the Side Mover on the hole square is then guarded along the
//! rank by the other edge's pocket. A gote Rook (or the closing gote Reverse Chariot) below the
//! pocket retakes it through the square it left, and that line is no mate. With gote pawns in the
//! holes the step gives a shorter mate from the fourth lane on, with Golds from the sixth; with a
//! gote Reverse Chariot as hole the other edge's pocket crosses the empty rank below the lane and
//! takes it with check.
//!
//! Limits: the lanes are ranks f to k. The first capture of each edge Reverse Chariot must start
//! outside the promotion zone (ranks a to d), or its promotion to a Whale, whose backward diagonal
//! covers the King's way into the next lane, mates sooner; so no lane above rank f (a White Horse,
//! which cannot promote, was tried as the first capturer instead: its forward diagonals give
//! shorter mates). A seventh lane, on rank l, puts the last pocket on rank l with no square below
//! it for the gote slider that refutes the pocket's step: 95 plies instead of 151.
//!
//! Every problem is `lanes` lanes (1 to 6) entered at file `start` (2 to 11) of rank f; its length
//! is `2 * (11 - start) + 1 + 22 * (lanes - 1)` plies, from 1 to 129 (checked by `shishi mate`,
//! every mate proven shortest).
//!
//! `cargo run --release --example make_longer_tsume > positions/tsume-chu-composed-long.epd`

#[path = "shared/tsume_board.rs"]
mod tsume_board;

#[path = "shared/go_between_lanes.rs"]
mod go_between_lanes;

/// `lanes` lanes (1..=6) on ranks f, g, ...; the King enters rank f at file `start` (2..=11),
/// moving towards file 11.
fn compose(lanes: usize, start: usize) -> String {
    let mut b = go_between_lanes::lanes_board(lanes, start);
    b[go_between_lanes::FIRST][start] = Some("k");
    tsume_board::sfen(&b)
}

fn plies(lanes: usize, start: usize) -> usize {
    2 * (11 - start) + 1 + 22 * (lanes - 1)
}

fn main() {
    println!("# Chu tsume composed by examples/make_longer_tsume.rs (Go-Between lanes with gote");
    println!("# Rooks in the edge holes, see its module doc):");
    println!(
        "#   cargo run --release --example make_longer_tsume > positions/tsume-chu-composed-long.epd"
    );
    println!("# `lanes` lanes entered at file `start`; lengths in plies (published convention),");
    println!("# each the shortest mate (shishi mate --file ... --movetime 60000).");
    for lanes in 1..=6 {
        for start in (2..=11).rev() {
            println!(
                "{} ; {}  # lanes {lanes}, start {start}",
                compose(lanes, start),
                plies(lanes, start)
            );
        }
    }
}
