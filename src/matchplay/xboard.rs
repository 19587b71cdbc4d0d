//! The XBoard (CECP) driver: `xboard`, `protover 2` and the features up to `done=1`; for each
//! game `new`, `variant`, `memory` (HaChu accepts no move before it), `force`, `setboard` when
//! the game does not start from the initial position, `level`, and a `ping`/`pong` handshake.
//! Moves go in force mode (`usermove`), then `time`, `otim` and `go`; the engine answers with
//! `move X`, a Chu lion double move arriving as one `move` line per leg, every leg but the last
//! ending in a comma; `force` right after keeps it from thinking on. Thinking lines give the
//! score; `resign` and `1-0`/`0-1`/`1/2-1/2` are the engine's own claims.
//!
//! The user's `option.*` settings go as `option NAME=VALUE` right after the features, followed by
//! a `ping` whose answer also collects any `feature` lines the options made the engine send
//! again (a new `variants` list after a variant file was loaded).
//!
//! HaChu quirk: its `setboard` reads the whole argument as the board and rejects a side field,
//! so an engine whose `myname` contains HaChu gets the board alone (sente to move).

use super::driver::{
    parse_cp, thinking_line, Claimed, Clocks, Driver, EngineId, EngineScore, EngineSetup, Failure,
    GameStart, MoveTexts, Rejected, Reply, TimeControl,
};
use super::process::{EngineProcess, ReadError};
use super::usi::HANDSHAKE_TIMEOUT;
use crate::board::Color;
use crate::notation::Notation;
use std::time::{Duration, Instant};

/// An XBoard engine process after its feature negotiation.
pub(crate) struct XboardDriver {
    process: EngineProcess,
    /// Its `myname`, the variant's name, and its `feature variants` split at commas.
    id: EngineId,
    features: Vec<(String, String)>,
    /// Moves of the current game the engine has been told.
    sent: usize,
    root_side: Color,
    next_ping: u32,
}

/// `feature a=1 b="x y"` as (key, value) pairs.
fn parse_features(line: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = line.trim_start_matches("feature").trim_start();
    while let Some(eq) = rest.find('=') {
        let key = rest[..eq].trim().to_string();
        let after = &rest[eq + 1..];
        let (value, next) = if let Some(quoted) = after.strip_prefix('"') {
            match quoted.find('"') {
                Some(end) => (&quoted[..end], &quoted[end + 1..]),
                None => (quoted, ""),
            }
        } else {
            match after.find(char::is_whitespace) {
                Some(end) => (&after[..end], &after[end..]),
                None => (after, ""),
            }
        };
        out.push((key, value.to_string()));
        rest = next.trim_start();
    }
    out
}

/// A thinking line `depth score time nodes pv...`: its score and depth.
fn thinking_score(line: &str) -> Option<(EngineScore, u32)> {
    let mut words = line.split_whitespace();
    let depth = words
        .next()?
        .trim_end_matches(['.', '&'])
        .parse::<u32>()
        .ok()?;
    let score = parse_cp(words.next()?)?;
    words.next()?.parse::<u64>().ok()?;
    Some((score, depth))
}

fn claim_of(line: &str) -> Option<Claimed> {
    if line.starts_with("1-0") {
        Some(Claimed::Winner(Color::Sente))
    } else if line.starts_with("0-1") {
        Some(Claimed::Winner(Color::Gote))
    } else if line.starts_with("1/2-1/2") {
        Some(Claimed::Draw)
    } else {
        None
    }
}

/// `M:SS` for `level`.
fn level_base(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}", s / 60, s % 60)
}

impl XboardDriver {
    /// Sends `xboard` and `protover 2` and reads features up to `done=1`.
    pub(crate) fn connect(
        mut process: EngineProcess,
        setup: &EngineSetup,
    ) -> Result<XboardDriver, Rejected> {
        if setup.node_limit.is_some() {
            let why = "nodes= needs a USI engine: XBoard has no per-move node limit";
            return Err(Box::new((process, Failure::Protocol(why.to_string()))));
        }
        process.send("xboard");
        process.send("protover 2");
        let mut deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        let mut features = Vec::new();
        loop {
            let line = match process.read_line(deadline) {
                Ok(l) => l,
                Err(ReadError::Eof) => {
                    let why = format!(
                        "engine output ended during protover: {}",
                        process.exit_report()
                    );
                    return Err(Box::new((process, Failure::Crash(why))));
                }
                Err(ReadError::Timeout) => break, // protover 1 engines send no done=1
            };
            if !line.trim_start().starts_with("feature") {
                continue;
            }
            for (k, v) in parse_features(&line) {
                if k == "done" {
                    if v == "1" {
                        deadline = Instant::now();
                    } else {
                        deadline = Instant::now() + Duration::from_secs(3600);
                    }
                }
                features.push((k, v));
            }
            if deadline <= Instant::now() {
                break;
            }
        }
        let name = features
            .iter()
            .find(|(k, _)| k == "myname")
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| process.command().to_string());
        let mut driver = XboardDriver {
            process,
            id: EngineId {
                name,
                variant: setup.variant.clone(),
                variants: Vec::new(),
                options: Vec::new(),
                any_variant: false,
            },
            features,
            sent: 0,
            root_side: Color::Sente,
            next_ping: 1,
        };
        if !setup.options.is_empty() {
            for (name, value) in &setup.options {
                driver.process.send(&format!("option {name}={value}"));
            }
            if let Err(f) = driver.ping() {
                return Err(Box::new((driver.process, f)));
            }
        }
        driver.id.variants = driver
            .feature("variants")
            .unwrap_or("")
            .split(',')
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
            .collect();
        Ok(driver)
    }

    fn feature(&self, key: &str) -> Option<&str> {
        self.features
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    fn is_hachu(&self) -> bool {
        self.id.name.to_ascii_lowercase().contains("hachu")
    }

    fn ping(&mut self) -> Result<(), Failure> {
        if self.feature("ping") != Some("1") {
            return Ok(());
        }
        let n = self.next_ping;
        self.next_ping += 1;
        self.process.send(&format!("ping {n}"));
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        let want = format!("pong {n}");
        loop {
            match self.process.read_line(deadline) {
                Ok(line) if line.trim() == want => return Ok(()),
                Ok(line) if line.trim_start().starts_with("feature") => {
                    self.features.extend(parse_features(&line));
                }
                Ok(_) => {}
                Err(ReadError::Timeout) => {
                    return Err(Failure::Protocol(format!("no '{want}' in time")))
                }
                Err(ReadError::Eof) => {
                    return Err(Failure::Crash(
                        "engine output ended while waiting for pong".into(),
                    ))
                }
            }
        }
    }

    fn send_move(&mut self, text: &str) {
        if self.feature("usermove") == Some("1") {
            self.process.send(&format!("usermove {text}"));
        } else {
            self.process.send(text);
        }
    }
}

impl Driver for XboardDriver {
    fn id(&self) -> &EngineId {
        &self.id
    }

    fn notation(&self) -> Notation {
        Notation::Xboard
    }

    fn new_game(&mut self, start: &GameStart, clock: &TimeControl) -> Result<(), Failure> {
        self.process.drain();
        self.process.send("new");
        self.process.send(&format!("variant {}", self.id.variant));
        if self.feature("memory") == Some("1") || self.is_hachu() {
            self.process.send("memory 64");
        }
        self.process.send("force");
        self.root_side = if start.root_sfen.split_whitespace().nth(1) == Some("w") {
            Color::Gote
        } else {
            Color::Sente
        };
        if !start.root_is_startpos {
            let board = start.root_sfen.split_whitespace().next().unwrap_or("");
            if self.is_hachu() {
                if self.root_side == Color::Gote {
                    return Err(Failure::Protocol(
                        "HaChu's setboard takes no side to move; give openings with gote to move as moves".into(),
                    ));
                }
                self.process.send(&format!("setboard {board}"));
            } else {
                let side = if self.root_side == Color::Sente {
                    "w"
                } else {
                    "b"
                };
                self.process
                    .send(&format!("setboard {board} {side} - - 0 1"));
            }
        }
        let tc = clock;
        self.process.send(&format!(
            "level 0 {} {}",
            level_base(tc.base),
            tc.increment.as_secs_f64()
        ));
        self.process.send("post");
        self.process.send("easy");
        self.sent = 0;
        self.ping()
    }

    fn think(
        &mut self,
        moves: &[MoveTexts],
        clocks: &Clocks,
        deadline: Instant,
    ) -> Result<Reply, Failure> {
        self.process.drain();
        for m in moves.iter().skip(self.sent) {
            let text = m.xboard.clone();
            self.send_move(&text);
        }
        self.sent = moves.len();
        let us = if moves.len().is_multiple_of(2) {
            self.root_side
        } else {
            !self.root_side
        };
        let cs = |d: Duration| d.as_millis() / 10;
        self.process
            .send(&format!("time {}", cs(clocks.remaining[us.index()])));
        self.process
            .send(&format!("otim {}", cs(clocks.remaining[(!us).index()])));
        self.process.send("go");
        let mut score = None;
        let mut depth = None;
        let mut legs = String::new();
        loop {
            let line = thinking_line(&mut self.process, deadline)?;
            let line = line.trim();
            if let Some(mv) = line.strip_prefix("move ") {
                legs.push_str(mv.trim());
                if legs.ends_with(',') {
                    continue;
                }
                self.process.send("force");
                self.sent += 1;
                return Ok(Reply::Move {
                    text: legs,
                    score,
                    depth,
                });
            } else if line == "resign" || line.ends_with(" resign") {
                return Ok(Reply::Resign);
            } else if let Some(claimed) = claim_of(line) {
                return Ok(Reply::Claim {
                    claimed,
                    text: line.to_string(),
                });
            } else if line.starts_with("Illegal move") {
                return Err(Failure::Protocol(format!("rejected a legal move: {line}")));
            } else if let Some((s, d)) = thinking_score(line) {
                score = Some(s);
                depth = Some(d);
            }
        }
    }

    fn game_over(&mut self, result: Option<bool>) {
        self.process.send("force");
        let _ = result;
    }

    fn quit(&mut self) {
        self.process.stop("quit");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_with_quotes() {
        let f = parse_features(r#"feature myname="HaChu 0.21" highlight=1 done=0"#);
        assert_eq!(f[0], ("myname".to_string(), "HaChu 0.21".to_string()));
        assert_eq!(f[1], ("highlight".to_string(), "1".to_string()));
        assert_eq!(f[2], ("done".to_string(), "0".to_string()));
    }

    #[test]
    fn thinking_lines_and_claims() {
        assert_eq!(thinking_score("4 107 7 12505 f3f5 g10g8"), Some((107, 4)));
        assert_eq!(thinking_score("move f3f5"), None);
        assert_eq!(
            claim_of("0-1 {Sente king captured}"),
            Some(Claimed::Winner(Color::Gote))
        );
        assert_eq!(level_base(Duration::from_secs(70)), "1:10");
    }
}
