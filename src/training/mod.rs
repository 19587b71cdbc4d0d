//! Learning the evaluation from our own games: `record` is the data format that self-play
//! writes and the tuner reads; `selfplay` plays one game and picks its training positions;
//! `data_file` is the file of game blocks `datagen` appends to and resumes; `datagen` runs the
//! games on several threads; `tune` fits the evaluation's weights to those files.
//!
//! This layer sits above `search` (it plays games with the engine and fits the evaluation's
//! weights) and below `protocol`.

pub(crate) mod data_file;
pub(crate) mod datagen;
pub(crate) mod from_pgn;
pub mod nnue;
pub(crate) mod packed;
pub mod record;
pub(crate) mod selfplay;
pub(crate) mod tune;
