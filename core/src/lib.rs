//! shishi-core: Chu Shogi and Heian Shogi as the shishi engine knows them, everything that is
//! the game and nothing that judges a position. The engine (`shishi`) re-exports every module
//! here under its own name (`shishi::position`, `shishi::board`, ...), so its layers and its
//! users read one crate; this one stands alone for tools that need the rules, the records or
//! the mate solver without the engine's search, evaluation and nets.
//!
//! Layers, each using only the ones above it (`tests/architecture.rs` in the engine checks
//! this):
//! - `platform`: what the host offers (its memory size, a clock, a browser's input and output).
//! - `board`: squares and their spellings, bitboards (144 bits: `u128` + overflow word),
//!   pieces, variants and the descriptor of each family, Zobrist keys, attack tables.
//! - `rules`: the rule sets (lishogi, JCSA, HaChu) and their single rules; `moves`: the `Move`.
//! - `position`: a position with make/undo, SFEN and XBoard FEN, game end by position.
//! - `movegen`: legal moves, lion power and the lion-trading rules.
//! - `notation`: USI and XBoard spellings of moves.
//! - `perft`: perft and divide.
//! - `game`: a game record: moves, repetition and the game's result.
//! - `record`: game records in files: KIF, PGN and USI move lists, read and written.
//! - `tsume`: the df-pn mate solver and the verifier of its proofs.

pub mod board;
pub mod game;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod platform;
pub mod position;
pub mod record;
pub mod rules;
pub mod tsume;

pub use board::{Color, Square, Variant};
pub use moves::Move;
pub use position::Position;
pub use rules::{Preset, RuleSet};
