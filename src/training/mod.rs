//! Learning the evaluation from our own games: `record` is the data format that self-play
//! writes and the tuner reads.
//!
//! This layer sits above `search` (it plays games with the engine and fits the evaluation's
//! weights) and below `protocol`.

pub mod record;
pub mod tune;
