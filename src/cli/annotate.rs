//! `shishi annotate GAME`: the analysis of every position of a game, as lishogi's computer
//! analysis shows it (`analysis`), written as annotated KIF or PGN, an SVG graph or JSON by the
//! extension of each `--out`, and summed up on stdout. Positions are spread over `--threads`
//! workers of one search thread each; every search starts from a cleared table, so at `--nodes`
//! the result is the same on any number of threads.

use super::bench::eval_options;
use super::{parse_rules, parse_variant, UsageError};
use crate::analysis::{search_position, svg, GameAnalysis, PositionEval};
use crate::position::Position;
use crate::record::{self, Format, GameFile, ReadOptions};
use crate::search::{Engine, EngineOptions, Limits};
use clap::Args;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

/// The stack of a worker thread: the search recurses deeply, as on its own search threads.
const WORKER_STACK_BYTES: usize = 16 * 1024 * 1024;

#[derive(Args)]
pub(super) struct AnnotateArgs {
    /// The game: a KIF, PGN or USI move list.
    game: PathBuf,
    /// Thinking time per position in milliseconds (the default when --nodes is not given: 1000).
    #[arg(long, conflicts_with = "nodes")]
    movetime: Option<u64>,
    /// Nodes per position instead of a time: the same analysis on any machine and thread count.
    #[arg(long)]
    nodes: Option<u64>,
    /// Positions searched at once (one search thread each); default: the machine's cores.
    #[arg(long)]
    threads: Option<usize>,
    /// Transposition table of each worker, in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Where to write the analysis, by extension: .kif, .pgn (annotated records), .svg (the
    /// graph), .json (for tools). May be given several times.
    #[arg(long)]
    out: Vec<PathBuf>,
    /// The variant of a record that does not name it (a USI startpos, a KIF without a board).
    #[arg(long, default_value = "chushogi")]
    variant: String,
    /// The rule set the game was played under: lishogi, jcsa or hachu.
    #[arg(long, default_value = "lishogi")]
    rules: String,
    /// Evaluate with the hand-crafted evaluation instead of the network.
    #[arg(long)]
    hce: bool,
    /// Evaluate with this net file instead of the embedded one.
    #[arg(long)]
    eval_file: Option<String>,
}

/// What each `--out` becomes.
#[derive(Clone, Copy)]
enum Output {
    Record(Format),
    Svg,
    Json,
}

fn output_kind(path: &Path) -> Result<Output, UsageError> {
    if let Some(format) = Format::from_path(path) {
        return Ok(Output::Record(format));
    }
    match path.extension().and_then(|e| e.to_str()) {
        Some("svg") => Ok(Output::Svg),
        Some("json") => Ok(Output::Json),
        _ => Err(UsageError(format!(
            "--out {}: the extension says what to write: .kif, .pgn, .usi, .svg or .json",
            path.display()
        ))),
    }
}

/// Every position of the game, the start first, each with the moves before it as history.
fn positions(game: &GameFile) -> Vec<Position> {
    let mut pos = game.game.start().clone();
    let mut out = vec![pos.clone()];
    for mv in game.moves() {
        pos.play(mv);
        out.push(pos.clone());
    }
    out
}

/// Reports progress: a bar on a terminal, a line every few seconds otherwise.
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    total: usize,
    started: Instant,
    last_line: Instant,
}

impl Progress {
    fn new(total: usize) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(total as u64);
            let style = indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} positions  {per_sec}  eta {eta}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
            bar.set_style(style);
            bar
        });
        Progress {
            bar,
            total,
            started: Instant::now(),
            last_line: Instant::now(),
        }
    }

    fn done(&mut self, count: usize) {
        if let Some(bar) = &self.bar {
            bar.set_position(count as u64);
            return;
        }
        if self.last_line.elapsed() >= Duration::from_secs(5) || count == self.total {
            self.last_line = Instant::now();
            let secs = self.started.elapsed().as_secs_f64();
            let rate = count as f64 / secs.max(1e-3);
            let left = (self.total - count) as f64 / rate.max(1e-9);
            eprintln!(
                "annotate: {count}/{} positions, {rate:.2}/s, about {left:.0} s left",
                self.total
            );
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Searches every position on `threads` workers.
fn search_all(
    game: &GameFile,
    options: &EngineOptions,
    limits: &Limits,
    threads: usize,
) -> Result<Vec<PositionEval>, UsageError> {
    let positions = positions(game);
    let last = positions.len() - 1;
    let over = game.game.outcome();
    let results: Mutex<Vec<Option<PositionEval>>> = Mutex::new(vec![None; positions.len()]);
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<()>();
    let mut progress = Progress::new(positions.len());
    std::thread::scope(|scope| -> Result<(), UsageError> {
        for _ in 0..threads.min(positions.len()) {
            let tx = tx.clone();
            let (positions, results, next) = (&positions, &results, &next);
            let (options, limits) = (options.clone(), limits.clone());
            std::thread::Builder::new()
                .stack_size(WORKER_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let mut engine = Engine::new(options);
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(pos) = positions.get(k) else { break };
                        let found = match over {
                            Some(outcome) if k == last => PositionEval::over(outcome.winner),
                            _ => search_position(
                                &mut engine,
                                pos,
                                limits.clone(),
                                Box::new(|_: &crate::search::Control| {}),
                            ),
                        };
                        if let Ok(mut slots) = results.lock() {
                            slots[k] = Some(found);
                        }
                        let _ = tx.send(());
                    }
                })
                .map_err(|e| UsageError(format!("cannot start a worker thread: {e}")))?;
        }
        drop(tx);
        let mut count = 0;
        for () in rx {
            count += 1;
            progress.done(count);
        }
        Ok(())
    })?;
    progress.finish();
    let slots = results
        .into_inner()
        .map_err(|_| UsageError("a worker thread failed".to_string()))?;
    slots
        .into_iter()
        .enumerate()
        .map(|(k, slot)| {
            slot.ok_or_else(|| {
                UsageError(format!("position {k} was not searched (a worker failed)"))
            })
        })
        .collect()
}

fn settings(args: &AnnotateArgs, threads: usize) -> serde_json::Value {
    serde_json::json!({
        "movetime_ms": if args.nodes.is_none() { Some(args.movetime.unwrap_or(1000)) } else { None },
        "nodes": args.nodes,
        "threads": threads,
        "hash_mb": args.hash,
        "eval": if args.hce { "hand-crafted".to_string() } else { args.eval_file.clone().unwrap_or_else(|| "embedded net".to_string()) },
        "engine": format!("shishi {}", env!("CARGO_PKG_VERSION")),
    })
}

fn check_limits(args: &AnnotateArgs) -> Result<(Limits, usize), UsageError> {
    let threads = args.threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    if threads == 0 || threads > 256 {
        return Err(UsageError(format!(
            "--threads must be between 1 and 256, not {threads}"
        )));
    }
    crate::search::tt::check_hash_mb(args.hash).map_err(|e| UsageError(format!("--hash: {e}")))?;
    let limits = match (args.nodes, args.movetime) {
        (Some(0), _) => return Err(UsageError("--nodes must be at least 1".to_string())),
        (Some(nodes), _) => Limits {
            nodes: Some(nodes),
            ..Limits::default()
        },
        (None, ms) => {
            let ms = ms.unwrap_or(1000);
            if ms == 0 || ms > 24 * 3600 * 1000 {
                return Err(UsageError(format!(
                    "--movetime must be between 1 and 86400000 ms, not {ms}"
                )));
            }
            Limits {
                movetime: Some(Duration::from_millis(ms)),
                ..Limits::default()
            }
        }
    };
    Ok((limits, threads))
}

pub(super) fn run(args: AnnotateArgs) -> Result<(), UsageError> {
    let outputs: Vec<(PathBuf, Output)> = args
        .out
        .iter()
        .map(|p| output_kind(p).map(|k| (p.clone(), k)))
        .collect::<Result<_, _>>()?;
    for (path, _) in &outputs {
        super::check_writable("--out", path)?;
    }
    let (limits, threads) = check_limits(&args)?;
    let read = ReadOptions {
        variant: parse_variant(&args.variant)?,
        rules: parse_rules(&args.rules)?,
    };
    let game = super::convert_game::read_game(&args.game, &read)?;
    let options = EngineOptions {
        hash_mb: args.hash,
        threads: 1,
        move_overhead: Duration::ZERO,
        eval: eval_options(args.hce, args.eval_file.as_deref())?,
        ..EngineOptions::default()
    };
    let started = Instant::now();
    let evals = search_all(&game, &options, &limits, threads)?;
    let analysis = GameAnalysis::judge(&game, &evals);
    let wall = started.elapsed();
    let mut annotated = game.clone();
    analysis.annotate(&mut annotated);
    let title = format!(
        "{} vs {}",
        game.tags.sente.as_deref().unwrap_or("sente"),
        game.tags.gote.as_deref().unwrap_or("gote")
    );
    // Every output is tried, and the summary printed, before a failure is reported.
    let mut failed = None;
    for (path, kind) in &outputs {
        let text = match kind {
            Output::Record(format) => record::write(&annotated, *format)
                .map_err(|e| UsageError(format!("{}: {e}", path.display()))),
            Output::Svg => Ok(svg(&analysis, &title)),
            Output::Json => {
                let json = analysis.to_json(&game, settings(&args, threads));
                Ok(serde_json::to_string_pretty(&json).unwrap_or_default() + "\n")
            }
        };
        let written = text.and_then(|text| {
            std::fs::write(path, text)
                .map_err(|e| UsageError(format!("cannot write {}: {e}", path.display())))
        });
        if let Err(e) = written {
            failed.get_or_insert(e);
        }
    }
    print_summary(&analysis, game.game.plies(), threads, wall);
    failed.map_or(Ok(()), Err)
}

fn print_summary(analysis: &GameAnalysis, plies: usize, threads: usize, wall: Duration) {
    for p in analysis.plies.iter().filter(|p| p.judgment.is_some()) {
        println!(
            "{:>4} {:<5} {:<10} {:<11} best {}",
            p.ply,
            p.mover.name(),
            p.played,
            p.judgment.map_or("", crate::record::Glyph::word),
            p.best.as_deref().unwrap_or("-")
        );
    }
    for (name, s) in [("sente", &analysis.sente), ("gote", &analysis.gote)] {
        println!("{}", s.line(name));
    }
    let positions = plies + 1;
    println!(
        "analysed {positions} position{} in {:.1} s on {threads} thread(s)",
        if positions == 1 { "" } else { "s" },
        wall.as_secs_f64()
    );
}
