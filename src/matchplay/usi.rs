//! The USI driver: `usi`/`usiok`, the user's `option.*` settings by `setoption`, the variant and
//! rule set by `setoption` (only the options the engine declared), `isready`/`readyok` before
//! each game, then `position sfen ... moves ...` and `go btime wtime binc winc [byoyomi]` for
//! each move (each side's own clock and increment), reading `info ... depth ... score` and
//! `bestmove`.
//!
//! After the user's options the driver sends `usi` again and reads the option list anew:
//! Fairy-Stockfish adds the variants of a `VariantPath` file to its `USI_Variant` combo but does
//! not announce the new list by itself, and the list is what the variant check reads.

use super::driver::{
    parse_cp, thinking_line, Claimed, Clocks, Driver, EngineId, EngineScore, EngineSetup, Failure,
    GameStart, MoveTexts, Rejected, Reply, TimeControl, MATE_SCORE,
};
use super::process::{EngineProcess, ReadError};
use crate::board::Color;
use crate::notation::Notation;
use std::time::{Duration, Instant};

/// How long an engine may take to answer `usi` or `isready`.
pub(crate) const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// A USI engine process after its handshake.
pub(crate) struct UsiDriver {
    process: EngineProcess,
    /// Its name, the variant's name, and the values of its `USI_Variant` or `UCI_Variant` combo
    /// option.
    id: EngineId,
    options: Vec<String>,
    root: String,
    node_limit: Option<u64>,
}

fn read_failure(e: ReadError, what: &str) -> Failure {
    match e {
        ReadError::Timeout => Failure::Protocol(format!("no {what} in time")),
        ReadError::Eof => Failure::Crash(format!("engine output ended while waiting for {what}")),
    }
}

/// What an engine says between `usi` and `usiok`.
struct Announcement {
    name: Option<String>,
    options: Vec<String>,
    variants: Vec<String>,
    /// `USI_Variant` is a free string option (minase's): any variant name may be given.
    any_variant: bool,
    /// What the engine said against the options it was given (`info string error ...`,
    /// `No such option: ...`).
    refusals: Vec<String>,
}

/// Whether an engine's line refuses something it was sent: shishi's `info string error`,
/// Stockfish's `No such option`, and the like.
fn is_refusal(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    (lower.starts_with("info string") && lower.contains("error"))
        || lower.starts_with("no such option")
        || lower.starts_with("unknown option")
}

/// The values of a `USI_Variant`/`UCI_Variant` combo line (`... var chushogi var heian`).
fn combo_values(rest: &str) -> Vec<String> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    words
        .windows(2)
        .filter(|w| w[0] == "var")
        .map(|w| w[1].to_string())
        .collect()
}

fn read_announcement(process: &mut EngineProcess) -> Result<Announcement, Failure> {
    let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
    let mut a = Announcement {
        name: None,
        options: Vec::new(),
        variants: Vec::new(),
        any_variant: false,
        refusals: Vec::new(),
    };
    loop {
        let line = process.read_line(deadline).map_err(|e| match e {
            ReadError::Eof => Failure::Crash(format!(
                "engine output ended while waiting for usiok: {}",
                process.exit_report()
            )),
            other => read_failure(other, "usiok"),
        })?;
        let line = line.trim();
        if line == "usiok" {
            return Ok(a);
        } else if let Some(n) = line.strip_prefix("id name ") {
            a.name = Some(n.trim().to_string());
        } else if let Some(rest) = line.strip_prefix("option name ") {
            if let Some(opt) = rest.split_whitespace().next() {
                if opt.eq_ignore_ascii_case("USI_Variant")
                    || opt.eq_ignore_ascii_case("UCI_Variant")
                {
                    a.variants = combo_values(rest);
                    a.any_variant = rest.split_whitespace().nth(2) == Some("string");
                }
                a.options.push(opt.to_string());
            }
        } else if is_refusal(line) {
            a.refusals.push(line.to_string());
        }
    }
}

impl UsiDriver {
    /// Sends `usi` and reads the engine's name and options up to `usiok`; then the user's
    /// options, and `usi` once more to read the options they may have changed.
    pub(crate) fn connect(
        mut process: EngineProcess,
        setup: &EngineSetup,
    ) -> Result<UsiDriver, Rejected> {
        process.send("usi");
        let mut first = match read_announcement(&mut process) {
            Ok(a) => a,
            Err(f) => return Err(Box::new((process, f))),
        };
        if !setup.options.is_empty() {
            for (name, value) in &setup.options {
                process.send(&format!("setoption name {name} value {value}"));
            }
            process.send("usi");
            match read_announcement(&mut process) {
                Ok(again) if !again.refusals.is_empty() => {
                    let why = format!("it refused an option it was given: {}", again.refusals[0]);
                    return Err(Box::new((process, Failure::Refused(why))));
                }
                Ok(again) => {
                    first.options = again.options;
                    first.variants = again.variants;
                    first.any_variant = again.any_variant;
                }
                Err(f) => return Err(Box::new((process, f))),
            }
        }
        Ok(UsiDriver {
            id: EngineId {
                name: first.name.unwrap_or_else(|| process.command().to_string()),
                variant: setup.variant.clone(),
                variants: first.variants,
                any_variant: first.any_variant,
                options: first.options.clone(),
            },
            process,
            options: first.options,
            root: String::new(),
            node_limit: setup.node_limit,
        })
    }

    fn root_sente_to_move(&self) -> bool {
        self.root.split_whitespace().nth(1) != Some("w")
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
                // A missing readyok is the engine's time, not a broken protocol.
                Err(ReadError::Timeout) => return Err(Failure::Timeout),
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

/// The depth of an `info` line, if it has one.
fn info_depth(line: &str) -> Option<u32> {
    let mut words = line.split_whitespace();
    words.find(|&w| w == "depth")?;
    words.next()?.parse().ok()
}

fn millis(d: Duration) -> u128 {
    d.as_millis()
}

impl Driver for UsiDriver {
    fn id(&self) -> &EngineId {
        &self.id
    }

    fn notation(&self) -> Notation {
        Notation::Usi
    }

    fn new_game(&mut self, start: &GameStart, _clock: &TimeControl) -> Result<(), Failure> {
        self.process.drain();
        for option in ["USI_Variant", "UCI_Variant"] {
            if self.declares(option) {
                self.process.send(&format!(
                    "setoption name {option} value {}",
                    self.id.variant
                ));
                break;
            }
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
        let (b, w) = (Color::Sente.index(), Color::Gote.index());
        let mut go = format!(
            "go btime {} wtime {}",
            millis(clocks.remaining[b]),
            millis(clocks.remaining[w])
        );
        // USI has one byoyomi: the mover's.
        let mover = if moves.len().is_multiple_of(2) == self.root_sente_to_move() {
            b
        } else {
            w
        };
        if clocks.byoyomi[mover] > Duration::ZERO {
            go.push_str(&format!(" byoyomi {}", millis(clocks.byoyomi[mover])));
        }
        if clocks.increment.iter().any(|i| *i > Duration::ZERO) {
            go.push_str(&format!(
                " binc {} winc {}",
                millis(clocks.increment[b]),
                millis(clocks.increment[w])
            ));
        }
        if let Some(nodes) = self.node_limit {
            go.push_str(&format!(" nodes {nodes}"));
        }
        self.process.send(&go);
        let mut score = None;
        let mut depth = None;
        loop {
            let line = thinking_line(&mut self.process, deadline)?;
            let line = line.trim();
            if line.starts_with("info") {
                if let Some(s) = info_score(line) {
                    score = Some(s);
                    depth = info_depth(line).or(depth);
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
                        depth,
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
    use super::{combo_values, info_depth, info_score};

    #[test]
    fn variants_of_a_combo_option_and_depths() {
        assert_eq!(
            combo_values("USI_Variant type combo default shogi var shogi var heian9"),
            ["shogi", "heian9"]
        );
        assert_eq!(info_depth("info depth 12 seldepth 14 score cp 3"), Some(12));
        assert_eq!(info_depth("info string depth"), None);
    }

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
