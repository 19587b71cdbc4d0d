//! Match statistics from the first engine's point of view: the score, the Elo difference with a
//! 95% interval (normal approximation over per-game scores), and the sequential probability
//! ratio test between two Elo hypotheses, using the generalized SPRT's normal approximation of
//! the log-likelihood ratio (as fishtest and cutechess do with the logistic Elo model).

use std::fmt;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

/// SPRT hypotheses (Elo) and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// H1 accepted: the first engine is at least `elo1` stronger.
    H1,
    /// H0 accepted: it is at most `elo0` stronger.
    H0,
}

fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

fn elo_of_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Mean score per game and its per-game variance.
    fn mean_and_variance(&self) -> Option<(f64, f64)> {
        let n = self.games() as f64;
        if n == 0.0 {
            return None;
        }
        let (w, l, d) = (
            self.wins as f64 / n,
            self.losses as f64 / n,
            self.draws as f64 / n,
        );
        let mean = w + d / 2.0;
        let var = w * (1.0 - mean).powi(2) + l * mean.powi(2) + d * (0.5 - mean).powi(2);
        Some((mean, var))
    }

    pub fn score(&self) -> f64 {
        self.mean_and_variance().map_or(0.5, |(m, _)| m)
    }

    /// Elo difference and the half width of its 95% interval; infinite when one side scored
    /// everything.
    pub fn elo(&self) -> (f64, f64) {
        let Some((mean, var)) = self.mean_and_variance() else {
            return (0.0, f64::INFINITY);
        };
        let n = self.games() as f64;
        let margin = 1.959964 * (var / n).sqrt();
        let clamp = |s: f64| s.clamp(1e-9, 1.0 - 1e-9);
        let elo = elo_of_score(clamp(mean));
        let low = elo_of_score(clamp(mean - margin));
        let high = elo_of_score(clamp(mean + margin));
        let half = if mean <= 0.0 || mean >= 1.0 {
            f64::INFINITY
        } else {
            (high - low) / 2.0
        };
        (elo, half)
    }

    /// The log-likelihood ratio of H1 against H0 (0 until both kinds of result have occurred).
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        let Some((mean, var)) = self.mean_and_variance() else {
            return 0.0;
        };
        if var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of_elo(sprt.elo0), score_of_elo(sprt.elo1));
        self.games() as f64 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }
}

impl Sprt {
    /// Reads `elo0=0,elo1=10,alpha=0.05,beta=0.05` (any subset; these are the defaults).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let mut s = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("SPRT parameter '{part}' is not key=value"))?;
            let v: f64 = value
                .trim()
                .parse()
                .map_err(|_| format!("SPRT parameter {key} is not a number: '{value}'"))?;
            match key.trim() {
                "elo0" => s.elo0 = v,
                "elo1" => s.elo1 = v,
                "alpha" => s.alpha = v,
                "beta" => s.beta = v,
                k => {
                    return Err(format!(
                        "unknown SPRT parameter '{k}' (elo0, elo1, alpha, beta)"
                    ))
                }
            }
        }
        if !(s.alpha > 0.0 && s.alpha < 0.5 && s.beta > 0.0 && s.beta < 0.5) {
            return Err("SPRT alpha and beta must be between 0 and 0.5".to_string());
        }
        if s.elo1 <= s.elo0 || s.elo1.is_nan() || !s.elo0.is_finite() || !s.elo1.is_finite() {
            return Err("SPRT needs elo1 > elo0".to_string());
        }
        Ok(s)
    }

    /// (lower, upper) bounds of the LLR.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    pub fn decision(&self, tally: &Tally) -> Option<SprtDecision> {
        let llr = tally.llr(self);
        let (low, high) = self.bounds();
        if llr >= high {
            Some(SprtDecision::H1)
        } else if llr <= low {
            Some(SprtDecision::H0)
        } else {
            None
        }
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (elo, half) = self.elo();
        write!(
            f,
            "{} games, +{} -{} ={}, score {:.1}%, Elo {:+.1} +/- {:.1}",
            self.games(),
            self.wins,
            self.losses,
            self.draws,
            100.0 * self.score(),
            elo,
            half
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_score_is_zero_elo() {
        let t = Tally {
            wins: 10,
            losses: 10,
            draws: 5,
        };
        assert!(t.elo().0.abs() < 1e-9);
        assert!(t.elo().1 > 0.0 && t.elo().1.is_finite());
    }

    #[test]
    fn three_quarters_is_about_191_elo() {
        let t = Tally {
            wins: 150,
            losses: 50,
            draws: 0,
        };
        assert!((t.elo().0 - 190.85).abs() < 0.1);
    }

    #[test]
    fn sprt_decides_for_a_clearly_stronger_engine() {
        let s = Sprt::parse("elo0=0,elo1=10").unwrap();
        assert_eq!(
            s.decision(&Tally {
                wins: 3000,
                losses: 1000,
                draws: 0
            }),
            Some(SprtDecision::H1)
        );
        assert_eq!(
            s.decision(&Tally {
                wins: 1000,
                losses: 3000,
                draws: 0
            }),
            Some(SprtDecision::H0)
        );
        assert_eq!(
            s.decision(&Tally {
                wins: 3,
                losses: 2,
                draws: 0
            }),
            None
        );
        let (lo, hi) = s.bounds();
        assert!((lo + 2.944).abs() < 0.01 && (hi - 2.944).abs() < 0.01);
        assert!(Sprt::parse("elo0=5,elo1=1").is_err());
        assert!(Sprt::parse("gamma=1").is_err());
    }
}
