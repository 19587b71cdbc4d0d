//! PGN records of match games, as XBoard reads variant games: `[Variant]` with XBoard's name
//! (`chu`, `heian`...), `[SetUp "1"]` and `[FEN]` with the opening's SFEN, the moves in lishogi
//! USI, `[Result]`, `[Termination]` and a closing comment saying what ended the game.

use super::play_game::PlayedGame;
use crate::board::{Color, Variant};
use crate::position::OutcomeReason;

/// The names and numbers a record needs besides the game itself.
pub struct RecordInfo<'a> {
    pub event: &'a str,
    pub round: usize,
    pub variant: Variant,
    pub sente: &'a str,
    pub gote: &'a str,
    pub time_control: &'a str,
}

/// PGN's standard termination words.
fn termination(reason: OutcomeReason) -> &'static str {
    match reason {
        OutcomeReason::Timeout => "time forfeit",
        OutcomeReason::IllegalMove => "rules infraction",
        OutcomeReason::Crash => "abandoned",
        OutcomeReason::Adjudication => "adjudication",
        _ => "normal",
    }
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

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
    tag(&mut out, "TimeControl", info.time_control);
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
    use crate::position::Outcome;

    #[test]
    fn record_has_the_tags_and_numbered_moves() {
        let game = PlayedGame {
            opening_sfen: Variant::Heian.start_sfen().to_string(),
            moves: vec!["7g7f".into(), "3c3d".into(), "8h2b+".into()],
            outcome: Outcome::win(Color::Sente, OutcomeReason::Resignation),
            detail: "B resigned".into(),
            broken: [false; 2],
        };
        let info = RecordInfo {
            event: "t",
            round: 3,
            variant: Variant::Heian,
            sente: "A",
            gote: "B \"x\"",
            time_control: "10+0.1",
        };
        let pgn = write_record(&info, &game);
        assert!(pgn.contains("[Variant \"heian\"]"));
        assert!(pgn.contains("[Black \"B \\\"x\\\"\"]"));
        assert!(
            pgn.contains("1. 7g7f 3c3d 2. 8h2b+ {B resigned} 1-0"),
            "{pgn}"
        );
    }
}
