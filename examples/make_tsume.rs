//! Builds tsume suites from shishi's own games: replays every game of a PGN file (USI moves, as
//! `shishi match` writes them), asks the df-pn solver about each position from ply 20 on (or
//! only the last `last` plies of each game) with a small node budget, verifies every proof by
//! replaying all defences, and prints the positions with a proven mate of `min` to 31 plies
//! (published convention: the line ends with the mating move) as `SFEN ; plies` lines, marked
//! `# shortest not proven` where the budget ran out before minimality was proven (at most
//! `PER_GAME` per game, the longest first), ready for `shishi mate --file`. Positions the
//! budget could not decide are named on standard error: candidates for harder problems.
//!
//! `zcat results/shishi-vs-hachu-*.pgn.gz > /tmp/g.pgn`
//! `cargo run --release --example make_tsume -- /tmp/g.pgn 200000 [min] [last] > suite.epd`

use shishi::notation::{parse_move, Notation};
use shishi::tsume::{solve, verify, MateLimits, MateOutcome};
use shishi::Position;
use std::collections::HashSet;

const PER_GAME: usize = 3;
const FIRST_PLY: usize = 20;

/// The start SFEN and the move texts of each game.
fn games(text: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for record in text.split("[Event ").skip(1) {
        let Some(fen) = record.lines().find_map(|l| {
            l.strip_prefix("[FEN \"")
                .and_then(|r| r.strip_suffix("\"]"))
        }) else {
            continue;
        };
        let body: String = record
            .lines()
            .skip(1)
            .filter(|l| !l.starts_with('['))
            .collect::<Vec<_>>()
            .join(" ");
        let mut moves = Vec::new();
        let mut depth = 0;
        let mut word = String::new();
        for c in body.chars().chain(std::iter::once(' ')) {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ if depth > 0 => {}
                c if c.is_whitespace() => {
                    let w = std::mem::take(&mut word);
                    let is_move = !w.is_empty()
                        && !w.ends_with('.')
                        && !["1-0", "0-1", "1/2-1/2", "*"].contains(&w.as_str());
                    if is_move {
                        moves.push(w);
                    }
                }
                c => word.push(c),
            }
        }
        out.push((fen.to_string(), moves));
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).expect("usage: make_tsume <games.pgn> [nodes]");
    let nodes: u64 = args.get(2).map_or(100_000, |n| n.parse().expect("nodes"));
    let min: usize = args.get(3).map_or(1, |n| n.parse().expect("min plies"));
    let last: usize = args
        .get(4)
        .map_or(usize::MAX, |n| n.parse().expect("last plies"));
    let text = std::fs::read_to_string(path).expect("readable PGN");
    let mut seen = HashSet::new();
    for (g, (fen, moves)) in games(&text).iter().enumerate() {
        let Ok(mut pos) = Position::from_sfen_any(fen) else {
            eprintln!("game {}: bad FEN", g + 1);
            continue;
        };
        let mut found = Vec::new();
        let first = FIRST_PLY.max(moves.len().saturating_sub(last));
        for (ply, text) in moves.iter().enumerate() {
            if ply >= first && seen.insert(pos.key()) {
                let limits = MateLimits {
                    nodes: Some(nodes),
                    table_mb: 64,
                    ..MateLimits::default()
                };
                let report = solve(&pos, limits);
                if report.outcome == MateOutcome::Timeout {
                    eprintln!("undecided within the budget: {}", pos.to_sfen());
                }
                if let MateOutcome::Mate(line) = &report.outcome {
                    let ok =
                        verify(&pos, &report.proof, line.len(), shishi::tsume::Royals::All).is_ok();
                    if ok && (min..=31).contains(&line.len()) {
                        let note = if report.shortest {
                            ""
                        } else {
                            "  # shortest not proven"
                        };
                        found.push((
                            line.len(),
                            format!("{} ; {}{note}", pos.to_sfen(), line.len()),
                        ));
                    }
                }
            }
            match parse_move(&pos, text, Notation::Usi) {
                Ok(mv) => pos.play(mv),
                Err(e) => {
                    eprintln!(
                        "game {}: move {} ({text}) not legal: {}",
                        g + 1,
                        ply + 1,
                        e.reason
                    );
                    break;
                }
            }
        }
        found.sort_by_key(|f| std::cmp::Reverse(f.0));
        for (_, line) in found.into_iter().take(PER_GAME) {
            println!("{line}");
        }
        eprintln!("game {} done", g + 1);
    }
}
