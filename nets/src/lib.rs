//! The nets the shishi engine compiles into its binary, as bytes; shishi checks and loads them
//! (`shishi::nnue`).
//!
//! They are a crate of their own because they are data, not code: about 3.2 MB that changes only
//! when a training round wins its SPRT, beside an engine whose sources change every day. The
//! engine's crate stays the engine's sources (under 1 MB), and a release whose nets did not
//! change does not ship them again.

/// The Heian net (net file format 3; `shishi train --family heian`).
pub const HEIAN: &[u8] = include_bytes!("../heian.nnue");

/// The Chu net, zstd-compressed (net file format 4, six royal buckets): its 17.3 MB of weights
/// (six sets of 11 232 inputs by 128 units, whose columns sit close to the shared ones and
/// those to their piece's and row's: weight decay drew them together, and fine-tuning without it
/// drifts them apart a little) take 3.3 MB, in the binary, the browser build and the crate
/// alike. The engine unpacks it on first use.
pub const CHU_ZSTD: &[u8] = include_bytes!("../chu.nnue.zst");
