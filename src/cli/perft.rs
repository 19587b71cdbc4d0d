//! `shishi perft`: count the leaves of the legal-move tree, optionally split by root move, with
//! the root moves shared among rayon threads.

use super::{parse_position, parse_rules, parse_variant, UsageError};
use crate::notation::Notation;
use crate::perft::{divide_lines, perft_parallel};
use crate::position::Position;
use clap::Args;
use std::time::Instant;

#[derive(Args)]
pub(super) struct PerftArgs {
    /// chushogi, heian, heian9x8, heian8x9 or heian8x8.
    #[arg(long, default_value = "chushogi")]
    variant: String,
    /// A lishogi SFEN, or `startpos`.
    #[arg(long, default_value = "startpos")]
    sfen: String,
    #[arg(long)]
    depth: u32,
    /// Print `<move> <count>` for every root move.
    #[arg(long)]
    divide: bool,
    /// Threads for the root split.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Rule set: lishogi, jcsa or hachu.
    #[arg(long, default_value = "lishogi")]
    rules: String,
    /// Write and read moves in XBoard notation instead of USI.
    #[arg(long)]
    xboard: bool,
    /// Moves to play from the SFEN before counting (space separated).
    #[arg(long, num_args = 1.., value_delimiter = ' ')]
    moves: Vec<String>,
}

fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, UsageError> {
    if threads == 0 || threads > 1024 {
        return Err(UsageError(format!(
            "--threads must be between 1 and 1024, not {threads}"
        )));
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| UsageError(format!("cannot start {threads} threads: {e}")))
}

/// Plays `moves` (in `notation`) on `pos`, naming the first one that is not legal.
fn play_moves(pos: &mut Position, moves: &[String], notation: Notation) -> Result<(), UsageError> {
    for text in moves.iter().filter(|m| !m.is_empty()) {
        let mv = crate::notation::parse_move(pos, text, notation)
            .map_err(|e| UsageError(format!("move {} of --moves: {e}", pos.plies_played() + 1)))?;
        pos.play(mv);
    }
    Ok(())
}

pub(super) fn run(req: PerftArgs) -> Result<(), UsageError> {
    let variant = parse_variant(&req.variant)?;
    let rules = parse_rules(&req.rules)?;
    let notation = if req.xboard {
        Notation::Xboard
    } else {
        Notation::Usi
    };
    let mut pos = parse_position(variant, &req.sfen)?.with_rules(rules);
    play_moves(&mut pos, &req.moves, notation)?;
    let (depth, divide, threads) = (req.depth, req.divide, req.threads);
    if depth > 64 {
        return Err(UsageError(format!("--depth {depth} is too deep")));
    }
    let pool = thread_pool(threads)?;
    let start = Instant::now();
    let nodes = pool.install(|| {
        if divide && depth >= 1 {
            let (lines, total) = divide_lines(&pos, depth, notation);
            for l in lines {
                println!("{l}");
            }
            total
        } else {
            perft_parallel(&pos, depth)
        }
    });
    let secs = start.elapsed().as_secs_f64();
    println!("Nodes searched: {nodes}");
    eprintln!(
        "time {:.3} s, {:.0} nodes per second",
        secs,
        nodes as f64 / secs.max(1e-9)
    );
    Ok(())
}
