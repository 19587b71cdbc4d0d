//! `shishi convert --input FILE --output FILE`: training data from one format to the other.
//! The input's format is read from its content, the output's from its name (`.spk`: packed
//! games, anything else: text records). Packed games become their training positions as text
//! records; text records become packed one-position games (a text file keeps no moves).

use super::UsageError;
use crate::training::data_file::Format;
use crate::training::packed::{self, PackedGame};
use crate::training::record::Record;
use clap::Args;
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(Args)]
pub(super) struct ConvertArgs {
    /// The data to convert: text records or packed games.
    #[arg(long)]
    input: PathBuf,
    /// Where to write it: packed games for a name ending in `.spk`, text records otherwise.
    #[arg(long)]
    output: PathBuf,
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

pub(super) fn run(args: ConvertArgs) -> Result<(), UsageError> {
    let input = args.input.display();
    let bytes =
        std::fs::read(&args.input).map_err(|e| UsageError(format!("cannot read {input}: {e}")))?;
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
    std::fs::write(&args.output, out)
        .map_err(|e| UsageError(format!("cannot write {}: {e}", args.output.display())))?;
    println!(
        "converted {} positions from {input} to {}",
        records.len(),
        args.output.display()
    );
    Ok(())
}
