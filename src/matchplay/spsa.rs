//! SPSA (simultaneous perturbation stochastic approximation) over engine options, the way
//! fishtest tunes Stockfish: every iteration moves all parameters at once by `±c_k` (a random
//! sign each), plays a game pair between the two perturbed engines, and steps each parameter
//! towards the side that scored, by `a_k / c_k` times the pair's result. Spall's gains
//! `c_k = c / k^gamma` and `a_k = a / (A + k)^alpha` with fishtest's constants (alpha 0.602,
//! gamma 0.101, A a tenth of the iterations); `c` and `a` come from each parameter's final
//! perturbation `c_end` and final learning rate `r_end` (`a_k / c_k^2` at the last iteration).
//!
//! The signs of iteration `k` come from the seed and `k` alone, so a run stopped after
//! iteration `k` resumes from its values there (see `cli::spsa`).

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// One tuned parameter: an engine option with an integer value.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaParam {
    /// The option's name (e.g. `Tune_LmrBase`).
    pub name: String,
    /// Its value at the start.
    pub start: f64,
    /// The smallest value tried.
    pub min: f64,
    /// The largest value tried.
    pub max: f64,
    /// The perturbation at the last iteration.
    pub c_end: f64,
    /// The learning rate `a_k / c_k^2` at the last iteration.
    pub r_end: f64,
}

impl SpsaParam {
    /// Reads `NAME=START,MIN,MAX,C_END,R_END` (fishtest's order).
    pub fn parse(text: &str) -> Result<SpsaParam, String> {
        let (name, numbers) = text
            .split_once('=')
            .ok_or_else(|| format!("'{text}' is not NAME=START,MIN,MAX,C_END,R_END"))?;
        let values: Vec<f64> = numbers
            .split(',')
            .map(|v| {
                v.trim()
                    .parse::<f64>()
                    .map_err(|_| format!("'{v}' is not a number"))
            })
            .collect::<Result<_, _>>()?;
        let [start, min, max, c_end, r_end] = values[..] else {
            return Err(format!(
                "'{text}': {} numbers, START,MIN,MAX,C_END,R_END are 5",
                values.len()
            ));
        };
        let param = SpsaParam {
            name: name.trim().to_string(),
            start,
            min,
            max,
            c_end,
            r_end,
        };
        param.check().map(|()| param)
    }

    fn check(&self) -> Result<(), String> {
        if self.name.is_empty() {
            return Err("a parameter without a name".into());
        }
        if !(self.min <= self.start && self.start <= self.max) {
            return Err(format!(
                "{}: START {} outside MIN {} .. MAX {}",
                self.name, self.start, self.min, self.max
            ));
        }
        if !(self.c_end > 0.0 && self.r_end > 0.0) {
            return Err(format!("{}: C_END and R_END must be positive", self.name));
        }
        Ok(())
    }
}

/// The gain sequences' constants (fishtest's defaults).
const ALPHA: f64 = 0.602;
const GAMMA: f64 = 0.101;
const A_SHARE: f64 = 0.1;

/// An SPSA run: the parameters, their current values and the iterations done.
#[derive(Clone, Debug)]
pub struct Spsa {
    params: Vec<SpsaParam>,
    theta: Vec<f64>,
    iterations: usize,
    done: usize,
    seed: u64,
}

/// What iteration `k` plays: the values of the engine pushed up (`plus`) and the one pushed
/// down (`minus`), rounded to whole numbers, and the signs.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaStep {
    /// The iteration, from 1.
    pub k: usize,
    /// Each parameter's sign, +1 or -1.
    pub signs: Vec<f64>,
    /// Option values of the first engine.
    pub plus: Vec<i64>,
    /// Option values of the second engine.
    pub minus: Vec<i64>,
}

impl Spsa {
    /// A run of `iterations` from the parameters' start values.
    pub fn new(params: Vec<SpsaParam>, iterations: usize, seed: u64) -> Spsa {
        let theta = params.iter().map(|p| p.start).collect();
        Spsa {
            params,
            theta,
            iterations: iterations.max(1),
            done: 0,
            seed,
        }
    }

    /// The same run continued after `done` iterations, at `theta`.
    pub fn resume(mut self, done: usize, theta: Vec<f64>) -> Spsa {
        assert_eq!(theta.len(), self.params.len());
        self.done = done;
        self.theta = theta;
        self
    }

    /// The parameters.
    pub fn params(&self) -> &[SpsaParam] {
        &self.params
    }

    /// The current values.
    pub fn theta(&self) -> &[f64] {
        &self.theta
    }

    /// Iterations done.
    pub fn done(&self) -> usize {
        self.done
    }

    /// Whether every iteration is done.
    pub fn finished(&self) -> bool {
        self.done >= self.iterations
    }

    fn c_k(&self, p: &SpsaParam, k: usize) -> f64 {
        p.c_end * (self.iterations as f64 / k as f64).powf(GAMMA)
    }

    fn a_k(&self, p: &SpsaParam, k: usize) -> f64 {
        let big_a = A_SHARE * self.iterations as f64;
        let a = p.r_end * p.c_end * p.c_end * (big_a + self.iterations as f64).powf(ALPHA);
        a / (big_a + k as f64).powf(ALPHA)
    }

    /// The next iteration's engines.
    pub fn step(&self) -> SpsaStep {
        let k = self.done + 1;
        let mut rng =
            StdRng::seed_from_u64(self.seed ^ (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let signs: Vec<f64> = self
            .params
            .iter()
            .map(|_| if rng.gen::<bool>() { 1.0 } else { -1.0 })
            .collect();
        let value = |i: usize, sign: f64| -> i64 {
            let p = &self.params[i];
            (self.theta[i] + sign * self.c_k(p, k))
                .clamp(p.min, p.max)
                .round() as i64
        };
        SpsaStep {
            k,
            plus: (0..self.params.len()).map(|i| value(i, signs[i])).collect(),
            minus: (0..self.params.len())
                .map(|i| value(i, -signs[i]))
                .collect(),
            signs,
        }
    }

    /// Takes the result of `step`: the plus engine's points less the minus engine's over its
    /// games (a pair: -2 to +2).
    pub fn update(&mut self, step: &SpsaStep, result: f64) {
        for (i, p) in self.params.iter().enumerate() {
            let c = self.c_k(p, step.k);
            let r = self.a_k(p, step.k) / (c * c);
            self.theta[i] = (self.theta[i] + r * c * result * step.signs[i]).clamp(p.min, p.max);
        }
        self.done = step.k;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(name: &str, start: f64) -> SpsaParam {
        SpsaParam::parse(&format!("{name}={start},0,200,10,0.002")).unwrap()
    }

    #[test]
    fn parameters_are_read_and_bad_ones_refused() {
        let p = SpsaParam::parse("Tune_LmrBase=75,0,200,8,0.002").unwrap();
        assert_eq!(
            (p.start, p.min, p.max, p.c_end, p.r_end),
            (75.0, 0.0, 200.0, 8.0, 0.002)
        );
        assert!(SpsaParam::parse("Tune_LmrBase=75,0,200,8").is_err());
        assert!(SpsaParam::parse("Tune_LmrBase=250,0,200,8,0.002").is_err());
        assert!(SpsaParam::parse("Tune_LmrBase=75,0,200,0,0.002").is_err());
        assert!(SpsaParam::parse("75,0,200,8,0.002").is_err());
        assert!(SpsaParam::parse("X=a,0,200,8,0.002").is_err());
    }

    /// Pair results drawn from a noisy game whose chance of winning peaks at 120 and 40:
    /// the run ends nearer both optima than it started, on every one of several seeds.
    #[test]
    fn a_noisy_match_is_tuned_towards_its_optimum() {
        let optimum = [120.0, 40.0];
        let strength = |v: &[i64]| -> f64 {
            -v.iter()
                .zip(optimum)
                .map(|(&x, o)| ((x as f64 - o) / 40.0).powi(2))
                .sum::<f64>()
        };
        for seed in 1..=5 {
            let mut spsa = Spsa::new(vec![param("A", 60.0), param("B", 100.0)], 3000, seed);
            let mut games = StdRng::seed_from_u64(100 + seed);
            while !spsa.finished() {
                let step = spsa.step();
                let edge = strength(&step.plus) - strength(&step.minus);
                let p_plus = 1.0 / (1.0 + (-edge).exp());
                let result: f64 = (0..2)
                    .map(|_| {
                        if games.gen::<f64>() < p_plus {
                            1.0
                        } else {
                            -1.0
                        }
                    })
                    .sum();
                spsa.update(&step, result);
            }
            let theta = spsa.theta();
            assert!(
                (theta[0] - 120.0).abs() < 30.0 && (theta[1] - 40.0).abs() < 30.0,
                "seed {seed}: {theta:?}"
            );
        }
    }

    #[test]
    fn a_resumed_run_takes_the_same_steps() {
        let params = vec![param("A", 60.0), param("B", 100.0)];
        let mut whole = Spsa::new(params.clone(), 100, 7);
        let mut trail = Vec::new();
        for i in 0..10 {
            let step = whole.step();
            whole.update(&step, [1.0, -1.0, 0.0, 2.0][i % 4]);
            trail.push(whole.theta().to_vec());
        }
        let mut resumed = Spsa::new(params, 100, 7).resume(5, trail[4].clone());
        for i in 5..10 {
            let step = resumed.step();
            resumed.update(&step, [1.0, -1.0, 0.0, 2.0][i % 4]);
        }
        assert_eq!(resumed.theta(), whole.theta());
        assert_eq!(resumed.done(), 10);
    }
}
