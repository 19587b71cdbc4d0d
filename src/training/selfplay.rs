//! One self-play game for training data: a random opening, then a fixed-node search for every
//! move, adjudicated on the search's scores, and the quiet positions of the game labelled with
//! its result.
//!
//! - Opening: from the variant's start position, a random number of uniformly random legal
//!   moves (`random_plies` - 2 to `random_plies` + 2, none when `random_plies` is 0). A start
//!   the game record already calls over, or whose first search scores beyond
//!   [`DECIDED_START_CP`] (or finds a mate), is drawn again.
//! - Moves: the search's best move, `nodes` nodes per move on one thread; the engine's table and
//!   histories are cleared at the start of each game and kept from move to move within it.
//! - End: the game record decides by the rules under the variant's default rule set (lishogi);
//!   besides, [`Adjudicator`] calls a win when four consecutive searches (both sides' reports)
//!   see the same side at `win_cp` ([`WIN_CP`] by default) or more, or when one reports a mate,
//!   and a draw when twenty
//!   consecutive searches from ply [`DRAW_FROM_PLY`] on score within [`DRAW_CP`] of zero, or at
//!   `max_plies`.
//! - Records: every searched position except those with a royal in check, those whose best move
//!   captures or promotes (not quiet: the static evaluation cannot see what the search saw), and
//!   those whose score is a mate or beyond [`MAX_RECORD_CP`]. Scores are written from sente's
//!   view.
//!
//! The game depends only on its seed, the variant and the settings: the search is single-threaded
//! with a node limit, so replaying a seed replays the game.

use super::record::{Record, Result01};
use crate::board::{Color, Variant};
use crate::game::GameRecord;
use crate::moves::Move;
use crate::position::{OutcomeReason, Position};
use crate::search::{Engine, Limits, Score, SearchResult};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::fmt;

/// A start whose first search scores beyond this (centipawns, either side) is drawn again.
pub(crate) const DECIDED_START_CP: i32 = 1000;
/// Searches at or beyond this score (the winner's view) count towards a won adjudication,
/// unless a run sets its own (`datagen --win-cp`).
pub(crate) const WIN_CP: i32 = 1500;
/// Consecutive searches that must agree on a win.
pub(crate) const WIN_PLIES: u32 = 4;
/// Searches within this score of zero count towards a drawn adjudication.
pub(crate) const DRAW_CP: i32 = 10;
/// Consecutive near-zero searches that make a draw.
pub(crate) const DRAW_PLIES: u32 = 20;
/// Near-zero searches count only from this ply on.
pub(crate) const DRAW_FROM_PLY: usize = 80;
/// Positions scored beyond this are not written.
pub(crate) const MAX_RECORD_CP: i32 = 3000;
/// Random openings tried before a game starts from the bare start position instead.
const START_ATTEMPTS: u32 = 100;

/// How one game is played.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GameSettings {
    /// Nodes per move.
    pub nodes: u64,
    /// Centre of the random opening's length in plies (0: no random moves).
    pub random_plies: usize,
    /// A game still going after this many plies is a draw.
    pub max_plies: usize,
    /// Searches at or beyond this score (the winner's view) count towards a won adjudication.
    pub win_cp: i32,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GameEnd {
    /// The rules ended it (checkmate, bare king, repetition, ...).
    Rules(OutcomeReason),
    /// Both sides' searches agreed on a winner for [`WIN_PLIES`] plies.
    WinningScore,
    /// A search reported a mate.
    MateScore,
    /// The searches saw a dead draw for [`DRAW_PLIES`] plies.
    DrawnScore,
    /// The game reached the ply limit.
    MaxPlies,
}

impl fmt::Display for GameEnd {
    /// One word, for the game's comment line: `checkmate`, `bare-king`, `adjudicated-win`, ...
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameEnd::Rules(reason) => f.write_str(&reason.describe().replace(' ', "-")),
            GameEnd::WinningScore => f.write_str("adjudicated-win"),
            GameEnd::MateScore => f.write_str("adjudicated-mate"),
            GameEnd::DrawnScore => f.write_str("adjudicated-draw"),
            GameEnd::MaxPlies => f.write_str("max-plies"),
        }
    }
}

/// A finished game and the positions it gives.
#[derive(Clone, Debug)]
pub(crate) struct PlayedGame {
    /// The variant played.
    pub variant: Variant,
    /// Plies played, the random opening included.
    pub plies: usize,
    /// The result, sente's view.
    pub result: Result01,
    /// Why it ended.
    pub end: GameEnd,
    /// The positions kept, labelled with `result`.
    pub records: Vec<Record>,
    /// The position the searches started from (after the random opening), as a SFEN.
    pub start: String,
    /// Every searched position in order: the move played from it (`None` for the last one
    /// when an adjudication ended the game there) and its score from sente's view when it is
    /// one of `records`.
    pub line: Vec<(Option<Move>, Option<i32>)>,
}

/// Why a game could not be played to its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SelfPlayError {
    /// The search answered a move the game record refused (an engine bug).
    EngineMove {
        /// The position searched.
        sfen: String,
        /// The refused move's bits.
        bits: u32,
    },
}

impl fmt::Display for SelfPlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SelfPlayError::EngineMove { sfen, bits } => write!(
                f,
                "the search chose a move the game refused (bits {bits:#x}) in {sfen}"
            ),
        }
    }
}

impl std::error::Error for SelfPlayError {}

/// The verdict the searches' scores give, ply by ply.
#[derive(Clone, Debug)]
pub(crate) struct Adjudicator {
    /// Searches at or beyond this score count towards a win.
    win_cp: i32,
    /// Consecutive searches at `win_cp` or beyond: positive for sente, negative for gote.
    win_streak: i32,
    /// Consecutive searches from `DRAW_FROM_PLY` on within `DRAW_CP` of zero.
    draw_streak: u32,
}

impl Default for Adjudicator {
    fn default() -> Self {
        Adjudicator::new(WIN_CP)
    }
}

impl Adjudicator {
    /// An adjudicator that calls a win on four searches at `win_cp` or beyond.
    pub(crate) fn new(win_cp: i32) -> Adjudicator {
        Adjudicator {
            win_cp,
            win_streak: 0,
            draw_streak: 0,
        }
    }

    /// Takes the score of the search at `ply` (the side to move's view, `mover` to move) and says
    /// whether the game is decided: the winner (`None`: a draw) and why.
    pub(crate) fn observe(
        &mut self,
        ply: usize,
        mover: Color,
        score: Score,
    ) -> Option<(Option<Color>, GameEnd)> {
        let cp = match score {
            Score::Mate(m) => {
                let winner = if m > 0 { mover } else { !mover };
                return Some((Some(winner), GameEnd::MateScore));
            }
            Score::Cp(cp) => sente_view(mover, cp),
        };
        self.win_streak = if cp >= self.win_cp {
            self.win_streak.max(0) + 1
        } else if cp <= -self.win_cp {
            self.win_streak.min(0) - 1
        } else {
            0
        };
        if self.win_streak.unsigned_abs() >= WIN_PLIES {
            let winner = if self.win_streak > 0 {
                Color::Sente
            } else {
                Color::Gote
            };
            return Some((Some(winner), GameEnd::WinningScore));
        }
        self.draw_streak = if ply >= DRAW_FROM_PLY && cp.abs() <= DRAW_CP {
            self.draw_streak + 1
        } else {
            0
        };
        (self.draw_streak >= DRAW_PLIES).then_some((None, GameEnd::DrawnScore))
    }
}

/// `cp` (the view of `mover`, the side to move) from sente's view.
pub(crate) fn sente_view(mover: Color, cp: i32) -> i32 {
    match mover {
        Color::Sente => cp,
        Color::Gote => -cp,
    }
}

/// Whether a position searched to `best` with `score` is a training position.
pub(crate) fn worth_recording(pos: &Position, best: Move, score: Score) -> bool {
    let quiet = !pos.is_capture(best) && !best.is_promotion();
    let in_check = pos.in_check(Color::Sente) || pos.in_check(Color::Gote);
    let moderate = matches!(score, Score::Cp(cp) if cp.abs() <= MAX_RECORD_CP);
    quiet && !in_check && moderate
}

/// One fixed-node search of the game's current position (its history gives repetitions).
fn search(engine: &mut Engine, game: &GameRecord, nodes: u64) -> SearchResult {
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    engine
        .start(game.position(), limits, Box::new(|_| {}))
        .wait()
}

/// The length of a random opening: `random_plies` - 2 to `random_plies` + 2, uniformly.
fn opening_length(random_plies: usize, rng: &mut StdRng) -> usize {
    if random_plies == 0 {
        return 0;
    }
    rng.gen_range(random_plies.saturating_sub(2)..=random_plies + 2)
}

/// A game after a random opening that the rules have not ended, or `None` if the random moves
/// ran into a game end.
fn random_opening(variant: Variant, random_plies: usize, rng: &mut StdRng) -> Option<GameRecord> {
    let mut game = GameRecord::new(Position::startpos(variant));
    for _ in 0..opening_length(random_plies, rng) {
        let moves = game.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let mv = moves[rng.gen_range(0..moves.len())];
        game.play(mv).ok()?;
        if game.outcome().is_some() {
            return None;
        }
    }
    Some(game)
}

/// Whether a start's first search already sees the game decided.
fn decided(score: Score) -> bool {
    match score {
        Score::Mate(_) => true,
        Score::Cp(cp) => cp.abs() > DECIDED_START_CP,
    }
}

/// The game's start after its random opening, and the first search of it.
fn start(
    engine: &mut Engine,
    variant: Variant,
    settings: &GameSettings,
    rng: &mut StdRng,
) -> (GameRecord, SearchResult) {
    for _ in 0..START_ATTEMPTS {
        let Some(game) = random_opening(variant, settings.random_plies, rng) else {
            continue;
        };
        engine.new_game();
        let first = search(engine, &game, settings.nodes);
        if !decided(first.score) {
            return (game, first);
        }
    }
    // Every random start was decided (a very long `random_plies`): play the real start.
    let game = GameRecord::new(Position::startpos(variant));
    engine.new_game();
    let first = search(engine, &game, settings.nodes);
    (game, first)
}

/// Plays one game of `variant` from a random opening drawn with `seed`, with `engine` (one
/// thread; its table and histories are cleared first).
pub(crate) fn play_game(
    engine: &mut Engine,
    variant: Variant,
    settings: &GameSettings,
    seed: u64,
) -> Result<PlayedGame, SelfPlayError> {
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut game, first) = start(engine, variant, settings, &mut rng);
    let start_sfen = game.position().to_sfen();
    let mut next_search = Some(first);
    let mut adjudicator = Adjudicator::new(settings.win_cp);
    // Positions kept so far: SFEN and score from sente's view.
    let mut kept: Vec<(String, i32)> = Vec::new();
    let mut line: Vec<(Option<Move>, Option<i32>)> = Vec::new();
    let (winner, end) = loop {
        if let Some(outcome) = game.outcome() {
            break (outcome.winner, GameEnd::Rules(outcome.reason));
        }
        if game.plies() >= settings.max_plies {
            break (None, GameEnd::MaxPlies);
        }
        let found = match next_search.take() {
            Some(found) => found,
            None => search(engine, &game, settings.nodes),
        };
        let pos = game.position();
        let mover = pos.side_to_move();
        let Some(best) = found.best else {
            // No move although the record sees the game going on: cannot happen, but a draw is
            // the honest label for a game nobody could finish.
            break (None, GameEnd::MaxPlies);
        };
        let mut score = None;
        if worth_recording(pos, best, found.score) {
            if let Score::Cp(cp) = found.score {
                kept.push((pos.to_sfen(), sente_view(mover, cp)));
                score = Some(sente_view(mover, cp));
            }
        }
        if let Some(verdict) = adjudicator.observe(game.plies(), mover, found.score) {
            line.push((None, score));
            break verdict;
        }
        line.push((Some(best), score));
        if game.play(best).is_err() {
            // A refused move leaves the record as it was.
            return Err(SelfPlayError::EngineMove {
                sfen: game.position().to_sfen(),
                bits: best.bits(),
            });
        }
    };
    let result = Result01::from_winner(winner);
    let records = kept
        .into_iter()
        .map(|(sfen, score)| Record {
            variant,
            sfen,
            score,
            result,
        })
        .collect();
    Ok(PlayedGame {
        variant,
        plies: game.plies(),
        result,
        end,
        records,
        start: start_sfen,
        line,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed(adj: &mut Adjudicator, from_ply: usize, sente_scores: &[i32]) -> Vec<bool> {
        sente_scores
            .iter()
            .enumerate()
            .map(|(i, &s)| {
                let ply = from_ply + i;
                let mover = if ply.is_multiple_of(2) {
                    Color::Sente
                } else {
                    Color::Gote
                };
                adj.observe(ply, mover, Score::Cp(sente_view(mover, s)))
                    .is_some()
            })
            .collect()
    }

    #[test]
    fn four_agreeing_searches_win_and_a_break_resets_the_count() {
        let mut adj = Adjudicator::default();
        assert_eq!(
            feed(&mut adj, 10, &[1500, 1600, 1400, 1500, 1500, 1500]),
            [false; 6]
        );
        let mut adj = Adjudicator::default();
        feed(&mut adj, 10, &[-1500, -2000, -1700]);
        assert_eq!(
            adj.observe(13, Color::Gote, Score::Cp(1500)),
            Some((Some(Color::Gote), GameEnd::WinningScore))
        );
    }

    #[test]
    fn a_higher_win_score_plays_on_past_the_default() {
        let scores = [2000, 2100, 2500, 2000, 3100, 3200, 3300, 3400];
        let mut adj = Adjudicator::default();
        assert_eq!(feed(&mut adj, 10, &scores).iter().position(|&v| v), Some(3));
        let mut adj = Adjudicator::new(3000);
        assert_eq!(feed(&mut adj, 10, &scores).iter().position(|&v| v), Some(7));
    }

    #[test]
    fn a_mate_score_decides_for_the_side_it_favours() {
        let mut adj = Adjudicator::default();
        assert_eq!(
            adj.observe(3, Color::Gote, Score::Mate(5)),
            Some((Some(Color::Gote), GameEnd::MateScore))
        );
        assert_eq!(
            adj.observe(4, Color::Sente, Score::Mate(-2)),
            Some((Some(Color::Gote), GameEnd::MateScore))
        );
    }

    #[test]
    fn twenty_near_zero_searches_draw_only_after_ply_80() {
        let mut adj = Adjudicator::default();
        assert!(!feed(&mut adj, 50, &[5; 30]).contains(&true));
        let mut adj = Adjudicator::default();
        let verdicts = feed(&mut adj, 80, &[10; 20]);
        assert_eq!(verdicts.iter().position(|&v| v), Some(19));
        let mut adj = Adjudicator::default();
        let mut scores = vec![0; 19];
        scores.push(11);
        scores.extend([0; 19]);
        assert!(!feed(&mut adj, 80, &scores).contains(&true));
    }

    #[test]
    fn a_game_keeps_only_quiet_moderate_positions_and_labels_them_with_its_result() {
        let mut engine = Engine::new(crate::search::EngineOptions {
            hash_mb: 1,
            ..Default::default()
        });
        let settings = GameSettings {
            nodes: 200,
            random_plies: 8,
            max_plies: 300,
            win_cp: WIN_CP,
        };
        let game = play_game(&mut engine, Variant::Heian8x8, &settings, 3).unwrap();
        assert!(game.plies >= 6 && game.plies <= 300);
        assert!(!game.records.is_empty());
        for record in &game.records {
            let pos = record.position();
            assert!(!pos.in_check(Color::Sente) && !pos.in_check(Color::Gote));
            assert!(record.score.abs() <= MAX_RECORD_CP);
            assert_eq!(record.result, game.result);
        }
        let again = play_game(&mut engine, Variant::Heian8x8, &settings, 3).unwrap();
        assert_eq!(again.records, game.records);
    }
}
