//! `shishi bench [--depth N] [--variant V --sfen S] [--option NAME=VALUE ...]`: the fixed search
//! benchmark (see `search::bench`), or the same measurement on one position; prints one line per
//! position and `<nodes> nodes <nps> nps` last. `--option` sets a search parameter (`Tune_...`)
//! through the protocols' option table, so the signature of an experiment is one command.

use super::{parse_position, parse_variant, UsageError};
use crate::eval::nnue::Network;
use crate::protocol::options::Settings;
use crate::search::params::SearchParams;
use crate::search::EvalOptions;
use clap::Args;
use std::sync::Arc;

#[derive(Args)]
pub(super) struct BenchArgs {
    /// Search depth for every bench position.
    #[arg(long)]
    depth: Option<u32>,
    /// Bench one position of this variant instead of the fixed list (chushogi, heian, heian9x8,
    /// heian8x9 or heian8x8); with `--sfen`, or its start position.
    #[arg(long)]
    variant: Option<String>,
    /// Bench this one position instead of the fixed list: a lishogi SFEN or `startpos`.
    #[arg(long)]
    sfen: Option<String>,
    /// Evaluate with this net file instead of the embedded net of its family.
    #[arg(long)]
    eval_file: Option<String>,
    /// Evaluate by hand (the hand-crafted evaluation), not by the network.
    #[arg(long)]
    hce: bool,
    /// Set a search parameter as its engine option does (`Tune_LmrDivisor=2600`); repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
}

/// The search parameters after the `--option NAME=VALUE` settings, each checked as the
/// protocols check it; only `Tune_` options are taken.
fn tuned_params(options: &[String]) -> Result<SearchParams, UsageError> {
    let mut settings = Settings::default();
    for option in options {
        let (name, value) = option
            .split_once('=')
            .filter(|(name, _)| name.trim().to_ascii_lowercase().starts_with("tune_"))
            .ok_or_else(|| {
                UsageError(format!(
                    "--option takes Tune_NAME=VALUE (docs/tuning-options.md), not '{option}'"
                ))
            })?;
        settings
            .set(name, value)
            .map_err(|e| UsageError(e.to_string()))?;
    }
    Ok(settings.engine.params)
}

/// The evaluation `--hce` and `--eval-file` choose (shared by the subcommands that search).
pub(super) fn eval_options(hce: bool, eval_file: Option<&str>) -> Result<EvalOptions, UsageError> {
    let file_net = match eval_file {
        None => None,
        Some(path) => {
            let net = Network::load(std::path::Path::new(path), None)
                .map_err(|e| UsageError(format!("{path}: {e}")))?;
            Some((path.to_string(), Arc::new(net)))
        }
    };
    Ok(EvalOptions {
        use_nnue: !hce,
        file_net,
    })
}

pub(super) fn run(args: BenchArgs) -> Result<(), UsageError> {
    if let Some(d) = args.depth {
        if d == 0 || d > 64 {
            return Err(UsageError(format!(
                "--depth must be between 1 and 64, not {d}"
            )));
        }
    }
    let eval = eval_options(args.hce, args.eval_file.as_deref())?;
    let params = tuned_params(&args.options)?;
    let stdout = std::io::stdout();
    let result = if args.variant.is_some() || args.sfen.is_some() {
        let variant = parse_variant(args.variant.as_deref().unwrap_or("chushogi"))?;
        let pos = parse_position(variant, args.sfen.as_deref().unwrap_or("startpos"))?;
        crate::search::bench_positions(&[pos], args.depth, &eval, &params, &mut stdout.lock())
    } else {
        crate::search::bench(args.depth, &eval, &params, &mut stdout.lock())
    };
    result
        .map(|_| ())
        .map_err(|e| UsageError(format!("cannot write the bench output: {e}")))
}
