//! The file `datagen` writes: one block per game, appended whole, and the scan that lets a run
//! killed mid-write resume.
//!
//! ```text
//! # game 17 variant heian plies 143 result 1 end checkmate
//! heian;<sfen>;35;1
//! ...
//! # end game 17 positions 54
//! ```
//!
//! The lines between the two comments are [`Record`](super::record::Record)s, so the tuner reads
//! the file as plain records and skips the comments. A block is written with one `write` call
//! and counts as complete once its `# end` line, newline included, is in the file. On resume
//! [`open_for_append`] scans the file: comment and blank lines outside blocks are allowed
//! (notes a person added); a record outside a block, a block opened inside another, or an `# end`
//! with no block, means the file is not a datagen file, and it is left untouched. What follows
//! the last complete block is cut off when it is the start of a block (the one being written
//! when the run was killed, possibly ending in half a line); any other trailing text is an error.

use super::packed::{self, PackedError, PackedGame};
use super::selfplay::PlayedGame;
use std::fmt::{self, Write as _};
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader};
use std::path::Path;

const GAME_MARK: &[u8] = b"# game";
const END_MARK: &[u8] = b"# end";

/// Why a data file cannot be resumed.
#[derive(Debug)]
pub(crate) enum DataFileError {
    /// Reading, cutting or opening the file failed.
    Io(io::Error),
    /// A packed file holds something that is not a complete, valid game block.
    Packed(PackedError),
    /// The file holds something datagen does not write there.
    Foreign {
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        reason: &'static str,
    },
}

impl fmt::Display for DataFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataFileError::Io(e) => write!(f, "{e}"),
            DataFileError::Packed(e) => write!(f, "{e}; not a packed datagen file, left as it is"),
            DataFileError::Foreign { line, reason } => {
                write!(
                    f,
                    "line {line}: {reason}; not a datagen file, left as it is"
                )
            }
        }
    }
}

impl std::error::Error for DataFileError {}

impl From<io::Error> for DataFileError {
    fn from(e: io::Error) -> Self {
        DataFileError::Io(e)
    }
}

/// What the scan of an existing file found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Scan {
    /// Complete game blocks.
    pub games: usize,
    /// Bytes up to the end of the last complete block (or of the comments after it).
    pub keep: u64,
    /// Bytes of an incomplete block after that, to cut off.
    pub dropped: u64,
}

/// Scans a data file's bytes for complete blocks (see the module doc).
pub(crate) fn scan(reader: impl BufRead) -> Result<Scan, DataFileError> {
    let mut reader = reader;
    let mut line = Vec::new();
    let mut offset = 0u64;
    let mut line_no = 0usize;
    let mut games = 0usize;
    // Offset of the `# game` line of the block being read, if inside one.
    let mut open_block: Option<u64> = None;
    loop {
        line.clear();
        let read = reader.read_until(b'\n', &mut line)? as u64;
        if read == 0 {
            break;
        }
        line_no += 1;
        if !line.ends_with(b"\n") {
            // Half a line at the end: the block being written when the run stopped.
            let cut = open_block.unwrap_or(offset);
            if open_block.is_none() && !starts_block(&line) {
                return Err(DataFileError::Foreign {
                    line: line_no,
                    reason: "the last line is incomplete and opens no game block",
                });
            }
            return Ok(Scan {
                games,
                keep: cut,
                dropped: offset + read - cut,
            });
        }
        let text = line.trim_ascii();
        if text.starts_with(GAME_MARK) {
            if open_block.is_some() {
                return Err(DataFileError::Foreign {
                    line: line_no,
                    reason: "a game block starts before the one above it ended",
                });
            }
            open_block = Some(offset);
        } else if text.starts_with(END_MARK) {
            if open_block.take().is_none() {
                return Err(DataFileError::Foreign {
                    line: line_no,
                    reason: "'# end' with no game block open",
                });
            }
            games += 1;
        } else if !(text.is_empty() || text.starts_with(b"#")) && open_block.is_none() {
            return Err(DataFileError::Foreign {
                line: line_no,
                reason: "a record outside a game block",
            });
        }
        offset += read;
    }
    let keep = open_block.unwrap_or(offset);
    Ok(Scan {
        games,
        keep,
        dropped: offset - keep,
    })
}

/// Whether a partial line could be the start of a `# game` line.
fn starts_block(partial: &[u8]) -> bool {
    let partial = partial.trim_ascii_start();
    let n = partial.len().min(GAME_MARK.len());
    partial[..n] == GAME_MARK[..n]
}

/// The two formats `datagen` writes: text records, or packed games ([`packed`], chosen by the
/// extension `.spk`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    /// One `variant;sfen;score;result` line per position, in game blocks.
    Text,
    /// A game's start and moves in a few bytes a ply.
    Packed,
}

impl Format {
    /// The format of a file by its name: `.spk` is packed, anything else text.
    pub(crate) fn of(path: &Path) -> Format {
        match path.extension().and_then(|e| e.to_str()) {
            Some("spk") => Format::Packed,
            _ => Format::Text,
        }
    }

    /// Game `number` (1-based) as this format's block.
    pub(crate) fn block(self, number: usize, game: &PlayedGame) -> Vec<u8> {
        match self {
            Format::Text => format_block(number, game).into_bytes(),
            Format::Packed => PackedGame::from_played(number as u32, game).to_bytes(),
        }
    }
}

/// Scans packed data for complete blocks; an incomplete last block is to be cut off.
fn scan_packed(path: &Path) -> Result<Scan, DataFileError> {
    let bytes = crate::platform::read_capped(path, crate::platform::caps::DATA, "data file")?;
    let scanned = packed::scan(&bytes, true).map_err(DataFileError::Packed)?;
    Ok(Scan {
        games: scanned.games.len(),
        keep: scanned.complete,
        dropped: bytes.len() as u64 - scanned.complete,
    })
}

/// Opens `path` for appending whole blocks of `format` (creating it if missing), after cutting
/// off an incomplete last block; returns the file and what the scan found.
pub(crate) fn open_for_append(path: &Path, format: Format) -> Result<(File, Scan), DataFileError> {
    let scanned = match File::open(path) {
        Ok(_) if format == Format::Packed => scan_packed(path)?,
        Ok(f) => scan(BufReader::new(f))?,
        Err(e) if e.kind() == io::ErrorKind::NotFound => Scan {
            games: 0,
            keep: 0,
            dropped: 0,
        },
        Err(e) => return Err(e.into()),
    };
    let file = OpenOptions::new().create(true).append(true).open(path)?;
    if scanned.dropped > 0 {
        file.set_len(scanned.keep)?;
    }
    Ok((file, scanned))
}

/// Game number `number` (1-based) as a block of the file.
pub(crate) fn format_block(number: usize, game: &PlayedGame) -> String {
    let mut block = String::new();
    // Writing to a String cannot fail.
    let _ = writeln!(
        block,
        "# game {number} variant {} plies {} result {} end {}",
        game.variant.name(),
        game.plies,
        game.result.text(),
        game.end
    );
    for record in &game.records {
        let _ = writeln!(block, "{record}");
    }
    let _ = writeln!(
        block,
        "# end game {number} positions {}",
        game.records.len()
    );
    block
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan_text(text: &str) -> Result<Scan, DataFileError> {
        scan(text.as_bytes())
    }

    const BLOCK: &str = "# game 1 variant heian8x8 plies 9 result 1 end checkmate\n\
        heian8x8;lnsgksnl/8/pppppppp/8/8/PPPPPPPP/8/LNSKGSNL b - 1;0;1\n\
        # end game 1 positions 1\n";

    #[test]
    fn complete_blocks_are_counted_and_kept() {
        let text = format!("# a note\n{BLOCK}\n{BLOCK}");
        let s = scan_text(&text).unwrap();
        assert_eq!((s.games, s.keep, s.dropped), (2, text.len() as u64, 0));
    }

    #[test]
    fn a_block_cut_mid_line_is_dropped() {
        let whole = format!("{BLOCK}{BLOCK}");
        for cut in BLOCK.len() + 1..whole.len() {
            let s = scan_text(&whole[..cut]).unwrap();
            assert_eq!(s.games, 1, "cut at {cut}");
            assert_eq!(s.keep, BLOCK.len() as u64, "cut at {cut}");
            assert_eq!(s.dropped, (cut - BLOCK.len()) as u64);
        }
    }

    #[test]
    fn text_that_datagen_does_not_write_is_refused() {
        let record = "heian8x8;lnsgksnl/8/pppppppp/8/8/PPPPPPPP/8/LNSKGSNL b - 1;0;1\n";
        assert!(matches!(
            scan_text(record),
            Err(DataFileError::Foreign { line: 1, .. })
        ));
        assert!(matches!(
            scan_text(&format!("{BLOCK}hello")),
            Err(DataFileError::Foreign { line: 4, .. })
        ));
        let nested = format!("# game 1\n{BLOCK}");
        assert!(matches!(
            scan_text(&nested),
            Err(DataFileError::Foreign { line: 2, .. })
        ));
        assert!(matches!(
            scan_text("# end game 3 positions 0\n"),
            Err(DataFileError::Foreign { line: 1, .. })
        ));
    }
}
