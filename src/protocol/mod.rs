//! Protocols on stdin/stdout: the first command picks USI (`usi`), XBoard (`xboard`) or UCI-style
//! USI with XBoard squares (`uci`). Placeholder until the protocol issue lands.

use crate::cli::UsageError;

/// Reads commands from stdin until `quit` or EOF.
pub fn run_stdio() -> Result<(), UsageError> {
    Err(UsageError("the protocol loop is being built".to_string()))
}
