//! `shishi bench [--depth N]`: the fixed search benchmark (see `search::bench`); prints one line
//! per position and `<nodes> nodes <nps> nps` last.

use super::UsageError;
use clap::Args;

#[derive(Args)]
pub struct BenchArgs {
    /// Search depth for every bench position.
    #[arg(long)]
    depth: Option<u32>,
}

pub fn run(args: BenchArgs) -> Result<(), UsageError> {
    if let Some(d) = args.depth {
        if d == 0 || d > 64 {
            return Err(UsageError(format!(
                "--depth must be between 1 and 64, not {d}"
            )));
        }
    }
    let stdout = std::io::stdout();
    crate::search::bench(args.depth, &mut stdout.lock())
        .map(|_| ())
        .map_err(|e| UsageError(format!("cannot write the bench output: {e}")))
}
