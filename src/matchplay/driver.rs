//! What the game loop asks of an engine, whatever protocol it speaks: start a game, find a move
//! under a clock, hear the result, quit. `usi` and `xboard` implement it; the game loop never
//! sees a protocol line.

use super::process::{EngineProcess, ReadError};
use crate::board::{Color, Variant};
use crate::notation::Notation;
use crate::rules::RuleSet;
use std::time::{Duration, Instant};

/// How a game starts: the variant, the rules both sides play, and the root position every
/// move list is relative to (the variant's start position when the opening came with moves).
#[derive(Clone, Debug)]
pub struct GameStart {
    /// The variant played.
    pub variant: Variant,
    /// The rule set both engines are told to play.
    pub rules: RuleSet,
    /// SFEN of the root position.
    pub root_sfen: String,
    /// Whether the root is the variant's start position.
    pub root_is_startpos: bool,
}

/// Fischer clock with optional byoyomi: `base` to start, `increment` after each move, and
/// `byoyomi` to spend per move once the base is gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time on the clock at the start.
    pub base: Duration,
    /// Added to the mover's clock after each move.
    pub increment: Duration,
    /// Extra time per move once the clock is empty; not banked.
    pub byoyomi: Duration,
}

/// Why `TimeControl::parse` refused a time control.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// The base time or the increment is not seconds or minutes:seconds from 0 up.
    #[error(
        "bad time control '{text}': {part} '{value}' is not seconds or minutes:seconds \
         (expected like 10+0.1 or 1:00+0.5)"
    )]
    BadTime {
        /// The whole time control as given.
        text: String,
        /// `base` or `increment`.
        part: &'static str,
        /// The part that does not read.
        value: String,
    },
    /// No base time, no increment and no byoyomi.
    #[error("time control '{0}' gives no time at all (no base, increment or byoyomi)")]
    NoTime(String),
}

impl TimeControl {
    /// Reads `10+0.1` (seconds + increment), `60` or `0:30+1` (minutes:seconds).
    pub fn parse(text: &str, byoyomi_ms: u64) -> Result<TimeControl, TimeControlError> {
        let (base, inc) = match text.split_once('+') {
            Some((b, i)) => (b, i),
            None => (text, "0"),
        };
        let seconds = |part: &'static str, s: &str| -> Result<f64, TimeControlError> {
            let read = || -> Option<f64> {
                let v: f64 = match s.split_once(':') {
                    Some((m, sec)) => {
                        m.trim().parse::<f64>().ok()? * 60.0 + sec.trim().parse::<f64>().ok()?
                    }
                    None => s.trim().parse().ok()?,
                };
                (v.is_finite() && (0.0..1e7).contains(&v)).then_some(v)
            };
            read().ok_or_else(|| TimeControlError::BadTime {
                text: text.to_string(),
                part,
                value: s.trim().to_string(),
            })
        };
        let base = seconds("base", base)?;
        let inc = seconds("increment", inc)?;
        if base == 0.0 && byoyomi_ms == 0 && inc == 0.0 {
            return Err(TimeControlError::NoTime(text.to_string()));
        }
        Ok(TimeControl {
            base: Duration::from_secs_f64(base),
            increment: Duration::from_secs_f64(inc),
            byoyomi: Duration::from_millis(byoyomi_ms),
        })
    }
}

/// Both clocks before a move, each side with its own increment and byoyomi (time odds), all
/// indexed by `Color::index`.
#[derive(Clone, Copy, Debug)]
pub struct Clocks {
    /// Time left on each clock, increments of earlier moves included.
    pub remaining: [Duration; 2],
    /// Each side's increment per move.
    pub increment: [Duration; 2],
    /// Each side's byoyomi per move.
    pub byoyomi: [Duration; 2],
}

/// An engine's evaluation in centipawns from its own side's view; mates are ±100000 less the
/// distance, so they compare past any material score.
pub type EngineScore = i32;

/// The score of mate on the board; a mate in `n` plies is `MATE_SCORE - n` (negated when the
/// engine is being mated).
pub const MATE_SCORE: EngineScore = 100_000;

/// What an engine answered when asked to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A move as the engine wrote it, with its last reported score and depth.
    Move {
        /// The move, in the engine's notation.
        text: String,
        /// Score of the engine's last `info`/thinking line, if any.
        score: Option<EngineScore>,
        /// Depth of that line, in plies.
        depth: Option<u32>,
    },
    /// The engine resigned.
    Resign,
    /// The engine says the game is over, with its words.
    Claim {
        /// The result claimed.
        claimed: Claimed,
        /// The engine's line making the claim.
        text: String,
    },
}

/// The result an engine claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claimed {
    /// The engine itself wins (USI `bestmove win`).
    MoverWins,
    /// The named side wins (XBoard `1-0`, `0-1`).
    Winner(Color),
    /// A draw (XBoard `1/2-1/2`).
    Draw,
}

/// An engine whose handshake failed, kept with why, so that it can be stopped or asked how it
/// ended (boxed: a process is large).
pub(crate) type Rejected = Box<(EngineProcess, Failure)>;

/// Why an engine gave no usable answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// Its output ended: crashed or quit.
    Crash(String),
    /// The deadline passed.
    Timeout,
    /// It broke the protocol (no handshake, rejected a legal move...).
    Protocol(String),
    /// It refused a setting it was given (an option it does not have, a value out of range):
    /// the engine speaks the protocol, and another try cannot help.
    Refused(String),
}

/// What a driver knows of its engine: what the engine said of itself at the handshake, and the
/// variant's name it is told.
#[derive(Clone, Debug, Default)]
pub struct EngineId {
    /// The engine's own name (`id name`, `myname`) or its command.
    pub name: String,
    /// The name the engine is told the variant by.
    pub variant: String,
    /// The variants the engine declared (USI `USI_Variant`/`UCI_Variant` combo values, XBoard
    /// `feature variants`), as last announced.
    pub variants: Vec<String>,
    /// The names of the options the engine declared (USI `option name`; none known for XBoard).
    pub options: Vec<String>,
    /// The engine takes any variant name (its `USI_Variant` is a string option).
    pub any_variant: bool,
}

/// A protocol driver for one engine process.
pub trait Driver: Send {
    /// What the driver knows of its engine.
    fn id(&self) -> &EngineId;
    /// The engine's own name (`id name`, `myname`) or its command.
    fn name(&self) -> &str {
        &self.id().name
    }
    /// The notation the engine writes its moves in.
    fn notation(&self) -> Notation;
    /// The name the engine is told the variant by.
    fn variant_name(&self) -> &str {
        &self.id().variant
    }
    /// The variants the engine declared, as last announced.
    fn declared_variants(&self) -> &[String] {
        &self.id().variants
    }
    /// Prepares a new game with the engine's own clock and waits until it says it is ready.
    fn new_game(&mut self, start: &GameStart, clock: &TimeControl) -> Result<(), Failure>;
    /// Asks for a move in the position reached by `moves` (in the driver's notation, see
    /// `notation`) from the root, answering before `deadline`.
    fn think(
        &mut self,
        moves: &[MoveTexts],
        clocks: &Clocks,
        deadline: Instant,
    ) -> Result<Reply, Failure>;
    /// Tells the engine the game is over (`winner` from the engine's side: true = it won).
    fn game_over(&mut self, result: Option<bool>);
    /// Ends the engine process.
    fn quit(&mut self);
}

/// One played move in both spellings, so each driver sends its own.
#[derive(Clone, Debug)]
pub struct MoveTexts {
    /// USI spelling.
    pub usi: String,
    /// XBoard spelling.
    pub xboard: String,
}

/// How an engine is set up once it has answered the handshake.
#[derive(Clone, Debug, Default)]
pub struct EngineSetup {
    /// Options sent as they are, in order, before the variant is set.
    pub options: Vec<(String, String)>,
    /// The engine's name for the match variant.
    pub variant: String,
    /// Nodes per move (`go ... nodes N`), when the engine has a node limit.
    pub node_limit: Option<u64>,
}

/// Parses a USI or XBoard score field into an `EngineScore`.
pub fn parse_cp(text: &str) -> Option<EngineScore> {
    text.parse::<i64>()
        .ok()
        .map(|v| v.clamp(-(MATE_SCORE as i64), MATE_SCORE as i64) as EngineScore)
}

/// The next line of an engine asked for a move: past `deadline` it has lost on time, and the
/// end of its output is a crash.
pub fn thinking_line(process: &mut EngineProcess, deadline: Instant) -> Result<String, Failure> {
    process.read_line(deadline).map_err(|e| match e {
        ReadError::Timeout => Failure::Timeout,
        ReadError::Eof => Failure::Crash("engine output ended while thinking".into()),
    })
}
