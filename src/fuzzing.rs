//! The readers of everything a user or a file can hand shishi, each as one function from bytes,
//! for the fuzz targets in `fuzz/` (cargo-fuzz, libFuzzer) and the stable smoke test
//! `tests/fuzz_smoke.rs`. A reader may refuse its input with an error; it must not panic, hang
//! or take memory out of proportion to the input. Not an interface for anything else.
//!
//! The protocol sessions are fed the input's lines with their output discarded and every
//! search, perft or mate search stopped as soon as it polls its input. Lines that only ask for
//! memory (`USI_Hash`, `memory`) or threads are left out: a table of gigabytes is what the user
//! asked for, not a fault (its refusal past the machine's memory has tests of its own).

use crate::board::Variant;
use crate::position::Position;
use crate::protocol::{self, LineFront};
use crate::record::{self, ReadOptions};
use crate::rules::{Preset, RuleSet};
use std::io::Cursor;

/// The input as text, undecodable bytes replaced (the readers see what a lossy front end gives).
fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// Lines a harness drops: memory and thread counts are the user's to choose, and so is a
/// `bench`, a fixed workload of seconds whatever its arguments (three in one input outlast the
/// fuzzer's time limit for one input).
fn asks_for_resources(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    lower.trim_start().starts_with("bench")
        || ["hash", "memory", "threads", "cores"]
            .iter()
            .any(|word| lower.contains(word))
}

/// SFEN for every variant, and XBoard FEN.
pub fn sfen(data: &[u8]) {
    let text = text(data);
    for variant in Variant::ALL {
        if let Ok(pos) = Position::from_sfen(variant, &text) {
            let again = Position::from_sfen(variant, &pos.to_sfen()).expect("a written SFEN reads");
            assert_eq!(again.to_sfen(), pos.to_sfen());
        }
        let _ = Position::from_xboard_fen(variant, &text);
    }
    let _ = Position::from_sfen_any(&text);
}

/// A USI session (lishogi's dialect, or UCI-style with `uci` first) fed the input's lines.
pub fn usi_lines(data: &[u8]) {
    let text = text(data);
    protocol::quiet(|| {
        let mut front = LineFront::new(Box::new(|| vec!["stop".to_string()]));
        let first = if text.starts_with("uci") {
            "uci"
        } else {
            "usi"
        };
        front.feed(first);
        for line in text.lines().filter(|l| !asks_for_resources(l)) {
            if !front.feed(line) {
                break;
            }
        }
        front.feed("quit");
    });
}

/// An XBoard session fed the input's lines; a search it starts is told to move at once.
pub fn xboard_lines(data: &[u8]) {
    let text = text(data);
    let lines: Vec<&str> = text.lines().filter(|l| !asks_for_resources(l)).collect();
    protocol::quiet(|| protocol::xboard_session_for_fuzzing(&lines));
}

/// A net file.
pub fn net_file(data: &[u8]) {
    let _ = crate::eval::nnue::Network::from_bytes(data);
}

/// Packed training games (`.spk`): every block, and the positions each replays to.
pub fn packed_data(data: &[u8]) {
    for partial in [false, true] {
        if let Ok(scan) = crate::training::packed::scan(data, partial) {
            for game in &scan.games {
                let _ = game.records();
            }
        }
    }
}

/// Text training data: the file's blocks and each line as a record.
pub fn text_data(data: &[u8]) {
    let _ = crate::training::data_file::scan(Cursor::new(data));
    for line in text(data).lines() {
        if let Ok(record) = crate::training::record::Record::parse(line) {
            let _ = record.position();
        }
    }
}

/// A PGN file: match PGNs (the games and their scores, as `convert` and `--resume` read them)
/// and a game record in XBoard's notation.
pub fn pgn(data: &[u8]) {
    let text = text(data);
    let games = crate::matchplay::pgn_read::read_records(&text);
    if let Ok(packed) = crate::training::from_pgn::packed_games(&games, "shishi", RuleSet::LISHOGI)
    {
        for game in &packed.games {
            let _ = game.records();
        }
    }
    let _ = record::pgn::read(&text, &ReadOptions::default());
}

/// An opening book (EPD: `SFEN [; moves ...]` per line) for every variant.
pub fn epd_book(data: &[u8]) {
    let text = text(data);
    for variant in Variant::ALL {
        let _ = crate::matchplay::openings::parse_book(variant, &text);
    }
}

/// A game record: KIF (UTF-8 or Shift-JIS), PGN or a USI move list, each format forced and
/// sniffed, under each rule set; what reads is written back and read again.
pub fn game_record(data: &[u8]) {
    for rules in Preset::ALL.map(Preset::rules) {
        let options = ReadOptions {
            variant: Variant::Chushogi,
            rules,
        };
        let formats = [
            None,
            Some(record::Format::Kif),
            Some(record::Format::Pgn),
            Some(record::Format::Usi),
        ];
        for format in formats {
            if let Ok(game) = record::read(data, format, &options) {
                for out in [
                    record::Format::Kif,
                    record::Format::Pgn,
                    record::Format::Usi,
                ] {
                    if let Ok(written) = record::write(&game, out) {
                        let again = record::read(written.as_bytes(), Some(out), &options);
                        if let Err(e) = again {
                            panic!("{out:?} written and not read back: {e}\n{written}");
                        }
                    }
                }
            }
        }
    }
}

/// A tsume problem: the input as a SFEN of any variant, under the rule set its length picks,
/// solved within a small budget under each royal convention, on one thread or (every other
/// length) two racing with the defender's moves grouped two ways. A mate's proof must pass the verifier, and the exhaustive search, a
/// search of its own that shares only the tsume's rules with the solver, must not contradict it: no shorter mate than one the
/// solver proved shortest, no mate where it proved none, and a mate where it found one.
pub fn tsume(data: &[u8]) {
    use crate::tsume::{exhaustive_mate, solve, verify, Exhaustive, MateLimits, MateOutcome};
    const PLIES: usize = 9;
    let Ok(pos) = Position::from_sfen_any(&text(data)) else {
        return;
    };
    let pos = pos.with_rules(Preset::ALL[data.len() % Preset::ALL.len()].rules());
    for royals in crate::tsume::Royals::ALL {
        let limits = MateLimits {
            nodes: Some(1000),
            table_mb: 1,
            max_plies: PLIES,
            royals,
            threads: 1 + data.len() % 2,
            ..MateLimits::default()
        };
        let report = solve(&pos, limits);
        let second = exhaustive_mate(&pos, PLIES, royals, 1000);
        match &report.outcome {
            MateOutcome::Mate(line) => {
                let plies = line.len();
                assert_eq!(verify(&pos, &report.proof, plies, royals), Ok(plies));
                match second {
                    Exhaustive::Mate(n) if report.shortest => assert_eq!(n, plies),
                    Exhaustive::Mate(n) => assert!(n <= plies),
                    Exhaustive::NoMate => panic!("a verified mate in {plies} the search denies"),
                    Exhaustive::Unknown => {}
                }
            }
            MateOutcome::NoMate => assert!(!matches!(second, Exhaustive::Mate(_))),
            MateOutcome::Timeout => {}
        }
    }
}
