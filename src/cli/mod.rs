//! The command line: subcommands for people and scripts (`perft`, `bench`, `analyse`,
//! `match`); with no subcommand, the protocol loop on stdin/stdout. Each subcommand other than
//! perft has its arguments and handler in its own file.

mod analyse;
mod bench;
mod play_match;

use crate::board::Variant;
use crate::notation::Notation;
use crate::perft::{divide_lines, perft_parallel};
use crate::position::Position;
use crate::rules::{Preset, RuleSet};
use clap::{Parser, Subcommand};
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "shishi",
    version,
    about = "A Chu Shogi and Heian Shogi engine (USI and XBoard)"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal-move tree (perft), optionally split by root move.
    Perft {
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
    },
    /// Search the fixed bench positions; prints `<nodes> nodes <nps> nps` last.
    Bench(bench::BenchArgs),
    /// Show the engine thinking on a position: board, search lines, best move.
    Analyse(analyse::AnalyseArgs),
    /// Play a match between two engines (USI or XBoard).
    Match(play_match::MatchArgs),
}

/// Errors shown to the user as one line; exit code 2.
pub struct UsageError(pub String);

pub fn parse_variant(name: &str) -> Result<Variant, UsageError> {
    Variant::from_name(name).ok_or_else(|| {
        UsageError(format!(
            "unknown variant '{name}' (chushogi, heian, heian9x8, heian8x9, heian8x8)"
        ))
    })
}

pub fn parse_rules(name: &str) -> Result<RuleSet, UsageError> {
    Preset::from_name(name)
        .map(Preset::rules)
        .ok_or_else(|| UsageError(format!("unknown rule set '{name}' (lishogi, jcsa, hachu)")))
}

pub fn parse_position(variant: Variant, sfen: &str) -> Result<Position, UsageError> {
    let trimmed = sfen.trim();
    if trimmed.is_empty() {
        return Err(UsageError(
            "empty SFEN (give a SFEN or startpos)".to_string(),
        ));
    }
    if trimmed == "startpos" {
        return Ok(Position::startpos(variant));
    }
    if !trimmed.contains('/') {
        return Err(UsageError(format!(
            "'{trimmed}' is neither startpos nor a SFEN (ranks separated by /)"
        )));
    }
    Position::from_sfen(variant, trimmed)
        .map_err(|e| UsageError(format!("bad SFEN for {variant}: {e}")))
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
pub fn play_moves(
    pos: &mut Position,
    moves: &[String],
    notation: Notation,
) -> Result<(), UsageError> {
    for text in moves.iter().filter(|m| !m.is_empty()) {
        let mv = crate::notation::parse_move(pos, text, notation)
            .map_err(|e| UsageError(format!("move {} of --moves: {e}", pos.plies_played() + 1)))?;
        pos.play(mv);
    }
    Ok(())
}

struct PerftRequest {
    variant: String,
    sfen: String,
    depth: u32,
    divide: bool,
    threads: usize,
    rules: String,
    xboard: bool,
    moves: Vec<String>,
}

fn run_perft(req: PerftRequest) -> Result<(), UsageError> {
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

/// Runs the program; returns the process exit code.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    let result = match cli.command {
        Some(Command::Perft {
            variant,
            sfen,
            depth,
            divide,
            threads,
            rules,
            xboard,
            moves,
        }) => run_perft(PerftRequest {
            variant,
            sfen,
            depth,
            divide,
            threads,
            rules,
            xboard,
            moves,
        }),
        Some(Command::Bench(args)) => bench::run(args),
        Some(Command::Analyse(args)) => analyse::run(args),
        Some(Command::Match(args)) => play_match::run(args),
        None => crate::protocol::run_stdio(),
    };
    match result {
        Ok(()) => 0,
        Err(UsageError(msg)) => {
            eprintln!("error: {msg}");
            2
        }
    }
}
