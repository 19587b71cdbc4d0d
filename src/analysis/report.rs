//! A searched game judged: one report per move (its evaluation from both views, the best move
//! and line from the position before it, its judgment), per side summaries, and the game's
//! record annotated with them (comments and judgments that KIF and PGN writers carry), or JSON.

use super::accuracy::{side_summary, SideSummary};
use super::chances::{judgment, Eval};
use super::search_position::PositionEval;
use crate::board::Color;
use crate::moves::Move;
use crate::notation::{write_move, Notation};
use crate::position::Position;
use crate::record::{GameFile, Glyph};
use serde_json::{json, Value};

/// One move of the game, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct PlyReport {
    /// The ply, from 1.
    pub ply: usize,
    /// Who played it.
    pub mover: Color,
    /// The move played (USI).
    pub played: String,
    /// The engine's best move in the position before it (USI), when it had one.
    pub best: Option<String>,
    /// The engine's line from the position before the move (USI).
    pub best_line: Vec<String>,
    /// The evaluation after the move, sente's view.
    pub eval: Eval,
    /// The evaluation before the move, sente's view.
    pub eval_before: Eval,
    /// The depth of the search after the move.
    pub depth: u32,
    /// The judgment of the move.
    pub judgment: Option<Glyph>,
}

/// A game's analysis.
#[derive(Clone, Debug)]
pub struct GameAnalysis {
    /// One report per move.
    pub plies: Vec<PlyReport>,
    /// Sente's summary.
    pub sente: SideSummary,
    /// Gote's summary.
    pub gote: SideSummary,
}

fn line_text(pos: &Position, line: &[Move]) -> Vec<String> {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for &mv in line {
        if !pos.is_legal(mv) {
            break;
        }
        out.push(write_move(&pos, mv, Notation::Usi));
        pos.play(mv);
    }
    out
}

impl GameAnalysis {
    /// Judges `game` from its searched positions: `evals[k]` is the search after `k` plies
    /// (one more than the moves). A move the engine itself chose as best is never judged.
    pub fn judge(game: &GameFile, evals: &[PositionEval]) -> GameAnalysis {
        let mut pos = game.game.start().clone();
        let mut plies = Vec::new();
        for (i, mv) in game.moves().into_iter().enumerate() {
            let (before, after) = (&evals[i], &evals[i + 1]);
            let mover = pos.side_to_move();
            let played = write_move(&pos, mv, Notation::Usi);
            let best = before.best.map(|b| write_move(&pos, b, Notation::Usi));
            let chose_best = before.best == Some(mv);
            plies.push(PlyReport {
                ply: i + 1,
                mover,
                best_line: line_text(&pos, &before.pv),
                best,
                played,
                eval: after.eval,
                eval_before: before.eval,
                depth: after.depth,
                judgment: if chose_best {
                    None
                } else {
                    judgment(before.eval, after.eval, mover)
                },
            });
            pos.play(mv);
        }
        let all: Vec<Eval> = evals.iter().map(|e| e.eval).collect();
        let movers: Vec<Color> = plies.iter().map(|p| p.mover).collect();
        let glyphs: Vec<Option<Glyph>> = plies.iter().map(|p| p.judgment).collect();
        GameAnalysis {
            sente: side_summary(&all, &movers, &glyphs, Color::Sente),
            gote: side_summary(&all, &movers, &glyphs, Color::Gote),
            plies,
        }
    }

    /// Writes the analysis into `game`: each move's evaluation as a `[%eval]` comment, and for a
    /// judged move its judgment and the best move.
    pub fn annotate(&self, game: &mut GameFile) {
        for report in &self.plies {
            let i = report.ply - 1;
            let (Some(comments), Some(glyph)) = (game.comments.get_mut(i), game.glyphs.get_mut(i))
            else {
                continue;
            };
            comments.push(format!("[%eval {}]", eval_tag(report.eval)));
            if let Some(judged) = report.judgment {
                *glyph = Some(judged);
                let best = report.best.as_deref().unwrap_or("-");
                comments.push(format!(
                    "({} → {}) {}. {best} was best: {}",
                    eval_words(report.eval_before),
                    eval_words(report.eval),
                    capitalised(judged.word()),
                    report.best_line.join(" ")
                ));
            }
        }
        game.start_comments.push(self.sente.line("sente"));
        game.start_comments.push(self.gote.line("gote"));
    }

    /// The JSON for tools: settings, the summaries and one object per move.
    pub fn to_json(&self, game: &GameFile, settings: Value) -> Value {
        let side = |s: &SideSummary| {
            json!({
                "moves": s.moves,
                "acpl": s.acpl,
                "accuracy": s.accuracy().map(|a| (a * 10.0).round() / 10.0),
                "inaccuracies": s.inaccuracies,
                "mistakes": s.mistakes,
                "blunders": s.blunders,
            })
        };
        let plies: Vec<Value> = self
            .plies
            .iter()
            .map(|p| {
                let mut entry = json!({
                    "ply": p.ply,
                    "color": p.mover.name(),
                    "move": p.played,
                    "best": p.best,
                    "best_line": p.best_line,
                    "depth": p.depth,
                    "judgment": p.judgment.map(Glyph::word),
                });
                put_eval(&mut entry, "", p.eval);
                put_eval(&mut entry, "mover_", p.eval.for_side(p.mover));
                entry
            })
            .collect();
        json!({
            "variant": game.variant().name(),
            "start": game.game.start().to_sfen(),
            "sente": game.tags.sente,
            "gote": game.tags.gote,
            "result": game.outcome().map(|o| o.score()),
            "settings": settings,
            "summary": { "sente": side(&self.sente), "gote": side(&self.gote) },
            "plies": plies,
        })
    }
}

/// Sets `{prefix}cp` or `{prefix}mate` (plies; a finished game: `{prefix}result`).
fn put_eval(entry: &mut Value, prefix: &str, eval: Eval) {
    let (key, value) = match eval {
        Eval::Cp(cp) => ("cp", json!(cp)),
        Eval::Mate(n) => ("mate", json!(n)),
        Eval::Over(winner) => (
            "result",
            json!(winner.map_or("draw".to_string(), |w| format!("{} wins", w.name()))),
        ),
    };
    if let Some(map) = entry.as_object_mut() {
        map.insert(format!("{prefix}{key}"), value);
    }
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// `[%eval]`'s value: pawns with two decimals, or `#N` for a mate in N plies.
fn eval_tag(eval: Eval) -> String {
    match eval {
        Eval::Cp(cp) => format!("{:.2}", f64::from(cp) / 100.0),
        Eval::Mate(n) => format!("#{n}"),
        Eval::Over(Some(Color::Sente)) => "#0".to_string(),
        Eval::Over(Some(Color::Gote)) => "#-0".to_string(),
        Eval::Over(None) => "0.00".to_string(),
    }
}

/// An evaluation in words for comments.
fn eval_words(eval: Eval) -> String {
    match eval {
        Eval::Mate(n) => format!("mate in {n}"),
        Eval::Over(Some(w)) => format!("{} won", w.name()),
        other => eval_tag(other),
    }
}
