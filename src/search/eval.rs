//! Static evaluation for Chu and Heian Shogi.
//!
//! Two parts. The piece-square part (per piece kind: material, advancement, a table by rank, a
//! table by centrality ring) is a sum over pieces, so the search keeps it incrementally:
//! `psq_delta` gives its change for a move before it is played. The dynamic part (royal shelter,
//! an enemy lion within reach of a royal, lion facing lion, mobility-lite per kind) is computed
//! at each evaluation from bitboards. Every weight comes from the family's `Weights` (the text
//! files in `weights/`); the tables here are built from them once. Move ordering and pruning do
//! not use these weights: they value pieces by the fixed `params::material`.

use super::params as p;
use super::weights::{rank_index, Layout, Weights, SHELTER_COUNTS};
use crate::board::attacks::tables;
use crate::board::{Color, Kind, Piece, Square, Variant};
use crate::moves::Move;
use crate::position::Position;
use std::sync::OnceLock;

/// What the evaluation of one variant reads, built from its family's weights. Piece-square
/// values are signed from sente's view, indexed `[piece code][square]`.
struct EvalTables {
    psq: Vec<[i32; 144]>,
    /// Kinds with a nonzero mobility weight, and the weight.
    mobility: Vec<(Kind, i32)>,
    shelter: [i32; SHELTER_COUNTS],
    lion_near_royal: i32,
    lion_facing_lion: i32,
    tempo: i32,
}

fn variant_tables(variant: Variant) -> &'static EvalTables {
    static TABLES: OnceLock<Vec<EvalTables>> = OnceLock::new();
    let all = TABLES.get_or_init(|| {
        Variant::ALL
            .iter()
            .map(|&v| EvalTables::new(v, Weights::embedded(v.family())))
            .collect()
    });
    &all[Variant::ALL.iter().position(|&v| v == variant).unwrap_or(0)]
}

impl EvalTables {
    fn new(variant: Variant, weights: &Weights) -> EvalTables {
        let layout = weights.layout();
        let mut psq = vec![[0i32; 144]; 128];
        for &kind in Layout::kinds_of(variant.family()) {
            for color in Color::BOTH {
                let code = Piece::new(color, kind).code();
                for sq in Square::all() {
                    if !variant.board().has(sq) {
                        continue;
                    }
                    let v = piece_square_value(weights, variant, color, kind, sq);
                    psq[code][sq.index()] = if color == Color::Sente { v } else { -v };
                }
            }
        }
        let mobility = Layout::kinds_of(variant.family())
            .iter()
            .filter(|k| !k.is_royal())
            .map(|&k| (k, weights.get(layout.mobility(k))))
            .filter(|&(_, w)| w != 0)
            .collect();
        let optional = |index: Option<usize>| index.map_or(0, |i| weights.get(i));
        EvalTables {
            psq,
            mobility,
            shelter: std::array::from_fn(|n| weights.get(layout.shelter(n))),
            lion_near_royal: optional(layout.lion_near_royal()),
            lion_facing_lion: optional(layout.lion_facing_lion()),
            tempo: weights.get(layout.tempo()),
        }
    }
}

/// Ranks `sq` is in front of `color`'s back rank.
fn advancement(variant: Variant, color: Color, sq: Square) -> usize {
    let row = sq.row() as usize;
    match color {
        Color::Sente => variant.height() as usize - 1 - row,
        Color::Gote => row,
    }
}

/// How many steps `sq` is from the outermost ring (0 on the edge).
fn centrality(variant: Variant, sq: Square) -> usize {
    let (w, h) = (variant.width() as i32, variant.height() as i32);
    let dc = (2 * sq.col() as i32 - (w - 1)).abs();
    let dr = (2 * sq.row() as i32 - (h - 1)).abs();
    let from_centre = dc.max(dr) / 2;
    ((w.max(h) - 1) / 2 - from_centre) as usize
}

/// The parameters a `kind` of `color` on `sq` adds up, with their coefficients (sente's view
/// for a sente piece): material, advancement, its rank entry, its ring entry.
fn piece_square_terms(
    layout: &Layout,
    variant: Variant,
    color: Color,
    kind: Kind,
    sq: Square,
) -> [(usize, i32); 4] {
    let advanced = advancement(variant, color, sq);
    [
        (layout.material(kind), 1),
        (layout.advance(kind), advanced as i32),
        (layout.rank(kind, rank_index(variant.height(), advanced)), 1),
        (layout.ring(kind, centrality(variant, sq)), 1),
    ]
}

fn piece_square_value(
    weights: &Weights,
    variant: Variant,
    color: Color,
    kind: Kind,
    sq: Square,
) -> i32 {
    piece_square_terms(weights.layout(), variant, color, kind, sq)
        .iter()
        .map(|&(i, c)| weights.get(i) * c)
        .sum()
}

/// The piece-square sum of `pos` from sente's view, computed from scratch.
pub fn psq_total(pos: &Position) -> i32 {
    let t = variant_tables(pos.variant());
    pos.occupied()
        .iter()
        .map(|sq| t.psq[pos.piece_at(sq).code()][sq.index()])
        .sum()
}

/// The change of the piece-square sum (sente's view) that playing `mv` in `pos` makes.
#[inline]
pub fn psq_delta(pos: &Position, mv: Move) -> i32 {
    if mv.is_pass() {
        return 0;
    }
    let t = variant_tables(pos.variant());
    let (from, to) = (mv.from(), mv.to());
    let moved = pos.piece_at(from);
    let placed = match (mv.is_promotion(), moved.kind().promotes_to()) {
        (true, Some(k)) => Piece::new(moved.color(), k),
        _ => moved,
    };
    let mut delta = t.psq[placed.code()][to.index()] - t.psq[moved.code()][from.index()];
    if to != from {
        let target = pos.piece_at(to);
        if target.is_some() {
            delta -= t.psq[target.code()][to.index()];
        }
    }
    if let Some(mid) = mv.mid() {
        delta -= t.psq[pos.piece_at(mid).code()][mid.index()];
    }
    delta
}

/// The material a move captures (both victims of a lion double move), for move ordering.
#[inline]
pub fn captured_value(pos: &Position, mv: Move) -> i32 {
    if mv.is_pass() {
        return 0;
    }
    let mut value = 0;
    if mv.to() != mv.from() {
        let target = pos.piece_at(mv.to());
        if target.is_some() {
            value += victim_value(target.kind());
        }
    }
    if let Some(mid) = mv.mid() {
        value += victim_value(pos.piece_at(mid).kind());
    }
    value
}

/// Whether capturing with `mv` (winning `gain`, its `captured_value`) gives away more than it
/// takes: the capturer is worth more than its victims and the square is defended. A cheap
/// stand-in for a static exchange evaluation that keeps the quiescence search to captures that
/// can pay and orders the others last.
pub fn loses_material(pos: &Position, mv: Move, gain: i32) -> bool {
    let mover = victim_value(pos.piece_at(mv.from()).kind());
    if gain >= mover {
        return false;
    }
    let mut occupied = pos.occupied();
    occupied.clear(mv.from());
    pos.attackers_to(mv.to(), !pos.side_to_move(), occupied)
        .any()
}

/// A royal is worth far more as a victim than as material: taking it may end the game.
#[inline]
pub fn victim_value(kind: Kind) -> i32 {
    if kind.is_royal() {
        20_000
    } else {
        p::material(kind)
    }
}

/// The evaluation from the side to move's view, given the incrementally kept piece-square sum.
pub fn evaluate(pos: &Position, psq: i32) -> i32 {
    evaluate_with(variant_tables(pos.variant()), pos, psq)
}

fn evaluate_with(t: &EvalTables, pos: &Position, psq: i32) -> i32 {
    let mut score = psq;
    let attacks = tables();
    let empty = !pos.occupied() & pos.variant().board();
    let to_move = pos.side_to_move();
    for color in Color::BOTH {
        let sign = if color == Color::Sente { 1 } else { -1 };
        let mut term = 0;
        let own = pos.pieces(color);
        let enemy_lions = pos.lions(!color);
        for royal in pos.royals(color) {
            term += t.shelter[(attacks.neighbours(royal) & own).count() as usize];
            if (attacks.within_two(royal) & enemy_lions).any() {
                term += t.lion_near_royal;
            }
        }
        if color != to_move && enemy_lions.any() {
            for lion in pos.lions(color) {
                if (attacks.within_two(lion) & enemy_lions).any() {
                    term += t.lion_facing_lion;
                }
            }
        }
        for &(kind, weight) in &t.mobility {
            for sq in pos.kind_bb(kind) & own {
                term += weight * (attacks.neighbours(sq) & empty).count() as i32;
            }
        }
        score += sign * term;
    }
    let relative = if to_move == Color::Sente {
        score
    } else {
        -score
    };
    relative + t.tempo
}
