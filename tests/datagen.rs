//! `shishi datagen` as a user runs it: tiny Heian 8x8 runs (300 nodes a move) whose files must
//! read back as records, repeat exactly under a fixed seed whatever the thread count, resume to
//! what one uninterrupted run writes, and survive a run killed in the middle of a block.

use shishi::training::record::Record;
use shishi::Color;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh path in the temporary directory for `name`.
fn temp_file(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("shishi-datagen-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

/// Runs `shishi datagen` on `out` with a small fixed setting, `extra` (flag, value) pairs
/// replacing or adding to it; returns exit code, stdout and stderr.
fn datagen(out: &Path, games: usize, extra: &[&str]) -> (i32, String, String) {
    let games = games.to_string();
    let mut settings: Vec<(&str, &str)> = vec![
        ("--variant", "heian8x8"),
        ("--nodes", "300"),
        ("--threads", "1"),
        ("--hash", "2"),
        ("--seed", "7"),
        ("--games", &games),
        ("--out", out.to_str().unwrap()),
    ];
    for pair in extra.chunks(2) {
        match settings.iter_mut().find(|(flag, _)| *flag == pair[0]) {
            Some(setting) => setting.1 = pair[1],
            None => settings.push((pair[0], pair[1])),
        }
    }
    let output = Command::new(env!("CARGO_BIN_EXE_shishi"))
        .arg("datagen")
        .args(settings.iter().flat_map(|&(flag, value)| [flag, value]))
        .output()
        .expect("binary runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn generate(out: &Path, games: usize, extra: &[&str]) -> String {
    let (code, stdout, stderr) = datagen(out, games, extra);
    assert_eq!(code, 0, "stdout {stdout} stderr {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    std::fs::read_to_string(out).unwrap()
}

fn count_lines_starting(text: &str, prefix: &str) -> usize {
    text.lines().filter(|l| l.starts_with(prefix)).count()
}

#[test]
fn every_line_is_a_record_or_a_block_comment_and_no_position_is_in_check() {
    let out = temp_file("records");
    let text = generate(&out, 2, &[]);
    assert_eq!(count_lines_starting(&text, "# game "), 2);
    assert_eq!(count_lines_starting(&text, "# end game "), 2);
    let mut records = 0;
    for line in text.lines() {
        if Record::is_comment(line) {
            continue;
        }
        let record = Record::parse(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        let pos = record.position();
        assert!(
            !pos.in_check(Color::Sente) && !pos.in_check(Color::Gote),
            "{line}"
        );
        assert!(record.score.abs() <= 3000, "{line}");
        records += 1;
    }
    assert!(records > 0, "{text}");
    let _ = std::fs::remove_file(out);
}

#[test]
fn a_fixed_seed_repeats_the_file_whatever_the_thread_count() {
    let (one, again, two_threads) = (
        temp_file("seed-a"),
        temp_file("seed-b"),
        temp_file("seed-c"),
    );
    let first = generate(&one, 2, &[]);
    assert_eq!(generate(&again, 2, &[]), first);
    assert_eq!(generate(&two_threads, 2, &["--threads", "2"]), first);
    let other_seed = temp_file("seed-d");
    assert_ne!(generate(&other_seed, 2, &["--seed", "8"]), first);
    for path in [one, again, two_threads, other_seed] {
        let _ = std::fs::remove_file(path);
    }
}

#[test]
fn a_resumed_run_adds_only_the_missing_games_and_writes_what_one_run_would() {
    let resumed = temp_file("resume-a");
    let two = generate(&resumed, 2, &[]);
    let three = generate(&resumed, 3, &[]);
    assert!(three.starts_with(&two));
    assert_eq!(count_lines_starting(&three, "# game "), 3);
    let direct = temp_file("resume-b");
    assert_eq!(generate(&direct, 3, &[]), three);
    // A file already holding the games is left alone.
    let (code, stdout, _) = datagen(&resumed, 3, &[]);
    assert_eq!(code, 0);
    assert!(stdout.contains("0 games"), "{stdout}");
    assert_eq!(std::fs::read_to_string(&resumed).unwrap(), three);
    for path in [resumed, direct] {
        let _ = std::fs::remove_file(path);
    }
}

#[test]
fn a_run_killed_mid_block_resumes_cleanly() {
    let full = temp_file("killed-a");
    let whole = generate(&full, 2, &[]);
    let second_block = whole.rfind("# game ").unwrap();
    let killed = temp_file("killed-b");
    for cut in [
        second_block + 3,
        second_block + (whole.len() - second_block) / 2,
        whole.len() - 1,
    ] {
        std::fs::write(&killed, &whole[..cut]).unwrap();
        let (code, stdout, stderr) = datagen(&killed, 2, &[]);
        assert_eq!(code, 0, "cut at {cut}: {stdout} {stderr}");
        assert!(stderr.contains("incomplete"), "{stderr}");
        assert_eq!(std::fs::read_to_string(&killed).unwrap(), whole);
    }
    for path in [full, killed] {
        let _ = std::fs::remove_file(path);
    }
}

#[test]
fn a_file_datagen_did_not_write_is_refused_and_left_alone() {
    let foreign = temp_file("foreign");
    let text = "some notes\nthat are not training data\n";
    std::fs::write(&foreign, text).unwrap();
    let (code, _, stderr) = datagen(&foreign, 1, &[]);
    assert_eq!(code, 2);
    assert!(stderr.contains("not a datagen file"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&foreign).unwrap(), text);
    let _ = std::fs::remove_file(foreign);
}

#[test]
fn bad_options_are_one_line_errors() {
    let out = temp_file("bad-options");
    for (extra, needle) in [
        (&["--variant", "heian,shogi"][..], "unknown variant 'shogi'"),
        (&["--nodes", "0"][..], "--nodes"),
        (&["--threads", "0"][..], "--threads"),
        (&["--max-plies", "5"][..], "--max-plies"),
        (&["--random-plies", "1000"][..], "--random-plies"),
    ] {
        let (code, stdout, stderr) = datagen(&out, 1, extra);
        assert_eq!(code, 2, "{extra:?}: {stdout} {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{extra:?}: {stderr}");
        assert!(stderr.contains(needle), "{extra:?}: {stderr}");
    }
    let (code, _, stderr) = datagen(&out, 0, &[]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--games"), "{stderr}");
    assert!(!out.exists(), "a refused run creates no file");
}

#[test]
fn shards_concatenated_in_order_are_the_whole_run() {
    // Two variants so that a shard starting at an odd game must keep the run's variant cycle.
    let variants = ["--variant", "heian8x8,heian9x8"];
    let whole = generate(&temp_file("whole"), 5, &variants);
    let mut joined = String::new();
    for shard in ["0/3", "1/3", "2/3"] {
        let out = temp_file(&format!("shard-{}", &shard[..1]));
        let extra = [variants[0], variants[1], "--shard", shard];
        joined.push_str(&generate(&out, 5, &extra));
    }
    assert_eq!(count_lines_starting(&whole, "# end game"), 5);
    assert_eq!(joined, whole);
    let (code, _, stderr) = datagen(&temp_file("bad-shard"), 5, &["--shard", "3/3"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--shard"), "{stderr}");
}

/// The record lines of a text data file.
fn record_lines(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| !Record::is_comment(l))
        .map(str::to_string)
        .collect()
}

fn convert(input: &Path, output: &Path) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_shishi"))
        .args(["convert", "--input", input.to_str().unwrap(), "--output"])
        .arg(output)
        .output()
        .expect("binary runs");
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn packed_games_hold_the_text_files_positions_in_a_fraction_of_the_bytes() {
    let text_file = temp_file("as-text.txt");
    let text = generate(&text_file, 4, &[]);
    let packed_file = temp_file("as-packed.spk");
    let (code, stdout, stderr) = datagen(&packed_file, 4, &[]);
    assert_eq!(code, 0, "{stdout} {stderr}");
    let packed = std::fs::read(&packed_file).unwrap();
    assert!(packed.starts_with(b"SHPG"));
    // Replayed, the packed games give exactly the text file's records.
    let back = temp_file("back.txt");
    let (code, err) = convert(&packed_file, &back);
    assert_eq!(code, 0, "{err}");
    let converted = std::fs::read_to_string(&back).unwrap();
    assert_eq!(record_lines(&converted), record_lines(&text));
    assert!(
        packed.len() * 4 < text.len(),
        "{} vs {} bytes",
        packed.len(),
        text.len()
    );
    // Text to packed and back keeps every record.
    let repacked = temp_file("repacked.spk");
    assert_eq!(convert(&text_file, &repacked).0, 0);
    let again = temp_file("again.txt");
    assert_eq!(convert(&repacked, &again).0, 0);
    assert_eq!(
        record_lines(&std::fs::read_to_string(&again).unwrap()),
        record_lines(&text)
    );
}

#[test]
fn a_packed_run_resumes_after_a_kill_and_shards_concatenate() {
    let whole_file = temp_file("whole.spk");
    assert_eq!(datagen(&whole_file, 4, &[]).0, 0);
    let whole = std::fs::read(&whole_file).unwrap();
    // A run killed inside its third block: the partial block is cut off and the run resumed.
    let cut_file = temp_file("cut.spk");
    assert_eq!(datagen(&cut_file, 3, &[]).0, 0);
    let three = std::fs::read(&cut_file).unwrap();
    std::fs::write(&cut_file, &three[..three.len() - 7]).unwrap();
    let (code, stdout, stderr) = datagen(&cut_file, 4, &[]);
    assert_eq!(code, 0, "{stdout} {stderr}");
    assert!(stderr.contains("incomplete"), "{stderr}");
    assert_eq!(std::fs::read(&cut_file).unwrap(), whole);
    let mut joined = Vec::new();
    for shard in ["0/2", "1/2"] {
        let out = temp_file(&format!("shard-{}.spk", &shard[..1]));
        assert_eq!(datagen(&out, 4, &["--shard", shard]).0, 0);
        joined.extend(std::fs::read(&out).unwrap());
    }
    assert_eq!(joined, whole);
    // A corrupt block is refused by name and the file left as it is.
    let mut corrupt = whole.clone();
    corrupt[40] ^= 0x55;
    std::fs::write(&cut_file, &corrupt).unwrap();
    let (code, _, stderr) = datagen(&cut_file, 6, &[]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("corrupt") || stderr.contains("byte"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&cut_file).unwrap(), corrupt);
}

/// A Heian 8x8 match record as `shishi match --pgn` writes one: shishi is gote and wins.
const MATCH_PGN: &str = r#"[Event "shishi match"]
[Round "1"]
[White "other"]
[Black "shishi"]
[Result "0-1"]
[Variant "heian8x8"]
[Termination "normal"]

1. 1f1e {+0.20/5 0.100s} 2c2d {+0.50/4 0.100s} 2. 1h1g {+9.00/5 0.100s}
1a1b {-0.30/3 0.100s} {other resigns} 0-1
"#;

#[test]
fn a_match_pgn_gives_the_engines_quiet_positions_with_the_games_result() {
    let pgn = temp_file("match.pgn");
    std::fs::write(&pgn, MATCH_PGN).unwrap();
    let out = temp_file("from-pgn.txt");
    let run = Command::new(env!("CARGO_BIN_EXE_shishi"))
        .args(["convert", "--engine", "shishi", "--input"])
        .arg(&pgn)
        .arg("--output")
        .arg(&out)
        .output()
        .expect("binary runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{stdout}");
    assert!(stdout.contains("1 games"), "{stdout}");
    let records: Vec<Record> = record_lines(&std::fs::read_to_string(&out).unwrap())
        .iter()
        .map(|l| Record::parse(l).unwrap())
        .collect();
    // Shishi's two scores, from sente's view; the opponent's are not on shishi's scale.
    assert_eq!(records.len(), 2);
    assert!(records[0].score < 0 && records[1].score > 0, "{records:?}");
    assert!(records.iter().all(|r| r.result.value() == 0.0));
    // A PGN needs to know whose scores to keep; other data takes no PGN options.
    let (code, err) = convert(&pgn, &temp_file("no-engine.txt"));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--engine"), "{err}");
    let run = Command::new(env!("CARGO_BIN_EXE_shishi"))
        .args(["convert", "--engine", "shishi", "--input"])
        .arg(&out)
        .arg("--output")
        .arg(temp_file("not-pgn.spk"))
        .output()
        .expect("binary runs");
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("not a PGN"));
}
