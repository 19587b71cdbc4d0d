//! One training position per line: the variant, the position, what the search thought of it and
//! how the game ended.
//!
//! ```text
//! # comment lines start with '#'
//! heian;lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1;35;1
//! ```
//!
//! Fields, separated by `;`:
//! 1. the variant's name (`Variant::name`: `chushogi`, `heian`, `heian9x8`, `heian8x9`,
//!    `heian8x8`);
//! 2. the position as a lishogi SFEN;
//! 3. the search score in centipawns from sente's view (never a mate score);
//! 4. the game's result from sente's view: `1` sente won, `0.5` draw, `0` gote won.
//!
//! Sente's view for both numbers keeps a file readable without replaying whose move it was.

use crate::board::{Color, Variant};
use crate::position::{Position, SfenError};
use std::fmt;

/// How a game ended, from sente's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Result01 {
    /// Gote won.
    GoteWon,
    /// Drawn.
    Draw,
    /// Sente won.
    SenteWon,
}

impl Result01 {
    /// The result as a number: 1 sente won, 0.5 draw, 0 gote won.
    pub fn value(self) -> f64 {
        match self {
            Result01::GoteWon => 0.0,
            Result01::Draw => 0.5,
            Result01::SenteWon => 1.0,
        }
    }

    /// The result of a game `winner` won (`None`: drawn).
    pub fn from_winner(winner: Option<Color>) -> Result01 {
        match winner {
            Some(Color::Sente) => Result01::SenteWon,
            Some(Color::Gote) => Result01::GoteWon,
            None => Result01::Draw,
        }
    }

    /// The result as the data format writes it: `1`, `0.5` or `0`.
    pub fn text(self) -> &'static str {
        match self {
            Result01::GoteWon => "0",
            Result01::Draw => "0.5",
            Result01::SenteWon => "1",
        }
    }

    fn parse(text: &str) -> Option<Result01> {
        match text {
            "0" | "0.0" => Some(Result01::GoteWon),
            "0.5" => Some(Result01::Draw),
            "1" | "1.0" => Some(Result01::SenteWon),
            _ => None,
        }
    }
}

/// One labelled position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The board the game was played on.
    pub variant: Variant,
    /// The position, as a lishogi SFEN.
    pub sfen: String,
    /// The search score in centipawns, sente's view.
    pub score: i32,
    /// How the game ended.
    pub result: Result01,
}

/// Why a line is not a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The line has not four `;`-separated fields.
    FieldCount(usize),
    /// The first field names no variant.
    UnknownVariant(String),
    /// The second field is not a position of that variant.
    Sfen(SfenError),
    /// The third field is not a whole number.
    BadScore(String),
    /// The fourth field is not `1`, `0.5` or `0`.
    BadResult(String),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::FieldCount(n) => {
                write!(f, "expected 4 fields separated by ';', found {n}")
            }
            RecordError::UnknownVariant(v) => write!(f, "unknown variant '{v}'"),
            RecordError::Sfen(e) => write!(f, "bad position: {e}"),
            RecordError::BadScore(s) => write!(f, "bad score '{s}': expected centipawns"),
            RecordError::BadResult(s) => write!(f, "bad result '{s}': expected 1, 0.5 or 0"),
        }
    }
}

impl std::error::Error for RecordError {}

impl Record {
    /// Reads one data line (not a comment or a blank line).
    pub fn parse(line: &str) -> Result<Record, RecordError> {
        let fields: Vec<&str> = line.trim().split(';').map(str::trim).collect();
        if fields.len() != 4 {
            return Err(RecordError::FieldCount(fields.len()));
        }
        let variant = Variant::from_name(fields[0])
            .ok_or_else(|| RecordError::UnknownVariant(fields[0].to_string()))?;
        Position::from_sfen(variant, fields[1]).map_err(RecordError::Sfen)?;
        let score = fields[2]
            .parse::<i32>()
            .map_err(|_| RecordError::BadScore(fields[2].to_string()))?;
        let result = Result01::parse(fields[3])
            .ok_or_else(|| RecordError::BadResult(fields[3].to_string()))?;
        Ok(Record {
            variant,
            sfen: fields[1].to_string(),
            score,
            result,
        })
    }

    /// The position this record describes.
    pub fn position(&self) -> Position {
        Position::from_sfen(self.variant, &self.sfen).expect("a parsed record holds a valid SFEN")
    }

    /// Whether `line` carries no record (a comment or blank line).
    pub fn is_comment(line: &str) -> bool {
        let t = line.trim();
        t.is_empty() || t.starts_with('#')
    }
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{};{};{};{}",
            self.variant.name(),
            self.sfen,
            self.score,
            self.result.text()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_reads_back_what_it_writes() {
        let pos = Position::startpos(Variant::Heian8x9);
        let record = Record {
            variant: Variant::Heian8x9,
            sfen: pos.to_sfen(),
            score: -42,
            result: Result01::Draw,
        };
        let line = record.to_string();
        assert_eq!(Record::parse(&line), Ok(record.clone()));
        assert_eq!(record.position().key(), pos.key());
    }

    #[test]
    fn bad_lines_name_the_bad_field() {
        let sfen = Position::startpos(Variant::Heian).to_sfen();
        assert_eq!(Record::parse("heian;x"), Err(RecordError::FieldCount(2)));
        assert!(matches!(
            Record::parse(&format!("shogi;{sfen};0;1")),
            Err(RecordError::UnknownVariant(_))
        ));
        assert!(matches!(
            Record::parse("heian;9/9 b;0;1"),
            Err(RecordError::Sfen(_))
        ));
        assert!(matches!(
            Record::parse(&format!("heian;{sfen};1.5;1")),
            Err(RecordError::BadScore(_))
        ));
        assert!(matches!(
            Record::parse(&format!("heian;{sfen};3;2")),
            Err(RecordError::BadResult(_))
        ));
        assert!(Record::is_comment("  # game 3"));
        assert!(!Record::is_comment(&format!("heian;{sfen};3;1")));
    }
}
