//! When a Chu piece may promote (docs/rules.md section 7, and the `hachu` rule set of section 9), and
//! the one promotion fact that outlives a move: under HaChu's `entry-only` rule a Pawn that
//! declined a promotion it could have made may afterwards promote only by capturing onto the
//! last rank. HaChu 0.21 marks the pawn itself when it reads such a deferral (its piece list
//! keeps only the last-rank flag), so the position has to carry which pawns those are.

use super::Position;
use crate::board::{zobrist, Bitboard, Family, Kind, Square};
use crate::moves::Move;
use crate::rules::PromotionRule;

/// What decides the promotions of the side to move in one position, read once for all its
/// pieces (a Chu move generation asks for every piece).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Promotions {
    zone: Bitboard,
    last_rank: Bitboard,
    declined: Bitboard,
    rule: PromotionRule,
}

impl Promotions {
    /// Squares to which the `kind` on `from` may promote when moving to any of `targets`: a move
    /// entering the zone, or a capture with its start or final square in it; under lishogi's
    /// rule also a pawn or lance reaching the last rank. HaChu 0.21 (`entry-only`) has no
    /// last-rank exception: checked against the real HaChu, which accepts capture promotions
    /// inside and out of the zone but refuses `e11e12+` for a pawn stepping onto an empty
    /// last-rank square. A pawn that declined a promotion under that rule promotes only by
    /// capturing onto the last rank.
    #[inline]
    pub(crate) fn squares(
        &self,
        kind: Kind,
        from: Square,
        targets: Bitboard,
        enemy: Bitboard,
    ) -> Bitboard {
        if kind.promotes_to().is_none() {
            return Bitboard::EMPTY;
        }
        if self.declined.has(from) {
            return targets & enemy & self.last_rank;
        }
        let mut promo = if self.zone.has(from) {
            targets & enemy
        } else {
            targets & self.zone
        };
        if self.rule == PromotionRule::Lishogi && matches!(kind, Kind::Pawn | Kind::Lance) {
            promo |= targets & self.last_rank;
        }
        promo
    }

    /// Of the squares where the piece may promote, those where it must: under HaChu's
    /// `entry-only` rule a pawn or lance that may promote on reaching the last rank has to
    /// (HaChu generates no deferral there, and reads an unpromoted spelling of such a move as
    /// the promotion: after `usermove` of a pawn capturing onto the last rank without `+`, the
    /// piece on that square moves like a Gold). Under lishogi's rule it may stay, immobile.
    #[inline]
    pub(crate) fn forced(&self, kind: Kind, promotions: Bitboard) -> Bitboard {
        if self.rule == PromotionRule::EntryOnly && matches!(kind, Kind::Pawn | Kind::Lance) {
            promotions & self.last_rank
        } else {
            Bitboard::EMPTY
        }
    }
}

impl Position {
    /// The promotion facts of the side to move.
    #[inline]
    pub(crate) fn promotions(&self) -> Promotions {
        let us = self.side_to_move();
        Promotions {
            zone: self.variant.zone(us),
            last_rank: self.variant.last_rank(us),
            declined: self.declined_pawns,
            rule: self.rules.promotion,
        }
    }

    /// The Chu pawns that declined a promotion under the `entry-only` rule; always empty under
    /// any other rule and in Heian. An SFEN does not record them (nor does HaChu's `setboard`).
    #[inline]
    pub fn declined_pawns(&self) -> Bitboard {
        self.declined_pawns
    }

    /// The declined pawns after `mv`, read before it is played: captured pawns leave the set,
    /// a declined pawn carries its mark along, and an unpromoted pawn move that could have
    /// promoted adds one.
    pub(super) fn declined_pawns_after(&self, mv: Move) -> Bitboard {
        if self.rules.promotion != PromotionRule::EntryOnly
            || self.family() != Family::Chu
            || mv.is_pass()
        {
            return self.declined_pawns;
        }
        let (from, to) = (mv.from(), mv.to());
        let mut declined = self.declined_pawns;
        declined.clear(to);
        if let Some(mid) = mv.mid() {
            declined.clear(mid);
        }
        let carried = declined.has(from);
        declined.clear(from);
        if self.piece_at(from).kind() == Kind::Pawn && !mv.is_promotion() {
            let enemy = self.pieces(!self.side_to_move());
            let could_promote = self
                .promotions()
                .squares(Kind::Pawn, from, Bitboard::from_square(to), enemy)
                .any();
            if carried || could_promote {
                declined.set(to);
            }
        }
        declined
    }

    /// Replaces the declined pawns, keeping the key in step.
    pub(super) fn set_declined_pawns(&mut self, declined: Bitboard) {
        for sq in self.declined_pawns ^ declined {
            self.key ^= zobrist::declined_pawn(sq);
        }
        self.declined_pawns = declined;
    }
}
