//! The one table of engine options shared by USI and XBoard: each option's name, type, default
//! and range, how it is advertised in each protocol, and how a value is checked and applied.
//! Both protocols keep a `Settings` and change it only through `Settings::set`, so a bad value
//! leaves every setting as it was.

use crate::board::Variant;
use crate::rules::{PromotionRule, Repetition, RuleSet};
use crate::search::EngineOptions;
use std::time::Duration;

/// What kind of value an option takes.
#[derive(Clone, Debug)]
pub enum OptionType {
    /// A whole number in a range.
    Spin {
        /// The smallest value accepted.
        min: i64,
        /// The largest value accepted.
        max: i64,
    },
    /// True or false.
    Check,
    /// One word of a list.
    Combo {
        /// The words accepted.
        values: &'static [&'static str],
    },
}

/// One option of the table.
pub struct OptionSpec {
    /// The name advertised.
    pub name: &'static str,
    /// Other names accepted by `setoption`/`option` (compared ignoring case).
    pub aliases: &'static [&'static str],
    /// Its type and range.
    pub kind: OptionType,
    /// Shown by XBoard (`feature option=`); XBoard has `memory`, `cores` and `variant` instead.
    pub in_xboard: bool,
}

const SPECS: &[OptionSpec] = &[
    OptionSpec {
        name: "USI_Hash",
        aliases: &["Hash"],
        kind: OptionType::Spin { min: 1, max: 65536 },
        in_xboard: false,
    },
    OptionSpec {
        name: "Threads",
        aliases: &[],
        kind: OptionType::Spin { min: 1, max: 256 },
        in_xboard: false,
    },
    OptionSpec {
        name: "USI_Ponder",
        aliases: &["Ponder"],
        kind: OptionType::Check,
        in_xboard: false,
    },
    OptionSpec {
        name: "MultiPV",
        aliases: &[],
        kind: OptionType::Spin { min: 1, max: 64 },
        in_xboard: true,
    },
    OptionSpec {
        name: "MoveOverhead",
        aliases: &["Move Overhead"],
        kind: OptionType::Spin { min: 0, max: 10000 },
        in_xboard: true,
    },
    OptionSpec {
        name: "USI_Variant",
        aliases: &["UCI_Variant"],
        kind: OptionType::Combo {
            values: &["chushogi", "heian", "heian9x8", "heian8x9", "heian8x8"],
        },
        in_xboard: false,
    },
    OptionSpec {
        name: "RuleSet",
        aliases: &[],
        kind: OptionType::Combo {
            values: &["lishogi", "jcsa", "hachu"],
        },
        in_xboard: true,
    },
    OptionSpec {
        name: "OkazakiRule",
        aliases: &[],
        kind: OptionType::Check,
        in_xboard: true,
    },
    OptionSpec {
        name: "LionMiddleProtector",
        aliases: &[],
        kind: OptionType::Check,
        in_xboard: true,
    },
    OptionSpec {
        name: "CounterStrikeRecapture",
        aliases: &[],
        kind: OptionType::Check,
        in_xboard: true,
    },
    OptionSpec {
        name: "PromotionRule",
        aliases: &[],
        kind: OptionType::Combo {
            values: &["lishogi", "entry-only"],
        },
        in_xboard: true,
    },
    OptionSpec {
        name: "BareKing",
        aliases: &[],
        kind: OptionType::Check,
        in_xboard: true,
    },
    OptionSpec {
        name: "Repetition",
        aliases: &[],
        kind: OptionType::Combo {
            values: &["fourfold", "forbid"],
        },
        in_xboard: true,
    },
];

/// Everything the options decide, with the protocol-independent defaults.
#[derive(Clone, Debug)]
pub struct Settings {
    /// What the search engine takes (hash, threads, MultiPV, overhead).
    pub engine: EngineOptions,
    /// The rule set positions are played under.
    pub rules: RuleSet,
    /// `USI_Ponder`: the GUI may send `go ponder`.
    pub ponder: bool,
    /// The variant of `position startpos`.
    pub variant: Variant,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            engine: EngineOptions::default(),
            rules: RuleSet::default(),
            ponder: false,
            variant: Variant::Chushogi,
        }
    }
}

fn find(name: &str) -> Option<&'static OptionSpec> {
    SPECS.iter().find(|s| {
        s.name.eq_ignore_ascii_case(name) || s.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
    })
}

fn parse_check(name: &str, value: &str) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "1" | "on" | "yes" => Ok(true),
        "false" | "0" | "off" | "no" => Ok(false),
        _ => Err(format!("option {name} takes true or false, not '{value}'")),
    }
}

fn bool_text(b: bool) -> &'static str {
    if b {
        "true"
    } else {
        "false"
    }
}

impl Settings {
    /// The current value of an option, as text.
    pub fn value(&self, spec: &OptionSpec) -> String {
        match spec.name {
            "USI_Hash" => self.engine.hash_mb.to_string(),
            "Threads" => self.engine.threads.to_string(),
            "USI_Ponder" => bool_text(self.ponder).to_string(),
            "MultiPV" => self.engine.multipv.to_string(),
            "MoveOverhead" => self.engine.move_overhead.as_millis().to_string(),
            "USI_Variant" => self.variant.name().to_string(),
            "RuleSet" => self
                .rules
                .preset()
                .map_or("lishogi", |p| p.name())
                .to_string(),
            "OkazakiRule" => bool_text(self.rules.okazaki).to_string(),
            "LionMiddleProtector" => bool_text(self.rules.lion_middle_protector).to_string(),
            "BareKing" => bool_text(self.rules.bare_king).to_string(),
            "CounterStrikeRecapture" => bool_text(self.rules.counter_strike_recapture).to_string(),
            "PromotionRule" => match self.rules.promotion {
                PromotionRule::Lishogi => "lishogi",
                PromotionRule::EntryOnly => "entry-only",
            }
            .to_string(),
            "Repetition" => match self.rules.repetition {
                Repetition::Fourfold => "fourfold",
                Repetition::Forbid => "forbid",
            }
            .to_string(),
            _ => String::new(),
        }
    }

    /// Checks and applies one option; on error nothing changes and the message says why.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let name = name.trim();
        let value = value.trim();
        let spec = find(name).ok_or_else(|| format!("unknown option '{name}'"))?;
        let spin = |min: i64, max: i64| -> Result<i64, String> {
            let n: i64 = value
                .parse()
                .map_err(|_| format!("option {} takes a whole number, not '{value}'", spec.name))?;
            if !(min..=max).contains(&n) {
                return Err(format!(
                    "option {} must be between {min} and {max}, not {n}",
                    spec.name
                ));
            }
            Ok(n)
        };
        match (&spec.kind, spec.name) {
            (OptionType::Spin { min, max }, field) => {
                let n = spin(*min, *max)?;
                match field {
                    "USI_Hash" => {
                        crate::search::tt::check_hash_mb(n as usize)
                            .map_err(|e| format!("option USI_Hash: {e}"))?;
                        self.engine.hash_mb = n as usize;
                    }
                    "Threads" => self.engine.threads = n as usize,
                    "MultiPV" => self.engine.multipv = n as u32,
                    _ => self.engine.move_overhead = Duration::from_millis(n as u64),
                }
            }
            (OptionType::Check, "USI_Ponder") => self.ponder = parse_check(spec.name, value)?,
            (OptionType::Combo { values }, "USI_Variant") => {
                let variant = Variant::from_name(value)
                    .filter(|v| values.contains(&v.name()))
                    .ok_or_else(|| {
                        format!(
                            "option USI_Variant is one of {}, not '{value}'",
                            values.join(", ")
                        )
                    })?;
                self.variant = variant;
            }
            (OptionType::Check, rule) => {
                let flag = parse_check(spec.name, value)?;
                self.rules.set_option(rule, bool_text(flag))?;
            }
            (OptionType::Combo { values }, rule) => {
                if !values.iter().any(|v| v.eq_ignore_ascii_case(value)) {
                    return Err(format!(
                        "option {rule} is one of {}, not '{value}'",
                        values.join(", ")
                    ));
                }
                self.rules.set_option(rule, value)?;
            }
        }
        Ok(())
    }

    /// The `option name ... type ...` lines of the USI handshake.
    pub fn usi_lines(&self, uci: bool) -> Vec<String> {
        SPECS
            .iter()
            .map(|spec| {
                let name = match (uci, spec.name) {
                    (true, "USI_Hash") => "Hash",
                    (true, "USI_Ponder") => "Ponder",
                    (true, "USI_Variant") => "UCI_Variant",
                    (_, n) => n,
                };
                let default = self.value(spec);
                match &spec.kind {
                    OptionType::Spin { min, max } => format!(
                        "option name {name} type spin default {default} min {min} max {max}"
                    ),
                    OptionType::Check => format!("option name {name} type check default {default}"),
                    OptionType::Combo { values } => {
                        let vars: String = values.iter().map(|v| format!(" var {v}")).collect();
                        format!("option name {name} type combo default {default}{vars}")
                    }
                }
            })
            .collect()
    }

    /// The `feature option="..."` lines of the XBoard handshake.
    pub fn xboard_lines(&self) -> Vec<String> {
        SPECS
            .iter()
            .filter(|s| s.in_xboard)
            .map(|spec| {
                let current = self.value(spec);
                let body = match &spec.kind {
                    OptionType::Spin { min, max } => format!("-spin {current} {min} {max}"),
                    OptionType::Check => {
                        format!("-check {}", if current == "true" { 1 } else { 0 })
                    }
                    OptionType::Combo { values } => {
                        let choices: Vec<String> = values
                            .iter()
                            .map(|v| {
                                if *v == current {
                                    format!("*{v}")
                                } else {
                                    v.to_string()
                                }
                            })
                            .collect();
                        format!("-combo {}", choices.join(" /// "))
                    }
                };
                format!("feature option=\"{} {body}\"", spec.name)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_values_change_nothing() {
        let mut s = Settings::default();
        let before = format!("{s:?}");
        assert!(s.set("Threads", "0").is_err());
        assert!(s.set("USI_Hash", "lots").is_err());
        let beyond = crate::search::tt::max_hash_mb() + 1;
        if beyond <= 65536 {
            let e = s.set("USI_Hash", &beyond.to_string()).unwrap_err();
            assert!(e.contains("machine's memory"), "{e}");
        }
        assert!(s.set("RuleSet", "fide").is_err());
        assert!(s.set("BareKing", "maybe").is_err());
        assert!(s.set("Nonsense", "1").is_err());
        assert!(s.set("USI_Variant", "shogi").is_err());
        assert_eq!(before, format!("{s:?}"));
    }

    #[test]
    fn rule_options_reach_the_rule_set() {
        let mut s = Settings::default();
        s.set("ruleset", "hachu").unwrap();
        assert_eq!(s.rules, crate::rules::Preset::Hachu.rules());
        s.set("BareKing", "1").unwrap();
        assert!(s.rules.bare_king);
        assert!(!s.rules.counter_strike_recapture);
        s.set("CounterStrikeRecapture", "true").unwrap();
        assert!(s.rules.counter_strike_recapture);
        let names: Vec<String> = s.usi_lines(false);
        assert!(names
            .iter()
            .any(|l| l.contains("name CounterStrikeRecapture type check default true")));
        s.set("Hash", "16").unwrap();
        assert_eq!(s.engine.hash_mb, 16);
        s.set("USI_Variant", "heian8x8").unwrap();
        assert_eq!(s.variant, Variant::Heian8x8);
    }
}
