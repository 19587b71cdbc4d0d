//! A game record: the start position, the moves played, and the one place that decides whether
//! and how the game ended (docs/rules.md sections 5, 8 and 10).
//!
//! `Position` knows the game ends its board alone decides (royals captured, stalemate or
//! checkmate, bare king, two royals). Repetition needs the history, so it lives here: under
//! `Repetition::Fourfold` the fourth occurrence of a position (board, side to move,
//! counter-strike state) since the last irreversible move ends the game, drawn unless one side's
//! every move since the first of those occurrences was a check or an attack (then that side
//! loses); under `Repetition::Forbid` a move that repeats any earlier position since the last
//! irreversible move is illegal. Protocols and the match runner keep one `GameRecord` per game
//! and ask `outcome()` after every move.

pub mod repetition;

use crate::board::Color;
use crate::movegen::MoveList;
use crate::moves::Move;
use crate::notation::{parse_move, write_move, IllegalMove, MoveError, Notation};
use crate::position::{Outcome, OutcomeReason, Position};
use crate::rules::{Repetition, RuleSet};

/// The result of a finished game: winner (or draw) and reason.
pub type GameResult = Outcome;

/// Why `GameRecord::play` refused a move; the record is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The game is already over.
    #[error("the game is over ({0})")]
    GameOver(Outcome),
    /// The move is not one the move generator produces in the current position.
    #[error("not a legal move here (move bits {:#x})", .0.bits())]
    NotLegal(Move),
}

/// Why `GameRecord::play_text` refused a move text; the record is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The text is not a move of the position, or repeats a position where that is forbidden.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// The move cannot be played: the game is over.
    #[error(transparent)]
    Game(#[from] GameError),
}

/// One game from its start position.
#[derive(Clone)]
pub struct GameRecord {
    start: Position,
    position: Position,
    /// `attacking[i]`: whether move `i` was a check or an attack.
    attacking: Vec<bool>,
    /// The ply of a repetition played although the rules forbid it, if any.
    forbidden_repeat: Option<usize>,
}

impl GameRecord {
    /// A game starting at `start` (its rules apply; its own move history is not part of the game).
    pub fn new(start: Position) -> GameRecord {
        let mut start = start;
        while start.undo().is_some() {}
        GameRecord {
            attacking: Vec::new(),
            forbidden_repeat: None,
            position: start.clone(),
            start,
        }
    }

    /// The start position, with an empty move history.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position; its history holds every move of the game.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Plays the rest of the game under `rules` (a protocol's rule options changed mid-game).
    pub fn set_rules(&mut self, rules: RuleSet) {
        self.start.set_rules(rules);
        self.position.set_rules(rules);
    }

    /// The moves played, oldest first.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.position.moves_played()
    }

    /// Number of moves played.
    pub fn plies(&self) -> usize {
        self.attacking.len()
    }

    /// Keys of the positions since the last irreversible move, oldest first, the current last
    /// (kept by the position's history, their one owner).
    pub fn repetition_history(&self) -> Vec<u64> {
        let mut keys: Vec<u64> = self.position.repetition_window().collect();
        keys.reverse();
        keys.push(self.position.key());
        keys
    }

    /// How often the current position has occurred since the last irreversible move (at least 1).
    pub fn repetition_count(&self) -> usize {
        self.position.repetition_count()
    }

    /// Whether the position after the last move of `after` repeats one since the last
    /// irreversible move; `after` is the current position with one move played.
    fn repeated_by(&self, after: &Position) -> bool {
        after.last_repetition().is_some()
    }

    /// Whether playing `mv` (a legal move of the position) would repeat a position since the last
    /// irreversible move.
    pub fn repeats(&self, mv: Move) -> bool {
        let mut after = self.position.clone();
        after.play(mv);
        self.repeated_by(&after)
    }

    /// The legal moves: the position's, minus repetitions where the rules forbid them.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = self.position.legal_moves();
        if self.position.rules().repetition == Repetition::Forbid {
            let mut after = self.position.clone();
            moves.retain(|mv| {
                after.play(*mv);
                let repeats = self.repeated_by(&after);
                after.undo();
                !repeats
            });
        }
        moves
    }

    /// Whether `mv` is in [`GameRecord::legal_moves`] (so a forbidden repetition is not legal).
    pub fn is_legal(&self, mv: Move) -> bool {
        self.legal_moves().contains(&mv)
    }

    /// Reads a move in `notation` and checks it against every rule, repetition included.
    pub fn parse(&self, text: &str, notation: Notation) -> Result<Move, MoveError> {
        let mv = parse_move(&self.position, text, notation)?;
        if self.position.rules().repetition == Repetition::Forbid && self.repeats(mv) {
            return Err(MoveError {
                text: text.to_string(),
                reason: IllegalMove::ForbiddenRepetition,
            });
        }
        Ok(mv)
    }

    /// Reads a move in `notation` (`GameRecord::parse`) and plays it.
    pub fn play_text(&mut self, text: &str, notation: Notation) -> Result<Move, PlayError> {
        let mv = self.parse(text, notation)?;
        self.play(mv)?;
        Ok(mv)
    }

    /// `mv` written in `notation`, for the current position.
    pub fn write(&self, mv: Move, notation: Notation) -> String {
        write_move(&self.position, mv, notation)
    }

    /// Plays `mv`. It must be a move of the position's generator; a repetition the rules forbid
    /// is played and recorded, and `outcome` then reports the mover's loss by illegal move.
    pub fn play(&mut self, mv: Move) -> Result<(), GameError> {
        if let Some(o) = self.outcome() {
            return Err(GameError::GameOver(o));
        }
        if !self.position.is_legal(mv) {
            return Err(GameError::NotLegal(mv));
        }
        let forbidden = self.position.rules().repetition == Repetition::Forbid && self.repeats(mv);
        self.position.play(mv);
        let attack = self.position.last_move_checks_or_attacks();
        self.attacking.push(attack);
        if forbidden && self.forbidden_repeat.is_none() {
            self.forbidden_repeat = Some(self.attacking.len() - 1);
        }
        Ok(())
    }

    /// Takes back the last move; `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.position.undo()?;
        self.attacking.pop();
        if self.forbidden_repeat == Some(self.attacking.len()) {
            self.forbidden_repeat = None;
        }
        Some(mv)
    }

    /// The game's result if it is over: an illegal repetition first, then what the position
    /// decides (royals captured, stalemate or checkmate, bare king, two royals), then a fourfold
    /// repetition.
    pub fn outcome(&self) -> Option<GameResult> {
        if let Some(ply) = self.forbidden_repeat {
            return Some(Outcome::win(
                !self.mover_of(ply),
                OutcomeReason::IllegalMove,
            ));
        }
        let has_move = !self.legal_moves().is_empty();
        if let Some(o) = self.position.outcome_given_moves(has_move) {
            return Some(o);
        }
        if self.position.rules().repetition == Repetition::Fourfold {
            return self.fourfold_outcome();
        }
        None
    }

    /// docs/rules.md section 8: at the fourth occurrence, the cycle runs from the first occurrence
    /// to now; `repetition::cycle_outcome` judges it by the record's check-or-attack flags.
    fn fourfold_outcome(&self) -> Option<Outcome> {
        let first = self.attacking.len() - self.position.fourfold_cycle_plies()?;
        let mut attacked_throughout = [true; 2];
        for ply in first..self.attacking.len() {
            if !self.attacking[ply] {
                attacked_throughout[self.mover_of(ply).index()] = false;
            }
        }
        Some(repetition::cycle_outcome(attacked_throughout))
    }

    /// Who played move number `ply` (0-based).
    fn mover_of(&self, ply: usize) -> Color {
        if ply.is_multiple_of(2) {
            self.start.side_to_move()
        } else {
            !self.start.side_to_move()
        }
    }
}
