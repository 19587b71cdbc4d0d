//! Precomputed attack tables, built once on the 12x12 grid and shared by every variant (a Heian
//! board masks out the squares it does not have).
//!
//! Leapers (steps, jumps, and the single moves of lion power) come from a table indexed by kind,
//! colour and square. Sliders use the classical ray method: for each direction, the ray from the
//! square; the first blocker is the lowest or highest set bit of `ray & occupied`, and the ray
//! behind that blocker is removed with one XOR. Off-board squares are passed in as occupied, so a
//! slider on a small board stops at its edge.

use crate::board::piece::{absolute_dirs, KindInfo, JUMP_DIAG2, JUMP_KNIGHT, JUMP_ORTH2};
use crate::board::{Bitboard, Color, Direction, Kind, LionPower, Square, DIRECTIONS, KINDS};
use std::sync::LazyLock;

/// The attack tables of every kind, colour and square; one shared instance, from [`tables`].
pub struct Tables {
    leaper: Vec<[[Bitboard; 144]; 2]>,
    slide_dirs: Vec<[u8; 2]>,
    /// Leaper squares and whole rays on an empty grid: every square the piece could ever reach
    /// from a square in one move.
    reach: Vec<[[Bitboard; 144]; 2]>,
    /// First squares of each lion-power line (all neighbours for a Lion).
    lion_first: Vec<[[Bitboard; 144]; 2]>,
    rays: [[Bitboard; 144]; 8],
    neighbours: [Bitboard; 144],
    /// The 5x5 box around each square without the square: every square a step, jump or
    /// lion-power move reaches from it.
    within_two: [Bitboard; 144],
}

static TABLES: LazyLock<Tables> = LazyLock::new(Tables::build);

/// The shared tables, built on first use.
#[inline]
pub fn tables() -> &'static Tables {
    &TABLES
}

fn add(bb: &mut Bitboard, sq: Square, dc: i8, dr: i8) {
    if let Some(t) = sq.offset(dc, dr) {
        bb.set(t);
    }
}

/// The squares a piece of `info`'s kind and `color` reaches from `sq` by steps, jumps and
/// lion-power single moves, and the first steps of its lion double moves.
fn leaps_from(
    info: &KindInfo,
    color: Color,
    sq: Square,
    neighbours: &[Bitboard; 144],
) -> (Bitboard, Bitboard) {
    let mut bb = Bitboard::EMPTY;
    let mut first = Bitboard::EMPTY;
    let steps = absolute_dirs(info.steps, color);
    let forward: i8 = if color == Color::Sente { -1 } else { 1 };
    for (d, &(dc, dr)) in DIRECTIONS.iter().enumerate() {
        if steps >> d & 1 != 0 {
            add(&mut bb, sq, dc, dr);
        }
    }
    if info.jumps & JUMP_ORTH2 != 0 {
        for (dc, dr) in [(0, 2), (0, -2), (2, 0), (-2, 0)] {
            add(&mut bb, sq, dc, dr);
        }
    }
    if info.jumps & JUMP_DIAG2 != 0 {
        for (dc, dr) in [(2, 2), (2, -2), (-2, 2), (-2, -2)] {
            add(&mut bb, sq, dc, dr);
        }
    }
    if info.jumps & JUMP_KNIGHT != 0 {
        add(&mut bb, sq, 1, 2 * forward);
        add(&mut bb, sq, -1, 2 * forward);
    }
    match info.lion {
        LionPower::None => {}
        LionPower::Full => {
            bb |= within_two_of(sq);
            first = neighbours[sq.index()];
        }
        LionPower::Lines(mask) => {
            let lines = absolute_dirs(mask, color);
            for (d, &(dc, dr)) in DIRECTIONS.iter().enumerate() {
                if lines >> d & 1 != 0 {
                    add(&mut bb, sq, dc, dr);
                    add(&mut bb, sq, 2 * dc, 2 * dr);
                    add(&mut first, sq, dc, dr);
                }
            }
        }
    }
    (bb, first)
}

/// Every square within two steps of `sq`, `sq` itself left out.
fn within_two_of(sq: Square) -> Bitboard {
    let mut bb = Bitboard::EMPTY;
    for dc in -2..=2 {
        for dr in -2..=2 {
            if (dc, dr) != (0, 0) {
                add(&mut bb, sq, dc, dr);
            }
        }
    }
    bb
}

impl Tables {
    fn build() -> Tables {
        let mut rays = [[Bitboard::EMPTY; 144]; 8];
        let mut neighbours = [Bitboard::EMPTY; 144];
        let mut within_two = [Bitboard::EMPTY; 144];
        for sq in Square::all() {
            for (d, &(dc, dr)) in DIRECTIONS.iter().enumerate() {
                let mut cur = sq;
                while let Some(next) = cur.offset(dc, dr) {
                    rays[d][sq.index()].set(next);
                    cur = next;
                }
                add(&mut neighbours[sq.index()], sq, dc, dr);
            }
            within_two[sq.index()] = within_two_of(sq);
        }
        let mut leaper = Vec::new();
        let mut slide_dirs = Vec::new();
        let mut lion_first = Vec::new();
        let mut reach = Vec::new();
        for &kind in KINDS {
            let info = kind.info();
            let mut per_color = [[Bitboard::EMPTY; 144]; 2];
            let mut first = [[Bitboard::EMPTY; 144]; 2];
            let mut dirs = [0u8; 2];
            let mut whole = [[Bitboard::EMPTY; 144]; 2];
            for color in Color::BOTH {
                let c = color.index();
                dirs[c] = absolute_dirs(info.slides, color);
                for sq in Square::all() {
                    let (bb, lion_first_steps) = leaps_from(info, color, sq, &neighbours);
                    per_color[c][sq.index()] = bb;
                    first[c][sq.index()] = lion_first_steps;
                    whole[c][sq.index()] = (0..8)
                        .filter(|d| dirs[c] >> d & 1 != 0)
                        .fold(bb, |acc, d| acc | rays[d][sq.index()]);
                }
            }
            leaper.push(per_color);
            reach.push(whole);
            slide_dirs.push(dirs);
            lion_first.push(first);
        }
        Tables {
            leaper,
            slide_dirs,
            reach,
            lion_first,
            rays,
            neighbours,
            within_two,
        }
    }

    /// Squares a piece reaches by steps, jumps and lion-power single moves, on the 12x12 grid.
    #[inline]
    pub fn leaper(&self, kind: Kind, color: Color, sq: Square) -> Bitboard {
        self.leaper[kind.index()][color.index()][sq.index()]
    }

    /// Every square the piece could reach from `sq` in one move on an empty grid: a superset of
    /// its attacks on any board.
    #[inline]
    pub fn reach(&self, kind: Kind, color: Color, sq: Square) -> Bitboard {
        self.reach[kind.index()][color.index()][sq.index()]
    }

    /// Absolute directions the piece slides in.
    #[inline]
    pub fn slide_dirs(&self, kind: Kind, color: Color) -> u8 {
        self.slide_dirs[kind.index()][color.index()]
    }

    /// The first squares of the piece's lion-power lines (empty for pieces without lion power).
    #[inline]
    pub fn lion_first(&self, kind: Kind, color: Color, sq: Square) -> Bitboard {
        self.lion_first[kind.index()][color.index()][sq.index()]
    }

    /// The up to eight squares one king step from `sq`.
    #[inline]
    pub fn neighbours(&self, sq: Square) -> Bitboard {
        self.neighbours[sq.index()]
    }

    /// Squares at most two king steps from `sq`, `sq` itself excluded: where every leaper
    /// attacking `sq` stands.
    #[inline]
    pub fn within_two(&self, sq: Square) -> Bitboard {
        self.within_two[sq.index()]
    }

    /// Every grid square from `sq` (excluded) to the grid edge along direction `dir` (an index
    /// into [`DIRECTIONS`]), ignoring blockers.
    #[inline]
    pub fn ray(&self, dir: usize, sq: Square) -> Bitboard {
        self.rays[dir][sq.index()]
    }

    /// Squares reached sliding from `sq` along one direction, up to and including the first
    /// occupied square.
    #[inline]
    pub fn ray_attacks(&self, dir: usize, sq: Square, occupied: Bitboard) -> Bitboard {
        let ray = self.rays[dir][sq.index()];
        match self.first_blocker(dir, sq, occupied) {
            Some(first) => ray ^ self.rays[dir][first.index()],
            None => ray,
        }
    }

    /// The first square of `occupied` sliding from `sq` along one direction, if any.
    #[inline]
    pub fn first_blocker(&self, dir: usize, sq: Square, occupied: Bitboard) -> Option<Square> {
        let blockers = self.rays[dir][sq.index()] & occupied;
        if blockers.is_empty() {
            return None;
        }
        Some(if Direction(dir as u8).is_increasing() {
            blockers.lowest()
        } else {
            blockers.highest()
        })
    }

    /// Union of the rays of every direction in `dirs`.
    #[inline]
    pub fn slides(&self, dirs: u8, sq: Square, occupied: Bitboard) -> Bitboard {
        let mut acc = Bitboard::EMPTY;
        let mut d = dirs;
        while d != 0 {
            let dir = d.trailing_zeros() as usize;
            d &= d - 1;
            acc |= self.ray_attacks(dir, sq, occupied);
        }
        acc
    }

    /// Every square `kind` of `color` on `sq` attacks, given `occupied` (walls included).
    #[inline]
    pub fn attacks(&self, kind: Kind, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
        let dirs = self.slide_dirs(kind, color);
        let mut bb = self.leaper(kind, color, sq);
        if dirs != 0 {
            bb |= self.slides(dirs, sq, occupied);
        }
        bb
    }
}
