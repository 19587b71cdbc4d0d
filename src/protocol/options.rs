//! The one table of engine options shared by USI and XBoard: each option's name, type, default
//! and range, how it is advertised in each protocol, and how option text is read, checked and
//! applied. Both protocols keep a `Settings` and change it only through `Settings::set`, which
//! reads the text into a typed value (a number in its range, a flag, one word of a list), sets
//! it, and says what changed; a bad value leaves every setting as it was and the error names it.
//! Besides the table of user options, every tunable number of the search is a spin option named
//! `Tune_...` (`search::params::TUNABLES`), so a match can try other values without a patch.

use crate::board::Variant;
use crate::eval::nnue::Network;
use crate::rules::{Preset, PromotionRule, Repetition, RuleSet};
use crate::search::params::TUNABLES;
use crate::search::tt::{check_hash_mb, HashSizeError};
use crate::search::EngineOptions;
use crate::tsume::Royals;
use std::sync::Arc;
use std::time::Duration;

/// Why `Settings::set` refused an option; the settings are unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// No option has this name.
    #[error("unknown option '{0}'")]
    Unknown(String),
    /// The hash table of the size asked for could not be allocated; the old one stays.
    #[error("{error}; the table stays {kept} MiB")]
    Memory {
        /// Why.
        error: crate::search::tt::TableAllocError,
        /// The size of the table kept, in MiB.
        kept: usize,
    },
    /// A spin option got something that is not a whole number.
    #[error("option {option} takes a whole number, not '{value}'")]
    NotANumber {
        /// The option's name.
        option: &'static str,
        /// The text given.
        value: String,
    },
    /// A spin option got a number outside its range.
    #[error("option {option} must be between {min} and {max}, not {value}")]
    OutOfRange {
        /// The option's name.
        option: &'static str,
        /// The number given.
        value: i128,
        /// The smallest value accepted.
        min: i64,
        /// The largest value accepted.
        max: i64,
    },
    /// A check option got something other than true or false.
    #[error("option {option} takes true or false, not '{value}'")]
    NotAFlag {
        /// The option's name.
        option: &'static str,
        /// The text given.
        value: String,
    },
    /// A combo option got a word not in its list.
    #[error("option {option} is one of {}, not '{value}'", choices.join(", "))]
    NotAChoice {
        /// The option's name.
        option: &'static str,
        /// The text given.
        value: String,
        /// The words accepted.
        choices: &'static [&'static str],
    },
    /// `EvalFile` named a file that is not a usable net; the evaluation stays as it was.
    #[error("option EvalFile: {0}")]
    EvalFile(String),
    /// A hash size in range for the option but beyond what this machine can hold.
    #[error("option USI_Hash: {0}")]
    Hash(#[from] HashSizeError),
}

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
    /// A file name (`<empty>` for none).
    File,
}

/// Which setting an option sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    Hash,
    Threads,
    Ponder,
    AnalyseMode,
    MultiPv,
    MoveOverhead,
    Variant,
    RuleSet,
    Okazaki,
    LionMiddleProtector,
    CounterStrikeRecapture,
    PromotionRule,
    BareKing,
    Repetition,
    UseNnue,
    EvalFile,
    TuneOptions,
    TsumeRoyals,
    /// The search parameter `TUNABLES[i]`.
    Tune(usize),
}

/// One option of the table.
#[derive(Clone)]
pub struct OptionSpec {
    /// The name advertised.
    pub name: &'static str,
    /// Other names accepted by `setoption`/`option` (compared ignoring case).
    pub aliases: &'static [&'static str],
    /// Its type and range.
    pub kind: OptionType,
    /// Shown by XBoard (`feature option=`); XBoard has `memory`, `cores` and `variant` instead.
    pub in_xboard: bool,
    field: Field,
}

/// What a successful `Settings::set` changed, for a session to act on: the one place both
/// protocols learn whether the engine, the rules or the variant must be brought up to date.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Changed {
    /// Hash, threads, MultiPV, move overhead, evaluation or a search parameter.
    pub engine: bool,
    /// Any rule of the rule set.
    pub rules: bool,
    /// The variant of `position startpos`.
    pub variant: bool,
    /// Whether the `Tune_` options are listed.
    pub tune_options: bool,
}

const SPECS: &[OptionSpec] = &[
    OptionSpec {
        name: "USI_Hash",
        aliases: &["Hash"],
        kind: OptionType::Spin { min: 1, max: 65536 },
        in_xboard: false,
        field: Field::Hash,
    },
    OptionSpec {
        name: "Threads",
        aliases: &[],
        kind: OptionType::Spin { min: 1, max: 256 },
        in_xboard: false,
        field: Field::Threads,
    },
    OptionSpec {
        name: "USI_Ponder",
        aliases: &["Ponder"],
        kind: OptionType::Check,
        in_xboard: false,
        field: Field::Ponder,
    },
    OptionSpec {
        name: "USI_AnalyseMode",
        aliases: &["UCI_AnalyseMode"],
        kind: OptionType::Check,
        in_xboard: false,
        field: Field::AnalyseMode,
    },
    OptionSpec {
        name: "MultiPV",
        aliases: &[],
        kind: OptionType::Spin { min: 1, max: 64 },
        in_xboard: true,
        field: Field::MultiPv,
    },
    OptionSpec {
        name: "MoveOverhead",
        aliases: &["Move Overhead"],
        kind: OptionType::Spin { min: 0, max: 10000 },
        in_xboard: true,
        field: Field::MoveOverhead,
    },
    OptionSpec {
        name: "USI_Variant",
        aliases: &["UCI_Variant"],
        kind: OptionType::Combo {
            values: &["chushogi", "heian", "heian9x8", "heian8x9", "heian8x8"],
        },
        in_xboard: false,
        field: Field::Variant,
    },
    OptionSpec {
        name: "RuleSet",
        aliases: &[],
        kind: OptionType::Combo {
            values: &["lishogi", "jcsa", "hachu"],
        },
        in_xboard: true,
        field: Field::RuleSet,
    },
    OptionSpec {
        name: "OkazakiRule",
        aliases: &[],
        kind: OptionType::Check,
        in_xboard: true,
        field: Field::Okazaki,
    },
    OptionSpec {
        name: "LionMiddleProtector",
        aliases: &[],
        kind: OptionType::Check,
        in_xboard: true,
        field: Field::LionMiddleProtector,
    },
    OptionSpec {
        name: "CounterStrikeRecapture",
        aliases: &[],
        kind: OptionType::Check,
        in_xboard: true,
        field: Field::CounterStrikeRecapture,
    },
    OptionSpec {
        name: "PromotionRule",
        aliases: &[],
        kind: OptionType::Combo {
            values: &["lishogi", "entry-only"],
        },
        in_xboard: true,
        field: Field::PromotionRule,
    },
    OptionSpec {
        name: "BareKing",
        aliases: &[],
        kind: OptionType::Check,
        in_xboard: true,
        field: Field::BareKing,
    },
    OptionSpec {
        name: "Repetition",
        aliases: &[],
        kind: OptionType::Combo {
            values: &["fourfold", "forbid"],
        },
        in_xboard: true,
        field: Field::Repetition,
    },
    OptionSpec {
        name: "UseNNUE",
        aliases: &["Use NNUE"],
        kind: OptionType::Check,
        in_xboard: true,
        field: Field::UseNnue,
    },
    OptionSpec {
        name: "EvalFile",
        aliases: &[],
        kind: OptionType::File,
        in_xboard: true,
        field: Field::EvalFile,
    },
    OptionSpec {
        name: "TuneOptions",
        aliases: &[],
        kind: OptionType::Check,
        in_xboard: true,
        field: Field::TuneOptions,
    },
    OptionSpec {
        name: "TsumeRoyals",
        aliases: &[],
        kind: OptionType::Combo {
            values: &["all", "any"],
        },
        in_xboard: false,
        field: Field::TsumeRoyals,
    },
];

/// What `EvalFile` shows when no file is loaded (the embedded nets evaluate).
pub const NO_EVAL_FILE: &str = "<empty>";

/// Everything the options decide, with the protocol-independent defaults.
#[derive(Clone, Debug)]
pub struct Settings {
    /// What the search engine takes (hash, threads, MultiPV, overhead).
    pub engine: EngineOptions,
    /// The rule set positions are played under.
    pub rules: RuleSet,
    /// `USI_Ponder`: the GUI may send `go ponder`.
    pub ponder: bool,
    /// `USI_AnalyseMode`: the GUI analyses rather than plays (lishogi's analysis board sets
    /// it). Accepted and shown; the search is the same either way.
    pub analyse_mode: bool,
    /// `TuneOptions`: list the `Tune_` search parameters among the options a GUI is shown
    /// (they are set by name either way: `shishi match option.Tune_...`, `spsa`).
    pub tune_options: bool,
    /// The variant of `position startpos`.
    pub variant: Variant,
    /// `TsumeRoyals`: which moves `go mate` counts as checks while the defender has King and
    /// Crown Prince.
    pub tsume_royals: Royals,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            engine: EngineOptions::default(),
            rules: RuleSet::default(),
            ponder: false,
            analyse_mode: false,
            tune_options: false,
            variant: Variant::Chushogi,
            tsume_royals: Royals::default(),
        }
    }
}

/// The net `EvalFile` names: none for an empty value, `<empty>` or `<embedded>`; otherwise the
/// file must be a valid net (of either family: it replaces that family's embedded net).
fn load_eval_file(text: &str) -> Result<Option<(String, Arc<Network>)>, OptionError> {
    if text.is_empty() || text == NO_EVAL_FILE || text.eq_ignore_ascii_case("<embedded>") {
        return Ok(None);
    }
    #[cfg(target_arch = "wasm32")]
    return Err(OptionError::EvalFile(format!(
        "{text}: the browser build has no files; it evaluates with its embedded nets"
    )));
    #[cfg(not(target_arch = "wasm32"))]
    Network::load(std::path::Path::new(text), None)
        .map(|net| Some((text.to_string(), Arc::new(net))))
        .map_err(|e| OptionError::EvalFile(format!("{text}: {e}")))
}

/// Every option: the table, then one spin option per search parameter.
fn all_specs() -> impl Iterator<Item = OptionSpec> {
    let tune = TUNABLES.iter().enumerate().map(|(i, t)| OptionSpec {
        name: t.name,
        aliases: &[],
        kind: OptionType::Spin {
            min: t.min,
            max: t.max,
        },
        in_xboard: true,
        field: Field::Tune(i),
    });
    SPECS.iter().cloned().chain(tune)
}

/// Whether the option `name` sets a condition a tsume problem may state for itself: the rule
/// set, one of its rules, or `TsumeRoyals`.
pub fn is_tsume_condition(name: &str) -> bool {
    find(name).is_some_and(|spec| {
        matches!(
            spec.field,
            Field::RuleSet
                | Field::Okazaki
                | Field::LionMiddleProtector
                | Field::CounterStrikeRecapture
                | Field::PromotionRule
                | Field::BareKing
                | Field::Repetition
                | Field::TsumeRoyals
        )
    })
}

fn find(name: &str) -> Option<OptionSpec> {
    all_specs().find(|s| {
        s.name.eq_ignore_ascii_case(name) || s.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
    })
}

fn bool_text(b: bool) -> &'static str {
    if b {
        "true"
    } else {
        "false"
    }
}

impl OptionSpec {
    /// `text` as this spin option's number, in its range.
    fn number(&self, text: &str) -> Result<i64, OptionError> {
        let option = self.name;
        let (min, max) = match self.kind {
            OptionType::Spin { min, max } => (min, max),
            _ => (i64::MIN, i64::MAX),
        };
        let value: i128 = text.parse().map_err(|_| OptionError::NotANumber {
            option,
            value: text.to_string(),
        })?;
        match i64::try_from(value) {
            Ok(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(OptionError::OutOfRange {
                option,
                value,
                min,
                max,
            }),
        }
    }

    /// `text` as this check option's flag.
    fn flag(&self, text: &str) -> Result<bool, OptionError> {
        match text.to_ascii_lowercase().as_str() {
            "true" | "1" | "on" | "yes" => Ok(true),
            "false" | "0" | "off" | "no" => Ok(false),
            _ => Err(OptionError::NotAFlag {
                option: self.name,
                value: text.to_string(),
            }),
        }
    }

    /// The item of `all` that `text` names (ignoring case), if it is a word of this combo
    /// option's list.
    fn choice<T: Copy>(
        &self,
        text: &str,
        all: &[T],
        name: impl Fn(T) -> &'static str,
    ) -> Result<T, OptionError> {
        let choices = match self.kind {
            OptionType::Combo { values } => values,
            _ => &[],
        };
        all.iter()
            .copied()
            .find(|&t| name(t).eq_ignore_ascii_case(text) && choices.contains(&name(t)))
            .ok_or_else(|| OptionError::NotAChoice {
                option: self.name,
                value: text.to_string(),
                choices,
            })
    }
}

impl Settings {
    /// The current value of an option, as text.
    pub fn value(&self, spec: &OptionSpec) -> String {
        let rules = &self.rules;
        match spec.field {
            Field::Hash => self.engine.hash_mb.to_string(),
            Field::Threads => self.engine.threads.to_string(),
            Field::Ponder => bool_text(self.ponder).to_string(),
            Field::AnalyseMode => bool_text(self.analyse_mode).to_string(),
            Field::MultiPv => self.engine.multipv.to_string(),
            Field::MoveOverhead => self.engine.move_overhead.as_millis().to_string(),
            Field::Variant => self.variant.name().to_string(),
            Field::RuleSet => rules.preset().map_or("lishogi", |p| p.name()).to_string(),
            Field::Okazaki => bool_text(rules.okazaki).to_string(),
            Field::LionMiddleProtector => bool_text(rules.lion_middle_protector).to_string(),
            Field::BareKing => bool_text(rules.bare_king).to_string(),
            Field::CounterStrikeRecapture => bool_text(rules.counter_strike_recapture).to_string(),
            Field::PromotionRule => rules.promotion.name().to_string(),
            Field::Repetition => rules.repetition.name().to_string(),
            Field::UseNnue => bool_text(self.engine.eval.use_nnue).to_string(),
            Field::TuneOptions => bool_text(self.tune_options).to_string(),
            Field::TsumeRoyals => self.tsume_royals.name().to_string(),
            Field::EvalFile => match &self.engine.eval.file_net {
                Some((path, _)) => path.clone(),
                None => NO_EVAL_FILE.to_string(),
            },
            Field::Tune(i) => (TUNABLES[i].get)(&self.engine.params).to_string(),
        }
    }

    /// Reads, checks and applies one option, and says what it changed; on error nothing
    /// changes and the error names the option and the bad text.
    pub fn set(&mut self, name: &str, value: &str) -> Result<Changed, OptionError> {
        let (name, text) = (name.trim(), value.trim());
        let spec = find(name).ok_or_else(|| OptionError::Unknown(name.to_string()))?;
        let mut new = self.clone();
        new.apply(&spec, text)?;
        let changed = Changed {
            engine: new.engine != self.engine,
            rules: new.rules != self.rules,
            variant: new.variant != self.variant,
            tune_options: new.tune_options != self.tune_options,
        };
        *self = new;
        Ok(changed)
    }

    /// Reads `text` as the type of `spec` and sets its field.
    fn apply(&mut self, spec: &OptionSpec, text: &str) -> Result<(), OptionError> {
        let rules = &mut self.rules;
        match spec.field {
            Field::Hash => {
                let mb = spec.number(text)? as usize;
                check_hash_mb(mb)?;
                self.engine.hash_mb = mb;
            }
            Field::Threads => self.engine.threads = spec.number(text)? as usize,
            Field::MultiPv => self.engine.multipv = spec.number(text)? as u32,
            Field::MoveOverhead => {
                self.engine.move_overhead = Duration::from_millis(spec.number(text)? as u64);
            }
            Field::Ponder => self.ponder = spec.flag(text)?,
            Field::AnalyseMode => self.analyse_mode = spec.flag(text)?,
            Field::Okazaki => rules.okazaki = spec.flag(text)?,
            Field::LionMiddleProtector => rules.lion_middle_protector = spec.flag(text)?,
            Field::CounterStrikeRecapture => rules.counter_strike_recapture = spec.flag(text)?,
            Field::BareKing => rules.bare_king = spec.flag(text)?,
            Field::Variant => {
                // Variant names have aliases (`chu`); the table lists each variant's own name.
                let own_name = Variant::from_name(text).map_or(text, |v| v.name());
                self.variant = spec.choice(own_name, &Variant::ALL, Variant::name)?;
            }
            Field::RuleSet => *rules = spec.choice(text, &Preset::ALL, Preset::name)?.rules(),
            Field::PromotionRule => {
                rules.promotion = spec.choice(text, &PromotionRule::ALL, PromotionRule::name)?;
            }
            Field::Repetition => {
                rules.repetition = spec.choice(text, &Repetition::ALL, Repetition::name)?;
            }
            Field::UseNnue => self.engine.eval.use_nnue = spec.flag(text)?,
            Field::EvalFile => self.engine.eval.file_net = load_eval_file(text)?,
            Field::TuneOptions => self.tune_options = spec.flag(text)?,
            Field::TsumeRoyals => {
                self.tsume_royals = spec.choice(text, &Royals::ALL, Royals::name)?;
            }
            Field::Tune(i) => (TUNABLES[i].set)(&mut self.engine.params, spec.number(text)?),
        }
        Ok(())
    }

    /// What a user is told of the net `EvalFile` loaded, if one: its file and shape, and which
    /// games it evaluates when they are not the current variant's.
    pub fn eval_file_note(&self) -> Option<String> {
        let (path, net) = self.engine.eval.file_net.as_ref()?;
        let mut note = format!("EvalFile {path}: {}", net.describe());
        if net.family != self.variant.family() {
            note.push_str(&format!(
                "; it evaluates {:?} games only, and the variant is {}",
                net.family,
                self.variant.name()
            ));
        }
        Some(note)
    }

    /// The options a GUI is shown: all but the `Tune_` search parameters, which only a
    /// `TuneOptions` set to true lists (48 of them fill a GUI's settings dialog).
    fn listed_specs(&self) -> impl Iterator<Item = OptionSpec> {
        let tune = self.tune_options;
        all_specs().filter(move |s| tune || !matches!(s.field, Field::Tune(_)))
    }

    /// The `option name ... type ...` lines of the USI handshake.
    pub fn usi_lines(&self, uci: bool) -> Vec<String> {
        self.listed_specs()
            .map(|spec| {
                let name = match (uci, spec.name) {
                    (true, "USI_Hash") => "Hash",
                    (true, "USI_Ponder") => "Ponder",
                    (true, "USI_AnalyseMode") => "UCI_AnalyseMode",
                    (true, "USI_Variant") => "UCI_Variant",
                    (_, n) => n,
                };
                let default = self.value(&spec);
                match &spec.kind {
                    OptionType::Spin { min, max } => format!(
                        "option name {name} type spin default {default} min {min} max {max}"
                    ),
                    OptionType::Check => format!("option name {name} type check default {default}"),
                    OptionType::File => format!("option name {name} type string default {default}"),
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
        self.listed_specs()
            .filter(|s| s.in_xboard)
            .map(|spec| {
                let current = self.value(&spec);
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
                    OptionType::File => format!("-file {current}"),
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
            assert!(matches!(e, OptionError::Hash(_)), "{e:?}");
            assert!(e.to_string().contains("machine's memory"), "{e}");
        }
        assert!(s.set("RuleSet", "fide").is_err());
        assert!(s.set("BareKing", "maybe").is_err());
        assert!(s.set("Nonsense", "1").is_err());
        assert!(s.set("USI_Variant", "shogi").is_err());
        assert_eq!(before, format!("{s:?}"));
    }

    #[test]
    fn errors_name_the_option_and_the_bad_text() {
        let mut s = Settings::default();
        for (name, value, message) in [
            ("Foo", "1", "unknown option 'Foo'"),
            ("Hash", "x", "option USI_Hash takes a whole number, not 'x'"),
            (
                "Threads",
                "99999999999999999999",
                "option Threads must be between 1 and 256, not 99999999999999999999",
            ),
            (
                "BareKing",
                "maybe",
                "option BareKing takes true or false, not 'maybe'",
            ),
            (
                "Repetition",
                "twice",
                "option Repetition is one of fourfold, forbid, not 'twice'",
            ),
        ] {
            assert_eq!(s.set(name, value).unwrap_err().to_string(), message);
        }
    }

    #[test]
    fn set_says_what_changed() {
        let mut s = Settings::default();
        let engine = Changed {
            engine: true,
            ..Changed::default()
        };
        assert_eq!(s.set("Hash", "16").unwrap(), engine);
        assert_eq!(s.set("Threads", "2").unwrap(), engine);
        assert_eq!(s.set("Threads", "2").unwrap(), Changed::default());
        assert!(s.set("Repetition", "forbid").unwrap().rules);
        assert!(s.set("USI_Variant", "chu").unwrap() == Changed::default());
        assert!(s.set("UCI_Variant", "heian").unwrap().variant);
    }

    #[test]
    fn analyse_mode_is_accepted_and_changes_nothing_the_search_reads() {
        let mut s = Settings::default();
        assert_eq!(
            s.set("USI_AnalyseMode", "true").unwrap(),
            Changed::default()
        );
        assert!(s.analyse_mode);
        assert!(s.set("UCI_AnalyseMode", "false").is_ok());
        assert!(!s.analyse_mode);
        assert!(s.set("USI_AnalyseMode", "sometimes").is_err());
        assert!(s
            .usi_lines(false)
            .contains(&"option name USI_AnalyseMode type check default false".to_string()));
        assert!(s
            .usi_lines(true)
            .contains(&"option name UCI_AnalyseMode type check default false".to_string()));
    }

    #[test]
    fn tune_options_set_the_search_parameters() {
        let mut s = Settings::default();
        assert_eq!(s.engine.params.lmr_divisor, 2200);
        let changed = s.set("Tune_LmrDivisor", "3000").unwrap();
        assert!(changed.engine);
        assert_eq!(s.engine.params.lmr_divisor, 3000);
        s.set("tune_rfpmargin", "120").unwrap();
        assert_eq!(s.engine.params.rfp_margin, 120);
        // Set by name, but listed only once asked for.
        assert!(!s.usi_lines(false).iter().any(|l| l.contains("Tune_")));
        assert!(!s.xboard_lines().iter().any(|l| l.contains("Tune_")));
        assert!(s.set("TuneOptions", "true").unwrap().tune_options);
        let lines = s.usi_lines(false);
        assert!(lines.contains(
            &"option name Tune_LmrDivisor type spin default 3000 min 100 max 20000".to_string()
        ));
        assert!(s
            .xboard_lines()
            .contains(&"feature option=\"Tune_RfpMargin -spin 120 0 2000\"".to_string()));
        for t in TUNABLES {
            assert!(lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {} ", t.name))));
        }
    }

    #[test]
    fn bad_tune_values_are_refused_by_name_and_change_nothing() {
        let mut s = Settings::default();
        s.set("Tune_AspirationDelta", "40").unwrap();
        let before = format!("{s:?}");
        for (name, value, message) in [
            ("Tune_Nonsense", "1", "unknown option 'Tune_Nonsense'"),
            (
                "Tune_LmrDivisor",
                "0",
                "option Tune_LmrDivisor must be between 100 and 20000, not 0",
            ),
            (
                "Tune_AspirationDelta",
                "wide",
                "option Tune_AspirationDelta takes a whole number, not 'wide'",
            ),
            (
                "Tune_HardLimitFactor",
                "-1",
                "option Tune_HardLimitFactor must be between 1 and 100, not -1",
            ),
        ] {
            assert_eq!(s.set(name, value).unwrap_err().to_string(), message);
        }
        assert_eq!(before, format!("{s:?}"));
        assert_eq!(s.engine.params.aspiration_delta, 40);
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

    #[test]
    fn eval_file_loads_a_net_and_refuses_a_bad_one_keeping_the_evaluation() {
        let dir = std::env::temp_dir();
        let good = dir.join(format!("shishi-options-good-{}.nnue", std::process::id()));
        let bad = dir.join(format!("shishi-options-bad-{}.nnue", std::process::id()));
        let net = crate::eval::nnue::embedded::embedded(crate::board::Family::Heian).unwrap();
        std::fs::write(&good, net.to_bytes()).unwrap();
        let mut corrupt = net.to_bytes();
        corrupt[1000] ^= 0x40;
        std::fs::write(&bad, corrupt).unwrap();
        let mut s = Settings::default();
        let spec = find("EvalFile").unwrap();
        assert_eq!(s.value(&spec), NO_EVAL_FILE);
        let path = good.to_str().unwrap();
        assert!(s.set("EvalFile", path).unwrap().engine);
        assert_eq!(s.value(&spec), path);
        let before = s.engine.clone();
        let e = s.set("EvalFile", bad.to_str().unwrap()).unwrap_err();
        assert!(e.to_string().contains("checksum"), "{e}");
        let e = s.set("EvalFile", "/no/such/net").unwrap_err();
        assert!(e.to_string().contains("cannot read"), "{e}");
        assert_eq!(s.engine, before, "a refused net changes nothing");
        s.set("EvalFile", "<empty>").unwrap();
        assert_eq!(s.engine.eval.file_net, None);
        s.set("UseNNUE", "false").unwrap();
        assert!(s.engine.eval.net_for(crate::board::Family::Heian).is_none());
        assert!(s.set("UseNNUE", "maybe").is_err());
        std::fs::remove_file(good).ok();
        std::fs::remove_file(bad).ok();
    }
}
