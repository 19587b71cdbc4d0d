//! The USI driver: `usi`/`usiok`, the variant and rule set by `setoption` (only the options the
//! engine declared), `isready`/`readyok` before each game, then `position sfen ... moves ...`
//! and `go btime wtime binc winc [byoyomi]` for each move, reading `info ... score` and
//! `bestmove`.

use super::driver::{
    parse_cp, Claimed, Clocks, Driver, EngineScore, Failure, GameStart, MoveTexts, Reply,
    MATE_SCORE,
};
use super::process::{EngineProcess, ReadError};
use crate::board::Color;
use crate::notation::Notation;
use std::time::{Duration, Instant};

/// How long an engine may take to answer `usi` or `isready`.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

pub struct UsiDriver {
    process: EngineProcess,
    name: String,
    options: Vec<String>,
    root: String,
}

fn read_failure(e: ReadError, what: &str) -> Failure {
    match e {
        ReadError::Timeout => Failure::Protocol(format!("no {what} in time")),
        ReadError::Eof => Failure::Crash(format!("engine output ended while waiting for {what}")),
    }
}

impl UsiDriver {
    /// Sends `usi` and reads the engine's name and options up to `usiok`.
    pub fn connect(mut process: EngineProcess) -> Result<UsiDriver, (EngineProcess, Failure)> {
        process.send("usi");
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        let mut name = process.command().to_string();
        let mut options = Vec::new();
        loop {
            match process.read_line(deadline) {
                Ok(line) => {
                    let line = line.trim();
                    if line == "usiok" {
                        break;
                    } else if let Some(n) = line.strip_prefix("id name ") {
                        name = n.trim().to_string();
                    } else if let Some(rest) = line.strip_prefix("option name ") {
                        if let Some(opt) = rest.split_whitespace().next() {
                            options.push(opt.to_string());
                        }
                    }
                }
                Err(e) => return Err((process, read_failure(e, "usiok"))),
            }
        }
        Ok(UsiDriver {
            process,
            name,
            options,
            root: String::new(),
        })
    }

    fn declares(&self, option: &str) -> bool {
        self.options.iter().any(|o| o.eq_ignore_ascii_case(option))
    }

    fn wait_ready(&mut self) -> Result<(), Failure> {
        self.process.send("isready");
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            match self.process.read_line(deadline) {
                Ok(line) if line.trim() == "readyok" => return Ok(()),
                Ok(_) => {}
                Err(e) => return Err(read_failure(e, "readyok")),
            }
        }
    }
}

/// The score of an `info` line, if it has one.
fn info_score(line: &str) -> Option<EngineScore> {
    let mut words = line.split_whitespace();
    while let Some(w) = words.next() {
        if w == "score" {
            return match (words.next()?, words.next()?) {
                ("cp", v) => parse_cp(v),
                ("mate", v) => {
                    let plies: i32 = v.trim_start_matches('+').parse().ok()?;
                    let plies = plies.clamp(-1000, 1000);
                    Some(if v.starts_with('-') {
                        -MATE_SCORE - plies
                    } else {
                        MATE_SCORE - plies
                    })
                }
                _ => None,
            };
        }
    }
    None
}

fn millis(d: Duration) -> u128 {
    d.as_millis()
}

impl Driver for UsiDriver {
    fn name(&self) -> &str {
        &self.name
    }

    fn notation(&self) -> Notation {
        Notation::Usi
    }

    fn new_game(&mut self, start: &GameStart) -> Result<(), Failure> {
        self.process.drain();
        if self.declares("USI_Variant") {
            self.process.send(&format!(
                "setoption name USI_Variant value {}",
                start.variant.name()
            ));
        } else if self.declares("UCI_Variant") {
            self.process.send(&format!(
                "setoption name UCI_Variant value {}",
                start.variant.name()
            ));
        }
        if self.declares("RuleSet") {
            if let Some(preset) = start.rules.preset() {
                self.process
                    .send(&format!("setoption name RuleSet value {}", preset.name()));
            }
        }
        self.wait_ready()?;
        self.process.send("usinewgame");
        self.root = start.root_sfen.clone();
        Ok(())
    }

    fn think(
        &mut self,
        moves: &[MoveTexts],
        clocks: &Clocks,
        deadline: Instant,
    ) -> Result<Reply, Failure> {
        self.process.drain();
        let mut position = format!("position sfen {}", self.root);
        if !moves.is_empty() {
            position.push_str(" moves");
            for m in moves {
                position.push(' ');
                position.push_str(&m.usi);
            }
        }
        self.process.send(&position);
        let mut go = format!(
            "go btime {} wtime {}",
            millis(clocks.remaining[Color::Sente.index()]),
            millis(clocks.remaining[Color::Gote.index()])
        );
        if clocks.byoyomi > Duration::ZERO {
            go.push_str(&format!(" byoyomi {}", millis(clocks.byoyomi)));
        }
        if clocks.increment > Duration::ZERO {
            go.push_str(&format!(
                " binc {} winc {}",
                millis(clocks.increment),
                millis(clocks.increment)
            ));
        }
        self.process.send(&go);
        let mut score = None;
        loop {
            let line = match self.process.read_line(deadline) {
                Ok(l) => l,
                Err(ReadError::Timeout) => return Err(Failure::Timeout),
                Err(ReadError::Eof) => {
                    return Err(Failure::Crash("engine output ended while thinking".into()))
                }
            };
            let line = line.trim();
            if line.starts_with("info") {
                if let Some(s) = info_score(line) {
                    score = Some(s);
                }
            } else if let Some(rest) = line.strip_prefix("bestmove") {
                let best = rest.split_whitespace().next().unwrap_or("");
                return Ok(match best {
                    "resign" => Reply::Resign,
                    "win" => Reply::Claim {
                        claimed: Claimed::MoverWins,
                        text: "bestmove win (entering-king win claim)".to_string(),
                    },
                    _ => Reply::Move {
                        text: best.to_string(),
                        score,
                    },
                });
            }
        }
    }

    fn game_over(&mut self, result: Option<bool>) {
        let word = match result {
            Some(true) => "win",
            Some(false) => "lose",
            None => "draw",
        };
        self.process.send(&format!("gameover {word}"));
    }

    fn quit(&mut self) {
        self.process.stop("quit");
    }
}

#[cfg(test)]
mod tests {
    use super::info_score;

    #[test]
    fn scores_of_info_lines() {
        assert_eq!(
            info_score("info depth 3 score cp -35 nodes 10 pv 7g7f"),
            Some(-35)
        );
        assert_eq!(
            info_score("info depth 9 score mate 5 pv 7g7f"),
            Some(100_000 - 5)
        );
        assert_eq!(info_score("info depth 9 score mate -4"), Some(-100_000 + 4));
        assert_eq!(info_score("info string hello"), None);
        assert_eq!(info_score("info score"), None);
    }
}
