//! Move and square notation (docs/rules.md section 11): lishogi USI and XBoard, written in one
//! canonical spelling and read in every spelling. An illegal move is refused with a typed
//! reason (`IllegalMove`), so callers can tell the rules apart while users read the same phrase.

use crate::board::attacks::tables;
pub use crate::board::{parse_usi_square, parse_xboard_square, usi_square, xboard_square};
use crate::board::{Color, Kind, LionPower, Square, Variant};
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
    /// Why it was refused; its `Display` is the phrase users see (`"no piece on 5e"`).
    pub reason: IllegalMove,
}

/// Why a move is not legal in a position, or not a move at all. Squares are named as the user
/// reads them: in the move's notation where the text itself is wrong, in USI where a rule of
/// lions or promotion forbids a move the piece could otherwise make.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The text is not a move in this notation.
    #[error("unparsable move (expected {})", spelling_examples(*.0))]
    Unparsable(Notation),
    /// The side to move has no legal move.
    #[error("the game is over: no legal move")]
    GameOver,
    /// A pass, but no piece with lion power has an empty square to pass by.
    #[error("no piece with lion power can pass here")]
    CannotPass,
    /// The move starts on an empty square.
    #[error("no piece on {square}")]
    NoPiece {
        /// The starting square.
        square: String,
    },
    /// The move starts on a piece of the side not to move.
    #[error("the piece on {square} is {}'s, and {} is to move", .owner.name(), .to_move.name())]
    NotYourPiece {
        /// The starting square.
        square: String,
        /// Whose piece it is.
        owner: Color,
        /// The side to move.
        to_move: Color,
    },
    /// A double move by a piece without lion power.
    #[error("the {} on {square} has no lion power for a double move", .kind.name())]
    NoLionPower {
        /// The piece.
        kind: Kind,
        /// Where it stands.
        square: String,
    },
    /// A double move whose steps the piece cannot make.
    #[error("not a double move the {} on {square} can make", .kind.name())]
    NotADoubleMoveOfThePiece {
        /// The piece.
        kind: Kind,
        /// Where it stands.
        square: String,
    },
    /// A double move marked as promoting.
    #[error("a double move never promotes")]
    DoubleMovePromotes,
    /// A double move through a square of the mover's own side.
    #[error("the middle square {square} holds your own piece")]
    OwnPieceInTheMiddle {
        /// The middle square.
        square: String,
    },
    /// A move onto a piece of the mover's own side.
    #[error("{square} holds your own piece")]
    OwnPiece {
        /// The destination.
        square: String,
    },
    /// A destination the piece cannot reach.
    #[error("not a legal move of the {} on {square}", .kind.name())]
    NotAMoveOfThePiece {
        /// The piece.
        kind: Kind,
        /// Where it stands.
        square: String,
    },
    /// A promotion of a piece that has no promoted form.
    #[error("the {} cannot promote", .kind.name())]
    CannotPromote {
        /// The piece.
        kind: Kind,
    },
    /// A promotion where the promotion rule allows none.
    #[error("the {} may not promote on this move", .kind.name())]
    MayNotPromote {
        /// The piece.
        kind: Kind,
    },
    /// A move without promotion where the piece must promote.
    #[error("the {} must promote on {square}", .kind.name())]
    MustPromote {
        /// The piece.
        kind: Kind,
        /// The destination.
        square: String,
    },
    /// The lion-trading rule: a non-lion may not take a lion right after a lion was taken by a
    /// non-lion (counter-strike).
    #[error(
        "counter-strike: a non-lion may not capture the lion on {lion} right after a lion was taken by a non-lion"
    )]
    CounterStrike {
        /// The lion's square.
        lion: String,
    },
    /// The lion-trading rule: a lion takes a protected lion two squares away after taking
    /// only a lesser piece on the way.
    #[error("bridge capture of the protected lion on {lion} after taking only a {} on {middle}", .taken.name())]
    BridgeCapture {
        /// The lion's square.
        lion: String,
        /// The piece taken on the way.
        taken: Kind,
        /// Its square.
        middle: String,
    },
    /// The lion-trading rule: a lion takes a protected lion two squares away by a jump.
    #[error("distant capture of a protected lion on {lion}")]
    DistantLionCapture {
        /// The lion's square.
        lion: String,
    },
    /// Heian: the move leaves the mover's king in check.
    #[error("the move leaves the king in check")]
    LeavesKingInCheck,
    /// Any other reason a move the piece could make is not legal.
    #[error("not a legal move")]
    NotLegal,
    /// The move repeats an earlier position where the rules forbid repetition.
    #[error("repeats an earlier position, which these rules forbid")]
    ForbiddenRepetition,
}

/// The spellings an unparsable move is told to follow.
fn spelling_examples(notation: Notation) -> &'static str {
    match notation {
        Notation::Usi => "USI like 7g7f, 5e5c+, 8g7f8g or 0000",
        Notation::Xboard => "XBoard like f4f5, e9e10+, e6f7,f7e6 or @@@@",
    }
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
    pos.peek(mv).key()
}

/// Reads a move in `notation` and returns the legal move of `pos` with the same effect, or the
/// reason it is not legal.
pub fn parse_move(pos: &Position, text: &str, notation: Notation) -> Result<Move, MoveError> {
    legal_move(pos, text, notation).map_err(|reason| MoveError {
        text: text.trim().to_string(),
        reason,
    })
}

/// `parse_move` without the text in the error.
fn legal_move(pos: &Position, text: &str, notation: Notation) -> Result<Move, IllegalMove> {
    let request =
        parse_request(pos.variant(), text, notation).ok_or(IllegalMove::Unparsable(notation))?;
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return Err(IllegalMove::GameOver);
    }
    let candidate = match request {
        Request::Pass => Move::PASS,
        Request::Path { squares, promote } => {
            let mover = Mover::at(pos, squares[0], notation)?;
            match squares[..] {
                [_, mid, to] => mover.double_move(pos, mid, to, promote)?,
                [_, to] => mover.single_move(pos, to, promote)?,
                _ => unreachable!("parse_request gives two or three squares"),
            }
        }
    };
    if legal.contains(&candidate) {
        return Ok(candidate);
    }
    if candidate.is_pass() {
        return Err(IllegalMove::CannotPass);
    }
    let wanted = key_after(pos, candidate);
    if let Some(&m) = legal.iter().find(|&&m| key_after(pos, m) == wanted) {
        return Ok(m);
    }
    let kind = pos.piece_at(candidate.from()).kind();
    Err(illegal_reason(pos, candidate, kind, &legal))
}

/// The piece a move text starts from: one of the side to move's.
struct Mover {
    from: Square,
    kind: Kind,
    notation: Notation,
}

impl Mover {
    /// The side to move's piece on `from`, or why there is none.
    fn at(pos: &Position, from: Square, notation: Notation) -> Result<Mover, IllegalMove> {
        let piece = pos.piece_at(from);
        let square = square_text(pos.variant(), from, notation);
        if piece.is_none() {
            return Err(IllegalMove::NoPiece { square });
        }
        if piece.color() != pos.side_to_move() {
            return Err(IllegalMove::NotYourPiece {
                square,
                owner: piece.color(),
                to_move: pos.side_to_move(),
            });
        }
        Ok(Mover {
            from,
            kind: piece.kind(),
            notation,
        })
    }

    fn name(&self, pos: &Position, sq: Square) -> String {
        square_text(pos.variant(), sq, self.notation)
    }

    /// Whether `sq` holds a piece of the side to move.
    fn own(pos: &Position, sq: Square) -> bool {
        pos.piece_at(sq).is_some() && pos.piece_at(sq).color() == pos.side_to_move()
    }

    /// The move `from`, `mid`, `to` if this piece's lion power makes it: a pass, a plain move
    /// or a double capture.
    fn double_move(
        &self,
        pos: &Position,
        mid: Square,
        to: Square,
        promote: bool,
    ) -> Result<Move, IllegalMove> {
        let (from, kind) = (self.from, self.kind);
        let square = self.name(pos, from);
        if kind.lion_power() == LionPower::None {
            return Err(IllegalMove::NoLionPower { kind, square });
        }
        let straight_on = mid.offset(
            mid.col() as i8 - from.col() as i8,
            mid.row() as i8 - from.row() as i8,
        );
        let second_ok = match kind.lion_power() {
            LionPower::Full => tables().neighbours(mid).has(to),
            _ => to == from || straight_on == Some(to),
        };
        if !tables().lion_first(kind, pos.side_to_move(), from).has(mid) || !second_ok {
            return Err(IllegalMove::NotADoubleMoveOfThePiece { kind, square });
        }
        if promote {
            return Err(IllegalMove::DoubleMovePromotes);
        }
        if Mover::own(pos, mid) {
            let square = self.name(pos, mid);
            return Err(IllegalMove::OwnPieceInTheMiddle { square });
        }
        if to != from && Mover::own(pos, to) {
            let square = self.name(pos, to);
            return Err(IllegalMove::OwnPiece { square });
        }
        Ok(match (pos.piece_at(mid).is_some(), to == from) {
            (false, true) => Move::PASS,
            (false, false) => Move::normal(from, to),
            (true, _) => Move::double(from, mid, to),
        })
    }

    /// The move `from`, `to` if this piece can make it (a lion's move back to `from` passes).
    fn single_move(&self, pos: &Position, to: Square, promote: bool) -> Result<Move, IllegalMove> {
        let (from, kind) = (self.from, self.kind);
        if to == from && kind.lion_power() != LionPower::None {
            return Ok(Move::PASS);
        }
        let v = pos.variant();
        let walls = pos.occupied() | v.off_board();
        if !tables()
            .attacks(kind, pos.side_to_move(), from, walls)
            .has(to)
            || !v.board().has(to)
        {
            let square = self.name(pos, from);
            return Err(IllegalMove::NotAMoveOfThePiece { kind, square });
        }
        if Mover::own(pos, to) {
            let square = self.name(pos, to);
            return Err(IllegalMove::OwnPiece { square });
        }
        if promote && kind.promotes_to().is_none() {
            return Err(IllegalMove::CannotPromote { kind });
        }
        Ok(if promote {
            Move::promoting(from, to)
        } else {
            Move::normal(from, to)
        })
    }
}

/// Explains why a physically possible move is not legal.
fn illegal_reason(pos: &Position, mv: Move, kind: Kind, legal: &[Move]) -> IllegalMove {
    let v = pos.variant();
    let (from, to) = (mv.from(), mv.to());
    let usi = |sq| usi_square(v, sq);
    if mv.is_promotion() {
        if kind.promotes_to().is_none() {
            return IllegalMove::CannotPromote { kind };
        }
        return IllegalMove::MayNotPromote { kind };
    }
    if legal.contains(&Move::promoting(from, to)) {
        let square = usi(to);
        return IllegalMove::MustPromote { kind, square };
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
        let lion = usi(victim);
        if !kind.is_lion() && pos.counter_strike().is_some() {
            return IllegalMove::CounterStrike { lion };
        }
        if kind.is_lion() && from.distance(victim) == 2 {
            return match mv.mid() {
                Some(mid) => IllegalMove::BridgeCapture {
                    lion,
                    taken: pos.piece_at(mid).kind(),
                    middle: usi(mid),
                },
                None => IllegalMove::DistantLionCapture { lion },
            };
        }
    }
    if v.family() == crate::board::Family::Heian {
        return IllegalMove::LeavesKingInCheck;
    }
    IllegalMove::NotLegal
}

/// Reads a square in either notation.
pub fn parse_square(variant: Variant, s: &str, notation: Notation) -> Option<Square> {
    match notation {
        Notation::Usi => parse_usi_square(variant, s),
        Notation::Xboard => parse_xboard_square(variant, s),
    }
}
