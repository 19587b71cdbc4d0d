//! Whole-game analysis as lishogi's "computer analysis" shows it: every position of a game
//! searched, an evaluation for every move from both views, the engine's best move and line where
//! the player went elsewhere, judgments (inaccuracy, mistake, blunder) from the drop in winning
//! chances, and per side the average loss and an accuracy figure.
//!
//! The search of one position (`search_position`) and the judging of a searched game
//! (`GameAnalysis::judge`) are apart, so the command line can spread positions over threads and
//! the browser can search them one after another on its worker, and both judge alike.

mod accuracy;
mod chances;
mod graph;
mod report;
mod search_position;

pub use accuracy::{side_summary, SideSummary};
pub use chances::{judgment, winning_chances, Eval};
pub use graph::svg;
pub use report::{GameAnalysis, PlyReport};
pub use search_position::{search_position, PositionEval};
