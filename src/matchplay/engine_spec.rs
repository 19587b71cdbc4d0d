//! One `--engine` value: either a plain command line (as before) or cutechess-style settings
//! `cmd=...,name=...,proto=usi|xboard|auto,tc=1+0.01,nodes=N,option.NAME=VALUE,variant=NAME`.
//!
//! A value is read as settings when its first comma-separated part is `cmd=`, `name=`, `proto=`,
//! `tc=`, `nodes=`, `variant=` or `option.X=`, or when any part starts with `cmd=`; otherwise the whole
//! value is the command, so `--engine "/path/engine --threads=2"` keeps working. Values cannot
//! contain commas (cutechess has the same limit); a command may contain spaces and is run by
//! `sh -c`. Errors are typed so the command line can say exactly what was wrong.

use super::driver::{TimeControl, TimeControlError};
use super::Protocol;

/// Everything the runner knows about one engine.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineConfig {
    /// The command line, run through `sh -c exec ...`.
    pub command: String,
    /// Label in progress lines, the table and the PGN (default: the engine's own name).
    pub name: Option<String>,
    /// The protocol to speak (`proto=`; default: the match-wide one).
    pub protocol: Protocol,
    /// This engine's own clock (time odds when the two differ).
    pub time_control: TimeControl,
    /// The time control as the user wrote it, for the PGN.
    pub time_control_text: String,
    /// `option.NAME=VALUE` settings, in order, sent after the handshake.
    pub options: Vec<(String, String)>,
    /// The name this engine knows the match variant by (default: shishi's own).
    pub variant: Option<String>,
    /// `nodes=N`: the nodes this engine may search per move (USI `go ... nodes N`); its clock
    /// still runs.
    pub node_limit: Option<u64>,
}

impl EngineConfig {
    /// A plain command with the match-wide protocol and clock.
    pub fn command(command: &str, protocol: Protocol, tc: TimeControl, tc_text: &str) -> Self {
        EngineConfig {
            command: command.to_string(),
            name: None,
            protocol,
            time_control: tc,
            time_control_text: tc_text.to_string(),
            options: Vec::new(),
            variant: None,
            node_limit: None,
        }
    }
}

/// What was wrong with an `--engine` value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineSpecError {
    /// A part without `=`.
    #[error("'{0}' is not key=value")]
    NotKeyValue(String),
    /// A key other than `cmd`, `name`, `proto`, `tc`, `nodes`, `variant`, `option.NAME`.
    #[error("unknown key '{0}' (cmd, name, proto, tc, nodes, variant, option.NAME)")]
    UnknownKey(String),
    /// Settings without `cmd=`.
    #[error("no cmd= (the engine's command line)")]
    MissingCommand,
    /// `key=` with nothing after it.
    #[error("{0}= has no value")]
    EmptyValue(String),
    /// The same key twice.
    #[error("{0}= given twice")]
    Repeated(String),
    /// A `proto=` value that is not `usi`, `xboard` or `auto`.
    #[error("unknown protocol '{0}' (usi, xboard, auto)")]
    BadProtocol(String),
    /// A `tc=` value that does not parse.
    #[error("tc: {0}")]
    BadTimeControl(TimeControlError),
    /// A `nodes=` value that is not a whole number from 1 up.
    #[error("nodes: '{0}' is not a whole number from 1 up")]
    BadNodes(String),
}

const KEYS: [&str; 6] = ["cmd", "name", "proto", "tc", "nodes", "variant"];

fn is_setting(part: &str) -> bool {
    match part.split_once('=') {
        Some((k, _)) => {
            let k = k.trim();
            KEYS.contains(&k) || k.starts_with("option.")
        }
        None => false,
    }
}

/// Reads one `--engine` value; `protocol`, `tc` and `tc_text` are the match-wide defaults and
/// `byoyomi_ms` completes an engine's own `tc=`.
pub fn parse_engine(
    text: &str,
    protocol: Protocol,
    tc: TimeControl,
    tc_text: &str,
    byoyomi_ms: u64,
) -> Result<EngineConfig, EngineSpecError> {
    let mut config = EngineConfig::command(text.trim(), protocol, tc, tc_text);
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let settings =
        parts.first().is_some_and(|p| is_setting(p)) || parts.iter().any(|p| p.starts_with("cmd="));
    if !settings {
        return Ok(config);
    }
    let mut command = None;
    let mut seen: Vec<String> = Vec::new();
    for part in parts.into_iter().filter(|p| !p.is_empty()) {
        let (key, value) = part
            .split_once('=')
            .ok_or_else(|| EngineSpecError::NotKeyValue(part.to_string()))?;
        let (key, value) = (key.trim(), value.trim());
        if value.is_empty() {
            return Err(EngineSpecError::EmptyValue(key.to_string()));
        }
        if seen.iter().any(|k| k == key) {
            return Err(EngineSpecError::Repeated(key.to_string()));
        }
        seen.push(key.to_string());
        match key {
            "cmd" => command = Some(value.to_string()),
            "name" => config.name = Some(value.to_string()),
            "proto" => {
                config.protocol = Protocol::from_name(value)
                    .ok_or_else(|| EngineSpecError::BadProtocol(value.to_string()))?;
            }
            "tc" => {
                config.time_control = TimeControl::parse(value, byoyomi_ms)
                    .map_err(EngineSpecError::BadTimeControl)?;
                config.time_control_text = value.to_string();
            }
            "nodes" => {
                let nodes = value.parse::<u64>().ok().filter(|&n| n > 0);
                config.node_limit =
                    Some(nodes.ok_or_else(|| EngineSpecError::BadNodes(value.to_string()))?);
            }
            "variant" => config.variant = Some(value.to_string()),
            _ => match key.strip_prefix("option.") {
                Some(name) if !name.is_empty() => {
                    config.options.push((name.to_string(), value.to_string()));
                }
                _ => return Err(EngineSpecError::UnknownKey(key.to_string())),
            },
        }
    }
    config.command = command.ok_or(EngineSpecError::MissingCommand)?;
    Ok(config)
}
