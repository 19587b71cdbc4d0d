//! The network evaluation: accumulators kept move by move equal accumulators computed from
//! scratch over random games of every variant (lion double moves, igui, passes, promotions,
//! captures included); the trainer lowers the loss on data it makes itself, its quantised net
//! stays within a stated tolerance of the float net, and the written net loads and plays.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shishi::board::{Family, Variant};
use shishi::eval::nnue::feature_count;
use shishi::eval::nnue::{Network, NnueStack};
use shishi::position::Position;
use shishi::search::{Engine, EngineOptions, EvalOptions, Limits};
use shishi::training::nnue::{self, Model, Reading, Samples, Target, TrainOptions};
use std::sync::Arc;

fn random_net(
    family: Family,
    hidden: usize,
    royal_buckets: usize,
    weights: i16,
    seed: u64,
) -> Arc<Network> {
    let mut rng = StdRng::seed_from_u64(seed);
    let inputs = royal_buckets * feature_count(family);
    Arc::new(Network {
        family,
        hidden,
        scale: 400,
        ft_weights: (0..inputs * hidden)
            .map(|_| rng.gen_range(-weights..weights))
            .collect(),
        ft_bias: (0..hidden).map(|_| rng.gen_range(-100..200)).collect(),
        buckets: 1,
        royal_buckets,
        out_weights: (0..2 * hidden)
            .map(|_| rng.gen_range(-2000..2000))
            .collect(),
        out_bias: vec![777],
        adds_hand_crafted: false,
    })
}

#[derive(Default, Debug)]
struct Seen {
    passes: u32,
    igui: u32,
    doubles: u32,
    promotions: u32,
    captures: u32,
}

/// Plays a random game of `variant` with the accumulators of a net of `royal_buckets` royal
/// buckets and transformer weights below `weights` kept along it; at every position each legal
/// move is pushed and popped, and every frame is compared with a fresh one.
fn walk(
    variant: Variant,
    seed: u64,
    plies: usize,
    royal_buckets: usize,
    weights: i16,
    seen: &mut Seen,
) {
    let net = random_net(variant.family(), 16, royal_buckets, weights, seed);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut pos = Position::startpos(variant);
    let mut stack = NnueStack::new(net.clone(), &pos, plies + 2);
    let fresh = |pos: &Position| {
        let s = NnueStack::new(net.clone(), pos, 0);
        s.sums()
    };
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.outcome().is_some() {
            break;
        }
        for &mv in &moves {
            pos.play(mv);
            stack.push(&pos);
            assert_eq!(stack.sums(), fresh(&pos), "after {mv:?}");
            assert_eq!(
                stack.evaluate(&pos),
                NnueStack::new(net.clone(), &pos, 0).evaluate(&pos)
            );
            stack.pop();
            pos.undo();
        }
        let captures: Vec<_> = moves
            .iter()
            .copied()
            .filter(|&m| pos.is_capture(m))
            .collect();
        let mv = if !captures.is_empty() && rng.gen_bool(0.5) {
            captures[rng.gen_range(0..captures.len())]
        } else {
            moves[rng.gen_range(0..moves.len())]
        };
        seen.passes += mv.is_pass() as u32;
        seen.igui += mv.is_igui() as u32;
        seen.doubles += (mv.mid().is_some() && !mv.is_igui()) as u32;
        seen.promotions += mv.is_promotion() as u32;
        seen.captures += pos.is_capture(mv) as u32;
        pos.play(mv);
        stack.push(&pos);
        assert_eq!(stack.sums(), fresh(&pos), "along the game after {mv:?}");
    }
}

#[test]
fn incremental_accumulators_equal_a_full_refresh() {
    let mut seen = Seen::default();
    for (i, variant) in Variant::ALL.into_iter().enumerate() {
        // Without royal buckets, and with each viewer's inputs by its royal's zone; the sums
        // in i16 (weights below 200: no sum can leave its range) and in i32 (below 3000).
        for (game, royal_buckets) in [1, 6, 3].into_iter().enumerate() {
            let seed = 1000 + 10 * i as u64 + game as u64;
            for weights in [200, 3000] {
                walk(variant, seed, 120, royal_buckets, weights, &mut seen);
            }
        }
    }
    // The walk must have played every kind of move it claims to check: in Chu, lion double
    // moves, igui and passes are among the legal moves at many positions (each is pushed and
    // compared there); these counts are the moves the games themselves went through.
    assert!(seen.captures > 0 && seen.promotions > 0, "{seen:?}");
    let mut pushed = Seen::default();
    let mut pos = Position::startpos(Variant::Chushogi);
    let mut rng = StdRng::seed_from_u64(5);
    for _ in 0..400 {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.outcome().is_some() {
            pos = Position::startpos(Variant::Chushogi);
            continue;
        }
        for mv in &moves {
            pushed.passes += mv.is_pass() as u32;
            pushed.igui += mv.is_igui() as u32;
            pushed.doubles += (mv.mid().is_some() && !mv.is_igui()) as u32;
        }
        pos.play(moves[rng.gen_range(0..moves.len())]);
    }
    assert!(
        pushed.passes > 0 && pushed.igui > 0 && pushed.doubles > 0,
        "{pushed:?}"
    );
}

/// Positions of random games labelled by a fixed linear function of the inputs, so that a net
/// can learn the labels.
fn made_up_data(variant: Variant, positions: usize) -> String {
    let mut rng = StdRng::seed_from_u64(9);
    let mut out = String::new();
    let mut pos = Position::startpos(variant);
    let value = |pos: &Position| -> i32 {
        pos.occupied()
            .iter()
            .map(|sq| {
                // Material and advancement: the same for both sides after a half turn, as a
                // real evaluation is, so the side to move's view can express it.
                let p = pos.piece_at(sq);
                let sente = p.color() == shishi::board::Color::Sente;
                let height = pos.variant().height() as i32;
                let advance = if sente {
                    height - 1 - sq.row() as i32
                } else {
                    sq.row() as i32
                };
                let v = 100 + 37 * (p.kind().index() as i32 % 5) + 5 * advance;
                if sente {
                    v
                } else {
                    -v
                }
            })
            .sum()
    };
    while out.lines().count() < positions {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.outcome().is_some() || pos.plies_played() > 80 {
            pos = Position::startpos(variant);
            continue;
        }
        pos.play(moves[rng.gen_range(0..moves.len())]);
        let v = value(&pos);
        let result = if v > 0 {
            "1"
        } else if v < 0 {
            "0"
        } else {
            "0.5"
        };
        out.push_str(&format!(
            "{};{};{v};{result}\n",
            variant.name(),
            pos.to_sfen()
        ));
    }
    out
}

#[test]
fn the_trainer_learns_and_its_net_loads_and_plays() {
    trainer_learns_and_its_net_loads_and_plays(1, 1);
}

#[test]
fn a_net_with_output_buckets_learns_loads_and_plays() {
    trainer_learns_and_its_net_loads_and_plays(4, 1);
}

#[test]
fn a_net_with_royal_buckets_learns_loads_and_plays() {
    trainer_learns_and_its_net_loads_and_plays(1, 6);
}

/// Trains a net of `buckets` output buckets and `royal_buckets` royal buckets (factorised) on
/// made-up data, checks its quantisation error, its file and a search with it.
fn trainer_learns_and_its_net_loads_and_plays(buckets: usize, royal_buckets: usize) {
    let text = made_up_data(Variant::Heian, 10000);
    let samples = Samples::parse(Family::Heian, &text, true).unwrap();
    assert_eq!(samples.len(), 20000);
    let (train, held) = nnue::split_held_out(&[samples], 0.1);
    let target = Target {
        k: 400.0,
        lambda: 1.0,
    };
    let mut model = Model::new(Family::Heian, 32, buckets, 3, false);
    if royal_buckets > 1 {
        // Every bucket starts as the model's one set of inputs: the same outputs.
        let plain = nnue::mean_loss(&model, &held, target);
        model = model.with_royal_buckets(royal_buckets);
        model.set_factorised(true);
        model.center_royal_buckets();
        let split = nnue::mean_loss(&model, &held, target);
        assert!((plain - split).abs() < 1e-6, "{plain} vs {split}");
    }
    let before = nnue::mean_loss(&model, &held, target);
    let options = TrainOptions {
        epochs: 10,
        batch: 256,
        lr: 0.003,
        target,
        weight_decay: 0.0,
        seed: 4,
    };
    nnue::train(&mut model, &train, &held, &options, |_, _| {});
    let after = nnue::mean_loss(&model, &held, target);
    assert!(after < before * 0.5, "held-out loss {before} -> {after}");
    // The quantised net's output stays within 8 evaluation units of the float net's on
    // average (the engine's units: a Heian pawn is several hundred).
    let (mean, worst) = nnue::quantisation_error(&model, &held, 1000);
    assert!(
        mean < 8.0 && worst < 60.0,
        "quantisation error mean {mean} worst {worst}"
    );
    model.set_factorised(false);
    let bytes = model.quantise().to_bytes();
    let net = Arc::new(Network::from_bytes(&bytes).unwrap());
    assert_eq!(net.buckets, buckets);
    assert_eq!(net.royal_buckets, royal_buckets);
    // A run resumed from the written net starts where the net is, not from scratch.
    let resumed = Model::from_network(&net);
    let resumed_loss = nnue::mean_loss(&resumed, &held, target);
    assert!(
        (resumed_loss - after).abs() < 0.1 * after + 1e-4,
        "{resumed_loss} vs {after}"
    );
    assert_eq!(resumed.quantise(), *net);
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 1,
        eval: EvalOptions {
            use_nnue: true,
            file_net: Some(("made-up".into(), net)),
        },
        ..EngineOptions::default()
    });
    let pos = Position::startpos(Variant::Heian);
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    let result = engine.start(&pos, limits, Box::new(|_| {})).wait();
    let best = result.best.expect("a move");
    assert!(pos.legal_moves().contains(&best));
}

#[test]
fn weight_decay_shrinks_the_weights_and_the_net_still_learns() {
    let text = made_up_data(Variant::Heian, 3000);
    let samples = Samples::parse(Family::Heian, &text, true).unwrap();
    let (train, held) = nnue::split_held_out(&[samples], 0.1);
    let target = Target {
        k: 400.0,
        lambda: 1.0,
    };
    let trained = |weight_decay: f32| {
        let mut model = Model::new(Family::Heian, 16, 1, 5, false);
        let options = TrainOptions {
            epochs: 6,
            batch: 128,
            lr: 0.003,
            target,
            weight_decay,
            seed: 6,
        };
        nnue::train(&mut model, &train, &held, &options, |_, _| {});
        let squares: f64 = model.params.iter().map(|&p| f64::from(p * p)).sum();
        (squares, nnue::mean_loss(&model, &held, target))
    };
    let untrained = nnue::mean_loss(&Model::new(Family::Heian, 16, 1, 5, false), &held, target);
    let (plain_size, plain_loss) = trained(0.0);
    let (decayed_size, decayed_loss) = trained(5.0);
    assert!(
        decayed_size < plain_size * 0.9,
        "sum of squared weights {plain_size} without decay, {decayed_size} with"
    );
    assert!(
        decayed_loss < untrained * 0.8,
        "held-out loss {untrained} -> {decayed_loss} with decay ({plain_loss} without)"
    );
}

#[test]
fn a_correction_of_the_hand_crafted_evaluation_trains_and_the_engine_adds_it() {
    let text = made_up_data(Variant::Heian, 4000);
    let how = Reading {
        mirror: false,
        hand_crafted: true,
    };
    let samples = Samples::read(Family::Heian, &text, how).unwrap();
    let (train, held) = nnue::split_held_out(&[samples], 0.1);
    let target = Target {
        k: 400.0,
        lambda: 1.0,
    };
    // Untrained, the correction is zero: the loss is the hand-crafted evaluation's own.
    let mut model = Model::new(Family::Heian, 16, 1, 9, false);
    model.correct_hand_crafted();
    let sigmoid = |x: f32| 1.0 / (1.0 + (-x / target.k).exp());
    let hand_crafted_loss = (0..held.len())
        .map(|i| {
            let p = sigmoid(held.hand_crafted(i).expect("kept"));
            let t = sigmoid(held.score(i));
            f64::from((p - t) * (p - t))
        })
        .sum::<f64>()
        / held.len() as f64;
    let before = nnue::mean_loss(&model, &held, target);
    assert!(
        (before - hand_crafted_loss).abs() < 1e-9,
        "{before} vs {hand_crafted_loss}"
    );
    let options = TrainOptions {
        epochs: 6,
        batch: 128,
        lr: 0.003,
        target,
        weight_decay: 0.0,
        seed: 10,
    };
    nnue::train(&mut model, &train, &held, &options, |_, _| {});
    let after = nnue::mean_loss(&model, &held, target);
    assert!(after < before * 0.8, "held-out loss {before} -> {after}");
    let net = Network::from_bytes(&model.quantise().to_bytes()).unwrap();
    assert!(net.adds_hand_crafted);
    assert!(Model::from_network(&net).adds_hand_crafted);

    // A correction that is zero everywhere searches exactly as the hand-crafted evaluation:
    // same tree, same node count; the same net read as a net alone does not.
    let zero = Network {
        ft_weights: vec![0; net.ft_weights.len()],
        out_weights: vec![0; net.out_weights.len()],
        out_bias: vec![0; net.out_bias.len()],
        ..net
    };
    let nodes = |use_nnue: bool, net: Option<Network>| {
        let mut engine = Engine::new(EngineOptions {
            hash_mb: 1,
            eval: EvalOptions {
                use_nnue,
                file_net: net.map(|n| ("zero".into(), Arc::new(n))),
            },
            ..EngineOptions::default()
        });
        let limits = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        let pos = Position::startpos(Variant::Heian);
        let result = engine.start(&pos, limits, Box::new(|_| {})).wait();
        (result.nodes, result.best)
    };
    let hand_crafted = nodes(false, None);
    assert_eq!(nodes(true, Some(zero.clone())), hand_crafted);
    let alone = Network {
        adds_hand_crafted: false,
        ..zero
    };
    assert_ne!(nodes(true, Some(alone)), hand_crafted);
}

#[test]
fn a_chu_net_trains_loads_and_plays() {
    let text = made_up_data(Variant::Chushogi, 1500);
    let samples = Samples::parse(Family::Chu, &text, true).unwrap();
    let (train, held) = nnue::split_held_out(&[samples], 0.1);
    let target = Target {
        k: 400.0,
        lambda: 1.0,
    };
    let mut model = Model::new(Family::Chu, 16, 1, 5, true);
    let before = nnue::mean_loss(&model, &held, target);
    let options = TrainOptions {
        epochs: 4,
        batch: 128,
        lr: 0.003,
        target,
        weight_decay: 0.0,
        seed: 6,
    };
    nnue::train(&mut model, &train, &held, &options, |_, _| {});
    let after = nnue::mean_loss(&model, &held, target);
    assert!(after < before, "held-out loss {before} -> {after}");
    let net = Arc::new(Network::from_bytes(&model.quantise().to_bytes()).unwrap());
    assert_eq!(net.family, Family::Chu);
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 1,
        eval: EvalOptions {
            use_nnue: true,
            file_net: Some(("chu".into(), net)),
        },
        ..EngineOptions::default()
    });
    let pos = Position::startpos(Variant::Chushogi);
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let best = engine
        .start(&pos, limits, Box::new(|_| {}))
        .wait()
        .best
        .expect("a move");
    assert!(pos.legal_moves().contains(&best));
}

#[test]
fn folding_the_factor_columns_keeps_every_output() {
    folding_keeps_every_output(1);
}

#[test]
fn folding_the_factor_columns_of_royal_buckets_keeps_every_output() {
    folding_keeps_every_output(2);
}

/// Trains a factorised model of `royal_buckets` royal buckets a little and checks that folding
/// its factor columns into its square columns changes no output.
fn folding_keeps_every_output(royal_buckets: usize) {
    let text = made_up_data(Variant::Heian, 400);
    let samples = Samples::parse(Family::Heian, &text, false).unwrap();
    let target = Target {
        k: 400.0,
        lambda: 1.0,
    };
    let mut model = Model::new(Family::Heian, 16, 2, 7, false).with_royal_buckets(royal_buckets);
    model.set_factorised(true);
    let options = TrainOptions {
        epochs: 2,
        batch: 64,
        lr: 0.003,
        target,
        weight_decay: 0.0,
        seed: 8,
    };
    nnue::train(&mut model, &samples, &samples, &options, |_, _| {});
    let mut folded = model.clone();
    folded.set_factorised(false);
    assert!(folded.params.len() < model.params.len());
    let (mut a, mut b) = (model.scratch(), folded.scratch());
    let mut largest = 0.0f32;
    for i in 0..samples.len() {
        let (x, y) = (
            model.forward(&samples, i, &mut a),
            folded.forward(&samples, i, &mut b),
        );
        largest = largest.max(x.abs());
        assert!(
            (x - y).abs() < 1e-3 * (1.0 + x.abs()),
            "position {i}: {x} vs {y}"
        );
    }
    assert!(largest > 1.0, "the trained model outputs something");
    assert_eq!(model.quantise(), folded.quantise());
}
