//! `shishi train --data FILE... --family chu|heian --out NET`: trains the network evaluation
//! (see `training::nnue`) on self-play records and writes a net file after every epoch.

use super::UsageError;
use crate::board::Family;
use crate::eval::nnue::features::ROYAL_BUCKET_COUNTS;
use crate::eval::nnue::network::MAX_BUCKETS;
use crate::eval::nnue::Network;
use crate::training::nnue::{self, Model, Reading, Samples, Target, TrainOptions};
use crate::training::packed::is_packed;
use clap::Args;
use std::time::Instant;

#[derive(Args)]
pub(super) struct TrainArgs {
    /// Data files as `datagen` writes them: text records (`variant;sfen;score;result` per
    /// line) or packed games (`.spk`), told apart by their content.
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<String>,
    /// The piece set: chu or heian (records of the other one are skipped).
    #[arg(long)]
    family: String,
    /// Where to write the net (rewritten after every epoch).
    #[arg(long)]
    out: String,
    /// Hidden units per side (a multiple of 8).
    #[arg(long, default_value_t = 128)]
    hidden: usize,
    /// Output buckets: separate output weights for positions with fewer or more pieces on
    /// the board (equal shares of the piece count; 1: none).
    #[arg(long, default_value_t = 1)]
    buckets: usize,
    /// Royal buckets: separate transformer weights for each bucket of where the viewer's royal
    /// stands (1 none, 2 home ranks or beyond, 3 left, middle or right files, 6 both); each
    /// bucket starts from the `--init` net's weights when one is given. With `--factorise`, a
    /// column per piece and square shared by the buckets.
    #[arg(long, default_value_t = 1)]
    royal_buckets: usize,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 20)]
    epochs: usize,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// Adam's learning rate at the start (cosine schedule down to a hundredth).
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Decoupled weight decay (AdamW): every step shrinks each weight by `lr` times this share of
    /// it, so weights the data seldom moves fade instead of keeping a few positions' noise.
    #[arg(long, default_value_t = 0.0)]
    weight_decay: f32,
    /// Weight of the search score's win chance in the target; the rest is the game result
    /// (`tune --lambda` weighs the result instead: the two are named apart).
    #[arg(long, default_value_t = 0.75)]
    score_weight: f32,
    /// Sigmoid scale in evaluation units; fitted to the results when not given.
    #[arg(long)]
    k: Option<f32>,
    /// Fraction of each file's last positions held out for the validation loss.
    #[arg(long, default_value_t = 0.02)]
    validation: f64,
    /// Train on every position and its left-right reflection (twice the data; the pieces of
    /// both families move symmetrically).
    #[arg(long)]
    mirror: bool,
    /// Learn factor columns per piece (colour and kind) and per piece and row beside the square
    /// columns, folded into them in the written net: values learnt from many squares at once.
    #[arg(long)]
    factorise: bool,
    /// Train a correction of the hand-crafted evaluation: the net's output is added to it, in
    /// training and in the engine (the net file says so), and starts at zero, so the first
    /// validation loss is the hand-crafted evaluation's. For data too thin for a net alone.
    #[arg(long)]
    residual: bool,
    /// Worker threads; all cores by default.
    #[arg(long)]
    threads: Option<usize>,
    /// Start from this net (a net file, e.g. the one a stopped run wrote after its last epoch)
    /// instead of random weights; `--hidden` and `--buckets` are then the net's.
    #[arg(long)]
    init: Option<String>,
    /// Seed of the initial weights and the batch order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn check(args: &TrainArgs) -> Result<(), UsageError> {
    let bad = |m: String| Err(UsageError(m));
    if args.hidden == 0 || !args.hidden.is_multiple_of(8) || args.hidden > 4096 {
        return bad(format!(
            "--hidden must be a multiple of 8 up to 4096, not {}",
            args.hidden
        ));
    }
    if args.buckets == 0 || args.buckets > MAX_BUCKETS {
        return bad(format!(
            "--buckets must be 1 to {MAX_BUCKETS}, not {}",
            args.buckets
        ));
    }
    if !ROYAL_BUCKET_COUNTS.contains(&args.royal_buckets) {
        return bad(format!(
            "--royal-buckets must be one of {ROYAL_BUCKET_COUNTS:?}, not {}",
            args.royal_buckets
        ));
    }
    if args.epochs == 0 || args.batch == 0 {
        return bad("--epochs and --batch must be at least 1".to_string());
    }
    if !(args.lr > 0.0 && args.lr < 1.0) {
        return bad(format!("--lr must be in (0, 1), not {}", args.lr));
    }
    if !(0.0..100.0).contains(&args.weight_decay) {
        return bad(format!(
            "--weight-decay must be in [0, 100), not {}",
            args.weight_decay
        ));
    }
    if !(0.0..=1.0).contains(&args.score_weight) {
        return bad(format!(
            "--score-weight must be in [0, 1], not {}",
            args.score_weight
        ));
    }
    if !(0.0..0.5).contains(&args.validation) {
        return bad(format!(
            "--validation must be in [0, 0.5), not {}",
            args.validation
        ));
    }
    if let Some(k) = args.k.filter(|k| !(*k > 0.0 && k.is_finite())) {
        return bad(format!("--k must be positive, not {k}"));
    }
    Ok(())
}

fn read(args: &TrainArgs, family: Family, how: Reading) -> Result<Vec<Samples>, UsageError> {
    args.data
        .iter()
        .map(|path| {
            let bytes = crate::platform::read_capped(
                std::path::Path::new(path),
                crate::platform::caps::DATA,
                "training data file",
            )
            .map_err(|e| UsageError(format!("cannot read {path}: {e}")))?;
            if is_packed(&bytes) {
                return Samples::parse_packed(family, &bytes, how)
                    .map_err(|e| UsageError(format!("{path}: {e}")));
            }
            let text = String::from_utf8(bytes).map_err(|_| {
                UsageError(format!("{path}: neither text records nor packed games"))
            })?;
            Samples::read(family, &text, how)
                .map_err(|e| UsageError(format!("{path}: line {}: {}", e.line, e.reason)))
        })
        .collect()
}

/// The net `--init` names, if any.
fn load_init(args: &TrainArgs, family: Family) -> Result<Option<Network>, UsageError> {
    let Some(path) = &args.init else {
        return Ok(None);
    };
    Network::load(std::path::Path::new(path), Some(family))
        .map(Some)
        .map_err(|e| UsageError(format!("--init {path}: {e}")))
}

/// The model training starts from: the `--init` net, or random weights (a zero correction
/// of the hand-crafted evaluation when `residual`).
fn initial_model(
    args: &TrainArgs,
    family: Family,
    init: Option<&Network>,
    residual: bool,
) -> Result<Model, UsageError> {
    let mut model = match init {
        Some(net) => Model::from_network(net),
        None => Model::new(family, args.hidden, args.buckets, args.seed, false),
    };
    if init.is_none() && residual {
        model.correct_hand_crafted();
    }
    if args.royal_buckets > 1 {
        if model.royal_buckets > 1 && model.royal_buckets != args.royal_buckets {
            return Err(UsageError(format!(
                "--royal-buckets {} but the --init net has {}",
                args.royal_buckets, model.royal_buckets
            )));
        }
        model = model.with_royal_buckets(args.royal_buckets);
    }
    model.set_factorised(args.factorise);
    if init.is_none_or(|net| net.royal_buckets == 1) {
        model.center_royal_buckets();
    }
    Ok(model)
}

/// The training loop's options from the arguments, with the sigmoid scale `k`.
fn train_options(args: &TrainArgs, k: f32) -> TrainOptions {
    TrainOptions {
        epochs: args.epochs,
        batch: args.batch,
        lr: args.lr,
        target: Target {
            k,
            lambda: args.score_weight,
        },
        weight_decay: args.weight_decay,
        seed: args.seed,
    }
}

pub(super) fn run(args: TrainArgs) -> Result<(), UsageError> {
    check(&args)?;
    super::check_writable("--out", std::path::Path::new(&args.out))?;
    let family = nnue::parse_family(&args.family)
        .ok_or_else(|| UsageError(format!("unknown family '{}' (chu, heian)", args.family)))?;
    if let Some(threads) = args.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build_global()
            .map_err(|e| UsageError(format!("cannot start {threads} threads: {e}")))?;
    }
    let clock = Instant::now();
    let init = load_init(&args, family)?;
    let residual = args.residual || init.as_ref().is_some_and(|n| n.adds_hand_crafted);
    let how = Reading {
        mirror: args.mirror,
        hand_crafted: residual,
    };
    let files = read(&args, family, how)?;
    let (train, held) = nnue::split_held_out(&files, args.validation);
    drop(files);
    if train.len() < 2 {
        return Err(UsageError(format!(
            "{} training position(s) of that family: too few to train",
            train.len()
        )));
    }
    println!(
        "{} positions read in {:.1}s: {} training, {} held out",
        train.len() + held.len(),
        clock.elapsed().as_secs_f64(),
        train.len(),
        held.len()
    );
    let k = args.k.unwrap_or_else(|| {
        let k = nnue::fit_k(&train);
        println!("fitted K = {k:.1}");
        k
    });
    let options = train_options(&args, k);
    let mut model = initial_model(&args, family, init.as_ref(), residual)?;
    let start = nnue::mean_loss(&model, &held, options.target);
    println!("start: validation {start:.6}");
    let mut write_error = None;
    nnue::train(&mut model, &train, &held, &options, |r, model| {
        let (mean, worst) = nnue::quantisation_error(model, &held, 2000);
        println!(
            "epoch {:>3}: loss {:.6}, validation {:.6}, lr {:.6}, {:.0} pos/s, quantisation \
             error mean {mean:.2} worst {worst:.1} units",
            r.epoch, r.train_loss, r.validation_loss, r.lr, r.speed
        );
        if let Err(e) = std::fs::write(&args.out, model.quantise().to_bytes()) {
            write_error.get_or_insert(format!("cannot write {}: {e}", args.out));
        }
    });
    if let Some(e) = write_error {
        return Err(UsageError(e));
    }
    let added = if residual {
        ", added to the hand-crafted evaluation"
    } else {
        ""
    };
    println!(
        "wrote {} ({} hidden, {} output bucket(s), {} royal bucket(s){added}, K {k:.1}, score weight {}) in {:.1}s",
        args.out,
        model.hidden,
        model.buckets,
        model.royal_buckets,
        args.score_weight,
        clock.elapsed().as_secs_f64()
    );
    Ok(())
}
