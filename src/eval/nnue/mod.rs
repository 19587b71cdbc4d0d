//! The learned evaluation (NNUE): a small network whose first layer is kept incrementally as
//! moves are made and taken back, so that evaluating a position costs a few hundred additions
//! instead of a pass over the board.
//!
//! - `features`: which inputs a position switches on, from each side's view (piece kind and
//!   colour relative to that side, on the square as that side sees the board).
//! - `network`: the quantised network, its file format (versioned, checksummed) and the
//!   output layer.
//! - `accumulator`: the first layer's sums per ply, updated from [`Position::last_change`]
//!   for every kind of move (lion double moves and igui included) with a full refresh at the
//!   root, and from `refresh_cache` where a royal moves into another bucket.
//! - `embedded`: the nets compiled into the binary.
//! - `simd`: whether the kernels run on AVX2, WebAssembly SIMD or neither, decided there
//!   alone (`widest!` gives a kernel its AVX2 twin), and the output layer's inner product.
//!
//! The trainer (`training::nnue`) writes the same file this module reads.
//!
//! [`Position::last_change`]: crate::position::Position::last_change

pub(crate) mod accumulator;
pub(crate) mod embedded;
pub(crate) mod features;
pub(crate) mod network;
mod refresh_cache;
mod simd;

pub use accumulator::NnueStack;
pub use features::feature_count;
pub use network::{NetError, Network};
pub use simd::kernels;
