//! `shishi tune` from the command line: it fits a small data file, reports the lines it skipped
//! with file and line number, and writes a weights file the engine's parser reads back (and the
//! tuner can start from).

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shishi::board::{Family, Variant};
use shishi::search::weights::Weights;
use shishi::training::record::{Record, Result01};
use shishi::Position;
use std::path::PathBuf;
use std::process::Command;

fn shishi(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_shishi"))
        .args(args)
        .output()
        .expect("binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

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
