//! `shishi convert` for game records: a KIF, PGN or USI move list in, any of the three out
//! (`record`). The input is read whole and checked move by move before anything is written, so
//! a refused record leaves no output file.

use super::UsageError;
use crate::record::{self, Format, ReadOptions};
use std::path::Path;

/// Whether `path` names a game record by its extension.
pub(super) fn is_game_record(path: &Path) -> bool {
    Format::from_path(path).is_some()
}

/// Reads the game in `input` (its format from its name, else its content) under `options`.
pub(super) fn read_game(
    input: &Path,
    options: &ReadOptions,
) -> Result<record::GameFile, UsageError> {
    record::read_file(input, options).map_err(|e| UsageError(format!("{}: {e}", input.display())))
}

/// Converts the game in `input` to `output`, the format from the output's extension.
pub(super) fn convert(
    input: &Path,
    output: &Path,
    options: &ReadOptions,
) -> Result<(), UsageError> {
    let format = Format::from_path(output).ok_or_else(|| {
        UsageError(format!(
            "{}: a game record is written as .kif, .pgn or .usi",
            output.display()
        ))
    })?;
    let game = read_game(input, options)?;
    let text = record::write(&game, format)
        .map_err(|e| UsageError(format!("{}: {e}", output.display())))?;
    std::fs::write(output, text)
        .map_err(|e| UsageError(format!("cannot write {}: {e}", output.display())))?;
    println!(
        "converted {} ({} plies, {}) from {} to {}",
        game.variant().name(),
        game.game.plies(),
        game.outcome()
            .map_or("no result".to_string(), |o| o.score().to_string()),
        input.display(),
        output.display()
    );
    Ok(())
}
