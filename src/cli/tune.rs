//! `shishi tune --data FILE... --family chu|heian --out PATH`: fits the evaluation's weights to
//! self-play records (Texel tuning, see `training::tune`) and writes a weights file in the
//! format of `src/eval/weights/*.txt`. Lines that are not records are skipped and reported
//! (file and line number, the first ten shown, then the count).

use super::UsageError;
use crate::board::Family;
use crate::eval::weights::Weights;
use crate::training::tune::{Dataset, TuneOptions, Tuner};
use clap::Args;
use std::time::Instant;

#[derive(Args)]
pub(super) struct TuneArgs {
    /// Data files: `variant;sfen;score;result` per line (score in centipawns and result 1, 0.5
    /// or 0, both from sente's view); `#` starts a comment.
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<String>,
    /// The piece set to tune: chu or heian (records of the other one are skipped).
    #[arg(long)]
    family: String,
    /// Where to write the tuned weights.
    #[arg(long)]
    out: String,
    /// Passes over the training positions.
    #[arg(long, default_value_t = TuneOptions::default().epochs)]
    epochs: usize,
    /// Weight of the game result in the target; the rest is the search score.
    #[arg(long, default_value_t = TuneOptions::default().lambda)]
    lambda: f64,
    /// Adam's step size at the start, in centipawns (it falls to a tenth by the last epoch).
    #[arg(long, default_value_t = TuneOptions::default().lr)]
    lr: f64,
    /// Sigmoid scale in centipawns: predicted score = 1 / (1 + exp(-eval / K)). Fitted to
    /// the game results under the starting weights when not given.
    #[arg(long)]
    k: Option<f64>,
    /// Positions per gradient step.
    #[arg(long, default_value_t = TuneOptions::default().batch)]
    batch: usize,
    /// Weights to start from (a weights file); the compiled-in ones by default.
    #[arg(long)]
    start: Option<String>,
    /// Worker threads; all cores by default.
    #[arg(long)]
    threads: Option<usize>,
    /// Seed of the hold-out split and of the batch order.
    #[arg(long, default_value_t = TuneOptions::default().seed)]
    seed: u64,
    /// Pull toward the starting weights: l2 * (weight - start)^2 per parameter is added to the
    /// loss (try 1e-7 to 1e-5; 0 for none).
    #[arg(long, default_value_t = TuneOptions::default().l2)]
    l2: f64,
    /// Parameters to keep as they start, by name prefix, comma-separated (`rank.,ring.` keeps
    /// every rank and ring table; names as in the weights file).
    #[arg(long, value_delimiter = ',')]
    freeze: Vec<String>,
}

fn parse_family(name: &str) -> Result<Family, UsageError> {
    match name.to_ascii_lowercase().as_str() {
        "chu" | "chushogi" => Ok(Family::Chu),
        "heian" => Ok(Family::Heian),
        _ => Err(UsageError(format!(
            "unknown family '{name}' (chu or heian)"
        ))),
    }
}

fn options(args: &TuneArgs) -> Result<TuneOptions, UsageError> {
    if args.epochs == 0 {
        return Err(UsageError("--epochs must be at least 1".into()));
    }
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err(UsageError(format!(
            "--lambda must be between 0 and 1, not {}",
            args.lambda
        )));
    }
    if !(args.lr > 0.0 && args.lr.is_finite()) {
        return Err(UsageError(format!(
            "--lr must be positive, not {}",
            args.lr
        )));
    }
    if let Some(k) = args.k.filter(|k| !(*k > 0.0 && k.is_finite())) {
        return Err(UsageError(format!("--k must be positive, not {k}")));
    }
    if args.batch == 0 {
        return Err(UsageError("--batch must be at least 1".into()));
    }
    if !(args.l2 >= 0.0 && args.l2.is_finite()) {
        return Err(UsageError(format!(
            "--l2 must be zero or positive, not {}",
            args.l2
        )));
    }
    Ok(TuneOptions {
        epochs: args.epochs,
        lambda: args.lambda,
        lr: args.lr,
        batch: args.batch,
        seed: args.seed,
        l2: args.l2,
        frozen: args.freeze.clone(),
        ..TuneOptions::default()
    })
}

fn start_weights(args: &TuneArgs, family: Family) -> Result<Weights, UsageError> {
    match &args.start {
        None => Ok(Weights::embedded(family).clone()),
        Some(path) => {
            let text = crate::platform::read_text_capped(
                std::path::Path::new(path),
                crate::platform::caps::SMALL_TEXT,
                "weights file",
            )
            .map_err(|e| UsageError(format!("cannot read {path}: {e}")))?;
            Weights::parse(family, &text).map_err(|e| UsageError(format!("{path}: {e}")))
        }
    }
}

pub(super) fn run(args: TuneArgs) -> Result<(), UsageError> {
    let family = parse_family(&args.family)?;
    super::check_writable("--out", std::path::Path::new(&args.out))?;
    let options = options(&args)?;
    let start = start_weights(&args, family)?;
    if let Some(threads) = args.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build_global()
            .map_err(|e| UsageError(format!("cannot start {threads} threads: {e}")))?;
    }
    let clock = Instant::now();
    let (data, report) =
        Dataset::read_files(family, &args.data).map_err(|e| UsageError(e.to_string()))?;
    for bad in report.bad.iter().take(10) {
        eprintln!("skipped {bad}");
    }
    if !report.bad.is_empty() {
        eprintln!("skipped {} line(s) that are not records", report.bad.len());
    }
    if report.other_family > 0 {
        println!(
            "skipped {} record(s) of the other family",
            report.other_family
        );
    }
    if data.len() < 10 {
        return Err(UsageError(format!(
            "{} position(s) of that family in the data: too few to tune",
            data.len()
        )));
    }
    let mut tuner = Tuner::new(&data, &start, &options);
    println!(
        "{} positions read in {:.1}s: {} training, {} held out; {} of {} parameters occur",
        data.len(),
        clock.elapsed().as_secs_f64(),
        tuner.train_len(),
        tuner.validation_len(),
        tuner.active_len(),
        start.values().len()
    );
    let k = match args.k {
        Some(k) => k,
        None => {
            let k = tuner.fit_k();
            println!("fitted K = {k:.1}");
            k
        }
    };
    let (start_train, start_validation) = tuner.losses(k, options.lambda);
    println!("start: loss {start_train:.6}, validation {start_validation:.6}");
    tuner.run(k, &options, |r| {
        println!(
            "epoch {:>4}: loss {:.6}, validation {:.6}",
            r.epoch, r.train_loss, r.validation_loss
        );
    });
    tuner.round();
    let weights = tuner.weights();
    let (end_train, end_validation) = tuner.losses(k, options.lambda);
    println!(
        "final: loss {end_train:.6} (start {start_train:.6}), validation {end_validation:.6} \
         (start {start_validation:.6}), in {:.1}s",
        clock.elapsed().as_secs_f64()
    );
    let header = header(
        &args,
        &options,
        k,
        [data.len(), tuner.train_len(), tuner.validation_len()],
        [start_train, end_train, start_validation, end_validation],
    );
    std::fs::write(&args.out, weights.to_text(&header))
        .map_err(|e| UsageError(format!("cannot write {}: {e}", args.out)))?;
    println!("wrote {}", args.out);
    Ok(())
}

/// The weights file's header: where the weights came from and how well they fit.
/// `counts`: positions, training, held out; `losses`: training and held-out loss before and
/// after.
fn header(
    args: &TuneArgs,
    options: &TuneOptions,
    k: f64,
    counts: [usize; 3],
    losses: [f64; 4],
) -> String {
    format!(
        "Evaluation weights: the format and the meaning of every parameter are in \
         src/eval/weights.rs.\n\
         Tuned by `shishi tune` from: {}\n\
         {} positions ({} training, {} held out), {} epochs, lambda {}, l2 {}, frozen [{}], K \
         {k:.1}, lr {}, batch {}\n\
         loss {:.6} -> {:.6}, validation {:.6} -> {:.6}",
        args.data
            .iter()
            .map(|path| file_name(path))
            .collect::<Vec<_>>()
            .join(" "),
        counts[0],
        counts[1],
        counts[2],
        options.epochs,
        options.lambda,
        options.l2,
        options.frozen.join(","),
        options.lr,
        options.batch,
        losses[0],
        losses[1],
        losses[2],
        losses[3],
    )
}

/// A data file's name without its folders, for the weights file's header (which is committed).
fn file_name(path: &str) -> &str {
    std::path::Path::new(path)
        .file_name()
        .and_then(|name| name.to_str())
        .unwrap_or(path)
}
