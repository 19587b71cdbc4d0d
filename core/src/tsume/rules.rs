//! Which moves a tsume allows: the attacker's checks and the defender's escapes (see the
//! module doc of `tsume` for the conventions).

use crate::board::attacks::tables;
use crate::board::{Bitboard, Color, Kind, Square, NUM_KINDS};
use crate::movegen::{generate, generate_captures_on, MoveList};
use crate::moves::Move;
use crate::position::{Peek, Position};

/// The board after a move as the tsume reads it: the royals and whether they are attacked. A
/// made move's position tells it, and so does a [`Peek`] at a move not made.
pub(super) trait AfterMove {
    fn royals(&self, color: Color) -> Bitboard;
    fn in_check(&self, color: Color) -> bool;
}

impl AfterMove for Position {
    fn royals(&self, color: Color) -> Bitboard {
        Position::royals(self, color)
    }

    fn in_check(&self, color: Color) -> bool {
        Position::in_check(self, color)
    }
}

impl AfterMove for Peek<'_> {
    fn royals(&self, color: Color) -> Bitboard {
        Peek::royals(self, color)
    }

    fn in_check(&self, color: Color) -> bool {
        Peek::in_check(self, color)
    }
}

/// The defender has no royal left: the attacker has won.
pub(super) fn royals_gone(pos: &impl AfterMove, defender: Color) -> bool {
    pos.royals(defender).is_empty()
}

/// Which attacker moves are checks while the defender has both a King and a Crown Prince
/// (USI `TsumeRoyals`, `shishi mate --royals`). With a single royal the two agree: a check
/// attacks it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Royals {
    /// A check threatens to end the game: moving again, the attacker could take every royal
    /// the defender has left. With two, that is a double capture of both by a piece with lion
    /// power; taking one of them is a check when the other is then attacked. The convention of
    /// the published problems with two royals (asahi-net 詰め中将棋 No. 3, docs/tsume.md).
    #[default]
    All,
    /// An attack on either royal is a check.
    Any,
}

impl Royals {
    /// Both conventions, the default first.
    pub const ALL: [Royals; 2] = [Royals::All, Royals::Any];

    /// The convention's name in options and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Royals::All => "all",
            Royals::Any => "any",
        }
    }

    /// The convention `name` names (ignoring case).
    pub fn from_name(name: &str) -> Option<Royals> {
        Royals::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(name))
    }
}

/// Whether the position after an attacker move threatens the defender under `Royals::Any`: a
/// royal is attacked or none is left. Under `Royals::All` this is a necessary condition, and
/// [`check_by_board`] says when it is not enough.
pub(super) fn is_check(after: &impl AfterMove, defender: Color) -> bool {
    royals_gone(after, defender) || after.in_check(defender)
}

/// Whether a move with [`is_check`] true is a check under `royals`, where the board decides
/// it; `None` where the defender keeps two royals under `Royals::All`, and only the attacker's
/// moves tell whether one takes both ([`gives_check`] makes the move and asks them).
pub(super) fn check_by_board(
    after: &impl AfterMove,
    defender: Color,
    royals: Royals,
) -> Option<bool> {
    (royals == Royals::Any || after.royals(defender).count() < 2).then_some(true)
}

/// Whether the position after an attacker move, made, is a check under `royals`.
pub(super) fn gives_check(after: &Position, defender: Color, royals: Royals) -> bool {
    is_check(after, defender)
        && check_by_board(after, defender, royals)
            .unwrap_or_else(|| threatens_every_royal(after, defender))
}

/// Whether the attacker, were it to move again in `after` (the defender to move), could take
/// every royal the defender has in one move.
fn threatens_every_royal(after: &Position, defender: Color) -> bool {
    let sfen = after.to_sfen();
    let mut fields: Vec<&str> = sfen.split(' ').collect();
    if fields.len() < 3 {
        return false;
    }
    fields[1] = if defender == Color::Sente { "w" } else { "b" };
    fields[2] = "-";
    let Ok(again) = Position::from_sfen(after.variant(), &fields.join(" ")) else {
        return false;
    };
    let mut again = again.with_rules(*after.rules());
    last_royal_capture(&mut again, defender).is_some()
}

/// A move of the side to move that takes `defender`'s last royal, if any: with one royal left
/// its capture, with King and Crown Prince a Lion's double capture of both.
pub(super) fn last_royal_capture(pos: &mut Position, defender: Color) -> Option<Move> {
    // A move takes a piece only on the square it lands on or a double move's middle square:
    // only the moves that take a royal there are read.
    let mut moves = MoveList::new();
    generate_captures_on(pos, pos.royals(defender), &mut moves);
    moves
        .into_iter()
        .find(|&mv| royals_gone(&pos.peek(mv), defender))
}

/// Whether the position after a defender move is an escape: a legal move after which the
/// attacker cannot take the defender's last royal, or one that took the attacker's last royal.
/// With a single royal that is "not attacked"; with two (a Drunk Elephant promoted to Crown
/// Prince) only a Lion's double capture of both takes the last one, so the move is an escape
/// unless the attacker has such a capture, which is what the verifier asks too. The defender
/// is mated when no legal move is an escape.
///
/// `attacker_royal`: the attacker had a royal before the move.
pub(super) fn is_escape(after: &mut Position, defender: Color, attacker_royal: bool) -> bool {
    escape_by_board(after, defender, attacker_royal)
        .unwrap_or_else(|| last_royal_capture(after, defender).is_none())
}

/// [`is_escape`] where the board after the move decides it; `None` where the defender keeps
/// two royals with one attacked, and only the attacker's moves tell whether a Lion takes both.
pub(super) fn escape_by_board(
    after: &impl AfterMove,
    defender: Color,
    attacker_royal: bool,
) -> Option<bool> {
    // Taking the attacker's last royal wins for the defender, whatever else hangs.
    if attacker_royal && royals_gone(after, !defender) {
        return Some(true);
    }
    if !after.in_check(defender) {
        return Some(true);
    }
    if after.royals(defender).count() > 1 {
        return None;
    }
    Some(false)
}

/// A necessary condition, read off the board before a move is made, for the move to be a check
/// (attacker to move) or an escape (defender to move): the solver decides exactly, with
/// [`is_check`] and [`escape_by_board`] on a [`Peek`], only the moves that pass it. Most moves
/// fail it, and the exact test costs an attack scan.
///
/// An attacker move can check only by taking a royal, by putting a piece whose empty-board
/// reach holds a royal on its destination, or by emptying a square on a line from a royal (its
/// start, or a double move's captured middle square): leapers attack whatever stands between,
/// so only a slider's line can open. A defender move with a single royal in check escapes only
/// by moving the royal, gaining a second one (a Crown Prince), taking a royal of the attacker,
/// or landing on or capturing on a square that takes a checker or stands between the royal and
/// a slider. Where these premises fail (the defender already in check before an attacker move,
/// or with no royal, or with two royals), every move passes.
pub(super) enum MoveFilter {
    /// Every move is made and tested.
    All,
    /// Attacker to move: the defender's royals, and every square on a line from one of them.
    Checks { royals: Bitboard, lines: Bitboard },
    /// Defender to move, its single royal in check: the royal's square, and the squares where
    /// a piece of it takes a checker or an attacker's royal, or blocks.
    Escapes {
        royal: Bitboard,
        resolving: Bitboard,
    },
}

impl MoveFilter {
    /// The filter for the side to move in `pos`; `attacker_to_move` says which side that is.
    pub(super) fn new(pos: &Position, attacker_to_move: bool, defender: Color) -> MoveFilter {
        let t = tables();
        let royals = pos.royals(defender);
        if attacker_to_move {
            // A defender with no royal at all is left with none by any move, which counts as a
            // check: the premises below need a royal to aim at.
            if royals.is_empty() || pos.in_check(defender) {
                return MoveFilter::All;
            }
            let mut lines = Bitboard::EMPTY;
            for r in royals {
                for dir in 0..8 {
                    lines |= t.ray(dir, r);
                }
            }
            return MoveFilter::Checks { royals, lines };
        }
        let Some(r) = royals.single() else {
            return MoveFilter::All;
        };
        let attacker = !defender;
        let occupied = pos.occupied();
        let checkers = pos.attackers_to(r, attacker, occupied);
        if checkers.is_empty() {
            return MoveFilter::All;
        }
        let walls = occupied | pos.variant().off_board();
        let mut resolving = checkers | pos.royals(attacker);
        for dir in 0..8 {
            resolving |= t.ray_attacks(dir, r, walls);
        }
        MoveFilter::Escapes {
            royal: Bitboard::from_square(r),
            resolving,
        }
    }

    /// Appends the moves of the side to move that may pass this filter, read off the board
    /// before any move is made: every move [`Self::may_allow`] passes, and few others. A single
    /// move of a piece that stands on no line from a royal checks only by landing where the
    /// piece (or its promoted form) attacks a royal, or on one; a single move that escapes,
    /// other than the royal's own or a promotion to a royal, lands where it takes a checker or
    /// blocks. Double moves are all listed (the generator's rule). Most moves are never listed.
    pub(super) fn generate(&self, pos: &Position, out: &mut MoveList) {
        let t = tables();
        match *self {
            MoveFilter::All => generate(pos, out),
            MoveFilter::Checks { royals, lines } => {
                // Per kind: the royals and the squares from which the kind attacks one (a
                // piece of the other colour on the royal reaches them).
                let them = !pos.side_to_move();
                let mut aims = [Bitboard::EMPTY; NUM_KINDS];
                let mut known = [false; NUM_KINDS];
                for from in pos.pieces(pos.side_to_move()) {
                    let kind = pos.piece_at(from).kind();
                    for k in std::iter::once(kind).chain(kind.promotes_to()) {
                        if !known[k.index()] {
                            known[k.index()] = true;
                            aims[k.index()] = royals
                                .iter()
                                .fold(royals, |acc, r| acc | t.reach(k, them, r));
                        }
                    }
                }
                let destinations = |kind: Kind, from: Square| {
                    if lines.has(from) {
                        return Bitboard::FULL;
                    }
                    let promoted = kind
                        .promotes_to()
                        .map_or(Bitboard::EMPTY, |p| aims[p.index()]);
                    aims[kind.index()] | promoted
                };
                crate::movegen::generate_toward(pos, destinations, out);
            }
            MoveFilter::Escapes { royal, resolving } => {
                let destinations = |kind: Kind, from: Square| {
                    if royal.has(from) || kind.promotes_to().is_some_and(Kind::is_royal) {
                        Bitboard::FULL
                    } else {
                        resolving
                    }
                };
                crate::movegen::generate_toward(pos, destinations, out);
            }
        }
    }

    /// False only for a move that cannot be a check (or an escape) here.
    pub(super) fn may_allow(&self, pos: &Position, mv: Move) -> bool {
        match *self {
            MoveFilter::All => true,
            _ if mv.is_pass() => false,
            MoveFilter::Checks { royals, lines } => {
                let mid = mv.mid();
                if royals.has(mv.to()) || mid.is_some_and(|m| royals.has(m)) {
                    return true;
                }
                let piece = pos.piece_at(mv.from());
                let kind = landing_kind(piece.kind(), mv);
                let reach = tables().reach(kind, piece.color(), mv.to());
                if (reach & royals).any() {
                    return true;
                }
                (!mv.is_igui() && lines.has(mv.from()))
                    || mid.is_some_and(|m| lines.has(m) && pos.piece_at(m).is_some())
            }
            MoveFilter::Escapes { royal, resolving } => {
                royal.has(mv.from())
                    || landing_kind(pos.piece_at(mv.from()).kind(), mv).is_royal()
                    || resolving.has(mv.to())
                    || mv.mid().is_some_and(|m| resolving.has(m))
            }
        }
    }
}

impl MoveFilter {
    /// Whether the attacker move `mv`, which passed this filter, checks: [`is_check`] on its
    /// peek, decided without a scan of every attacker where the defender was not in check
    /// before it (a `Checks` filter).
    pub(super) fn is_check(&self, pos: &Position, peek: &Peek, mv: Move, defender: Color) -> bool {
        match self {
            MoveFilter::Checks { .. } => checks_uncovered_or_direct(pos, peek, mv, defender),
            _ => is_check(peek, defender),
        }
    }
}

/// [`is_check`] after an attacker move, where no royal of the defender was attacked before
/// it: the move takes the last royal, the moved piece attacks a royal from its destination,
/// or a slider of the attacker does through a square the move emptied (its start or a
/// captured middle square; leapers attack whatever stands between, so only a slider's line
/// can open).
fn checks_uncovered_or_direct(pos: &Position, peek: &Peek, mv: Move, defender: Color) -> bool {
    let royals = peek.royals(defender);
    if royals.is_empty() {
        return true;
    }
    let t = tables();
    let attacker = !defender;
    let occupied = peek.occupied();
    let walls = occupied | pos.variant().off_board();
    let to = mv.to();
    let kind = peek.piece_at(to).kind();
    if (t.leaper(kind, attacker, to) & royals).any() {
        return true;
    }
    let dirs = t.slide_dirs(kind, attacker);
    let slides_onto = |r: Square| {
        (0..8).any(|dir| {
            dirs >> dir & 1 != 0 && t.ray(dir, to).has(r) && t.ray_attacks(dir, to, walls).has(r)
        })
    };
    if dirs != 0 && royals.iter().any(slides_onto) {
        return true;
    }
    let mut emptied = Bitboard::from_square(mv.from());
    if let Some(mid) = mv.mid() {
        emptied.set(mid);
    }
    emptied &= !occupied;
    let theirs = peek.pieces(attacker);
    royals.iter().any(|r| {
        (0..8).any(|dir| {
            if (t.ray(dir, r) & emptied).is_empty() {
                return false;
            }
            let Some(slider) = (t.ray_attacks(dir, r, walls) & theirs).single() else {
                return false;
            };
            let back = (dir as u8 + 4) & 7;
            t.slide_dirs(peek.piece_at(slider).kind(), attacker) >> back & 1 != 0
        })
    })
}

/// The kind the moving piece has when the move ends.
fn landing_kind(kind: crate::board::Kind, mv: Move) -> crate::board::Kind {
    if mv.is_promotion() {
        kind.promotes_to().unwrap_or(kind)
    } else {
        kind
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Variant;
    use crate::movegen::random_playout;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    /// `pos` with `color`'s royals taken off (a tsume's attacker has none).
    fn without_royals(pos: &Position, color: Color) -> Position {
        let sfen = pos.to_sfen();
        let (board, rest) = sfen.split_once(' ').unwrap();
        let royal = |t: &str| match color {
            Color::Sente => t == "K" || t == "+E",
            Color::Gote => t == "k" || t == "+e",
        };
        let mut rows = Vec::new();
        for row in board.split('/') {
            let (mut out, mut empty, mut chars) = (String::new(), 0, row.chars().peekable());
            while let Some(c) = chars.next() {
                let token = if c.is_ascii_digit() {
                    let mut n = c.to_digit(10).unwrap();
                    while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                        n = n * 10 + d;
                        chars.next();
                    }
                    empty += n;
                    continue;
                } else if c == '+' {
                    format!("+{}", chars.next().unwrap())
                } else {
                    c.to_string()
                };
                if royal(&token) {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    out += &empty.to_string();
                    empty = 0;
                }
                out += &token;
            }
            if empty > 0 {
                out += &empty.to_string();
            }
            rows.push(out);
        }
        Position::from_sfen(pos.variant(), &format!("{} {rest}", rows.join("/"))).unwrap()
    }

    /// The filter never turns away a move the tsume allows: over the positions of random games
    /// in both families, with the attacker's royals taken off and kept, every move it rejects
    /// is, once made, no check (attacker to move) and no escape (defender to move); and every
    /// attacker move it lets through is a check by [`MoveFilter::is_check`] exactly when it is
    /// one once made. Both kinds of rejection, and checks and non-checks let through, must occur, so
    /// the test sees the filter at work. The filter's own generation ([`MoveFilter::generate`])
    /// lists, in the generator's order, every move it lets through, and leaves out many others.
    #[test]
    fn the_move_filter_turns_away_only_moves_the_tsume_does_not_allow() {
        let mut rng = StdRng::seed_from_u64(41);
        let mut rejected = [0usize; 2];
        let mut never_listed = [0usize; 2];
        let mut checks_decided = [0usize; 2];
        for variant in [Variant::Chushogi, Variant::Heian] {
            for _ in 0..6 {
                for game_pos in random_playout(variant, 250, 0.3, &mut rng) {
                    let mover = game_pos.side_to_move();
                    for (attacker_to_move, keep_royals) in
                        [(true, false), (false, false), (true, true), (false, true)]
                    {
                        let (attacker, defender) = if attacker_to_move {
                            (mover, !mover)
                        } else {
                            (!mover, mover)
                        };
                        let mut pos = if keep_royals {
                            game_pos.clone()
                        } else {
                            without_royals(&game_pos, attacker)
                        };
                        let attacker_royal = pos.royals(attacker).any();
                        if pos.royals(defender).is_empty() {
                            continue;
                        }
                        let filter = MoveFilter::new(&pos, attacker_to_move, defender);
                        let mut moves = MoveList::new();
                        generate(&pos, &mut moves);
                        let mut listed = MoveList::new();
                        filter.generate(&pos, &mut listed);
                        let mut next = 0;
                        for &mv in &moves {
                            if listed.get(next) == Some(&mv) {
                                next += 1;
                            } else {
                                assert!(!filter.may_allow(&pos, mv), "{} {mv:?}", pos.to_sfen());
                                never_listed[usize::from(!attacker_to_move)] += 1;
                            }
                        }
                        assert_eq!(next, listed.len(), "{}", pos.to_sfen());
                        for mv in moves {
                            if filter.may_allow(&pos, mv) {
                                if attacker_to_move {
                                    let fast = filter.is_check(&pos, &pos.peek(mv), mv, defender);
                                    pos.play(mv);
                                    let made = is_check(&pos, defender);
                                    pos.undo();
                                    assert_eq!(fast, made, "{} {mv:?}", pos.to_sfen());
                                    checks_decided[usize::from(made)] += 1;
                                }
                                continue;
                            }
                            rejected[usize::from(!attacker_to_move)] += 1;
                            pos.play(mv);
                            let allowed = if attacker_to_move {
                                is_check(&pos, defender)
                            } else {
                                is_escape(&mut pos, defender, attacker_royal)
                            };
                            pos.undo();
                            assert!(!allowed, "{} {mv:?} was turned away", pos.to_sfen());
                        }
                    }
                }
            }
        }
        assert!(rejected.iter().all(|&n| n > 1000), "{rejected:?}");
        assert!(never_listed.iter().all(|&n| n > 1000), "{never_listed:?}");
        assert!(
            checks_decided.iter().all(|&n| n > 1000),
            "{checks_decided:?}"
        );
    }

    /// Gote's King in check from a Rook down its file, and a Drunk Elephant away from the file
    /// that promotes to a Crown Prince by stepping into the zone: a second royal is an escape,
    /// and the filter's generation lists it though it neither blocks nor takes the Rook.
    #[test]
    fn the_move_filter_lists_a_promotion_to_a_second_royal_as_an_escape() {
        let mut pos = Position::from_sfen(
            Variant::Chushogi,
            "6k5/12/12/12/12/12/12/9e2/12/12/12/6R4K w - 1",
        )
        .unwrap();
        let promotion =
            crate::notation::parse_move(&pos, "3h3i+", crate::notation::Notation::Usi).unwrap();
        let filter = MoveFilter::new(&pos, false, Color::Gote);
        assert!(matches!(filter, MoveFilter::Escapes { .. }));
        let mut listed = MoveList::new();
        filter.generate(&pos, &mut listed);
        assert!(listed.contains(&promotion), "{listed:?}");
        pos.play(promotion);
        assert!(is_escape(&mut pos, Color::Gote, true));
    }

    /// A Lion's igui that takes the pawn standing between a Rook and the King checks by
    /// discovery through the emptied middle square; the filter lets it through.
    #[test]
    fn the_move_filter_keeps_a_check_uncovered_by_a_double_capture() {
        let mut pos = Position::from_sfen(
            Variant::Chushogi,
            "6k5/12/12/12/12/6p5/5N6/12/12/12/12/6R5 b - 1",
        )
        .unwrap();
        let filter = MoveFilter::new(&pos, true, Color::Gote);
        let mut moves = MoveList::new();
        generate(&pos, &mut moves);
        let mut discovered = 0;
        for mv in moves {
            pos.play(mv);
            let check = is_check(&pos, Color::Gote);
            pos.undo();
            if check {
                assert!(filter.may_allow(&pos, mv), "{mv:?}");
                discovered += usize::from(mv.is_igui());
            }
        }
        assert_eq!(discovered, 1);
    }

    /// Gote's King (5a) and Crown Prince (4a) beside sente's Lion: the Lion takes both in one
    /// double move, so the position is no escape for gote; a Lion two squares off takes only
    /// one of them, which leaves gote a royal.
    #[test]
    fn two_royals_escape_unless_a_lion_takes_both() {
        let mut both = Position::from_sfen(
            Variant::Chushogi,
            "7k+e3/7N4/12/12/12/12/12/12/12/12/12/6K5 b - 1",
        )
        .unwrap();
        assert_eq!(both.royals(Color::Gote).count(), 2);
        assert!(last_royal_capture(&mut both, Color::Gote).is_some());
        assert!(!is_escape(&mut both, Color::Gote, true));
        let mut one = Position::from_sfen(
            Variant::Chushogi,
            "7k+e3/12/7N4/12/12/12/12/12/12/12/12/6K5 b - 1",
        )
        .unwrap();
        assert!(one.in_check(Color::Gote));
        assert!(last_royal_capture(&mut one, Color::Gote).is_none());
        assert!(is_escape(&mut one, Color::Gote, true));
    }
}
