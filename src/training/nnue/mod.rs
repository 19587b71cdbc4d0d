//! `shishi train`: the network learnt from self-play records. Reads the records of one family,
//! holds out the files' last positions (whole games, since `datagen` writes games in order),
//! fits the sigmoid scale when none is given, trains, and writes the quantised net after every
//! epoch.

pub(crate) mod model;
pub(crate) mod samples;
pub(crate) mod trainer;

pub use model::{Model, Target};
pub use samples::{Reading, SampleError, Samples};
pub use trainer::{fit_k, mean_loss, train, EpochReport, TrainOptions};

use crate::board::Family;

/// Splits each file's positions into training and held-out parts: the last `fraction` of
/// every file is held out.
pub fn split_held_out(files: &[Samples], fraction: f64) -> (Samples, Samples) {
    let mut train = Samples::default();
    let mut held = Samples::default();
    for s in files {
        let cut = s.len() - ((s.len() as f64 * fraction).round() as usize).min(s.len());
        train.extend(&s.slice(0..cut));
        held.extend(&s.slice(cut..s.len()));
    }
    (train, held)
}

/// The float net's and the quantised net's outputs on up to `limit` positions: the mean and
/// largest absolute difference, in evaluation units.
pub fn quantisation_error(model: &Model, samples: &Samples, limit: usize) -> (f64, f64) {
    use crate::eval::nnue::network::Network;
    let net: Network = model.quantise();
    let mut scratch = model.scratch();
    let (mut sum, mut worst) = (0.0f64, 0.0f64);
    let n = samples.len().min(limit);
    for i in 0..n {
        let float = f64::from(model.forward(samples, i, &mut scratch));
        let (us, them) = samples.inputs(i);
        let quantised = f64::from(quantised_output(&net, us, them, samples.zones(i)));
        let d = (float - quantised).abs();
        sum += d;
        worst = worst.max(d);
    }
    (sum / n.max(1) as f64, worst)
}

/// The quantised net's output for the inputs of one position, computed from scratch; `zones`
/// are the two sides' royal zones (the mover's first).
pub fn quantised_output(
    net: &crate::eval::nnue::Network,
    us: &[u16],
    them: &[u16],
    zones: [u8; 2],
) -> i32 {
    use crate::eval::nnue::features::{feature_count, royal_bucket};
    let sums = |inputs: &[u16], zone: u8| -> Vec<i32> {
        let base = royal_bucket(usize::from(zone), net.royal_buckets) * feature_count(net.family);
        let mut s: Vec<i32> = net.ft_bias.iter().map(|&b| i32::from(b)).collect();
        for &f in inputs {
            for (a, &w) in s.iter_mut().zip(net.column(base + f as usize)) {
                *a += i32::from(w);
            }
        }
        s
    };
    net.output(
        &sums(us, zones[0]),
        &sums(them, zones[1]),
        net.bucket(us.len()),
    )
}

/// The family a `--family` argument names.
pub fn parse_family(name: &str) -> Option<Family> {
    match name {
        "chu" | "chushogi" => Some(Family::Chu),
        "heian" => Some(Family::Heian),
        _ => None,
    }
}
