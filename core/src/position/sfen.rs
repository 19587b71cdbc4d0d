//! SFEN (lishogi, with the counter-strike third field) and XBoard FEN, read and written.
//!
//! Reading never panics: every malformed input gives a `SfenError` that names what is wrong.

use super::Position;
use crate::board::{parse_usi_square, usi_square};
use crate::board::{Color, Kind, Piece, Square, Variant};
use std::fmt;

/// Why a SFEN or FEN could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SfenError {
    /// No fields at all (or, for `from_sfen_any`, a board whose size cannot be read).
    Empty,
    /// The board string has the wrong number of `/`-separated ranks.
    RankCount {
        /// Ranks of the variant's board.
        expected: u8,
        /// Ranks in the string.
        found: usize,
    },
    /// A rank describes more files than the board has.
    RankTooLong {
        /// The rank, 0 for rank `a` (the top).
        rank: usize,
        /// Files counted when the excess was found.
        files: usize,
        /// Files of the variant's board.
        width: u8,
    },
    /// A rank describes fewer files than the board has.
    RankTooShort {
        /// The rank, 0 for rank `a` (the top).
        rank: usize,
        /// Files the rank describes.
        files: usize,
        /// Files of the variant's board.
        width: u8,
    },
    /// A piece token that is no piece of the variant's family, or a `+` without a letter.
    BadPiece {
        /// The rank, 0 for rank `a` (the top).
        rank: usize,
        /// The offending text.
        token: String,
    },
    /// A character outside ASCII in a rank: no piece letter or count is one.
    NotAscii {
        /// The rank, 0 for rank `a` (the top).
        rank: usize,
        /// The first such character.
        found: char,
    },
    /// An empty-square count that is zero, above 12 or has a leading zero.
    BadRun {
        /// The rank, 0 for rank `a` (the top).
        rank: usize,
        /// The offending text.
        token: String,
    },
    /// The side-to-move field is not `b` or `w`.
    BadSide(String),
    /// The third field is neither `-` nor a square of the board (only Chu has a counter-strike
    /// square).
    BadCounterStrike(String),
    /// The move number is not a whole number of at least 1.
    BadMoveNumber(String),
    /// A field after the move number.
    TrailingFields(String),
    /// No variant is played on a board of this size.
    UnknownBoardSize {
        /// Files the board string describes.
        width: usize,
        /// Ranks the board string describes.
        height: usize,
    },
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rank_name = |r: &usize| (b'a' + *r as u8) as char;
        match self {
            SfenError::Empty => write!(f, "empty position string"),
            SfenError::RankCount { expected, found } => {
                write!(f, "board has {found} ranks, expected {expected}")
            }
            SfenError::RankTooLong { rank, files, width } => write!(
                f,
                "rank {} is too long: {files} files, the board has {width}",
                rank_name(rank)
            ),
            SfenError::RankTooShort { rank, files, width } => write!(
                f,
                "rank {} is too short: {files} files, the board has {width}",
                rank_name(rank)
            ),
            SfenError::BadPiece { rank, token } => {
                write!(f, "unknown piece '{token}' on rank {}", rank_name(rank))
            }
            SfenError::NotAscii { rank, found } => write!(
                f,
                "rank {} holds {found:?}, which is no piece letter or count",
                rank_name(rank)
            ),
            SfenError::BadRun { rank, token } => {
                write!(f, "bad empty-square count '{token}' on rank {}", rank_name(rank))
            }
            SfenError::BadSide(s) => write!(f, "side to move must be b or w, not '{s}'"),
            SfenError::BadCounterStrike(s) => write!(
                f,
                "third field must be - or the square of a lion just captured by a non-lion, not '{s}'"
            ),
            SfenError::BadMoveNumber(s) => write!(f, "bad move number '{s}'"),
            SfenError::TrailingFields(s) => write!(f, "unexpected extra field '{s}'"),
            SfenError::UnknownBoardSize { width, height } => write!(
                f,
                "no variant is played on a {width}x{height} board (chushogi 12x12, heian 9x9, 9x8, 8x9, 8x8)"
            ),
        }
    }
}

impl std::error::Error for SfenError {}

/// Splits a board string into ranks of tokens, checking letters against `variant`.
fn parse_board(variant: Variant, board: &str) -> Result<Vec<(Square, Piece)>, SfenError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != variant.height() as usize {
        return Err(SfenError::RankCount {
            expected: variant.height(),
            found: ranks.len(),
        });
    }
    let mut placed = Vec::new();
    for (row, text) in ranks.iter().enumerate() {
        parse_rank(variant, row, text, &mut placed)?;
    }
    Ok(placed)
}

/// Reads rank `row` (0 at the top) into `placed`: runs of empty squares and piece tokens that
/// fill exactly the variant's width.
fn parse_rank(
    variant: Variant,
    row: usize,
    text: &str,
    placed: &mut Vec<(Square, Piece)>,
) -> Result<(), SfenError> {
    let width = variant.width();
    if let Some(found) = text.chars().find(|c| !c.is_ascii()) {
        return Err(SfenError::NotAscii { rank: row, found });
    }
    let bytes = text.as_bytes();
    let (mut col, mut i) = (0usize, 0usize);
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let (n, next) = read_run(text, row, i)?;
            col += n;
            i = next;
        } else {
            let (piece, next) = read_piece(variant, text, row, i)?;
            if col < width as usize {
                placed.push((Square::from_coords(col as u8, row as u8), piece));
            }
            col += 1;
            i = next;
        }
        if col > width as usize {
            return Err(SfenError::RankTooLong {
                rank: row,
                files: col,
                width,
            });
        }
    }
    if col < width as usize {
        return Err(SfenError::RankTooShort {
            rank: row,
            files: col,
            width,
        });
    }
    Ok(())
}

/// The run of empty squares starting at byte `i` of `text` (1 to 12, no leading zero) and the
/// byte after it.
fn read_run(text: &str, row: usize, i: usize) -> Result<(usize, usize), SfenError> {
    let bytes = text.as_bytes();
    let end = (i..bytes.len())
        .find(|&j| !bytes[j].is_ascii_digit())
        .unwrap_or(bytes.len());
    let token = &text[i..end];
    let bad = || SfenError::BadRun {
        rank: row,
        token: token.to_string(),
    };
    let n: usize = token.parse().map_err(|_| bad())?;
    if n == 0 || n > 12 || token.starts_with('0') {
        return Err(bad());
    }
    Ok((n, end))
}

/// The piece token (`+` and a letter, or a letter) starting at byte `i` of `text`, and the
/// byte after it.
fn read_piece(
    variant: Variant,
    text: &str,
    row: usize,
    i: usize,
) -> Result<(Piece, usize), SfenError> {
    let bytes = text.as_bytes();
    let letter_at = if bytes[i] == b'+' { i + 1 } else { i };
    if letter_at >= bytes.len() || !bytes[letter_at].is_ascii_alphabetic() {
        return Err(SfenError::BadPiece {
            rank: row,
            token: text[i..(letter_at + 1).min(text.len())].to_string(),
        });
    }
    let token = &text[i..letter_at + 1];
    let color = if bytes[letter_at].is_ascii_uppercase() {
        Color::Sente
    } else {
        Color::Gote
    };
    let kind =
        Kind::from_letter(variant.family(), &token.to_ascii_uppercase()).ok_or_else(|| {
            SfenError::BadPiece {
                rank: row,
                token: token.to_string(),
            }
        })?;
    Ok((Piece::new(color, kind), letter_at + 1))
}

/// The width and height a board string describes, if it is well formed enough to tell.
fn board_dimensions(board: &str) -> Option<(usize, usize)> {
    let first = board.split('/').next()?;
    let mut files = 0;
    let mut digits = String::new();
    for c in first.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        if !digits.is_empty() {
            files = digits.parse::<usize>().ok()?.checked_add(files)?;
            digits.clear();
        }
        if c.is_ascii_alphabetic() {
            files = files.checked_add(1)?;
        }
    }
    if !digits.is_empty() {
        files = digits.parse::<usize>().ok()?.checked_add(files)?;
    }
    Some((files, board.split('/').count()))
}

fn split_fields(s: &str) -> Vec<&str> {
    s.split(|c: char| c.is_whitespace() || c == '_')
        .filter(|t| !t.is_empty())
        .collect()
}

impl Position {
    /// Reads a lishogi SFEN of `variant`: `BOARD SIDE THIRD MOVENUMBER`, where THIRD is `-` or
    /// the counter-strike square. `_` may separate fields; the move number may be missing and a
    /// hands field of `-` is accepted. `startpos` gives the start position.
    pub fn from_sfen(variant: Variant, sfen: &str) -> Result<Position, SfenError> {
        let fields = split_fields(sfen);
        if fields.is_empty() {
            return Err(SfenError::Empty);
        }
        if fields[0] == "startpos" && fields.len() == 1 {
            return Position::from_sfen(variant, variant.start_sfen());
        }
        let mut pos = Position::empty(variant);
        for (sq, piece) in parse_board(variant, fields[0])? {
            pos.put(sq, piece);
        }
        let side = fields.get(1).copied().unwrap_or("b");
        pos.side = match side {
            "b" | "B" => Color::Sente,
            "w" | "W" => Color::Gote,
            other => return Err(SfenError::BadSide(other.to_string())),
        };
        let mut rest = fields.iter().skip(2).peekable();
        // Optional hands field and third field, each `-` or (third) a square.
        let mut dashes = 0;
        while let Some(tok) = rest.peek() {
            if **tok == "-" && dashes < 2 {
                dashes += 1;
                rest.next();
            } else if !tok.chars().all(|c| c.is_ascii_digit()) {
                let sq = parse_usi_square(variant, tok)
                    .filter(|_| variant == Variant::Chushogi)
                    .ok_or_else(|| SfenError::BadCounterStrike(tok.to_string()))?;
                pos.counter_strike = Some(sq);
                rest.next();
            } else {
                break;
            }
        }
        if let Some(tok) = rest.next() {
            pos.move_number = tok
                .parse::<u32>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| SfenError::BadMoveNumber(tok.to_string()))?;
        }
        if let Some(tok) = rest.next() {
            return Err(SfenError::TrailingFields(tok.to_string()));
        }
        if pos.side == Color::Gote {
            pos.key ^= crate::board::zobrist::gote_to_move();
        }
        if let Some(cs) = pos.counter_strike {
            pos.key ^= crate::board::zobrist::counter_strike(cs);
        }
        debug_assert_eq!(pos.key, pos.compute_key());
        Ok(pos)
    }

    /// Reads a SFEN and picks the variant from the board's size.
    pub fn from_sfen_any(sfen: &str) -> Result<Position, SfenError> {
        let fields = split_fields(sfen);
        let board = fields.first().ok_or(SfenError::Empty)?;
        let (w, h) = board_dimensions(board).ok_or(SfenError::Empty)?;
        let variant = Variant::from_dimensions(w as u8, h as u8)
            .filter(|_| w <= 12 && h <= 12)
            .ok_or(SfenError::UnknownBoardSize {
                width: w,
                height: h,
            })?;
        Position::from_sfen(variant, sfen)
    }

    /// Reads an XBoard FEN: the SFEN board string, `w` for sente (the first mover) or `b` for
    /// gote, then XBoard's trailing fields, of which the full-move number (the last) is kept. A
    /// missing side means sente.
    pub fn from_xboard_fen(variant: Variant, fen: &str) -> Result<Position, SfenError> {
        let fields = split_fields(fen);
        let board = fields.first().ok_or(SfenError::Empty)?;
        let side = match fields.get(1).copied() {
            None | Some("w") | Some("W") => "b",
            Some("b") | Some("B") => "w",
            Some(other) => return Err(SfenError::BadSide(other.to_string())),
        };
        // XBoard counts full moves in the last field (the sixth, or the fourth of the shogi
        // form `board w 0 1`); SFEN counts plies from 1.
        let number = fields
            .get(2..)
            .and_then(<[&str]>::last)
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|&n| (1..=1_000_000).contains(&n))
            .map_or(1, |n| if side == "b" { 2 * n - 1 } else { 2 * n });
        Position::from_sfen(variant, &format!("{board} {side} - {number}"))
    }

    /// The board part shared by SFEN and XBoard FEN.
    pub fn board_string(&self) -> String {
        let mut s = String::new();
        for row in 0..self.variant.height() {
            if row > 0 {
                s.push('/');
            }
            let mut empty = 0;
            for col in 0..self.variant.width() {
                let p = self.piece_at(Square::from_coords(col, row));
                if p.is_none() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    s.push_str(&empty.to_string());
                    empty = 0;
                }
                s.push_str(&p.sfen());
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
        }
        s
    }

    /// The lishogi SFEN of the position.
    pub fn to_sfen(&self) -> String {
        let third = match self.counter_strike {
            Some(sq) => usi_square(self.variant, sq),
            None => "-".to_string(),
        };
        format!(
            "{} {} {} {}",
            self.board_string(),
            self.side.sfen_char(),
            third,
            self.move_number
        )
    }

    /// The XBoard FEN: side `w` for sente, `b` for gote.
    pub fn to_xboard_fen(&self) -> String {
        let side = match self.side {
            Color::Sente => 'w',
            Color::Gote => 'b',
        };
        format!(
            "{} {} - - 0 {}",
            self.board_string(),
            side,
            self.move_number.div_ceil(2)
        )
    }

    /// A picture of the board for people, sente at the bottom, with USI coordinates.
    pub fn pretty(&self) -> String {
        let (w, h) = (self.variant.width(), self.variant.height());
        let mut s = String::new();
        s.push_str("  ");
        for col in 0..w {
            s.push_str(&format!("{:>3}", w - col));
        }
        s.push('\n');
        for row in 0..h {
            s.push_str("  ");
            for col in 0..w {
                let p = self.piece_at(Square::from_coords(col, row));
                if p.is_none() {
                    s.push_str("  .");
                } else {
                    s.push_str(&format!("{:>3}", p.sfen()));
                }
            }
            s.push_str(&format!("  {}\n", (b'a' + row) as char));
        }
        s.push_str(&format!(
            "{} to move{}\n",
            self.side.name(),
            match self.counter_strike {
                Some(cs) => format!(", counter-strike on {}", usi_square(self.variant, cs)),
                None => String::new(),
            }
        ));
        s
    }
}
