//! Training positions as the network sees them: each position's active inputs from the side
//! to move's view and the other side's, its search score and the game's result (both from the
//! side to move's view). Read from the text records `datagen` writes, in parallel.

use crate::board::{Color, Family};
use crate::eval::hand_crafted::{evaluate, psq_total};
use crate::eval::nnue::features::{feature, mirrored, royal_zone};
use crate::position::Position;
use crate::training::record::Result01;
use rayon::prelude::*;

/// Positions of one family, packed.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// Inputs of every position: the mover's view, then the other's (the same count each).
    inputs: Vec<u16>,
    /// Where each position's inputs start in `inputs`; one more entry than positions.
    starts: Vec<u32>,
    /// Search scores, the mover's view, in evaluation units.
    scores: Vec<i16>,
    /// Results, the mover's view: 0 lost, 1 drawn, 2 won.
    results: Vec<u8>,
    /// The zones of the mover's royal and the other side's, each as its side sees the board
    /// (see [`royal_zone`]), two a position.
    zones: Vec<u8>,
    /// The hand-crafted evaluation, the mover's view, when kept (else empty).
    bases: Vec<i16>,
}

/// How records become samples.
#[derive(Clone, Copy, Debug, Default)]
pub struct Reading {
    /// Follow each position by its left-right reflection (see [`mirrored`]).
    pub mirror: bool,
    /// Keep each position's hand-crafted evaluation, for a net that corrects it (a reflection
    /// gets its position's).
    pub hand_crafted: bool,
}

/// A line that is not a usable record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SampleError {
    /// 1-based line number in its file.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

/// One parsed position.
struct Parsed {
    us: Vec<u16>,
    them: Vec<u16>,
    zones: [u8; 2],
    score: i16,
    result: u8,
    base: Option<i16>,
}

fn saturate(x: i32) -> i16 {
    x.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16
}

fn parse_line(family: Family, line: &str, how: Reading) -> Result<Option<[Parsed; 2]>, String> {
    let t = line.trim();
    if t.is_empty() || t.starts_with('#') {
        return Ok(None);
    }
    let fields: Vec<&str> = t.split(';').collect();
    let [variant, sfen, score, result] = fields[..] else {
        return Err(format!("{} fields, a record has 4", fields.len()));
    };
    let variant = crate::board::Variant::from_name(variant)
        .ok_or_else(|| format!("unknown variant '{variant}'"))?;
    if variant.family() != family {
        return Ok(None);
    }
    let pos = Position::from_sfen(variant, sfen).map_err(|e| e.to_string())?;
    let score: i32 = score.parse().map_err(|_| format!("bad score '{score}'"))?;
    let result = match result {
        "0" | "0.0" => Result01::GoteWon,
        "0.5" => Result01::Draw,
        "1" | "1.0" => Result01::SenteWon,
        _ => return Err(format!("bad result '{result}'")),
    };
    let mover = pos.side_to_move();
    let flip = mover == Color::Gote;
    let score = if flip { score.saturating_neg() } else { score };
    let won = (result.value() * 2.0) as u8;
    let view = |viewer: Color, reflect: bool| -> Vec<u16> {
        pos.occupied()
            .iter()
            .map(|sq| {
                let at = if reflect { mirrored(variant, sq) } else { sq };
                feature(variant, viewer, pos.piece_at(sq), at) as u16
            })
            .collect()
    };
    let base = how
        .hand_crafted
        .then(|| saturate(evaluate(&pos, psq_total(&pos))));
    let parsed = |reflect: bool| Parsed {
        us: view(mover, reflect),
        them: view(!mover, reflect),
        zones: [
            royal_zone(&pos, mover, reflect) as u8,
            royal_zone(&pos, !mover, reflect) as u8,
        ],
        score: saturate(score),
        result: if flip { 2 - won } else { won },
        base,
    };
    Ok(Some([parsed(false), parsed(how.mirror)]))
}

impl Samples {
    /// Reads every record of `family` in `text` (records of the other family are skipped);
    /// the first bad line is an error. With `mirror`, each position is followed by its
    /// reflection (see [`mirrored`]).
    pub fn parse(family: Family, text: &str, mirror: bool) -> Result<Samples, SampleError> {
        Samples::read(
            family,
            text,
            Reading {
                mirror,
                hand_crafted: false,
            },
        )
    }

    /// Reads every record of `family` in `text` as [`parse`](Self::parse) does, the way `how`
    /// says.
    pub fn read(family: Family, text: &str, how: Reading) -> Result<Samples, SampleError> {
        let lines: Vec<&str> = text.lines().collect();
        let parsed: Vec<Result<Option<[Parsed; 2]>, SampleError>> = lines
            .par_iter()
            .enumerate()
            .map(|(i, line)| {
                parse_line(family, line, how).map_err(|reason| SampleError {
                    line: i + 1,
                    reason,
                })
            })
            .collect();
        let mut samples = Samples::default();
        samples.starts.push(0);
        for p in parsed {
            if let Some([p, reflected]) = p? {
                samples.push(&p.us, &p.them, p.zones, p.score, p.result, p.base);
                if how.mirror {
                    let r = &reflected;
                    samples.push(&r.us, &r.them, r.zones, p.score, p.result, p.base);
                }
            }
        }
        Ok(samples)
    }

    /// Reads the training positions of every game of `family` in packed data (see
    /// [`packed`](crate::training::packed)), the way `how` says; games are replayed in parallel.
    pub fn parse_packed(family: Family, bytes: &[u8], how: Reading) -> Result<Samples, String> {
        let games = crate::training::packed::scan(bytes, false).map_err(|e| e.to_string())?;
        let lines: Vec<Result<Vec<String>, String>> = games
            .games
            .par_iter()
            .filter(|g| g.variant.family() == family)
            .map(|g| {
                g.records()
                    .map(|records| records.iter().map(|r| r.to_string()).collect())
                    .map_err(|e| format!("game {}: {e}", g.number))
            })
            .collect();
        let mut text = String::new();
        for game in lines {
            for line in game? {
                text.push_str(&line);
                text.push('\n');
            }
        }
        Samples::read(family, &text, how).map_err(|e| e.reason)
    }

    fn push(
        &mut self,
        us: &[u16],
        them: &[u16],
        zones: [u8; 2],
        score: i16,
        result: u8,
        base: Option<i16>,
    ) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        self.inputs.extend_from_slice(us);
        self.inputs.extend_from_slice(them);
        self.zones.extend_from_slice(&zones);
        self.starts.push(self.inputs.len() as u32);
        self.scores.push(score);
        self.results.push(result);
        self.bases.extend(base);
    }

    /// Position `i` pushed onto `out`.
    fn copy_to(&self, i: usize, out: &mut Samples) {
        let (us, them) = self.inputs(i);
        let base = self.bases.get(i).copied();
        out.push(
            us,
            them,
            self.zones(i),
            self.scores[i],
            self.results[i],
            base,
        );
    }

    /// Appends `other`'s positions.
    pub fn extend(&mut self, other: &Samples) {
        for i in 0..other.len() {
            other.copy_to(i, self);
        }
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.scores.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.scores.is_empty()
    }

    /// Position `i`'s inputs: the mover's view and the other side's.
    pub fn inputs(&self, i: usize) -> (&[u16], &[u16]) {
        let all = &self.inputs[self.starts[i] as usize..self.starts[i + 1] as usize];
        all.split_at(all.len() / 2)
    }

    /// Position `i`'s royal zones: the mover's royal's, then the other side's.
    pub fn zones(&self, i: usize) -> [u8; 2] {
        [self.zones[2 * i], self.zones[2 * i + 1]]
    }

    /// Position `i`'s search score, the mover's view.
    pub fn score(&self, i: usize) -> f32 {
        f32::from(self.scores[i])
    }

    /// Position `i`'s result, the mover's view: 0, 0.5 or 1.
    pub fn result(&self, i: usize) -> f32 {
        f32::from(self.results[i]) / 2.0
    }

    /// Position `i`'s hand-crafted evaluation, the mover's view, if the samples keep it.
    pub fn hand_crafted(&self, i: usize) -> Option<f32> {
        self.bases.get(i).map(|&b| f32::from(b))
    }

    /// Positions `range` as a new set.
    pub fn slice(&self, range: std::ops::Range<usize>) -> Samples {
        let mut out = Samples::default();
        out.starts.push(0);
        for i in range {
            self.copy_to(i, &mut out);
        }
        out
    }
}
