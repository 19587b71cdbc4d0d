//! An engine as a child process: commands go to its stdin, and a reader thread turns its stdout
//! into lines on a channel, so the runner can wait for an answer with a deadline and notice at
//! once when the engine dies. Output that is not UTF-8 is read lossily, never rejected.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::thread;
use std::time::Instant;

/// Why no line came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The deadline passed first.
    Timeout,
    /// The engine closed its output (crashed or quit).
    Eof,
}

/// Why `EngineProcess::start` could not start an engine.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The shell that runs the command could not be started.
    #[error("cannot start engine '{command}': {error}")]
    Spawn {
        /// The command line.
        command: String,
        /// What the operating system said.
        error: std::io::Error,
    },
    /// The child came without the stdout pipe asked for.
    #[error("engine '{0}' has no stdout")]
    NoStdout(String),
}

/// A running engine: its stdin, and the lines its reader thread has read from its stdout
/// (stderr is discarded).
pub struct EngineProcess {
    command: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    closed: bool,
    /// Every line sent and received, when debugging is on.
    log: bool,
}

impl EngineProcess {
    /// Starts `command` through `sh -c exec ...`, so quoting and arguments work as in a shell.
    pub fn start(command: &str, log: bool) -> Result<EngineProcess, StartError> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("exec {command}"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|error| StartError::Spawn {
                command: command.to_string(),
                error,
            })?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| StartError::NoStdout(command.to_string()))?;
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(EngineProcess {
            command: command.to_string(),
            child,
            stdin,
            lines: rx,
            closed: false,
            log,
        })
    }

    /// The command line it was started with.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// Sends one command line. A write to a dead engine is not an error here: the next read
    /// reports the end of its output.
    pub fn send(&mut self, line: &str) {
        if self.log {
            eprintln!("> [{}] {line}", self.command);
        }
        if let Some(stdin) = self.stdin.as_mut() {
            let ok = writeln!(stdin, "{line}").and_then(|_| stdin.flush());
            if ok.is_err() {
                self.stdin = None;
            }
        }
    }

    /// The next line, waiting until `deadline`.
    pub fn read_line(&mut self, deadline: Instant) -> Result<String, ReadError> {
        if self.closed {
            return Err(ReadError::Eof);
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                if self.log {
                    eprintln!("< [{}] {line}", self.command);
                }
                Ok(line)
            }
            Err(RecvTimeoutError::Timeout) => Err(ReadError::Timeout),
            Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Err(ReadError::Eof)
            }
        }
    }

    /// Drops every line already received (stale output from an earlier search).
    pub fn drain(&mut self) {
        while let Ok(line) = self.lines.try_recv() {
            if self.log {
                eprintln!("< [{}] {line} (stale)", self.command);
            }
        }
    }

    /// Stops the engine: asks politely, then kills it.
    pub fn stop(&mut self, quit_command: &str) {
        self.send(quit_command);
        self.stdin = None;
        let until = Instant::now() + std::time::Duration::from_millis(300);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(std::time::Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_errors_name_the_command() {
        let error = std::io::Error::from(std::io::ErrorKind::NotFound);
        let text = StartError::Spawn {
            command: "./missing --fast".into(),
            error,
        }
        .to_string();
        assert!(
            text.contains("cannot start engine './missing --fast'"),
            "{text}"
        );
        let text = StartError::NoStdout("./e".into()).to_string();
        assert!(text.contains("'./e'"), "{text}");
    }
}
