//! `shishi analyse`: shows the engine at work on one position: the board, one line per finished
//! search depth and line (score, nodes, speed, principal variation in USI notation) and the best
//! move with the reply it expects. The position is a SFEN with moves played from it, or a
//! position of a game record (`--game`, `--ply`). The last line printed for the best line starts
//! with the move played and the ponder move.

use super::bench::eval_options;
use super::{parse_position, parse_rules, parse_variant, UsageError};
use crate::game::GameRecord;
use crate::notation::{write_move, Notation};
use crate::position::Position;
use crate::record::ReadOptions;
use crate::search::{Engine, EngineOptions, Limits, Score, SearchInfo, SearchResult};
use clap::Args;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
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
    /// Moves played from the SFEN first, in USI (`"7i7h 6c6d"`).
    #[arg(long, conflicts_with = "game")]
    moves: Option<String>,
    /// A game record (KIF, PGN, USI move list): analyse its last position, or the one after
    /// --ply plies.
    #[arg(long, conflicts_with = "sfen")]
    game: Option<PathBuf>,
    /// With --game: the position after this many plies (0: the start).
    #[arg(long, requires = "game")]
    ply: Option<usize>,
    /// Report this many best lines.
    #[arg(long, default_value_t = 1)]
    multipv: u32,
    /// Evaluate with the hand-crafted evaluation instead of the network.
    #[arg(long)]
    hce: bool,
    /// Evaluate with this net file instead of the embedded one.
    #[arg(long)]
    eval_file: Option<String>,
}

/// The position to analyse, with the moves before it as its history.
fn position(args: &AnalyseArgs) -> Result<Position, UsageError> {
    let variant = parse_variant(&args.variant)?;
    let rules = parse_rules(&args.rules)?;
    if let Some(path) = &args.game {
        let read = ReadOptions { variant, rules };
        let game = super::convert_game::read_game(path, &read)?;
        let plies = game.game.plies();
        let ply = args.ply.unwrap_or(plies);
        if ply > plies {
            return Err(UsageError(format!(
                "--ply {ply}: {} has {plies} plies",
                path.display()
            )));
        }
        let mut pos = game.game.start().clone();
        for mv in game.moves().into_iter().take(ply) {
            pos.play(mv);
        }
        return Ok(pos);
    }
    let start = parse_position(variant, &args.sfen)?.with_rules(rules);
    let mut game = GameRecord::new(start);
    for (i, text) in args
        .moves
        .as_deref()
        .unwrap_or("")
        .split_whitespace()
        .enumerate()
    {
        game.play_text(text, Notation::Usi)
            .map_err(|e| UsageError(format!("--moves, move {}: {e}", i + 1)))?;
    }
    Ok(game.position().clone())
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
    let pos = position(&args)?;
    if args.multipv == 0 || args.multipv > 64 {
        return Err(UsageError(format!(
            "--multipv must be between 1 and 64, not {}",
            args.multipv
        )));
    }
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
    let eval = eval_options(args.hce, args.eval_file.as_deref())?;
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
        multipv: args.multipv,
        move_overhead: Duration::ZERO,
        eval,
        ..EngineOptions::default()
    });
    let limits = Limits {
        movetime: Some(Duration::from_millis(args.movetime)),
        depth: args.depth,
        ..Limits::default()
    };
    let root = pos.clone();
    let last_best: Arc<Mutex<Option<SearchInfo>>> = Arc::new(Mutex::new(None));
    let seen = last_best.clone();
    let on_info = Box::new(move |info: &SearchInfo| {
        println!("{}", info_line(&root, info));
        if info.multipv <= 1 {
            if let Ok(mut slot) = seen.lock() {
                *slot = Some(info.clone());
            }
        }
    });
    let result = engine.start(&pos, limits, on_info).wait();
    let last = last_best.lock().ok().and_then(|mut slot| slot.take());
    print_best(&pos, &result, last.as_ref());
    Ok(())
}

/// The closing lines: the line played when the search ended on a move it had not reported a
/// line for (so the last line agrees with `bestmove`), then `bestmove` and `ponder`.
fn print_best(pos: &Position, result: &SearchResult, last: Option<&SearchInfo>) {
    let Some(best) = result.best else {
        println!("bestmove none");
        return;
    };
    let agrees = last.is_some_and(|info| {
        info.pv.first() == Some(&best)
            && (result.ponder.is_none() || info.pv.get(1) == result.ponder.as_ref())
    });
    if !agrees {
        let info = SearchInfo {
            depth: result.depth,
            seldepth: last.map_or(result.depth, |i| i.seldepth),
            multipv: 1,
            score: result.score,
            nodes: result.nodes,
            nps: last.map_or(0, |i| i.nps),
            time: last.map_or(Duration::ZERO, |i| i.time),
            hashfull: 0,
            pv: std::iter::once(best).chain(result.ponder).collect(),
        };
        println!("{}", info_line(pos, &info));
    }
    let mut line = format!("bestmove {}", write_move(pos, best, Notation::Usi));
    if let Some(ponder) = result.ponder {
        let mut after = pos.clone();
        after.play(best);
        if after.is_legal(ponder) {
            line += &format!(" ponder {}", write_move(&after, ponder, Notation::Usi));
        }
    }
    println!("{line}");
}

/// One search line as `analyse` prints it.
fn info_line(root: &Position, info: &SearchInfo) -> String {
    let score: Score = info.score.in_centipawns(root.family());
    let multipv = if info.multipv > 1 || info.multipv == 0 {
        format!(" multipv {}", info.multipv)
    } else {
        String::new()
    };
    format!(
        "depth {:>2}/{:<2}{multipv} score {:<9} nodes {:>10} nps {:>8} time {:>6} ms pv {}",
        info.depth,
        info.seldepth,
        score,
        info.nodes,
        info.nps,
        info.time.as_millis(),
        pv_text(root, &info.pv)
    )
}
