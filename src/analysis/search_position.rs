//! One position of a game searched for its analysis: the score turned to sente's view, the depth
//! reached, the best move and its line.

use super::chances::Eval;
use crate::board::Color;
use crate::moves::Move;
use crate::position::Position;
use crate::search::{Engine, Limits, Poll, Score, SearchInfo};
use std::sync::{Arc, Mutex};

/// What the search found in one position.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionEval {
    /// The evaluation, sente's view.
    pub eval: Eval,
    /// The depth of the iteration the move comes from (0 for a finished game).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The best move, `None` when the game is over.
    pub best: Option<Move>,
    /// The best line, starting with `best`.
    pub pv: Vec<Move>,
}

impl PositionEval {
    /// The evaluation of a finished game.
    pub fn over(winner: Option<Color>) -> PositionEval {
        PositionEval {
            eval: Eval::Over(winner),
            depth: 0,
            nodes: 0,
            best: None,
            pv: Vec::new(),
        }
    }
}

/// Searches `pos` (its history counts for repetitions) on the calling thread under `limits`,
/// the table of `engine` cleared first, so that the result does not depend on what the engine
/// searched before: at a node limit the same position gives the same answer on any thread.
/// `poll` is called every few thousand nodes and may stop the search.
pub fn search_position(
    engine: &mut Engine,
    pos: &Position,
    limits: Limits,
    poll: Poll,
) -> PositionEval {
    engine.new_game();
    let last: Arc<Mutex<Option<SearchInfo>>> = Arc::new(Mutex::new(None));
    let seen = last.clone();
    let on_info = Box::new(move |info: &SearchInfo| {
        if info.multipv <= 1 {
            if let Ok(mut slot) = seen.lock() {
                *slot = Some(info.clone());
            }
        }
    });
    let result = engine.run_here(pos, limits, on_info, poll).wait();
    let family = pos.family();
    let mover = pos.side_to_move();
    let score = match result.score.in_centipawns(family) {
        Score::Cp(cp) => Eval::Cp(cp),
        Score::Mate(plies) => Eval::Mate(plies),
    };
    let info = last.lock().ok().and_then(|mut slot| slot.take());
    let pv = match (&info, result.best) {
        (Some(info), Some(best)) if info.pv.first() == Some(&best) => info.pv.clone(),
        (_, Some(best)) => std::iter::once(best).chain(result.ponder).collect(),
        (_, None) => Vec::new(),
    };
    PositionEval {
        eval: score.for_side(mover),
        depth: result.depth,
        nodes: result.nodes,
        best: result.best,
        pv,
    }
}
