//! The board vocabulary shared by every layer: squares, colours, bitboards, pieces, variants and
//! Zobrist keys, the attack tables and the spelling of squares. Nothing here knows about moves
//! or rules beyond how each piece moves and what sets the two families apart (`family`).

pub mod attacks;
mod bitboard;
mod color;
mod family;
pub(crate) mod piece;
mod square;
mod square_names;
mod variant;
pub(crate) mod zobrist;

pub use bitboard::Bitboard;
pub use color::Color;
pub use family::{Descriptor, Family};
pub use piece::{Kind, LionPower, Piece, KINDS, NUM_KINDS};
pub use square::{Direction, Square, DIRECTIONS};
pub use square_names::{parse_usi_square, parse_xboard_square, usi_square, xboard_square};
pub use variant::Variant;
