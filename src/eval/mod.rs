//! The evaluation of a position, as a layer of its own below the search: the hand-crafted
//! evaluation (`hand_crafted`: material, piece-square terms, king safety and the rest, its
//! numbers tuned data in `weights`, `weights/*.txt`) and the fixed piece values move ordering
//! uses (`material`). The network evaluation is the `nnue` layer below this one; the search
//! adds the two where a net corrects the hand-crafted score. The trainer and the Texel tuner
//! (`training`) read the same features the search evaluates.

pub(crate) mod hand_crafted;
pub mod material;
pub mod weights;

pub(crate) use hand_crafted::{
    captured_value, evaluate, psq_delta, psq_total, units_to_centipawns, victim_value,
};
// Read by training only, which the browser build leaves out.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) use hand_crafted::{centipawns_to_units, features};
pub use material::{material, ROYAL_VALUE};
