//! `shishi convert --input FILE --output FILE`: a game record to another format (an output
//! named `.kif`, `.pgn` or `.usi`: `convert_game`), or training data from one format to the
//! other.
//! The input's format is read from its content, the output's from its name (`.spk`: packed
//! games, anything else: text records). Packed games become their training positions as text
//! records; text records become packed one-position games (a text file keeps no moves). A match
//! PGN (`shishi match --pgn`) becomes its games with `--engine`'s scores, replayed under
//! `--rules` (`training::from_pgn`).

use super::{convert_game, parse_rules, parse_variant, UsageError};
use crate::matchplay::pgn_read;
use crate::record::ReadOptions;
use crate::training::data_file::Format;
use crate::training::from_pgn;
use crate::training::packed::{self, PackedGame};
use crate::training::record::Record;
use clap::Args;
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(Args)]
pub(super) struct ConvertArgs {
    /// What to convert: a game record (`.kif`, `.pgn`, `.usi`) when the output is one, else
    /// training data (text records, packed games or a match PGN).
    #[arg(long)]
    input: PathBuf,
    /// Where to write it: a game record for a name ending in `.kif`, `.pgn` or `.usi`, packed
    /// games for `.spk`, text records otherwise.
    #[arg(long)]
    output: PathBuf,
    /// For a match PGN: the engine (its `[White]`/`[Black]` name) whose scores label the
    /// positions.
    #[arg(long)]
    engine: Option<String>,
    /// For a match PGN or a game record: the rule set its moves were played under (lishogi,
    /// jcsa, hachu).
    #[arg(long, default_value = "lishogi")]
    rules: String,
    /// For a game record that does not name its variant (a USI `startpos`, a KIF without a
    /// board): chushogi, heian, heian9x8, heian8x9 or heian8x8.
    #[arg(long, default_value = "chushogi")]
    variant: String,
}

/// Whether `bytes` read as a PGN: text whose first non-blank character opens a tag.
fn is_pgn(bytes: &[u8]) -> bool {
    bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[')
}

/// The games of a match PGN, with the summary line `run` prints.
fn pgn_games(bytes: &[u8], args: &ConvertArgs) -> Result<(Vec<PackedGame>, String), UsageError> {
    let input = args.input.display();
    let engine = args.engine.as_deref().ok_or_else(|| {
        UsageError(format!(
            "{input} is a PGN: --engine NAME says whose scores to keep"
        ))
    })?;
    let rules = parse_rules(&args.rules)?;
    let text = std::str::from_utf8(bytes)
        .map_err(|_| UsageError(format!("{input}: a PGN that is not UTF-8")))?;
    let read = from_pgn::packed_games(&pgn_read::read_records(text), engine, rules)
        .map_err(|e| UsageError(format!("{input}: {e}")))?;
    let mut summary = format!(
        "{} games ({} unfinished left out, {} ended early at a move only --rules {} allows, {} at a move it forbids), {} positions of {engine}'s",
        read.games.len(),
        read.unfinished,
        read.cut_short,
        args.rules,
        read.refused,
        read.positions
    );
    if let Some(first) = read.first_refused {
        summary.push_str(&format!(" (first forbidden move: {first})"));
    }
    Ok((read.games, summary))
}

/// The training positions of `bytes`, whichever format they are in.
fn records(bytes: &[u8]) -> Result<Vec<Record>, String> {
    if packed::is_packed(bytes) {
        let scan = packed::scan(bytes, false).map_err(|e| e.to_string())?;
        let mut out = Vec::new();
        for game in &scan.games {
            out.extend(
                game.records()
                    .map_err(|e| format!("game {}: {e}", game.number))?,
            );
        }
        return Ok(out);
    }
    let text = std::str::from_utf8(bytes).map_err(|_| "neither text records nor packed games")?;
    text.lines()
        .enumerate()
        .filter(|(_, line)| !Record::is_comment(line))
        .map(|(i, line)| Record::parse(line).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}

fn write(args: &ConvertArgs, out: Vec<u8>) -> Result<(), UsageError> {
    std::fs::write(&args.output, out)
        .map_err(|e| UsageError(format!("cannot write {}: {e}", args.output.display())))
}

/// A match PGN to packed games or to their training positions as text records.
fn convert_pgn(bytes: &[u8], args: &ConvertArgs) -> Result<(), UsageError> {
    let input = args.input.display();
    let (games, summary) = pgn_games(bytes, args)?;
    let out: Vec<u8> = match Format::of(&args.output) {
        Format::Packed => games.iter().flat_map(PackedGame::to_bytes).collect(),
        Format::Text => {
            let mut text = format!("# converted from {input}\n");
            for game in &games {
                let records = game
                    .records()
                    .map_err(|e| UsageError(format!("{input}: game {}: {e}", game.number)))?;
                for r in &records {
                    let _ = writeln!(text, "{r}");
                }
            }
            text.into_bytes()
        }
    };
    write(args, out)?;
    println!(
        "converted {summary} from {input} to {}",
        args.output.display()
    );
    Ok(())
}

pub(super) fn run(args: ConvertArgs) -> Result<(), UsageError> {
    if convert_game::is_game_record(&args.output) {
        let options = ReadOptions {
            variant: parse_variant(&args.variant)?,
            rules: parse_rules(&args.rules)?,
        };
        return convert_game::convert(&args.input, &args.output, &options);
    }
    let input = args.input.display();
    let bytes = crate::platform::read_capped(&args.input, crate::platform::caps::DATA, "data file")
        .map_err(|e| UsageError(format!("cannot read {input}: {e}")))?;
    if is_pgn(&bytes) {
        return convert_pgn(&bytes, &args);
    }
    if args.engine.is_some() || args.rules != "lishogi" {
        return Err(UsageError(format!(
            "{input} is not a PGN: --engine and --rules apply to match PGNs only"
        )));
    }
    let records = records(&bytes).map_err(|e| UsageError(format!("{input}: {e}")))?;
    let out: Vec<u8> = match Format::of(&args.output) {
        Format::Packed => records
            .iter()
            .enumerate()
            .flat_map(|(i, r)| PackedGame::from_record(i as u32 + 1, r).to_bytes())
            .collect(),
        Format::Text => {
            let mut text = format!("# converted from {input}\n");
            for r in &records {
                let _ = writeln!(text, "{r}");
            }
            text.into_bytes()
        }
    };
    write(&args, out)?;
    println!(
        "converted {} positions from {input} to {}",
        records.len(),
        args.output.display()
    );
    Ok(())
}
