//! How squares are spelled: USI (`7f`, file number from sente's right, rank letter from the top)
//! and XBoard (`f3`, file letter from sente's left, rank number from sente's back rank).

use super::{Square, Variant};

/// `7f`, `12a`: file number (counted from sente's right) and rank letter (from the top).
pub fn usi_square(variant: Variant, sq: Square) -> String {
    format!(
        "{}{}",
        variant.width() - sq.col(),
        (b'a' + sq.row()) as char
    )
}

/// Reads a USI square (`7f`, `12a`); `None` if it is malformed, has a leading zero or lies off
/// the variant's board.
pub fn parse_usi_square(variant: Variant, s: &str) -> Option<Square> {
    let digits = s.len().checked_sub(1)?;
    let file: u8 = s.get(..digits)?.parse().ok()?;
    let rank = s.as_bytes()[digits];
    if !(1..=variant.width()).contains(&file) || !(b'a'..b'a' + variant.height()).contains(&rank) {
        return None;
    }
    if s.starts_with('0') {
        return None;
    }
    Some(Square::from_coords(variant.width() - file, rank - b'a'))
}

/// `f3`, `a10`: file letter from sente's left, rank number from sente's back rank.
pub fn xboard_square(variant: Variant, sq: Square) -> String {
    format!(
        "{}{}",
        (b'a' + sq.col()) as char,
        variant.height() - sq.row()
    )
}

/// Reads an XBoard square (`f3`, `a10`); `None` if it is malformed, has a leading zero or lies
/// off the variant's board.
pub fn parse_xboard_square(variant: Variant, s: &str) -> Option<Square> {
    let file = *s.as_bytes().first()?;
    let rank: u8 = s.get(1..)?.parse().ok()?;
    if !(b'a'..b'a' + variant.width()).contains(&file) || !(1..=variant.height()).contains(&rank) {
        return None;
    }
    if s[1..].starts_with('0') {
        return None;
    }
    Some(Square::from_coords(file - b'a', variant.height() - rank))
}
