//! Legal move generation.
//!
//! Chu has no check rule, so its legal moves are the piece moves minus what the lion-trading
//! rules forbid (docs/rules.md section 6); every move is emitted once per effect (section 4). Heian
//! is shogi without drops: piece moves, compulsory promotion where a piece could never move
//! again, and no move may leave the king attacked.

mod chu;
mod heian;

use crate::board::{Bitboard, Family, Kind, Square};
use crate::moves::Move;
use crate::position::Position;
use smallvec::SmallVec;

/// A list of moves; long enough for almost every position without touching the heap.
pub type MoveList = SmallVec<[Move; 256]>;

/// Appends every legal move of the side to move to `out` (nothing if a royal is already lost).
pub fn generate(pos: &Position, out: &mut MoveList) {
    match pos.family() {
        Family::Chu => chu::generate(pos, false, out),
        Family::Heian => heian::generate(pos, false, out),
    }
}

/// The moves of [`generate`], in its order, less a piece's single moves that do not land on
/// `destinations(kind, from)`: for a caller that wants only some moves (the tsume solver's
/// checks and escapes) and knows their squares before any move is made. A Lion's moves, the
/// double moves, igui and the pass are all listed (the generator lists igui once among the
/// pieces that can make it, so leaving one out would rename another's).
pub fn generate_toward(
    pos: &Position,
    destinations: impl Fn(Kind, Square) -> Bitboard,
    out: &mut MoveList,
) {
    match pos.family() {
        Family::Chu => chu::generate_from(pos, Bitboard::FULL, false, destinations, out),
        Family::Heian => heian::generate_from(pos, Bitboard::FULL, false, destinations, out),
    }
}

/// Appends the legal captures and promotions of the side to move to `out`: the moves of
/// `generate` that take a piece or promote, in the same order, in less time (most moves are
/// quiet).
pub fn generate_tactical(pos: &Position, out: &mut MoveList) {
    match pos.family() {
        Family::Chu => chu::generate(pos, true, out),
        Family::Heian => heian::generate(pos, true, out),
    }
}

/// Appends the moves of [`generate`] that take a piece standing on `targets`, on the square
/// they land on or a double move's middle square, in its order, in less time: only the pieces
/// that could reach `targets` on an empty board are read (the tsume verifier's question
/// whether a royal can be taken).
pub fn generate_captures_on(pos: &Position, targets: Bitboard, out: &mut MoveList) {
    let start = out.len();
    match pos.family() {
        Family::Chu => chu::captures_on_candidates(pos, targets, out),
        Family::Heian => heian::captures_on_candidates(pos, targets, out),
    }
    let mut kept = start;
    for i in start..out.len() {
        if takes_on(pos, out[i], targets) {
            out[kept] = out[i];
            kept += 1;
        }
    }
    out.truncate(kept);
}

/// Whether `mv` takes a piece of the side not to move standing on `targets`.
fn takes_on(pos: &Position, mv: Move, targets: Bitboard) -> bool {
    let them = pos.pieces(!pos.side_to_move());
    let victims = them & targets;
    !mv.is_pass() && (victims.has(mv.to()) || mv.mid().is_some_and(|m| victims.has(m)))
}

/// Whether `mv` is a legal move here, when that can be known without generating every move:
/// from the moves of the piece on its start square alone. `None` where it cannot: a pass (any
/// Chu piece may make it), an igui (the generator lists it under the first capturer only).
pub fn is_legal_by_piece(pos: &Position, mv: Move) -> Option<bool> {
    if !pos.royals(pos.side_to_move()).any() {
        return Some(false);
    }
    generated_by_piece(pos, mv)
}

/// Whether [`generate`] lists `mv` here, when the piece on its start square alone can tell
/// (`None` as for [`is_legal_by_piece`]): unlike legality, whatever royals the side to move has,
/// as for a tsume's attacker, which may have none.
pub fn generated_by_piece(pos: &Position, mv: Move) -> Option<bool> {
    match pos.family() {
        Family::Chu => chu::is_legal_by_piece(pos, mv),
        Family::Heian => heian::is_legal_by_piece(pos, mv),
    }
}

impl Position {
    /// Every legal move of the side to move, each effect once. Empty when the side to move has no
    /// royal left; use `outcome` to know whether the game is over.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.royals(self.side_to_move()).any() {
            generate(self, &mut list);
        }
        list
    }

    /// Whether the side to move has any legal move (false when it has no royal left).
    pub fn has_legal_move(&self) -> bool {
        !self.legal_moves().is_empty()
    }

    /// Whether `mv` is one of the legal moves here, as the generator spells it.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.legal_moves().contains(&mv)
    }
}

/// The positions after each move of a random game of up to `plies` moves from `variant`'s start,
/// a capture chosen with probability `capture_share` when there is one (so material goes out of
/// balance and pieces promote); shared by the tests that need varied positions.
#[cfg(any(test, feature = "testing"))]
pub fn random_playout(
    variant: crate::board::Variant,
    plies: i32,
    capture_share: f64,
    rng: &mut impl rand::Rng,
) -> Vec<Position> {
    let mut pos = Position::startpos(variant);
    let mut out = Vec::new();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.outcome().is_some() {
            break;
        }
        let captures: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| pos.is_capture(m))
            .collect();
        let mv = if !captures.is_empty() && rng.gen_bool(capture_share) {
            captures[rng.gen_range(0..captures.len())]
        } else {
            moves[rng.gen_range(0..moves.len())]
        };
        pos.play(mv);
        out.push(pos.clone());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Variant;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Random games of every board, captures favoured (checks, promotions and king moves).
    fn positions() -> Vec<Position> {
        let mut rng = StdRng::seed_from_u64(5);
        Variant::ALL
            .into_iter()
            .flat_map(|v| {
                let games = if v == Variant::Chushogi { 6 } else { 4 };
                (0..games).map(move |_| v)
            })
            .flat_map(|v| random_playout(v, 150, 0.4, &mut rng))
            .collect()
    }

    #[test]
    fn tactical_moves_are_the_full_generation_filtered_in_order() {
        for pos in positions() {
            let mut tactical = MoveList::new();
            generate_tactical(&pos, &mut tactical);
            let mut all = MoveList::new();
            generate(&pos, &mut all);
            all.retain(|mv| mv.is_promotion() || pos.is_capture(*mv));
            assert_eq!(tactical, all, "in {pos:?}");
        }
    }

    #[test]
    fn captures_on_targets_are_the_full_generation_filtered_in_order() {
        let mut rng = StdRng::seed_from_u64(9);
        let mut compared = 0;
        for pos in positions() {
            let them = pos.pieces(!pos.side_to_move());
            let royals = pos.royals(!pos.side_to_move());
            let mut some = Bitboard::EMPTY;
            for sq in them.into_iter().filter(|_| rng.gen_bool(0.3)) {
                some.set(sq);
            }
            for targets in [royals, them, some, Bitboard::FULL] {
                let mut captures = MoveList::new();
                generate_captures_on(&pos, targets, &mut captures);
                let mut all = MoveList::new();
                generate(&pos, &mut all);
                all.retain(|mv| takes_on(&pos, *mv, targets));
                assert_eq!(captures, all, "in {pos:?}");
                compared += all.len();
            }
        }
        assert!(compared > 10_000, "only {compared} captures compared");
    }

    #[test]
    fn generation_from_one_piece_agrees_without_a_royal() {
        // Tsume positions, the side to move (the attacker) without a royal.
        let sfens = [
            "1r9+V/+M+F2d2et3/2m1+P1g1s1x1/1+V3spk1p+H1/3p1p1Tp3/7+M1b1+v/3r4i3/1+F+p9/1+p7+L2/+p6+a2+r1/11Q/3+H3B4 b - 1",
            "k11/2p9/12/1R10/12/12/12/12/12/12/12/2Q9 b - 1",
            "4k4/9/3SG4/9/9/9/9/9/9 b - 1",
        ];
        let listed = |pos: &Position| {
            let mut moves = MoveList::new();
            generate(pos, &mut moves);
            moves
        };
        let mut decided = [0; 2];
        for sfen in sfens {
            let mut pos = Position::from_sfen_any(sfen).unwrap();
            let mut before = MoveList::new();
            for _ in 0..3 {
                let all = listed(&pos);
                assert!(!all.is_empty(), "{sfen}");
                for mv in all.iter().chain(&before).copied().chain([Move::PASS]) {
                    if let Some(by_piece) = generated_by_piece(&pos, mv) {
                        assert_eq!(by_piece, all.contains(&mv), "{mv:?} in {sfen}");
                        decided[usize::from(by_piece)] += 1;
                    }
                }
                pos.play(all[all.len() / 2]);
                before = all;
            }
        }
        // Moves of both kinds were decided: listed ones and those of the position before.
        assert!(
            decided.iter().all(|&n| n > 50),
            "decided {decided:?} (not listed, listed)"
        );
    }

    #[test]
    fn legality_from_one_piece_agrees_with_full_generation() {
        let positions = positions();
        let mut decided = [0; 2];
        for pair in positions.windows(2) {
            let pos = &pair[1];
            let tried = pair[0].legal_moves().into_iter().chain(pos.legal_moves());
            for mv in tried.chain([Move::PASS]) {
                if let Some(legal) = is_legal_by_piece(pos, mv) {
                    assert_eq!(legal, pos.is_legal(mv), "{mv:?} in {pos:?}");
                    decided[pos.family().descriptor().index] += 1;
                }
            }
        }
        assert!(
            decided.iter().all(|&n| n > 10_000),
            "only {decided:?} moves decided (Chu, Heian)"
        );
    }
}
