//! The board vocabulary shared by every layer: squares, colours, bitboards, pieces, variants and
//! Zobrist keys. Nothing here knows about moves or rules beyond how each piece moves.

mod bitboard;
mod color;
pub mod piece;
mod square;
mod variant;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use color::Color;
pub use piece::{Kind, LionPower, Piece, KINDS};
pub use square::{Direction, Square, DIRECTIONS};
pub use variant::{Family, Variant};
