//! Engine-vs-engine matches for Chu and Heian Shogi.
//!
//! Design: each engine is a child process with its own reader thread (`process`), spoken to by
//! a protocol driver (`usi`, `xboard`) behind one `Driver` trait. A game (`play_game`) asks the
//! drivers for moves under per-engine clocks and lets shishi's own rules (`referee`) judge every
//! move and every ending; whatever goes wrong with an engine is charged to its side and the
//! match goes on, restarting that engine. `--concurrency` worker threads each own a pair of
//! engines and take games from a shared counter; the main thread collects results, prints
//! progress (`stats`: W-L-D, Elo, SPRT) and appends PGN records (`pgn`). Openings (`openings`)
//! are played twice, colours swapped.

pub mod driver;
pub mod openings;
pub mod pgn;
pub mod play_game;
pub mod process;
pub mod referee;
pub mod stats;
pub mod usi;
pub mod xboard;

use driver::{Driver, Failure, GameStart};
use openings::Opening;
use play_game::{play_game, GameRules, PlayedGame};
use process::EngineProcess;
use stats::{Sprt, SprtDecision, Tally};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::sync::Arc;
use std::thread;

use crate::board::Color;
use crate::position::{Outcome, OutcomeReason};

/// Which protocol to speak to an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Usi,
    Xboard,
    /// Try USI first (`usi` answered by `usiok`), then XBoard.
    Auto,
}

impl Protocol {
    pub fn from_name(name: &str) -> Option<Protocol> {
        match name.to_ascii_lowercase().as_str() {
            "usi" => Some(Protocol::Usi),
            "xboard" | "cecp" | "winboard" => Some(Protocol::Xboard),
            "auto" => Some(Protocol::Auto),
            _ => None,
        }
    }
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engine commands; statistics are from the first one's point of view.
    pub engines: [String; 2],
    /// The protocol of each engine.
    pub protocol: [Protocol; 2],
    pub games: usize,
    pub openings: Vec<Opening>,
    pub concurrency: usize,
    pub rules: GameRules,
    pub sprt: Option<Sprt>,
    /// Text of the time control for the PGN.
    pub time_control_text: String,
    /// Log every protocol line on stderr.
    pub debug: bool,
}

/// A finished game with its place in the match.
pub struct MatchGame {
    pub index: usize,
    /// The colour the first engine played.
    pub first_color: Color,
    pub names: [String; 2],
    pub game: PlayedGame,
}

/// What the main thread learns as the match runs.
pub struct MatchSummary {
    pub tally: Tally,
    pub sprt_decision: Option<SprtDecision>,
    /// Failures charged to each engine: illegal moves, crashes, time losses.
    pub failures: [[u32; 3]; 2],
    pub games: Vec<MatchGame>,
}

/// Starts an engine and connects its driver.
pub fn connect(command: &str, protocol: Protocol, debug: bool) -> Result<Box<dyn Driver>, Failure> {
    let start = || EngineProcess::start(command, debug).map_err(Failure::Crash);
    match protocol {
        Protocol::Usi => usi::UsiDriver::connect(start()?)
            .map(|d| Box::new(d) as Box<dyn Driver>)
            .map_err(|(_, f)| f),
        Protocol::Xboard => xboard::XboardDriver::connect(start()?)
            .map(|d| Box::new(d) as Box<dyn Driver>)
            .map_err(|(_, f)| f),
        Protocol::Auto => match usi::UsiDriver::connect(start()?) {
            Ok(d) => Ok(Box::new(d)),
            Err((mut p, _)) => {
                p.stop("quit");
                connect(command, Protocol::Xboard, debug)
            }
        },
    }
}

/// The game number `index` of the match: its opening and the first engine's colour.
pub fn schedule(index: usize, openings: usize) -> (usize, Color) {
    let colour = if index.is_multiple_of(2) {
        Color::Sente
    } else {
        Color::Gote
    };
    ((index / 2) % openings, colour)
}

/// A game lost before it began because an engine would not start.
fn forfeit(opening: &Opening, loser: Color, why: String) -> PlayedGame {
    let mut broken = [false; 2];
    broken[loser.index()] = true;
    PlayedGame {
        opening_sfen: opening.sfen.clone(),
        moves: Vec::new(),
        outcome: Outcome::win(!loser, OutcomeReason::Crash),
        detail: why,
        broken,
    }
}

/// Plays games from the shared counter on one thread, sending each result on `results`.
fn worker(
    config: &MatchConfig,
    next: &AtomicUsize,
    stop: &AtomicBool,
    results: std::sync::mpsc::Sender<MatchGame>,
) {
    let mut drivers: [Option<Box<dyn Driver>>; 2] = [None, None];
    loop {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let index = next.fetch_add(1, Ordering::SeqCst);
        if index >= config.games {
            break;
        }
        let (opening_index, first_color) = schedule(index, config.openings.len());
        let opening = &config.openings[opening_index];
        let mut failed_start = None;
        for (e, driver) in drivers.iter_mut().enumerate() {
            if driver.is_none() {
                match connect(&config.engines[e], config.protocol[e], config.debug) {
                    Ok(d) => *driver = Some(d),
                    Err(f) => {
                        failed_start = Some((e, f));
                        break;
                    }
                }
            }
        }
        let names = [0, 1].map(|e| {
            drivers[e]
                .as_ref()
                .map_or_else(|| config.engines[e].clone(), |d| d.name().to_string())
        });
        let names = distinct_names(names);
        let color_of = |e: usize| if e == 0 { first_color } else { !first_color };
        let game = match failed_start {
            Some((e, f)) => forfeit(
                opening,
                color_of(e),
                format!("{} did not start: {f:?}", config.engines[e]),
            ),
            None => {
                let [a, b] = &mut drivers;
                let (a, b) = (
                    a.as_deref_mut().expect("connected"),
                    b.as_deref_mut().expect("connected"),
                );
                let engines: [&mut dyn Driver; 2] = if first_color == Color::Sente {
                    [a, b]
                } else {
                    [b, a]
                };
                play_game(engines, &config.rules, opening)
            }
        };
        for (e, driver) in drivers.iter_mut().enumerate() {
            if game.broken[color_of(e).index()] {
                if let Some(mut d) = driver.take() {
                    d.quit();
                }
            }
        }
        let done = MatchGame {
            index,
            first_color,
            names,
            game,
        };
        if results.send(done).is_err() {
            break;
        }
    }
    for d in drivers.iter_mut().flatten() {
        d.quit();
    }
}

/// Two engines that give the same name (an engine against an older build of itself) are told
/// apart by their order on the command line, in the progress lines, the table and the PGN.
fn distinct_names([first, second]: [String; 2]) -> [String; 2] {
    if first == second {
        [format!("{first} (1)"), format!("{second} (2)")]
    } else {
        [first, second]
    }
}

fn failure_slot(reason: OutcomeReason) -> Option<usize> {
    match reason {
        OutcomeReason::IllegalMove => Some(0),
        OutcomeReason::Crash => Some(1),
        OutcomeReason::Timeout => Some(2),
        _ => None,
    }
}

/// Plays the match, reporting progress on `progress` and each game to `on_game` (the PGN).
pub fn run_match(
    config: &MatchConfig,
    progress: &mut dyn Write,
    on_game: &mut dyn FnMut(&MatchGame),
) -> MatchSummary {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = channel();
    let mut summary = MatchSummary {
        tally: Tally::default(),
        sprt_decision: None,
        failures: [[0; 3]; 2],
        games: Vec::new(),
    };
    let config_shared = Arc::new(config.clone());
    thread::scope(|scope| {
        for _ in 0..config.concurrency.max(1) {
            let tx = tx.clone();
            let (cfg, next, stop) = (&config_shared, &next, &stop);
            scope.spawn(move || worker(cfg, next, stop, tx));
        }
        drop(tx);
        for done in rx {
            let outcome = done.game.outcome;
            match outcome.winner {
                None => summary.tally.draws += 1,
                Some(w) if w == done.first_color => summary.tally.wins += 1,
                Some(_) => summary.tally.losses += 1,
            }
            if let (Some(winner), Some(slot)) = (outcome.winner, failure_slot(outcome.reason)) {
                let loser_engine = if !winner == done.first_color { 0 } else { 1 };
                summary.failures[loser_engine][slot] += 1;
            }
            on_game(&done);
            let _ = write!(
                progress,
                "game {} ({} vs {}): {} {}\n  {}",
                done.index + 1,
                if done.first_color == Color::Sente {
                    &done.names[0]
                } else {
                    &done.names[1]
                },
                if done.first_color == Color::Sente {
                    &done.names[1]
                } else {
                    &done.names[0]
                },
                outcome.score(),
                done.game.detail,
                summary.tally
            );
            if let Some(sprt) = &config.sprt {
                let (lo, hi) = sprt.bounds();
                let _ = write!(
                    progress,
                    ", LLR {:.2} [{:.2}, {:.2}]",
                    summary.tally.llr(sprt),
                    lo,
                    hi
                );
                if summary.sprt_decision.is_none() {
                    summary.sprt_decision = sprt.decision(&summary.tally);
                    if summary.sprt_decision.is_some() {
                        stop.store(true, Ordering::SeqCst);
                    }
                }
            }
            let _ = writeln!(progress);
            summary.games.push(done);
        }
    });
    summary
}

/// The final table.
pub fn summary_table(config: &MatchConfig, summary: &MatchSummary) -> String {
    let names: Vec<String> = [0, 1]
        .map(|e| {
            summary
                .games
                .iter()
                .map(|g| g.names[e].clone())
                .next()
                .unwrap_or_else(|| config.engines[e].clone())
        })
        .to_vec();
    let t = &summary.tally;
    let mut out = String::new();
    out.push_str(&format!(
        "{:<28} {:>6} {:>6} {:>6} {:>7} {:>8} {:>7} {:>8}\n",
        "engine", "wins", "losses", "draws", "score", "illegal", "crashes", "timeouts"
    ));
    for (e, name) in names.iter().enumerate() {
        let (w, l) = if e == 0 {
            (t.wins, t.losses)
        } else {
            (t.losses, t.wins)
        };
        let score = if t.games() == 0 {
            0.0
        } else {
            100.0 * (w as f64 + t.draws as f64 / 2.0) / t.games() as f64
        };
        let f = summary.failures[e];
        out.push_str(&format!(
            "{:<28} {:>6} {:>6} {:>6} {:>6.1}% {:>8} {:>7} {:>8}\n",
            name, w, l, t.draws, score, f[0], f[1], f[2]
        ));
    }
    let (elo, half) = t.elo();
    out.push_str(&format!(
        "Elo of {} vs {}: {:+.1} +/- {:.1} (95%)\n",
        names[0], names[1], elo, half
    ));
    if let Some(sprt) = &config.sprt {
        let (lo, hi) = sprt.bounds();
        out.push_str(&format!(
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} [{:.2}, {:.2}] {}\n",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            t.llr(sprt),
            lo,
            hi,
            match summary.sprt_decision {
                Some(SprtDecision::H1) => "H1 accepted",
                Some(SprtDecision::H0) => "H0 accepted",
                None => "no decision",
            }
        ));
    }
    out
}

/// The `GameStart` every game of a match shares (root filled in per game).
pub fn game_start(
    variant: crate::board::Variant,
    rules: crate::rules::RuleSet,
    tc: driver::TimeControl,
) -> GameStart {
    GameStart {
        variant,
        rules,
        root_sfen: variant.start_sfen().to_string(),
        root_is_startpos: true,
        time_control: tc,
    }
}

#[cfg(test)]
mod tests {
    use super::distinct_names;

    #[test]
    fn same_names_are_told_apart_by_order() {
        let same = distinct_names(["shishi 0.1.0".into(), "shishi 0.1.0".into()]);
        assert_eq!(same, ["shishi 0.1.0 (1)", "shishi 0.1.0 (2)"]);
        let different = distinct_names(["shishi".into(), "HaChu 0.21".into()]);
        assert_eq!(different, ["shishi", "HaChu 0.21"]);
    }
}
