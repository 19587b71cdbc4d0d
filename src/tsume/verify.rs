//! An independent check of a proof: replays every legal reply of the defender (not only the
//! escapes the solver considered) against the proof's attacker moves, with the rules core's own
//! move generator, and measures the longest line. Positions are memoised by key and plies left,
//! so transpositions are checked once.

use super::rules::{is_check, royals_gone};
use crate::board::Color;
use crate::movegen::{generate, MoveList};
use crate::moves::Move;
use crate::position::Position;
use std::collections::HashMap;
use std::fmt;

/// Why a proof does not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifyError {
    /// The proof has no attacker move for a position the defender can reach.
    Missing {
        /// SFEN of the attacker position.
        sfen: String,
    },
    /// The proof's move is not legal, or is not a check.
    NotACheck {
        /// SFEN of the attacker position.
        sfen: String,
        /// The proof's move there.
        mv: Move,
    },
    /// The defender captured the attacker's last royal.
    AttackerLost {
        /// The position after that capture (SFEN).
        sfen: String,
    },
    /// The defender survives past the claimed length.
    TooLong {
        /// The position (SFEN) where the defender is still alive when the length runs out.
        sfen: String,
    },
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Missing { sfen } => write!(f, "no attacker move in the proof for {sfen}"),
            VerifyError::NotACheck { sfen, mv } => {
                write!(f, "the proof's move {mv:?} in {sfen} is not a legal check")
            }
            VerifyError::AttackerLost { sfen } => {
                write!(
                    f,
                    "the defender takes the attacker's last royal, reaching {sfen}"
                )
            }
            VerifyError::TooLong { sfen } => {
                write!(f, "the defender survives the claimed length, in {sfen}")
            }
        }
    }
}

impl std::error::Error for VerifyError {}

struct Verifier<'a> {
    proof: &'a HashMap<u64, Move>,
    defender: Color,
    /// The attacker started with a royal, so losing its last one loses the problem.
    attacker_royal: bool,
    /// Proven positions: (key, plies left) to the length of their longest line.
    seen: HashMap<(u64, usize), usize>,
}

/// Checks that the attacker (side to move in `pos`) mates within `max_plies` following `proof`
/// against every defence; returns the length of the longest line.
pub fn verify(
    pos: &Position,
    proof: &HashMap<u64, Move>,
    max_plies: usize,
) -> Result<usize, VerifyError> {
    let mut verifier = Verifier {
        proof,
        defender: !pos.side_to_move(),
        attacker_royal: pos.royals(pos.side_to_move()).any(),
        seen: HashMap::new(),
    };
    verifier.attack(&mut pos.clone(), max_plies)
}

fn all_moves(pos: &Position) -> MoveList {
    let mut moves = MoveList::new();
    generate(pos, &mut moves);
    moves
}

impl Verifier<'_> {
    fn attack(&mut self, pos: &mut Position, left: usize) -> Result<usize, VerifyError> {
        if self.attacker_royal && royals_gone(pos, !self.defender) {
            return Err(VerifyError::AttackerLost {
                sfen: pos.to_sfen(),
            });
        }
        if left == 0 {
            return Err(VerifyError::TooLong {
                sfen: pos.to_sfen(),
            });
        }
        let moves = all_moves(pos);
        let takes_last_royal = moves.iter().any(|&mv| {
            pos.play(mv);
            let won = royals_gone(pos, self.defender);
            pos.undo();
            won
        });
        if takes_last_royal {
            return Ok(1);
        }
        let key = pos.key();
        let mv = *self.proof.get(&key).ok_or_else(|| VerifyError::Missing {
            sfen: pos.to_sfen(),
        })?;
        let not_a_check = |pos: &Position| VerifyError::NotACheck {
            sfen: pos.to_sfen(),
            mv,
        };
        if !moves.contains(&mv) {
            return Err(not_a_check(pos));
        }
        pos.play(mv);
        let check = is_check(pos, self.defender);
        let result = if check {
            self.defend(pos, left - 1)
        } else {
            Ok(0)
        };
        pos.undo();
        if !check {
            return Err(not_a_check(pos));
        }
        Ok(1 + result?)
    }

    fn defend(&mut self, pos: &mut Position, left: usize) -> Result<usize, VerifyError> {
        let moves = all_moves(pos);
        if moves.is_empty() {
            return Ok(0);
        }
        if let Some(&done) = self.seen.get(&(pos.key(), left)) {
            return Ok(done);
        }
        if left < 2 {
            return Err(VerifyError::TooLong {
                sfen: pos.to_sfen(),
            });
        }
        let mut longest = 0;
        for mv in moves {
            pos.play(mv);
            let reply = self.attack(pos, left - 1);
            pos.undo();
            longest = longest.max(1 + reply?);
        }
        self.seen.insert((pos.key(), left), longest);
        Ok(longest)
    }
}
