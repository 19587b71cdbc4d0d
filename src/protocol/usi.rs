//! USI, lishogi dialect (docs/rules.md section 12), and the same loop as `uci` with XBoard squares.
//!
//! One `Session` holds the options, the game set by `position` and at most one running
//! search. The game is a `GameRecord` in the shared `session::Core`, as in XBoard: `position`
//! plays its move list through a new record, so every move is judged by the rules (a forbidden
//! repetition, a move after the game has ended) and a refused `position` keeps the old game.
//! The loop waits for input while idle and polls while searching, so `stop`, `ponderhit`,
//! `isready` and `quit` are answered at once. A search started with `ponder` or
//! `infinite` never answers `bestmove` on its own: its result is held until `stop` or
//! `ponderhit`, as USI requires. A `position` that repeats the last one with moves added plays
//! only those on the game it made (`GivenPosition`), until an option changes.
//!
//! Without threads (the browser build) the same session is fed one line at a time
//! (`Session::feed`) and runs each search on the caller's thread (`Engine::run_here`). The
//! search polls the host's input every few thousand nodes; `Session::during_search` decides
//! what a line means to it: `stop`, `quit`, `gameover` and `usinewgame` stop it, `ponderhit`
//! starts its clock, `isready` is answered at once, and every line but `isready` is kept and
//! handled in order, as `command`, once the search has returned. `go perft` and `go mate` run
//! there the same way, reading the host's input through their `StopSignal`.

use super::game_commands;
use super::given_position::GivenPosition;
use super::session::Core;
use super::{emit, engine_name, pv_text, EmitWriter, Front};
#[cfg(not(target_arch = "wasm32"))]
use super::{serve, Lines};
use crate::board::{Color, Variant};
use crate::game::{GameError, GameRecord, PlayError};
use crate::notation::{write_move, Notation};
use crate::platform::StopSignal;
use crate::position::{Outcome, Position, SfenError};
use crate::search::{
    Control, Engine, Limits, Poll, SearchHandle, SearchInfo, SearchResult, MAX_PLY, MAX_TIME,
};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

/// Which spelling of the protocol the GUI chose with its first command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// lishogi USI: USI squares, `btime` is sente's clock.
    Usi,
    /// USI commands with XBoard squares, UCI names: `wtime` is the first mover's clock.
    Uci,
}

impl Dialect {
    fn notation(self) -> Notation {
        match self {
            Dialect::Usi => Notation::Usi,
            Dialect::Uci => Notation::Xboard,
        }
    }
}

struct Running {
    handle: SearchHandle,
    /// The searched position, to write the best move in.
    pos: Position,
    /// `go ponder` not yet followed by `ponderhit`, or `go infinite`: wait for the GUI.
    hold: bool,
}

/// A `go perft` or `go mate` working on its own thread, so `stop` and `isready` are answered
/// meanwhile; it ends with the lines to print.
struct Job {
    stop: Arc<StopSignal>,
    thread: JoinHandle<Vec<String>>,
}

/// Where a session without threads reads the input that arrives while it searches: a
/// non-blocking read of the host's pending lines.
pub type LineSource = Box<dyn FnMut() -> Vec<String> + Send>;

/// A session that searches on the caller's thread: its input source, and the lines that came
/// in during a search, to be handled once it returns.
#[derive(Clone)]
struct Here {
    source: Arc<Mutex<LineSource>>,
    deferred: Arc<Mutex<VecDeque<String>>>,
}

/// What a line that arrives during a search on the caller's thread does at once.
enum Interrupt {
    /// Answered now, not kept: `isready`.
    Answer(&'static str),
    /// Stops the search, then is handled as usual.
    Stop,
    /// Starts the search's clock, then is handled as usual.
    Ponderhit,
    /// Handled once the search has returned.
    Later,
}

pub(super) struct Session {
    dialect: Dialect,
    /// Options, the engine and the game.
    core: Core,
    /// Whether `position` has set the game since the start or the last change of variant; until
    /// then `go` and `d` say that they use the variant's start position.
    position_given: bool,
    /// The `position` command the game comes from; forgotten when an option changes, so that
    /// the next `position` is played from its start under the new settings.
    given: Option<GivenPosition>,
    running: Option<Running>,
    job: Option<Job>,
    /// Set when searches run on the caller's thread (no threads in the host).
    here: Option<Here>,
}

/// Runs the loop after the `usi` (or `uci`) command that chose it.
#[cfg(not(target_arch = "wasm32"))]
pub(super) fn run(lines: &Lines, dialect: Dialect) {
    let mut session = Session::new(dialect, None);
    session.core.set_waker(lines.waker());
    session.handshake();
    serve(lines, &mut session);
}

impl Front for Session {
    fn busy(&self) -> bool {
        self.running.is_some() || self.job.is_some()
    }

    fn handle(&mut self, line: &str) -> bool {
        self.command(line)
    }

    fn report_finished(&mut self) {
        self.report_if_finished();
        self.report_job_if_finished();
    }

    /// At the end of input a running search still answers with its best move.
    fn close(&mut self, eof: bool) {
        self.stop_search(eof);
        self.stop_job();
    }
}

/// Why a `position` or `go` command was refused; each error names the word it could not take.
/// The session's state is unchanged.
#[derive(Debug, thiserror::Error)]
enum CommandError {
    #[error("go {0} needs a number")]
    MissingValue(String),
    #[error("go {param} needs a whole number, not '{text}'")]
    NotAWholeNumber { param: String, text: String },
    #[error("go {param} {value} is too large")]
    TooLarge { param: String, value: u128 },
    #[error("go {param} needs milliseconds, not '{text}'")]
    NotMilliseconds { param: String, text: String },
    #[error("go {param} {value} is beyond the longest time accepted ({max} ms)")]
    TooLong {
        param: String,
        value: i128,
        max: i128,
    },
    #[error("go perft depth must be 1 to 20, not {0}")]
    PerftDepth(u32),
    #[error("unknown go parameter: {0}")]
    UnknownGoParameter(String),
    #[error("unexpected words after startpos: {0}")]
    AfterStartpos(String),
    #[error("bad SFEN for {variant}: {error}{}", other_variant_hint(*.other))]
    BadSfen {
        variant: Variant,
        error: SfenError,
        /// The variant the text is a position of, when it is another one.
        other: Option<Variant>,
    },
    #[error("position sfen needs a SFEN")]
    NoSfen,
    #[error("position needs: position startpos|sfen <sfen> [moves <move> ...]")]
    PositionUsage,
    #[error("illegal move {number} ({text}): {reason}")]
    IllegalMove {
        number: usize,
        text: String,
        reason: String,
    },
    #[error("move {number} ({text}) comes after the end of the game ({outcome})")]
    AfterGameEnd {
        number: usize,
        text: String,
        outcome: Outcome,
    },
}

/// The error for move `number` (`text`) of a `position`, which the game record refused.
fn refused_move(number: usize, text: &str, error: PlayError) -> CommandError {
    let text = text.to_string();
    match error {
        PlayError::Game(GameError::GameOver(outcome)) => CommandError::AfterGameEnd {
            number,
            text,
            outcome,
        },
        PlayError::Move(e) => CommandError::IllegalMove {
            number,
            text,
            reason: e.reason.to_string(),
        },
        PlayError::Game(e) => CommandError::IllegalMove {
            number,
            text,
            reason: e.to_string(),
        },
    }
}

fn other_variant_hint(other: Option<Variant>) -> String {
    other.map_or(String::new(), |v| {
        format!(" (it is a {v} position: set USI_Variant first)")
    })
}

/// A non-negative whole number for `go <param>`, in the full range of `T`.
fn whole_number<T: TryFrom<u128>>(param: &str, text: &str) -> Result<T, CommandError> {
    let value: u128 = text.parse().map_err(|_| CommandError::NotAWholeNumber {
        param: param.to_string(),
        text: text.to_string(),
    })?;
    T::try_from(value).map_err(|_| CommandError::TooLarge {
        param: param.to_string(),
        value,
    })
}

/// A time in milliseconds for `go <param>`; a negative clock (a GUI's overrun) counts as zero.
fn millis(param: &str, text: &str) -> Result<Duration, CommandError> {
    let value: i128 = text.parse().map_err(|_| CommandError::NotMilliseconds {
        param: param.to_string(),
        text: text.to_string(),
    })?;
    let max = MAX_TIME.as_millis() as i128;
    if value > max {
        return Err(CommandError::TooLong {
            param: param.to_string(),
            value,
            max,
        });
    }
    Ok(Duration::from_millis(value.max(0) as u64))
}

fn error(message: &str) {
    emit(&format!("info string error {}", echo_long(message)));
}

/// An error message, whole unless it quotes a huge token.
fn echo_long(message: &str) -> String {
    if message.len() <= 1000 {
        return message.to_string();
    }
    super::echo(message)
}

fn info_line(pos: &Position, info: &SearchInfo, notation: Notation) -> String {
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} time {} hashfull {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.score.in_centipawns(pos.family()),
        info.nodes,
        info.nps,
        info.time.as_millis(),
        info.hashfull
    );
    let pv = pv_text(pos, &info.pv, notation);
    if !pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&pv);
    }
    line
}

enum GoRequest {
    Search(Limits),
    Perft(u32),
    /// `go mate <ms>` or `go mate infinite` (`None`).
    Mate(Option<Duration>),
}

impl Session {
    fn new(dialect: Dialect, here: Option<Here>) -> Session {
        Session {
            dialect,
            core: Core::default(),
            position_given: false,
            given: None,
            running: None,
            job: None,
            here,
        }
    }

    /// A session for a host without threads, after its `usi` (or `uci`) command: searches run
    /// on the caller's thread and hear new input through `source`. Prints the handshake.
    pub(super) fn on_this_thread(dialect: Dialect, source: LineSource) -> Session {
        let here = Here {
            source: Arc::new(Mutex::new(source)),
            deferred: Arc::new(Mutex::new(VecDeque::new())),
        };
        let session = Session::new(dialect, Some(here));
        session.handshake();
        session
    }

    /// Handles `line` and then every line that came in while it was being handled (a search
    /// runs to its end inside `feed`); returns false once `quit` was among them.
    pub(super) fn feed(&mut self, line: &str) -> bool {
        let mut next = Some(line.to_string());
        while let Some(line) = next {
            if !self.command(&line) {
                self.close(false);
                return false;
            }
            self.report_finished();
            next = self
                .here
                .as_ref()
                .and_then(|h| lock(&h.deferred).pop_front());
        }
        true
    }

    /// What `line`, arriving while a search runs on this thread, does at once.
    fn during_search(line: &str) -> Interrupt {
        match line.split_whitespace().next() {
            Some("isready") => Interrupt::Answer("readyok"),
            Some("stop" | "quit" | "gameover" | "usinewgame" | "ucinewgame") => Interrupt::Stop,
            Some("ponderhit") => Interrupt::Ponderhit,
            _ => Interrupt::Later,
        }
    }

    /// Reads the host's pending input while work runs on this thread: `isready` is answered at
    /// once, every other line is kept for later; returns whether a line stops the work and
    /// whether one was `ponderhit`.
    fn take_input(here: &Here) -> (bool, bool) {
        let lines = (lock(&here.source))();
        let mut deferred = lock(&here.deferred);
        let (mut stop, mut ponderhit) = (false, false);
        for line in lines {
            match Session::during_search(&line) {
                // Answered now only when no earlier line waits, so replies keep their order.
                Interrupt::Answer(reply) if deferred.is_empty() => {
                    emit(reply);
                    continue;
                }
                Interrupt::Answer(_) | Interrupt::Later => {}
                Interrupt::Stop => stop = true,
                Interrupt::Ponderhit => ponderhit = true,
            }
            deferred.push_back(line);
        }
        (stop, ponderhit)
    }

    /// The hook through which a search on this thread reads the host's input.
    fn poll(here: &Here) -> Poll {
        let here = here.clone();
        Box::new(move |control: &Control| {
            let (stop, ponderhit) = Session::take_input(&here);
            if ponderhit {
                control.ponderhit();
            }
            if stop {
                control.stop();
            }
        })
    }

    fn notation(&self) -> Notation {
        self.dialect.notation()
    }

    fn handshake(&self) {
        emit(&format!("id name {}", engine_name()));
        emit("id author the shishi authors");
        for line in self.core.settings().usi_lines(self.dialect == Dialect::Uci) {
            emit(&line);
        }
        emit(match self.dialect {
            Dialect::Usi => "usiok",
            Dialect::Uci => "uciok",
        });
    }

    /// The engine with the current options, made on first use.
    fn engine(&mut self) -> &mut Engine {
        self.core.engine()
    }

    /// Handles one line; returns false on `quit`.
    fn command(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&name, args)) = words.split_first() else {
            return true;
        };
        match name {
            "usi" | "uci" => self.handshake(),
            "isready" => {
                // While a search or job runs, the engine is made at the next `go`: readying it
                // now would hold the answer behind a table's allocation and a network's load.
                if self.running.is_none() && self.job.is_none() {
                    self.engine();
                }
                emit("readyok");
            }
            "setoption" => self.setoption(args),
            "usinewgame" | "ucinewgame" => {
                self.stop_search(true);
                self.engine().new_game();
            }
            "position" => self.position(args),
            "go" => self.go(args),
            "stop" => {
                self.stop_search(true);
                self.stop_job();
            }
            "ponderhit" => {
                if let Some(run) = self.running.as_mut() {
                    run.handle.ponderhit();
                    run.hold = false;
                }
            }
            "gameover" => self.stop_search(false),
            "quit" => return false,
            "d" => self.display(),
            "bench" => self.bench(),
            "loadgame" => self.load_game(line),
            "annotate" => self.annotate(args),
            other => error(&format!("unknown command: {other}")),
        }
        true
    }

    fn setoption(&mut self, args: &[&str]) {
        if args.first() != Some(&"name") {
            return error("setoption needs: setoption name <name> [value <value>]");
        }
        let value_at = args.iter().position(|&w| w == "value");
        let name = args[1..value_at.unwrap_or(args.len())].join(" ");
        let value = value_at.map_or(String::new(), |i| args[i + 1..].join(" "));
        let changed = match self.core.set_option(&name, &value) {
            Ok(changed) => changed,
            Err(e) => return error(&e.to_string()),
        };
        self.given = None;
        if name.eq_ignore_ascii_case("EvalFile") {
            if let Some(note) = self.core.settings().eval_file_note() {
                emit(&format!("info string {note}"));
            }
        }
        let threads = self.core.settings().engine.threads;
        if self.here.is_some() && threads > 1 && name.eq_ignore_ascii_case("Threads") {
            // Accepted, so a GUI that sets it (lishogi's analysis board) goes on; said once here.
            emit(&format!(
                "info string Threads {threads}: this build has no threads and searches on one"
            ));
        }
        if changed.variant {
            let variant = self.core.settings().variant;
            self.core.start_game(Position::startpos(variant));
            self.position_given = false;
        }
    }

    /// `position startpos|sfen <sfen>|fen <xboard fen> [moves ...]`; on any error the previous
    /// game stays.
    fn position(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|&w| w == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        match self.parse_position(setup, moves) {
            Ok(game) => {
                self.core.set_game(game);
                self.given = Some(GivenPosition::new(setup, moves));
                self.position_given = true;
            }
            Err(e) => error(&e.to_string()),
        }
    }

    /// The game `position <setup> moves <moves>` describes: its start, with the moves played
    /// through the record; when it extends the command the game comes from, that game with the
    /// added moves.
    fn parse_position(&self, setup: &[&str], moves: &[&str]) -> Result<GameRecord, CommandError> {
        let played = self.given.as_ref().and_then(|g| g.played_of(setup, moves));
        let mut game = match played {
            Some(_) => self.core.game().clone(),
            None => self.core.game_from(self.parse_setup(setup)?),
        };
        for (i, &text) in moves.iter().enumerate().skip(played.unwrap_or(0)) {
            game.play_text(text, self.notation())
                .map_err(|e| refused_move(i + 1, text, e))?;
        }
        Ok(game)
    }

    /// The start of `position`: `startpos`, `sfen <sfen>` or `fen <sfen or xboard fen>`.
    fn parse_setup(&self, setup: &[&str]) -> Result<Position, CommandError> {
        let variant = self.core.settings().variant;
        match setup.split_first() {
            Some((&"startpos", [])) => Ok(Position::startpos(variant)),
            Some((&"startpos", extra)) => Err(CommandError::AfterStartpos(extra.join(" "))),
            Some((&kind @ ("sfen" | "fen"), fields)) if !fields.is_empty() => {
                let text = fields.join(" ");
                let parsed = if kind == "fen" && self.dialect == Dialect::Uci {
                    Position::from_xboard_fen(variant, &text)
                } else {
                    Position::from_sfen(variant, &text)
                };
                parsed.map_err(|error| CommandError::BadSfen {
                    variant,
                    error,
                    other: Position::from_sfen_any(&text)
                        .ok()
                        .map(|p| p.variant())
                        .filter(|&v| v != variant),
                })
            }
            Some((&("sfen" | "fen"), _)) => Err(CommandError::NoSfen),
            _ => Err(CommandError::PositionUsage),
        }
    }

    fn parse_go(&self, args: &[&str]) -> Result<GoRequest, CommandError> {
        let mut limits = Limits::default();
        let (sente_time, gote_time, sente_inc, gote_inc) = match self.dialect {
            Dialect::Usi => ("btime", "wtime", "binc", "winc"),
            Dialect::Uci => ("wtime", "btime", "winc", "binc"),
        };
        let mut words = args.iter();
        while let Some(&word) = words.next() {
            let mut value = || {
                words
                    .next()
                    .copied()
                    .ok_or_else(|| CommandError::MissingValue(word.to_string()))
            };
            match word {
                "infinite" => limits.infinite = true,
                "ponder" => limits.ponder = true,
                "perft" => {
                    let depth: u32 = whole_number(word, value()?)?;
                    if !(1..=20).contains(&depth) {
                        return Err(CommandError::PerftDepth(depth));
                    }
                    return Ok(GoRequest::Perft(depth));
                }
                "mate" => {
                    let time = match value()? {
                        "infinite" => None,
                        text => Some(millis(word, text)?),
                    };
                    return Ok(GoRequest::Mate(time));
                }
                w if w == sente_time => {
                    limits.time[Color::Sente.index()] = Some(millis(w, value()?)?);
                }
                w if w == gote_time => {
                    limits.time[Color::Gote.index()] = Some(millis(w, value()?)?);
                }
                w if w == sente_inc => {
                    limits.increment[Color::Sente.index()] = millis(w, value()?)?;
                }
                w if w == gote_inc => limits.increment[Color::Gote.index()] = millis(w, value()?)?,
                "byoyomi" => limits.byoyomi = millis(word, value()?)?,
                "movetime" => limits.movetime = Some(millis(word, value()?)?),
                "movestogo" => limits.moves_to_go = Some(whole_number(word, value()?)?),
                "depth" => {
                    let depth: u32 = whole_number(word, value()?)?;
                    limits.depth = Some(depth.clamp(1, MAX_PLY as u32));
                }
                "nodes" => limits.nodes = Some(whole_number::<u64>(word, value()?)?.max(1)),
                other => return Err(CommandError::UnknownGoParameter(other.to_string())),
            }
        }
        Ok(GoRequest::Search(limits))
    }

    /// The game's position, to search; before any `position`, the variant's start position,
    /// said once.
    fn current_position(&mut self) -> Position {
        if !self.position_given {
            let variant = self.core.settings().variant;
            emit(&format!(
                "info string no position given: searching the start position of {variant}"
            ));
            self.position_given = true;
        }
        self.core.game().position().clone()
    }

    fn go(&mut self, args: &[&str]) {
        if self.running.is_some() || self.job.is_some() {
            return error(
                "go ignored: a search, perft or mate search is running (send stop first)",
            );
        }
        let request = match self.parse_go(args) {
            Ok(r) => r,
            Err(e) => return error(&e.to_string()),
        };
        let pos = self.current_position();
        let limits = match request {
            GoRequest::Perft(depth) => return self.perft(&pos, depth),
            GoRequest::Mate(time) => return self.mate(&pos, time),
            GoRequest::Search(limits) => limits,
        };
        if pos.legal_moves().is_empty() {
            emit("info string the side to move has no legal move");
            emit("bestmove resign");
            return;
        }
        let hold = limits.ponder || limits.infinite;
        let notation = self.notation();
        let shown = pos.clone();
        let on_info = Box::new(move |info: &SearchInfo| emit(&info_line(&shown, info, notation)));
        let handle = match self.here.as_ref().map(Session::poll) {
            Some(poll) => self.engine().run_here(&pos, limits, on_info, poll),
            None => self.engine().start(&pos, limits, on_info),
        };
        self.running = Some(Running { handle, pos, hold });
    }

    /// Runs a perft or mate search: on its own thread, so `stop` and `isready` are answered
    /// meanwhile; without threads, here, hearing the host's input through the stop signal.
    fn start_job(&mut self, work: impl FnOnce(Arc<StopSignal>) -> Vec<String> + Send + 'static) {
        if let Some(here) = &self.here {
            let here = here.clone();
            let stop = StopSignal::polling(Box::new(move || Session::take_input(&here).0));
            work(Arc::new(stop)).iter().for_each(|l| emit(l));
            return;
        }
        let stop = Arc::new(StopSignal::new());
        let signal = Arc::clone(&stop);
        let builder = std::thread::Builder::new().stack_size(crate::tsume::SOLVER_STACK_BYTES);
        match builder.spawn(move || work(signal)) {
            Ok(thread) => self.job = Some(Job { stop, thread }),
            Err(e) => error(&format!("cannot start the perft or mate search: {e}")),
        }
    }

    /// `loadgame "<record>"`: a game record becomes the game (`game_commands`).
    fn load_game(&mut self, line: &str) {
        if self.running.is_some() || self.job.is_some() {
            return error("loadgame ignored: a search is running (send stop first)");
        }
        let arg = line.trim_start().strip_prefix("loadgame").unwrap_or("");
        match game_commands::load_game(&mut self.core, arg) {
            Ok(reply) => {
                self.given = None;
                self.position_given = true;
                emit(&reply);
            }
            Err(e) => error(&e),
        }
    }

    /// `annotate [movetime MS | nodes N | depth D]`: the game analysed (`game_commands`), as a
    /// job that `stop` ends.
    fn annotate(&mut self, args: &[&str]) {
        if self.running.is_some() || self.job.is_some() {
            return error("annotate ignored: a search is running (send stop first)");
        }
        match game_commands::annotate_work(&self.core, args) {
            Ok(work) => self.start_job(work),
            Err(e) => error(&e),
        }
    }

    fn perft(&mut self, pos: &Position, depth: u32) {
        use crate::perft::divide_lines_until;
        let (pos, notation) = (pos.clone(), self.notation());
        self.start_job(
            move |stop| match divide_lines_until(&pos, depth, notation, &stop) {
                Some((mut lines, total)) => {
                    lines.push(format!("Nodes searched: {total}"));
                    lines
                }
                None => vec!["info string perft stopped".to_string()],
            },
        );
    }

    /// `go mate`: the df-pn solver, answered as YaneuraOu does (`checkmate <moves>`: the
    /// shortest mate found, ending with the mating move; `checkmate nomate`; `checkmate timeout`,
    /// also after `stop` when no mate was proven yet). Before a mate, an `info string` says its
    /// length and whether it is proven shortest.
    fn mate(&mut self, pos: &Position, time: Option<Duration>) {
        use crate::tsume::{solve, MateLimits, MateOutcome};
        let (pos, notation) = (pos.clone(), self.notation());
        // Two threads race on the first mate where `Threads` allows (`MateLimits::threads`),
        // sharing `USI_Hash` between their tables.
        let threads = crate::tsume::solver_threads(self.core.settings().engine.threads);
        let table_mb = (self.core.settings().engine.hash_mb / threads).max(1);
        let royals = self.core.settings().tsume_royals;
        self.start_job(move |stop| {
            let limits = MateLimits {
                time,
                nodes: None,
                table_mb,
                threads,
                stop: Some(stop),
                royals,
                ..MateLimits::default()
            };
            let report = solve(&pos, limits);
            let mut lines = Vec::new();
            let line = match report.outcome {
                MateOutcome::Mate(moves) => {
                    let minimal = if report.shortest {
                        "shortest"
                    } else {
                        "shortest not established"
                    };
                    lines.push(format!(
                        "info string mate in {} plies ({minimal}), nodes {}",
                        moves.len(),
                        report.nodes
                    ));
                    let mut walk = pos.clone();
                    let words: Vec<String> = moves
                        .iter()
                        .map(|&mv| {
                            let text = write_move(&walk, mv, notation);
                            walk.play(mv);
                            text
                        })
                        .collect();
                    format!("checkmate {}", words.join(" "))
                }
                MateOutcome::NoMate => "checkmate nomate".to_string(),
                MateOutcome::Timeout => "checkmate timeout".to_string(),
            };
            lines.push(line);
            lines
        });
    }

    fn report_job_if_finished(&mut self) {
        if self.job.as_ref().is_some_and(|j| j.thread.is_finished()) {
            self.finish_job();
        }
    }

    /// Interrupts a running perft or mate search; it prints what it has to say on stopping.
    fn stop_job(&mut self) {
        if let Some(job) = &self.job {
            job.stop.set();
        }
        self.finish_job();
    }

    fn finish_job(&mut self) {
        let Some(job) = self.job.take() else {
            return;
        };
        match job.thread.join() {
            Ok(lines) => lines.iter().for_each(|l| emit(l)),
            Err(_) => error("the perft or mate search failed"),
        }
    }

    fn report(&self, pos: &Position, result: &SearchResult) {
        let notation = self.notation();
        let Some(best) = result.best.filter(|m| pos.legal_moves().contains(m)) else {
            emit("bestmove resign");
            return;
        };
        let mut line = format!("bestmove {}", write_move(pos, best, notation));
        let mut after = pos.clone();
        after.play(best);
        if let Some(ponder) = result.ponder.filter(|m| after.legal_moves().contains(m)) {
            line.push_str(&format!(" ponder {}", write_move(&after, ponder, notation)));
        }
        emit(&line);
    }

    fn report_if_finished(&mut self) {
        let done = self
            .running
            .as_ref()
            .is_some_and(|r| !r.hold && r.handle.is_finished());
        if done {
            if let Some(run) = self.running.take() {
                let result = run.handle.wait();
                self.report(&run.pos, &result);
            }
        }
    }

    /// Stops a running search; `answer` prints its `bestmove`.
    fn stop_search(&mut self, answer: bool) {
        if let Some(run) = self.running.take() {
            run.handle.stop();
            let result = run.handle.wait();
            if answer {
                self.report(&run.pos, &result);
            }
        }
    }

    fn display(&self) {
        if !self.position_given {
            emit("info string no position given; the start position is:");
        }
        let game = self.core.game();
        show(game.position());
        if let Some(outcome) = game.outcome() {
            emit(&format!("game over: {outcome}"));
        }
    }

    fn bench(&mut self) {
        if self.running.is_some() || self.job.is_some() {
            return error(
                "bench ignored: a search, perft or mate search is running (send stop first)",
            );
        }
        let mut out = EmitWriter::default();
        let engine = &self.core.settings().engine;
        if let Err(e) = crate::search::bench(None, &engine.eval, &engine.params, &mut out) {
            error(&format!("bench failed: {e}"));
        }
    }
}

fn show(pos: &Position) {
    for line in pos.pretty().lines() {
        emit(line);
    }
    emit(&format!("sfen {}", pos.to_sfen()));
    emit(&format!("xboard fen {}", pos.to_xboard_fen()));
    emit(&format!(
        "variant {} rules {} legal moves {}",
        pos.variant(),
        pos.rules(),
        pos.legal_moves().len()
    ));
    if pos.variant() == Variant::Chushogi && pos.counter_strike().is_some() {
        emit("counter-strike rule in force");
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Move;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn hash_and_threads_reach_the_engine_made_before_them() {
        let mut session = Session::new(Dialect::Usi, None);
        session.command("isready");
        session.command("setoption name USI_Hash value 16");
        session.command("setoption name Threads value 2");
        let options = session.engine().options().clone();
        assert_eq!((options.hash_mb, options.threads), (16, 2));
    }

    /// What the game record of `session` holds, move list and history included.
    fn game_facts(session: &Session) -> (String, String, usize, Vec<u64>, Vec<Move>, String) {
        let game = session.core.game();
        (
            game.start().to_sfen(),
            game.position().to_sfen(),
            game.plies(),
            game.repetition_history(),
            game.legal_moves().to_vec(),
            format!("{:?}", game.outcome()),
        )
    }

    /// A random game of at most `plies` moves (USI spellings) from `variant`'s start position
    /// under `rules`, ending early where the game does.
    fn random_game(variant: &str, rules: &str, plies: usize, seed: u64) -> Vec<String> {
        let mut session = Session::new(Dialect::Usi, None);
        session.command(&format!("setoption name USI_Variant value {variant}"));
        session.command(&format!("setoption name RuleSet value {rules}"));
        session.command("position startpos");
        let mut rng = StdRng::seed_from_u64(seed);
        let mut game = session.core.game().clone();
        let mut texts = Vec::new();
        while texts.len() < plies && game.outcome().is_none() {
            let moves = game.legal_moves();
            let mv = moves[rng.gen_range(0..moves.len())];
            texts.push(game.write(mv, Notation::Usi));
            game.play(mv).expect("a legal move");
        }
        texts
    }

    #[test]
    fn a_position_that_adds_moves_gives_the_game_a_full_replay_gives() {
        for (variant, rules, seed) in [
            ("chushogi", "lishogi", 1),
            ("chushogi", "hachu", 2),
            ("heian", "lishogi", 3),
        ] {
            let texts = random_game(variant, rules, 160, seed);
            let mut incremental = Session::new(Dialect::Usi, None);
            incremental.command(&format!("setoption name USI_Variant value {variant}"));
            incremental.command(&format!("setoption name RuleSet value {rules}"));
            for k in 0..=texts.len() {
                let command = format!("position startpos moves {}", texts[..k].join(" "));
                incremental.command(&command);
                if k % 20 == 0 || k == texts.len() {
                    let mut fresh = Session::new(Dialect::Usi, None);
                    fresh.command(&format!("setoption name USI_Variant value {variant}"));
                    fresh.command(&format!("setoption name RuleSet value {rules}"));
                    fresh.command(&command);
                    assert_eq!(
                        game_facts(&incremental),
                        game_facts(&fresh),
                        "{variant} ply {k}"
                    );
                    assert_eq!(incremental.core.game().plies(), k);
                }
            }
        }
    }

    #[test]
    fn a_refused_or_changed_position_and_a_new_option_replay_from_the_start() {
        let texts = random_game("chushogi", "lishogi", 40, 4);
        let mut session = Session::new(Dialect::Usi, None);
        let upto = |k: usize| format!("position startpos moves {}", texts[..k].join(" "));
        session.command(&upto(30));
        let before = game_facts(&session);
        // An illegal added move keeps the game the last command made.
        session.command(&format!("{} 1a1a", upto(30)));
        assert_eq!(game_facts(&session), before);
        session.command(&upto(31));
        assert_eq!(session.core.game().plies(), 31);
        // A shorter list, another start, or a new option: the game is played from its start.
        session.command(&upto(20));
        assert_eq!(session.core.game().plies(), 20);
        session.command(&format!(
            "position sfen {} moves {}",
            Position::startpos(Variant::Chushogi).to_sfen(),
            texts[..5].join(" ")
        ));
        assert_eq!(session.core.game().plies(), 5);
        session.command(&upto(25));
        session.command("setoption name RuleSet value hachu");
        assert!(session.given.is_none());
        session.command(&upto(26));
        let mut fresh = Session::new(Dialect::Usi, None);
        fresh.command("setoption name RuleSet value hachu");
        fresh.command(&upto(26));
        assert_eq!(game_facts(&session), game_facts(&fresh));
    }
}
