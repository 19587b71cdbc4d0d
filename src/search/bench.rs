//! `bench`: searches the fixed positions of `positions/bench.epd` (compiled in, so the command
//! works from any directory) to a fixed depth on one thread with a fresh 16 MiB table each. The
//! total node count is the search's signature: it changes only when search behaviour changes.
//! `bench_positions` runs the same measurement on positions of the caller's choice. Both take
//! the search parameters, so a `Tune_` option's effect shows in the signature.

use super::params::SearchParams;
use super::{Engine, EngineOptions, EvalOptions, Limits};
use crate::board::Variant;
use crate::notation::{write_move, Notation};
use crate::platform::Instant;
use crate::position::Position;
use std::io::{self, Write};
use std::time::Duration;

const BENCH_EPD: &str = include_str!("../../positions/bench.epd");
pub(super) const DEFAULT_DEPTH: u32 = 5;
const BENCH_HASH_MB: usize = 16;

/// Totals over all bench positions.
pub struct BenchResult {
    /// Nodes searched: the bench signature.
    pub nodes: u64,
    /// Nodes per second over the summed search time.
    pub nps: u64,
}

/// The bench positions: each line is `<variant> <SFEN>`; `#` starts a comment.
pub(super) fn positions() -> Vec<Position> {
    BENCH_EPD
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let (variant, sfen) = l.split_once(' ')?;
            Position::from_sfen(Variant::from_name(variant)?, sfen.trim()).ok()
        })
        .collect()
}

/// Searches every bench position to `depth` (default `DEFAULT_DEPTH`) with `eval` and
/// `params`; writes the network kernels this processor runs (`kernels avx2`), one line per
/// position and last `<nodes> nodes <nps> nps`.
pub fn bench(
    depth: Option<u32>,
    eval: &EvalOptions,
    params: &SearchParams,
    out: &mut dyn Write,
) -> io::Result<BenchResult> {
    bench_positions(&positions(), depth, eval, params, out)
}

/// `bench` over the given positions instead of the fixed list, for measuring one position.
pub fn bench_positions(
    positions: &[Position],
    depth: Option<u32>,
    eval: &EvalOptions,
    params: &SearchParams,
    out: &mut dyn Write,
) -> io::Result<BenchResult> {
    let depth = depth.unwrap_or(DEFAULT_DEPTH).max(1);
    let mut engine = Engine::new(EngineOptions {
        hash_mb: BENCH_HASH_MB,
        threads: 1,
        multipv: 1,
        move_overhead: Duration::ZERO,
        eval: eval.clone(),
        params: *params,
    });
    writeln!(out, "kernels {}", crate::eval::nnue::kernels())?;
    let mut total_nodes = 0u64;
    let mut total_time = Duration::ZERO;
    for (i, pos) in positions.iter().enumerate() {
        engine.new_game();
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let start = Instant::now();
        let result = engine.start(pos, limits, Box::new(|_| {})).wait();
        let elapsed = start.elapsed();
        total_nodes += result.nodes;
        total_time += elapsed;
        let best = result
            .best
            .map_or("none".to_string(), |m| write_move(pos, m, Notation::Usi));
        writeln!(
            out,
            "position {:>2} {:<9} depth {} bestmove {:<8} score {:<9} nodes {:>10} time {:>6} ms",
            i + 1,
            pos.variant().name(),
            result.depth,
            best,
            result.score.in_centipawns(pos.family()),
            result.nodes,
            elapsed.as_millis()
        )?;
    }
    let nps = (total_nodes as f64 / total_time.as_secs_f64().max(1e-6)) as u64;
    writeln!(out, "{total_nodes} nodes {nps} nps")?;
    Ok(BenchResult {
        nodes: total_nodes,
        nps,
    })
}
