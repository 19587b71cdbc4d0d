//! `shishi tune` from the command line: it fits a small data file, reports the lines it skipped
//! with file and line number, and writes a weights file the engine's parser reads back (and the
//! tuner can start from).

mod common;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shishi::board::{Family, Variant};
use shishi::eval::weights::Weights;
use shishi::training::record::{Record, Result01};
use shishi::Position;
use std::path::PathBuf;

use common::run_shishi as shishi;

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shishi-tune-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Records of random Heian playouts, sente winning where it has more pieces.
fn playout_records(count: usize) -> String {
    let mut rng = StdRng::seed_from_u64(3);
    let mut text = String::from("# random playouts\n");
    let mut written = 0;
    while written < count {
        let mut pos = Position::startpos(Variant::Heian);
        for _ in 0..rng.gen_range(10..60) {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.outcome().is_some() || written == count {
                break;
            }
            pos.play(moves[rng.gen_range(0..moves.len())]);
            let balance = pos.piece_count(shishi::Color::Sente) as i32
                - pos.piece_count(shishi::Color::Gote) as i32;
            let record = Record {
                variant: Variant::Heian,
                sfen: pos.to_sfen(),
                score: 100 * balance,
                result: match balance.signum() {
                    1 => Result01::SenteWon,
                    -1 => Result01::GoteWon,
                    _ => Result01::Draw,
                },
            };
            text.push_str(&format!("{record}\n"));
            written += 1;
        }
    }
    text
}

#[test]
fn tune_writes_weights_the_engine_reads_and_names_bad_lines() {
    let dir = scratch("fit");
    let data = dir.join("games.txt");
    let mut text = playout_records(400);
    let bad_line = text.lines().count() + 1;
    text.push_str("heian;lnsgkgsnl/9 b - 1;0;1\n");
    std::fs::write(&data, text).unwrap();
    let out = dir.join("heian.txt");
    let (code, stdout, stderr) = shishi(&[
        "tune",
        "--data",
        data.to_str().unwrap(),
        "--family",
        "heian",
        "--out",
        out.to_str().unwrap(),
        "--epochs",
        "3",
        "--batch",
        "64",
    ]);
    assert_eq!(code, 0, "stdout {stdout} stderr {stderr}");
    assert!(
        stderr.contains(&format!("games.txt:{bad_line}: bad position")),
        "{stderr}"
    );
    assert!(stdout.contains("fitted K = "), "{stdout}");
    assert!(stdout.contains("epoch    3: loss"), "{stdout}");
    assert!(stdout.contains("final: loss"), "{stdout}");
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(written.starts_with("# Evaluation weights"), "{written}");
    assert!(written.contains("400 positions (360 training, 40 held out), 3 epochs"));
    let weights = Weights::parse(Family::Heian, &written).unwrap();
    assert_ne!(&weights, Weights::embedded(Family::Heian));

    // The written file is a starting point too.
    let again = dir.join("again.txt");
    let (code, stdout, stderr) = shishi(&[
        "tune",
        "--data",
        data.to_str().unwrap(),
        "--family",
        "heian",
        "--out",
        again.to_str().unwrap(),
        "--start",
        out.to_str().unwrap(),
        "--epochs",
        "1",
        "--k",
        "300",
    ]);
    assert_eq!(code, 0, "stdout {stdout} stderr {stderr}");
    assert!(!stdout.contains("fitted K"), "{stdout}");
    Weights::parse(Family::Heian, &std::fs::read_to_string(&again).unwrap()).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tune_rejects_bad_arguments_in_one_line() {
    let dir = scratch("args");
    let data = dir.join("games.txt");
    std::fs::write(&data, playout_records(20)).unwrap();
    let data = data.to_str().unwrap();
    let out = dir.join("out.txt");
    let out = out.to_str().unwrap();
    for (args, needle) in [
        (vec!["--family", "shogi"], "unknown family 'shogi'"),
        (vec!["--family", "heian", "--lambda", "2"], "--lambda"),
        (vec!["--family", "chu"], "too few to tune"),
        (
            vec!["--family", "heian", "--start", data],
            "unknown parameter",
        ),
    ] {
        let mut all = vec!["tune", "--data", data, "--out", out];
        all.extend(args);
        let (code, _, stderr) = shishi(&all);
        assert_eq!(code, 2, "{all:?}: {stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{all:?}: {stderr}");
        assert!(stderr.contains(needle), "{all:?}: {stderr}");
    }
    let (code, _, stderr) = shishi(&[
        "tune",
        "--data",
        "/nonexistent/x",
        "--family",
        "heian",
        "--out",
        out,
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("cannot read /nonexistent/x"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `shishi spsa` over shishi's own `Tune_` options at fixed nodes: every iteration is printed
/// and written to the CSV, the values stay in their ranges, and a run resumed from a cut CSV
/// plays the same games and ends with the same values (fixed nodes make the games repeat).
#[test]
fn spsa_tunes_options_by_self_play_and_resumes_where_it_stopped() {
    let dir = scratch("spsa");
    let csv = dir.join("spsa.csv");
    let engine = format!("cmd={},nodes=300", env!("CARGO_BIN_EXE_shishi"));
    let args = |csv: &str, resume: bool| {
        let mut a = vec![
            "spsa",
            "--engine",
            engine.as_str(),
            "--param",
            "Tune_RfpMargin=200,50,400,30,0.002",
            "--param",
            "Tune_LmrMinMoves=3,1,12,1,0.002",
            "--iterations",
            "3",
            "--variant",
            "heian",
            "--tc",
            "100+0",
            "--max-moves",
            "40",
            "--out",
        ];
        a.push(csv);
        if resume {
            a.push("--resume");
        }
        a.iter().map(|s| s.to_string()).collect::<Vec<String>>()
    };
    let run = |args: Vec<String>| {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        shishi(&refs)
    };
    let (code, out, err) = run(args(csv.to_str().unwrap(), false));
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.matches("iteration ").count(), 3, "{out}");
    let last = out.lines().last().unwrap();
    assert!(last.starts_with("final: option.Tune_RfpMargin="), "{last}");
    let whole = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<&str> = whole.lines().collect();
    assert_eq!(rows[0], "iteration,result,Tune_RfpMargin,Tune_LmrMinMoves");
    assert_eq!(rows.len(), 4, "{whole}");
    for row in &rows[1..] {
        let f: Vec<f64> = row.split(',').map(|v| v.parse().unwrap()).collect();
        assert!((-2.0..=2.0).contains(&f[1]), "{row}");
        assert!(
            (50.0..=400.0).contains(&f[2]) && (1.0..=12.0).contains(&f[3]),
            "{row}"
        );
    }
    // Cut after the first iteration and resume: the same two iterations follow.
    let cut = dir.join("cut.csv");
    std::fs::write(&cut, format!("{}\n{}\n", rows[0], rows[1])).unwrap();
    let (code, out, err) = run(args(cut.to_str().unwrap(), true));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("resumed after iteration 1:"), "{out}");
    assert_eq!(out.matches("iteration ").count(), 3, "{out}");
    assert_eq!(std::fs::read_to_string(&cut).unwrap(), whole);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn spsa_refuses_bad_parameters_by_name() {
    let engine = format!("cmd={},nodes=300", env!("CARGO_BIN_EXE_shishi"));
    for (param, says) in [
        ("Tune_RfpMargin=500,50,400,30,0.002", "outside"),
        ("Tune_RfpMargin=200,50,400", "START,MIN,MAX,C_END,R_END"),
        ("Tune_RfpMargin=200,50,400,0,0.002", "positive"),
        (
            "Tune_NoSuchThing=200,50,400,30,0.002",
            "declares no option 'Tune_NoSuchThing'",
        ),
    ] {
        let (code, _, err) = shishi(&[
            "spsa",
            "--engine",
            &engine,
            "--param",
            param,
            "--variant",
            "heian",
        ]);
        assert_eq!(code, 2, "{param}: {err}");
        assert!(
            err.contains("--param") && err.contains(says),
            "{param}: {err}"
        );
    }
    let (code, _, err) = shishi(&[
        "spsa",
        "--engine",
        &engine,
        "--param",
        "Tune_RfpMargin=200,50,400,30,0.002",
        "--resume",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--resume needs"), "{err}");
}
