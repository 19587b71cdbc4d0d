//! The evaluation of a position, as a layer of its own below the search, which calls one
//! interface (`Evaluator`) whatever evaluates:
//! - `hand_crafted`: material, piece-square terms, king safety and the rest, its numbers tuned
//!   data in `weights` (`weights/*.txt`);
//! - `nnue`: the network, its accumulators kept along the searched line, the embedded nets;
//! - `material`: the fixed piece values move ordering and exchange evaluation use.
//!
//! The trainer and the Texel tuner (`training`) read the same features the search evaluates.

mod evaluator;
pub(crate) mod hand_crafted;
pub mod material;
pub mod nnue;
pub mod weights;

pub use evaluator::{EvalChange, Evaluator};

pub(crate) use hand_crafted::{captured_value, units_to_centipawns, victim_value};
// Read by training only, which the browser build leaves out.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) use hand_crafted::{centipawns_to_units, features};
pub use material::{material, ROYAL_VALUE};
