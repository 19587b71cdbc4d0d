//! `shishi bench`: placeholder until its issue lands; replaced by the real command.

use super::UsageError;
use clap::Args;

#[derive(Args)]
pub struct BenchArgs {}

pub fn run(_args: BenchArgs) -> Result<(), UsageError> {
    Err(UsageError("this command is being built".to_string()))
}
