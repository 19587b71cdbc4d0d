//! Composes long Chu tsume by construction and prints them as `SFEN ; plies` lines for
//! `shishi mate --file` (published convention: the line ends with the mating move).
//!
//! The mechanism ("Go-Between lanes"): the gote King walks a rank, one file per check. Above
//! every file of the lane (files 2 to 11) stands a sente Go-Between guarded by a Reverse Chariot
//! behind it; a Go-Between that steps back (a retreat never promotes) attacks the square below
//! it, so each check is the retreat of the Go-Between of the King's file. The squares behind the
//! King are covered by the Go-Betweens that already retreated, the rank above by those that did
//! not, the rank below by a Side Mover sliding along it, so the King has exactly one escape: the
//! next file. A lane is crossed in about 20 plies. At its end the King takes that Side Mover,
//! which waits in a pocket of the edge file; a Reverse Chariot in the edge file then takes the
//! gote pawn above the pocket and checks down the file, the King steps back into the lane one
//! rank lower, and the Go-Between of the last file, retreating a second time, starts the next
//! lane in the other direction. The lanes are ranks g, h and i; the rank below the last lane is
//! closed with gote pawns, so the last lane ends in mate at its far file.
//!
//! Each edge gadget needs four squares of its edge file (Reverse Chariot, pawn, empty square,
//! pocket), so each edge serves one change of lane: three lanes, at most 63 plies. A fourth lane
//! would need a second gadget on the left edge two ranks lower, where the first one's pocket
//! is; no arrangement tried (searches over the edge file's pieces) gave one. Lanes above rank g
//! put the edge Reverse Chariots in the promotion zone, where capturing promotes them to Whales
//! whose diagonal covers the King's way back into the lane.
//!
//! Every problem is `lanes` lanes (1 to 3) entered at file `start` (2 to 11) of rank g; its
//! length is `2 * (11 - start) + 3`, `+ 25` or `+ 45` plies for one, two or three lanes (checked
//! by `shishi mate`, every mate proven shortest).
//!
//! `cargo run --release --example make_long_tsume > positions/tsume-chu-composed.epd`

#[path = "shared/tsume_board.rs"]
mod tsume_board;

use tsume_board::Board;

fn rank(r: char) -> usize {
    (r as u8 - b'a') as usize
}

fn put(b: &mut Board, file: usize, r: char, piece: &'static str) {
    b[rank(r)][file] = Some(piece);
}

/// `lanes` lanes (1..=3) on ranks g, h, i; the King enters rank g at file `start` (2..=11),
/// moving towards file 11.
fn compose(lanes: usize, start: usize) -> String {
    let mut b: Board = [[None; 13]; 12];
    for file in 2..=11 {
        put(&mut b, file, 'd', "A");
        // Go-Betweens of the files behind the King have already retreated once.
        put(&mut b, file, if file < start { 'f' } else { 'e' }, "I");
    }
    // Left edge: Reverse Chariot (guarded by another) over a pawn, an empty square, the pocket.
    put(&mut b, 12, 'd', "A");
    put(&mut b, 12, 'e', "A");
    put(&mut b, 12, 'f', "p");
    if lanes >= 2 {
        put(&mut b, 12, 'h', "M");
    }
    // Right edge: the same, one rank lower.
    put(&mut b, 1, 'e', "A");
    put(&mut b, 1, 'f', "A");
    put(&mut b, 1, 'g', "p");
    if lanes >= 3 {
        put(&mut b, 1, 'i', "M");
    }
    let closed = (b'g' + lanes as u8) as char;
    for file in 1..=12 {
        put(&mut b, file, closed, "p");
    }
    put(&mut b, start, 'g', "k");
    tsume_board::sfen(&b)
}

fn plies(lanes: usize, start: usize) -> usize {
    2 * (11 - start) + [3, 25, 45][lanes - 1]
}

fn main() {
    println!("# Chu tsume composed by examples/make_long_tsume.rs (Go-Between lanes, see its");
    println!("# module doc):");
    println!(
        "#   cargo run --release --example make_long_tsume > positions/tsume-chu-composed.epd"
    );
    println!("# `lanes` lanes entered at file `start`; lengths in plies (published convention),");
    println!("# each the shortest mate (shishi mate --file ... --movetime 10000).");
    for lanes in 1..=3 {
        for start in (2..=11).rev() {
            println!(
                "{} ; {}  # lanes {lanes}, start {start}",
                compose(lanes, start),
                plies(lanes, start)
            );
        }
    }
}
