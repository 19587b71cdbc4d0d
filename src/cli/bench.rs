//! `shishi bench [--depth N] [--variant V --sfen S]`: the fixed search benchmark (see
//! `search::bench`), or the same measurement on one position; prints one line per position and
//! `<nodes> nodes <nps> nps` last.

use super::{parse_position, parse_variant, UsageError};
use clap::Args;

#[derive(Args)]
pub struct BenchArgs {
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
    let result = if args.variant.is_some() || args.sfen.is_some() {
        let variant = parse_variant(args.variant.as_deref().unwrap_or("chushogi"))?;
        let pos = parse_position(variant, args.sfen.as_deref().unwrap_or("startpos"))?;
        crate::search::bench_positions(&[pos], args.depth, &mut stdout.lock())
    } else {
        crate::search::bench(args.depth, &mut stdout.lock())
    };
    result
        .map(|_| ())
        .map_err(|e| UsageError(format!("cannot write the bench output: {e}")))
}
