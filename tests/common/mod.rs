//! Shared by the protocol transcript tests: start the built `shishi` binary with its standard
//! output read line by line on a thread, so a test can wait for a reply with a timeout.
//!
//! The USI tests run against another build of the same engine when `SHISHI_USI_ENGINE` names
//! its command (`scripts/test` sets `node wasm/shishi-usi.mjs`, the browser build).

use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};

/// The running engine, its standard input, and its output lines.
pub(crate) fn spawn_shishi() -> (Child, Option<ChildStdin>, Receiver<String>) {
    spawn(Command::new(env!("CARGO_BIN_EXE_shishi")))
}

/// The USI engine under test: the built binary, or the command in `SHISHI_USI_ENGINE`.
#[allow(dead_code)]
pub(crate) fn spawn_usi_engine() -> (Child, Option<ChildStdin>, Receiver<String>) {
    let Ok(command) = std::env::var("SHISHI_USI_ENGINE") else {
        return spawn_shishi();
    };
    let mut words = command.split_whitespace();
    let program = words.next().expect("SHISHI_USI_ENGINE names a command");
    let mut cmd = Command::new(program);
    cmd.args(words);
    spawn(cmd)
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
