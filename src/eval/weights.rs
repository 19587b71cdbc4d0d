//! The evaluation's weights as data: one set per family (Chu, Heian), read from the text files
//! `weights/chu.txt` and `weights/heian.txt` (compiled in, parsed once) and written back by the
//! tuner in the same format.
//!
//! ```text
//! # comments start with '#'
//! material.P 122
//! rank.P 0 0 0 0 0 0 0 0 44 44 44 44
//! ```
//!
//! One parameter per line: a name and its value, or a name and a table of values. Every name of
//! the family's [`Layout`] must appear exactly once, with the table's length.
//!
//! The parameters, from sente's view for sente's pieces (gote's count negated):
//! - per piece kind `X` (its SFEN letter, `+` for promoted kinds): `material.X`, the flat value
//!   of the piece (promotion potential included); `advance.X`, per rank the piece stands in
//!   front of its own back rank; `rank.X`, a table by that rank; `ring.X`, a table by
//!   centrality ring, 0 on the board's edge. The rank table has one entry per rank of the
//!   family's tallest board (12 in Chu, 9 in Heian). On the Heian boards 8 ranks high the
//!   table's middle entry (index 4) is skipped: ranks 0-3 read entries 0-3 and ranks 4-7 entries
//!   5-8, so the back ranks, the rank before the promotion zone and the zone (always the last
//!   three ranks) read the same entries on every board. `advance.X` counts the real rank, so a
//!   linear term means the same on every board;
//! - per royal: `shelter`, a table by the number of own pieces next to it (0-8);
//!   `enemies_near_royal`, a table by the number of enemy pieces within two squares (0-8, more
//!   counted as 8); in Chu `lion_near_royal`, when an enemy lion stands within two squares;
//!   in Heian `zone_attacked`, a table by the number of squares next to it that an enemy piece
//!   attacks (0-8), and `zone_attackers`, a table by the number of enemy pieces attacking
//!   those squares (0-4, more counted as 4);
//! - in Heian, per non-royal kind `X`, `guard.X` for each own piece of that kind and
//!   `attack.X` for each enemy piece of that kind within two squares of a royal: a table of
//!   `PROXIMITY_ENTRIES` by where the piece stands from the royal, seen from the piece's side
//!   (see [`proximity_index`]), so a gold beside its king and a gold in front of the enemy king
//!   are priced by the square, not only counted;
//! - in Chu `lion_facing_lion`, per own lion with an enemy lion within two squares when the
//!   other side is to move (it may trade first);
//! - `mobility.X` for each strong kind (not royal, worth at least `MOBILITY_MIN_MATERIAL` by the
//!   fixed `params::material`): per empty square next to the piece;
//! - in Heian, the pawns: `pawn_defended` per pawn that a friendly stepping or jumping piece
//!   (any but a lance) defends, `pawn_side_by_side` per pair of own pawns next to each other
//!   on a rank, `pawn_facing_to_move` per pair of pawns head to head, counted for the side to
//!   move (it takes first);
//! - `tempo`, for the side to move.

use super::material::material;
use crate::board::NUM_KINDS;
use crate::board::{Color, Family, Kind, Square, KINDS};
use std::fmt;
use std::sync::OnceLock;

/// Entries of the `shelter` table: 0 to 8 neighbours.
pub const SHELTER_COUNTS: usize = 9;
/// Entries of the `enemies_near_royal` table: 0 to 8 or more enemies within two squares.
pub const NEAR_ROYAL_COUNTS: usize = 9;
/// Entries of the `zone_attacked` table: 0 to 8 attacked squares next to a royal.
pub const ZONE_ATTACKED_COUNTS: usize = 9;
/// Entries of the `zone_attackers` table: 0 to 4 or more enemy pieces attacking them.
pub const ZONE_ATTACKER_COUNTS: usize = 5;

/// Entries of a `guard.X` or `attack.X` table: the 5x5 box around a royal, its two halves
/// folded onto one (3 files from the royal's, by 5 ranks).
pub const PROXIMITY_ENTRIES: usize = 15;

/// The `guard.X` / `attack.X` entry of a piece of `color` on `sq` near a royal on `royal`
/// (at most two squares away): by its distance in files (0-2) and by how many ranks the royal
/// stands ahead of it as `color` plays (-2 to 2).
#[inline]
pub fn proximity_index(color: Color, royal: Square, sq: Square) -> usize {
    let files = (i32::from(sq.col()) - i32::from(royal.col())).unsigned_abs() as usize;
    let behind = i32::from(sq.row()) - i32::from(royal.row());
    let ahead = match color {
        Color::Sente => behind,
        Color::Gote => -behind,
    };
    ((ahead + 2) as usize * 3 + files).min(PROXIMITY_ENTRIES - 1)
}

/// Kinds worth at least this (by `params::material`) have a mobility term.
pub const MOBILITY_MIN_MATERIAL: i32 = 450;

/// Whether `kind` has a mobility term: a strong piece, not a royal. Only these count, so an
/// evaluation's cost stays with the pieces whose freedom matters most.
pub fn is_strong(kind: Kind) -> bool {
    !kind.is_royal() && material(kind) >= MOBILITY_MIN_MATERIAL
}

/// Entries of a rank table: the ranks of the family's tallest board.
pub fn rank_count(family: Family) -> usize {
    family.descriptor().side
}

/// Entries of a ring table: centrality 0 (the edge) to the centre of the family's largest board.
pub fn ring_count(family: Family) -> usize {
    family.descriptor().side.div_ceil(2)
}

/// The rank-table entry of a piece `advanced` ranks in front of its back rank on a board
/// `height` ranks high (see the module doc for the boards 8 ranks high).
#[inline]
pub fn rank_index(height: u8, advanced: usize) -> usize {
    if height == 8 && advanced >= 4 {
        advanced + 1
    } else {
        advanced
    }
}

/// One named parameter or table: where its values start in the weight vector.
#[derive(Clone, Debug)]
pub struct Term {
    /// The name in a weights file.
    pub name: String,
    /// Index of its first value.
    pub offset: usize,
    /// Number of values (1 for a single number).
    pub len: usize,
}

const NONE: usize = usize::MAX;

/// The parameters of one family, in file order: every feature index of the evaluation.
#[derive(Clone, Debug)]
pub struct Layout {
    family: Family,
    terms: Vec<Term>,
    kind_base: [usize; NUM_KINDS],
    mobility: [usize; NUM_KINDS],
    proximity: [usize; NUM_KINDS],
    shelter: usize,
    near_royal: usize,
    lion_near_royal: usize,
    lion_facing_lion: usize,
    zone: usize,
    pawn: usize,
    tempo: usize,
    len: usize,
}

impl Layout {
    /// The layout of `family`'s parameters (built once).
    pub fn of(family: Family) -> &'static Layout {
        static LAYOUTS: OnceLock<[Layout; 2]> = OnceLock::new();
        let all = LAYOUTS.get_or_init(|| Family::ALL.map(Layout::build));
        &all[family.descriptor().index]
    }

    fn build(family: Family) -> Layout {
        let mut layout = Layout {
            family,
            terms: Vec::new(),
            kind_base: [NONE; NUM_KINDS],
            mobility: [NONE; NUM_KINDS],
            proximity: [NONE; NUM_KINDS],
            shelter: NONE,
            near_royal: NONE,
            lion_near_royal: NONE,
            lion_facing_lion: NONE,
            zone: NONE,
            pawn: NONE,
            tempo: NONE,
            len: 0,
        };
        let (ranks, rings) = (rank_count(family), ring_count(family));
        for &kind in Layout::kinds_of(family) {
            let letter = kind.letter();
            layout.kind_base[kind.index()] = layout.push(format!("material.{letter}"), 1);
            layout.push(format!("advance.{letter}"), 1);
            layout.push(format!("rank.{letter}"), ranks);
            layout.push(format!("ring.{letter}"), rings);
        }
        layout.shelter = layout.push("shelter".into(), SHELTER_COUNTS);
        layout.near_royal = layout.push("enemies_near_royal".into(), NEAR_ROYAL_COUNTS);
        if family == Family::Chu {
            layout.lion_near_royal = layout.push("lion_near_royal".into(), 1);
            layout.lion_facing_lion = layout.push("lion_facing_lion".into(), 1);
        }
        if family == Family::Heian {
            layout.zone = layout.push("zone_attacked".into(), ZONE_ATTACKED_COUNTS);
            layout.push("zone_attackers".into(), ZONE_ATTACKER_COUNTS);
            for &kind in Layout::kinds_of(family) {
                if !kind.is_royal() {
                    let letter = kind.letter();
                    layout.proximity[kind.index()] =
                        layout.push(format!("guard.{letter}"), PROXIMITY_ENTRIES);
                    layout.push(format!("attack.{letter}"), PROXIMITY_ENTRIES);
                }
            }
        }
        for &kind in Layout::kinds_of(family) {
            if is_strong(kind) {
                layout.mobility[kind.index()] =
                    layout.push(format!("mobility.{}", kind.letter()), 1);
            }
        }
        if family == Family::Heian {
            layout.pawn = layout.push("pawn_defended".into(), 1);
            layout.push("pawn_side_by_side".into(), 1);
            layout.push("pawn_facing_to_move".into(), 1);
        }
        layout.tempo = layout.push("tempo".into(), 1);
        layout
    }

    fn push(&mut self, name: String, len: usize) -> usize {
        let offset = self.len;
        self.terms.push(Term { name, offset, len });
        self.len += len;
        offset
    }

    /// The kinds of `family`, in [`KINDS`] order.
    pub fn kinds_of(family: Family) -> &'static [Kind] {
        let first = KINDS.iter().position(|k| k.family() == family).unwrap_or(0);
        let count = KINDS.iter().filter(|k| k.family() == family).count();
        &KINDS[first..first + count]
    }

    /// The family these parameters evaluate.
    pub fn family(&self) -> Family {
        self.family
    }

    /// Number of parameters.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no parameters (never, for a built layout).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The named terms, in file order.
    pub fn terms(&self) -> &[Term] {
        &self.terms
    }

    /// The name of parameter `index`, with its table entry: `rank.P[3]`.
    pub fn name_of(&self, index: usize) -> String {
        let term = self
            .terms
            .iter()
            .find(|t| (t.offset..t.offset + t.len).contains(&index))
            .expect("index within the layout");
        if term.len == 1 {
            term.name.clone()
        } else {
            format!("{}[{}]", term.name, index - term.offset)
        }
    }

    /// `material.X` of `kind`.
    #[inline]
    pub fn material(&self, kind: Kind) -> usize {
        self.kind_base[kind.index()]
    }

    /// `advance.X` of `kind`.
    #[inline]
    pub fn advance(&self, kind: Kind) -> usize {
        self.kind_base[kind.index()] + 1
    }

    /// Entry `rank` of `rank.X` of `kind`.
    #[inline]
    pub fn rank(&self, kind: Kind, rank: usize) -> usize {
        self.kind_base[kind.index()] + 2 + rank
    }

    /// Entry `ring` of `ring.X` of `kind`.
    #[inline]
    pub fn ring(&self, kind: Kind, ring: usize) -> usize {
        self.kind_base[kind.index()] + 2 + rank_count(self.family) + ring
    }

    /// `mobility.X` of a strong `kind` (see [`is_strong`]); `None` for the others.
    #[inline]
    pub fn mobility(&self, kind: Kind) -> Option<usize> {
        let index = self.mobility[kind.index()];
        (index != NONE).then_some(index)
    }

    /// Entry `count` of `shelter`.
    #[inline]
    pub fn shelter(&self, count: usize) -> usize {
        self.shelter + count
    }

    /// Entry `count` of `enemies_near_royal`.
    #[inline]
    pub fn enemies_near_royal(&self, count: usize) -> usize {
        self.near_royal + count
    }

    /// `lion_near_royal` (Chu only).
    pub fn lion_near_royal(&self) -> Option<usize> {
        (self.lion_near_royal != NONE).then_some(self.lion_near_royal)
    }

    /// `lion_facing_lion` (Chu only).
    pub fn lion_facing_lion(&self) -> Option<usize> {
        (self.lion_facing_lion != NONE).then_some(self.lion_facing_lion)
    }

    /// The first entries of `zone_attacked` and of `zone_attackers` (Heian only).
    pub fn zone_terms(&self) -> Option<[usize; 2]> {
        (self.zone != NONE).then(|| [self.zone, self.zone + ZONE_ATTACKED_COUNTS])
    }

    /// The first entries of `guard.X` and of `attack.X` of `kind` (Heian, non-royal kinds).
    #[inline]
    pub fn proximity(&self, kind: Kind) -> Option<[usize; 2]> {
        let base = self.proximity[kind.index()];
        (base != NONE).then(|| [base, base + PROXIMITY_ENTRIES])
    }

    /// `pawn_defended`, `pawn_side_by_side` and `pawn_facing_to_move` (Heian only).
    pub fn pawn_terms(&self) -> Option<[usize; 3]> {
        (self.pawn != NONE).then(|| [self.pawn, self.pawn + 1, self.pawn + 2])
    }

    /// `tempo`.
    #[inline]
    pub fn tempo(&self) -> usize {
        self.tempo
    }
}

/// The block of a weights file a parameter is written in: a kind's piece-square terms, the
/// mobility terms, the royal terms, the pawn terms, the tempo.
fn section_of(name: &str) -> &str {
    match name.split_once('.') {
        Some(("mobility", _)) => "mobility",
        Some(("guard" | "attack", _)) => "proximity",
        Some((_, kind)) => kind,
        None if name.starts_with("pawn_") => "pawn",
        None if name == "tempo" => "tempo",
        None => "royal",
    }
}

/// Why a weights file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsError {
    /// The line (1-based) at fault; `None` when the file lacks a parameter.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.message),
            None => write!(f, "{}", self.message),
        }
    }
}

impl std::error::Error for WeightsError {}

/// A full set of weights of one family, indexed by its [`Layout`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    family: Family,
    values: Vec<i32>,
}

impl Weights {
    /// All parameters of `family` at zero.
    pub fn zero(family: Family) -> Weights {
        Weights {
            family,
            values: vec![0; Layout::of(family).len()],
        }
    }

    /// The weights compiled into the engine (`src/eval/weights/*.txt`).
    pub fn embedded(family: Family) -> &'static Weights {
        static EMBEDDED: OnceLock<[Weights; 2]> = OnceLock::new();
        let all = EMBEDDED.get_or_init(|| {
            let read = |family, name, text| {
                Weights::parse(family, text)
                    .unwrap_or_else(|e| panic!("src/eval/weights/{name}: {e}"))
            };
            [
                read(Family::Chu, "chu.txt", include_str!("weights/chu.txt")),
                read(
                    Family::Heian,
                    "heian.txt",
                    include_str!("weights/heian.txt"),
                ),
            ]
        });
        &all[family.descriptor().index]
    }

    /// Builds weights from values in layout order; `None` if the count is wrong.
    pub fn from_values(family: Family, values: Vec<i32>) -> Option<Weights> {
        (values.len() == Layout::of(family).len()).then_some(Weights { family, values })
    }

    /// Reads a weights file of `family`.
    pub fn parse(family: Family, text: &str) -> Result<Weights, WeightsError> {
        let layout = Layout::of(family);
        let mut values = vec![0; layout.len()];
        let mut seen = vec![false; layout.terms().len()];
        for (i, raw) in text.lines().enumerate() {
            let err = |message: String| WeightsError {
                line: Some(i + 1),
                message,
            };
            let line = raw.split('#').next().unwrap_or("").trim();
            let mut fields = line.split_whitespace();
            let Some(name) = fields.next() else {
                continue;
            };
            let Some(t) = layout.terms().iter().position(|t| t.name == name) else {
                return Err(err(format!("unknown parameter '{name}'")));
            };
            if seen[t] {
                return Err(err(format!("'{name}' given twice")));
            }
            seen[t] = true;
            let term = &layout.terms()[t];
            let numbers = fields
                .map(|f| {
                    f.parse::<i32>()
                        .map_err(|_| err(format!("'{f}' is not a whole number")))
                })
                .collect::<Result<Vec<i32>, _>>()?;
            if numbers.len() != term.len {
                return Err(err(format!(
                    "'{name}' needs {} value{}, found {}",
                    term.len,
                    if term.len == 1 { "" } else { "s" },
                    numbers.len()
                )));
            }
            values[term.offset..term.offset + term.len].copy_from_slice(&numbers);
        }
        if let Some(t) = seen.iter().position(|s| !s) {
            return Err(WeightsError {
                line: None,
                message: format!("missing parameter '{}'", layout.terms()[t].name),
            });
        }
        Ok(Weights { family, values })
    }

    /// The file text of these weights, after `header` (each of its lines becomes a comment).
    pub fn to_text(&self, header: &str) -> String {
        let mut out = String::new();
        for line in header.lines() {
            out.push_str(if line.is_empty() { "#" } else { "# " });
            out.push_str(line);
            out.push('\n');
        }
        let mut last_section = "";
        for term in self.layout().terms() {
            let section = section_of(&term.name);
            if section != last_section {
                out.push('\n');
                last_section = section;
            }
            out.push_str(&term.name);
            for v in &self.values[term.offset..term.offset + term.len] {
                out.push(' ');
                out.push_str(&v.to_string());
            }
            out.push('\n');
        }
        out
    }

    /// The family these weights evaluate.
    pub fn family(&self) -> Family {
        self.family
    }

    /// Their layout.
    pub fn layout(&self) -> &'static Layout {
        Layout::of(self.family)
    }

    /// Every value, in layout order.
    pub fn values(&self) -> &[i32] {
        &self.values
    }

    /// Parameter `index`.
    #[inline]
    pub fn get(&self, index: usize) -> i32 {
        self.values[index]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proximity_entries_are_seen_from_the_pieces_side() {
        let royal = Square::from_coords(4, 4);
        let at = |dc: i8, dr: i8| royal.offset(dc, dr).unwrap();
        // Rows grow towards sente's side: a sente piece on a larger row has the royal ahead.
        assert_eq!(proximity_index(Color::Sente, royal, at(0, 2)), 12);
        assert_eq!(proximity_index(Color::Gote, royal, at(0, -2)), 12);
        assert_eq!(proximity_index(Color::Sente, royal, at(0, -2)), 0);
        assert_eq!(proximity_index(Color::Sente, royal, at(-1, -1)), 4);
        assert_eq!(proximity_index(Color::Sente, royal, at(2, 0)), 8);
        let mut seen = [false; PROXIMITY_ENTRIES];
        for dc in -2..=2 {
            for dr in -2..=2 {
                let sente = proximity_index(Color::Sente, royal, at(dc, dr));
                assert_eq!(sente, proximity_index(Color::Sente, royal, at(-dc, dr)));
                assert_eq!(sente, proximity_index(Color::Gote, royal, at(dc, -dr)));
                seen[sente] = true;
            }
        }
        assert!(seen.iter().all(|&s| s), "every entry is some square's");
    }

    #[test]
    fn the_embedded_weights_load() {
        for family in Family::ALL {
            let w = Weights::embedded(family);
            let layout = Layout::of(family);
            assert_eq!(w.values().len(), layout.len());
            // Read from the file, not zeros: each kind's material is the number on its line of
            // the file (a tuned value may be 0 or even negative, as the Chu pawn's is).
            let text = match family {
                Family::Chu => include_str!("weights/chu.txt"),
                Family::Heian => include_str!("weights/heian.txt"),
            };
            for &kind in Layout::kinds_of(family) {
                let name = layout.name_of(layout.material(kind));
                let in_file: i32 = text
                    .lines()
                    .find_map(|line| line.strip_prefix(&format!("{name} ")))
                    .unwrap_or_else(|| panic!("{name} missing"))
                    .trim()
                    .parse()
                    .expect("a number");
                assert_eq!(w.get(layout.material(kind)), in_file, "{name}");
            }
            let kinds = Layout::kinds_of(family);
            assert!(kinds.iter().any(|&k| w.get(layout.material(k)) != 0));
        }
    }

    #[test]
    fn written_weights_read_back_the_same() {
        for family in Family::ALL {
            let values = (0..Layout::of(family).len() as i32)
                .map(|i| i * 7 - 300)
                .collect();
            let w = Weights::from_values(family, values).unwrap();
            let text = w.to_text("test header\n\nsecond line");
            assert_eq!(Weights::parse(family, &text), Ok(w));
        }
    }

    #[test]
    fn errors_name_the_line() {
        let text = Weights::embedded(Family::Heian).to_text("");
        let broken = text.replacen("tempo ", "tempo x", 1);
        let line = broken.lines().position(|l| l.starts_with("tempo")).unwrap() + 1;
        let e = Weights::parse(Family::Heian, &broken).unwrap_err();
        assert_eq!(e.line, Some(line));
        assert!(e.to_string().starts_with(&format!("line {line}: ")), "{e}");

        let e = Weights::parse(Family::Heian, &format!("{text}\nmaterial.Q 5")).unwrap_err();
        assert!(e.message.contains("unknown parameter 'material.Q'"), "{e}");
        let e = Weights::parse(Family::Heian, &format!("{text}\ntempo 5")).unwrap_err();
        assert!(e.message.contains("twice"), "{e}");
        // The shelter table with its last value dropped, whatever the values are.
        let short: String = text
            .lines()
            .map(|l| match l.strip_prefix("shelter ") {
                Some(values) => format!("shelter {}\n", values.rsplit_once(' ').unwrap().0),
                None => format!("{l}\n"),
            })
            .collect();
        let e = Weights::parse(Family::Heian, &short).unwrap_err();
        assert!(e.message.contains("needs 9 values, found 8"), "{e}");
        let missing: String = text
            .lines()
            .filter(|l| !l.starts_with("tempo"))
            .map(|l| format!("{l}\n"))
            .collect();
        let e = Weights::parse(Family::Heian, &missing).unwrap_err();
        assert_eq!(e.line, None);
        assert!(e.message.contains("missing parameter 'tempo'"), "{e}");
    }
}
