//! shishi: a Chu Shogi and Heian Shogi engine.
//!
//! Layers, each using only the ones above it (`tests/architecture.rs` checks this). The game
//! itself is the crate `shishi-core` (`core/`), whose modules this one re-exports under their
//! own names, so `crate::position` and `shishi::position` read as before:
//! - `platform`, `board`, `rules`, `moves`, `position`, `movegen`, `notation`, `perft`,
//!   `game`, `record`, `tsume` (`shishi-core`): the host, the board, the rule sets, positions,
//!   legal moves, move spellings, perft, games, game records in files (KIF, PGN, USI) and the
//!   df-pn mate solver.
//! - `eval`: the evaluation the search calls (`eval::Evaluator`): the hand-crafted one, its
//!   weights as data, and the network (`eval::nnue`: its accumulators kept by make/undo, the
//!   embedded nets), side by side; the fixed piece values.
//! - `search`: the alpha-beta search; `matchplay`: engine matches, judged by `game` (neither
//!   uses the other).
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

pub use shishi_core::{
    board, game, movegen, moves, notation, perft, platform, position, record, rules, tsume,
};

pub mod analysis;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod eval;
#[cfg(not(target_arch = "wasm32"))]
#[doc(hidden)]
pub mod fuzzing;
#[cfg(not(target_arch = "wasm32"))]
pub mod matchplay;
pub mod protocol;
pub mod search;
#[cfg(not(target_arch = "wasm32"))]
pub mod training;

pub use board::{Color, Square, Variant};
pub use moves::Move;
pub use position::Position;
pub use rules::{Preset, RuleSet};
