//! Engine-vs-engine matches for Chu and Heian Shogi.
//!
//! Design: each engine is a child process with its own reader thread (`process`), spoken to by
//! a protocol driver (`usi`, `xboard`) behind one `Driver` trait. A game (`play_game`) asks the
//! drivers for moves under per-engine clocks and lets shishi's own rules (`referee`) judge every
//! move and every ending; whatever goes wrong with an engine is charged to its side and the
//! match goes on, restarting that engine. A game's result (`game_end`) is the rules' ending or
//! one only a match has: resignation, time forfeit, crash, adjudication. Each engine has its own settings (`engine_spec`:
//! command, label, protocol, clock, options, its name for the variant); before any game each is
//! started once and must declare the variant (`check_engine`). `--concurrency` worker threads
//! each own a pair of engines and take games from a shared counter; the main thread collects
//! results, prints progress (`stats`: W-L-D per game; pentanomial Elo and SPRT per finished
//! pair) and appends PGN records (`pgn`). Openings (`openings`) are played twice, colours
//! swapped: games 2k and 2k+1 form pair k. Once the SPRT decides, the decision is final: games
//! still in flight are reported as not counted and left out of the statistics and the PGN.
//! A stopped match resumes from its PGN (`resume`): the games it holds are counted before any is
//! played, and the workers skip their numbers.

pub mod driver;
pub mod engine_spec;
pub mod game_end;
pub mod openings;
pub mod pgn;
pub mod pgn_read;
pub mod play_game;
pub(crate) mod process;
pub mod referee;
pub mod resume;
pub mod spsa;
pub mod stats;
pub(crate) mod usi;
pub(crate) mod xboard;

use driver::{Driver, EngineId, EngineSetup, Failure, GameStart};
use engine_spec::EngineConfig;
use openings::Opening;
use play_game::{play_game, GameRules, PlayedGame};
use process::EngineProcess;
use resume::PastGame;
use stats::{Pentanomial, Sprt, SprtDecision, Tally};
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::sync::Arc;
use std::thread;

use crate::board::{Color, Variant};
use crate::position::OutcomeReason;
use game_end::{EndReason, GameEnd};

/// Which protocol to speak to an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// USI.
    Usi,
    /// XBoard (CECP, WinBoard).
    Xboard,
    /// Try USI first (`usi` answered by `usiok`), then XBoard.
    Auto,
}

impl Protocol {
    /// The protocol named `name`, ignoring case: `usi`, `xboard` (or `cecp`, `winboard`), `auto`.
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
    /// The two engines; statistics are from the first one's point of view.
    pub engines: [EngineConfig; 2],
    /// Games to play unless the SPRT decides first.
    pub games: usize,
    /// The number of the first game (from 0; even): a slice of a larger match plays its games
    /// `first_game..first_game + games`, with the openings and colours the whole match gives
    /// them, so slices played apart never overlap and together are the whole match.
    pub first_game: usize,
    /// Start positions, each played twice with colours swapped; cycled when there are fewer
    /// openings than pairs.
    pub openings: Vec<Opening>,
    /// Games played at once, each by its own pair of engine processes (0 counts as 1).
    pub concurrency: usize,
    /// Rules, adjudication and clocks of every game.
    pub rules: GameRules,
    /// Stop as soon as this test decides, if given.
    pub sprt: Option<Sprt>,
    /// Log every protocol line on stderr.
    pub debug: bool,
    /// Games an earlier run of this match finished (`resume`): counted first, not played again.
    pub resumed: Vec<PastGame>,
}

/// A finished game with its place in the match.
pub struct MatchGame {
    /// Game number from 0; games `2k` and `2k+1` form pair `k`.
    pub index: usize,
    /// The colour the first engine played.
    pub first_color: Color,
    /// The engines' labels (or own names), first engine first, made distinct if equal.
    pub names: [String; 2],
    /// The moves and result.
    pub game: PlayedGame,
}

/// What the main thread learns as the match runs.
pub struct MatchSummary {
    /// Per-game results of the counted games.
    pub tally: Tally,
    /// Finished pairs of the counted games.
    pub pairs: Pentanomial,
    /// The SPRT's decision, once it has decided.
    pub sprt_decision: Option<SprtDecision>,
    /// Games that finished after the SPRT decision: not counted.
    pub uncounted: usize,
    /// Failures charged to each engine: illegal moves, crashes, time losses.
    pub failures: [[u32; 3]; 2],
    /// The counted games, in the order they finished.
    pub games: Vec<MatchGame>,
}

/// Why an engine cannot take part in the match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineCheckError {
    /// It answered an option it was given with an error: it would every time.
    Refused {
        /// The engine's label, or its command.
        engine: String,
        /// What it said.
        why: String,
    },
    /// It did not start or failed its handshake.
    DidNotStart {
        /// The engine's label, or its command.
        engine: String,
        /// What went wrong.
        why: String,
    },
    /// It does not list the variant among those it declares.
    VariantNotDeclared {
        /// The engine's label, or its own name.
        engine: String,
        /// The engine's name for the match variant.
        variant: String,
        /// How many variants it declared (0: none at all).
        declared: usize,
    },
}

impl fmt::Display for EngineCheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Refused { engine, why } | Self::DidNotStart { engine, why } => {
                write!(f, "engine '{engine}' did not start: {why}")
            }
            Self::VariantNotDeclared {
                engine,
                variant,
                declared: 0,
            } => write!(
                f,
                "engine '{engine}' declares no variants (USI_Variant/UCI_Variant option or XBoard \
                 feature variants), so not variant '{variant}'"
            ),
            Self::VariantNotDeclared {
                engine, variant, ..
            } => write!(
                f,
                "engine '{engine}' does not declare variant '{variant}' (give its own name for \
                 it with variant=, or load it with option.VariantPath= and the like)"
            ),
        }
    }
}

impl std::error::Error for EngineCheckError {}

/// The setup an engine gets once its protocol is known.
fn setup_for(engine: &EngineConfig, protocol: Protocol, variant: Variant) -> EngineSetup {
    let default = match protocol {
        Protocol::Xboard => variant.xboard_name(),
        _ => variant.name(),
    };
    EngineSetup {
        options: engine.options.clone(),
        variant: engine
            .variant
            .clone()
            .unwrap_or_else(|| default.to_string()),
        node_limit: engine.node_limit,
    }
}

/// Starts an engine, connects its driver and sends its options.
pub fn connect(
    engine: &EngineConfig,
    variant: Variant,
    debug: bool,
) -> Result<Box<dyn Driver>, Failure> {
    connect_as(engine, engine.protocol, variant, debug)
}

fn connect_as(
    engine: &EngineConfig,
    protocol: Protocol,
    variant: Variant,
    debug: bool,
) -> Result<Box<dyn Driver>, Failure> {
    let command = engine.command.as_str();
    let start = || EngineProcess::start(command, debug).map_err(|e| Failure::Crash(e.to_string()));
    let setup = |p| setup_for(engine, p, variant);
    match protocol {
        Protocol::Usi => usi::UsiDriver::connect(start()?, &setup(Protocol::Usi))
            .map(|d| Box::new(d) as Box<dyn Driver>)
            .map_err(|rejected| rejected.1),
        Protocol::Xboard => xboard::XboardDriver::connect(start()?, &setup(Protocol::Xboard))
            .map(|d| Box::new(d) as Box<dyn Driver>)
            .map_err(|rejected| rejected.1),
        Protocol::Auto => match usi::UsiDriver::connect(start()?, &setup(Protocol::Usi)) {
            Ok(d) => Ok(Box::new(d)),
            Err(rejected) => {
                let (mut p, failure) = *rejected;
                p.stop("quit");
                match failure {
                    // A USI engine that refused an option: XBoard would only hide the refusal.
                    Failure::Refused(_) => Err(failure),
                    _ => connect_as(engine, Protocol::Xboard, variant, debug),
                }
            }
        },
    }
}

/// Starts `engine` once, checks that it declares the variant, and lets it go: a wrong path, an
/// engine that fails its handshake or one that does not know the variant stops the match
/// before any game instead of forfeiting every one. Returns the engine's own name.
pub fn check_engine(
    engine: &EngineConfig,
    variant: Variant,
    debug: bool,
) -> Result<String, EngineCheckError> {
    inspect_engine(engine, variant, debug).map(|id| id.name)
}

/// [`check_engine`], returning all the engine said of itself.
pub fn inspect_engine(
    engine: &EngineConfig,
    variant: Variant,
    debug: bool,
) -> Result<EngineId, EngineCheckError> {
    let mut driver = connect(engine, variant, debug).map_err(|f| {
        let label = engine
            .name
            .clone()
            .unwrap_or_else(|| engine.command.clone());
        let why = match f {
            Failure::Refused(why) => return EngineCheckError::Refused { engine: label, why },
            Failure::Crash(e) | Failure::Protocol(e) => e,
            Failure::Timeout => "no answer to the handshake".to_string(),
        };
        EngineCheckError::DidNotStart { engine: label, why }
    })?;
    let id = driver.id().clone();
    let wanted = driver.variant_name().to_string();
    let declared = driver.declared_variants();
    let known = id.any_variant || declared.iter().any(|v| v.eq_ignore_ascii_case(&wanted));
    let count = declared.len();
    driver.quit();
    if known {
        Ok(id)
    } else {
        Err(EngineCheckError::VariantNotDeclared {
            engine: engine.name.clone().unwrap_or(id.name),
            variant: wanted,
            declared: count,
        })
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
        notes: Vec::new(),
        outcome: GameEnd::win(!loser, EndReason::Crash),
        detail: why,
        broken,
    }
}

/// Plays games from the shared counter on one thread, sending each result on `results`.
fn worker(
    config: &MatchConfig,
    already_played: &HashSet<usize>,
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
        if already_played.contains(&index) {
            continue;
        }
        if index >= config.first_game + config.games {
            break;
        }
        let (opening_index, first_color) = schedule(index, config.openings.len());
        let opening = &config.openings[opening_index];
        let mut failed_start = None;
        for (e, driver) in drivers.iter_mut().enumerate() {
            if driver.is_none() {
                match connect(&config.engines[e], config.rules.start.variant, config.debug) {
                    Ok(d) => *driver = Some(d),
                    Err(f) => {
                        failed_start = Some((e, f));
                        break;
                    }
                }
            }
        }
        let names = [0, 1].map(|e| match (&config.engines[e].name, &drivers[e]) {
            (Some(label), _) => label.clone(),
            (None, Some(d)) => d.name().to_string(),
            (None, None) => config.engines[e].command.clone(),
        });
        let names = distinct_names(names);
        let color_of = |e: usize| if e == 0 { first_color } else { !first_color };
        let game = match failed_start {
            Some((e, f)) => forfeit(
                opening,
                color_of(e),
                format!("{} did not start: {f:?}", config.engines[e].command),
            ),
            None => {
                let [a, b] = &mut drivers;
                let (a, b) = (
                    a.as_deref_mut().expect("connected"),
                    b.as_deref_mut().expect("connected"),
                );
                let [first_tc, second_tc] = config.engines.each_ref().map(|e| e.time_control);
                let (engines, clocks): ([&mut dyn Driver; 2], _) = if first_color == Color::Sente {
                    ([a, b], [first_tc, second_tc])
                } else {
                    ([b, a], [second_tc, first_tc])
                };
                play_game(engines, clocks, &config.rules, opening)
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
pub fn distinct_names([first, second]: [String; 2]) -> [String; 2] {
    if first == second {
        [format!("{first} (1)"), format!("{second} (2)")]
    } else {
        [first, second]
    }
}

fn failure_slot(reason: EndReason) -> Option<usize> {
    match reason {
        EndReason::Rules(OutcomeReason::IllegalMove) => Some(0),
        EndReason::Crash => Some(1),
        EndReason::Timeout => Some(2),
        _ => None,
    }
}

/// The first engine's score in a game: 1, 0.5 or 0.
fn first_engine_score(done: &MatchGame) -> f64 {
    match done.game.outcome.winner {
        None => 0.5,
        Some(w) if w == done.first_color => 1.0,
        Some(_) => 0.0,
    }
}

/// The label of the engine that played `color` in `done`.
fn player(done: &MatchGame, color: Color) -> &str {
    if done.first_color == color {
        &done.names[0]
    } else {
        &done.names[1]
    }
}

/// Counts one game's score (and the failure it charges, if any) into the summary; returns the
/// pair's score when the game finishes its pair, and may bring the SPRT decision.
fn count_score(
    config: &MatchConfig,
    summary: &mut MatchSummary,
    open_pairs: &mut HashMap<usize, f64>,
    index: usize,
    score: f64,
    failure: Option<(usize, usize)>,
) -> Option<f64> {
    summary.tally.add(score);
    if let Some((engine, slot)) = failure {
        summary.failures[engine][slot] += 1;
    }
    let pair = index / 2;
    let Some(other) = open_pairs.remove(&pair) else {
        open_pairs.insert(pair, score);
        return None;
    };
    summary.pairs.add(score + other);
    if let Some(sprt) = &config.sprt {
        summary.sprt_decision = sprt.decision(&summary.pairs);
    }
    Some(score + other)
}

/// The pentanomial line, with the LLR under an SPRT, and the decision once there is one.
fn write_pairs_line(config: &MatchConfig, summary: &MatchSummary, progress: &mut dyn Write) {
    let _ = write!(progress, "{}", summary.pairs);
    if let Some(sprt) = &config.sprt {
        let (lo, hi) = sprt.bounds();
        let llr = summary.pairs.llr(sprt);
        let _ = write!(progress, ", LLR {llr:.2} [{lo:.2}, {hi:.2}]");
        if let Some(d) = summary.sprt_decision {
            let _ = write!(
                progress,
                "\nSPRT decided after {} games ({} pairs): {}, LLR {llr:.2}; the match stops here",
                summary.tally.games(),
                summary.pairs.pairs(),
                stats::decision_words(Some(d))
            );
        }
    }
    let _ = writeln!(progress);
}

/// Counts one finished game and prints its line; a finished pair adds its line with the
/// pentanomial Elo and the LLR, and may bring the SPRT decision.
fn count_game(
    config: &MatchConfig,
    summary: &mut MatchSummary,
    open_pairs: &mut HashMap<usize, f64>,
    done: &MatchGame,
    progress: &mut dyn Write,
) {
    let outcome = done.game.outcome;
    let score = first_engine_score(done);
    let failure = outcome
        .winner
        .zip(failure_slot(outcome.reason))
        .map(|(winner, slot)| {
            let loser_engine = if !winner == done.first_color { 0 } else { 1 };
            (loser_engine, slot)
        });
    let pair_score = count_score(config, summary, open_pairs, done.index, score, failure);
    let _ = writeln!(
        progress,
        "game {} ({} vs {}): {} {}\n  {}",
        done.index + 1,
        player(done, Color::Sente),
        player(done, Color::Gote),
        outcome.score(),
        done.game.detail,
        summary.tally
    );
    if let Some(pair_score) = pair_score {
        let _ = write!(
            progress,
            "  pair {} scored {pair_score}: ",
            done.index / 2 + 1
        );
        write_pairs_line(config, summary, progress);
    }
}

/// Plays the match, reporting progress on `progress` and each counted game to `on_game` (the
/// PGN).
pub fn run_match(
    config: &MatchConfig,
    progress: &mut dyn Write,
    on_game: &mut dyn FnMut(&MatchGame),
) -> MatchSummary {
    let next = AtomicUsize::new(config.first_game);
    let stop = AtomicBool::new(false);
    let (tx, rx) = channel();
    let mut summary = MatchSummary {
        tally: Tally::default(),
        pairs: Pentanomial::default(),
        sprt_decision: None,
        uncounted: 0,
        failures: [[0; 3]; 2],
        games: Vec::new(),
    };
    let mut open_pairs = HashMap::new();
    for past in &config.resumed {
        count_score(
            config,
            &mut summary,
            &mut open_pairs,
            past.index,
            past.first_score,
            past.failure,
        );
    }
    if !config.resumed.is_empty() {
        let _ = writeln!(
            progress,
            "resumed {} finished games: {}",
            config.resumed.len(),
            summary.tally
        );
        let _ = write!(progress, "  ");
        write_pairs_line(config, &summary, progress);
    }
    let already_played: HashSet<usize> = config.resumed.iter().map(|g| g.index).collect();
    if summary.sprt_decision.is_some() {
        stop.store(true, Ordering::SeqCst);
    }
    let config_shared = Arc::new(config.clone());
    thread::scope(|scope| {
        for _ in 0..config.concurrency.max(1) {
            let tx = tx.clone();
            let (cfg, played, next, stop) = (&config_shared, &already_played, &next, &stop);
            scope.spawn(move || worker(cfg, played, next, stop, tx));
        }
        drop(tx);
        for done in rx {
            if summary.sprt_decision.is_some() {
                summary.uncounted += 1;
                let _ = writeln!(
                    progress,
                    "game {} ({}) finished after the SPRT decision: not counted",
                    done.index + 1,
                    done.game.outcome.score()
                );
                continue;
            }
            count_game(config, &mut summary, &mut open_pairs, &done, progress);
            on_game(&done);
            if summary.sprt_decision.is_some() {
                stop.store(true, Ordering::SeqCst);
            }
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
                .or_else(|| config.engines[e].name.clone())
                .unwrap_or_else(|| config.engines[e].command.clone())
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
    out.push_str(&stats::elo_line(&names[0], &names[1], &summary.pairs));
    if let Some(sprt) = &config.sprt {
        out.push_str(&stats::sprt_line(sprt, &summary.pairs));
    }
    if summary.uncounted > 0 {
        out.push_str(&format!(
            "{} game(s) finished after the SPRT decision and are not counted\n",
            summary.uncounted
        ));
    }
    out
}

/// The `GameStart` every game of a match shares (root filled in per game).
pub fn game_start(variant: Variant, rules: crate::rules::RuleSet) -> GameStart {
    GameStart {
        variant,
        rules,
        root_sfen: variant.start_sfen().to_string(),
        root_is_startpos: true,
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
