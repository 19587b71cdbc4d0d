//! `shishi match`: placeholder until its issue lands; replaced by the real command.

use super::UsageError;
use clap::Args;

#[derive(Args)]
pub struct MatchArgs {}

pub fn run(_args: MatchArgs) -> Result<(), UsageError> {
    Err(UsageError("this command is being built".to_string()))
}
