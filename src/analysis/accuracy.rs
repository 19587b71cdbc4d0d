//! Per side figures of an analysed game: lishogi's average centipawn loss (the mover's loss of
//! the capped score, a mate counted as the cap, summed and divided by the moves) and lichess's
//! accuracy (each move's accuracy from its drop in win percentage, the game's as the mean of a
//! volatility-weighted mean and a harmonic mean), the win percentage taken on lishogi's curve.

use super::chances::{winning_chances, Eval};
use crate::board::Color;
use crate::record::Glyph;

/// What one side's moves came to.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideSummary {
    /// Moves played.
    pub moves: usize,
    /// Average centipawn loss.
    pub acpl: i32,
    /// Accuracy, 0 to 100.
    pub accuracy: f64,
    /// Moves judged inaccuracies.
    pub inaccuracies: usize,
    /// Moves judged mistakes.
    pub mistakes: usize,
    /// Moves judged blunders.
    pub blunders: usize,
}

impl SideSummary {
    /// The line the annotated record and `shishi annotate` show for the side `name`: its
    /// judgments, loss and accuracy, or that it played no move (no accuracy to give).
    pub fn line(&self, name: &str) -> String {
        if self.moves == 0 {
            return format!("{name}: no move analysed");
        }
        format!(
            "{name}: {} inaccuracies, {} mistakes, {} blunders, average centipawn loss {}, accuracy {:.1}%",
            self.inaccuracies, self.mistakes, self.blunders, self.acpl, self.accuracy
        )
    }

    /// The accuracy, where the side played a move.
    pub fn accuracy(&self) -> Option<f64> {
        (self.moves > 0).then_some(self.accuracy)
    }
}

fn win_percent(eval: Eval) -> f64 {
    50.0 + 50.0 * winning_chances(eval)
}

/// lichess's accuracy of a move that took the mover's win percentage from `before` to `after`.
fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let raw = 103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * (before - after)).exp()
        - 3.166_924_740_191_411
        + 1.0;
    raw.clamp(0.0, 100.0)
}

fn std_dev(values: &[f64]) -> f64 {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n).sqrt()
}

/// The summary of `color`'s moves. `evals[k]` is the evaluation after `k` plies (sente's
/// view), `movers[i]` the side that played move `i + 1`, `glyphs[i]` its judgment.
pub fn side_summary(
    evals: &[Eval],
    movers: &[Color],
    glyphs: &[Option<Glyph>],
    color: Color,
) -> SideSummary {
    let mut summary = SideSummary::default();
    let mut loss_sum = 0i64;
    let percents: Vec<f64> = evals.iter().map(|&e| win_percent(e)).collect();
    let window = (movers.len() / 10).clamp(2, 8);
    let (mut weighted, mut weights, mut inverse) = (0.0, 0.0, 0.0);
    for (i, &mover) in movers.iter().enumerate() {
        if i + 1 >= evals.len() {
            break;
        }
        if mover != color {
            continue;
        }
        summary.moves += 1;
        let sign = if color == Color::Sente { -1 } else { 1 };
        let diff = evals[i + 1].capped_cp() - evals[i].capped_cp();
        loss_sum += i64::from((sign * diff).max(0));
        let (before, after) = if color == Color::Sente {
            (percents[i], percents[i + 1])
        } else {
            (100.0 - percents[i], 100.0 - percents[i + 1])
        };
        let accuracy = move_accuracy(before, after);
        let start = (i + 1).saturating_sub(window - 1);
        let end = (start + window).min(percents.len());
        let weight = std_dev(&percents[start..end]).clamp(0.5, 12.0);
        weighted += accuracy * weight;
        weights += weight;
        inverse += 1.0 / accuracy.max(1.0);
    }
    if summary.moves > 0 {
        summary.acpl = (loss_sum / summary.moves as i64) as i32;
        let harmonic = summary.moves as f64 / inverse;
        summary.accuracy = (weighted / weights + harmonic) / 2.0;
    }
    let own = |g: &Option<Glyph>, i: usize| movers.get(i) == Some(&color) && g.is_some();
    let count = |glyph: Glyph| {
        glyphs
            .iter()
            .enumerate()
            .filter(|(i, g)| own(g, *i) && **g == Some(glyph))
            .count()
    };
    summary.inaccuracies = count(Glyph::Inaccuracy);
    summary.mistakes = count(Glyph::Mistake);
    summary.blunders = count(Glyph::Blunder);
    summary
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_that_keeps_the_score_is_accurate_and_loses_nothing() {
        let evals = [Eval::Cp(0), Eval::Cp(0), Eval::Cp(0)];
        let movers = [Color::Sente, Color::Gote];
        let s = side_summary(&evals, &movers, &[None, None], Color::Sente);
        assert_eq!((s.moves, s.acpl), (1, 0));
        assert!((s.accuracy - 100.0).abs() < 1e-9);
    }

    #[test]
    fn losses_are_the_movers_and_capped() {
        // Sente drops 300, gote then drops 9000 (capped at the mate cap's distance).
        let evals = [Eval::Cp(0), Eval::Cp(-300), Eval::Cp(9000)];
        let movers = [Color::Sente, Color::Gote];
        let glyphs = [Some(Glyph::Inaccuracy), Some(Glyph::Blunder)];
        let sente = side_summary(&evals, &movers, &glyphs, Color::Sente);
        let gote = side_summary(&evals, &movers, &glyphs, Color::Gote);
        assert_eq!(
            (sente.acpl, sente.inaccuracies, sente.blunders),
            (300, 1, 0)
        );
        assert_eq!((gote.acpl, gote.blunders), (5800, 1));
        assert!(sente.accuracy < 100.0 && gote.accuracy < sente.accuracy);
    }

    #[test]
    fn a_side_without_a_move_has_no_accuracy() {
        let evals = [Eval::Cp(0), Eval::Cp(-300)];
        let movers = [Color::Sente];
        let sente = side_summary(&evals, &movers, &[None], Color::Sente);
        let gote = side_summary(&evals, &movers, &[None], Color::Gote);
        assert_eq!(gote.accuracy(), None);
        assert_eq!(gote.line("gote"), "gote: no move analysed");
        assert!(sente.accuracy().is_some());
        assert!(sente.line("sente").contains("accuracy"));
    }
}
