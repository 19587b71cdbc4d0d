//! shishi: a Chu Shogi and Heian Shogi engine.
//!
//! Layers, each using only the ones above it (`tests/architecture.rs` checks this):
//! - `platform`: what the host offers (its memory size, a clock, a browser's input and output).
//! - `board`: squares and their spellings, bitboards (144 bits: `u128` + overflow word),
//!   pieces, variants, Zobrist keys, attack tables.
//! - `rules`: the rule sets (lishogi, JCSA, HaChu) and their single rules; `moves`: the `Move`.
//! - `position`: a position with make/undo, SFEN and XBoard FEN, game end by position.
//! - `movegen`: legal moves, lion power and the lion-trading rules.
//! - `eval`: the evaluation the search calls (`eval::Evaluator`): the hand-crafted one, its
//!   weights as data, and the network (`eval::nnue`: its accumulators kept by make/undo, the
//!   embedded nets), side by side; the fixed piece values.
//! - `notation`: USI and XBoard spellings of moves.
//! - `perft`: perft and divide.
//! - `game`: a game record: moves, repetition and the game's result.
//! - `record`: game records in files: KIF, PGN and USI move lists, read and written.
//! - `search`: the alpha-beta search; `tsume`: the df-pn mate solver; `matchplay`: engine
//!   matches, judged by `game` (none of the three uses another).
//! - `analysis`: a whole game analysed: every position searched, moves judged, figures per
//!   side, the annotated record, JSON and an SVG graph.
//! - `training`: the data self-play writes for tuning the evaluation (text records and packed
//!   games), the self-play that writes it (`datagen`), the tuner (`tune`) and the network
//!   trainer (`train`).
//! - `protocol`: USI and XBoard sessions on stdin/stdout, and the USI session fed a line at a
//!   time by a browser (`wasm32-unknown-unknown`).
//! - `cli`: the command line; `fuzzing`: every reader of user input as a function of bytes,
//!   for the fuzz targets (`fuzz/`) and their smoke test.
//!
//! The browser build (`scripts/build-wasm`) leaves out what needs threads, processes or a
//! filesystem: `matchplay`, `training`, `cli` and `fuzzing`.

pub mod analysis;
pub mod board;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod eval;
#[cfg(not(target_arch = "wasm32"))]
#[doc(hidden)]
pub mod fuzzing;
pub mod game;
#[cfg(not(target_arch = "wasm32"))]
pub mod matchplay;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod platform;
pub mod position;
pub mod protocol;
pub mod record;
pub mod rules;
pub mod search;
#[cfg(not(target_arch = "wasm32"))]
pub mod training;
pub mod tsume;

pub use board::{Color, Square, Variant};
pub use moves::Move;
pub use position::Position;
pub use rules::{Preset, RuleSet};
