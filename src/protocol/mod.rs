//! Protocols on stdin/stdout: the first command picks USI (`usi`), XBoard (`xboard`) or
//! UCI-style USI with XBoard squares (`uci`).
//!
//! Design: a reader thread turns stdin lines into messages on a channel, so the protocol loop can
//! answer `stop`, `ponderhit`, `isready` and `quit` while a search runs; a search that ends
//! wakes the loop through the same channel (`Lines::waker`), which prints its result at once
//! (polling for it cost each move time a short increment cannot spare). Search progress is
//! printed from the search thread through the `on_info` callback. Every line goes out through
//! `emit`, which holds the stdout lock for the line and flushes it. The protocols are thin: rules,
//! notation and search live elsewhere.
//!
//! A host without stdin or threads (the browser build, `wasm`) hands lines to `LineFront`
//! instead, which drives the same USI session one line at a time; there `emit` hands each line
//! to the host.

mod game_commands;
mod given_position;
mod line_front;
pub mod options;
mod session;
mod usi;
#[cfg(target_arch = "wasm32")]
mod wasm;
#[cfg(not(target_arch = "wasm32"))]
mod xboard;

pub use line_front::LineFront;
pub use usi::{Dialect, LineSource};

use crate::moves::Move;
use crate::notation::{write_move, Notation};
use crate::position::Position;
use std::io::Write;
#[cfg(not(target_arch = "wasm32"))]
use std::{
    cell::Cell,
    sync::mpsc::{self, Receiver, RecvTimeoutError, Sender},
    sync::Arc,
    time::Duration,
};

/// The name and version sent in handshakes.
pub fn engine_name() -> String {
    format!("shishi {}", env!("CARGO_PKG_VERSION"))
}

/// Set while output is discarded ([`quiet`]).
#[cfg(not(target_arch = "wasm32"))]
static QUIET: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Runs `f` with every line `emit` would write discarded, from every thread: the fuzz targets
/// (the `fuzzing` module) run sessions millions of times and read none of their output.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn quiet<T>(f: impl FnOnce() -> T) -> T {
    use std::sync::atomic::Ordering::Relaxed;
    let before = QUIET.swap(true, Relaxed);
    let out = f();
    QUIET.store(before, Relaxed);
    out
}

/// An XBoard session fed `lines`, its searches stopped at once (the `fuzzing` module).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn xboard_session_for_fuzzing(lines: &[&str]) {
    xboard::feed_stopping_searches(lines);
}

/// Writes one line to stdout and flushes it; a closed stdout is ignored (the loop ends at EOF).
#[cfg(not(target_arch = "wasm32"))]
pub fn emit(line: &str) {
    if QUIET.load(std::sync::atomic::Ordering::Relaxed) {
        return;
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Hands one line to the JavaScript host.
#[cfg(target_arch = "wasm32")]
pub fn emit(line: &str) {
    crate::platform::js::emit_line(line);
}

/// An `io::Write` that sends what it is given through `emit`, a line at a time, so text written
/// for a stream (the bench report) reaches a host without stdout too.
#[derive(Default)]
pub struct EmitWriter {
    partial: Vec<u8>,
}

impl Write for EmitWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for &byte in buf {
            if byte == b'\n' {
                emit(&String::from_utf8_lossy(&self.partial));
                self.partial.clear();
            } else {
                self.partial.push(byte);
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for EmitWriter {
    fn drop(&mut self) {
        if !self.partial.is_empty() {
            emit(&String::from_utf8_lossy(&self.partial));
        }
    }
}

/// What the protocol loop gets from stdin.
#[cfg(not(target_arch = "wasm32"))]
pub enum Input {
    /// A line, without its line break.
    Line(String),
    /// Nothing arrived within the poll interval.
    Idle,
    /// Stdin is closed.
    Eof,
}

/// What the reader thread and the search hand the protocol loop.
#[cfg(not(target_arch = "wasm32"))]
enum Message {
    Line(String),
    /// A search has ended: look at it now.
    Wake,
    /// Stdin is closed.
    Eof,
}

/// The longest input line kept: a `loadgame` of the largest record fits; a longer line is
/// discarded as it is read, so that no input can take the memory.
#[cfg(not(target_arch = "wasm32"))]
const MAX_LINE_BYTES: usize = 16 << 20;

/// Lines from stdin, read on their own thread, and the wake-ups of ended searches on the same
/// channel, so the loop answers `bestmove` the moment a search ends.
#[cfg(not(target_arch = "wasm32"))]
pub struct Lines {
    rx: Receiver<Message>,
    /// For wakers; the channel never disconnects, so the reader sends `Eof`.
    tx: Sender<Message>,
    eof: Cell<bool>,
}

#[cfg(not(target_arch = "wasm32"))]
impl Lines {
    /// Starts the reader thread. Invalid UTF-8 is replaced, never fatal.
    pub fn from_stdin() -> Lines {
        let (tx, rx) = mpsc::channel();
        let reader = tx.clone();
        std::thread::spawn(move || {
            let stdin = std::io::stdin();
            let mut input = stdin.lock();
            let mut buf = Vec::new();
            loop {
                match crate::platform::read_line_capped(&mut input, &mut buf, MAX_LINE_BYTES) {
                    Ok(None) | Err(_) => break,
                    Ok(Some(0)) => {
                        let line = String::from_utf8_lossy(&buf).trim().to_string();
                        if reader.send(Message::Line(line)).is_err() {
                            return;
                        }
                    }
                    Ok(Some(dropped)) => emit(&format!(
                        "info string error a line of {} bytes is over the {} MiB a line may hold: ignored",
                        buf.len() + dropped,
                        MAX_LINE_BYTES >> 20
                    )),
                }
            }
            let _ = reader.send(Message::Eof);
        });
        Lines {
            rx,
            tx,
            eof: Cell::new(false),
        }
    }

    /// A waker for the engine: it makes a waiting `next` or `poll` return `Input::Idle`.
    pub fn waker(&self) -> crate::search::Waker {
        let tx = self.tx.clone();
        Arc::new(move || {
            let _ = tx.send(Message::Wake);
        })
    }

    fn input(&self, message: Message) -> Input {
        match message {
            Message::Line(line) => Input::Line(line),
            Message::Wake => Input::Idle,
            Message::Eof => {
                self.eof.set(true);
                Input::Eof
            }
        }
    }

    /// Waits for the next line (or a search's end, as `Input::Idle`).
    pub fn next(&self) -> Input {
        if self.eof.get() {
            return Input::Eof;
        }
        match self.rx.recv() {
            Ok(message) => self.input(message),
            Err(_) => Input::Eof,
        }
    }

    /// Waits at most `wait` for the next line (or a search's end).
    pub fn poll(&self, wait: Duration) -> Input {
        if self.eof.get() {
            return Input::Eof;
        }
        match self.rx.recv_timeout(wait) {
            Ok(message) => self.input(message),
            Err(RecvTimeoutError::Timeout) => Input::Idle,
            Err(RecvTimeoutError::Disconnected) => Input::Eof,
        }
    }
}

/// How often a running search is checked for its end when no wake-up comes (a perft or a mate
/// search, which have none).
#[cfg(not(target_arch = "wasm32"))]
pub const POLL: Duration = Duration::from_millis(2);

/// The principal variation as text, stopping at the first move that is not legal.
pub fn pv_text(pos: &Position, pv: &[Move], notation: Notation) -> String {
    let mut walk = pos.clone();
    let mut words = Vec::with_capacity(pv.len());
    for &mv in pv {
        if !walk.legal_moves().contains(&mv) {
            break;
        }
        words.push(write_move(&walk, mv, notation));
        walk.play(mv);
    }
    words.join(" ")
}

/// A protocol session as a loop drives it: a line at a time, and whatever runs between lines.
/// The browser build has no stdin loop (`serve`); its host feeds the USI session itself.
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
trait Front {
    /// Whether a search (or a perft, a mate search) runs, so input is polled rather than awaited.
    fn busy(&self) -> bool;
    /// Handles one line; false on `quit`.
    fn handle(&mut self, line: &str) -> bool;
    /// Reports whatever has finished since the last call.
    fn report_finished(&mut self);
    /// Ends what runs as the session ends: at `quit`, or at the end of input (`eof`).
    fn close(&mut self, eof: bool);
}

/// Hands stdin lines to `session` until `quit` or the end of input, polling while it is busy.
#[cfg(not(target_arch = "wasm32"))]
fn serve(lines: &Lines, session: &mut impl Front) {
    loop {
        let input = if session.busy() {
            lines.poll(POLL)
        } else {
            lines.next()
        };
        match input {
            Input::Line(line) => {
                if !session.handle(&line) {
                    return session.close(false);
                }
            }
            Input::Idle => {}
            Input::Eof => return session.close(true),
        }
        session.report_finished();
    }
}

/// What the first command of a session asks for.
enum First {
    Protocol(Protocol),
    Quit,
    /// An empty line.
    Nothing,
    Unknown(String),
}

enum Protocol {
    Usi(Dialect),
    Xboard,
}

fn first_command(line: &str) -> First {
    match line.split_whitespace().next().unwrap_or("") {
        "" => First::Nothing,
        "usi" => First::Protocol(Protocol::Usi(Dialect::Usi)),
        "uci" => First::Protocol(Protocol::Usi(Dialect::Uci)),
        "xboard" => First::Protocol(Protocol::Xboard),
        "quit" => First::Quit,
        other => First::Unknown(other.to_string()),
    }
}

fn unknown_first_command(command: &str) {
    emit(&format!(
        "info string error unknown command: {} (start with usi, xboard or uci)",
        echo(command)
    ));
}

/// `text` as an error message quotes it: whole when short, else its start and its length, so
/// that a huge token is not sent back whole.
pub(crate) fn echo(text: &str) -> String {
    const SHOWN: usize = 120;
    match text.char_indices().nth(SHOWN) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}… ({} bytes)", &text[..cut], text.len()),
    }
}

/// Reads commands from stdin until `quit` or EOF; the first command picks the protocol.
#[cfg(not(target_arch = "wasm32"))]
pub fn run_stdio() {
    // One line before any command, as Stockfish starts: a user who runs the binary by hand sees
    // what it is; a GUI reads past it.
    emit(&format!(
        "{} by the shishi authors: Chu Shogi and Heian Shogi; start with usi, xboard or uci",
        engine_name()
    ));
    let lines = Lines::from_stdin();
    loop {
        let line = match lines.next() {
            Input::Line(l) => l,
            Input::Idle => continue,
            Input::Eof => return,
        };
        match first_command(&line) {
            First::Nothing => continue,
            First::Protocol(Protocol::Usi(dialect)) => return usi::run(&lines, dialect),
            First::Protocol(Protocol::Xboard) => return xboard::run(&lines),
            First::Quit => return,
            First::Unknown(other) => unknown_first_command(&other),
        }
    }
}
