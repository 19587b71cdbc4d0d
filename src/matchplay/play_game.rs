//! One game between two drivers: the clocks (each side its own, for time odds), the referee's verdict on every move, the engines'
//! failures (crash, time, protocol) charged to the side that failed, and the optional draw and
//! resign adjudication by the scores the engines report, and the optional move limit.

use super::driver::{
    Claimed, Clocks, Driver, EngineScore, Failure, GameStart, MoveTexts, Reply, TimeControl,
};
use super::game_end::{self, EndReason, GameEnd};
use super::openings::Opening;
use super::referee::Referee;
use crate::board::Color;
use crate::game::PlayError;
use crate::notation::{write_move, Notation};
use crate::position::OutcomeReason;
use std::time::{Duration, Instant};

/// Draw when both engines' scores stayed within `score` centipawns for `move_count` moves each,
/// from move `move_number` on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawAdjudication {
    /// Moves each side must have played after the opening before a draw is adjudicated.
    pub move_number: u32,
    /// Consecutive moves of each side that must stay within `score`.
    pub move_count: u32,
    /// Largest absolute score, in centipawns, that counts as level.
    pub score: EngineScore,
}

/// A side loses when its score stayed at or below `-score` for `move_count` of its moves (and,
/// if `two_sided`, the opponent's stayed at or above `score`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignAdjudication {
    /// Consecutive moves of the loser at or below `-score`.
    pub move_count: u32,
    /// Score threshold, in centipawns (positive).
    pub score: EngineScore,
    /// Whether the winner must also have scored at least `score` as many times in a row.
    pub two_sided: bool,
}

/// Everything about how games are played, shared by all games of a match.
#[derive(Clone, Debug)]
pub struct GameRules {
    /// Variant and rules; the root position is set per game from its opening.
    pub start: GameStart,
    /// Time an engine may overrun its clock before it forfeits (pipes, scheduling).
    pub margin: Duration,
    /// Draw adjudication, if any.
    pub draw: Option<DrawAdjudication>,
    /// Resign adjudication, if any.
    pub resign: Option<ResignAdjudication>,
    /// A draw once each side has made this many moves (the opening's included), as cutechess's
    /// `-maxmoves`: Chu has no move limit of its own and a shuffling endgame can go on for ever.
    pub max_moves: Option<u32>,
}

/// What the engine said about one of its moves, for the PGN comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNote {
    /// The last score it reported, from its own side's view.
    pub score: Option<EngineScore>,
    /// The depth of that score, in plies.
    pub depth: Option<u32>,
    /// Time it used on its clock.
    pub time: Duration,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The opening's SFEN: where the recorded moves start.
    pub opening_sfen: String,
    /// Moves played after the opening, in lishogi USI.
    pub moves: Vec<String>,
    /// One note per move of `moves`.
    pub notes: Vec<MoveNote>,
    /// The result.
    pub outcome: GameEnd,
    /// What happened, in words: the illegal move and why, the crash, the claim...
    pub detail: String,
    /// The sides whose engine misbehaved and should be restarted before the next game.
    pub broken: [bool; 2],
}

struct Game<'a> {
    rules: &'a GameRules,
    referee: Referee,
    texts: Vec<MoveTexts>,
    notes: Vec<MoveNote>,
    opening_plies: usize,
    own_clocks: [TimeControl; 2],
    clocks: Clocks,
    low_scores: [u32; 2],
    high_scores: [u32; 2],
    level_scores: [u32; 2],
    broken: [bool; 2],
}

/// Plays one game; `engines[Color::index]` plays that colour on `clocks[Color::index]`.
pub fn play_game(
    engines: [&mut dyn Driver; 2],
    clocks: [TimeControl; 2],
    rules: &GameRules,
    opening: &Opening,
) -> PlayedGame {
    let referee = Referee::new(opening.root.clone().with_rules(rules.start.rules));
    let mut game = Game {
        rules,
        referee,
        texts: Vec::new(),
        notes: Vec::new(),
        opening_plies: 0,
        own_clocks: clocks,
        clocks: Clocks {
            remaining: clocks.map(|c| c.base),
            increment: clocks.map(|c| c.increment),
            byoyomi: clocks.map(|c| c.byoyomi),
        },
        low_scores: [0; 2],
        high_scores: [0; 2],
        level_scores: [0; 2],
        broken: [false; 2],
    };
    let [sente, gote] = engines;
    let mut engines: [&mut dyn Driver; 2] = [sente, gote];
    let (outcome, detail) = game.run(&mut engines, opening);
    for color in Color::BOTH {
        if !game.broken[color.index()] {
            let result = outcome.winner.map(|w| w == color);
            engines[color.index()].game_over(result);
        }
    }
    let played = game.texts[game.opening_plies..]
        .iter()
        .map(|m| m.usi.clone())
        .collect();
    PlayedGame {
        opening_sfen: opening.sfen.clone(),
        moves: played,
        notes: game.notes,
        outcome,
        detail,
        broken: game.broken,
    }
}

impl Game<'_> {
    fn run(&mut self, engines: &mut [&mut dyn Driver; 2], opening: &Opening) -> (GameEnd, String) {
        if let Some(end) = self.begin(engines, opening) {
            return end;
        }
        loop {
            if let Some(end) = self.turn(engines) {
                return end;
            }
        }
    }

    /// Plays the opening's moves and tells both engines the game starts; an end if either
    /// fails.
    fn begin(
        &mut self,
        engines: &mut [&mut dyn Driver; 2],
        opening: &Opening,
    ) -> Option<(GameEnd, String)> {
        for text in &opening.moves {
            if let Err(e) = self.play_text(text, Notation::Usi) {
                return Some((
                    GameEnd::draw(EndReason::Adjudication),
                    format!("bad opening: {e}"),
                ));
            }
        }
        self.opening_plies = self.texts.len();
        let mut start = self.rules.start.clone();
        start.root_sfen = opening.root.to_sfen();
        start.root_is_startpos = opening.root.to_sfen() == opening.root.variant().start_sfen();
        for color in Color::BOTH {
            let clock = self.own_clocks[color.index()];
            if let Err(f) = engines[color.index()].new_game(&start, &clock) {
                return Some(self.failure(color, engines[color.index()].name().to_string(), f));
            }
        }
        None
    }

    /// One move of the side to move, or the game's end.
    fn turn(&mut self, engines: &mut [&mut dyn Driver; 2]) -> Option<(GameEnd, String)> {
        if let Some(o) = self.referee.outcome() {
            return Some((game_end::from_rules(o), o.reason.describe().to_string()));
        }
        if let Some(limit) = self.rules.max_moves {
            if self.texts.len() >= 2 * limit as usize {
                return Some((
                    GameEnd::draw(EndReason::Adjudication),
                    format!("move limit: {limit} moves each"),
                ));
            }
        }
        let us = self.referee.position().side_to_move();
        let engine = &mut *engines[us.index()];
        let name = engine.name().to_string();
        let allowed = self.clocks.remaining[us.index()] + self.clocks.byoyomi[us.index()];
        let began = Instant::now();
        let reply = engine.think(
            &self.texts,
            &self.clocks,
            began + allowed + self.rules.margin,
        );
        let spent = began.elapsed();
        let reply = match reply {
            Ok(r) => r,
            Err(f) => return Some(self.failure(us, name, f)),
        };
        if spent > allowed + self.rules.margin {
            self.broken[us.index()] = true;
            return Some((
                GameEnd::win(!us, EndReason::Timeout),
                format!(
                    "{name} ({}) used {:.3} s of {:.3} s",
                    us.name(),
                    spent.as_secs_f64(),
                    allowed.as_secs_f64()
                ),
            ));
        }
        self.charge(us, spent);
        self.answer(us, &name, reply, spent, engine.notation())
    }

    /// Takes the side to move's reply: plays its move (and adjudicates on its score), or ends
    /// the game on a resignation or a claim.
    fn answer(
        &mut self,
        us: Color,
        name: &str,
        reply: Reply,
        spent: Duration,
        notation: Notation,
    ) -> Option<(GameEnd, String)> {
        match reply {
            Reply::Move { text, score, depth } => {
                if let Err(e) = self.play_text(&text, notation) {
                    self.broken[us.index()] = true;
                    return Some((
                        GameEnd::win(!us, EndReason::Rules(OutcomeReason::IllegalMove)),
                        format!("{name} ({}) played an illegal move: {e}", us.name()),
                    ));
                }
                self.notes.push(MoveNote {
                    score,
                    depth,
                    time: spent,
                });
                score.and_then(|s| self.adjudicate(us, s))
            }
            Reply::Resign => Some((
                GameEnd::win(!us, EndReason::Resignation),
                format!("{name} ({}) resigned", us.name()),
            )),
            Reply::Claim { claimed, text } => {
                let what = match claimed {
                    Claimed::MoverWins => "a win",
                    Claimed::Winner(c) if c == us => "a win",
                    Claimed::Winner(_) => {
                        return Some((
                            GameEnd::win(!us, EndReason::Resignation),
                            format!("{name} ({}) conceded: {text}", us.name()),
                        ))
                    }
                    Claimed::Draw => "a draw",
                };
                self.broken[us.index()] = true;
                Some((
                    GameEnd::win(!us, EndReason::Rules(OutcomeReason::IllegalMove)),
                    format!(
                        "{name} ({}) claimed {what} the rules do not give: {text}",
                        us.name()
                    ),
                ))
            }
        }
    }

    fn failure(&mut self, side: Color, name: String, failure: Failure) -> (GameEnd, String) {
        self.broken[side.index()] = true;
        let who = format!("{name} ({})", side.name());
        match failure {
            Failure::Timeout => (
                GameEnd::win(!side, EndReason::Timeout),
                format!("{who} lost on time"),
            ),
            Failure::Crash(why) => (
                GameEnd::win(!side, EndReason::Crash),
                format!("{who}: {why}"),
            ),
            Failure::Protocol(why) | Failure::Refused(why) => (
                GameEnd::win(!side, EndReason::Rules(OutcomeReason::IllegalMove)),
                format!("{who} broke the protocol: {why}"),
            ),
        }
    }

    fn charge(&mut self, side: Color, spent: Duration) {
        let clock = &mut self.clocks.remaining[side.index()];
        *clock = clock.saturating_sub(spent) + self.clocks.increment[side.index()];
    }

    /// Plays a move on the referee and records both of its spellings.
    fn play_text(&mut self, text: &str, notation: Notation) -> Result<(), PlayError> {
        let before = self.referee.position().clone();
        let mv = self.referee.play(text, notation)?;
        self.texts.push(MoveTexts {
            usi: write_move(&before, mv, Notation::Usi),
            xboard: write_move(&before, mv, Notation::Xboard),
        });
        Ok(())
    }

    /// Draw or resign adjudication after `side` reported `score` with its move.
    fn adjudicate(&mut self, side: Color, score: EngineScore) -> Option<(GameEnd, String)> {
        let i = side.index();
        let bump = |count: &mut u32, hit: bool| *count = if hit { *count + 1 } else { 0 };
        if let Some(r) = self.rules.resign {
            bump(&mut self.low_scores[i], score <= -r.score);
            bump(&mut self.high_scores[i], score >= r.score);
            let opponent_agrees = !r.two_sided || self.high_scores[(!side).index()] >= r.move_count;
            if self.low_scores[i] >= r.move_count && opponent_agrees {
                return Some((
                    GameEnd::win(!side, EndReason::Adjudication),
                    format!(
                        "{} scored at most -{} for {} moves",
                        side.name(),
                        r.score,
                        r.move_count
                    ),
                ));
            }
        }
        if let Some(d) = self.rules.draw {
            bump(&mut self.level_scores[i], score.abs() <= d.score);
            let played = (self.texts.len() - self.opening_plies) as u32;
            if played >= 2 * d.move_number && self.level_scores.iter().all(|&c| c >= d.move_count) {
                return Some((
                    GameEnd::draw(EndReason::Adjudication),
                    format!("both scores within {} for {} moves", d.score, d.move_count),
                ));
            }
        }
        None
    }
}
