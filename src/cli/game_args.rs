//! The game settings `match` and `spsa` share: variant, rule set, clocks, openings,
//! adjudication and how many games run at once, read into what the match runner takes.

use super::{parse_rules, parse_variant, UsageError};
use crate::board::Variant;
use crate::matchplay::driver::TimeControl;
use crate::matchplay::game_start;
use crate::matchplay::openings::{parse_book, Opening};
use crate::matchplay::play_game::{DrawAdjudication, GameRules, ResignAdjudication};
use clap::Args;
use std::time::Duration;

#[derive(Args)]
pub(super) struct GameArgs {
    /// chushogi, heian, heian9x8, heian8x9 or heian8x8.
    #[arg(long, default_value = "chushogi")]
    pub(super) variant: String,
    /// Rule set both engines are set to and the referee judges by: lishogi, jcsa or hachu.
    #[arg(long, default_value = "lishogi")]
    pub(super) rules: String,
    /// Seconds per game + increment per move, e.g. 10+0.1 or 1:00+0.5 (an engine's own tc=
    /// overrides it: time odds).
    #[arg(long, default_value = "10+0.1")]
    pub(super) tc: String,
    /// USI byoyomi in milliseconds.
    #[arg(long, default_value_t = 0)]
    pub(super) byoyomi: u64,
    /// Opening book (SFEN [; moves ...] per line); each opening is played twice, colours
    /// swapped. Without it every game starts from the start position.
    #[arg(long)]
    pub(super) openings: Option<String>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    pub(super) concurrency: usize,
    /// Draw when both scores stay small: movenumber=40,movecount=8,score=10.
    #[arg(long)]
    pub(super) draw_adjudication: Option<String>,
    /// Loss when a score stays low: movecount=3,score=1000[,twosided].
    #[arg(long)]
    pub(super) resign_adjudication: Option<String>,
    /// Adjudicate a draw once each side has made this many moves (the opening's included).
    #[arg(long)]
    pub(super) max_moves: Option<u32>,
    /// Milliseconds an engine may overrun its clock before it forfeits.
    #[arg(long, default_value_t = 200)]
    pub(super) margin_ms: u64,
    /// Print every protocol line on stderr.
    #[arg(long)]
    pub(super) debug: bool,
}

/// What [`GameArgs`] read into.
pub(super) struct GameSetup {
    pub(super) variant: Variant,
    /// The match-wide clock (an engine's `tc=` overrides it).
    pub(super) tc: TimeControl,
    /// Rules, adjudication and clocks of every game.
    pub(super) rules: GameRules,
    /// The opening book, or the start position alone.
    pub(super) openings: Vec<Opening>,
}

impl GameArgs {
    /// Checks and reads the settings.
    pub(super) fn setup(&self) -> Result<GameSetup, UsageError> {
        if self.concurrency == 0 || self.concurrency > 64 {
            return Err(UsageError(format!(
                "--concurrency must be between 1 and 64, not {}",
                self.concurrency
            )));
        }
        let variant = parse_variant(&self.variant)?;
        let rule_set = parse_rules(&self.rules)?;
        let tc = TimeControl::parse(&self.tc, self.byoyomi)
            .map_err(|e| UsageError(format!("--tc: {e}")))?;
        let draw = self
            .draw_adjudication
            .as_deref()
            .map(parse_draw)
            .transpose()?;
        let resign = self
            .resign_adjudication
            .as_deref()
            .map(parse_resign)
            .transpose()?;
        if self.max_moves == Some(0) {
            return Err(UsageError(
                "--max-moves 0 would draw every game before its first move: give 1 or more"
                    .to_string(),
            ));
        }
        Ok(GameSetup {
            variant,
            tc,
            rules: GameRules {
                start: game_start(variant, rule_set),
                margin: Duration::from_millis(self.margin_ms),
                draw,
                resign,
                max_moves: self.max_moves,
            },
            openings: read_openings(self.openings.as_deref(), variant)?,
        })
    }
}

/// The opening book at `path`, or the start position alone.
fn read_openings(path: Option<&str>, variant: Variant) -> Result<Vec<Opening>, UsageError> {
    match path {
        Some(path) => {
            let text = crate::platform::read_text_capped(
                std::path::Path::new(path),
                crate::platform::caps::SMALL_TEXT,
                "opening book",
            )
            .map_err(|e| UsageError(format!("cannot read openings '{path}': {e}")))?;
            parse_book(variant, &text).map_err(|e| UsageError(format!("openings '{path}': {e}")))
        }
        None => Ok(vec![Opening::startpos(variant)]),
    }
}

/// `key=value,...` into pairs, with bare words as `(word, "")`.
fn key_values(text: &str) -> Vec<(String, String)> {
    text.split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| match p.split_once('=') {
            Some((k, v)) => (k.trim().to_ascii_lowercase(), v.trim().to_string()),
            None => (p.to_ascii_lowercase(), String::new()),
        })
        .collect()
}

fn number<T: std::str::FromStr>(option: &str, key: &str, value: &str) -> Result<T, UsageError> {
    value
        .parse()
        .map_err(|_| UsageError(format!("{option}: {key} must be a number, not '{value}'")))
}

fn parse_draw(text: &str) -> Result<DrawAdjudication, UsageError> {
    let mut d = DrawAdjudication {
        move_number: 40,
        move_count: 8,
        score: 10,
    };
    for (k, v) in key_values(text) {
        match k.as_str() {
            "movenumber" => d.move_number = number("--draw-adjudication", &k, &v)?,
            "movecount" => d.move_count = number("--draw-adjudication", &k, &v)?,
            "score" => d.score = number("--draw-adjudication", &k, &v)?,
            _ => {
                return Err(UsageError(format!(
                    "--draw-adjudication: unknown key '{k}' (movenumber, movecount, score)"
                )))
            }
        }
    }
    Ok(d)
}

fn parse_resign(text: &str) -> Result<ResignAdjudication, UsageError> {
    let mut r = ResignAdjudication {
        move_count: 3,
        score: 1000,
        two_sided: false,
    };
    for (k, v) in key_values(text) {
        match k.as_str() {
            "movecount" => r.move_count = number("--resign-adjudication", &k, &v)?,
            "score" => r.score = number("--resign-adjudication", &k, &v)?,
            "twosided" => r.two_sided = v.is_empty() || v == "true" || v == "1",
            _ => {
                return Err(UsageError(format!(
                    "--resign-adjudication: unknown key '{k}' (movecount, score, twosided)"
                )))
            }
        }
    }
    if r.move_count == 0 || r.score <= 0 {
        return Err(UsageError(
            "--resign-adjudication needs movecount >= 1 and score > 0".into(),
        ));
    }
    Ok(r)
}
