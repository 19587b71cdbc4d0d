//! Two commands beyond USI, for the browser's analysis page and any GUI that wants them:
//! `loadgame "<record>"` makes a game record (KIF, PGN or USI move list, its text as one JSON
//! string) the session's game, and `annotate [movetime MS | nodes N | depth D]` analyses every
//! position of the session's game as `shishi annotate` does, ending with the analysis as JSON.

use super::emit;
use super::session::Core;
use crate::analysis::{search_position, GameAnalysis, PositionEval};
use crate::platform::StopSignal;
use crate::record::{self, GameFile, ReadOptions};
use crate::search::{Control, Engine, Limits};
use std::sync::Arc;
use std::time::Duration;

/// The longest record `loadgame` takes.
const MAX_RECORD_CHARS: usize = 4 << 20;

/// `loadgame`: reads the record and makes it the session's game (switching the variant when
/// the record is of another); returns the line describing it.
pub(super) fn load_game(core: &mut Core, arg: &str) -> Result<String, String> {
    if arg.len() > MAX_RECORD_CHARS {
        return Err(format!(
            "loadgame: a record of {} bytes is too long",
            arg.len()
        ));
    }
    let text: String = serde_json::from_str(arg.trim())
        .map_err(|e| format!("loadgame takes the record as one JSON string: {e}"))?;
    let options = ReadOptions {
        variant: core.settings().variant,
        rules: core.settings().rules,
    };
    let file =
        record::read(text.as_bytes(), None, &options).map_err(|e| format!("loadgame: {e}"))?;
    let variant = file.variant();
    core.set_variant(variant);
    let mut line = format!(
        "info string game variant {} sfen {}",
        variant.name(),
        file.game.start().to_sfen()
    );
    let moves = usi_moves(&file);
    if !moves.is_empty() {
        line.push_str(" moves ");
        line.push_str(&moves.join(" "));
    }
    core.set_game(file.game);
    Ok(line)
}

fn usi_moves(file: &GameFile) -> Vec<String> {
    let mut pos = file.game.start().clone();
    file.moves()
        .into_iter()
        .map(|mv| {
            let text = crate::notation::write_move(&pos, mv, crate::notation::Notation::Usi);
            pos.play(mv);
            text
        })
        .collect()
}

/// The limits `annotate` takes: `movetime MS` (default 1000), `nodes N` or `depth D`.
fn annotate_limits(args: &[&str]) -> Result<(Limits, serde_json::Value), String> {
    let usage = "annotate takes movetime MS, nodes N or depth D";
    let (word, value) = match args {
        [] => ("movetime", 1000u64),
        [word, value] => (
            *word,
            value
                .parse::<u64>()
                .ok()
                .filter(|&v| (1..=86_400_000).contains(&v))
                .ok_or_else(|| format!("{usage}: '{value}' is no number from 1 to 86400000"))?,
        ),
        _ => return Err(usage.to_string()),
    };
    let limits = match word {
        "movetime" => Limits {
            movetime: Some(Duration::from_millis(value)),
            ..Limits::default()
        },
        "nodes" => Limits {
            nodes: Some(value),
            ..Limits::default()
        },
        "depth" if value <= 100 => Limits {
            depth: Some(value as u32),
            ..Limits::default()
        },
        _ => return Err(usage.to_string()),
    };
    Ok((limits, serde_json::json!({ word: value })))
}

/// The work of `annotate` on the session's game: search every position (one search thread,
/// the session's hash and evaluation), reporting `info string annotate start N positions` and
/// `info string annotate position K of N`, then
/// judge the game; its last line is `info string annotation <json>`. The stop signal ends it
/// early with `info string annotate stopped`.
pub(super) fn annotate_work(
    core: &Core,
    args: &[&str],
) -> Result<impl FnOnce(Arc<StopSignal>) -> Vec<String> + Send + 'static, String> {
    let (limits, settings) = annotate_limits(args)?;
    let game = core.game().clone();
    let mut options = core.settings().engine.clone();
    options.threads = 1;
    options.multipv = 1;
    Ok(move |stop: Arc<StopSignal>| {
        let mut file = GameFile::new(game.start().clone());
        for mv in game.moves() {
            if file.push(mv, None).is_err() {
                return vec!["info string error annotate: the game does not replay".to_string()];
            }
        }
        let mut engine = Engine::new(options);
        let mut pos = game.start().clone();
        let moves = file.moves();
        let total = moves.len() + 1;
        emit(&format!("info string annotate start {total} positions"));
        let mut evals = Vec::with_capacity(total);
        for k in 0..total {
            if stop.is_set() {
                return vec!["info string annotate stopped".to_string()];
            }
            if k > 0 {
                pos.play(moves[k - 1]);
            }
            let found = match game.outcome() {
                Some(outcome) if k + 1 == total => PositionEval::over(outcome.winner),
                _ => {
                    let signal = Arc::clone(&stop);
                    let poll = Box::new(move |control: &Control| {
                        if signal.is_set() {
                            control.stop();
                        }
                    });
                    search_position(&mut engine, &pos, limits.clone(), poll)
                }
            };
            evals.push(found);
            emit(&format!(
                "info string annotate position {} of {total}",
                k + 1
            ));
        }
        if stop.is_set() {
            return vec!["info string annotate stopped".to_string()];
        }
        let analysis = GameAnalysis::judge(&file, &evals);
        let json = analysis.to_json(&file, settings);
        vec![format!("info string annotation {json}")]
    })
}
