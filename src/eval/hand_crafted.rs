//! Static evaluation for Chu and Heian Shogi.
//!
//! Two parts. The piece-square part (per piece kind: material, advancement, a table by rank, a
//! table by centrality ring) is a sum over pieces, so the search keeps it incrementally:
//! `psq_delta` gives its change for a move before it is played. The dynamic part (royal shelter
//! and the enemies near it, an enemy lion within reach of a royal, lion facing lion,
//! mobility-lite per kind, Heian pawn structure) is computed at each evaluation from bitboards.
//! Every weight comes from the family's `Weights` (the text files in `weights/`); the tables
//! here are built from them once. Move ordering and pruning do not use these weights: they value
//! pieces by the fixed `params::material`.
//!
//! The evaluation is linear in its weights: `features` lists, for a position, each parameter's
//! coefficient, and `evaluate` equals the sum of weight times coefficient (a test checks it
//! with random weights). The tuner fits the weights on those coefficients.

use super::material as p;
use super::weights::{
    proximity_index, rank_index, Layout, Weights, NEAR_ROYAL_COUNTS, PROXIMITY_ENTRIES,
    SHELTER_COUNTS, ZONE_ATTACKED_COUNTS, ZONE_ATTACKER_COUNTS,
};
use crate::board::attacks::tables;
use crate::board::NUM_KINDS;
use crate::board::{Bitboard, Color, Family, Kind, Piece, Square, Variant};
use crate::moves::Move;
use crate::position::Position;
use std::sync::OnceLock;

/// What the evaluation of one variant reads, built from its family's weights. Piece-square
/// values are signed from sente's view, indexed `[piece code][square]`.
struct EvalTables {
    psq: Vec<[i32; 144]>,
    /// Kinds with a nonzero mobility weight.
    mobility_kinds: Vec<Kind>,
    /// The mobility weight of each kind.
    mobility: [i32; NUM_KINDS],
    shelter: [i32; SHELTER_COUNTS],
    /// The `enemies_near_royal` table, `None` while it is all zero.
    near_royal: Option<[i32; NEAR_ROYAL_COUNTS]>,
    lion_near_royal: i32,
    lion_facing_lion: i32,
    /// The `zone_attacked` and `zone_attackers` tables (Heian), `None` while all are zero.
    zone: Option<([i32; ZONE_ATTACKED_COUNTS], [i32; ZONE_ATTACKER_COUNTS])>,
    /// The three pawn-structure weights (Heian), `None` while all are zero.
    pawn: Option<[i32; 3]>,
    /// The `guard.X` and `attack.X` tables by kind index (Heian), `None` while all are zero.
    proximity: Option<Vec<[[i32; PROXIMITY_ENTRIES]; 2]>>,
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
        let mut mobility = [0; NUM_KINDS];
        for &kind in Layout::kinds_of(variant.family()) {
            if let Some(i) = layout.mobility(kind) {
                mobility[kind.index()] = weights.get(i);
            }
        }
        let mobility_kinds = Layout::kinds_of(variant.family())
            .iter()
            .copied()
            .filter(|k| mobility[k.index()] != 0)
            .collect();
        let optional = |index: Option<usize>| index.map_or(0, |i| weights.get(i));
        let mut proximity = vec![[[0; PROXIMITY_ENTRIES]; 2]; NUM_KINDS];
        for &kind in Layout::kinds_of(variant.family()) {
            if let Some(bases) = layout.proximity(kind) {
                proximity[kind.index()] =
                    bases.map(|base| std::array::from_fn(|n| weights.get(base + n)));
            }
        }
        let proximity = Some(proximity).filter(|t| t.iter().flatten().flatten().any(|&v| v != 0));
        EvalTables {
            psq,
            mobility_kinds,
            mobility,
            shelter: std::array::from_fn(|n| weights.get(layout.shelter(n))),
            near_royal: Some(std::array::from_fn(|n| {
                weights.get(layout.enemies_near_royal(n))
            }))
            .filter(|w| w.iter().any(|&v| v != 0)),
            lion_near_royal: optional(layout.lion_near_royal()),
            lion_facing_lion: optional(layout.lion_facing_lion()),
            zone: layout
                .zone_terms()
                .map(|[attacked, attackers]| {
                    (
                        std::array::from_fn(|n| weights.get(attacked + n)),
                        std::array::from_fn(|n| weights.get(attackers + n)),
                    )
                })
                .filter(|(a, b)| a.iter().chain(b).any(|&v| v != 0)),
            pawn: layout
                .pawn_terms()
                .map(|terms| terms.map(|i| weights.get(i)))
                .filter(|w| w.iter().any(|&v| v != 0)),
            proximity,
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
pub(crate) fn psq_total(pos: &Position) -> i32 {
    psq_total_with(variant_tables(pos.variant()), pos)
}

fn psq_total_with(t: &EvalTables, pos: &Position) -> i32 {
    pos.occupied()
        .iter()
        .map(|sq| t.psq[pos.piece_at(sq).code()][sq.index()])
        .sum()
}

/// The change of the piece-square sum (sente's view) that playing `mv` in `pos` makes.
#[inline]
pub(crate) fn psq_delta(pos: &Position, mv: Move) -> i32 {
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
pub(crate) fn captured_value(pos: &Position, mv: Move) -> i32 {
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

/// A royal is worth far more as a victim than as material: taking it may end the game.
#[inline]
pub(crate) fn victim_value(kind: Kind) -> i32 {
    if kind.is_royal() {
        20_000
    } else {
        p::material(kind)
    }
}

/// Evaluation units as hundredths of a pawn. Heian's tuned weights set their own scale, which
/// drifts from round to round (a pawn's `material.P` was 557 in round 4), so a Heian score is
/// divided by its pawn's material weight; Chu's weights keep the centipawn scale the search's
/// margins were set in, and its scores pass unchanged.
pub(crate) fn units_to_centipawns(family: Family, units: i32) -> i32 {
    match family {
        Family::Chu => units,
        Family::Heian => (i64::from(units) * 100 / heian_pawn_units()) as i32,
    }
}

/// A Heian pawn's material weight, at least 1: the evaluation's units in a pawn.
fn heian_pawn_units() -> i64 {
    let weights = Weights::embedded(Family::Heian);
    let pawn = weights.get(Layout::of(Family::Heian).material(Kind::HeianPawn));
    i64::from(pawn.max(1))
}

/// The inverse of [`units_to_centipawns`]: a centipawn score as a user saw it (a match PGN's
/// comment, say), in the evaluation's units. Only training reads it, which the browser build
/// leaves out.
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
pub(crate) fn centipawns_to_units(family: Family, centipawns: i32) -> i32 {
    match family {
        Family::Chu => centipawns,
        Family::Heian => (i64::from(centipawns) * heian_pawn_units() / 100) as i32,
    }
}

/// The evaluation from the side to move's view, given the incrementally kept piece-square sum.
pub(crate) fn evaluate(pos: &Position, psq: i32) -> i32 {
    evaluate_with(variant_tables(pos.variant()), pos, psq)
}

fn evaluate_with(t: &EvalTables, pos: &Position, psq: i32) -> i32 {
    let mut score = psq;
    let attacks = tables();
    let empty = !pos.occupied() & pos.variant().board();
    let to_move = pos.side_to_move();
    let mut mobile = Bitboard::EMPTY;
    for &kind in &t.mobility_kinds {
        mobile |= pos.kind_bb(kind);
    }
    for color in Color::BOTH {
        let sign = if color == Color::Sente { 1 } else { -1 };
        let mut term = 0;
        let own = pos.pieces(color);
        let enemies = pos.pieces(!color);
        let enemy_lions = pos.lions(!color);
        for royal in pos.royals(color) {
            term += t.shelter[(attacks.neighbours(royal) & own).count() as usize];
            if let Some(near_royal) = &t.near_royal {
                term += near_royal[near_royal_index(attacks.within_two(royal) & enemies)];
            }
            if (attacks.within_two(royal) & enemy_lions).any() {
                term += t.lion_near_royal;
            }
            if let Some((attacked, attackers)) = &t.zone {
                let (squares, pieces) = royal_zone_attacks(pos, color, royal);
                term += attacked[squares] + attackers[pieces];
            }
            if let Some(proximity) = &t.proximity {
                let near = attacks.within_two(royal);
                for sq in near & own {
                    let [guard, _] = &proximity[pos.piece_at(sq).kind().index()];
                    term += guard[proximity_index(color, royal, sq)];
                }
                for sq in near & enemies {
                    let [_, attack] = &proximity[pos.piece_at(sq).kind().index()];
                    term -= attack[proximity_index(!color, royal, sq)];
                }
            }
        }
        if color != to_move && enemy_lions.any() {
            for lion in pos.lions(color) {
                if (attacks.within_two(lion) & enemy_lions).any() {
                    term += t.lion_facing_lion;
                }
            }
        }
        for sq in mobile & own {
            let weight = t.mobility[pos.piece_at(sq).kind().index()];
            term += weight * (attacks.neighbours(sq) & empty).count() as i32;
        }
        if let Some([defended, side_by_side, _]) = t.pawn {
            let pawns = pos.pieces_of(color, Kind::HeianPawn);
            term += defended * defended_pawns(pos, color, pawns);
            term += side_by_side * pawns_side_by_side(pawns);
        }
        score += sign * term;
    }
    if let Some([_, _, facing]) = t.pawn {
        let sente_view = facing * pawns_facing(pos);
        score += if to_move == Color::Sente {
            sente_view
        } else {
            -sente_view
        };
    }
    let relative = if to_move == Color::Sente {
        score
    } else {
        -score
    };
    relative + t.tempo
}

/// How the enemy bears on the squares next to `color`'s royal on `royal`: the number of those
/// squares attacked, and the number of enemy pieces attacking them (at most
/// `ZONE_ATTACKER_COUNTS - 1`). Heian only: its steppers reach them from two squares away at
/// most, its knights and lances from further.
fn royal_zone_attacks(pos: &Position, color: Color, royal: Square) -> (usize, usize) {
    let attacks = tables();
    let zone = attacks.neighbours(royal) & pos.variant().board();
    let them = !color;
    let far_reaching = pos.kind_bb(Kind::HeianKnight) | pos.kind_bb(Kind::HeianLance);
    let walls = pos.occupied() | pos.variant().off_board();
    let (mut attacked, mut attackers) = (Bitboard::EMPTY, 0);
    for sq in pos.pieces(them) & (attacks.within_two(royal) | far_reaching) {
        let reach = attacks.attacks(pos.piece_at(sq).kind(), them, sq, walls) & zone;
        if reach.any() {
            attacked |= reach;
            attackers += 1;
        }
    }
    (
        attacked.count() as usize,
        attackers.min(ZONE_ATTACKER_COUNTS - 1),
    )
}

/// The `enemies_near_royal` entry for the enemies within two squares of a royal.
#[inline]
fn near_royal_index(enemies: Bitboard) -> usize {
    (enemies.count() as usize).min(NEAR_ROYAL_COUNTS - 1)
}

/// `bb` with every square moved `dc` files and `dr` ranks along the grid (rows grow towards
/// sente's side). A file step off a Heian board's edge wraps onto a file the board lacks.
/// Always inlined, so constant steps compile to a few shift instructions.
#[inline(always)]
fn step(bb: Bitboard, dc: i32, dr: i32) -> Bitboard {
    let d = dc + 12 * dr;
    if d >= 0 {
        bb << d as u32
    } else {
        bb >> (-d) as u32
    }
}

/// How many of `color`'s Heian `pawns` a stepping or jumping piece of theirs defends (a lance's
/// slide is left out): each class of piece's defended squares are a few shifts of the class.
fn defended_pawns(pos: &Position, color: Color, pawns: Bitboard) -> i32 {
    use Kind::*;
    let own = pos.pieces(color);
    let golds = (pos.kind_bb(HeianGold)
        | pos.kind_bb(HeianPromotedSilver)
        | pos.kind_bb(HeianPromotedKnight)
        | pos.kind_bb(HeianPromotedLance)
        | pos.kind_bb(HeianTokin))
        & own;
    let silvers = pos.kind_bb(HeianSilver) & own;
    let knights = pos.kind_bb(HeianKnight) & own;
    let kings = pos.kind_bb(HeianKing) & own;
    let classes = DefenderClasses {
        ahead: golds | silvers | kings | pawns,
        ahead_diagonal: golds | silvers | kings,
        beside: golds | kings,
        back_diagonal: silvers | kings,
        knights,
    };
    let defended = match color {
        Color::Sente => classes.defend::<-1>(),
        Color::Gote => classes.defend::<1>(),
    };
    (pawns & defended).count() as i32
}

/// One side's Heian pieces grouped by the squares around them they defend.
struct DefenderClasses {
    /// Pieces that defend the square in front (all but knights and lances).
    ahead: Bitboard,
    /// Pieces that defend the two squares diagonally in front.
    ahead_diagonal: Bitboard,
    /// Gold movers and kings: the squares beside and behind.
    beside: Bitboard,
    /// Silvers and kings: the squares diagonally behind.
    back_diagonal: Bitboard,
    knights: Bitboard,
}

impl DefenderClasses {
    /// The squares defended, `F` being the rank step forward (-1 for sente, 1 for gote).
    #[inline(always)]
    fn defend<const F: i32>(&self) -> Bitboard {
        step(self.ahead, 0, F)
            | step(self.ahead_diagonal, -1, F)
            | step(self.ahead_diagonal, 1, F)
            | step(self.beside, -1, 0)
            | step(self.beside, 1, 0)
            | step(self.beside, 0, -F)
            | step(self.back_diagonal, -1, -F)
            | step(self.back_diagonal, 1, -F)
            | step(self.knights, -1, 2 * F)
            | step(self.knights, 1, 2 * F)
    }
}

/// Pairs of `pawns` (one side's, on a Heian board) next to each other on a rank.
fn pawns_side_by_side(pawns: Bitboard) -> i32 {
    (pawns & (pawns << 1)).count() as i32
}

/// Pairs of Heian pawns head to head (a sente pawn with a gote pawn right in front of it).
fn pawns_facing(pos: &Position) -> i32 {
    let sente = pos.pieces_of(Color::Sente, Kind::HeianPawn);
    let gote = pos.pieces_of(Color::Gote, Kind::HeianPawn);
    (sente & (gote << 12)).count() as i32
}

/// The evaluation of `pos` as a linear sum: each parameter of the family's `Layout` with its
/// coefficient, from the side to move's view, so that `evaluate(pos, psq_total(pos))` is the
/// sum of `weight * coefficient`. Sorted by parameter, without zero coefficients. The tuner's
/// (not in the browser build).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn features(pos: &Position) -> Vec<(usize, i32)> {
    let variant = pos.variant();
    let layout = Layout::of(variant.family());
    let attacks = tables();
    let mut coef = vec![0i32; layout.len()];
    let empty = !pos.occupied() & variant.board();
    let to_move = pos.side_to_move();
    for color in Color::BOTH {
        let sign = if color == Color::Sente { 1 } else { -1 };
        let own = pos.pieces(color);
        for sq in own {
            let kind = pos.piece_at(sq).kind();
            for (i, c) in piece_square_terms(layout, variant, color, kind, sq) {
                coef[i] += sign * c;
            }
            if let Some(i) = layout.mobility(kind) {
                coef[i] += sign * (attacks.neighbours(sq) & empty).count() as i32;
            }
        }
        let enemies = pos.pieces(!color);
        let enemy_lions = pos.lions(!color);
        for royal in pos.royals(color) {
            coef[layout.shelter((attacks.neighbours(royal) & own).count() as usize)] += sign;
            coef[layout
                .enemies_near_royal(near_royal_index(attacks.within_two(royal) & enemies))] += sign;
            if let Some(i) = layout.lion_near_royal() {
                if (attacks.within_two(royal) & enemy_lions).any() {
                    coef[i] += sign;
                }
            }
            if let Some([attacked, attackers]) = layout.zone_terms() {
                let (squares, pieces) = royal_zone_attacks(pos, color, royal);
                coef[attacked + squares] += sign;
                coef[attackers + pieces] += sign;
            }
            let near = attacks.within_two(royal);
            for sq in near & own {
                if let Some([guard, _]) = layout.proximity(pos.piece_at(sq).kind()) {
                    coef[guard + proximity_index(color, royal, sq)] += sign;
                }
            }
            for sq in near & enemies {
                if let Some([_, attack]) = layout.proximity(pos.piece_at(sq).kind()) {
                    coef[attack + proximity_index(!color, royal, sq)] -= sign;
                }
            }
        }
        if let Some(i) = layout.lion_facing_lion() {
            if color != to_move {
                for lion in pos.lions(color) {
                    if (attacks.within_two(lion) & enemy_lions).any() {
                        coef[i] += sign;
                    }
                }
            }
        }
        if let Some([defended, side_by_side, _]) = layout.pawn_terms() {
            let pawns = pos.pieces_of(color, Kind::HeianPawn);
            coef[defended] += sign * defended_pawns(pos, color, pawns);
            coef[side_by_side] += sign * pawns_side_by_side(pawns);
        }
    }
    let relative = if to_move == Color::Sente { 1 } else { -1 };
    if let Some([_, _, facing]) = layout.pawn_terms() {
        // Counted for the side to move: its sente-view sign is the side's.
        coef[facing] += relative * pawns_facing(pos);
    }
    let mut list: Vec<(usize, i32)> = coef
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c != 0)
        .map(|(i, &c)| (i, relative * c))
        .collect();
    // Tempo counts for the side to move, whoever it is.
    let tempo = layout.tempo();
    let at = list.partition_point(|&(i, _)| i < tempo);
    list.insert(at, (tempo, 1));
    list
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::random_playout;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Positions of random playouts (captures preferred, so material goes out of balance and
    /// pieces promote) in every variant, and every position of `positions/*.epd`.
    fn test_positions() -> Vec<Position> {
        let mut rng = StdRng::seed_from_u64(7);
        let mut out = Vec::new();
        for variant in Variant::ALL {
            for _ in 0..12 {
                let plies = rng.gen_range(20..160);
                out.extend(random_playout(variant, plies, 0.5, &mut rng));
            }
        }
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("positions");
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "epd") {
                continue;
            }
            for line in std::fs::read_to_string(&path).unwrap().lines() {
                // `SFEN ; fields` with `#` comments, as `shishi mate --file` reads them.
                let line = line.split(';').next().unwrap();
                let line = line.split('#').next().unwrap().trim();
                if line.is_empty() {
                    continue;
                }
                let pos = match line.split_once(' ') {
                    Some((name, sfen)) if Variant::from_name(name).is_some() => {
                        Position::from_sfen(Variant::from_name(name).unwrap(), sfen)
                    }
                    _ => Position::from_sfen_any(line),
                };
                out.push(pos.unwrap_or_else(|e| panic!("{}: {line}: {e}", path.display())));
            }
        }
        out
    }

    fn weighted_sum(weights: &Weights, pos: &Position) -> i32 {
        features(pos).iter().map(|&(i, c)| weights.get(i) * c).sum()
    }

    #[test]
    fn the_evaluation_is_the_sum_of_its_features() {
        let positions = test_positions();
        assert!(positions.len() > 3000, "{} positions", positions.len());
        for pos in &positions {
            assert_eq!(
                evaluate(pos, psq_total(pos)),
                weighted_sum(Weights::embedded(pos.family()), pos),
                "{}",
                pos.to_sfen()
            );
        }
    }

    #[test]
    fn the_evaluation_is_the_sum_of_its_features_under_any_weights() {
        // Random weights give every term, zero-weighted ones included, a say.
        let mut rng = StdRng::seed_from_u64(11);
        let random: Vec<Weights> = Family::ALL
            .into_iter()
            .map(|f| {
                let len = Layout::of(f).len();
                let values = (0..len).map(|_| rng.gen_range(-300..300)).collect();
                Weights::from_values(f, values).unwrap()
            })
            .collect();
        let tables: Vec<EvalTables> = Variant::ALL
            .iter()
            .map(|&v| EvalTables::new(v, &random[v.family().descriptor().index]))
            .collect();
        let mut terms_seen = vec![false; Layout::of(Family::Heian).len()];
        for pos in &test_positions() {
            let v = Variant::ALL
                .iter()
                .position(|&v| v == pos.variant())
                .unwrap();
            let weights = &random[pos.family().descriptor().index];
            let t = &tables[v];
            assert_eq!(
                evaluate_with(t, pos, psq_total_with(t, pos)),
                weighted_sum(weights, pos),
                "{}",
                pos.to_sfen()
            );
            if pos.family() == Family::Heian {
                for (i, _) in features(pos) {
                    terms_seen[i] = true;
                }
            }
        }
        let heian = Layout::of(Family::Heian);
        for i in heian.pawn_terms().unwrap() {
            assert!(terms_seen[i], "{} never occurs", heian.name_of(i));
        }
    }

    #[test]
    fn pawn_structure_counts_agree_with_square_by_square_counts() {
        let mut checked = 0;
        for pos in test_positions()
            .iter()
            .filter(|p| p.family() == Family::Heian)
        {
            for color in Color::BOTH {
                let mut defended = Bitboard::EMPTY;
                for sq in pos.pieces(color) {
                    defended |= tables().leaper(pos.piece_at(sq).kind(), color, sq);
                }
                let pawns = pos.pieces_of(color, Kind::HeianPawn);
                let expected = (pawns & defended).count() as i32;
                assert_eq!(
                    defended_pawns(pos, color, pawns),
                    expected,
                    "{}",
                    pos.to_sfen()
                );
                checked += expected;
                let side_by_side = pawns
                    .iter()
                    .filter(|sq| sq.offset(1, 0).is_some_and(|right| pawns.has(right)))
                    .count() as i32;
                assert_eq!(pawns_side_by_side(pawns), side_by_side, "{}", pos.to_sfen());
            }
            let gote = pos.pieces_of(Color::Gote, Kind::HeianPawn);
            let facing = pos
                .pieces_of(Color::Sente, Kind::HeianPawn)
                .iter()
                .filter(|sq| sq.offset(0, -1).is_some_and(|ahead| gote.has(ahead)))
                .count() as i32;
            assert_eq!(pawns_facing(pos), facing, "{}", pos.to_sfen());
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn the_incremental_piece_square_sum_follows_every_move() {
        for pos in test_positions().iter().step_by(7) {
            for mv in pos.legal_moves() {
                let mut after = pos.clone();
                after.play(mv);
                assert_eq!(psq_total(pos) + psq_delta(pos, mv), psq_total(&after));
            }
        }
    }
}
