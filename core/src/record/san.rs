//! XBoard's algebraic notation (SAN) for Chu and the Heian variants, as XBoard writes it in its
//! saved games: the piece letter (`+` first for a promoted piece; none for a pawn, which names
//! its file when it captures: `fxf5`), a file or rank or both where two pieces of the kind reach
//! the square, `x` on a capture, the square; a
//! lion's double move as the first square and then `-` or `x` and the last (`Nxi6-j7`), the
//! pass as XBoard writes it, `--`; `+` after a promotion, `#` after the move that wins.
//!
//! Reading takes XBoard's spellings with or without `x`, `-` and disambiguation, as long as they
//! name one legal move.

use crate::board::{xboard_square, Kind, Square};
use crate::moves::Move;
use crate::notation::pass_spelling;
use crate::position::Position;

/// The piece letter of `kind` as SAN writes it: empty for a pawn.
fn letter(kind: Kind) -> &'static str {
    match kind {
        Kind::Pawn | Kind::HeianPawn => "",
        k => k.letter(),
    }
}

/// The squares a move passes (middle square, then last), the pass spelt by its step.
fn path(pos: &Position, mv: Move) -> (Square, Option<Square>, Square) {
    if mv.is_pass() {
        if let Some((from, mid)) = pass_spelling(pos) {
            return (from, Some(mid), from);
        }
    }
    (mv.from(), mv.mid(), mv.to())
}

/// SAN of a legal move `mv` of `pos`, `legal` being every legal move there.
pub(super) fn write(pos: &Position, legal: &[Move], mv: Move) -> String {
    if mv.is_pass() {
        return "--".to_string();
    }
    let variant = pos.variant();
    let sq = |s: Square| xboard_square(variant, s);
    let (from, mid, to) = path(pos, mv);
    let kind = pos.piece_at(from).kind();
    let them = pos.side_to_move().flip();
    let enemy = |s: Square| {
        let p = pos.piece_at(s);
        p.is_some() && p.color() == them
    };
    // XBoard tells apart only the moves its legality test allows, which keep the mover's royal
    // unattacked; a move that does not is told apart from every other (as a reader that
    // prefers the safe move would otherwise take another).
    let mover = pos.side_to_move();
    let safe = |m: Move| !pos.peek(m).in_check(mover);
    let among_all = !safe(mv);
    let rivals: Vec<Square> = legal
        .iter()
        .filter(|&&other| {
            other != mv
                && !other.is_pass()
                && other.to() == to
                && other.mid() == mid
                && other.from() != from
                && pos.piece_at(other.from()).kind() == kind
                && (among_all || safe(other))
        })
        .map(|other| other.from())
        .collect();
    let mut out = letter(kind).to_string();
    let pawn_capture = out.is_empty() && mid.is_none() && enemy(to);
    if pawn_capture && rivals.is_empty() {
        out.push_str(&sq(from)[..1]);
    } else if !rivals.is_empty() {
        let file_unique = rivals.iter().all(|r| r.col() != from.col());
        let rank_unique = rivals.iter().all(|r| r.row() != from.row());
        let square = sq(from);
        let (file, rank) = square.split_at(1);
        if file_unique {
            out.push_str(file);
        } else if rank_unique {
            out.push_str(rank);
        } else {
            out.push_str(&square);
        }
    }
    match mid {
        Some(mid) => {
            if enemy(mid) {
                out.push('x');
            }
            out.push_str(&sq(mid));
            out.push(if to != from && enemy(to) { 'x' } else { '-' });
            out.push_str(&sq(to));
        }
        None => {
            if enemy(to) {
                out.push('x');
            }
            out.push_str(&sq(to));
        }
    }
    if mv.is_promotion() {
        out.push('+');
    }
    let mut after = pos.clone();
    after.play(mv);
    if wins(&mut after, pos.side_to_move()) {
        out.push('#');
    }
    out
}

/// Whether `mover`'s move that led to `after` wins: it ended the game for `mover`, or left the
/// other side with one royal, in check, and no reply that ends the check (XBoard's `#`).
fn wins(after: &mut Position, mover: crate::board::Color) -> bool {
    if let Some(outcome) = after.outcome() {
        return outcome.winner == Some(mover);
    }
    let defender = mover.flip();
    if after.royals(defender).count() != 1 || !after.in_check(defender) {
        return false;
    }
    let replies: Vec<Move> = after.legal_moves().iter().copied().collect();
    replies.into_iter().all(|reply| {
        after.play(reply);
        let still = after.in_check(defender);
        after.undo();
        still
    })
}

/// The legal move of `pos` that the SAN `text` names, if exactly one.
pub(super) fn read(pos: &Position, legal: &[Move], text: &str) -> Result<Move, SanError> {
    let text = text.trim_end_matches(['!', '?', '#']);
    if matches!(text, "@@@@" | "--" | "pass") {
        return legal
            .iter()
            .copied()
            .find(|m| m.is_pass())
            .ok_or(SanError::NoMove);
    }
    let (body, promotion) = if let Some(b) = text.strip_suffix('+').filter(|b| !b.is_empty()) {
        (b, Some(true))
    } else if let Some(b) = text.strip_suffix('=') {
        (b, Some(false))
    } else {
        (text, None)
    };
    let core: String = body
        .chars()
        .filter(|c| !matches!(c, 'x' | '-' | ':'))
        .collect();
    if core.is_empty() || !core.is_ascii() {
        return Err(SanError::NoMove);
    }
    let variant = pos.variant();
    let sq = |s: Square| xboard_square(variant, s);
    let named: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&mv| {
            let (from, mid, to) = path(pos, mv);
            let squares = match mid {
                Some(mid) => sq(mid) + &sq(to),
                None => sq(to),
            };
            let kind = pos.piece_at(from).kind();
            let origin = sq(from);
            let (file, rank) = origin.split_at(1);
            // XBoard writes `.` for a promoted piece its table has no letter for.
            let letters: &[&str] = match (letter(kind), kind.is_promoted()) {
                ("", _) => &["", "P"],
                (l, true) => &[l, "."],
                (l, false) => &[l],
            };
            letters.iter().any(|l| {
                ["", file, rank, &origin]
                    .iter()
                    .any(|d| core == format!("{l}{d}{squares}"))
            })
        })
        .collect();
    let paths = |moves: &[Move]| -> std::collections::HashSet<(Square, Option<Square>, Square)> {
        moves.iter().map(|&m| (m.from(), m.mid(), m.to())).collect()
    };
    let mut named = named;
    if paths(&named).len() > 1 {
        // XBoard tells apart only the moves its legality test allows, which do not leave the
        // mover's royal attacked: of two Golds that reach the square, the one shielding the
        // King from a Dragon is not named (a Chu game XBoard saved wrote `Gg3` so).
        let mover = pos.side_to_move();
        named.retain(|&m| !pos.peek(m).in_check(mover));
        if paths(&named).len() != 1 {
            return Err(SanError::Ambiguous);
        }
    }
    let pick = |promotes: bool| named.iter().copied().find(|m| m.is_promotion() == promotes);
    match promotion {
        Some(p) => pick(p),
        None => pick(false).or_else(|| pick(true)),
    }
    .ok_or(SanError::NoMove)
}

/// Why a SAN token names no one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SanError {
    /// No legal move fits it.
    NoMove,
    /// Several legal moves fit it (XBoard's `.` for an unnamed piece can).
    Ambiguous,
}
