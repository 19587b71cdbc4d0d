//! KIF against lishogi's rules library: the fixtures in tests/data/kif were written by shogiops
//! 0.18.0 in lishogi's layout (scalashogi `Kif.render`; scripts/research/kif-fixtures makes them) from 50
//! Chu games with lion double moves, igui, passes and promotions, with the position after every
//! ply as shogiops replays the moves. shishi must read every file into those positions, write
//! each game back byte for byte, read the Shift-JIS copy alike, and refuse bad records by line.

mod common;

use shishi::record::{self, Format, GameFile, ReadOptions};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kif")
}

/// shogiops' positions per game: the SFEN after each ply.
fn expected_positions() -> HashMap<String, Vec<String>> {
    let packed = std::fs::read(data().join("expected-sfens.txt.zst")).unwrap();
    let mut decoder = ruzstd::decoding::StreamingDecoder::new(packed.as_slice()).unwrap();
    let mut text = String::new();
    std::io::Read::read_to_string(&mut decoder, &mut text).unwrap();
    let mut games = HashMap::new();
    let mut name = String::new();
    for line in text.lines() {
        if let Some(n) = line.strip_prefix("# ") {
            name = n.to_string();
            games.insert(name.clone(), Vec::new());
        } else if !line.starts_with("plies ") {
            games.get_mut(&name).unwrap().push(line.to_string());
        }
    }
    games
}

fn kif_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(data())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "kif"))
        .collect();
    files.sort();
    files
}

fn read(path: &Path) -> GameFile {
    record::read_file(path, &ReadOptions::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The SFEN after each ply of `game`.
fn positions(game: &GameFile) -> Vec<String> {
    let mut pos = game.game.start().clone();
    let mut out = Vec::new();
    for mv in game.moves() {
        pos.play(mv);
        out.push(pos.to_sfen());
    }
    out
}

#[test]
fn fifty_lishogi_kif_games_read_into_the_positions_shogiops_replays() {
    let expected = expected_positions();
    let files = kif_files();
    assert!(files.len() >= 51, "{} fixtures", files.len());
    let (mut doubles, mut plies) = (0, 0);
    for path in &files {
        let stem = path.file_stem().unwrap().to_str().unwrap();
        let name = stem.trim_end_matches(".sjis");
        let game = read(path);
        let want = &expected[name];
        let got = positions(&game);
        assert_eq!(got.len(), want.len(), "{stem}: plies");
        for (ply, (g, w)) in got.iter().zip(want).enumerate() {
            // KIF keeps no counter-strike field of a start position; every position is
            // compared whole.
            assert_eq!(g, w, "{stem}: position after ply {}", ply + 1);
        }
        doubles += game.moves().iter().filter(|m| m.mid().is_some()).count();
        plies += got.len();
    }
    assert!(doubles > 300, "{doubles} double moves");
    assert!(plies > 9_000, "{plies} plies");
}

#[test]
fn kif_written_by_shishi_is_lishogis_byte_for_byte() {
    for path in kif_files() {
        let original = std::fs::read(&path).unwrap();
        let Ok(text) = String::from_utf8(original) else {
            continue; // the Shift-JIS copy
        };
        let game = read(&path);
        let written = record::write(&game, Format::Kif).unwrap();
        // lishogi's API adds blank lines after the record.
        let (mut ours, theirs): (Vec<&str>, Vec<&str>) = (
            written.trim_end().lines().collect(),
            text.trim_end().lines().collect(),
        );
        // kif.mjs writes a termination line only when told; lishogi (scalashogi's
        // createTerminationStep) writes 千日手 or 詰み for a game the rules ended so.
        if ours.len() == theirs.len() + 1 && game.game.outcome().is_some() {
            let last = ours.pop().unwrap_or_default();
            assert!(last.ends_with("千日手") || last.ends_with("詰み"), "{last}");
        }
        let first_difference = ours.iter().zip(&theirs).position(|(a, b)| a != b);
        assert!(
            first_difference.is_none() && ours.len() == theirs.len(),
            "{}: line {:?}: {:?} against lishogi's {:?} ({} and {} lines)",
            path.display(),
            first_difference.map(|i| i + 1),
            first_difference.map(|i| ours[i]),
            first_difference.map(|i| theirs[i]),
            ours.len(),
            theirs.len()
        );
    }
}

#[test]
fn the_moves_of_each_kif_are_its_usi_list() {
    for path in kif_files() {
        let game = read(&path);
        let stem = path.file_stem().unwrap().to_str().unwrap();
        let usi = data().join(format!("{}.usi", stem.trim_end_matches(".sjis")));
        let listed = read(&usi);
        assert_eq!(game.moves(), listed.moves(), "{stem}");
        assert_eq!(
            record::write(&game, Format::Usi).unwrap().trim(),
            std::fs::read_to_string(&usi).unwrap().trim(),
            "{stem}"
        );
    }
}

#[test]
fn kif_pgn_and_usi_convert_into_each_other_with_the_same_moves() {
    let files = kif_files();
    // Every seventh game, and every game from a diagram (gote to move at ply 1 among them).
    let chosen = files
        .iter()
        .enumerate()
        .filter(|(i, p)| i % 7 == 0 || p.to_str().unwrap().contains("chudiag"))
        .map(|(_, p)| p);
    for path in chosen {
        let game = read(path);
        for format in [Format::Pgn, Format::Usi, Format::Kif] {
            let text = record::write(&game, format).unwrap();
            let back = record::read(text.as_bytes(), Some(format), &ReadOptions::default())
                .unwrap_or_else(|e| panic!("{} as {format:?}: {e}", path.display()));
            assert_eq!(
                back.moves(),
                game.moves(),
                "{} as {format:?}",
                path.display()
            );
            assert_eq!(back.game.start().to_sfen(), game.game.start().to_sfen());
        }
    }
}

fn shishi(args: &[&str]) -> (i32, String) {
    let (code, out, err) = common::run_shishi(args);
    (code, out + &err)
}

/// Converts `bytes` (as FILE.kif) to a USI list: the exit code, the message, and whether an
/// output was written.
fn convert_bad(name: &str, bytes: &[u8]) -> (i32, String, bool) {
    let dir = std::env::temp_dir().join(format!("shishi-kif-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join(format!("{name}.kif"));
    let output = dir.join("out.usi");
    std::fs::write(&input, bytes).unwrap();
    let (code, text) = shishi(&[
        "convert",
        "--input",
        input.to_str().unwrap(),
        "--output",
        output.to_str().unwrap(),
    ]);
    let written = output.exists();
    std::fs::remove_dir_all(&dir).ok();
    (code, text, written)
}

fn fixture_text() -> String {
    let path = kif_files()
        .into_iter()
        .find(|p| p.to_str().unwrap().contains("chu01") && !p.to_str().unwrap().contains("sjis"))
        .unwrap();
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn bad_records_are_refused_by_line_and_nothing_is_written() {
    let text = fixture_text();
    // Cut inside a move line.
    let cut = text.find("  40手目").unwrap() + 9;
    let (code, msg, written) = convert_bad("truncated", &text.as_bytes()[..cut]);
    assert!(code != 0 && !written, "{msg}");
    assert!(
        msg.contains("line 47: ") && msg.contains("cut short"),
        "{msg}"
    );

    // Move 37 sent to a square its piece cannot reach.
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("  37手目"))
        .unwrap();
    let mut bad = lines.clone();
    let prefix = "  37手目   ";
    let rest = lines[at][prefix.len()..]
        .trim_start_matches(|c: char| c.is_ascii_digit() || "一二三四五六七八九十仝".contains(c));
    let illegal = format!("{prefix}1一{rest}");
    bad[at] = &illegal;
    let (code, msg, written) = convert_bad("illegal", bad.join("\n").as_bytes());
    assert!(code != 0 && !written, "{msg}");
    assert!(msg.contains(&format!("line {}: ", at + 1)), "{msg}");
    assert!(msg.contains("move 37"), "{msg}");

    // Bytes that are neither UTF-8 nor Shift-JIS.
    let mut garbled = text.as_bytes().to_vec();
    garbled.splice(10..10, [0xff, 0xfe, 0x80]);
    let (code, msg, written) = convert_bad("encoding", &garbled);
    assert!(code != 0 && !written, "{msg}");
    assert!(msg.contains("neither UTF-8 nor Shift-JIS"), "{msg}");

    // A 10x10 board is no board of these games.
    let mut diagram = String::from(" １０ ９  ８  ７  ６  ５  ４  ３  ２  １\n+");
    diagram.push_str(&"-".repeat(40));
    diagram.push_str("+\n");
    for rank in ["一", "二", "三", "四", "五", "六", "七", "八", "九", "十"] {
        diagram.push('|');
        diagram.push_str(&"  ・".repeat(10));
        diagram.push_str(&format!("|{rank}\n"));
    }
    let (code, msg, written) =
        convert_bad("board", format!("{diagram}手数----指手--\n").as_bytes());
    assert!(code != 0 && !written, "{msg}");
    assert!(msg.contains("10x10") && msg.contains("line 3"), "{msg}");

    // A piece name that is not the piece on the origin.
    let first = lines
        .iter()
        .position(|l| l.starts_with("   1手目"))
        .unwrap();
    let mut renamed = lines.clone();
    let swapped = lines[first].replacen("仲人", "飛車", 1);
    renamed[first] = &swapped;
    let (code, msg, written) = convert_bad("name", renamed.join("\n").as_bytes());
    assert!(code != 0 && !written, "{msg}");
    assert!(msg.contains("not 飛車"), "{msg}");

    // An empty file (or blank lines only) is no game of no moves.
    for (name, bytes) in [("empty", &b""[..]), ("blank", &b"\r\n \n"[..])] {
        let (code, msg, written) = convert_bad(name, bytes);
        assert!(code != 0 && !written, "{msg}");
        assert!(msg.contains("empty: no game record"), "{msg}");
    }
}

#[test]
fn older_spellings_read_as_lishogis() {
    let text = fixture_text();
    let game = record::read(text.as_bytes(), Some(Format::Kif), &ReadOptions::default()).unwrap();
    // 同 for 仝, ▲/△ before the moves, numbers without 手目, full-width spaces.
    let mut older = String::new();
    for line in text.lines() {
        let line = line.replace('仝', "同");
        let line = match line.find("手目") {
            Some(at) if !line.contains("歩目") => {
                let number: u32 = line[..at].trim().parse().unwrap_or(0);
                let mark = if number % 2 == 1 { "▲" } else { "△" };
                format!(
                    "{:>4} {mark}{}",
                    number,
                    line[at + "手目".len()..].trim_start()
                )
            }
            _ => line,
        };
        older.push_str(&line);
        older.push('\n');
    }
    let back = record::read(older.as_bytes(), Some(Format::Kif), &ReadOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.moves(), game.moves());
}
