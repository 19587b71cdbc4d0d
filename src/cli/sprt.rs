//! `shishi sprt --pentanomial A,B,C,D,E [--sprt ...]`: the Elo and SPRT lines `match` ends
//! with, for pair counts summed elsewhere (the slices of a match played apart, as the cluster
//! driver plays them), so a split match is judged by the same code as a whole one.

use super::UsageError;
use crate::matchplay::stats::{self, Pentanomial, Sprt};
use clap::Args;

#[derive(Args)]
pub(super) struct SprtArgs {
    /// The five pair counts, first engine's view: pairs that scored 0, 0.5, 1, 1.5 and 2.
    #[arg(long)]
    pentanomial: String,
    /// SPRT hypotheses and error rates, as `match --sprt`.
    #[arg(long)]
    sprt: Option<String>,
    /// The two engines' names for the Elo line.
    #[arg(long, default_value = "first,second")]
    names: String,
}

fn parse_pentanomial(text: &str) -> Result<Pentanomial, UsageError> {
    let bad = || {
        UsageError(format!(
            "--pentanomial takes five pair counts A,B,C,D,E, not '{text}'"
        ))
    };
    let counts: Vec<u32> = text
        .split(',')
        .map(|c| c.trim().parse().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    let counts: [u32; 5] = counts.try_into().map_err(|_| bad())?;
    Ok(Pentanomial { counts })
}

pub(super) fn run(args: SprtArgs) -> Result<(), UsageError> {
    let pairs = parse_pentanomial(&args.pentanomial)?;
    let Some((first, second)) = args.names.split_once(',') else {
        return Err(UsageError(format!(
            "--names takes FIRST,SECOND, not '{}'",
            args.names
        )));
    };
    print!("{}", stats::elo_line(first, second, &pairs));
    if let Some(text) = &args.sprt {
        let sprt = Sprt::parse(text).map_err(|e| UsageError(e.to_string()))?;
        print!("{}", stats::sprt_line(&sprt, &pairs));
    }
    Ok(())
}
