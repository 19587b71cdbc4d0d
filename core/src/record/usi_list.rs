//! A USI move list: one line holding the arguments of USI's `position` command,
//! `startpos moves 7j8h 6c5e ...` or `sfen SFEN moves ...` (a leading `position` is allowed).
//! It names no variant for `startpos`: the reader's option does.

use super::{GameFile, ReadOptions, RecordError};
use crate::notation::{write_move, Notation};
use crate::position::Position;

/// Reads the first non-blank line (lines starting with `#` are comments).
pub fn read(text: &str, options: &ReadOptions) -> Result<GameFile, RecordError> {
    let (number, line) = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .find(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .ok_or_else(|| RecordError::whole("the USI move list is empty"))?;
    let line = line.strip_prefix("position").map_or(line, str::trim_start);
    let (setup, moves) = match line.split_once(" moves") {
        Some((setup, moves)) => (setup.trim(), moves),
        None => (line, ""),
    };
    let start = if setup == "startpos" {
        Position::startpos(options.variant)
    } else if let Some(sfen) = setup.strip_prefix("sfen ") {
        Position::from_sfen_any(sfen.trim())
            .map_err(|e| RecordError::at(number, format!("bad SFEN: {e}")))?
    } else {
        let shown: String = setup.chars().take(24).collect();
        return Err(RecordError::at(
            number,
            format!("expected `startpos` or `sfen SFEN`, not '{shown}'"),
        ));
    };
    let mut file = GameFile::new(start.with_rules(options.rules));
    for (i, text) in moves.split_whitespace().enumerate() {
        let mv = file
            .game
            .parse(text, Notation::Usi)
            .map_err(|e| RecordError::at(number, format!("ply {}: {e}", i + 1)))?;
        file.push(mv, None)
            .map_err(|e| RecordError::at(number, format!("ply {}: {e}", i + 1)))?;
    }
    Ok(file)
}

/// The line for `game`: `startpos` when it starts at its variant's start position.
pub fn write(game: &GameFile) -> String {
    let start = game.game.start();
    let mut line = if start.to_sfen() == Position::startpos(start.variant()).to_sfen() {
        "startpos".to_string()
    } else {
        format!("sfen {}", start.to_sfen())
    };
    let mut pos = start.clone();
    if game.game.plies() > 0 {
        line.push_str(" moves");
    }
    for mv in game.moves() {
        line.push(' ');
        line.push_str(&write_move(&pos, mv, Notation::Usi));
        pos.play(mv);
    }
    line.push('\n');
    line
}
