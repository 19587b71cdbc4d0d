//! Protocol fuzzing: random and mutated USI and XBoard lines, seeded so every run sends the same
//! ones, fed to the built binary. After every line the test sends `stop` (XBoard: `?`) and a
//! probe (`isready`, `ping N`) and asserts that the engine is alive and answers the probe within
//! a second, that every accepted `go` is answered by exactly one `bestmove` (XBoard: one move, a
//! resignation or a result), and that a rejected `position` leaves the position as it was.
//!
//! The normal run sends 1 500 lines per protocol; `cargo test --release -- --ignored` sends the
//! full 100 000 per protocol.

mod common;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::process::{Child, ChildStdin};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

const PROBE_LIMIT: Duration = Duration::from_secs(1);
const CHU_START: &str =
    "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1";
const HEIAN_START: &str = "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/9/LNSGKGSNL b - 1";

const USI_LINES: &[&str] = &[
    "usi",
    "isready",
    "usinewgame",
    "position startpos",
    "position startpos moves 7i7h 6c6d",
    "position startpos moves 8g7f8g 5d5e 7j7i",
    "setoption name USI_Hash value 16",
    "setoption name Threads value 2",
    "setoption name MultiPV value 2",
    "setoption name USI_Variant value heian",
    "setoption name USI_Variant value chushogi",
    "setoption name RuleSet value hachu",
    "setoption name Repetition value forbid",
    "setoption name MoveOverhead value 10",
    "go depth 2",
    "go nodes 300",
    "go movetime 20",
    "go btime 100 wtime 100 byoyomi 10",
    "go btime 200 wtime 300 binc 10 winc 10",
    "go infinite",
    "go ponder btime 100 wtime 100",
    "go perft 2",
    "go mate 20",
    "stop",
    "ponderhit",
    "gameover win",
    "d",
];

const XBOARD_LINES: &[&str] = &[
    "new",
    "variant chu",
    "variant heian",
    "variant heian8x8",
    "force",
    "go",
    "playother",
    "usermove f4f5",
    "usermove e9e8",
    "f4f5",
    "setboard lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL w - - 0 1",
    "level 40 5 0",
    "level 0 0:30 0.1",
    "st 0.05",
    "sd 2",
    "time 100",
    "otim 100",
    "undo",
    "remove",
    "post",
    "nopost",
    "analyze",
    "exit",
    ".",
    "hard",
    "easy",
    "memory 16",
    "cores 1",
    "option MultiPV=2",
    "option RuleSet=hachu",
    "lift f4",
    "result 1-0 {whatever}",
    "protover 2",
];

/// Replacement tokens that probe the number parsers and the word matchers.
const JUNK: &[&str] = &[
    "",
    "0",
    "-1",
    "1",
    "99999999999999999999",
    "18446744073709551615",
    "18446744073709551616",
    "9223372036854775807",
    "-9223372036854775808",
    "2147483648",
    "1e308",
    "-1e308",
    "NaN",
    "inf",
    "0.5",
    "abc",
    "moves",
    "value",
    "name",
    "sfen",
    "startpos",
    "+",
    "@@@@",
    "0000",
    "\u{2603}",
    "\u{0}",
    "l/l/l",
    "13/12 b - 1",
];

/// A valid line, then mutated at random: tokens replaced, dropped, doubled or swapped, the
/// line cut short, bytes of noise, or two lines run together.
fn mutated_line(rng: &mut StdRng, valid: &[&str], extra: &[String]) -> String {
    let base = if !extra.is_empty() && rng.gen_bool(0.1) {
        extra[rng.gen_range(0..extra.len())].clone()
    } else {
        valid[rng.gen_range(0..valid.len())].to_string()
    };
    let mut words: Vec<String> = base.split(' ').map(str::to_string).collect();
    let mutations = if rng.gen_bool(0.25) {
        0
    } else {
        rng.gen_range(1..=3)
    };
    for _ in 0..mutations {
        let n = words.len();
        match rng.gen_range(0..8) {
            0 | 1 => words[rng.gen_range(0..n)] = JUNK[rng.gen_range(0..JUNK.len())].to_string(),
            2 if n > 1 => {
                words.remove(rng.gen_range(0..n));
            }
            3 => {
                let i = rng.gen_range(0..n);
                let w = words[i].clone();
                words.insert(i, w);
            }
            4 if n > 1 => words.swap(rng.gen_range(0..n), rng.gen_range(0..n)),
            5 => {
                let line = words.join(" ");
                let cut: Vec<char> = line.chars().collect();
                let keep = rng.gen_range(0..=cut.len());
                words = vec![cut[..keep].iter().collect()];
            }
            6 => {
                let noise: String = (0..rng.gen_range(1..12))
                    .map(|_| char::from_u32(rng.gen_range(0x21..0x2fff)).unwrap_or('?'))
                    .collect();
                words.insert(rng.gen_range(0..=n), noise);
            }
            _ => words.push(valid[rng.gen_range(0..valid.len())].to_string()),
        }
    }
    words.join(" ").replace(['\n', '\r'], " ")
}

struct Engine {
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<String>,
}

impl Engine {
    fn start(first: &str) -> Engine {
        let (child, stdin, rx) = common::spawn_shishi();
        let mut e = Engine {
            child,
            stdin: stdin.expect("stdin"),
            rx,
        };
        e.send(first);
        e
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("the engine's stdin is open");
        self.stdin.flush().expect("flush");
    }

    /// Lines up to and including the first equal to `probe`, which must come within the limit.
    fn until(&mut self, probe: &str, sent: &str) -> Vec<String> {
        let deadline = Instant::now() + PROBE_LIMIT;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(line) => {
                    let done = line == probe;
                    lines.push(line);
                    if done {
                        return lines;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("'{probe}' unanswered within a second after {sent:?}; got {lines:?}")
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the engine died after {sent:?}; last output {lines:?}")
                }
            }
        }
    }

    /// More lines arriving within `wait`.
    fn drain(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut lines = Vec::new();
        while let Ok(line) = self
            .rx
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            lines.push(line);
        }
        lines
    }

    fn quit(mut self) {
        self.send("quit");
        let start = Instant::now();
        loop {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            assert!(start.elapsed() < Duration::from_secs(5), "quit ignored");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

fn usi_fuzz(count: usize, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let extra = vec![
        format!("position sfen {CHU_START} moves 7i7h"),
        format!("position sfen {HEIAN_START}"),
    ];
    let mut e = Engine::start("usi");
    e.until("usiok", "usi");
    let mut sfen = current_sfen(&mut e, "start");
    for _ in 0..count {
        let line = mutated_line(&mut rng, USI_LINES, &extra);
        if line.trim() == "quit" || line.trim_start().starts_with("quit ") {
            continue;
        }
        e.send(&line);
        e.send("stop");
        e.send("isready");
        let first = line.split_whitespace().next().unwrap_or("");
        let mut out = e.until("readyok", &line);
        if first == "isready" {
            // The line was a probe of its own: its answer came first.
            out.extend(e.until("readyok", &line));
        }
        let rejected = out.iter().any(|l| l.starts_with("info string error"));
        let bestmoves = out.iter().filter(|l| l.starts_with("bestmove")).count();
        let words: Vec<&str> = line.split_whitespace().collect();
        let is_search = first == "go" && !words.contains(&"perft") && !words.contains(&"mate");
        if is_search && !rejected {
            assert_eq!(bestmoves, 1, "{line:?} answered by {out:?}");
        } else if first != "stop" && first != "ponderhit" {
            assert!(bestmoves <= 1, "{line:?} answered by {out:?}");
        }
        if matches!(first, "position" | "setoption" | "usinewgame") {
            let now = current_sfen(&mut e, &line);
            if first == "position" && rejected {
                assert_eq!(now, sfen, "rejected {line:?} changed the position");
            }
            sfen = now;
        }
    }
    e.quit();
}

/// The SFEN of the session's position, from `d`.
fn current_sfen(e: &mut Engine, after: &str) -> String {
    e.send("d");
    e.send("isready");
    let out = e.until("readyok", after);
    out.iter()
        .find_map(|l| l.strip_prefix("sfen "))
        .unwrap_or_else(|| panic!("no sfen from d after {after:?}: {out:?}"))
        .to_string()
}

fn xboard_fuzz(count: usize, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut e = Engine::start("xboard");
    e.send("protover 2");
    e.send("ping 0");
    e.until("pong 0", "protover 2");
    for n in 1..=count {
        let line = mutated_line(&mut rng, XBOARD_LINES, &[]);
        if line.trim() == "quit" || line.trim_start().starts_with("quit ") {
            continue;
        }
        e.send(&line);
        e.send("?");
        let probe = format!("pong {n}");
        e.send(&format!("ping {n}"));
        let mut out = e.until(&probe, &line);
        let first = line.split_whitespace().next().unwrap_or("");
        let answered = |out: &[String]| {
            out.iter()
                .filter(|l| {
                    (l.starts_with("move ") && !l.ends_with(','))
                        || l.as_str() == "resign"
                        || l.starts_with("1-0 ")
                        || l.starts_with("0-1 ")
                        || l.starts_with("1/2-1/2 ")
                        || l.starts_with("Error")
                })
                .count()
        };
        if first == "go" && line.split_whitespace().count() == 1 {
            if answered(&out) == 0 {
                out.extend(e.drain(Duration::from_millis(500)));
            }
            assert!(answered(&out) >= 1, "{line:?} never answered: {out:?}");
            let moves = out
                .iter()
                .filter(|l| l.starts_with("move ") && !l.ends_with(','))
                .count();
            assert!(moves <= 1, "{line:?} answered by {moves} moves: {out:?}");
        }
    }
    e.quit();
}

#[test]
fn usi_survives_mutated_lines() {
    usi_fuzz(1_500, 0x5ee5);
}

#[test]
fn xboard_survives_mutated_lines() {
    xboard_fuzz(1_500, 0xb0a4d);
}

#[test]
#[ignore = "full size: 100 000 lines per protocol, several minutes"]
fn usi_survives_100k_mutated_lines() {
    usi_fuzz(100_000, 0x5ee5_0001);
}

#[test]
#[ignore = "full size: 100 000 lines per protocol, several minutes"]
fn xboard_survives_100k_mutated_lines() {
    xboard_fuzz(100_000, 0xb0a4_0001);
}
