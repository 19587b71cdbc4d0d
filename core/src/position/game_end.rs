//! Game end decided by the position alone (docs/rules.md sections 5 and 10): royals captured,
//! stalemate or checkmate, bare king, the two-royal draw. Repetition needs the game's history
//! and is decided by `game::GameRecord`.

use super::Position;
use crate::board::attacks::tables;
use crate::board::{Color, Family, Kind};
use std::fmt;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutcomeReason {
    /// The loser has no King or Crown Prince left.
    RoyalsCaptured,
    /// The loser is to move and has no legal move while in check (Heian).
    Checkmate,
    /// The loser is to move and has no legal move.
    Stalemate,
    /// The loser was bared (docs/rules.md sections 5 and 10).
    BareKing,
    /// Only one royal each is left, neither in check (Chu), or two bare kings (Heian).
    TwoRoyals,
    /// The fourth occurrence of a position.
    Repetition,
    /// The loser's every move in the repeated cycle was a check or an attack.
    PerpetualAttack,
    /// The loser played an illegal move (for example a repetition where repeats are forbidden).
    IllegalMove,
}

/// A reason a game can end for, as a lowercase phrase for result lines. The rules' own reasons
/// are `OutcomeReason`; a match runner adds its own (time forfeit, crash...) to describe games
/// with the same `Outcome` shape.
pub trait Describe: Copy {
    /// Lowercase phrase for result lines: `"bare king"`, `"time forfeit"`.
    fn describe(self) -> &'static str;
}

/// A finished game: the winner (`None` for a draw) and why, by default for one of the rules'
/// reasons.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome<R = OutcomeReason> {
    /// The side that won; `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: R,
}

impl<R> Outcome<R> {
    /// A win for `winner`.
    pub fn win(winner: Color, reason: R) -> Outcome<R> {
        Outcome {
            winner: Some(winner),
            reason,
        }
    }

    /// A draw.
    pub fn draw(reason: R) -> Outcome<R> {
        Outcome {
            winner: None,
            reason,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`, with sente as the first player.
    pub fn score(&self) -> &'static str {
        match self.winner {
            Some(Color::Sente) => "1-0",
            Some(Color::Gote) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl OutcomeReason {
    /// Lowercase phrase for result lines: `"bare king"`, `"repetition"`.
    pub fn describe(self) -> &'static str {
        match self {
            OutcomeReason::RoyalsCaptured => "royals captured",
            OutcomeReason::Checkmate => "checkmate",
            OutcomeReason::Stalemate => "stalemate",
            OutcomeReason::BareKing => "bare king",
            OutcomeReason::TwoRoyals => "only two royals left",
            OutcomeReason::Repetition => "repetition",
            OutcomeReason::PerpetualAttack => "perpetual check or attack",
            OutcomeReason::IllegalMove => "illegal move",
        }
    }
}

impl Describe for OutcomeReason {
    fn describe(self) -> &'static str {
        OutcomeReason::describe(self)
    }
}

impl<R: Describe> fmt::Display for Outcome<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(c) => write!(
                f,
                "{} {} wins by {}",
                self.score(),
                c.name(),
                self.reason.describe()
            ),
            None => write!(f, "{} draw by {}", self.score(), self.reason.describe()),
        }
    }
}

impl Position {
    /// The game's result if it is over in this position, ignoring repetition.
    pub fn outcome(&self) -> Option<Outcome> {
        let has_move = self.has_legal_move();
        self.outcome_given_moves(has_move)
    }

    /// `outcome` when the caller already knows whether the side to move has a legal move.
    pub fn outcome_given_moves(&self, has_legal_move: bool) -> Option<Outcome> {
        let us = self.side_to_move();
        if self.royals(us).is_empty() {
            return Some(Outcome::win(!us, OutcomeReason::RoyalsCaptured));
        }
        match self.family() {
            Family::Chu => self.chu_outcome(has_legal_move),
            Family::Heian => self.heian_outcome(has_legal_move),
        }
    }

    /// Cheap test run before move generation: the game is over whatever the moves are.
    pub fn is_over_before_moves(&self) -> bool {
        let us = self.side_to_move();
        self.royals(us).is_empty()
            || match self.family() {
                Family::Chu => {
                    self.rules().bare_king
                        && (self.chu_bare_king().is_some() || self.chu_two_royals())
                }
                Family::Heian => self.heian_bare_king().is_some(),
            }
    }

    fn chu_outcome(&self, has_legal_move: bool) -> Option<Outcome> {
        let us = self.side_to_move();
        if !has_legal_move {
            return Some(Outcome::win(!us, OutcomeReason::Stalemate));
        }
        if !self.rules().bare_king {
            return None;
        }
        if let Some(loser) = self.chu_bare_king() {
            return Some(Outcome::win(!loser, OutcomeReason::BareKing));
        }
        if self.chu_two_royals() {
            return Some(Outcome::draw(OutcomeReason::TwoRoyals));
        }
        None
    }

    /// The side that is bared and loses, checking the side to move first.
    fn chu_bare_king(&self) -> Option<Color> {
        let us = self.side_to_move();
        [us, !us].into_iter().find(|&c| self.chu_is_bared(c))
    }

    /// docs/rules.md section 5, as lishogi applies it: `color` has only one royal (plus immobile
    /// last-rank pawns and lances); the opponent has exactly one royal, at least two counted
    /// pieces (not pawns, go-betweens or immobile lances), is not in check, and has three counted
    /// pieces or none next to the bared royal.
    fn chu_is_bared(&self, color: Color) -> bool {
        let v = self.variant();
        let one_way = self.kind_bb(Kind::Pawn) | self.kind_bb(Kind::Lance);
        let ours = self.pieces(color) & !(one_way & v.last_rank(color));
        if ours.count() != 1 {
            return false;
        }
        let Some(our_royal) = self.royals(color).single() else {
            return false;
        };
        let them = !color;
        let theirs = self.pieces(them)
            & !(self.kind_bb(Kind::Pawn) | self.kind_bb(Kind::GoBetween))
            & !(self.kind_bb(Kind::Lance) & v.last_rank(them));
        theirs.count() > 1
            && self.royals(them).single().is_some()
            && !self.in_check(them)
            && (theirs.count() > 2 || (tables().neighbours(our_royal) & theirs).is_empty())
    }

    /// Two pieces left besides immobile last-rank pawns and lances, one royal each, no check.
    fn chu_two_royals(&self) -> bool {
        let v = self.variant();
        let one_way = self.kind_bb(Kind::Pawn) | self.kind_bb(Kind::Lance);
        let dead = (one_way & self.pieces(Color::Sente) & v.last_rank(Color::Sente))
            | (one_way & self.pieces(Color::Gote) & v.last_rank(Color::Gote));
        (self.occupied() & !dead).count() == 2
            && Color::BOTH
                .iter()
                .all(|&c| self.royals(c).single().is_some() && !self.in_check(c))
    }

    fn heian_outcome(&self, has_legal_move: bool) -> Option<Outcome> {
        let us = self.side_to_move();
        if let Some(o) = self.heian_bare_king() {
            return Some(o);
        }
        if !has_legal_move {
            let reason = if self.in_check(us) {
                OutcomeReason::Checkmate
            } else {
                OutcomeReason::Stalemate
            };
            return Some(Outcome::win(!us, reason));
        }
        None
    }

    /// docs/rules.md section 10: counting every piece, the side that just moved with only its king
    /// loses against two or more; the side to move with only its king loses against three or
    /// more; two bare kings draw.
    fn heian_bare_king(&self) -> Option<Outcome> {
        if !self.rules().bare_king {
            return None;
        }
        let us = self.side_to_move();
        let (ours, theirs) = (self.piece_count(us), self.piece_count(!us));
        if ours == 1 && theirs == 1 {
            Some(Outcome::draw(OutcomeReason::TwoRoyals))
        } else if theirs == 1 && ours >= 2 {
            Some(Outcome::win(us, OutcomeReason::BareKing))
        } else if ours == 1 && theirs >= 3 {
            Some(Outcome::win(!us, OutcomeReason::BareKing))
        } else {
            None
        }
    }
}
