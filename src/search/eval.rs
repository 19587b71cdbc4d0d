//! Static evaluation for Chu and Heian Shogi.
//!
//! Two parts. The piece-square part (material with promotion potential, advancement,
//! centralisation, promotion-zone pressure, royal placement) is a sum over pieces, so the search
//! keeps it incrementally: `psq_delta` gives its change for a move before it is played. The
//! dynamic part (royal shelter, an enemy lion within reach of a royal, lion facing lion,
//! mobility-lite of the strong pieces) is computed at each evaluation from bitboards. All weights
//! are in `params`.

use super::params as p;
use crate::board::attacks::tables;
use crate::board::{Bitboard, Color, Kind, Piece, Square, Variant, KINDS};
use crate::moves::Move;
use crate::position::Position;
use std::sync::OnceLock;

/// Piece-square values of one variant, signed from sente's view, indexed `[piece code][square]`.
struct VariantTables {
    psq: Vec<[i32; 144]>,
    /// Kinds worth at least `MOBILITY_MIN_VALUE` that appear in this variant.
    strong_kinds: Vec<Kind>,
}

fn variant_tables(variant: Variant) -> &'static VariantTables {
    static TABLES: OnceLock<Vec<VariantTables>> = OnceLock::new();
    let all = TABLES.get_or_init(|| Variant::ALL.iter().map(|&v| build(v)).collect());
    &all[Variant::ALL.iter().position(|&v| v == variant).unwrap_or(0)]
}

fn build(variant: Variant) -> VariantTables {
    let family = variant.family();
    let mut psq = vec![[0i32; 144]; 128];
    for &kind in KINDS.iter().filter(|k| k.family() == family) {
        for color in Color::BOTH {
            let code = Piece::new(color, kind).code();
            for sq in Square::all() {
                if !variant.board().has(sq) {
                    continue;
                }
                let v = piece_square_value(variant, color, kind, sq);
                psq[code][sq.index()] = if color == Color::Sente { v } else { -v };
            }
        }
    }
    let strong_kinds = KINDS
        .iter()
        .copied()
        .filter(|k| {
            k.family() == family && !k.is_royal() && p::material(*k) >= p::MOBILITY_MIN_VALUE
        })
        .collect();
    VariantTables { psq, strong_kinds }
}

/// Ranks `sq` is in front of `color`'s back rank.
fn advancement(variant: Variant, color: Color, sq: Square) -> i32 {
    let row = sq.row() as i32;
    match color {
        Color::Sente => variant.height() as i32 - 1 - row,
        Color::Gote => row,
    }
}

/// How many steps `sq` is from the outermost ring (0 on the edge).
fn centrality(variant: Variant, sq: Square) -> i32 {
    let (w, h) = (variant.width() as i32, variant.height() as i32);
    let dc = (2 * sq.col() as i32 - (w - 1)).abs();
    let dr = (2 * sq.row() as i32 - (h - 1)).abs();
    let from_centre = dc.max(dr) / 2;
    (w.max(h) - 1) / 2 - from_centre
}

fn piece_square_value(variant: Variant, color: Color, kind: Kind, sq: Square) -> i32 {
    let value = p::material(kind);
    let advanced = advancement(variant, color, sq);
    if kind.is_royal() {
        return value - p::ROYAL_ADVANCE_PENALTY * advanced;
    }
    let mut score = value + p::CENTRE_BONUS * centrality(variant, sq);
    if value < p::ADVANCE_MAX_VALUE {
        score += p::ADVANCE_BONUS * advanced;
    }
    if let Some(promoted) = kind.promotes_to() {
        let gain = (p::material(promoted) - value).max(0);
        score += gain * p::PROMOTION_POTENTIAL_PCT / 100;
        let zone_start = variant.height() as i32 - variant.zone_depth() as i32;
        if advanced >= zone_start {
            score += gain * p::ZONE_PRESSURE_PCT / 100;
        } else if advanced == zone_start - 1 {
            score += gain * p::ZONE_APPROACH_PCT / 100;
        }
    }
    score
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
    let mut score = psq;
    let t = variant_tables(pos.variant());
    let attacks = tables();
    let empty = !pos.occupied() & pos.variant().board();
    let to_move = pos.side_to_move();
    let mut strong = Bitboard::EMPTY;
    for &kind in &t.strong_kinds {
        strong |= pos.kind_bb(kind);
    }
    for color in Color::BOTH {
        let sign = if color == Color::Sente { 1 } else { -1 };
        let mut term = 0;
        let enemy_lions = pos.lions(!color);
        for royal in pos.royals(color) {
            let shelter = (attacks.neighbours(royal) & pos.pieces(color)).count();
            term += p::KING_SHELTER * shelter.min(p::KING_SHELTER_MAX) as i32;
            if (attacks.within_two(royal) & enemy_lions).any() {
                term -= p::LION_NEAR_KING;
            }
        }
        if color != to_move && enemy_lions.any() {
            for lion in pos.lions(color) {
                if (attacks.within_two(lion) & enemy_lions).any() {
                    term -= p::LION_FACING_LION;
                }
            }
        }
        for sq in strong & pos.pieces(color) {
            term += p::MOBILITY_BONUS * (attacks.neighbours(sq) & empty).count() as i32;
        }
        score += sign * term;
    }
    let relative = if to_move == Color::Sente {
        score
    } else {
        -score
    };
    relative + p::TEMPO
}
