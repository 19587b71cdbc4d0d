//! Mate threats, asked of the mate solver (checks only, a small node budget) where the clock
//! is short: at the root, whether the opponent would mate were it to move now (the move then
//! gets more time), and after each iteration, whether the best move lets the opponent mate (the
//! move is then refuted and the iteration searched again without it). Short searches at a
//! small fraction of HaChu's clock lost games this way, playing into short mates by checks that
//! the solver proves in few nodes (docs/strength.md has the games).

use super::params::SearchParams;
use crate::moves::Move;
use crate::position::Position;
use crate::tsume;

/// Whether the opponent of the side to move in `pos`, were it to move now, has a mate by checks
/// that the solver proves within the params' plies and nodes for the family. Not asked while the
/// side to move has a royal attacked: passing would only hand over a royal, and the search
/// extends checks.
pub(super) fn opponent_threatens_mate(pos: &Position, params: &SearchParams) -> bool {
    if pos.in_check(pos.side_to_move()) {
        return false;
    }
    let mut passed = pos.clone();
    passed.play(Move::PASS);
    mates(&passed, params)
}

/// Whether after `mv` (legal in `pos`) the opponent has a mate by checks that the solver proves
/// within the params' plies and nodes for the family.
pub(super) fn lets_opponent_mate(pos: &mut Position, mv: Move, params: &SearchParams) -> bool {
    pos.play(mv);
    let mated = mates(pos, params);
    pos.undo();
    mated
}

fn mates(pos: &Position, params: &SearchParams) -> bool {
    let plies = params.threat_plies(pos.family()) as usize;
    plies > 0 && tsume::mate_within(pos, plies, params.threat_nodes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Variant;
    use crate::notation::{parse_move, Notation};
    use crate::rules::Preset;

    /// Game 13 of results/hachu-thirtieth-oh10-fd8476b, ply 246, shishi (sente) to move.
    const GAME_13_PLY_246: &str =
        "l3gekg4/a1+st3t4/4d7/5m5m/1+D1p1p1+H4/p2i8/11G/P7i2P/6n5/X11/F4TT1SF1A/L4K1D1C1L b - 253";

    fn params(plies: u32) -> SearchParams {
        SearchParams {
            threat_plies_chu: plies,
            threat_nodes: 1000,
            ..SearchParams::default()
        }
    }

    fn position() -> Position {
        Position::from_sfen(Variant::Chushogi, GAME_13_PLY_246)
            .unwrap()
            .with_rules(Preset::Hachu.rules())
    }

    #[test]
    fn a_threat_is_a_mate_the_opponent_would_have_if_we_passed() {
        // Were shishi to pass, HaChu would mate in 5 plies (`shishi mate` proves it shortest).
        let pos = position();
        assert!(opponent_threatens_mate(&pos, &params(7)));
        assert!(!opponent_threatens_mate(&pos, &params(3)));
        assert!(
            !opponent_threatens_mate(&pos, &params(0)),
            "0 plies: not asked"
        );
        let start = Position::startpos(Variant::Chushogi);
        assert!(!opponent_threatens_mate(&start, &params(7)));
    }

    #[test]
    fn the_move_played_in_the_game_lets_the_opponent_mate_and_another_does_not() {
        // shishi played 5e6f and was mated in 5 plies; a 1.5 s search plays 5e2e.
        let mut pos = position();
        let before = pos.clone();
        let played = parse_move(&pos, "5e6f", Notation::Usi).unwrap();
        let longer = parse_move(&pos, "5e2e", Notation::Usi).unwrap();
        assert!(lets_opponent_mate(&mut pos, played, &params(7)));
        assert!(!lets_opponent_mate(&mut pos, longer, &params(7)));
        assert!(
            pos == before && pos.key() == before.key(),
            "the position is restored"
        );
    }
}
