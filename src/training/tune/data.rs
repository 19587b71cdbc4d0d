//! The tuner's data: records read from files and turned, once, into each position's evaluation
//! coefficients (`eval::features`), kept from sente's view like the record's score and result.
//!
//! A line that is not a record does not stop the reading: it is skipped and reported with its
//! file and line number ([`BadLine`]), so one truncated line at the end of a long self-play file
//! costs one position, not the run. Records of the other family are skipped and counted.

use crate::board::{Color, Family};
use crate::eval::features;
use crate::eval::weights::Layout;
use crate::training::record::Record;
use rayon::prelude::*;
use std::fmt;

/// One coefficient of one position: parameter `index` counts `coef` times (sente's view).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The parameter, an index of the family's `Layout`.
    pub index: u16,
    /// How many times it counts, from sente's view.
    pub coef: i16,
}

/// A line of a data file that is not a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BadLine {
    /// The file, as it was named.
    pub file: String,
    /// The line number, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for BadLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

/// What reading the data found besides the positions.
#[derive(Clone, Debug, Default)]
pub(crate) struct ReadReport {
    /// Lines that are not records, in file order.
    pub bad: Vec<BadLine>,
    /// Records of the other family, skipped.
    pub other_family: usize,
}

/// Positions of one family with their coefficients, search scores and game results.
#[derive(Clone, Debug)]
pub(crate) struct Dataset {
    family: Family,
    entries: Vec<Entry>,
    /// Position `p`'s entries are `entries[starts[p]..starts[p + 1]]`.
    starts: Vec<usize>,
    scores: Vec<f32>,
    results: Vec<f32>,
}

enum Line {
    Blank,
    OtherFamily,
    Bad(String),
    Position(Vec<Entry>, f32, f32),
}

fn read_line(family: Family, text: &str) -> Line {
    if Record::is_comment(text) {
        return Line::Blank;
    }
    let record = match Record::parse(text) {
        Ok(r) => r,
        Err(e) => return Line::Bad(e.to_string()),
    };
    if record.variant.family() != family {
        return Line::OtherFamily;
    }
    match coefficients(&record) {
        Some(entries) => Line::Position(entries, record.score as f32, record.result.value() as f32),
        None => Line::Bad("a coefficient does not fit 16 bits".to_string()),
    }
}

/// The record's position's coefficients, sente's view (`features` gives the side to move's).
fn coefficients(record: &Record) -> Option<Vec<Entry>> {
    let pos = record.position();
    let sign = if pos.side_to_move() == Color::Sente {
        1
    } else {
        -1
    };
    features(&pos)
        .into_iter()
        .map(|(index, coef)| {
            Some(Entry {
                index: u16::try_from(index).ok()?,
                coef: i16::try_from(sign * coef).ok()?,
            })
        })
        .collect()
}

impl Dataset {
    /// No positions yet.
    pub(crate) fn new(family: Family) -> Dataset {
        Dataset {
            family,
            entries: Vec::new(),
            starts: vec![0],
            scores: Vec::new(),
            results: Vec::new(),
        }
    }

    /// Adds the records of `family` in `text` (the contents of the file `file`), computing
    /// their coefficients in parallel; reports the lines it skipped.
    pub(crate) fn add_text(&mut self, file: &str, text: &str, report: &mut ReadReport) {
        let lines: Vec<(usize, &str)> = text.lines().enumerate().collect();
        let family = self.family;
        let read: Vec<Line> = lines
            .par_iter()
            .map(|&(_, line)| read_line(family, line))
            .collect();
        for ((number, _), line) in lines.iter().zip(read) {
            match line {
                Line::Blank => {}
                Line::OtherFamily => report.other_family += 1,
                Line::Bad(message) => report.bad.push(BadLine {
                    file: file.to_string(),
                    line: number + 1,
                    message,
                }),
                Line::Position(entries, score, result) => {
                    self.entries.extend(entries);
                    self.starts.push(self.entries.len());
                    self.scores.push(score);
                    self.results.push(result);
                }
            }
        }
    }

    /// Reads data files (`variant;sfen;score;result` lines, see `record`).
    pub(crate) fn read_files(
        family: Family,
        paths: &[String],
    ) -> std::io::Result<(Dataset, ReadReport)> {
        let mut data = Dataset::new(family);
        let mut report = ReadReport::default();
        for path in paths {
            let text = crate::platform::read_text_capped(
                std::path::Path::new(path),
                crate::platform::caps::DATA,
                "training data file",
            )
            .map_err(|e| std::io::Error::new(e.kind(), format!("cannot read {path}: {e}")))?;
            data.add_text(path, &text, &mut report);
        }
        Ok((data, report))
    }

    /// The family the positions belong to.
    pub(crate) fn family(&self) -> Family {
        self.family
    }

    /// Number of positions.
    pub(crate) fn len(&self) -> usize {
        self.scores.len()
    }

    /// Position `p`'s coefficients.
    #[inline]
    pub(crate) fn entries(&self, p: usize) -> &[Entry] {
        &self.entries[self.starts[p]..self.starts[p + 1]]
    }

    /// Position `p`'s search score, centipawns from sente's view.
    #[inline]
    pub(crate) fn score(&self, p: usize) -> f64 {
        f64::from(self.scores[p])
    }

    /// Position `p`'s game result from sente's view: 1, 0.5 or 0.
    #[inline]
    pub(crate) fn result(&self, p: usize) -> f64 {
        f64::from(self.results[p])
    }

    /// Position `p`'s evaluation under `weights` (layout order), sente's view.
    #[inline]
    pub(crate) fn eval(&self, p: usize, weights: &[f64]) -> f64 {
        self.entries(p)
            .iter()
            .map(|e| weights[usize::from(e.index)] * f64::from(e.coef))
            .sum()
    }

    /// How often each parameter counts in `positions`: the sum of its coefficients' sizes
    /// (0 for a parameter they never use).
    pub(crate) fn occurrences(&self, positions: &[usize]) -> Vec<u64> {
        let mut counts = vec![0; Layout::of(self.family).len()];
        for &p in positions {
            for e in self.entries(p) {
                counts[usize::from(e.index)] += u64::from(e.coef.unsigned_abs());
            }
        }
        counts
    }
}
