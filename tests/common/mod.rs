//! Shared by the protocol transcript tests: start the built `shishi` binary with its standard
//! output read line by line on a thread, so a test can wait for a reply with a timeout.

use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};

/// The running engine, its standard input, and its output lines.
pub fn spawn_shishi() -> (Child, Option<ChildStdin>, Receiver<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_shishi"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start shishi");
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
