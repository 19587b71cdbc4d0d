//! The training loop: mini-batches split over threads (each thread sums its share's gradient
//! into its own buffer; the buffers are added), Adam, a cosine learning-rate schedule, a loss
//! on held-out positions after every epoch, and the quantised net written after every epoch
//! (the checkpoint), so a run stopped early leaves its last complete epoch's net.

use super::model::{Model, Target};
use super::samples::Samples;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rayon::prelude::*;

/// How a run trains.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per optimiser step.
    pub batch: usize,
    /// Adam's starting learning rate; the schedule lowers it to a hundredth by the end.
    pub lr: f32,
    /// The loss target.
    pub target: Target,
    /// Decoupled weight decay (AdamW): each step also takes `lr * weight_decay` of every square
    /// column weight away ([`Model::decayed`]), so columns of squares the data seldom shows
    /// shrink instead of keeping what a few positions taught them. 0: plain Adam.
    pub weight_decay: f32,
    /// Seed of the shuffles.
    pub seed: u64,
}

/// What an epoch did.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    /// 1-based epoch number.
    pub epoch: usize,
    /// Mean training loss over the epoch.
    pub train_loss: f64,
    /// Mean loss on the held-out positions.
    pub validation_loss: f64,
    /// Learning rate at the epoch's end.
    pub lr: f32,
    /// Positions per second.
    pub speed: f64,
}

/// Adam's state.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
        }
    }

    /// One step; `weight_decay` applies to the parameters in the two `decayed` ranges.
    fn step(
        &mut self,
        params: &mut [f32],
        grad: &[f32],
        lr: f32,
        weight_decay: f32,
        decayed: &[std::ops::Range<usize>; 2],
    ) {
        const CHUNK: usize = 4096;
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        params
            .par_chunks_mut(CHUNK)
            .zip(self.m.par_chunks_mut(CHUNK))
            .zip(self.v.par_chunks_mut(CHUNK))
            .zip(grad.par_chunks(CHUNK))
            .enumerate()
            .for_each(|(c, (((p, m), v), g))| {
                for i in 0..p.len() {
                    m[i] = B1 * m[i] + (1.0 - B1) * g[i];
                    v[i] = B2 * v[i] + (1.0 - B2) * g[i] * g[i];
                    let at = c * CHUNK + i;
                    let wd = if decayed.iter().any(|r| r.contains(&at)) {
                        weight_decay
                    } else {
                        0.0
                    };
                    p[i] -= lr * ((m[i] / c1) / ((v[i] / c2).sqrt() + 1e-8) + wd * p[i]);
                }
            });
    }
}

/// Mean loss of `model` on every position of `samples`.
pub fn mean_loss(model: &Model, samples: &Samples, target: Target) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = (0..samples.len())
        .into_par_iter()
        .fold(
            || (model.scratch(), 0.0f64),
            |(mut s, acc), i| {
                let l = model.loss(samples, i, target, &mut s);
                (s, acc + f64::from(l))
            },
        )
        .map(|(_, acc)| acc)
        .sum();
    total / samples.len() as f64
}

/// The sigmoid scale that best predicts the results from the search scores (the `lambda = 0`
/// fit of a model that is the search itself), by golden-section search over 50..20000 units.
pub fn fit_k(samples: &Samples) -> f32 {
    let error = |k: f64| -> f64 {
        (0..samples.len())
            .map(|i| {
                let p = 1.0 / (1.0 + (-f64::from(samples.score(i)) / k).exp());
                (p - f64::from(samples.result(i))).powi(2)
            })
            .sum()
    };
    let (mut a, mut b) = (50f64.ln(), 20000f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let (c, d) = (b - g * (b - a), a + g * (b - a));
        if error(c.exp()) < error(d.exp()) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0).exp() as f32
}

/// Trains `model` on `train`, measuring on `validation`; `on_epoch` hears each epoch's report
/// and gets the model to checkpoint.
pub fn train(
    model: &mut Model,
    train: &Samples,
    validation: &Samples,
    options: &TrainOptions,
    mut on_epoch: impl FnMut(&EpochReport, &Model),
) {
    let n = model.params.len();
    let mut adam = Adam::new(n);
    let mut rng = StdRng::seed_from_u64(options.seed);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let batch = options.batch.max(1);
    let steps_per_epoch = train.len().div_ceil(batch).max(1);
    let total_steps = (steps_per_epoch * options.epochs).max(1);
    let threads = rayon::current_num_threads().max(1);
    let mut grads: Vec<Vec<f32>> = (0..threads).map(|_| vec![0.0; n]).collect();
    let mut step = 0usize;
    let mut lr = options.lr;
    for epoch in 1..=options.epochs {
        let started = std::time::Instant::now();
        order.shuffle(&mut rng);
        let mut epoch_loss = 0.0f64;
        for chunk in order.chunks(batch) {
            let progress = step as f32 / total_steps as f32;
            lr = options.lr * (0.01 + 0.99 * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos()));
            epoch_loss += batch_gradient(model, train, chunk, options.target, &mut grads);
            let scale = 1.0 / chunk.len() as f32;
            let (first, rest) = grads.split_at_mut(1);
            let total = &mut first[0];
            total.par_chunks_mut(4096).enumerate().for_each(|(c, out)| {
                for other in rest.iter() {
                    for (o, g) in out.iter_mut().zip(&other[c * 4096..]) {
                        *o += g;
                    }
                }
                for o in out.iter_mut() {
                    *o *= scale;
                }
            });
            let decayed = model.decayed();
            adam.step(&mut model.params, total, lr, options.weight_decay, &decayed);
            step += 1;
        }
        let report = EpochReport {
            epoch,
            train_loss: epoch_loss / train.len().max(1) as f64,
            validation_loss: mean_loss(model, validation, options.target),
            lr,
            speed: train.len() as f64 / started.elapsed().as_secs_f64().max(1e-9),
        };
        on_epoch(&report, model);
    }
}

/// Zeroes `grads` and fills them with the summed gradient of the positions `chunk`, one buffer
/// per thread; returns the summed loss.
fn batch_gradient(
    model: &Model,
    samples: &Samples,
    chunk: &[usize],
    target: Target,
    grads: &mut [Vec<f32>],
) -> f64 {
    let per = chunk.len().div_ceil(grads.len()).max(1);
    let parts: Vec<&[usize]> = (0..grads.len())
        .map(|t| &chunk[(t * per).min(chunk.len())..((t + 1) * per).min(chunk.len())])
        .collect();
    grads
        .par_iter_mut()
        .zip(parts.par_iter())
        .map(|(grad, part)| {
            grad.iter_mut().for_each(|g| *g = 0.0);
            let mut scratch = model.scratch();
            let mut loss = 0.0f64;
            for &i in *part {
                loss += f64::from(model.backward(samples, i, target, &mut scratch, grad));
            }
            loss
        })
        .sum()
}
