//! `shishi datagen`: self-play games whose quiet positions, scored by the search and labelled
//! with the game's result, go to a training file (`training::datagen` plays and writes; this file
//! reads the options and shows progress). Progress goes to stderr, a `\r`-updated line on a
//! terminal and a plain line every ten games otherwise; the summary goes to stdout.

use super::{parse_variant, UsageError};
use crate::training::datagen::{self, shard_range, DatagenConfig, Progress, Summary};
use crate::training::selfplay::WIN_CP;
use clap::Args;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

#[derive(Args)]
pub(super) struct DatagenArgs {
    /// Variants, comma-separated; games cycle over them: chushogi (chu), heian, heian9x8,
    /// heian8x9, heian8x8.
    #[arg(long, required = true, value_delimiter = ',')]
    variant: Vec<String>,
    /// Games the output file should hold; a file that already has some gets only the rest.
    #[arg(long)]
    games: usize,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// Games played at once, each by its own single-threaded search.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Transposition table of each game, in MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Random moves that open each game: between this - 2 and this + 2 (0: none).
    #[arg(long, default_value_t = 8)]
    random_plies: usize,
    /// Seed of the random openings (default: from the clock); fixed, the file is reproducible.
    #[arg(long)]
    seed: Option<u64>,
    /// The data file; appended to, and resumed if it already holds games.
    #[arg(long)]
    out: PathBuf,
    /// A game still going after this many plies is a draw (default: Heian 300, Chu 500).
    #[arg(long)]
    max_plies: Option<usize>,
    /// A game is adjudicated won after four searches in a row see one side this many
    /// centipawns ahead (or a mate).
    #[arg(long, default_value_t = WIN_CP)]
    win_cp: i32,
    /// Play only shard K of N (0-based, `K/N`) of the run of `--games` games: a contiguous
    /// range of its games, numbered, seeded and cycled through the variants as in the whole
    /// run, so the N shards' files concatenated in order are the whole run's file. Needs
    /// `--seed`.
    #[arg(long)]
    shard: Option<String>,
    /// Play with the hand-crafted evaluation instead of the network.
    #[arg(long)]
    hce: bool,
    /// Play with this net file instead of the embedded net of its family.
    #[arg(long)]
    eval_file: Option<String>,
}

/// `K/N` with `K < N`.
fn parse_shard(text: &str) -> Result<(usize, usize), UsageError> {
    let bad = || UsageError(format!("--shard takes K/N with 0 <= K < N, not '{text}'"));
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let (k, n): (usize, usize) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if n == 0 || k >= n {
        return Err(bad());
    }
    Ok((k, n))
}

fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

fn duration_text(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s / 60 % 60),
    }
}

fn progress_text(p: &Progress) -> String {
    let eta = p.eta().map_or("-".to_string(), duration_text);
    format!(
        "[{:>w$}/{}] positions {}  {:.1} games/min  elapsed {}  ETA {eta}",
        p.games_done,
        p.games_total,
        p.positions,
        p.games_per_minute(),
        duration_text(p.elapsed),
        w = p.games_total.to_string().len()
    )
}

fn summary_text(s: &Summary) -> String {
    format!(
        "datagen: {} games, {} positions, sente +{} ={} -{}, {:.1} plies per game ({} games in the file)",
        s.games,
        s.positions,
        s.sente_wins,
        s.draws,
        s.gote_wins,
        s.average_plies(),
        s.games_before + s.games
    )
}

pub(super) fn run(args: DatagenArgs) -> Result<(), UsageError> {
    let variants = args
        .variant
        .iter()
        .map(|name| parse_variant(name.trim()))
        .collect::<Result<Vec<_>, _>>()?;
    if args.shard.is_some() && args.seed.is_none() {
        return Err(UsageError(
            "--shard needs --seed: the shards of one run share its seed".to_string(),
        ));
    }
    let (first_game, games) = match &args.shard {
        Some(text) => {
            let (k, n) = parse_shard(text)?;
            shard_range(args.games, k, n)
        }
        None => (0, args.games),
    };
    if let (Some(shard), 0) = (&args.shard, games) {
        return Err(UsageError(format!(
            "--shard {shard} of {} games holds no game",
            args.games
        )));
    }
    let seed = args.seed.unwrap_or_else(clock_seed);
    let config = DatagenConfig {
        variants,
        games,
        first_game,
        nodes: args.nodes,
        threads: args.threads,
        hash_mb: args.hash,
        random_plies: args.random_plies,
        seed,
        out: args.out,
        max_plies: args.max_plies,
        win_cp: args.win_cp,
        eval: super::bench::eval_options(args.hce, args.eval_file.as_deref())?,
    };
    config.check().map_err(|e| UsageError(e.to_string()))?;
    let terminal = std::io::stderr().is_terminal();
    let mut first = true;
    let mut on_progress = |p: &Progress| {
        if first {
            first = false;
            let cut = if p.dropped_bytes > 0 {
                format!(
                    ", cut off an incomplete last game ({} bytes)",
                    p.dropped_bytes
                )
            } else {
                String::new()
            };
            eprintln!(
                "datagen: {} holds {} games{cut}; playing {} more, seed {seed}",
                config.out.display(),
                p.games_before,
                p.games_total - p.games_before
            );
        }
        let played = p.games_done - p.games_before;
        if terminal {
            eprint!("\r\x1b[K{}", progress_text(p));
            let _ = std::io::stderr().flush();
        } else if played > 0 && (played.is_multiple_of(10) || p.games_done == p.games_total) {
            eprintln!("{}", progress_text(p));
        }
    };
    let result = datagen::run(&config, &mut on_progress);
    if terminal && !first {
        // The progress line stays, ended, whether the run finished or stopped.
        eprintln!();
    }
    let summary = result.map_err(|e| UsageError(format!("datagen: {e}")))?;
    println!("{}", summary_text(&summary));
    Ok(())
}
