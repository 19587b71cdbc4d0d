//! PGN as the real XBoard saves it (`results/xboard-*.pgn`, written by XBoard 4.9 in
//! scripts/xboard-vs-hachu.sh): shishi reads every game into legal moves, and writes each move
//! in the very notation XBoard used (`e5`, `Hfxf7`, `Nxi6-j7`, `Xb9+`, `+Bf5`, `fxf5`). The
//! other direction, XBoard loading what shishi writes, is scripts/xboard-pgn.sh.

use shishi::record::{self, Format, ReadOptions};
use shishi::rules::Preset;
use std::path::Path;

/// The games of a PGN file, split at their `[Event` tags.
fn games(path: &str) -> Vec<String> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap();
    text.split("[Event ")
        .skip(1)
        .map(|g| format!("[Event {g}"))
        .collect()
}

/// The move tokens of a game's movetext: no numbers, comments or result.
fn move_tokens(pgn: &str) -> Vec<String> {
    let body = pgn.split("\n\n").skip(1).collect::<Vec<_>>().join(" ");
    let mut out = Vec::new();
    let mut depth = 0;
    let mut word = String::new();
    for c in body.chars().chain(std::iter::once(' ')) {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            c if depth == 0 && !c.is_whitespace() => word.push(c),
            _ if depth == 0 => {
                let bare = word.trim_end_matches('.');
                let number = !bare.is_empty()
                    && bare.bytes().all(|b| b.is_ascii_digit())
                    && word.ends_with('.');
                let result = matches!(word.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*");
                if !word.is_empty() && !number && !result {
                    out.push(word.clone());
                }
                word.clear();
            }
            _ => {}
        }
    }
    out
}

fn read_and_rewrite(path: &str, preset: Preset) -> usize {
    let mut plies = 0;
    for (n, game) in games(path).iter().enumerate() {
        let options = ReadOptions {
            rules: preset.rules(),
            ..ReadOptions::default()
        };
        let file = record::read(game.as_bytes(), Some(Format::Pgn), &options)
            .unwrap_or_else(|e| panic!("{path} game {}: {e}", n + 1));
        let theirs = move_tokens(game);
        assert_eq!(file.game.plies(), theirs.len(), "{path} game {}", n + 1);
        let ours = move_tokens(&record::write(&file, Format::Pgn).unwrap());
        for (ply, (a, b)) in ours.iter().zip(&theirs).enumerate() {
            // XBoard writes `.` for a piece its table had no letter for (a promoted Heian lance
            // or knight before shishi's `setup` named them).
            if !b.starts_with('.') {
                assert_eq!(a, b, "{path} game {} ply {}", n + 1, ply + 1);
            }
        }
        plies += theirs.len();
    }
    plies
}

#[test]
fn chu_games_xboard_saved_read_and_are_written_in_xboards_notation() {
    // shishi played HaChu there under RuleSet hachu.
    assert!(read_and_rewrite("results/xboard-chu.pgn", Preset::Hachu) > 50);
}

#[test]
fn heian_games_xboard_saved_read_and_are_written_in_xboards_notation() {
    assert!(read_and_rewrite("results/xboard-heian.pgn", Preset::Lishogi) > 20);
}

/// Found by the fuzz smoke test: a `}` outside a comment made the reader push empty words
/// without end until memory ran out.
#[test]
fn a_closing_brace_without_its_comment_is_refused_with_its_line() {
    let text = "[Variant \"chu\"]\n\n1. e5 {+0.16/11} e8\n2. g5 N.2} 3. h5 *\n";
    let err = record::read(text.as_bytes(), Some(Format::Pgn), &ReadOptions::default())
        .err()
        .expect("refused");
    let message = err.to_string();
    assert!(
        message.contains("line 4") && message.contains("}"),
        "{message}"
    );
}

/// XBoard names a move among those that do not leave the mover's King attacked: two sente
/// Golds reach g3 (USI 6j), but the one on h2 (7k) shields the King on h1 (7l) from gote's
/// Dragon on h4 (7i), and XBoard's saved game wrote `Gg3` for the other. A square both Golds
/// reach safely stays ambiguous.
#[test]
fn xboard_san_names_a_move_among_those_that_keep_the_king_safe() {
    let sfen = "1c6+R2+A/1s1kte1N4/12/5g4+P1/12/12/3n8/3m8/5+g6/7G1S2/4TGE2T2/5K5L b - 345";
    let pgn = |moves: &str| {
        format!("[Variant \"chu\"]\n[FEN \"{sfen}\"]\n[SetUp \"1\"]\n\n173. {moves} *\n")
    };
    let read = |moves: &str| {
        record::read(
            pgn(moves).as_bytes(),
            Some(Format::Pgn),
            &ReadOptions::default(),
        )
    };
    let Ok(game) = read("Gg3") else {
        panic!("Gg3 names the Gold that does not shield the King");
    };
    let usi = record::write(&game, Format::Usi).unwrap();
    assert!(usi.trim_end().ends_with("moves 5j6j"), "{usi}");
    // With the Dragon gone, both Golds reach g3 safely: the SAN needs their file.
    let open = sfen.replace("5+g6", "12");
    let pgn_open = format!("[Variant \"chu\"]\n[FEN \"{open}\"]\n[SetUp \"1\"]\n\n173. Gg3 *\n");
    let err = record::read(
        pgn_open.as_bytes(),
        Some(Format::Pgn),
        &ReadOptions::default(),
    )
    .err()
    .expect("two Golds reach g3 safely");
    assert!(
        err.to_string().contains("more than one legal move"),
        "{err}"
    );
}
