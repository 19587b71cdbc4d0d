//! `Position`: the pieces, the side to move, the counter-strike square, the pawns that declined
//! promotion under HaChu's rule, and an incrementally updated Zobrist key, with make and undo.
//! It knows how pieces attack (for the lion rules and bare king) but nothing of search.

mod game_end;
mod peek;
mod promotion;
mod sfen;

pub use game_end::{Describe, Outcome, OutcomeReason};
pub use peek::Peek;
pub use sfen::SfenError;

use crate::board::attacks::tables;
use crate::board::piece::NUM_KINDS;
use crate::board::{zobrist, Bitboard, Color, Family, Kind, Piece, Square, Variant};
use crate::moves::Move;
use crate::rules::{Repetition, RuleSet};

/// Which redundant state of a `Position` disagrees with its board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConsistencyError {
    /// A piece stands on a square outside the variant's board (square index).
    #[error("piece off the board on square {0}")]
    OffBoard(usize),
    /// The colour or kind bitboards do not match the board array.
    #[error("bitboards disagree with the board")]
    Bitboards,
    /// The incrementally updated key is not the key computed from scratch.
    #[error(
        "incremental key {incremental:#x} differs from the key computed from scratch {computed:#x}"
    )]
    Key {
        /// The key kept by make and undo.
        incremental: u64,
        /// `Position::compute_key`.
        computed: u64,
    },
}

/// What `undo` needs to restore a move.
#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: Move,
    moved: Piece,
    captured_to: Piece,
    captured_mid: Piece,
    counter_strike: Option<Square>,
    declined_pawns: Bitboard,
    key: u64,
    /// Index in the history of the first position of the reversible stretch the position
    /// after this move belongs to (the owner of what repetition needs).
    window_start: usize,
}

/// The board squares one move changed (see [`Position::last_change`]). An entry whose piece
/// is [`Piece::NONE`] changed nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardChange {
    /// Pieces taken off the board, with the squares they stood on.
    pub removed: [(Square, Piece); 3],
    /// The piece put down and its square (`None` for a pass).
    pub added: Option<(Square, Piece)>,
}

impl Default for BoardChange {
    fn default() -> Self {
        BoardChange {
            removed: [(Square::new(0), Piece::NONE); 3],
            added: None,
        }
    }
}

/// A game position of one variant under one rule set.
#[derive(Clone)]
pub struct Position {
    variant: Variant,
    rules: RuleSet,
    board: [Piece; 144],
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; NUM_KINDS],
    side: Color,
    counter_strike: Option<Square>,
    declined_pawns: Bitboard,
    key: u64,
    move_number: u32,
    history: Vec<Undo>,
}

impl Position {
    /// The start position of `variant` under the default (lishogi) rules.
    pub fn startpos(variant: Variant) -> Position {
        Position::from_sfen(variant, variant.start_sfen()).expect("start SFEN is valid")
    }

    fn empty(variant: Variant) -> Position {
        Position {
            variant,
            rules: RuleSet::default(),
            board: [Piece::NONE; 144],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; NUM_KINDS],
            side: Color::Sente,
            counter_strike: None,
            declined_pawns: Bitboard::EMPTY,
            key: 0,
            move_number: 1,
            history: Vec::new(),
        }
    }

    /// The variant, which fixes the board size.
    #[inline]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Chu or Heian: the piece set and rules in force.
    #[inline]
    pub fn family(&self) -> Family {
        self.variant.family()
    }

    /// The rule options this position is played under.
    #[inline]
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// Replaces the rule options; the pieces and the key are unchanged.
    pub fn set_rules(&mut self, rules: RuleSet) {
        self.rules = rules;
    }

    /// The same position under `rules`.
    #[must_use]
    pub fn with_rules(mut self, rules: RuleSet) -> Position {
        self.rules = rules;
        self
    }

    /// Whose turn it is; flips with every make and undo.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The square where a non-Lion has just captured a Lion (lion-trading rule 4), if any.
    #[inline]
    pub fn counter_strike(&self) -> Option<Square> {
        self.counter_strike
    }

    /// Zobrist key of pieces, side to move and counter-strike square, kept up to date by make
    /// and undo.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// SFEN move number: the one read from the SFEN (1 if none), plus one per ply played since.
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// Plies played since the position was set up.
    pub fn plies_played(&self) -> usize {
        self.history.len()
    }

    /// The moves played since the position was set up, oldest first.
    pub fn moves_played(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|u| u.mv)
    }

    /// Keys of the earlier positions, newest last (the current one not included).
    pub fn earlier_keys(&self) -> impl DoubleEndedIterator<Item = u64> + '_ {
        self.history.iter().map(|u| u.key)
    }

    /// The piece on `sq`, [`Piece::NONE`] if empty.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Piece {
        self.board[sq.index()]
    }

    /// The piece on every square of the 12x12 grid by square index ([`Piece::NONE`] where
    /// empty and off the board), to compare two boards square by square.
    #[inline]
    pub fn mailbox(&self) -> &[Piece; 144] {
        &self.board
    }

    /// Squares of `color`'s pieces.
    #[inline]
    pub fn pieces(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Squares holding a piece of either side.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Squares holding a `kind` of either side.
    #[inline]
    pub fn kind_bb(&self, kind: Kind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// Squares holding a `kind` of `color`.
    #[inline]
    pub fn pieces_of(&self, color: Color, kind: Kind) -> Bitboard {
        self.by_kind[kind.index()] & self.by_color[color.index()]
    }

    /// The King, Crown Prince (and Heian king) squares of `color`.
    #[inline]
    pub fn royals(&self, color: Color) -> Bitboard {
        let kinds = match self.family() {
            Family::Chu => self.kind_bb(Kind::King) | self.kind_bb(Kind::Prince),
            Family::Heian => self.kind_bb(Kind::HeianKing),
        };
        kinds & self.pieces(color)
    }

    /// Lions (N and +O) of `color`.
    #[inline]
    pub fn lions(&self, color: Color) -> Bitboard {
        (self.kind_bb(Kind::Lion) | self.kind_bb(Kind::PromotedKirin)) & self.pieces(color)
    }

    fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.board[sq.index()].is_none());
        self.board[sq.index()] = piece;
        self.by_color[piece.color().index()].set(sq);
        self.by_kind[piece.kind().index()].set(sq);
        self.key ^= zobrist::piece(piece, sq);
    }

    fn remove(&mut self, sq: Square) -> Piece {
        let piece = self.board[sq.index()];
        debug_assert!(piece.is_some());
        self.board[sq.index()] = Piece::NONE;
        self.by_color[piece.color().index()].clear(sq);
        self.by_kind[piece.kind().index()].clear(sq);
        self.key ^= zobrist::piece(piece, sq);
        piece
    }

    fn set_counter_strike(&mut self, sq: Option<Square>) {
        if let Some(old) = self.counter_strike {
            self.key ^= zobrist::counter_strike(old);
        }
        if let Some(new) = sq {
            self.key ^= zobrist::counter_strike(new);
        }
        self.counter_strike = sq;
    }

    /// The key computed from scratch; equals `key()` in every reachable position.
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for sq in self.occupied() {
            key ^= zobrist::piece(self.piece_at(sq), sq);
        }
        if self.side == Color::Gote {
            key ^= zobrist::gote_to_move();
        }
        if let Some(cs) = self.counter_strike {
            key ^= zobrist::counter_strike(cs);
        }
        for sq in self.declined_pawns {
            key ^= zobrist::declined_pawn(sq);
        }
        key
    }

    /// Checks the redundant state (bitboards, key) against the board; for tests and debugging.
    pub fn check_consistency(&self) -> Result<(), ConsistencyError> {
        let mut by_color = [Bitboard::EMPTY; 2];
        let mut by_kind = [Bitboard::EMPTY; NUM_KINDS];
        for sq in Square::all() {
            let p = self.board[sq.index()];
            if p.is_some() {
                if !self.variant.board().has(sq) {
                    return Err(ConsistencyError::OffBoard(sq.index()));
                }
                by_color[p.color().index()].set(sq);
                by_kind[p.kind().index()].set(sq);
            }
        }
        if by_color != self.by_color || by_kind != self.by_kind {
            return Err(ConsistencyError::Bitboards);
        }
        let computed = self.compute_key();
        if self.key != computed {
            return Err(ConsistencyError::Key {
                incremental: self.key,
                computed,
            });
        }
        Ok(())
    }

    /// The piece `mv` puts down: the mover, promoted if the move promotes.
    #[inline]
    fn placed_piece(&self, mv: Move) -> Piece {
        let moved = self.board[mv.from().index()];
        match (mv.is_promotion(), moved.kind().promotes_to()) {
            (true, Some(p)) => Piece::new(moved.color(), p),
            _ => moved,
        }
    }

    /// The counter-strike square after `mv`: where a non-Lion takes a Lion (lion-trading rule
    /// 4), the destination's capture counting over the middle square's.
    fn counter_strike_after(&self, mv: Move) -> Option<Square> {
        if mv.is_pass() || self.board[mv.from().index()].kind().is_lion() {
            return None;
        }
        let takes_lion = |sq: Square| {
            let victim = self.board[sq.index()];
            sq != mv.from() && victim.is_some() && victim.kind().is_lion()
        };
        if takes_lion(mv.to()) {
            Some(mv.to())
        } else {
            mv.mid().filter(|&mid| takes_lion(mid))
        }
    }

    /// Plays a move that the move generator produced for this position.
    pub fn play(&mut self, mv: Move) {
        let mut undo = Undo {
            mv,
            moved: Piece::NONE,
            captured_to: Piece::NONE,
            captured_mid: Piece::NONE,
            counter_strike: self.counter_strike,
            declined_pawns: self.declined_pawns,
            key: self.key,
            window_start: 0,
        };
        let declined = self.declined_pawns_after(mv);
        let new_cs = self.counter_strike_after(mv);
        if !mv.is_pass() {
            let (from, to) = (mv.from(), mv.to());
            let placed = self.placed_piece(mv);
            undo.moved = self.remove(from);
            if let Some(mid) = mv.mid() {
                undo.captured_mid = self.remove(mid);
            }
            if self.board[to.index()].is_some() {
                undo.captured_to = self.remove(to);
            }
            self.put(to, placed);
        }
        self.set_counter_strike(new_cs);
        self.set_declined_pawns(declined);
        self.side = !self.side;
        self.key ^= zobrist::gote_to_move();
        self.move_number += 1;
        undo.window_start = if self.move_is_irreversible(&undo) {
            self.history.len() + 1
        } else {
            self.window_start()
        };
        self.history.push(undo);
        debug_assert_eq!(self.key, self.compute_key());
    }

    /// Takes back the last move played. Returns it, or `None` at the root.
    pub fn undo(&mut self) -> Option<Move> {
        let u = self.history.pop()?;
        self.side = !self.side;
        self.move_number -= 1;
        if !u.mv.is_pass() {
            let (from, to) = (u.mv.from(), u.mv.to());
            self.remove(to);
            if u.captured_to.is_some() {
                self.put(to, u.captured_to);
            }
            if let Some(mid) = u.mv.mid() {
                self.put(mid, u.captured_mid);
            }
            self.put(from, u.moved);
        }
        self.counter_strike = u.counter_strike;
        self.declined_pawns = u.declined_pawns;
        self.key = u.key;
        Some(u.mv)
    }

    /// What the last move did to the board, for evaluations kept incrementally: the pieces it
    /// took off (the mover from its square, a victim on the middle square, a victim on the
    /// destination) and the piece it put down. A pass changes nothing. `None` at the root.
    pub fn last_change(&self) -> Option<BoardChange> {
        let u = self.history.last()?;
        let mut change = BoardChange::default();
        if u.mv.is_pass() {
            return Some(change);
        }
        let (from, to) = (u.mv.from(), u.mv.to());
        change.removed[0] = (from, u.moved);
        if let Some(mid) = u.mv.mid() {
            change.removed[1] = (mid, u.captured_mid);
        }
        change.removed[2] = (to, u.captured_to);
        change.added = Some((to, self.board[to.index()]));
        Some(change)
    }

    /// Keys of the earlier positions since the last irreversible move (docs/rules.md section 8),
    /// newest first; the current position is not included.
    pub fn repetition_window(&self) -> impl Iterator<Item = u64> + '_ {
        self.history[self.window_start()..]
            .iter()
            .rev()
            .map(|u| u.key)
    }

    /// Where the reversible stretch of the current position begins, as an index in the history.
    fn window_start(&self) -> usize {
        self.history.last().map_or(0, |u| u.window_start)
    }

    /// Plies back to each earlier occurrence of the current position since the last
    /// irreversible move, the most recent first (the same side to move: even distances).
    pub fn earlier_occurrences(&self) -> impl Iterator<Item = usize> + '_ {
        let key = self.repetition_key(self.key, self.counter_strike);
        self.history[self.window_start()..]
            .iter()
            .rev()
            .enumerate()
            .skip(1)
            .step_by(2)
            .filter(move |&(_, u)| self.repetition_key(u.key, u.counter_strike) == key)
            .map(|(i, _)| i + 1)
    }

    /// What a repetition compares of a position with `key` and `counter_strike`: the whole key
    /// (board, side to move, counter-strike state; docs/rules.md section 8), or under
    /// `Repetition::Forbid` the key without the counter-strike state, because HaChu, whose rule
    /// that is, compares board and side to move only (it refused a move as "Repeats earlier
    /// position" that restored the board of a position where a Lion had just been taken).
    #[inline]
    fn repetition_key(&self, key: u64, counter_strike: Option<Square>) -> u64 {
        match counter_strike {
            Some(cs) if self.rules.repetition == Repetition::Forbid => {
                key ^ zobrist::counter_strike(cs)
            }
            _ => key,
        }
    }

    /// Plies back to the most recent earlier occurrence of the current position since the last
    /// irreversible move.
    pub fn last_repetition(&self) -> Option<usize> {
        self.earlier_occurrences().next()
    }

    /// How often the current position has occurred since the last irreversible move (at least 1).
    pub fn repetition_count(&self) -> usize {
        1 + self.earlier_occurrences().count()
    }

    /// At a fourth (or later) occurrence, the plies back to the cycle's start (docs/rules.md section
    /// 8): the oldest earlier occurrence since the last irreversible move.
    pub fn fourfold_cycle_plies(&self) -> Option<usize> {
        let mut earlier = self.earlier_occurrences();
        let third = earlier.nth(2)?;
        Some(earlier.last().unwrap_or(third))
    }

    /// Whether the last move was irreversible for repetition counting (docs/rules.md section 8): a
    /// capture, a promotion, or a pawn or lance move.
    pub fn last_move_irreversible(&self) -> bool {
        self.history
            .last()
            .is_some_and(|u| self.move_is_irreversible(u))
    }

    fn move_is_irreversible(&self, u: &Undo) -> bool {
        u.captured_to.is_some()
            || u.captured_mid.is_some()
            || u.mv.is_promotion()
            || (u.moved.is_some() && u.moved.kind().is_one_way())
    }

    /// Whether the move just played gives check, or leaves the moved piece attacking an enemy
    /// piece: the moves that make a repetition a perpetual attack (docs/rules.md section 8).
    pub fn last_move_checks_or_attacks(&self) -> bool {
        let mover = !self.side;
        if self.in_check(self.side) {
            return true;
        }
        let Some(last) = self.history.last() else {
            return false;
        };
        if last.mv.is_pass() {
            return false;
        }
        let to = last.mv.to();
        let kind = self.piece_at(to).kind();
        let walls = self.occupied() | self.variant.off_board();
        (tables().attacks(kind, mover, to, walls) & self.pieces(self.side)).any()
    }

    /// Whether playing `mv` (a legal move here) captures anything.
    pub fn is_capture(&self, mv: Move) -> bool {
        !mv.is_pass()
            && (mv.mid().is_some() || (mv.to() != mv.from() && self.piece_at(mv.to()).is_some()))
    }

    /// Pieces of `by` that attack `sq`, with `occupied` as the blockers.
    pub fn attackers_to(&self, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
        self.scan_attackers(sq, by, occupied, false)
    }

    /// Pieces of either side that attack `sq`, with `occupied` as the blockers: one scan for
    /// what [`Position::attackers_to`] would answer for each side.
    pub fn attackers_of_both(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let board = &self.board;
        let piece_at = |s: Square| board[s.index()];
        self.scan_attackers_on(sq, None, occupied, occupied, piece_at, false)
    }

    /// Whether any piece of `by` attacks `sq`, with `occupied` as the blockers: what
    /// [`Position::attackers_to`] answers, stopping at the first attacker.
    pub fn is_attacked(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        self.scan_attackers(sq, by, occupied, true).any()
    }

    /// The attackers of `sq`, or only the first one found when `first_only`.
    fn scan_attackers(
        &self,
        sq: Square,
        by: Color,
        occupied: Bitboard,
        first_only: bool,
    ) -> Bitboard {
        let board = &self.board;
        let piece_at = |s: Square| board[s.index()];
        self.scan_attackers_on(
            sq,
            Some(by),
            self.pieces(by),
            occupied,
            piece_at,
            first_only,
        )
    }

    /// [`Position::scan_attackers`] on a board given by `theirs` (the pieces of `by`, or of
    /// both sides when `by` is `None`), `occupied` and `piece_at`: this one, or the one after a
    /// move ([`Peek`]).
    fn scan_attackers_on(
        &self,
        sq: Square,
        by: Option<Color>,
        theirs: Bitboard,
        occupied: Bitboard,
        piece_at: impl Fn(Square) -> Piece,
        first_only: bool,
    ) -> Bitboard {
        let t = tables();
        let mut attackers = Bitboard::EMPTY;
        for from in theirs & t.within_two(sq) {
            let piece = piece_at(from);
            if t.leaper(piece.kind(), by.unwrap_or(piece.color()), from)
                .has(sq)
            {
                attackers.set(from);
                if first_only {
                    return attackers;
                }
            }
        }
        let walls = occupied | self.variant.off_board();
        for dir in 0..8 {
            if (t.ray(dir, sq) & theirs).is_empty() {
                continue;
            }
            let Some(b) = t.first_blocker(dir, sq, walls) else {
                continue;
            };
            if occupied.has(b) && theirs.has(b) {
                let piece = piece_at(b);
                let back = (dir as u8 + 4) & 7;
                if t.slide_dirs(piece.kind(), by.unwrap_or(piece.color())) >> back & 1 != 0 {
                    attackers.set(b);
                    if first_only {
                        return attackers;
                    }
                }
            }
        }
        attackers
    }

    /// Whether any royal of `color` is attacked.
    pub fn in_check(&self, color: Color) -> bool {
        let occ = self.occupied();
        self.royals(color)
            .iter()
            .any(|r| self.is_attacked(r, !color, occ))
    }

    /// The number of pieces of `color` on the board.
    pub fn piece_count(&self, color: Color) -> u32 {
        self.pieces(color).count()
    }
}

impl PartialEq for Position {
    /// Positions are equal when board, side to move, counter-strike square, declined pawns and
    /// variant agree.
    fn eq(&self, other: &Self) -> bool {
        self.variant == other.variant
            && self.board == other.board
            && self.side == other.side
            && self.counter_strike == other.counter_strike
            && self.declined_pawns == other.declined_pawns
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_sfen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stale_key_is_reported_with_both_keys() {
        let mut pos = Position::startpos(Variant::Heian);
        assert_eq!(pos.check_consistency(), Ok(()));
        let computed = pos.key;
        pos.key ^= 1;
        let err = pos.check_consistency().unwrap_err();
        assert_eq!(
            err,
            ConsistencyError::Key {
                incremental: computed ^ 1,
                computed
            }
        );
        assert!(
            err.to_string().contains(&format!("{:#x}", computed ^ 1)),
            "{err}"
        );
    }

    #[test]
    fn a_piece_missing_from_the_bitboards_is_reported() {
        let mut pos = Position::startpos(Variant::Heian);
        pos.by_color = [Bitboard::EMPTY; 2];
        assert_eq!(pos.check_consistency(), Err(ConsistencyError::Bitboards));
    }
}
