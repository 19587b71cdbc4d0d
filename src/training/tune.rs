//! Texel tuning: fits the evaluation's weights (`eval::weights`) to labelled positions.
//!
//! The evaluation is linear in its weights (`eval::features`), so each position is read once
//! into its coefficients ([`Dataset`]) and its evaluation under any weights is a short sum. A
//! position's predicted score is `sigmoid(eval / K)`; its target mixes how the game ended with
//! what the search thought: `lambda * result + (1 - lambda) * sigmoid(score / K)`, all from
//! sente's view. The tuner minimises the mean squared difference with Adam over shuffled
//! mini-batches, the gradient of each batch summed over positions on all threads (rayon).
//!
//! - `K` (centipawns per unit of the logistic) is fitted first, unless given: the value that
//!   makes the starting weights' evaluations predict the game results best (results alone, as
//!   Texel's method does; with the search scores in the target a larger `K` would always look
//!   better). It then stays fixed, which also fixes the scale of the weights.
//! - A tenth of the positions is held out; its loss is reported beside the training loss so
//!   over-fitting shows. They are held out in runs of consecutive positions ([`hold_out_run`],
//!   a seeded shuffle of the runs): a data file lists a game's positions together, and
//!   positions of one game are so alike that holding out single ones measures little.
//! - `l2` pulls every weight toward its starting value: the penalty `l2 * (w - start)^2` per
//!   parameter is added to the mean loss being minimised (the losses reported leave it out).
//!   Tables with hundreds of entries fitted on a few thousand games otherwise learn the games.
//! - A parameter with no occurrence in the training positions (the material of a kind the
//!   games never had, a ring a piece never stood on) keeps its starting value, and so does one
//!   whose name starts with a `frozen` prefix (`rank.` keeps every rank table).
//! - The step size falls linearly from `lr` to `lr / 10` over the epochs.
//! - A kind's material and its rank table say the same thing twice (every piece reads one rank
//!   entry), and so do its material and ring table: adding `c` to material and taking it from
//!   every entry changes no evaluation. After the last epoch each table's mean change (weighted
//!   by how often its entries occur) is moved into the material, so the material reads as the
//!   piece's average value and the tables as the differences the data found.

mod data;

pub(crate) use data::Dataset;

use crate::eval::weights::{rank_count, ring_count, Layout, Weights};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rayon::prelude::*;

/// The logistic function.
#[inline]
pub(crate) fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// How a run goes; [`TuneOptions::default`] gives the command line's defaults.
#[derive(Clone, Debug)]
pub(crate) struct TuneOptions {
    /// Passes over the training positions.
    pub epochs: usize,
    /// Weight of the game result in the target (the rest is the search score).
    pub lambda: f64,
    /// Adam's step size at the start, centipawns per step.
    pub lr: f64,
    /// Positions per gradient step.
    pub batch: usize,
    /// Share of the positions held out for the validation loss.
    pub validation_share: f64,
    /// Seed of the hold-out split and the batch shuffles.
    pub seed: u64,
    /// Strength of the pull toward the starting weights, per squared centipawn (0: none).
    pub l2: f64,
    /// Parameters whose name starts with one of these keep their starting values.
    pub frozen: Vec<String>,
}

/// Consecutive positions held out (or kept) together: 200 (about one Chu game, two Heian
/// games), fewer in a set too small to make 20 runs of that.
pub(crate) fn hold_out_run(positions: usize) -> usize {
    (positions / 20).clamp(1, 200)
}

impl Default for TuneOptions {
    fn default() -> Self {
        TuneOptions {
            epochs: 100,
            lambda: 0.5,
            lr: 1.0,
            batch: 16_384,
            validation_share: 0.1,
            seed: 1,
            l2: 0.0,
            frozen: Vec::new(),
        }
    }
}

/// The losses after one epoch.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EpochReport {
    /// The epoch, from 1.
    pub epoch: usize,
    /// Mean loss of the epoch's batches, each measured before its step.
    pub train_loss: f64,
    /// Loss of the held-out positions after the epoch.
    pub validation_loss: f64,
}

/// A tuning run over one data set: the split, the weights being fitted and Adam's state.
pub(crate) struct Tuner<'a> {
    data: &'a Dataset,
    train: Vec<usize>,
    validation: Vec<usize>,
    weights: Vec<f64>,
    start: Vec<f64>,
    /// How often each parameter counts in the training positions; those at 0 (and the frozen
    /// ones, counted as 0) are never moved.
    occurrences: Vec<u64>,
}

/// The loss terms of one position: its squared error and that error's derivative with respect
/// to the position's evaluation.
#[inline]
fn position_loss(data: &Dataset, p: usize, weights: &[f64], k: f64, lambda: f64) -> (f64, f64) {
    let predicted = sigmoid(data.eval(p, weights) / k);
    let target = lambda * data.result(p) + (1.0 - lambda) * sigmoid(data.score(p) / k);
    let error = predicted - target;
    (
        error * error,
        2.0 * error * predicted * (1.0 - predicted) / k,
    )
}

fn mean_loss(data: &Dataset, positions: &[usize], weights: &[f64], k: f64, lambda: f64) -> f64 {
    if positions.is_empty() {
        return 0.0;
    }
    let sum: f64 = positions
        .par_iter()
        .map(|&p| position_loss(data, p, weights, k, lambda).0)
        .sum();
    sum / positions.len() as f64
}

/// The summed loss and gradient of `positions`.
fn batch_gradient(
    data: &Dataset,
    positions: &[usize],
    weights: &[f64],
    k: f64,
    lambda: f64,
) -> (f64, Vec<f64>) {
    let chunk = (positions.len() / (4 * rayon::current_num_threads())).max(256);
    positions
        .par_chunks(chunk)
        .map(|chunk| {
            let mut gradient = vec![0.0; weights.len()];
            let mut loss = 0.0;
            for &p in chunk {
                let (l, d) = position_loss(data, p, weights, k, lambda);
                loss += l;
                for e in data.entries(p) {
                    gradient[usize::from(e.index)] += d * f64::from(e.coef);
                }
            }
            (loss, gradient)
        })
        .reduce(
            || (0.0, vec![0.0; weights.len()]),
            |(la, mut ga), (lb, gb)| {
                for (a, b) in ga.iter_mut().zip(gb) {
                    *a += b;
                }
                (la + lb, ga)
            },
        )
}

impl<'a> Tuner<'a> {
    /// A run over `data` starting from `start`, with `options`' hold-out share and seed.
    pub(crate) fn new(data: &'a Dataset, start: &Weights, options: &TuneOptions) -> Tuner<'a> {
        assert_eq!(
            data.family(),
            start.family(),
            "data and weights of one family"
        );
        let run = hold_out_run(data.len());
        let mut runs: Vec<usize> = (0..data.len().div_ceil(run)).collect();
        runs.shuffle(&mut StdRng::seed_from_u64(options.seed));
        let held_out = (runs.len() as f64 * options.validation_share).round() as usize;
        let held_runs = runs.split_off(runs.len() - held_out.min(runs.len()));
        let positions_of = |runs: &[usize]| -> Vec<usize> {
            runs.iter()
                .flat_map(|&r| r * run..((r + 1) * run).min(data.len()))
                .collect()
        };
        let (order, validation) = (positions_of(&runs), positions_of(&held_runs));
        let mut occurrences = data.occurrences(&order);
        let layout = Layout::of(data.family());
        for (i, count) in occurrences.iter_mut().enumerate() {
            let name = layout.name_of(i);
            if options.frozen.iter().any(|prefix| name.starts_with(prefix)) {
                *count = 0;
            }
        }
        let start: Vec<f64> = start.values().iter().map(|&v| f64::from(v)).collect();
        Tuner {
            data,
            train: order,
            validation,
            weights: start.clone(),
            start,
            occurrences,
        }
    }

    /// Positions fitted on.
    pub(crate) fn train_len(&self) -> usize {
        self.train.len()
    }

    /// Positions held out.
    pub(crate) fn validation_len(&self) -> usize {
        self.validation.len()
    }

    /// Parameters the training positions can move (the others keep their values).
    pub(crate) fn active_len(&self) -> usize {
        self.occurrences.iter().filter(|&&n| n > 0).count()
    }

    /// The `K` under which the current weights predict the training positions' game results
    /// best: a scan over a geometric grid from 10 to 10 000, refined by golden-section search.
    pub(crate) fn fit_k(&self) -> f64 {
        let labelled: Vec<(f64, f64)> = self
            .train
            .par_iter()
            .map(|&p| (self.data.eval(p, &self.weights), self.data.result(p)))
            .collect();
        let error = |k: f64| {
            let sum: f64 = labelled
                .par_iter()
                .map(|&(eval, result)| (sigmoid(eval / k) - result).powi(2))
                .sum();
            sum / labelled.len().max(1) as f64
        };
        let grid: Vec<f64> = (0..=72).map(|i| 10.0 * 1.1f64.powi(i)).collect();
        let errors: Vec<f64> = grid.iter().map(|&k| error(k)).collect();
        let best = (0..grid.len())
            .min_by(|&a, &b| errors[a].total_cmp(&errors[b]))
            .unwrap_or(0);
        let (mut lo, mut hi) = (
            grid[best.saturating_sub(1)],
            grid[(best + 1).min(grid.len() - 1)],
        );
        let phi = (5f64.sqrt() - 1.0) / 2.0;
        for _ in 0..40 {
            let a = hi - phi * (hi - lo);
            let b = lo + phi * (hi - lo);
            if error(a) < error(b) {
                hi = b;
            } else {
                lo = a;
            }
        }
        (lo + hi) / 2.0
    }

    /// The training and validation losses of the current weights.
    pub(crate) fn losses(&self, k: f64, lambda: f64) -> (f64, f64) {
        (
            mean_loss(self.data, &self.train, &self.weights, k, lambda),
            mean_loss(self.data, &self.validation, &self.weights, k, lambda),
        )
    }

    /// Fits the weights for `options.epochs` epochs under `k`, calling `report` after each.
    pub(crate) fn run(
        &mut self,
        k: f64,
        options: &TuneOptions,
        mut report: impl FnMut(&EpochReport),
    ) {
        const BETA1: f64 = 0.9;
        const BETA2: f64 = 0.999;
        const EPSILON: f64 = 1e-8;
        let n = self.weights.len();
        let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
        let mut step = 0i32;
        let mut rng = StdRng::seed_from_u64(options.seed.wrapping_add(1));
        let mut order = self.train.clone();
        let batch = options.batch.max(1);
        for epoch in 1..=options.epochs {
            let progress = (epoch - 1) as f64 / options.epochs as f64;
            let lr = options.lr * (1.0 - 0.9 * progress);
            order.shuffle(&mut rng);
            let mut loss_sum = 0.0;
            for positions in order.chunks(batch) {
                let (loss, gradient) =
                    batch_gradient(self.data, positions, &self.weights, k, options.lambda);
                loss_sum += loss;
                step += 1;
                let scale = 1.0 / positions.len() as f64;
                let (fix1, fix2) = (1.0 - BETA1.powi(step), 1.0 - BETA2.powi(step));
                for i in (0..n).filter(|&i| self.occurrences[i] > 0) {
                    let pull = 2.0 * options.l2 * (self.weights[i] - self.start[i]);
                    let g = gradient[i] * scale + pull;
                    m[i] = BETA1 * m[i] + (1.0 - BETA1) * g;
                    v[i] = BETA2 * v[i] + (1.0 - BETA2) * g * g;
                    self.weights[i] -= lr * (m[i] / fix1) / ((v[i] / fix2).sqrt() + EPSILON);
                }
            }
            if epoch == options.epochs {
                self.normalise();
            }
            report(&EpochReport {
                epoch,
                train_loss: loss_sum / order.len().max(1) as f64,
                validation_loss: mean_loss(
                    self.data,
                    &self.validation,
                    &self.weights,
                    k,
                    options.lambda,
                ),
            });
        }
    }

    /// Moves each kind's mean change of its rank and ring tables into its material (see the
    /// module doc); no evaluation changes.
    fn normalise(&mut self) {
        let layout = Layout::of(self.data.family());
        let family = layout.family();
        for &kind in Layout::kinds_of(family) {
            let material = layout.material(kind);
            if self.occurrences[material] == 0 {
                continue;
            }
            let tables = [
                (0..rank_count(family))
                    .map(|r| layout.rank(kind, r))
                    .collect::<Vec<_>>(),
                (0..ring_count(family))
                    .map(|r| layout.ring(kind, r))
                    .collect(),
            ];
            for table in tables {
                let total: u64 = table.iter().map(|&i| self.occurrences[i]).sum();
                if total == 0 {
                    continue;
                }
                let change: f64 = table
                    .iter()
                    .map(|&i| self.occurrences[i] as f64 * (self.weights[i] - self.start[i]))
                    .sum::<f64>()
                    / total as f64;
                for &i in &table {
                    self.weights[i] -= change;
                }
                self.weights[material] += change;
            }
        }
    }

    /// Rounds the current weights to whole centipawns, as a weights file keeps them.
    pub(crate) fn round(&mut self) {
        for w in &mut self.weights {
            *w = w.round();
        }
    }

    /// The current weights, as exact values.
    #[cfg(test)]
    fn values(&self) -> &[f64] {
        &self.weights
    }

    /// The current weights, rounded to whole centipawns.
    pub(crate) fn weights(&self) -> Weights {
        let values = self.weights.iter().map(|w| w.round() as i32).collect();
        Weights::from_values(self.data.family(), values).expect("one value per parameter")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Color, Family, Variant};
    use crate::eval::features;
    use crate::movegen::random_playout;
    use crate::position::Position;
    use crate::training::record::{Record, Result01};
    use data::ReadReport;
    use rand::Rng;

    /// Positions of random Heian playouts (captures preferred, so material is uneven).
    fn playout_positions(count: usize, seed: u64) -> Vec<Position> {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut out = Vec::new();
        while out.len() < count {
            let variant = [Variant::Heian, Variant::Heian8x8][rng.gen_range(0..2)];
            let plies = rng.gen_range(10..80);
            out.extend(random_playout(variant, plies, 0.3, &mut rng));
        }
        out
    }

    fn sente_eval(weights: &Weights, pos: &Position) -> i32 {
        let relative: i32 = features(pos).iter().map(|&(i, c)| weights.get(i) * c).sum();
        if pos.side_to_move() == Color::Sente {
            relative
        } else {
            -relative
        }
    }

    #[test]
    fn the_tuner_recovers_weights_that_labelled_the_data() {
        let layout = Layout::of(Family::Heian);
        let start = Weights::embedded(Family::Heian);
        let mut known = start.values().to_vec();
        let changes = [
            ("material.P", 60),
            ("material.G", -120),
            ("material.S", 110),
            ("pawn_defended", 40),
            ("tempo", 30),
        ];
        let index = |name: &str| {
            layout
                .terms()
                .iter()
                .find(|t| t.name == name)
                .unwrap()
                .offset
        };
        for (name, change) in changes {
            known[index(name)] += change;
        }
        let known = Weights::from_values(Family::Heian, known).unwrap();
        let positions = playout_positions(3000, 5);
        let data = labelled(&positions, |pos| (sente_eval(&known, pos), Result01::Draw));
        assert_eq!(data.len(), positions.len());

        // Pure score targets (lambda 0) under a K wide enough that few evaluations saturate.
        let options = TuneOptions {
            epochs: 40,
            lambda: 0.0,
            lr: 3.0,
            batch: 256,
            ..TuneOptions::default()
        };
        let k = 1000.0;
        let mut tuner = Tuner::new(&data, start, &options);
        let (start_loss, start_validation) = tuner.losses(k, 0.0);
        tuner.run(k, &options, |_| {});
        let (end_loss, end_validation) = tuner.losses(k, 0.0);
        assert!(end_loss < start_loss / 5.0, "{start_loss} -> {end_loss}");
        assert!(
            end_validation < start_validation / 5.0,
            "{start_validation} -> {end_validation}"
        );
        let tuned = tuner.weights();
        let eval_error = |w: &Weights| -> f64 {
            positions
                .iter()
                .map(|p| f64::from((sente_eval(w, p) - sente_eval(&known, p)).abs()))
                .sum::<f64>()
                / positions.len() as f64
        };
        let (before, after) = (eval_error(start), eval_error(&tuned));
        assert!(after < before / 3.0, "mean eval error {before} -> {after}");
        for (name, change) in changes {
            let moved = tuned.get(index(name)) - start.get(index(name));
            assert!(
                moved.signum() == change.signum() && moved.abs() >= change.abs() / 2,
                "{name}: known change {change}, tuned {moved}"
            );
        }
    }

    /// A Heian data set of `positions`, each with the score and result `label` gives it; every
    /// record must read back.
    fn labelled(positions: &[Position], label: impl Fn(&Position) -> (i32, Result01)) -> Dataset {
        let text: String = positions
            .iter()
            .map(|pos| {
                let (score, result) = label(pos);
                let record = Record {
                    variant: pos.variant(),
                    sfen: pos.to_sfen(),
                    score,
                    result,
                };
                format!("{record}\n")
            })
            .collect();
        let mut data = Dataset::new(Family::Heian);
        let mut report = ReadReport::default();
        data.add_text("data", &text, &mut report);
        assert!(report.bad.is_empty(), "{:?}", report.bad);
        data
    }

    /// A data set of `positions`, every one labelled 300 cp and a sente win.
    fn sente_wins(positions: &[Position]) -> Dataset {
        labelled(positions, |_| (300, Result01::SenteWon))
    }

    #[test]
    fn parameters_that_never_occur_keep_their_values() {
        // Without promoted pieces in the data, their material and tables stay as they were.
        let positions: Vec<Position> = playout_positions(600, 9)
            .into_iter()
            .filter(|p| {
                p.occupied()
                    .iter()
                    .all(|sq| !p.piece_at(sq).kind().is_promoted())
            })
            .take(300)
            .collect();
        let data = sente_wins(&positions);
        let start = Weights::embedded(Family::Heian);
        let options = TuneOptions {
            epochs: 3,
            batch: 64,
            ..TuneOptions::default()
        };
        let mut tuner = Tuner::new(&data, start, &options);
        tuner.run(400.0, &options, |_| {});
        let layout = Layout::of(Family::Heian);
        // Entries of a present kind's tables shift with its material (no evaluation changes).
        let mut shifted = vec![false; layout.len()];
        for &kind in Layout::kinds_of(Family::Heian) {
            if tuner.occurrences[layout.material(kind)] > 0 {
                (0..9).for_each(|r| shifted[layout.rank(kind, r)] = true);
                (0..5).for_each(|r| shifted[layout.ring(kind, r)] = true);
            }
        }
        let mut kept = 0;
        for (i, &value) in tuner.values().iter().enumerate() {
            if tuner.occurrences[i] == 0 && !shifted[i] {
                assert_eq!(value, f64::from(start.get(i)), "{}", layout.name_of(i));
                kept += 1;
            }
        }
        let tokin = layout.material(crate::board::Kind::HeianTokin);
        assert_eq!(tuner.occurrences[tokin], 0);
        assert!(kept > 4 * 16, "{kept}");
        assert_ne!(tuner.values(), tuner.start.as_slice());
    }

    #[test]
    fn positions_are_held_out_in_whole_runs() {
        let data = sente_wins(&playout_positions(5000, 11));
        let run = hold_out_run(data.len());
        assert_eq!(run, 200);
        let tuner = Tuner::new(
            &data,
            Weights::embedded(Family::Heian),
            &TuneOptions::default(),
        );
        let mut all: Vec<usize> = tuner
            .train
            .iter()
            .chain(&tuner.validation)
            .copied()
            .collect();
        all.sort_unstable();
        assert_eq!(all, (0..data.len()).collect::<Vec<_>>());
        let runs = data.len().div_ceil(run);
        let held: std::collections::BTreeSet<usize> =
            tuner.validation.iter().map(|&p| p / run).collect();
        assert_eq!(held.len(), (runs as f64 * 0.1).round() as usize);
        for held_run in held {
            let size = ((held_run + 1) * run).min(data.len()) - held_run * run;
            let in_validation = tuner
                .validation
                .iter()
                .filter(|&&p| p / run == held_run)
                .count();
            assert_eq!(in_validation, size, "run {held_run} split");
        }
    }

    #[test]
    fn the_l2_pull_keeps_weights_near_their_start() {
        let data = sente_wins(&playout_positions(400, 12));
        let start = Weights::embedded(Family::Heian);
        let largest_move = |l2: f64| -> f64 {
            let options = TuneOptions {
                epochs: 5,
                batch: 64,
                lr: 5.0,
                l2,
                ..TuneOptions::default()
            };
            let mut tuner = Tuner::new(&data, start, &options);
            tuner.run(400.0, &options, |_| {});
            tuner
                .weights
                .iter()
                .zip(&tuner.start)
                .map(|(w, s)| (w - s).abs())
                .fold(0.0, f64::max)
        };
        let (free, pulled) = (largest_move(0.0), largest_move(1e-2));
        assert!(free > 20.0, "{free}");
        assert!(pulled < free / 4.0, "free {free}, pulled {pulled}");
    }

    #[test]
    fn frozen_parameters_keep_their_values() {
        let data = sente_wins(&playout_positions(400, 13));
        let start = Weights::embedded(Family::Heian);
        let options = TuneOptions {
            epochs: 3,
            batch: 64,
            lr: 5.0,
            frozen: vec!["rank.".into(), "material.P".into()],
            ..TuneOptions::default()
        };
        let mut tuner = Tuner::new(&data, start, &options);
        tuner.run(400.0, &options, |_| {});
        let layout = Layout::of(Family::Heian);
        let (mut frozen, mut moved) = (0, 0);
        for (i, &value) in tuner.values().iter().enumerate() {
            let name = layout.name_of(i);
            if name.starts_with("rank.") || name == "material.P" {
                assert_eq!(value, f64::from(start.get(i)), "{name}");
                frozen += 1;
            } else if value != f64::from(start.get(i)) {
                moved += 1;
            }
        }
        assert!(frozen > 9 && moved > 9, "frozen {frozen}, moved {moved}");
    }

    #[test]
    fn normalising_changes_no_evaluation() {
        let positions = playout_positions(300, 3);
        let data = sente_wins(&positions);
        let mut tuner = Tuner::new(
            &data,
            Weights::embedded(Family::Heian),
            &TuneOptions::default(),
        );
        let mut rng = StdRng::seed_from_u64(4);
        for w in &mut tuner.weights {
            *w += rng.gen_range(-50.0..50.0);
        }
        let before: Vec<f64> = (0..data.len())
            .map(|p| data.eval(p, &tuner.weights))
            .collect();
        let material_before =
            tuner.weights[Layout::of(Family::Heian).material(crate::board::Kind::HeianPawn)];
        tuner.normalise();
        for (p, &b) in before.iter().enumerate() {
            assert!(
                (data.eval(p, &tuner.weights) - b).abs() < 1e-6,
                "position {p}"
            );
        }
        let material_after =
            tuner.weights[Layout::of(Family::Heian).material(crate::board::Kind::HeianPawn)];
        assert_ne!(material_before, material_after);
    }

    #[test]
    fn bad_lines_are_reported_with_their_line_numbers() {
        let good = Record {
            variant: Variant::Heian,
            sfen: Position::startpos(Variant::Heian).to_sfen(),
            score: 12,
            result: Result01::SenteWon,
        };
        let chu = Record {
            variant: Variant::Chushogi,
            sfen: Position::startpos(Variant::Chushogi).to_sfen(),
            score: 0,
            result: Result01::Draw,
        };
        let text = format!(
            "# a comment\n{good}\nheian;not a position;0;1\n\n{chu}\n{good}\nheian;{};5;2\n",
            good.sfen
        );
        let mut data = Dataset::new(Family::Heian);
        let mut report = ReadReport::default();
        data.add_text("games.txt", &text, &mut report);
        assert_eq!(data.len(), 2);
        assert_eq!(report.other_family, 1);
        let lines: Vec<usize> = report.bad.iter().map(|b| b.line).collect();
        assert_eq!(lines, [3, 7]);
        assert!(report.bad[0]
            .to_string()
            .starts_with("games.txt:3: bad position"));
        assert!(report.bad[1].to_string().contains("bad result '2'"));
    }

    #[test]
    fn coefficients_are_kept_from_sentes_view() {
        // The same position with either side to move: the material coefficients agree.
        let sfen = "lnsgkgsnl/9/ppppppppp/9/9/9/PPPP1PPPP/9/LNSGKGSNL";
        let text = format!("heian;{sfen} b - 1;0;0.5\nheian;{sfen} w - 1;0;0.5\n");
        let mut data = Dataset::new(Family::Heian);
        data.add_text("t", &text, &mut ReadReport::default());
        let pawn = Layout::of(Family::Heian).material(crate::board::Kind::HeianPawn);
        for p in 0..2 {
            let coef = data
                .entries(p)
                .iter()
                .find(|e| usize::from(e.index) == pawn);
            assert_eq!(coef.map(|e| e.coef), Some(-1), "position {p}");
        }
    }
}
