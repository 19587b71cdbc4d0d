//! Evaluations from sente's view, their winning chances and the judgment of a move, with
//! lishogi's constants (its `Advice.scala` and `Eval.scala`): winning chances
//! `2 / (1 + exp(-0.0007 cp)) - 1` of a score capped at 5500 centipawns, a mate counted as the
//! cap, and a move judged by its mover's loss of winning chances: 0.1 an inaccuracy, 0.2 a
//! mistake, 0.3 a blunder; a mate let in or a mate let go judged by the score on the other side.

use crate::board::Color;
use crate::record::Glyph;

/// lishogi's slope of the winning-chances curve.
const SLOPE: f64 = 0.0007;
/// lishogi's cap on a centipawn score (`Cp.CEILING`); a mate counts as the cap.
pub(super) const CEILING: i32 = 5500;

/// An evaluation from sente's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Centipawns, positive when sente is better.
    Cp(i32),
    /// A forced mate in this many plies, positive when sente mates.
    Mate(i32),
    /// The game is over in this position: the winner, or `None` for a draw.
    Over(Option<Color>),
}

impl Eval {
    /// The evaluation from `color`'s view, in the same form.
    pub fn for_side(self, color: Color) -> Eval {
        match (self, color) {
            (e, Color::Sente) => e,
            (Eval::Cp(cp), Color::Gote) => Eval::Cp(-cp),
            (Eval::Mate(n), Color::Gote) => Eval::Mate(-n),
            (over, Color::Gote) => over,
        }
    }

    /// Centipawns within the cap, a mate or a won game at the cap (sente's view).
    pub fn capped_cp(self) -> i32 {
        match self {
            Eval::Cp(cp) => cp.clamp(-CEILING, CEILING),
            Eval::Mate(n) if n > 0 => CEILING,
            Eval::Mate(_) => -CEILING,
            Eval::Over(Some(Color::Sente)) => CEILING,
            Eval::Over(Some(Color::Gote)) => -CEILING,
            Eval::Over(None) => 0,
        }
    }

    /// The mate for `color`'s view: positive when `color` mates (or has won), negative when it
    /// is mated (or has lost), `None` without a mate.
    fn mate_for(self, color: Color) -> Option<i32> {
        match self {
            Eval::Mate(n) => Some(if color == Color::Sente { n } else { -n }),
            Eval::Over(Some(winner)) => Some(if winner == color { 1 } else { -1 }),
            _ => None,
        }
    }

    /// Centipawns for `color`'s view where there is no mate (a draw counts 0).
    fn cp_for(self, color: Color) -> Option<i32> {
        let cp = match self {
            Eval::Cp(cp) => cp,
            Eval::Over(None) => 0,
            _ => return None,
        };
        Some(if color == Color::Sente { cp } else { -cp })
    }
}

/// Winning chances in [-1, 1] of an evaluation, from sente's view.
pub fn winning_chances(eval: Eval) -> f64 {
    let cp = f64::from(eval.capped_cp());
    2.0 / (1.0 + (-SLOPE * cp).exp()) - 1.0
}

/// The judgment of a move by `mover` that took the game from `before` to `after`.
pub fn judgment(before: Eval, after: Eval, mover: Color) -> Option<Glyph> {
    let (prev_cp, next_cp) = (before.cp_for(mover), after.cp_for(mover));
    if prev_cp.is_some() && next_cp.is_some() {
        let sign = if mover == Color::Sente { 1.0 } else { -1.0 };
        let loss = sign * (winning_chances(before) - winning_chances(after));
        return [
            (0.3, Glyph::Blunder),
            (0.2, Glyph::Mistake),
            (0.1, Glyph::Inaccuracy),
        ]
        .into_iter()
        .find(|(threshold, _)| loss >= *threshold)
        .map(|(_, glyph)| glyph);
    }
    let (prev_mate, next_mate) = (before.mate_for(mover), after.mate_for(mover));
    let grade = |inaccuracy: bool, mistake: bool| {
        Some(if inaccuracy {
            Glyph::Inaccuracy
        } else if mistake {
            Glyph::Mistake
        } else {
            Glyph::Blunder
        })
    };
    match (prev_mate, next_mate) {
        // A mate let in: how bad it was depends on how bad the position already was.
        (None, Some(m)) if m < 0 => {
            let cp = prev_cp.unwrap_or(0);
            grade(cp < -4000, cp < -1000)
        }
        // A mate let go, for a score or for a mate against.
        (Some(m), None) if m > 0 => {
            let cp = next_cp.unwrap_or(0);
            grade(cp > 4000, cp > 1000)
        }
        (Some(m), Some(n)) if m > 0 && n < 0 => grade(false, false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_fall_where_lishogi_puts_them() {
        // From an even position, a drop to -287 cp is an inaccuracy, -580 a mistake, -885 a
        // blunder (lishogi's 0.1, 0.2, 0.3 on its curve).
        let even = Eval::Cp(0);
        assert_eq!(judgment(even, Eval::Cp(-280), Color::Sente), None);
        assert_eq!(
            judgment(even, Eval::Cp(-290), Color::Sente),
            Some(Glyph::Inaccuracy)
        );
        assert_eq!(
            judgment(even, Eval::Cp(-580), Color::Sente),
            Some(Glyph::Mistake)
        );
        assert_eq!(
            judgment(even, Eval::Cp(-885), Color::Sente),
            Some(Glyph::Blunder)
        );
        // Gote's loss is sente's gain.
        assert_eq!(
            judgment(even, Eval::Cp(885), Color::Gote),
            Some(Glyph::Blunder)
        );
        assert_eq!(judgment(even, Eval::Cp(885), Color::Sente), None);
    }

    #[test]
    fn mates_let_in_and_let_go() {
        assert_eq!(
            judgment(Eval::Cp(0), Eval::Mate(-5), Color::Sente),
            Some(Glyph::Blunder)
        );
        assert_eq!(
            judgment(Eval::Cp(-2000), Eval::Mate(-5), Color::Sente),
            Some(Glyph::Mistake)
        );
        assert_eq!(
            judgment(Eval::Mate(3), Eval::Cp(5000), Color::Sente),
            Some(Glyph::Inaccuracy)
        );
        assert_eq!(
            judgment(Eval::Mate(-3), Eval::Cp(-200), Color::Gote),
            Some(Glyph::Blunder)
        );
        assert_eq!(judgment(Eval::Mate(5), Eval::Mate(3), Color::Sente), None);
        assert_eq!(
            judgment(Eval::Mate(5), Eval::Over(Some(Color::Sente)), Color::Sente),
            None
        );
    }
}
