//! The network in floating point, as the trainer learns it, and its quantisation into the
//! engine's [`Network`]. Parameters sit in one vector, `[transformer weights (input-major) |
//! transformer biases | output weights (per bucket: mover's half, then the other's) | output
//! biases (one per bucket) | factor weights]`, so the optimiser treats them alike.
//!
//! The factor weights (when the model is factorised) are one column per piece (relative colour
//! and kind) and one per piece and row, which every input of that piece (on that row) adds to
//! its own square's column: what a piece is worth anywhere, or on a rank, is learnt from every
//! position holding it, not square by square, which matters where the data is thin for the
//! inputs (Chu's 11 232). Quantising folds the factor columns into the square columns, so the
//! engine's net has no factor and the same size.
//!
//! A model with royal buckets has one set of square columns per bucket (the transformer's
//! weights are `royal_buckets` sets of the family's inputs); factorised, it also has one column
//! per piece and square shared by every bucket, so a bucket the data shows seldom starts from
//! what the square is worth whatever the royal's zone.

use super::samples::Samples;
use crate::board::Family;
use crate::eval::nnue::features::{feature_count, grid_side, output_bucket, royal_bucket};
use crate::eval::nnue::network::{Network, QA, QB};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The output scale written into nets: evaluation units per output unit.
pub(crate) const SCALE: f32 = 400.0;

/// The loss's target: `lambda` of the search score's win chance plus the rest of the result.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    /// Sigmoid scale in evaluation units.
    pub k: f32,
    /// Weight of the search score (0: result only, 1: score only).
    pub lambda: f32,
}

/// The float network.
#[derive(Clone, Debug)]
pub struct Model {
    /// The family whose inputs it reads.
    pub family: Family,
    /// Hidden units per viewer.
    pub hidden: usize,
    /// Output buckets (by the number of pieces on the board).
    pub buckets: usize,
    /// Royal buckets (1: none), see [`Network::royal_buckets`].
    pub royal_buckets: usize,
    /// All parameters.
    pub params: Vec<f32>,
    /// Whether the factor columns follow the output bias.
    pub factorised: bool,
    /// Whether the net corrects the hand-crafted evaluation: its prediction is the two added
    /// (the samples must keep that evaluation).
    pub adds_hand_crafted: bool,
}

/// Scratch space for one position's forward and backward pass.
pub struct Scratch {
    us: Vec<f32>,
    them: Vec<f32>,
}

/// Number of factor columns of `family`: one per piece (relative colour and kind), then one
/// per piece and row, then with royal buckets one per piece and square.
fn factor_count(family: Family, royal_buckets: usize) -> usize {
    let pieces = feature_count(family) / (grid_side(family) * grid_side(family));
    let shared = if royal_buckets > 1 {
        feature_count(family)
    } else {
        0
    };
    pieces * (1 + grid_side(family)) + shared
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Model {
    /// A model with `buckets` output buckets and small random weights drawn from `seed`
    /// (every bucket starting from the same output weights), with factor columns (at zero) if
    /// `factorised`.
    pub fn new(
        family: Family,
        hidden: usize,
        buckets: usize,
        seed: u64,
        factorised: bool,
    ) -> Model {
        let inputs = feature_count(family);
        let mut rng = StdRng::seed_from_u64(seed);
        let mut params = Vec::with_capacity(inputs * hidden + hidden + buckets * (2 * hidden + 1));
        params.extend((0..inputs * hidden).map(|_| rng.gen_range(-0.1..0.1)));
        params.extend(std::iter::repeat_n(0.0, hidden));
        let out = 1.0 / (2.0 * hidden as f32).sqrt();
        let weights: Vec<f32> = (0..2 * hidden).map(|_| rng.gen_range(-out..out)).collect();
        for _ in 0..buckets {
            params.extend_from_slice(&weights);
        }
        params.extend(std::iter::repeat_n(0.0, buckets));
        let mut model = Model {
            family,
            hidden,
            buckets,
            royal_buckets: 1,
            params,
            factorised: false,
            adds_hand_crafted: false,
        };
        model.set_factorised(factorised);
        model
    }

    /// The model with `royal_buckets` royal buckets (one of
    /// [`ROYAL_BUCKET_COUNTS`](crate::eval::nnue::features::ROYAL_BUCKET_COUNTS)), every bucket
    /// starting from the columns it has now (of one bucket, or of bucket 0): its outputs do not
    /// change for a model without royal buckets, so training from a net goes on from that net.
    pub fn with_royal_buckets(mut self, royal_buckets: usize) -> Model {
        if royal_buckets == self.royal_buckets {
            return self;
        }
        let factorised = self.factorised;
        self.set_factorised(false);
        let one = feature_count(self.family) * self.hidden;
        let mut params = Vec::with_capacity(self.params.len() + (royal_buckets - 1) * one);
        for _ in 0..royal_buckets {
            params.extend_from_slice(&self.params[..one]);
        }
        params.extend_from_slice(&self.params[self.bias_at()..]);
        self.params = params;
        self.royal_buckets = royal_buckets;
        self.set_factorised(factorised);
        self
    }

    /// Moves what the royal buckets' square columns share (their mean) into the shared
    /// square columns of a factorised model with royal buckets, leaving each bucket its
    /// difference: the outputs do not change, and weight decay then pulls each bucket towards
    /// the shared columns rather than towards zero. Nothing to do for other models.
    pub fn center_royal_buckets(&mut self) {
        if !self.factorised || self.royal_buckets == 1 {
            return;
        }
        let h = self.hidden;
        let one = feature_count(self.family) * h;
        let pieces = feature_count(self.family) / (grid_side(self.family) * grid_side(self.family));
        let shared_at = self.factor_at() + pieces * (1 + grid_side(self.family)) * h;
        let buckets = self.royal_buckets as f32;
        for i in 0..one {
            let mean = (0..self.royal_buckets)
                .map(|b| self.params[b * one + i])
                .sum::<f32>()
                / buckets;
            for b in 0..self.royal_buckets {
                self.params[b * one + i] -= mean;
            }
            self.params[shared_at + i] += mean;
        }
    }

    /// Makes the model a correction of the hand-crafted evaluation, starting as no correction
    /// (output weights and bias at zero), so training starts from that evaluation's loss.
    pub fn correct_hand_crafted(&mut self) {
        let (out_at, factor_at) = (self.out_at(), self.factor_at());
        self.params[out_at..factor_at].fill(0.0);
        self.adds_hand_crafted = true;
    }

    /// Adds factor columns at zero (the model's outputs do not change), or folds them into the
    /// square columns and drops them.
    pub fn set_factorised(&mut self, factorised: bool) {
        if factorised == self.factorised {
            return;
        }
        let factor_at = self.factor_at();
        if factorised {
            let count = factor_count(self.family, self.royal_buckets);
            self.params.resize(factor_at + count * self.hidden, 0.0);
        } else {
            let weights = self.folded_weights();
            self.params[..weights.len()].copy_from_slice(&weights);
            self.params.truncate(factor_at);
        }
        self.factorised = factorised;
    }

    /// The float model a quantised net stands for (its weights divided by their scales), to
    /// train further from a net file: the net written after each epoch is the checkpoint a run
    /// resumes from.
    pub fn from_network(net: &Network) -> Model {
        let (qa, qb) = (QA as f32, QB as f32);
        let scale = net.scale as f32 / SCALE;
        let mut params = Vec::with_capacity(
            net.ft_weights.len() + net.hidden + net.out_weights.len() + net.out_bias.len(),
        );
        params.extend(net.ft_weights.iter().map(|&w| f32::from(w) / qa));
        params.extend(net.ft_bias.iter().map(|&b| f32::from(b) / qa));
        params.extend(net.out_weights.iter().map(|&w| f32::from(w) / qb * scale));
        params.extend(net.out_bias.iter().map(|&b| b as f32 / (qa * qb) * scale));
        Model {
            family: net.family,
            hidden: net.hidden,
            buckets: net.buckets,
            royal_buckets: net.royal_buckets,
            params,
            factorised: false,
            adds_hand_crafted: net.adds_hand_crafted,
        }
    }

    /// Scratch space sized for this model.
    pub fn scratch(&self) -> Scratch {
        Scratch {
            us: vec![0.0; self.hidden],
            them: vec![0.0; self.hidden],
        }
    }

    /// The parameters weight decay shrinks: the square columns of the transformer (every
    /// royal bucket's), and the shared square columns of a factorised model with royal buckets
    /// (the last parameters, the second range; empty for other models). Biases, output weights
    /// and the piece and piece-and-row columns keep their values, so on a factorised model
    /// decay pulls each bucket's column towards the shared one, and that towards what its piece
    /// (and row) is worth everywhere.
    pub fn decayed(&self) -> [std::ops::Range<usize>; 2] {
        let shared = if self.factorised && self.royal_buckets > 1 {
            self.params.len() - feature_count(self.family) * self.hidden
        } else {
            self.params.len()
        };
        [0..self.bias_at(), shared..self.params.len()]
    }

    fn bias_at(&self) -> usize {
        self.royal_buckets * feature_count(self.family) * self.hidden
    }

    /// Where the inputs of a viewer whose royal stands in `zone` start.
    fn input_base(&self, zone: u8) -> usize {
        royal_bucket(usize::from(zone), self.royal_buckets) * feature_count(self.family)
    }

    /// Where the output weights start (bucket 0's).
    fn out_at(&self) -> usize {
        self.bias_at() + self.hidden
    }

    /// Where the output biases start.
    fn out_bias_at(&self) -> usize {
        self.out_at() + self.buckets * 2 * self.hidden
    }

    fn factor_at(&self) -> usize {
        self.out_bias_at() + self.buckets
    }

    /// Where the output weights of the bucket of a position with these inputs start, and where
    /// its bias is.
    fn output_of(&self, inputs: &[u16]) -> (usize, usize) {
        let bucket = output_bucket(self.family, inputs.len(), self.buckets);
        (
            self.out_at() + bucket * 2 * self.hidden,
            self.out_bias_at() + bucket,
        )
    }

    /// Where the factor columns of input `f` (of any royal bucket) start: its piece's, its
    /// piece-and-row's and, with royal buckets, its piece-and-square's; none if the model is
    /// not factorised.
    fn factor_columns(&self, f: usize) -> impl Iterator<Item = usize> {
        let side = grid_side(self.family);
        let inputs = feature_count(self.family);
        let f = f % inputs;
        let pieces = inputs / (side * side);
        let (at, h) = (self.factor_at(), self.hidden);
        let count = match (self.factorised, self.royal_buckets > 1) {
            (false, _) => 0,
            (true, false) => 2,
            (true, true) => 3,
        };
        [
            at + f / (side * side) * h,
            at + (pieces + f / side) * h,
            at + (pieces * (1 + side) + f) * h,
        ]
        .into_iter()
        .take(count)
    }

    /// The transformer's weights with the factor columns added to their squares' columns.
    fn folded_weights(&self) -> Vec<f32> {
        let h = self.hidden;
        let mut weights = self.params[..self.bias_at()].to_vec();
        for (f, col) in weights.chunks_mut(h).enumerate() {
            for at in self.factor_columns(f) {
                for (w, v) in col.iter_mut().zip(&self.params[at..at + h]) {
                    *w += v;
                }
            }
        }
        weights
    }

    fn accumulate(&self, inputs: &[u16], zone: u8, sums: &mut [f32]) {
        let h = self.hidden;
        let b = self.bias_at();
        let base = self.input_base(zone);
        sums.copy_from_slice(&self.params[b..b + h]);
        for &f in inputs {
            let f = base + f as usize;
            let col = &self.params[f * h..(f + 1) * h];
            for (s, w) in sums.iter_mut().zip(col) {
                *s += w;
            }
            for at in self.factor_columns(f) {
                for (s, w) in sums.iter_mut().zip(&self.params[at..at + h]) {
                    *s += w;
                }
            }
        }
    }

    /// The net's output for position `i` (evaluation units, the mover's view), leaving the sums
    /// in `scratch`; without the hand-crafted evaluation a correcting net adds to.
    pub fn forward(&self, samples: &Samples, i: usize, scratch: &mut Scratch) -> f32 {
        let (us, them) = samples.inputs(i);
        let zones = samples.zones(i);
        self.accumulate(us, zones[0], &mut scratch.us);
        self.accumulate(them, zones[1], &mut scratch.them);
        let h = self.hidden;
        let (out_at, out_bias) = self.output_of(us);
        let w = &self.params[out_at..out_at + 2 * h];
        let screlu = |x: f32| {
            let c = x.clamp(0.0, 1.0);
            c * c
        };
        let dot = |sums: &[f32], w: &[f32]| -> f32 {
            sums.iter().zip(w).map(|(&x, &w)| screlu(x) * w).sum()
        };
        let out = dot(&scratch.us, &w[..h]) + dot(&scratch.them, &w[h..]) + self.params[out_bias];
        out * SCALE
    }

    /// The loss of position `i`, and its gradient added into `grad`.
    pub fn backward(
        &self,
        samples: &Samples,
        i: usize,
        target: Target,
        scratch: &mut Scratch,
        grad: &mut [f32],
    ) -> f32 {
        let pred = self.predict(samples, i, scratch);
        let (p, t) = prediction_and_target(pred, samples, i, target);
        let loss = (p - t) * (p - t);
        let d_out = 2.0 * (p - t) * p * (1.0 - p) * SCALE / target.k;
        let h = self.hidden;
        let bias_at = self.bias_at();
        let (us, them) = samples.inputs(i);
        let zones = samples.zones(i);
        let (out_at, out_bias) = self.output_of(us);
        grad[out_bias] += d_out;
        for (half, (sums, inputs)) in [(&mut scratch.us, us), (&mut scratch.them, them)]
            .into_iter()
            .enumerate()
        {
            let base = self.input_base(zones[half]);
            let w_at = out_at + half * h;
            for j in 0..h {
                let x = sums[j];
                let c = x.clamp(0.0, 1.0);
                grad[w_at + j] += d_out * c * c;
                // The sums become the gradient at the transformer's output.
                sums[j] = if x > 0.0 && x < 1.0 {
                    d_out * self.params[w_at + j] * 2.0 * x
                } else {
                    0.0
                };
            }
            for (g, d) in grad[bias_at..bias_at + h].iter_mut().zip(sums.iter()) {
                *g += d;
            }
            for &f in inputs {
                let f = base + f as usize;
                let col = &mut grad[f * h..(f + 1) * h];
                for (g, d) in col.iter_mut().zip(sums.iter()) {
                    *g += d;
                }
                for at in self.factor_columns(f) {
                    for (g, d) in grad[at..at + h].iter_mut().zip(sums.iter()) {
                        *g += d;
                    }
                }
            }
        }
        loss
    }

    /// The evaluation the search will see for position `i`: the net's output, plus the
    /// hand-crafted evaluation for a correcting net.
    fn predict(&self, samples: &Samples, i: usize, scratch: &mut Scratch) -> f32 {
        let out = self.forward(samples, i, scratch);
        if self.adds_hand_crafted {
            out + samples.hand_crafted(i).unwrap_or(0.0)
        } else {
            out
        }
    }

    /// The loss of position `i` without a gradient.
    pub fn loss(&self, samples: &Samples, i: usize, target: Target, scratch: &mut Scratch) -> f32 {
        let pred = self.predict(samples, i, scratch);
        let (p, t) = prediction_and_target(pred, samples, i, target);
        (p - t) * (p - t)
    }

    /// The engine's quantised network.
    pub fn quantise(&self) -> Network {
        let h = self.hidden;
        let bias_at = self.bias_at();
        let q = |x: f32, scale: i32| -> i16 {
            (x * scale as f32)
                .round()
                .clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
        };
        Network {
            family: self.family,
            hidden: h,
            scale: SCALE as i32,
            ft_weights: self.folded_weights().iter().map(|&x| q(x, QA)).collect(),
            ft_bias: self.params[bias_at..bias_at + h]
                .iter()
                .map(|&x| q(x, QA))
                .collect(),
            buckets: self.buckets,
            royal_buckets: self.royal_buckets,
            out_weights: self.params[self.out_at()..self.out_bias_at()]
                .iter()
                .map(|&x| q(x, QB))
                .collect(),
            out_bias: self.params[self.out_bias_at()..self.factor_at()]
                .iter()
                .map(|&x| (x * (QA * QB) as f32).round() as i32)
                .collect(),
            adds_hand_crafted: self.adds_hand_crafted,
        }
    }
}

/// The predicted win chance and the target, for position `i` with output `pred`.
fn prediction_and_target(pred: f32, samples: &Samples, i: usize, target: Target) -> (f32, f32) {
    let p = sigmoid(pred / target.k);
    let t = target.lambda * sigmoid(samples.score(i) / target.k)
        + (1.0 - target.lambda) * samples.result(i);
    (p, t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decay_takes_the_square_columns_of_every_bucket_and_the_shared_ones() {
        let family = Family::Heian;
        let (h, inputs) = (8, feature_count(family));
        let plain = Model::new(family, h, 1, 1, true);
        assert_eq!(plain.decayed()[0], 0..inputs * h);
        assert!(plain.decayed()[1].is_empty());
        let mut royal = Model::new(family, h, 1, 1, false).with_royal_buckets(3);
        assert_eq!(royal.decayed()[0], 0..3 * inputs * h);
        assert!(
            royal.decayed()[1].is_empty(),
            "no shared columns unfactorised"
        );
        royal.set_factorised(true);
        let n = royal.params.len();
        assert_eq!(royal.decayed()[1], n - inputs * h..n);
        // The shared columns are the last factor columns: input 5's third factor column.
        let shared: Vec<usize> = royal.factor_columns(2 * inputs + 5).collect();
        assert_eq!(shared[2], n - inputs * h + 5 * h);
    }
}
