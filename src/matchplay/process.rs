//! An engine as a child process: commands go to its stdin, and a reader thread turns its stdout
//! into lines on a channel, so the runner can wait for an answer with a deadline and notice at
//! once when the engine dies. Output that is not UTF-8 is read lossily, never rejected.

use std::collections::VecDeque;
use std::io::{BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The longest engine output line kept; the rest of a longer one is dropped as it is read.
const MAX_LINE_BYTES: usize = 1 << 20;
/// How many of an engine's last stderr lines are kept, to say why it did not start.
const STDERR_LINES: usize = 5;

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

/// A running engine: its stdin, the lines its reader thread has read from its stdout, and the
/// last lines of its stderr.
pub struct EngineProcess {
    command: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    closed: bool,
    /// Every line sent and received, when debugging is on.
    log: bool,
    stderr: Arc<Mutex<VecDeque<String>>>,
}

/// Reads `input` line by line (lines capped at `MAX_LINE_BYTES`), handing each to `take` until
/// it says stop.
fn read_lines(input: impl Read, mut take: impl FnMut(String) -> bool) {
    let mut reader = BufReader::new(input);
    let mut buf = Vec::new();
    while let Ok(Some(_)) = crate::platform::read_line_capped(&mut reader, &mut buf, MAX_LINE_BYTES)
    {
        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
        if !take(line) {
            break;
        }
    }
}

/// The process for an engine's command line. On Unix it runs through `sh -c exec ...`, so
/// quoting and arguments work as in a shell. Windows has no `sh`: there the program is the first
/// word (in double quotes where its path holds spaces, `"C:\Program Files\e\e.exe" -x`), and
/// the rest of the line goes to it untouched, as `CreateProcess` and WinBoard pass it.
fn engine_command(command: &str) -> Command {
    #[cfg(windows)]
    {
        use std::os::windows::process::CommandExt;
        let line = command.trim_start();
        let (program, rest) = match line.strip_prefix('"') {
            Some(quoted) => quoted.split_once('"').unwrap_or((quoted, "")),
            None => line.split_once(char::is_whitespace).unwrap_or((line, "")),
        };
        let mut cmd = Command::new(program);
        if !rest.trim().is_empty() {
            cmd.raw_arg(rest.trim());
        }
        cmd
    }
    #[cfg(not(windows))]
    {
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(format!("exec {command}"));
        cmd
    }
}

impl EngineProcess {
    /// Starts `command` as the system's own shell would read it: see [`engine_command`].
    pub fn start(command: &str, log: bool) -> Result<EngineProcess, StartError> {
        let mut child = engine_command(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
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
        thread::spawn(move || read_lines(stdout, |line| tx.send(line).is_ok()));
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        if let Some(err) = child.stderr.take() {
            let kept = Arc::clone(&stderr);
            thread::spawn(move || {
                read_lines(err, |line| {
                    if let Ok(mut kept) = kept.lock() {
                        if kept.len() == STDERR_LINES {
                            kept.pop_front();
                        }
                        kept.push_back(line);
                    }
                    true
                });
            });
        }
        Ok(EngineProcess {
            command: command.to_string(),
            child,
            stdin,
            lines: rx,
            closed: false,
            log,
            stderr,
        })
    }

    /// Why the engine's output ended, as far as can be told: its exit (not found, not
    /// executable, an exit code, a signal) and the last lines of its stderr.
    pub fn exit_report(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_millis(500);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
                _ => break None,
            }
        };
        let mut report = match status.map(|s| (s.code(), s)) {
            // The shell's codes for a command it cannot run.
            Some((Some(127), _)) if cfg!(unix) => {
                "not found (the shell exited with code 127)".to_string()
            }
            Some((Some(126), _)) if cfg!(unix) => {
                "not executable (the shell exited with code 126)".to_string()
            }
            Some((Some(code), _)) => format!("it exited with code {code}"),
            Some((None, s)) => format!("it was ended by a signal ({s})"),
            None => "it is still running but closed its output".to_string(),
        };
        // Give the stderr reader a moment to take the last lines.
        thread::sleep(Duration::from_millis(50));
        if let Ok(lines) = self.stderr.lock() {
            if !lines.is_empty() {
                let joined: Vec<&str> = lines.iter().map(String::as_str).collect();
                report.push_str(&format!("; its stderr ended: {}", joined.join(" | ")));
            }
        }
        report
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
