//! `shishi analyse`: shows the engine at work on a position with no other input: the board, one
//! line per finished search depth (score, nodes, speed, principal variation in USI notation) and
//! the best move.

use super::{parse_position, parse_rules, parse_variant, UsageError};
use crate::notation::{write_move, Notation};
use crate::position::Position;
use crate::search::{Engine, EngineOptions, Limits, SearchInfo};
use clap::Args;
use std::time::Duration;

#[derive(Args)]
pub(super) struct AnalyseArgs {
    /// chushogi, heian, heian9x8, heian8x9 or heian8x8.
    #[arg(long, default_value = "chushogi")]
    variant: String,
    /// A lishogi SFEN, or `startpos`.
    #[arg(long, default_value = "startpos")]
    sfen: String,
    /// Thinking time in milliseconds.
    #[arg(long, default_value_t = 3000)]
    movetime: u64,
    /// Stop at this depth instead (or earlier, when the time runs out).
    #[arg(long)]
    depth: Option<u32>,
    /// Rule set: lishogi, jcsa or hachu.
    #[arg(long, default_value = "lishogi")]
    rules: String,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
}

/// The principal variation in USI notation, each move spelt in the position it is played in.
pub(super) fn pv_text(pos: &Position, pv: &[crate::moves::Move]) -> String {
    let mut line = pos.clone();
    let mut words = Vec::new();
    for &mv in pv {
        if !line.is_legal(mv) {
            break;
        }
        words.push(write_move(&line, mv, Notation::Usi));
        line.play(mv);
    }
    words.join(" ")
}

pub(super) fn run(args: AnalyseArgs) -> Result<(), UsageError> {
    let variant = parse_variant(&args.variant)?;
    let rules = parse_rules(&args.rules)?;
    let pos = parse_position(variant, &args.sfen)?.with_rules(rules);
    if args.movetime == 0 || args.movetime > 24 * 3600 * 1000 {
        return Err(UsageError(format!(
            "--movetime must be between 1 and 86400000 ms, not {}",
            args.movetime
        )));
    }
    if args.threads == 0 || args.threads > 256 {
        return Err(UsageError(format!(
            "--threads must be between 1 and 256, not {}",
            args.threads
        )));
    }
    crate::search::tt::check_hash_mb(args.hash).map_err(|e| UsageError(format!("--hash: {e}")))?;
    if let Some(d) = args.depth {
        if d == 0 || d > 100 {
            return Err(UsageError(format!(
                "--depth must be between 1 and 100, not {d}"
            )));
        }
    }
    println!("{}", pos.pretty());
    println!("sfen {}", pos.to_sfen());
    if let Some(outcome) = pos.outcome() {
        println!("game over: {outcome}");
        println!("bestmove none");
        return Ok(());
    }
    let mut engine = Engine::new(EngineOptions {
        hash_mb: args.hash,
        threads: args.threads,
        move_overhead: Duration::ZERO,
        ..EngineOptions::default()
    });
    let limits = Limits {
        movetime: Some(Duration::from_millis(args.movetime)),
        depth: args.depth,
        ..Limits::default()
    };
    let root = pos.clone();
    let on_info = Box::new(move |info: &SearchInfo| {
        println!(
            "depth {:>2}/{:<2} score {:<9} nodes {:>10} nps {:>8} time {:>6} ms pv {}",
            info.depth,
            info.seldepth,
            info.score.in_centipawns(root.family()),
            info.nodes,
            info.nps,
            info.time.as_millis(),
            pv_text(&root, &info.pv)
        );
    });
    let result = engine.start(&pos, limits, on_info).wait();
    match result.best {
        Some(mv) => {
            let mut line = format!("bestmove {}", write_move(&pos, mv, Notation::Usi));
            if let Some(ponder) = result.ponder {
                let mut after = pos.clone();
                after.play(mv);
                if after.is_legal(ponder) {
                    line += &format!(" ponder {}", write_move(&after, ponder, Notation::Usi));
                }
            }
            println!("{line}");
        }
        None => println!("bestmove none"),
    }
    Ok(())
}
