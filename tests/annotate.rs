//! `shishi annotate` and `shishi analyse` on real games: the analysis at a node limit is the
//! same on one thread and on two, every output names every ply (the JSON one entry per move
//! with its fields, the SVG graph one point per ply, the annotated KIF and PGN read back to the
//! same moves with the judgments as comments and NAGs), and `analyse` takes moves, a game and a
//! ply, several lines and the hand-crafted evaluation, its last line agreeing with `bestmove`.

mod common;

use shishi::record::{self, Format, ReadOptions};
use std::path::{Path, PathBuf};

use common::run_shishi as shishi;

fn game() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kif/chu19-50p-.kif")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shishi-annotate-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn annotate(dir: &Path, threads: &str) -> serde_json::Value {
    let json = dir.join(format!("a{threads}.json"));
    let (code, out, err) = shishi(&[
        "annotate",
        game().to_str().unwrap(),
        "--nodes",
        "3000",
        "--hash",
        "8",
        "--threads",
        threads,
        "--out",
        json.to_str().unwrap(),
        "--out",
        dir.join("a.svg").to_str().unwrap(),
        "--out",
        dir.join("a.kif").to_str().unwrap(),
        "--out",
        dir.join("a.pgn").to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("analysed 51 positions"), "{out}");
    serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap()
}

#[test]
fn the_analysis_of_a_game_names_every_ply_and_does_not_depend_on_threads() {
    let dir = scratch("game");
    let one = annotate(&dir, "1");
    let two = annotate(&dir, "2");
    assert_eq!(one["plies"], two["plies"]);
    assert_eq!(one["summary"], two["summary"]);

    let plies = one["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 50);
    let judged = ["inaccuracy", "mistake", "blunder"];
    for (i, ply) in plies.iter().enumerate() {
        assert_eq!(ply["ply"], i + 1);
        assert!(ply["move"].is_string() && ply["best"].is_string(), "{ply}");
        let has_eval =
            ply.get("cp").is_some() || ply.get("mate").is_some() || ply.get("result").is_some();
        assert!(has_eval, "{ply}");
        let judgment = &ply["judgment"];
        assert!(
            judgment.is_null() || judged.contains(&judgment.as_str().unwrap()),
            "{ply}"
        );
        // A judged move is never the engine's own choice.
        if !judgment.is_null() {
            assert_ne!(ply["move"], ply["best"], "{ply}");
        }
    }
    // The mover's view is sente's for sente's moves and its negation for gote's.
    for ply in plies.iter().filter(|p| p.get("cp").is_some()) {
        let (cp, mover) = (
            ply["cp"].as_i64().unwrap(),
            ply["mover_cp"].as_i64().unwrap(),
        );
        let sign = if ply["color"] == "sente" { 1 } else { -1 };
        assert_eq!(mover, sign * cp, "{ply}");
    }

    let svg = std::fs::read_to_string(dir.join("a.svg")).unwrap();
    let points = svg
        .lines()
        .find(|l| l.starts_with("<polyline"))
        .and_then(|l| l.split("points=\"").nth(1))
        .map(|p| p.split('"').next().unwrap().split_whitespace().count());
    assert_eq!(points, Some(50));
    let marks = svg.matches("<circle").count();
    let judged_count = plies.iter().filter(|p| !p["judgment"].is_null()).count();
    assert_eq!(marks, judged_count);

    let original = record::read_file(&game(), &ReadOptions::default()).unwrap();
    for (name, format) in [("a.kif", Format::Kif), ("a.pgn", Format::Pgn)] {
        let back = record::read_file(&dir.join(name), &ReadOptions::default()).unwrap();
        assert_eq!(back.moves(), original.moves(), "{name}");
        let evals = back
            .comments
            .iter()
            .filter(|c| c.iter().any(|t| t.starts_with("[%eval ")))
            .count();
        assert_eq!(evals, 50, "{name}");
        if format == Format::Pgn {
            let glyphs = back.glyphs.iter().filter(|g| g.is_some()).count();
            assert_eq!(glyphs, judged_count, "{name}");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_side_that_played_no_move_gets_no_accuracy() {
    let dir = scratch("one-move");
    let game = dir.join("one.usi");
    std::fs::write(&game, "startpos moves 7j8h\n").unwrap();
    let json = dir.join("one.json");
    let (code, out, err) = shishi(&[
        "annotate",
        game.to_str().unwrap(),
        "--nodes",
        "2000",
        "--hash",
        "8",
        "--out",
        json.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("gote: no move analysed"), "{out}");
    assert!(out.contains("sente: 0 inaccuracies"), "{out}");
    assert!(out.contains("analysed 2 positions"), "{out}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    assert!(json["summary"]["gote"]["accuracy"].is_null(), "{json}");
    assert!(json["summary"]["sente"]["accuracy"].is_number(), "{json}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_output_that_cannot_be_written_is_refused_before_the_analysis() {
    let dir = scratch("unwritable");
    let missing = dir.join("no-such-folder").join("a.json");
    let good = dir.join("a.svg");
    let (code, out, err) = shishi(&[
        "annotate",
        game().to_str().unwrap(),
        "--nodes",
        "100",
        "--out",
        good.to_str().unwrap(),
        "--out",
        missing.to_str().unwrap(),
    ]);
    assert_ne!(code, 0, "{out}{err}");
    assert!(err.contains("cannot be written"), "{err}");
    // No position was searched, and the test left no file behind.
    assert!(
        !err.contains("positions,") && !out.contains("analysed"),
        "{out}{err}"
    );
    assert!(!good.exists());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn analyse_takes_moves_a_game_and_several_lines() {
    let (code, out, err) = shishi(&[
        "analyse",
        "--moves",
        "7i7h 6d6e",
        "--depth",
        "3",
        "--multipv",
        "2",
        "--hash",
        "8",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(" b - 3"), "{out}");
    assert!(out.lines().any(|l| l.contains(" multipv 2 ")), "{out}");

    let (code, out, err) = shishi(&[
        "analyse",
        "--game",
        game().to_str().unwrap(),
        "--ply",
        "10",
        "--depth",
        "3",
        "--hce",
    ]);
    assert_eq!(code, 0, "{err}");
    let original = record::read_file(&game(), &ReadOptions::default()).unwrap();
    let mut pos = original.game.start().clone();
    for mv in original.moves().into_iter().take(10) {
        pos.play(mv);
    }
    assert!(out.contains(&format!("sfen {}", pos.to_sfen())), "{out}");

    // The last line reported starts with the move played and the move pondered.
    let best = out
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap();
    let words: Vec<&str> = best.split_whitespace().collect();
    let last_pv = out
        .lines()
        .rfind(|l| l.starts_with("depth") && !l.contains("multipv"))
        .and_then(|l| l.split(" pv ").nth(1))
        .unwrap();
    let pv: Vec<&str> = last_pv.split_whitespace().collect();
    assert_eq!(pv[0], words[0], "{out}");
    if words.len() == 3 {
        assert_eq!(pv.get(1), Some(&words[2]), "{out}");
    }

    let (code, _, err) = shishi(&["analyse", "--moves", "7i7h 9z9z", "--depth", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("--moves, move 2"), "{err}");
    let (code, _, err) = shishi(&["analyse", "--game", game().to_str().unwrap(), "--ply", "51"]);
    assert_eq!(code, 2);
    assert!(err.contains("has 50 plies"), "{err}");
}
