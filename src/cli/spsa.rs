//! `shishi spsa`: tunes engine options (shishi's `Tune_` search parameters, or any engine's) by
//! SPSA over game pairs of the engine against itself with the options pushed up and down (see
//! `matchplay::spsa`). Prints every iteration and appends it to `--out`, a CSV file from which
//! `--resume` continues a stopped run.

use super::game_args::GameArgs;
use super::UsageError;
use crate::matchplay::engine_spec::{parse_engine, EngineConfig};
use crate::matchplay::spsa::{Spsa, SpsaParam, SpsaStep};
use crate::matchplay::{inspect_engine, run_match, MatchConfig, Protocol};
use clap::Args;
use std::io::Write;

#[derive(Args)]
pub(super) struct SpsaArgs {
    /// The engine, as for `match`: a command line or cmd=CMD[,option.NAME=VALUE...][,tc=...];
    /// both sides run it, the tuned options added.
    #[arg(long)]
    engine: String,
    /// A tuned option: NAME=START,MIN,MAX,C_END,R_END (fishtest's order: the perturbation and
    /// the learning rate at the last iteration). Repeat for more.
    #[arg(long = "param", required = true)]
    params: Vec<String>,
    /// Iterations (each one game pair unless --pairs says more).
    #[arg(long, default_value_t = 1000)]
    iterations: usize,
    /// Game pairs per iteration.
    #[arg(long, default_value_t = 1)]
    pairs: usize,
    /// Seed of the perturbations' signs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// CSV file of every iteration: its number, the pair result, each parameter's value after it.
    #[arg(long)]
    out: Option<String>,
    /// Continue the run --out holds (give the same parameters, iterations and seed).
    #[arg(long)]
    resume: bool,
    #[command(flatten)]
    game: GameArgs,
}

fn csv_header(spsa: &Spsa) -> String {
    let names: Vec<&str> = spsa.params().iter().map(|p| p.name.as_str()).collect();
    format!("iteration,result,{}", names.join(","))
}

/// The iterations done and the values after the last, from the CSV of an earlier run.
fn read_progress(path: &str, spsa: &Spsa) -> Result<Option<(usize, Vec<f64>)>, UsageError> {
    let text = match crate::platform::read_text_capped(
        std::path::Path::new(path),
        crate::platform::caps::SMALL_TEXT,
        "SPSA log",
    ) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(UsageError(format!("cannot read '{path}' to resume: {e}"))),
    };
    let mut lines = text.lines();
    if lines.next() != Some(csv_header(spsa).as_str()) {
        return Err(UsageError(format!(
            "'{path}' is not the CSV of these parameters (its first line should be '{}')",
            csv_header(spsa)
        )));
    }
    let Some(last) = lines.rfind(|l| !l.trim().is_empty()) else {
        return Ok(None);
    };
    let bad = || UsageError(format!("'{path}': bad last line '{last}'"));
    let fields: Vec<&str> = last.split(',').collect();
    if fields.len() != 2 + spsa.params().len() {
        return Err(bad());
    }
    let done: usize = fields[0].parse().map_err(|_| bad())?;
    let theta = fields[2..]
        .iter()
        .map(|v| v.parse::<f64>().map_err(|_| bad()))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Some((done, theta)))
}

/// The engine of one side of `step`: the base engine with the tuned options added.
fn side(base: &EngineConfig, spsa: &Spsa, label: &str, values: &[i64]) -> EngineConfig {
    let mut engine = base.clone();
    engine.name = Some(label.to_string());
    for (p, v) in spsa.params().iter().zip(values) {
        engine.options.push((p.name.clone(), v.to_string()));
    }
    engine
}

/// Plays `step`'s game pairs; the plus engine's wins less its losses.
fn play(
    args: &SpsaArgs,
    base: &EngineConfig,
    spsa: &Spsa,
    step: &SpsaStep,
) -> Result<f64, UsageError> {
    let game = args.game.setup()?;
    let games = 2 * args.pairs;
    let config = MatchConfig {
        engines: [
            side(base, spsa, "plus", &step.plus),
            side(base, spsa, "minus", &step.minus),
        ],
        games,
        first_game: games * (step.k - 1),
        openings: game.openings,
        concurrency: args.game.concurrency,
        rules: game.rules,
        sprt: None,
        debug: args.game.debug,
        resumed: Vec::new(),
    };
    let summary = run_match(&config, &mut std::io::sink(), &mut |_| {});
    Ok(f64::from(summary.tally.wins) - f64::from(summary.tally.losses))
}

fn values_text(spsa: &Spsa) -> String {
    let values: Vec<String> = spsa
        .params()
        .iter()
        .zip(spsa.theta())
        .map(|(p, v)| format!("{}={v:.2}", p.name))
        .collect();
    values.join(" ")
}

/// Appends one iteration to the CSV file.
fn append(path: &str, line: &str) -> Result<(), UsageError> {
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| UsageError(format!("cannot write '{path}': {e}")))?;
    writeln!(file, "{line}").map_err(|e| UsageError(format!("cannot write '{path}': {e}")))
}

/// The run the arguments describe, continued from `--out` with `--resume`; a new CSV file is
/// started with its header.
fn start(args: &SpsaArgs) -> Result<Spsa, UsageError> {
    let params = args
        .params
        .iter()
        .map(|p| SpsaParam::parse(p).map_err(|e| UsageError(format!("--param: {e}"))))
        .collect::<Result<Vec<_>, _>>()?;
    if args.iterations == 0 || args.pairs == 0 {
        return Err(UsageError(
            "--iterations and --pairs must be at least 1".into(),
        ));
    }
    let spsa = Spsa::new(params, args.iterations, args.seed);
    match (&args.out, args.resume) {
        (None, true) => Err(UsageError("--resume needs the run's --out file".into())),
        (Some(path), true) => Ok(match read_progress(path, &spsa)? {
            Some((done, theta)) => spsa.resume(done, theta),
            None => spsa,
        }),
        (Some(path), false) => {
            std::fs::write(path, format!("{}\n", csv_header(&spsa)))
                .map_err(|e| UsageError(format!("cannot write '{path}': {e}")))?;
            Ok(spsa)
        }
        (None, false) => Ok(spsa),
    }
}

pub(super) fn run(args: SpsaArgs) -> Result<(), UsageError> {
    let game = args.game.setup()?;
    let base = parse_engine(
        &args.engine,
        Protocol::Auto,
        game.tc,
        &args.game.tc,
        args.game.byoyomi,
    )
    .map_err(|e| UsageError(format!("--engine '{}': {e}", args.engine)))?;
    let mut base = base;
    let mut id = inspect_engine(&base, game.variant, args.game.debug)
        .map_err(|e| UsageError(e.to_string()))?;
    let undeclared = |options: &[String]| {
        args.params
            .iter()
            .filter_map(|p| p.split_once('='))
            .find(|(name, _)| {
                !options.is_empty() && !options.iter().any(|o| o.eq_ignore_ascii_case(name.trim()))
            })
    };
    // shishi lists its search parameters only after `TuneOptions`: ask for them.
    let lists_on_request = id
        .options
        .iter()
        .any(|o| o.eq_ignore_ascii_case("TuneOptions"));
    if lists_on_request && undeclared(&id.options).is_some() {
        base.options
            .push(("TuneOptions".to_string(), "true".to_string()));
        id = inspect_engine(&base, game.variant, args.game.debug)
            .map_err(|e| UsageError(e.to_string()))?;
    }
    let unknown = undeclared(&id.options);
    if let Some((name, _)) = unknown {
        return Err(UsageError(format!(
            "--param: engine '{}' declares no option '{}'",
            id.name,
            name.trim()
        )));
    }
    let mut spsa = start(&args)?;
    if spsa.done() > 0 {
        println!(
            "resumed after iteration {}: {}",
            spsa.done(),
            values_text(&spsa)
        );
    }
    while !spsa.finished() {
        let step = spsa.step();
        let result = play(&args, &base, &spsa, &step)?;
        spsa.update(&step, result);
        println!(
            "iteration {}/{}: plus {:?} minus {:?} result {result:+}: {}",
            step.k,
            args.iterations,
            step.plus,
            step.minus,
            values_text(&spsa)
        );
        if let Some(path) = &args.out {
            let values: Vec<String> = spsa.theta().iter().map(|v| format!("{v:.4}")).collect();
            append(path, &format!("{},{result},{}", step.k, values.join(",")))?;
        }
    }
    let options: Vec<String> = spsa
        .params()
        .iter()
        .zip(spsa.theta())
        .map(|(p, v)| format!("option.{}={}", p.name, v.round() as i64))
        .collect();
    println!("final: {}", options.join(","));
    Ok(())
}
