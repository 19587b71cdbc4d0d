//! Match statistics from the first engine's point of view.
//!
//! Games are played in pairs: one opening, colours swapped (`schedule`). The two games of a pair
//! are correlated (an unbalanced opening favours whoever has the good side, once each), so the
//! Elo interval and the SPRT are computed over *pairs*, as fishtest does: a pair scores 0, 0.5,
//! 1, 1.5 or 2 and the five counts form the pentanomial (`Pentanomial`). Treating the games as
//! independent (the trinomial W/L/D model) overstates the variance and makes tests run longer.
//!
//! The SPRT is the generalized SPRT of fishtest's `LLRcalc.LLR_normalized`: hypotheses in
//! *normalized* Elo (nElo: the score's distance from 50% in units of its per-game standard
//! deviation, scaled so that one nElo is about one logistic Elo at a 0% draw rate), and the
//! log-likelihood ratio computed from the maximum-likelihood pentanomial distributions under
//! each hypothesis (M. Van den Bergh, "Comments on Normalized Elo", section 4.1). Zero counts
//! are replaced by 1e-3 before the LLR, as fishtest does, so a one-sided start still moves it.
//! `Tally` keeps the plain per-game W/L/D for the progress lines and the table.

use std::fmt;

/// Per-game wins, losses and draws of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first engine won.
    pub wins: u32,
    /// Games the first engine lost.
    pub losses: u32,
    /// Drawn games.
    pub draws: u32,
}

/// Counts of finished pairs by the first engine's pair score in half points: `counts[k]` pairs
/// scored `k / 2` (0 = two losses, 2 = a win and a loss or two draws, 4 = two wins).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// `counts[k]`: pairs that scored `k / 2` points.
    pub counts: [u32; 5],
}

/// SPRT hypotheses (normalized Elo) and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// H0: the first engine's advantage, in normalized Elo.
    pub elo0: f64,
    /// H1: the first engine's advantage, in normalized Elo; above `elo0`.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds (false positive).
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds (false negative).
    pub beta: f64,
}

/// The hypothesis an SPRT accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// H1 accepted: the first engine is at least `elo1` stronger.
    H1,
    /// H0 accepted: it is at most `elo0` stronger.
    H0,
}

/// Two-sided 95% quantile of the normal distribution.
const Z95: f64 = 1.959964;

/// Normalized Elo per unit of t = (score - 0.5) / sigma: 800 / ln 10.
const NELO_PER_T: f64 = 347.435_585_522_601_5;

/// A pair's score on the per-game scale (0, 0.25, ..., 1) for each pentanomial cell.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

fn elo_of_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Logistic Elo of `mean` and the half width of its 95% interval for `n` samples of variance
/// `var`; infinite where an end of the interval is (see `elo_bounds`).
fn elo_interval(mean: f64, var: f64, n: f64) -> (f64, f64) {
    let elo = elo_of_score(mean.clamp(1e-9, 1.0 - 1e-9));
    let (lo, hi) = elo_bounds(mean, var, n);
    let half = if lo.is_finite() && hi.is_finite() {
        (hi - lo) / 2.0
    } else {
        f64::INFINITY
    };
    (elo, half)
}

/// The two ends of the 95% interval of the logistic Elo of `mean` for `n` samples of variance
/// `var`: an end is infinite where the score's interval reaches 0% or 100% (a near-perfect
/// score has a finite lower end and no upper one), both when the samples show no spread at all
/// (one pair, or identical pairs), which says nothing about the interval.
fn elo_bounds(mean: f64, var: f64, n: f64) -> (f64, f64) {
    if var <= 0.0 || n <= 0.0 {
        return (f64::NEG_INFINITY, f64::INFINITY);
    }
    let margin = Z95 * (var / n).sqrt();
    let end = |s: f64| {
        if s <= 0.0 {
            f64::NEG_INFINITY
        } else if s >= 1.0 {
            f64::INFINITY
        } else {
            elo_of_score(s)
        }
    };
    (end(mean - margin), end(mean + margin))
}

fn mean_and_variance(values: &[f64; 5], probs: &[f64; 5]) -> (f64, f64) {
    let mean: f64 = values.iter().zip(probs).map(|(a, p)| a * p).sum();
    let var = values
        .iter()
        .zip(probs)
        .map(|(a, p)| p * (a - mean).powi(2))
        .sum();
    (mean, var)
}

/// The root of a strictly decreasing function on the open interval (lo, hi), by bisection.
fn decreasing_root(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The distribution on `PAIR_SCORES` closest (maximum likelihood) to the observed `observed`
/// among those whose t = (mean - 1/2) / sigma equals `t`. Van den Bergh's fixed point: with
/// phi_i = a_i - 1/2 - t sigma (1 + z_i^2) / 2 from the current guess, the next guess is
/// observed_i / (1 + theta phi_i) with theta the root of sum observed_i phi_i / (1 + theta phi_i).
fn mle_with_t(observed: &[f64; 5], t: f64) -> [f64; 5] {
    let mut p = [0.2; 5];
    for _ in 0..100 {
        let (mu, var) = mean_and_variance(&PAIR_SCORES, &p);
        let sigma = var.sqrt();
        let phi = PAIR_SCORES.map(|a| {
            let z = (a - mu) / sigma;
            a - 0.5 - 0.5 * t * sigma * (1.0 + z * z)
        });
        let low = phi.iter().copied().fold(f64::INFINITY, f64::min);
        let high = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if low >= 0.0 || high <= 0.0 {
            break;
        }
        let theta = decreasing_root(
            |x| {
                observed
                    .iter()
                    .zip(&phi)
                    .map(|(o, f)| o * f / (1.0 + x * f))
                    .sum()
            },
            -1.0 / high,
            -1.0 / low,
        );
        let mut change: f64 = 0.0;
        for i in 0..5 {
            let next = observed[i] / (1.0 + theta * phi[i]);
            change = change.max((next - p[i]).abs());
            p[i] = next;
        }
        if change < 1e-10 {
            break;
        }
    }
    p
}

impl Tally {
    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// The first engine's score per game, 0 to 1 (draws count half); 0.5 with no games.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + self.draws as f64 / 2.0) / n as f64
    }

    /// Adds one game's result: 1, 0.5 or 0 for the first engine.
    pub fn add(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }
}

impl Pentanomial {
    /// Pairs counted.
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// Adds a finished pair by its score for the first engine (0, 0.5, 1, 1.5 or 2).
    pub fn add(&mut self, pair_score: f64) {
        let cell = (pair_score * 2.0).round().clamp(0.0, 4.0) as usize;
        self.counts[cell] += 1;
    }

    /// Mean score per game and the variance of a pair's mean score (both on the 0..1 scale).
    pub fn mean_and_variance(&self) -> Option<(f64, f64)> {
        let n = self.pairs();
        if n == 0 {
            return None;
        }
        let probs = self.counts.map(|c| c as f64 / n as f64);
        Some(mean_and_variance(&PAIR_SCORES, &probs))
    }

    /// Logistic Elo of the mean score and the half width of its 95% interval, from the
    /// variance of pair scores; infinite with no pairs or a 0% or 100% score.
    pub fn elo(&self) -> (f64, f64) {
        match self.mean_and_variance() {
            Some((mean, var)) => elo_interval(mean, var, self.pairs() as f64),
            None => (0.0, f64::INFINITY),
        }
    }

    /// The ends of the 95% interval of `elo`, each infinite where it reaches a 0% or 100% score.
    pub fn elo_bounds(&self) -> (f64, f64) {
        match self.mean_and_variance() {
            Some((mean, var)) => elo_bounds(mean, var, self.pairs() as f64),
            None => (f64::NEG_INFINITY, f64::INFINITY),
        }
    }

    /// fishtest's `LLR_normalized` over pairs: total * E_observed[ln p1 - ln p0], with p0 and
    /// p1 the maximum-likelihood distributions whose t is elo0 and elo1 (times sqrt 2: a pair's
    /// standard deviation is that of one game over sqrt 2 when the games are independent).
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        if self.pairs() == 0 {
            return 0.0;
        }
        let regular = self.counts.map(|c| if c == 0 { 1e-3 } else { c as f64 });
        let total: f64 = regular.iter().sum();
        let observed = regular.map(|c| c / total);
        let t_of = |nelo: f64| std::f64::consts::SQRT_2 * nelo / NELO_PER_T;
        let p0 = mle_with_t(&observed, t_of(sprt.elo0));
        let p1 = mle_with_t(&observed, t_of(sprt.elo1));
        total
            * (0..5)
                .map(|i| observed[i] * (p1[i].ln() - p0[i].ln()))
                .sum::<f64>()
    }
}

/// Why `Sprt::parse` refused a `--sprt` value.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SprtError {
    /// A part without `=`.
    #[error("SPRT parameter '{0}' is not key=value")]
    NotKeyValue(String),
    /// A key other than `elo0`, `elo1`, `alpha`, `beta`.
    #[error("unknown SPRT parameter '{0}' (elo0, elo1, alpha, beta)")]
    UnknownKey(String),
    /// A value that is not a number.
    #[error("SPRT parameter {key} is not a number: '{value}'")]
    NotANumber {
        /// The parameter's name.
        key: &'static str,
        /// The text given.
        value: String,
    },
    /// `alpha` or `beta` outside the open interval (0, 0.5).
    #[error("SPRT {key} must be between 0 and 0.5, not {value}")]
    ErrorRate {
        /// `alpha` or `beta`.
        key: &'static str,
        /// The value given.
        value: f64,
    },
    /// `elo1` not above `elo0`, or either of them not finite.
    #[error("SPRT needs elo1 > elo0, not elo0={elo0} elo1={elo1}")]
    Hypotheses {
        /// H0's normalized Elo as given.
        elo0: f64,
        /// H1's normalized Elo as given.
        elo1: f64,
    },
}

impl Sprt {
    /// Reads `elo0=0,elo1=5,alpha=0.05,beta=0.05` (any subset; these are the defaults).
    pub fn parse(text: &str) -> Result<Sprt, SprtError> {
        let mut s = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| SprtError::NotKeyValue(part.to_string()))?;
            let (key, field) = match key.trim() {
                "elo0" => ("elo0", &mut s.elo0),
                "elo1" => ("elo1", &mut s.elo1),
                "alpha" => ("alpha", &mut s.alpha),
                "beta" => ("beta", &mut s.beta),
                k => return Err(SprtError::UnknownKey(k.to_string())),
            };
            *field = value.trim().parse().map_err(|_| SprtError::NotANumber {
                key,
                value: value.trim().to_string(),
            })?;
        }
        for (key, value) in [("alpha", s.alpha), ("beta", s.beta)] {
            if !(value > 0.0 && value < 0.5) {
                return Err(SprtError::ErrorRate { key, value });
            }
        }
        if s.elo1 <= s.elo0 || s.elo1.is_nan() || !s.elo0.is_finite() || !s.elo1.is_finite() {
            return Err(SprtError::Hypotheses {
                elo0: s.elo0,
                elo1: s.elo1,
            });
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

    /// The decision once the LLR of `pairs` has left [`Sprt::bounds`]; `None` while the test goes on.
    pub fn decision(&self, pairs: &Pentanomial) -> Option<SprtDecision> {
        let llr = pairs.llr(self);
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

/// The words for an SPRT's state: `H1 accepted`, `H0 accepted` or `no decision`.
pub fn decision_words(d: Option<SprtDecision>) -> &'static str {
    match d {
        Some(SprtDecision::H1) => "H1 accepted",
        Some(SprtDecision::H0) => "H0 accepted",
        None => "no decision",
    }
}

/// The match summary's Elo line for `pairs`, `first` against `second`, with its newline.
pub fn elo_line(first: &str, second: &str, pairs: &Pentanomial) -> String {
    if pairs.pairs() == 0 {
        return "Elo: no finished pair of games\n".to_string();
    }
    let (elo, half) = pairs.elo();
    let (lo, hi) = pairs.elo_bounds();
    let c = pairs.counts;
    format!(
        "Elo of {first} vs {second}: {elo:+.1} +/- {half:.1} (95%: {lo:+.1} to {hi:+.1}, {} pairs, pentanomial [{} {} {} {} {}])\n",
        pairs.pairs(),
        c[0],
        c[1],
        c[2],
        c[3],
        c[4]
    )
}

/// The match summary's SPRT line for `pairs`, with its newline.
pub fn sprt_line(sprt: &Sprt, pairs: &Pentanomial) -> String {
    let (lo, hi) = sprt.bounds();
    format!(
        "SPRT elo0={} elo1={} (normalized) alpha={} beta={}: LLR {:.2} [{lo:.2}, {hi:.2}] {}\n",
        sprt.elo0,
        sprt.elo1,
        sprt.alpha,
        sprt.beta,
        pairs.llr(sprt),
        decision_words(sprt.decision(pairs))
    )
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} games, +{} -{} ={}, score {:.1}%",
            self.games(),
            self.wins,
            self.losses,
            self.draws,
            100.0 * self.score()
        )
    }
}

impl fmt::Display for Pentanomial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (elo, half) = self.elo();
        let c = self.counts;
        write!(
            f,
            "{} pairs [{} {} {} {} {}], Elo {:+.1} +/- {:.1}",
            self.pairs(),
            c[0],
            c[1],
            c[2],
            c[3],
            c[4],
            elo,
            half
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprt(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn pair_scores_land_in_their_cells() {
        let mut p = Pentanomial::default();
        for s in [0.0, 0.5, 1.0, 1.0, 1.5, 2.0] {
            p.add(s);
        }
        assert_eq!(p.counts, [1, 1, 2, 1, 1]);
        assert_eq!(p.pairs(), 6);
    }

    /// By hand: one pair scored 1 (0.5 per game), one scored 1.5 (0.75 per game). Mean 0.625,
    /// variance ((0.125)^2 + (0.125)^2) / 2 = 0.015625, standard error 0.125 / sqrt 2. Elo of
    /// 0.625 is -400 log10(0.6) = 88.74; the 95% bounds 0.625 -+ 1.96 * 0.08839 = 0.4518 and
    /// 0.7982 give -33.62 and 238.92 Elo, half width 136.27.
    #[test]
    fn elo_and_interval_from_pair_variance_by_hand() {
        let p = Pentanomial {
            counts: [0, 0, 1, 1, 0],
        };
        let (mean, var) = p.mean_and_variance().unwrap();
        assert!(close(mean, 0.625, 1e-12) && close(var, 0.015625, 1e-12));
        let (elo, half) = p.elo();
        assert!(close(elo, 88.7395, 1e-3), "{elo}");
        assert!(close(half, 136.270, 1e-2), "{half}");
        let one = Pentanomial {
            counts: [0, 1, 0, 0, 0],
        };
        assert!(one.elo().1.is_infinite());
    }

    /// By hand: 47 pairs won twice, 2 split, 1 lost twice. Mean 48/50 = 0.96, variance
    /// (2 * 0.25 + 47) / 50 - 0.96^2 = 0.0284, 95% margin 1.959964 * sqrt(0.0284 / 50) = 0.046711.
    /// The lower end 0.913289 is -400 log10(1 / 0.913289 - 1) = +409.01 Elo; the upper end
    /// 1.0067 is past 100%, so the interval has no upper end and no half width.
    #[test]
    fn near_perfect_score_has_a_lower_end_only() {
        let p = Pentanomial {
            counts: [1, 0, 2, 0, 47],
        };
        let (elo, half) = p.elo();
        assert!(close(elo, 552.08, 1e-2), "{elo}");
        assert!(half.is_infinite());
        let (lo, hi) = p.elo_bounds();
        assert!(close(lo, 409.01, 1e-2), "{lo}");
        assert_eq!(hi, f64::INFINITY);
        let (lo, hi) = Pentanomial {
            counts: [0, 0, 1, 1, 0],
        }
        .elo_bounds();
        assert!(
            close(lo, -33.62, 1e-2) && close(hi, 238.92, 1e-2),
            "{lo} {hi}"
        );
    }

    #[test]
    fn even_pairs_are_zero_elo_and_zero_llr_midway() {
        let p = Pentanomial {
            counts: [10, 20, 40, 20, 10],
        };
        assert!(p.elo().0.abs() < 1e-9);
        // Symmetric data, hypotheses symmetric around 0: the LLR is 0.
        assert!(p.llr(&sprt(-5.0, 5.0)).abs() < 1e-6);
        assert_eq!(Pentanomial::default().llr(&sprt(0.0, 5.0)), 0.0);
    }

    /// Reference values of fishtest's normalized pentanomial LLR, as its runs page shows them
    /// (and as fastchess checks them in its `sprt_test.cpp`), to two decimals.
    #[test]
    fn normalized_pentanomial_llr_matches_fishtest() {
        // counts LL, LD, WL+DD, WD, WW
        let a = Pentanomial {
            counts: [365, 16618, 36029 + 200, 16974, 390],
        };
        assert!(
            close(a.llr(&sprt(0.0, 2.0)), 2.25, 0.01),
            "{}",
            a.llr(&sprt(0.0, 2.0))
        );
        let b = Pentanomial {
            counts: [127, 4883, 10311 + 401, 5150, 104],
        };
        let llr = b.llr(&sprt(-1.75, 0.25));
        assert!(close(llr, 3.01, 0.01), "{llr}");
        // All wins: no variance to estimate from, so the regularized empty cells decide; the
        // LLR grows with every further 2-0 pair.
        let wins = |n| Pentanomial {
            counts: [0, 0, 0, 0, n],
        };
        let (few, many) = (
            wins(50).llr(&sprt(0.0, 5.0)),
            wins(100).llr(&sprt(0.0, 5.0)),
        );
        assert!(0.0 < few && few < many, "{few} {many}");
    }

    #[test]
    fn sprt_bounds_and_decisions() {
        let s = Sprt::parse("elo0=0,elo1=5").unwrap();
        let (lo, hi) = s.bounds();
        assert!(close(lo, -2.944, 0.001) && close(hi, 2.944, 0.001));
        let strong = Pentanomial {
            counts: [10, 100, 300, 200, 40],
        };
        assert_eq!(s.decision(&strong), Some(SprtDecision::H1));
        let weak = Pentanomial {
            counts: [40, 200, 300, 100, 10],
        };
        assert_eq!(s.decision(&weak), Some(SprtDecision::H0));
        let few = Pentanomial {
            counts: [0, 1, 1, 1, 0],
        };
        assert_eq!(s.decision(&few), None);
    }

    #[test]
    fn sprt_errors_name_the_bad_parameter() {
        let cases: [(&str, SprtError, &str); 5] = [
            (
                "elo0=0,elo1",
                SprtError::NotKeyValue("elo1".into()),
                "'elo1' is not key=value",
            ),
            ("gamma=1", SprtError::UnknownKey("gamma".into()), "'gamma'"),
            (
                "elo1=five",
                SprtError::NotANumber {
                    key: "elo1",
                    value: "five".into(),
                },
                "elo1 is not a number: 'five'",
            ),
            (
                "beta=0.7",
                SprtError::ErrorRate {
                    key: "beta",
                    value: 0.7,
                },
                "beta must be between 0 and 0.5, not 0.7",
            ),
            (
                "elo0=5,elo1=1",
                SprtError::Hypotheses {
                    elo0: 5.0,
                    elo1: 1.0,
                },
                "elo1 > elo0, not elo0=5 elo1=1",
            ),
        ];
        for (text, error, words) in cases {
            let got = Sprt::parse(text).unwrap_err();
            assert_eq!(got, error, "{text}");
            assert!(got.to_string().contains(words), "{text}: {got}");
        }
    }

    #[test]
    fn tally_counts_games() {
        let mut t = Tally::default();
        for s in [1.0, 0.5, 0.0, 1.0] {
            t.add(s);
        }
        assert_eq!((t.wins, t.losses, t.draws), (2, 1, 1));
        assert!(close(t.score(), 0.625, 1e-12));
    }
}
