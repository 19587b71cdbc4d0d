//! Shared by the protocol transcript tests: start the built `shishi` binary with its standard
//! output read line by line on a thread, so a test can wait for a reply with a timeout
//! ([`Transcript`]: send a line, wait for a line starting with a prefix, keep what was seen).
//!
//! The USI tests run against another build of the same engine when `SHISHI_USI_ENGINE` names
//! its command (`scripts/test` sets `node wasm/shishi-usi.mjs`, the browser build). Every test
//! here runs another shishi binary when `SHISHI_ENGINE_COMMAND` names its command line
//! (`scripts/test-windows` sets `wine .../shishi.exe`, the Windows build under Wine).

use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// The shishi binary under test: the one cargo built, or the command line in
/// `SHISHI_ENGINE_COMMAND` (its words split at spaces).
pub(crate) fn shishi_command() -> Command {
    let Ok(line) = std::env::var("SHISHI_ENGINE_COMMAND") else {
        return Command::new(env!("CARGO_BIN_EXE_shishi"));
    };
    command_of(&line)
}

fn command_of(line: &str) -> Command {
    let mut words = line.split_whitespace();
    let mut cmd = Command::new(words.next().expect("a command line names a program"));
    cmd.args(words);
    cmd
}

/// `shishi ARGS` run to its end: the exit code (-1 for a signal), its stdout and its stderr.
#[allow(dead_code)]
pub(crate) fn run_shishi(args: &[&str]) -> (i32, String, String) {
    let out = shishi_command().args(args).output().expect("binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The running engine, its standard input, and its output lines.
pub(crate) fn spawn_shishi() -> (Child, Option<ChildStdin>, Receiver<String>) {
    spawn(shishi_command())
}

/// The USI engine under test: the built binary, or the command in `SHISHI_USI_ENGINE`.
#[allow(dead_code)]
pub(crate) fn spawn_usi_engine() -> (Child, Option<ChildStdin>, Receiver<String>) {
    let Ok(command) = std::env::var("SHISHI_USI_ENGINE") else {
        return spawn_shishi();
    };
    spawn(command_of(&command))
}

fn spawn(mut command: Command) -> (Child, Option<ChildStdin>, Receiver<String>) {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the engine");
    let stdout = child.stdout.take().expect("piped stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let stdin = child.stdin.take();
    (child, stdin, rx)
}

/// A running engine: what the test sends and every line it has seen so far. Each test file
/// uses some of the methods only.
#[allow(dead_code)]
pub(crate) struct Transcript {
    pub(crate) child: Child,
    pub(crate) stdin: Option<ChildStdin>,
    rx: Receiver<String>,
    /// Every line read so far, in order.
    pub(crate) seen: Vec<String>,
}

#[allow(dead_code)]
impl Transcript {
    /// The built binary.
    pub(crate) fn shishi() -> Transcript {
        Transcript::from(spawn_shishi())
    }

    /// The USI engine under test (see [`spawn_usi_engine`]).
    pub(crate) fn usi_engine() -> Transcript {
        Transcript::from(spawn_usi_engine())
    }

    fn from((child, stdin, rx): (Child, Option<ChildStdin>, Receiver<String>)) -> Transcript {
        Transcript {
            child,
            stdin,
            rx,
            seen: Vec::new(),
        }
    }

    /// Sends `bytes` as they are: no newline is added (for line endings other than `\n`).
    pub(crate) fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    pub(crate) fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// The next line starting with `prefix`, skipping others; fails after 30 s.
    pub(crate) fn expect(&mut self, prefix: &str) -> String {
        self.expect_within(prefix, Duration::from_secs(30))
    }

    /// The next line starting with `prefix`, skipping others; fails after `limit`.
    pub(crate) fn expect_within(&mut self, prefix: &str, limit: Duration) -> String {
        if self.arrives(prefix, limit) {
            return self.seen.last().cloned().unwrap_or_default();
        }
        panic!(
            "no line starting with '{prefix}' within {limit:?}; last lines: {:?}",
            &self.seen[self.seen.len().saturating_sub(15)..]
        )
    }

    /// The next line, if one arrives within `wait`.
    pub(crate) fn next_line(&mut self, wait: Duration) -> Option<String> {
        let line = self.rx.recv_timeout(wait).ok()?;
        self.seen.push(line.clone());
        Some(line)
    }

    /// Whether a line starting with `prefix` arrives within `wait`.
    pub(crate) fn arrives(&mut self, prefix: &str, wait: Duration) -> bool {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Ok(line) = self.rx.recv_timeout(left) else {
                return false;
            };
            let found = line.starts_with(prefix);
            self.seen.push(line);
            if found {
                return true;
            }
        }
    }

    /// Every line until (and without) the one starting with `prefix`.
    pub(crate) fn lines_until(&mut self, prefix: &str) -> Vec<String> {
        let start = self.seen.len();
        self.expect(prefix);
        self.seen[start..self.seen.len() - 1].to_vec()
    }

    /// Closes the engine's input and waits for it to end.
    pub(crate) fn close(mut self) {
        self.stdin.take();
        let _ = self.child.wait();
    }
}

/// Lets a test's engine wrapper, `$wrapper` holding its [`Transcript`] in `$field`, be used as
/// the transcript itself (`send`, `expect`, `seen`, ...).
#[allow(unused_macros)]
macro_rules! reads_as_transcript {
    ($wrapper:ident, $field:tt) => {
        impl std::ops::Deref for $wrapper {
            type Target = common::Transcript;
            fn deref(&self) -> &common::Transcript {
                &self.$field
            }
        }

        impl std::ops::DerefMut for $wrapper {
            fn deref_mut(&mut self) -> &mut common::Transcript {
                &mut self.$field
            }
        }
    };
}
#[allow(unused_imports)]
pub(crate) use reads_as_transcript;
