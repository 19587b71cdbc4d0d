//! Move and square notation (RULES.md section 11): lishogi USI and XBoard, written in one
//! canonical spelling and read in every spelling, with a reason when a move is illegal.

use crate::board::attacks::tables;
pub use crate::board::{parse_usi_square, parse_xboard_square, usi_square, xboard_square};
use crate::board::{Kind, LionPower, Square, Variant};
use crate::moves::Move;
use crate::position::Position;

/// Which coordinates a move is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// lishogi USI: `7i7h`, `5e5c+`, `8g7f8g`.
    Usi,
    /// XBoard: `f4f5`, `e9e10+`, `e6f7,f7e6`, `@@@@`.
    Xboard,
}

/// Why a move string was not accepted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{reason}: {text}")]
pub struct MoveError {
    /// The move string as given, trimmed.
    pub text: String,
    /// Why it was refused, as a phrase for the user (`"no piece on 5e"`).
    pub reason: String,
}

fn square_text(variant: Variant, sq: Square, notation: Notation) -> String {
    match notation {
        Notation::Usi => usi_square(variant, sq),
        Notation::Xboard => xboard_square(variant, sq),
    }
}

/// The piece and middle square that spell the pass: the first lion-power piece in lishogi's
/// square order (rank `a` first, then low file numbers) with an empty first square, and its
/// first such square in the same order. This is how lishogi's own tools print it.
pub fn pass_spelling(pos: &Position) -> Option<(Square, Square)> {
    let t = tables();
    let us = pos.side_to_move();
    let variant = pos.variant();
    let order = |sq: &Square| (sq.row(), variant.width() - sq.col());
    let mut pieces: Vec<Square> = pos
        .pieces(us)
        .iter()
        .filter(|&sq| pos.piece_at(sq).kind().lion_power() != LionPower::None)
        .collect();
    pieces.sort_by_key(order);
    let walls = pos.occupied() | variant.off_board();
    pieces.into_iter().find_map(|from| {
        let kind = pos.piece_at(from).kind();
        let mut empties: Vec<Square> = (t.lion_first(kind, us, from) & !walls).iter().collect();
        empties.sort_by_key(order);
        empties.first().map(|&mid| (from, mid))
    })
}

/// Writes a legal move of `pos`.
pub fn write_move(pos: &Position, mv: Move, notation: Notation) -> String {
    let v = pos.variant();
    let sq = |s| square_text(v, s, notation);
    if mv.is_pass() {
        return match (notation, pass_spelling(pos)) {
            (Notation::Xboard, _) => "@@@@".to_string(),
            (Notation::Usi, Some((from, mid))) => format!("{}{}{}", sq(from), sq(mid), sq(from)),
            (Notation::Usi, None) => "0000".to_string(),
        };
    }
    let promo = if mv.is_promotion() { "+" } else { "" };
    match (mv.mid(), notation) {
        (None, _) => format!("{}{}{}", sq(mv.from()), sq(mv.to()), promo),
        (Some(mid), Notation::Usi) => format!("{}{}{}", sq(mv.from()), sq(mid), sq(mv.to())),
        (Some(mid), Notation::Xboard) => {
            format!("{}{},{}{}", sq(mv.from()), sq(mid), sq(mid), sq(mv.to()))
        }
    }
}

/// What a move string asks for, before checking it against the position.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Request {
    Pass,
    Path { squares: Vec<Square>, promote: bool },
}

fn split_usi_squares(variant: Variant, body: &str) -> Option<Vec<Square>> {
    let mut squares = Vec::new();
    let mut rest = body;
    while !rest.is_empty() {
        let digits = rest.chars().take_while(|c| c.is_ascii_digit()).count();
        let len = digits + 1;
        if digits == 0 || rest.len() < len {
            return None;
        }
        squares.push(parse_usi_square(variant, &rest[..len])?);
        rest = &rest[len..];
    }
    Some(squares)
}

fn split_xboard_squares(variant: Variant, body: &str) -> Option<Vec<Square>> {
    let mut squares: Vec<Square> = Vec::new();
    for leg in body.split(',') {
        let mut leg_squares = Vec::new();
        let mut rest = leg;
        while !rest.is_empty() {
            let digits = rest[1..].chars().take_while(|c| c.is_ascii_digit()).count();
            if digits == 0 {
                return None;
            }
            leg_squares.push(parse_xboard_square(variant, &rest[..1 + digits])?);
            rest = &rest[1 + digits..];
        }
        match (squares.last(), leg_squares.first()) {
            (Some(last), Some(first)) if last == first => squares.extend(&leg_squares[1..]),
            (None, Some(_)) => squares.extend(leg_squares),
            _ => return None,
        }
    }
    Some(squares)
}

fn parse_request(variant: Variant, text: &str, notation: Notation) -> Option<Request> {
    let text = text.trim();
    if !text.is_ascii() {
        return None;
    }
    if matches!(text, "0000" | "@@@@" | "pass") {
        return Some(Request::Pass);
    }
    let (body, promote) = match text.as_bytes().last()? {
        b'+' => (&text[..text.len() - 1], true),
        b'=' => (&text[..text.len() - 1], false),
        _ => (text, false),
    };
    let squares = match notation {
        Notation::Usi => split_usi_squares(variant, body)?,
        Notation::Xboard => split_xboard_squares(variant, body)?,
    };
    if !(2..=3).contains(&squares.len()) {
        return None;
    }
    Some(Request::Path { squares, promote })
}

/// The key of the position after `mv`, to compare moves by their effect.
fn key_after(pos: &Position, mv: Move) -> u64 {
    let mut after = pos.clone();
    after.play(mv);
    after.key()
}

/// Reads a move in `notation` and returns the legal move of `pos` with the same effect, or the
/// reason it is not legal.
pub fn parse_move(pos: &Position, text: &str, notation: Notation) -> Result<Move, MoveError> {
    let err = |reason: String| MoveError {
        text: text.trim().to_string(),
        reason,
    };
    let v = pos.variant();
    let request = parse_request(v, text, notation).ok_or_else(|| {
        err(match notation {
            Notation::Usi => {
                "unparsable move (expected USI like 7g7f, 5e5c+, 8g7f8g or 0000)".to_string()
            }
            Notation::Xboard => {
                "unparsable move (expected XBoard like f4f5, e9e10+, e6f7,f7e6 or @@@@)".to_string()
            }
        })
    })?;
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return Err(err("the game is over: no legal move".to_string()));
    }
    let name = |sq: Square| square_text(v, sq, notation);
    let (squares, promote) = match request {
        Request::Pass => {
            return if legal.contains(&Move::PASS) {
                Ok(Move::PASS)
            } else {
                Err(err("no piece with lion power can pass here".to_string()))
            };
        }
        Request::Path { squares, promote } => (squares, promote),
    };
    let from = squares[0];
    let piece = pos.piece_at(from);
    if piece.is_none() {
        return Err(err(format!("no piece on {}", name(from))));
    }
    if piece.color() != pos.side_to_move() {
        return Err(err(format!(
            "the piece on {} is {}'s, and {} is to move",
            name(from),
            piece.color().name(),
            pos.side_to_move().name()
        )));
    }
    let kind = piece.kind();
    let t = tables();
    let us = pos.side_to_move();
    let describe = || format!("the {} on {}", kind.name(), name(from));
    let candidate = if squares.len() == 3 {
        let (mid, to) = (squares[1], squares[2]);
        if kind.lion_power() == LionPower::None {
            return Err(err(format!(
                "{} has no lion power for a double move",
                describe()
            )));
        }
        let straight_on = mid.offset(
            mid.col() as i8 - from.col() as i8,
            mid.row() as i8 - from.row() as i8,
        );
        let second_ok = match kind.lion_power() {
            LionPower::Full => t.neighbours(mid).has(to),
            _ => to == from || straight_on == Some(to),
        };
        if !t.lion_first(kind, us, from).has(mid) || !second_ok {
            return Err(err(format!("not a double move {} can make", describe())));
        }
        if promote {
            return Err(err("a double move never promotes".to_string()));
        }
        let occupant = pos.piece_at(mid);
        if occupant.is_some() && occupant.color() == us {
            return Err(err(format!(
                "the middle square {} holds your own piece",
                name(mid)
            )));
        }
        if to != from && pos.piece_at(to).is_some() && pos.piece_at(to).color() == us {
            return Err(err(format!("{} holds your own piece", name(to))));
        }
        match (occupant.is_some(), to == from) {
            (false, true) => Move::PASS,
            (false, false) => Move::normal(from, to),
            (true, _) => Move::double(from, mid, to),
        }
    } else {
        let to = squares[1];
        if to == from && kind.lion_power() != LionPower::None {
            Move::PASS
        } else {
            let walls = pos.occupied() | v.off_board();
            if !t.attacks(kind, us, from, walls).has(to) || !v.board().has(to) {
                return Err(err(format!("not a legal move of {}", describe())));
            }
            if pos.piece_at(to).is_some() && pos.piece_at(to).color() == us {
                return Err(err(format!("{} holds your own piece", name(to))));
            }
            if promote && kind.promotes_to().is_none() {
                return Err(err(format!("the {} cannot promote", kind.name())));
            }
            if promote {
                Move::promoting(from, to)
            } else {
                Move::normal(from, to)
            }
        }
    };
    if legal.contains(&candidate) {
        return Ok(candidate);
    }
    if candidate.is_pass() {
        return if legal.contains(&Move::PASS) {
            Ok(Move::PASS)
        } else {
            Err(err("no piece with lion power can pass here".to_string()))
        };
    }
    let wanted = key_after(pos, candidate);
    if let Some(&m) = legal.iter().find(|&&m| key_after(pos, m) == wanted) {
        return Ok(m);
    }
    Err(err(illegal_reason(pos, candidate, kind, &legal)))
}

/// Explains why a physically possible move is not legal.
fn illegal_reason(pos: &Position, mv: Move, kind: Kind, legal: &[Move]) -> String {
    let v = pos.variant();
    let (from, to) = (mv.from(), mv.to());
    let usi = |sq| usi_square(v, sq);
    if mv.is_promotion() {
        if kind.promotes_to().is_none() {
            return format!("the {} cannot promote", kind.name());
        }
        return format!("the {} may not promote on this move", kind.name());
    }
    if legal.contains(&Move::promoting(from, to)) {
        return format!("the {} must promote on {}", kind.name(), usi(to));
    }
    let captured: Vec<Square> = mv
        .mid()
        .into_iter()
        .chain((to != from && pos.piece_at(to).is_some()).then_some(to))
        .collect();
    let lion_victim = captured
        .iter()
        .copied()
        .find(|&sq| pos.piece_at(sq).kind().is_lion());
    if let Some(victim) = lion_victim {
        if !kind.is_lion() && pos.counter_strike().is_some() {
            return format!(
                "counter-strike: a non-lion may not capture the lion on {} right after a lion was taken by a non-lion",
                usi(victim)
            );
        }
        if kind.is_lion() && from.distance(victim) == 2 {
            return match mv.mid() {
                Some(mid) => format!(
                    "bridge capture of the protected lion on {} after taking only a {} on {}",
                    usi(victim),
                    pos.piece_at(mid).kind().name(),
                    usi(mid)
                ),
                None => format!("distant capture of a protected lion on {}", usi(victim)),
            };
        }
    }
    if v.family() == crate::board::Family::Heian {
        return "the move leaves the king in check".to_string();
    }
    "not a legal move".to_string()
}

/// Reads a square in either notation.
pub fn parse_square(variant: Variant, s: &str, notation: Notation) -> Option<Square> {
    match notation {
        Notation::Usi => parse_usi_square(variant, s),
        Notation::Xboard => parse_xboard_square(variant, s),
    }
}
