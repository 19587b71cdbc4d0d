//! Protocols on stdin/stdout: the first command picks USI (`usi`), XBoard (`xboard`) or
//! UCI-style USI with XBoard squares (`uci`).
//!
//! Design: a reader thread turns stdin lines into messages on a channel, so the protocol loop can
//! answer `stop`, `ponderhit`, `isready` and `quit` while a search runs; the loop polls the
//! running search between messages and prints its result when it ends. Search progress is
//! printed from the search thread through the `on_info` callback. Every line goes out through
//! `emit`, which holds the stdout lock for the line and flushes it. The protocols are thin: rules,
//! notation and search live elsewhere.

pub mod options;
mod usi;
mod xboard;

use crate::moves::Move;
use crate::notation::{write_move, Notation};
use crate::position::Position;
use std::io::{BufRead, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

/// The name and version sent in handshakes.
pub fn engine_name() -> String {
    format!("shishi {}", env!("CARGO_PKG_VERSION"))
}

/// Writes one line to stdout and flushes it; a closed stdout is ignored (the loop ends at EOF).
pub fn emit(line: &str) {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// What the protocol loop gets from stdin.
pub enum Input {
    Line(String),
    /// Nothing arrived within the poll interval.
    Idle,
    /// Stdin is closed.
    Eof,
}

/// Lines from stdin, read on their own thread.
pub struct Lines {
    rx: Receiver<String>,
}

impl Lines {
    /// Starts the reader thread. Invalid UTF-8 is replaced, never fatal.
    pub fn from_stdin() -> Lines {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let stdin = std::io::stdin();
            let mut input = stdin.lock();
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match input.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim().to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Lines { rx }
    }

    /// Waits for the next line.
    pub fn next(&self) -> Input {
        match self.rx.recv() {
            Ok(line) => Input::Line(line),
            Err(_) => Input::Eof,
        }
    }

    /// Waits at most `wait` for the next line.
    pub fn poll(&self, wait: Duration) -> Input {
        match self.rx.recv_timeout(wait) {
            Ok(line) => Input::Line(line),
            Err(RecvTimeoutError::Timeout) => Input::Idle,
            Err(RecvTimeoutError::Disconnected) => Input::Eof,
        }
    }
}

/// How often a running search is checked for its end.
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

/// Reads commands from stdin until `quit` or EOF; the first command picks the protocol.
pub fn run_stdio() {
    let lines = Lines::from_stdin();
    loop {
        let line = match lines.next() {
            Input::Line(l) => l,
            Input::Idle => continue,
            Input::Eof => return,
        };
        let command = line.split_whitespace().next().unwrap_or("");
        match command {
            "" => continue,
            "usi" => return usi::run(&lines, usi::Dialect::Usi),
            "uci" => return usi::run(&lines, usi::Dialect::Uci),
            "xboard" => return xboard::run(&lines),
            "quit" => return,
            other => emit(&format!(
                "info string error unknown command: {other} (start with usi, xboard or uci)"
            )),
        }
    }
}
