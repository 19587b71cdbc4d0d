//! The fuzz targets' short run on stable Rust: each reader of `shishi::fuzzing` gets its seed
//! corpus (`fuzz/seeds/<target>/`) and inputs mutated from it (bits flipped, bytes replaced,
//! inserted and deleted, runs repeated, cut short, two seeds spliced), from a fixed seed so every
//! run tries the same inputs. A reader may refuse an input; a panic fails the test. The long
//! runs are libFuzzer's, through `cargo fuzz` (`fuzz/`, `scripts/fuzz`, docs/testing.md).

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::Path;

fn seeds(target: &str) -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/seeds")
        .join(target);
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    let out: Vec<Vec<u8>> = paths.iter().map(|p| std::fs::read(p).unwrap()).collect();
    assert!(!out.is_empty(), "no seeds in {}", dir.display());
    out
}

const INTERESTING: &[&[u8]] = &[
    b"\xff",
    b"\xe9",
    b"\x00",
    b"\r\n",
    b"+",
    b"/",
    b"12",
    b"9999999999999999999999",
    b"-",
    b" moves ",
    b"\"",
    b"\\",
    b"\xe3\x80\x80",
    b"\x82\xa0",
];

fn mutate(rng: &mut StdRng, input: &[u8], other: &[u8]) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..rng.gen_range(1..=4) {
        let len = out.len();
        match rng.gen_range(0..8) {
            0 if len > 0 => {
                let at = rng.gen_range(0..len);
                out[at] ^= 1 << rng.gen_range(0..8);
            }
            1 if len > 0 => {
                let at = rng.gen_range(0..len);
                out[at] = rng.gen();
            }
            2 => {
                let at = rng.gen_range(0..=len);
                let piece = INTERESTING[rng.gen_range(0..INTERESTING.len())];
                out.splice(at..at, piece.iter().copied());
            }
            3 if len > 0 => {
                let at = rng.gen_range(0..len);
                let end = (at + rng.gen_range(1..=16)).min(len);
                out.drain(at..end);
            }
            4 if len > 0 => {
                let at = rng.gen_range(0..len);
                let end = (at + rng.gen_range(1..=32)).min(len);
                let run = out[at..end].to_vec();
                out.splice(end..end, run.iter().chain(run.iter()).copied());
            }
            5 if len > 0 => out.truncate(rng.gen_range(0..len)),
            6 if !other.is_empty() => {
                let cut = rng.gen_range(0..=len);
                let from = rng.gen_range(0..other.len());
                out.truncate(cut);
                out.extend_from_slice(&other[from..]);
            }
            _ => {
                let at = rng.gen_range(0..=len);
                let random: Vec<u8> = (0..rng.gen_range(1..8)).map(|_| rng.gen()).collect();
                out.splice(at..at, random);
            }
        }
    }
    out
}

/// Every seed, then `runs` mutants of them, through `reader`.
fn smoke(target: &str, runs: usize, reader: fn(&[u8])) {
    let corpus = seeds(target);
    for seed in &corpus {
        reader(seed);
    }
    let mut rng = StdRng::seed_from_u64(0x5eed_0000 + target.len() as u64);
    for _ in 0..runs {
        let input = &corpus[rng.gen_range(0..corpus.len())];
        let other = &corpus[rng.gen_range(0..corpus.len())];
        reader(&mutate(&mut rng, input, other));
    }
}

#[test]
fn sfen() {
    smoke("sfen", 20_000, shishi::fuzzing::sfen);
}

#[test]
fn usi_lines() {
    smoke("usi_lines", 150, shishi::fuzzing::usi_lines);
}

#[test]
fn xboard_lines() {
    smoke("xboard_lines", 150, shishi::fuzzing::xboard_lines);
}

#[test]
fn net_file() {
    smoke("net_file", 150, shishi::fuzzing::net_file);
}

#[test]
fn packed_data() {
    smoke("packed_data", 300, shishi::fuzzing::packed_data);
}

#[test]
fn text_data() {
    smoke("text_data", 500, shishi::fuzzing::text_data);
}

#[test]
fn pgn() {
    smoke("pgn", 500, shishi::fuzzing::pgn);
}

#[test]
fn epd_book() {
    smoke("epd_book", 500, shishi::fuzzing::epd_book);
}

#[test]
fn game_record() {
    smoke("game_record", 200, shishi::fuzzing::game_record);
}

#[test]
fn tsume() {
    smoke("tsume", 60, shishi::fuzzing::tsume);
}

#[test]
fn the_mutator_changes_its_input() {
    let mut rng = StdRng::seed_from_u64(1);
    let input = b"position startpos moves 7i7h".to_vec();
    let changed = (0..100)
        .filter(|_| mutate(&mut rng, &input, b"usi") != input)
        .count();
    assert!(changed >= 90, "{changed} of 100 mutants differ");
}
