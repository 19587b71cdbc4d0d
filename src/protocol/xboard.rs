//! XBoard / WinBoard protocol version 2 (docs/rules.md section 12).
//!
//! The session keeps the game (in the shared `session::Core`: a `GameRecord`, which judges
//! legality, repetition and the game's end, as for the match runner), whose side the engine
//! plays, force mode, the time control and at most one running search, either thinking about a
//! move or analysing. Commands that change the game stop a running search first and discard its
//! result.
//! Lion double moves go out as one `move` command per leg (all legs but the last end with a
//! comma), passes as `@@@@`. Heian is offered as engine-defined variants, described to the GUI
//! with `setup` and `piece` commands.

mod highlight;

use super::session::Core;
use super::{emit, engine_name, pv_text, serve, Front, Lines};
use crate::board::{Color, Family, Variant};
use crate::game::{GameRecord, PlayError};
use crate::notation::{parse_move, Notation};
use crate::position::Position;
use crate::search::{Engine, Limits, Score, SearchHandle, SearchInfo, MAX_TIME};
use std::sync::{Arc, Mutex};
use std::time::Duration;

const VARIANTS: &str = "chu,heian,heian9x8,heian8x9,heian8x8";

/// Depth, nodes and time of the latest search report, for the `.` command.
type LastInfo = Arc<Mutex<Option<(u32, u64, Duration)>>>;

struct Running {
    handle: SearchHandle,
    analyzing: bool,
}

/// `level MPS BASE INC`.
#[derive(Clone, Copy, Default)]
struct TimeControl {
    moves_per_session: u32,
    increment: Duration,
}

struct Session {
    /// Options, the engine and the game.
    core: Core,
    force: bool,
    engine_side: Color,
    game_over: bool,
    level: TimeControl,
    move_time: Option<Duration>,
    max_depth: Option<u32>,
    clock: Option<Duration>,
    opponent_clock: Option<Duration>,
    post: bool,
    analyze: bool,
    running: Option<Running>,
    last_info: LastInfo,
}

/// Feeds `lines` to a fresh session as the stdin loop would, with every search told to stop at
/// once: a search for a move is then reported (its move played and sent) as the loop reports
/// it, an analysis is ended. The entry of the fuzz targets (the `fuzzing` module).
pub(super) fn feed_stopping_searches(lines: &[&str]) {
    let mut session = Session::new();
    for line in lines {
        if !session.handle(line) {
            break;
        }
        if let Some(run) = &session.running {
            if run.analyzing {
                session.abort_search();
            } else {
                run.handle.stop();
                while !run.handle.is_finished() {
                    std::thread::sleep(Duration::from_millis(1));
                }
                session.report_finished();
            }
        }
    }
    session.close(false);
}

/// Runs the loop after the `xboard` command.
pub(super) fn run(lines: &Lines) {
    let mut session = Session::new();
    session.core.set_waker(lines.waker());
    serve(lines, &mut session);
}

impl Front for Session {
    fn busy(&self) -> bool {
        self.running.is_some()
    }

    fn handle(&mut self, line: &str) -> bool {
        self.command(line)
    }

    fn report_finished(&mut self) {
        self.move_if_finished();
    }

    fn close(&mut self, _eof: bool) {
        self.abort_search();
    }
}

fn capitalized(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) => c.to_ascii_uppercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

/// XBoard scores: centipawns, mates as 100000 minus the distance in plies.
fn xboard_score(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(plies) if plies >= 0 => 100_000 - plies,
        Score::Mate(plies) => -100_000 - plies,
    }
}

/// Seconds as a duration, if finite, not negative and at most `MAX_TIME`.
fn seconds_within_range(seconds: f64) -> Option<Duration> {
    let max = MAX_TIME.as_secs_f64();
    (seconds.is_finite() && (0.0..=max).contains(&seconds))
        .then(|| Duration::from_secs_f64(seconds))
}

/// `5`, `0:30`, `1:30.5` (minutes, or minutes and seconds) as a duration.
fn parse_base(text: &str) -> Option<Duration> {
    let (minutes, seconds) = match text.split_once(':') {
        Some((m, s)) => (m.parse::<f64>().ok()?, s.parse::<f64>().ok()?),
        None => (text.parse::<f64>().ok()?, 0.0),
    };
    seconds_within_range(minutes * 60.0 + seconds)
}

fn parse_seconds(text: &str) -> Option<Duration> {
    seconds_within_range(text.parse().ok()?)
}

/// A clock in centiseconds (`time`, `otim`); negative values mean no time left.
fn parse_centis(text: &str) -> Option<Duration> {
    let c: i64 = text.parse().ok()?;
    let ms = (c.max(0) as u64).checked_mul(10)?;
    let clock = Duration::from_millis(ms);
    (clock <= MAX_TIME).then_some(clock)
}

/// The Betza moves of each Heian piece, for the GUI.
const HEIAN_PIECES: &[(&str, &str)] = &[
    ("P&", "fW"),
    ("+P&", "WfF"),
    ("L&", "fR"),
    ("+L&", "WfF"),
    ("N&", "ffN"),
    ("+N&", "WfF"),
    ("S&", "FfW"),
    ("+S&", "WfF"),
    ("G&", "WfF"),
    ("K&", "K"),
];

/// XBoard's shogi piece table: P N (B R) L S (E) G, their promoted forms, K.
const HEIAN_PIECE_TO_CHAR: &str = "PNBRLSE..G.+++++++Kpnbrlse..g.+++++++k";

impl Session {
    fn new() -> Session {
        Session {
            core: Core::default(),
            force: false,
            engine_side: Color::Gote,
            game_over: false,
            level: TimeControl::default(),
            move_time: None,
            max_depth: None,
            clock: None,
            opponent_clock: None,
            post: false,
            analyze: false,
            running: None,
            last_info: Arc::new(Mutex::new(None)),
        }
    }

    fn engine(&mut self) -> &mut Engine {
        self.core.engine()
    }

    /// The game, kept by the core.
    fn game(&self) -> &GameRecord {
        self.core.game()
    }

    /// Handles one line; returns false on `quit`.
    fn command(&mut self, line: &str) -> bool {
        let (name, rest) = match line.split_once(char::is_whitespace) {
            Some((n, r)) => (n, r.trim()),
            None => (line, ""),
        };
        match name {
            "" => {}
            "protover" => self.features(),
            "xboard" | "accepted" | "rejected" | "easy" | "hard" | "random" | "computer"
            | "name" | "rating" | "ics" | "put" | "hover" | "hint" | "bk" | "draw" | "white"
            | "black" | "beep" | "bogus" => {}
            "quit" => return false,
            "new" => self.new_game(),
            "variant" => self.variant(rest),
            "force" => {
                self.abort_search();
                self.force = true;
            }
            "go" => self.go(),
            "playother" => {
                self.abort_search();
                self.force = false;
                self.engine_side = !self.game().position().side_to_move();
            }
            "usermove" => self.user_move(rest),
            "setboard" => self.setboard(rest),
            "undo" => self.take_back(1),
            "remove" => self.take_back(2),
            "level" => self.level(rest, line),
            "st" | "sd" | "time" | "otim" => self.clock_command(name, rest, line),
            "post" => self.post = true,
            "nopost" => self.post = false,
            "analyze" => {
                self.abort_search();
                self.analyze = true;
                self.start_analysis();
            }
            "exit" => {
                self.abort_search();
                self.analyze = false;
            }
            "." => self.status(),
            "?" => {
                if let Some(run) = &self.running {
                    if !run.analyzing {
                        run.handle.stop();
                    }
                }
            }
            "ping" => emit(&format!("pong {rest}")),
            "result" => {
                self.abort_search();
                self.game_over = true;
            }
            "option" => self.option(rest, line),
            "memory" => self.set_option("USI_Hash", rest, line),
            "cores" => self.set_option("Threads", rest, line),
            "lift" => self.lift(rest),
            other => {
                if parse_move(self.game().position(), line, Notation::Xboard).is_ok() {
                    self.user_move(line);
                } else {
                    emit(&format!("Error (unknown command): {}", super::echo(other)));
                }
            }
        }
        true
    }

    /// `go`: the engine plays the side to move from now on and thinks.
    fn go(&mut self) {
        self.abort_search();
        if self.game_over {
            emit("Error (the game is over: send new or setboard): go");
            return;
        }
        self.force = false;
        self.engine_side = self.game().position().side_to_move();
        self.think();
    }

    /// `st`, `sd`, `time` and `otim`: a limit or a clock, refused with the reason when out of
    /// range (the old value stays).
    fn clock_command(&mut self, name: &str, rest: &str, line: &str) {
        let centis = MAX_TIME.as_millis() / 10;
        match name {
            "st" => match parse_seconds(rest) {
                Some(d) => self.move_time = Some(d),
                None => emit(&format!(
                    "Error (st needs seconds from 0 to {}): {line}",
                    MAX_TIME.as_secs()
                )),
            },
            "sd" => match rest.parse::<u32>() {
                Ok(d) if d >= 1 => self.max_depth = Some(d),
                _ => emit(&format!("Error (sd needs a depth of 1 or more): {line}")),
            },
            "time" => match parse_centis(rest) {
                Some(d) => self.clock = Some(d),
                None => emit(&format!(
                    "Error (time needs centiseconds up to {centis}): {line}"
                )),
            },
            _ => match parse_centis(rest) {
                Some(d) => self.opponent_clock = Some(d),
                None => emit(&format!(
                    "Error (otim needs centiseconds up to {centis}): {line}"
                )),
            },
        }
    }

    fn features(&self) {
        emit(&format!(
            "feature myname=\"{}\" variants=\"{VARIANTS}\" setboard=1 usermove=1 ping=1 sigint=0 sigterm=0 colors=0 memory=1 smp=1 highlight=1 debug=1",
            engine_name()
        ));
        for line in self.core.settings().xboard_lines() {
            emit(&line);
        }
        emit("feature done=1");
    }

    fn new_game(&mut self) {
        self.abort_search();
        self.core.set_variant(Variant::Chushogi);
        self.core.start_game(Position::startpos(Variant::Chushogi));
        self.force = false;
        self.engine_side = Color::Gote;
        self.game_over = false;
        self.max_depth = None;
        self.move_time = None;
        self.analyze = false;
        self.engine().new_game();
    }

    fn variant(&mut self, name: &str) {
        self.abort_search();
        let Some(variant) = Variant::from_name(name) else {
            emit(&format!(
                "Error (unknown variant, I play {VARIANTS}): variant {name}"
            ));
            return;
        };
        self.core.set_variant(variant);
        self.core.start_game(Position::startpos(variant));
        self.game_over = false;
        if variant.family() == Family::Heian {
            emit(&format!(
                "setup ({HEIAN_PIECE_TO_CHAR}) {}x{}+0_shogi {}",
                variant.width(),
                variant.height(),
                self.game().position().to_xboard_fen()
            ));
            for (id, betza) in HEIAN_PIECES {
                emit(&format!("piece {id} {betza}"));
            }
        }
    }

    fn setboard(&mut self, fen: &str) {
        self.abort_search();
        match Position::from_xboard_fen(self.core.settings().variant, fen) {
            Ok(pos) => {
                self.core.start_game(pos);
                self.game_over = false;
                self.restart_analysis();
            }
            Err(e) => emit(&format!("tellusererror Illegal position: {e}")),
        }
    }

    fn user_move(&mut self, text: &str) {
        self.abort_search();
        if self.game_over {
            emit(&format!("Illegal move (the game is over): {text}"));
            return;
        }
        let played = match self.core.game_mut().play_text(text, Notation::Xboard) {
            Ok(_) => Ok(()),
            Err(PlayError::Move(e)) => Err(e.reason.to_string()),
            Err(PlayError::Game(e)) => Err(e.to_string()),
        };
        if let Err(reason) = played {
            emit(&format!("Illegal move ({reason}): {text}"));
            return;
        }
        if self.announce_end() {
            return;
        }
        if self.analyze {
            self.start_analysis();
        } else if !self.force && self.game().position().side_to_move() == self.engine_side {
            self.think();
        }
    }

    fn take_back(&mut self, plies: usize) {
        self.abort_search();
        for _ in 0..plies {
            if self.core.game_mut().undo().is_none() {
                emit("Error (command not legal now): nothing to take back");
                break;
            }
        }
        self.game_over = false;
        self.restart_analysis();
    }

    fn level(&mut self, args: &str, line: &str) {
        let words: Vec<&str> = args.split_whitespace().collect();
        let parsed = match words.as_slice() {
            [mps, base, inc] => mps
                .parse::<u32>()
                .ok()
                .zip(parse_base(base))
                .zip(parse_seconds(inc)),
            _ => None,
        };
        match parsed {
            Some(((mps, base), inc)) => {
                self.level = TimeControl {
                    moves_per_session: mps,
                    increment: inc,
                };
                self.clock = Some(base);
                self.opponent_clock = Some(base);
                self.move_time = None;
            }
            None => emit(&format!("Error (level needs MPS BASE INC): {line}")),
        }
    }

    /// `option NAME=VALUE`.
    fn option(&mut self, args: &str, line: &str) {
        let (name, value) = args.split_once('=').unwrap_or((args, ""));
        self.set_option(name, value, line);
    }

    /// Sets an option of the table (`option`, `memory`, `cores`); new rules apply to the game
    /// at once, new engine options at the next search.
    fn set_option(&mut self, name: &str, value: &str, line: &str) {
        match self.core.set_option(name, value) {
            // The search parameters listed once asked for: XBoard takes features at any time.
            Ok(changed) if changed.tune_options && self.core.settings().tune_options => {
                for line in self.core.settings().xboard_lines() {
                    if line.contains("option=\"Tune_") {
                        emit(&line);
                    }
                }
            }
            Ok(_) => {}
            Err(e) => emit(&format!(
                "Error ({}): {}",
                super::echo(&e.to_string()),
                super::echo(line)
            )),
        }
    }

    fn lift(&self, square: &str) {
        match highlight::board(self.game().position(), square) {
            Some(board) => emit(&format!("highlight {board}")),
            None => emit(&format!("Error (not a square): lift {square}")),
        }
    }

    fn status(&self) {
        if let Ok(last) = self.last_info.lock() {
            if let (Some((depth, nodes, time)), Some(_)) = (*last, &self.running) {
                emit(&format!(
                    "stat01: {} {nodes} {depth} 0 0",
                    time.as_millis() / 10
                ));
            }
        }
    }

    fn limits(&self) -> Limits {
        let mut limits = Limits::default();
        let us = self.engine_side;
        limits.time[us.index()] = self.clock;
        limits.time[(!us).index()] = self.opponent_clock;
        limits.increment = [self.level.increment; 2];
        if self.level.moves_per_session > 0 {
            let ours = self.game().plies() as u32 / 2;
            limits.moves_to_go =
                Some(self.level.moves_per_session - ours % self.level.moves_per_session);
        }
        limits.movetime = self.move_time;
        limits.depth = self.max_depth;
        if self.clock.is_none() && self.move_time.is_none() && self.max_depth.is_none() {
            limits.movetime = Some(Duration::from_secs(5));
        }
        limits
    }

    fn search(&mut self, limits: Limits, analyzing: bool) {
        let post = self.post || analyzing;
        let shown = self.game().position().clone();
        let last = Arc::clone(&self.last_info);
        if let Ok(mut l) = last.lock() {
            *l = None;
        }
        let on_info = Box::new(move |info: &SearchInfo| {
            if let Ok(mut l) = last.lock() {
                *l = Some((info.depth, info.nodes, info.time));
            }
            if post {
                emit(&format!(
                    "{} {} {} {} {}",
                    info.depth,
                    xboard_score(info.score.in_centipawns(shown.family())),
                    info.time.as_millis() / 10,
                    info.nodes,
                    pv_text(&shown, &info.pv, Notation::Xboard)
                ));
            }
        });
        let pos = self.game().position().clone();
        let handle = self.engine().start(&pos, limits, on_info);
        self.running = Some(Running { handle, analyzing });
    }

    fn think(&mut self) {
        if self.game_over || self.announce_end() {
            return;
        }
        if self.game().legal_moves().is_empty() {
            self.announce_end();
            return;
        }
        let limits = self.limits();
        self.search(limits, false);
    }

    fn start_analysis(&mut self) {
        self.abort_search();
        if self.game().legal_moves().is_empty() {
            return;
        }
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        self.search(limits, true);
    }

    fn restart_analysis(&mut self) {
        if self.analyze {
            self.start_analysis();
        }
    }

    /// Stops a running search and forgets its result.
    fn abort_search(&mut self) {
        if let Some(run) = self.running.take() {
            run.handle.stop();
            let _ = run.handle.wait();
        }
    }

    /// When a search for a move has ended, plays and sends its move.
    fn move_if_finished(&mut self) {
        let done = self
            .running
            .as_ref()
            .is_some_and(|r| !r.analyzing && r.handle.is_finished());
        if !done {
            return;
        }
        let Some(run) = self.running.take() else {
            return;
        };
        let result = run.handle.wait();
        let Some(best) = result.best.filter(|&m| self.game().is_legal(m)) else {
            if !self.announce_end() {
                emit("resign");
                self.game_over = true;
            }
            return;
        };
        if matches!(result.score, Score::Mate(plies) if plies < 0) {
            // Every move loses by force: resign rather than let the GUI judge a lost position
            // by its own rules.
            emit("resign");
            self.game_over = true;
            return;
        }
        let text = self.game().write(best, Notation::Xboard);
        if self.core.game_mut().play(best).is_err() {
            // Not reached: `think` searches only games that are not over.
            emit("resign");
            self.game_over = true;
            return;
        }
        let legs: Vec<&str> = text.split(',').collect();
        for (i, leg) in legs.iter().enumerate() {
            let comma = if i + 1 < legs.len() { "," } else { "" };
            emit(&format!("move {leg}{comma}"));
        }
        self.announce_end();
    }

    /// Sends the result if the game is over; returns whether it is.
    fn announce_end(&mut self) -> bool {
        let Some(outcome) = self.game().outcome() else {
            return false;
        };
        let comment = match outcome.winner {
            Some(c) => format!(
                "{} wins by {}",
                capitalized(c.name()),
                outcome.reason.describe()
            ),
            None => format!("Draw by {}", outcome.reason.describe()),
        };
        emit(&format!("{} {{{comment}}}", outcome.score()));
        self.game_over = true;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `option` once changed only MultiPV and move overhead of a running engine; every engine
    /// option now reaches the engine, whichever command set it.
    #[test]
    fn hash_and_threads_reach_the_engine_by_option_memory_and_cores() {
        let mut session = Session::new();
        session.command("new");
        session.command("option USI_Hash=16");
        session.command("option Threads=2");
        let options = session.engine().options().clone();
        assert_eq!((options.hash_mb, options.threads), (16, 2));
        session.command("memory 8");
        session.command("cores 3");
        let options = session.engine().options().clone();
        assert_eq!((options.hash_mb, options.threads), (8, 3));
    }
}
