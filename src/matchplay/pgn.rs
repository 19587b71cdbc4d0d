//! PGN records of match games, as XBoard reads variant games: `[Variant]` with XBoard's name
//! (`chu`, `heian`...), `[SetUp "1"]` and `[FEN]` with the opening's SFEN, the moves in lishogi
//! USI, `[Result]`, `[Termination]` and a closing comment saying what ended the game.
//!
//! Each move carries cutechess's comment `{+0.35/12 1.234s}`: the mover's last score in pawns
//! from its own view (`+M5`/`-M5` for a mate in 5 moves, `0.00` for an even score), the depth,
//! and the time it used. With time odds the clocks go in `[WhiteTimeControl]` (sente) and
//! `[BlackTimeControl]` (gote), as cutechess writes them, instead of `[TimeControl]`.

use super::driver::MATE_SCORE;
use super::game_end::EndReason;
use super::play_game::{MoveNote, PlayedGame};
use crate::board::{Color, Variant};
use crate::position::OutcomeReason;

/// The names and numbers a record needs besides the game itself.
pub struct RecordInfo<'a> {
    /// `[Event]`: the match's name.
    pub event: &'a str,
    /// `[Round]`: the game's number.
    pub round: usize,
    /// The variant; `[Variant]` gets its XBoard name.
    pub variant: Variant,
    /// `[White]`: sente's engine (the first mover, as XBoard's white).
    pub sente: &'a str,
    /// `[Black]`: gote's engine.
    pub gote: &'a str,
    /// Each side's time control as written on the command line: sente's, then gote's.
    pub time_controls: [&'a str; 2],
}

/// PGN's standard termination words.
pub(super) fn termination(reason: EndReason) -> &'static str {
    match reason {
        EndReason::Timeout => "time forfeit",
        EndReason::Rules(OutcomeReason::IllegalMove) => "rules infraction",
        EndReason::Crash => "abandoned",
        EndReason::Adjudication => "adjudication",
        _ => "normal",
    }
}

/// `+0.35/12 1.234s`: score in pawns (or mate in moves), depth, time.
pub fn move_comment(note: &MoveNote) -> String {
    let mut out = String::new();
    if let Some(score) = note.score {
        let mate_plies = MATE_SCORE - score.abs();
        if mate_plies < 1000 {
            let moves = (mate_plies + 1) / 2;
            out.push_str(&format!("{}M{moves}", if score < 0 { "-" } else { "+" }));
        } else if score == 0 {
            out.push_str("0.00");
        } else {
            out.push_str(&format!("{:+.2}", score as f64 / 100.0));
        }
        if let Some(depth) = note.depth {
            out.push_str(&format!("/{depth}"));
        }
        out.push(' ');
    }
    out.push_str(&format!("{:.3}s", note.time.as_secs_f64()));
    out
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// One game's PGN record: tags, moves with their comments, result; ends with a blank line.
pub fn write_record(info: &RecordInfo, game: &PlayedGame) -> String {
    let mut out = String::new();
    let tag =
        |out: &mut String, k: &str, v: &str| out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
    tag(&mut out, "Event", info.event);
    tag(&mut out, "Site", "?");
    tag(&mut out, "Round", &info.round.to_string());
    tag(&mut out, "White", info.sente);
    tag(&mut out, "Black", info.gote);
    tag(&mut out, "Result", game.outcome.score());
    tag(&mut out, "Variant", info.variant.xboard_name());
    tag(&mut out, "SetUp", "1");
    tag(&mut out, "FEN", &game.opening_sfen);
    let [sente_tc, gote_tc] = info.time_controls;
    if sente_tc == gote_tc {
        tag(&mut out, "TimeControl", sente_tc);
    } else {
        tag(&mut out, "WhiteTimeControl", sente_tc);
        tag(&mut out, "BlackTimeControl", gote_tc);
    }
    tag(&mut out, "Termination", termination(game.outcome.reason));
    out.push('\n');
    let gote_first = game.opening_sfen.split_whitespace().nth(1) == Some("w");
    let mut line = String::new();
    let mut number = 1;
    for (i, mv) in game.moves.iter().enumerate() {
        let side = if (i % 2 == 0) != gote_first {
            Color::Sente
        } else {
            Color::Gote
        };
        if side == Color::Sente {
            line.push_str(&format!("{number}. "));
        } else if i == 0 {
            line.push_str(&format!("{number}... "));
        }
        line.push_str(mv);
        line.push(' ');
        if let Some(note) = game.notes.get(i) {
            line.push_str(&format!("{{{}}} ", move_comment(note)));
        }
        if side == Color::Gote {
            number += 1;
        }
        if line.len() > 70 {
            out.push_str(line.trim_end());
            out.push('\n');
            line.clear();
        }
    }
    line.push_str(&format!(
        "{{{}}} {}",
        game.detail.replace(['{', '}'], ""),
        game.outcome.score()
    ));
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matchplay::game_end::GameEnd;

    #[test]
    fn record_has_the_tags_and_numbered_moves() {
        let game = PlayedGame {
            opening_sfen: Variant::Heian.start_sfen().to_string(),
            moves: vec!["7g7f".into(), "3c3d".into(), "8h2b+".into()],
            notes: vec![
                note(Some(35), Some(12), 1234),
                note(Some(-MATE_SCORE + 9), Some(20), 50),
                note(None, None, 7),
            ],
            outcome: GameEnd::win(Color::Sente, EndReason::Resignation),
            detail: "B resigned".into(),
            broken: [false; 2],
        };
        let info = RecordInfo {
            event: "t",
            round: 3,
            variant: Variant::Heian,
            sente: "A",
            gote: "B \"x\"",
            time_controls: ["10+0.1", "1+0.01"],
        };
        let pgn = write_record(&info, &game);
        assert!(pgn.contains("[Variant \"heian\"]"));
        assert!(pgn.contains("[Black \"B \\\"x\\\"\"]"));
        assert!(pgn.contains("[WhiteTimeControl \"10+0.1\"]\n[BlackTimeControl \"1+0.01\"]"));
        assert!(!pgn.contains("[TimeControl"));
        assert!(
            pgn.contains("1. 7g7f {+0.35/12 1.234s} 3c3d {-M5/20 0.050s}"),
            "{pgn}"
        );
        assert!(pgn.contains("2. 8h2b+ {0.007s} {B resigned} 1-0"), "{pgn}");
    }

    fn note(score: Option<i32>, depth: Option<u32>, ms: u64) -> MoveNote {
        MoveNote {
            score,
            depth,
            time: std::time::Duration::from_millis(ms),
        }
    }

    #[test]
    fn move_comments_as_cutechess_writes_them() {
        assert_eq!(
            move_comment(&note(Some(-120), Some(7), 2500)),
            "-1.20/7 2.500s"
        );
        assert_eq!(move_comment(&note(Some(0), Some(1), 1)), "0.00/1 0.001s");
        assert_eq!(
            move_comment(&note(Some(MATE_SCORE - 1), Some(3), 0)),
            "+M1/3 0.000s"
        );
    }
}
