//! Learning the evaluation from our own games: `record` is the data format that self-play
//! writes and the tuner reads; `selfplay` plays one game and picks its training positions;
//! `data_file` is the file of game blocks `datagen` appends to and resumes.
//!
//! This layer sits above `search` (it plays games with the engine and fits the evaluation's
//! weights) and below `protocol`.

pub mod data_file;
pub mod record;
pub mod selfplay;
