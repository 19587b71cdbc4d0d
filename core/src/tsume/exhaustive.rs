//! A second opinion on "no mate within N plies": an exhaustive AND/OR search bounded by the
//! ply count, independent of the df-pn solver. The solver's disproofs are the answers no
//! verifier replays (a proof comes with a line, a disproof with nothing), and its repetition
//! handling is where such answers went wrong before, so this search keeps its own, simpler.
//!
//! A position repeated on the current line counts as a failure of the attack there. That never
//! hides a mate: in a shortest mate each attacker move lowers the distance to mate and no
//! defence raises it, so no line of it repeats a position. But a failure found through a
//! repetition holds only on its line, so such a result is never stored: the table keeps only
//! "mate within d" (which no repetition can cause) and "no mate within d" found without one.
//! The answer at the root is therefore exact, whatever the order of the search.
//!
//! It decides checks and escapes as the verifier does, from the rules core's move generator
//! and the board after each move. It deepens one attacker move at a time, trying first the
//! escape that held last time; it pays for its independence in nodes, so it is for settling a
//! disputed problem, not for solving.

use super::rules::{gives_check, last_royal_capture, royals_gone, Royals};
use crate::board::Color;
use crate::movegen::{generate, MoveList};
use crate::moves::Move;
use crate::position::Position;
use std::collections::HashMap;

/// What the bounded search established.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exhaustive {
    /// A mate in this many plies (the shortest), ending with the mating move.
    Mate(usize),
    /// No mate within the plies asked for.
    NoMate,
    /// The node budget ran out first.
    Unknown,
}

/// What is known of one position, attacker to move: no mate within `no_mate` plies, and a
/// mate within `mate` plies when `mate` is set.
#[derive(Clone, Copy, Default)]
struct Facts {
    no_mate: usize,
    mate: Option<usize>,
}

struct Search {
    defender: Color,
    attacker_royal: bool,
    royals: Royals,
    facts: HashMap<u64, Facts>,
    /// Defender positions: the escape that held longest the last time, tried first.
    first_escape: HashMap<u64, Move>,
    /// The attacker positions of the current line.
    line: Vec<u64>,
    nodes: u64,
    budget: u64,
}

/// The result of a search below one position: mated or not; for a failure, whether a
/// repetition on the line decided it (then it holds on this line only) and whether the ply
/// limit did (then it holds for this many plies only; otherwise for any number).
#[derive(Clone, Copy)]
struct Found {
    mate: bool,
    on_line: bool,
    limited: bool,
}

impl Found {
    const NEVER: Found = Found {
        mate: false,
        on_line: false,
        limited: false,
    };
    const MATE: Found = Found {
        mate: true,
        ..Found::NEVER
    };
    const NOT_YET: Found = Found {
        limited: true,
        ..Found::NEVER
    };
    const REPEATS: Found = Found {
        on_line: true,
        ..Found::NEVER
    };
}

/// Whether the side to move in `pos` mates within `max_plies` (odd lengths; the line ends with
/// the mating move), by checks (under `royals`) against every escape, deciding everything
/// itself; `nodes` bounds the work.
pub fn exhaustive_mate(pos: &Position, max_plies: usize, royals: Royals, nodes: u64) -> Exhaustive {
    let mut search = Search {
        defender: !pos.side_to_move(),
        attacker_royal: pos.royals(pos.side_to_move()).any(),
        royals,
        facts: HashMap::new(),
        first_escape: HashMap::new(),
        line: Vec::new(),
        nodes: 0,
        budget: nodes,
    };
    let mut walk = pos.clone();
    let mut limit = 1;
    while limit <= max_plies {
        match search.attack(&mut walk, limit) {
            Some(found) if found.mate => return Exhaustive::Mate(limit),
            Some(_) => limit += 2,
            None => return Exhaustive::Unknown,
        }
    }
    Exhaustive::NoMate
}

fn all_moves(pos: &Position) -> MoveList {
    let mut moves = MoveList::new();
    generate(pos, &mut moves);
    moves
}

impl Search {
    fn spend(&mut self) -> Option<()> {
        self.nodes += 1;
        (self.nodes <= self.budget).then_some(())
    }

    /// Whether the attacker mates within `left` plies; `None` when the budget ran out.
    fn attack(&mut self, pos: &mut Position, left: usize) -> Option<Found> {
        let key = pos.key();
        let known = self.facts.get(&key).copied().unwrap_or_default();
        if known.mate.is_some_and(|m| m <= left) {
            return Some(Found::MATE);
        }
        if known.no_mate == usize::MAX {
            return Some(Found::NEVER);
        }
        if known.no_mate >= left || left == 0 {
            return Some(Found::NOT_YET);
        }
        if self.attacker_royal && royals_gone(pos, !self.defender) {
            return Some(Found::NEVER);
        }
        if self.line.contains(&key) {
            return Some(Found::REPEATS);
        }
        self.spend()?;
        self.line.push(key);
        let found = self.checks(pos, left);
        self.line.pop();
        let found = found?;
        let entry = self.facts.entry(key).or_default();
        if found.mate {
            entry.mate = Some(entry.mate.map_or(left, |m| m.min(left)));
        } else if !found.on_line {
            entry.no_mate = if found.limited {
                entry.no_mate.max(left)
            } else {
                usize::MAX
            };
        }
        Some(found)
    }

    /// [`Search::attack`] over the attacker's moves, its line already extended: mated when one
    /// check mates; otherwise a failure that holds as far as every check's failure holds.
    fn checks(&mut self, pos: &mut Position, left: usize) -> Option<Found> {
        let mut failed = Found::NEVER;
        for mv in all_moves(pos) {
            pos.play(mv);
            let found = if royals_gone(pos, self.defender) {
                Some(Found::MATE)
            } else if gives_check(pos, self.defender, self.royals) {
                self.defend(pos, left - 1)
            } else {
                Some(Found::NEVER)
            };
            pos.undo();
            let found = found?;
            if found.mate {
                return Some(found);
            }
            failed.on_line |= found.on_line;
            failed.limited |= found.limited;
        }
        Some(failed)
    }

    /// Whether every escape of the defender is mated within `left` plies (a defender with no
    /// escape is mated now); a failure is the first escape's that holds.
    fn defend(&mut self, pos: &mut Position, left: usize) -> Option<Found> {
        self.spend()?;
        let mut escapes = Vec::new();
        for mv in all_moves(pos) {
            pos.play(mv);
            let takes_attacker = self.attacker_royal && royals_gone(pos, !self.defender);
            let hangs = !takes_attacker && last_royal_capture(pos, self.defender).is_some();
            pos.undo();
            if takes_attacker {
                return Some(Found::NEVER);
            }
            if !hangs {
                escapes.push(mv);
            }
        }
        if escapes.is_empty() {
            return Some(Found::MATE);
        }
        if left < 2 {
            return Some(Found::NOT_YET);
        }
        let key = pos.key();
        if let Some(&first) = self.first_escape.get(&key) {
            if let Some(i) = escapes.iter().position(|&mv| mv == first) {
                escapes.swap(0, i);
            }
        }
        for mv in escapes {
            pos.play(mv);
            let found = self.attack(pos, left - 1);
            pos.undo();
            let found = found?;
            if !found.mate {
                self.first_escape.insert(key, mv);
                return Some(found);
            }
        }
        Some(Found::MATE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Variant;

    /// The problems of `file` of at most `max_len` plies proven shortest there: (SFEN, length).
    fn problems(file: &str, max_len: usize) -> Vec<(String, usize)> {
        let path = format!("{}/../positions/{file}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(path)
            .expect("the suite is in the repository")
            .lines()
            .filter(|l| !l.starts_with('#') && !l.contains("shortest not proven"))
            .filter_map(|l| {
                let (sfen, rest) = l.split_once(';')?;
                let len = rest.split('#').next()?.trim().parse().ok()?;
                (len <= max_len).then(|| (sfen.trim().to_string(), len))
            })
            .collect()
    }

    #[test]
    fn finds_the_shortest_mates_the_solver_proved() {
        let suite = problems("tsume-chu.epd", 5);
        assert!(suite.len() >= 20, "the suite has its short problems");
        for (sfen, len) in suite {
            let pos = Position::from_sfen(Variant::Chushogi, &sfen).expect("valid SFEN");
            assert_eq!(
                exhaustive_mate(&pos, len, Royals::All, 5_000_000),
                Exhaustive::Mate(len),
                "{sfen}"
            );
            if len > 1 {
                assert_eq!(
                    exhaustive_mate(&pos, len - 2, Royals::All, 5_000_000),
                    Exhaustive::NoMate,
                    "{sfen}"
                );
            }
        }
    }

    /// kinu57 after the published 6f6d 5d6d5e 7g5e and the defence 4e5e (docs/tsume.md), which
    /// leaves no mate within the 15 plies the published 19 has left.
    fn kinu57_after_the_defence() -> Position {
        let sfen = "8+a2l/6s5/8+le1f/8kg2/7g3+A/5N6/10P1/12/12/12/12/12 b - 1";
        Position::from_sfen(Variant::Chushogi, sfen).expect("valid SFEN")
    }

    #[test]
    fn refutes_kinu57s_published_line() {
        let pos = kinu57_after_the_defence();
        assert_eq!(
            exhaustive_mate(&pos, 15, Royals::All, 20_000_000),
            Exhaustive::NoMate
        );
    }

    #[test]
    fn says_unknown_when_the_budget_runs_out() {
        let pos = kinu57_after_the_defence();
        assert_eq!(
            exhaustive_mate(&pos, 15, Royals::All, 10),
            Exhaustive::Unknown
        );
    }
}
