//! An independent check of a proof: replays every legal reply of the defender (not only the
//! escapes the solver considered) against the proof's attacker moves, with the rules core's own
//! move generator, and measures the longest line. Defender positions are memoised by key with
//! the length of their longest line, which depends on the position alone (the proof gives one
//! attacker move per position), so each is checked once however many ways and at however many
//! plies from the end it is reached; a position reached with fewer plies left than its line
//! fails as it would have if checked again.
//!
//! The verifier decides for itself which replies are escapes: a reply is none when the attacker
//! can then take the defender's last royal (Chu), and a defender with no escape, or no legal
//! move, is mated. The line ends with the mating move, as published tsume count it.

use super::rules::{gives_check, last_royal_capture, royals_gone, Royals};
use crate::board::Color;
use crate::movegen::{generate, generated_by_piece, MoveList};
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
    /// Which moves are checks while the defender has King and Crown Prince.
    royals: Royals,
    /// Proven defender positions: key to the length of their longest line.
    seen: HashMap<u64, usize>,
}

/// Checks that the attacker (side to move in `pos`) mates within `max_plies` following `proof`
/// against every defence, every move a check under `royals`; returns the length of the longest
/// line (ending with the mating move).
pub fn verify(
    pos: &Position,
    proof: &HashMap<u64, Move>,
    max_plies: usize,
    royals: Royals,
) -> Result<usize, VerifyError> {
    verified_line(pos, proof, max_plies, royals).map(|line| line.len())
}

/// As [`verify`], and returns the longest line itself: the proof's attacker moves against the
/// defence that resists longest (the first such reply in move-generation order).
pub fn verified_line(
    pos: &Position,
    proof: &HashMap<u64, Move>,
    max_plies: usize,
    royals: Royals,
) -> Result<Vec<Move>, VerifyError> {
    let mut verifier = Verifier {
        proof,
        defender: !pos.side_to_move(),
        attacker_royal: pos.royals(pos.side_to_move()).any(),
        royals,
        seen: HashMap::new(),
    };
    let mut walk = pos.clone();
    let longest = verifier.attack(&mut walk, max_plies)?;
    Ok(verifier.line(&mut walk, longest))
}

fn all_moves(pos: &Position) -> MoveList {
    let mut moves = MoveList::new();
    generate(pos, &mut moves);
    moves
}

impl Verifier<'_> {
    /// A move of the attacker that takes the defender's last royal, if any.
    fn royal_capture(&self, pos: &mut Position) -> Option<Move> {
        last_royal_capture(pos, self.defender)
    }

    /// The attacker's move in `pos`: the capture of the last royal, or the proof's move.
    fn attacker_move(&self, pos: &mut Position) -> Result<Move, VerifyError> {
        if let Some(mv) = self.royal_capture(pos) {
            return Ok(mv);
        }
        let mv = *self
            .proof
            .get(&pos.key())
            .ok_or_else(|| VerifyError::Missing {
                sfen: pos.to_sfen(),
            })?;
        let legal = generated_by_piece(pos, mv).unwrap_or_else(|| all_moves(pos).contains(&mv));
        if !legal {
            return Err(VerifyError::NotACheck {
                sfen: pos.to_sfen(),
                mv,
            });
        }
        Ok(mv)
    }

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
        let mv = self.attacker_move(pos)?;
        pos.play(mv);
        let won = royals_gone(pos, self.defender);
        let check = gives_check(pos, self.defender, self.royals);
        let result = if check && !won {
            self.defend(pos, left - 1)
        } else {
            Ok(0)
        };
        pos.undo();
        if !check {
            return Err(VerifyError::NotACheck {
                sfen: pos.to_sfen(),
                mv,
            });
        }
        Ok(1 + result?)
    }

    /// The defender's replies that are escapes: legal moves after which the attacker cannot
    /// take its last royal. A reply that takes the attacker's last royal is an error.
    fn escapes(&self, pos: &mut Position) -> Result<Vec<Move>, VerifyError> {
        let mut escapes = Vec::new();
        for mv in all_moves(pos) {
            pos.play(mv);
            let lost = self.attacker_royal && royals_gone(pos, !self.defender);
            let sfen = lost.then(|| pos.to_sfen());
            let hangs = !lost && self.royal_capture(pos).is_some();
            pos.undo();
            if let Some(sfen) = sfen {
                return Err(VerifyError::AttackerLost { sfen });
            }
            if !hangs {
                escapes.push(mv);
            }
        }
        Ok(escapes)
    }

    fn defend(&mut self, pos: &mut Position, left: usize) -> Result<usize, VerifyError> {
        if let Some(&done) = self.seen.get(&pos.key()) {
            if done > left {
                return Err(VerifyError::TooLong {
                    sfen: pos.to_sfen(),
                });
            }
            return Ok(done);
        }
        let escapes = self.escapes(pos)?;
        if escapes.is_empty() {
            return Ok(0);
        }
        if left < 2 {
            return Err(VerifyError::TooLong {
                sfen: pos.to_sfen(),
            });
        }
        let mut longest = 0;
        for mv in escapes {
            pos.play(mv);
            let reply = self.attack(pos, left - 1);
            pos.undo();
            longest = longest.max(1 + reply?);
        }
        self.seen.insert(pos.key(), longest);
        Ok(longest)
    }

    /// The longest line of an already verified proof, `length` plies from `pos` (attacker to
    /// move); every call below is answered from the memo or succeeds as the check did.
    fn line(&mut self, pos: &mut Position, length: usize) -> Vec<Move> {
        let start = pos.plies_played();
        let mut line = Vec::with_capacity(length);
        let mut left = length;
        while left > 0 {
            let Ok(mv) = self.attacker_move(pos) else {
                break;
            };
            line.push(mv);
            pos.play(mv);
            left -= 1;
            let Some(reply) = self.longest_reply(pos, left) else {
                break;
            };
            line.push(reply);
            pos.play(reply);
            left -= 1;
        }
        while pos.plies_played() > start {
            pos.undo();
        }
        line
    }

    /// The escape that resists longest with `left` plies to go, `None` when mated.
    fn longest_reply(&mut self, pos: &mut Position, left: usize) -> Option<Move> {
        if royals_gone(pos, self.defender) || left < 2 {
            return None;
        }
        let escapes = self.escapes(pos).ok()?;
        let mut best: Option<(usize, Move)> = None;
        for mv in escapes {
            pos.play(mv);
            let length = self.attack(pos, left - 1).unwrap_or(0);
            pos.undo();
            if best.is_none_or(|(b, _)| length > b) {
                best = Some((length, mv));
            }
        }
        best.map(|(_, mv)| mv)
    }
}
