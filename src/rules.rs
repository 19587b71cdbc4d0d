//! Rule sets (RULES.md section 9): the presets people play and the single rules they differ in.
//! The move generator and the game-end logic read every rule from here; none is hard-coded.

use std::fmt;

/// When a promotable Chu piece may promote (RULES.md section 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PromotionRule {
    /// Entering the zone, capturing with the start or final square in it, or a pawn or lance
    /// reaching the last rank.
    Lishogi,
    /// HaChu 0.21: a move entering the zone or capturing with its start or final square in it;
    /// a pawn or lance stepping onto the last rank without capturing may not promote.
    EntryOnly,
}

/// What a repeated position means (RULES.md section 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Repetition {
    /// The fourth occurrence ends the game: a draw, or a loss for a side whose every move in the
    /// cycle was a check or an attack.
    Fourfold,
    /// Any move that repeats an earlier position (since the last irreversible move) is illegal.
    Forbid,
}

/// A complete rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuleSet {
    /// Rule 5: the counter-strike rule does not protect an unprotected Lion.
    pub okazaki: bool,
    /// Rule 3, lishogi reading: a pawn or go-between captured on the middle square still counts
    /// as a protector of the lion taken on the second step.
    pub lion_middle_protector: bool,
    /// When a promotable piece may promote.
    pub promotion: PromotionRule,
    /// Rule 4's exception: the Lion standing on the counter-strike square (a Kirin that promoted
    /// while taking a Lion) may be taken back by a non-Lion. HaChu 0.21 has no such exception.
    pub counter_strike_recapture: bool,
    /// Bare king and the two-royal draw of RULES.md section 5.
    pub bare_king: bool,
    /// What a repeated position means.
    pub repetition: Repetition,
}

/// The named presets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// lishogi.org's rules, the default.
    Lishogi,
    /// The Japanese Chu Shogi Association's: lishogi's with the Okazaki rule.
    Jcsa,
    /// The rules HaChu 0.21 plays by.
    Hachu,
}

impl Preset {
    /// Every preset.
    pub const ALL: [Preset; 3] = [Preset::Lishogi, Preset::Jcsa, Preset::Hachu];

    /// The name the `RuleSet` option and `--rules` take: `lishogi`, `jcsa` or `hachu`.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Lishogi => "lishogi",
            Preset::Jcsa => "jcsa",
            Preset::Hachu => "hachu",
        }
    }

    /// The preset named `s`, ignoring case.
    pub fn from_name(s: &str) -> Option<Preset> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s))
    }

    /// The rule set of the preset.
    pub fn rules(self) -> RuleSet {
        match self {
            Preset::Lishogi => RuleSet::LISHOGI,
            Preset::Jcsa => RuleSet {
                okazaki: true,
                ..RuleSet::LISHOGI
            },
            Preset::Hachu => RuleSet {
                okazaki: false,
                lion_middle_protector: false,
                promotion: PromotionRule::EntryOnly,
                counter_strike_recapture: false,
                bare_king: false,
                repetition: Repetition::Forbid,
            },
        }
    }
}

impl RuleSet {
    /// The lishogi preset, also [`RuleSet::default`].
    pub const LISHOGI: RuleSet = RuleSet {
        okazaki: false,
        lion_middle_protector: true,
        promotion: PromotionRule::Lishogi,
        counter_strike_recapture: true,
        bare_king: true,
        repetition: Repetition::Fourfold,
    };

    /// The preset these rules equal, if any.
    pub fn preset(&self) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.rules() == *self)
    }

    /// Sets one rule by its option name (`OkazakiRule`, `LionMiddleProtector`, `PromotionRule`,
    /// `CounterStrikeRecapture`, `BareKing`, `Repetition`) or a whole preset (`RuleSet`).
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let flag = |v: &str| match v.to_ascii_lowercase().as_str() {
            "true" | "on" | "1" | "yes" => Ok(true),
            "false" | "off" | "0" | "no" => Ok(false),
            _ => Err(format!("{name} takes true or false, not '{v}'")),
        };
        match name.to_ascii_lowercase().as_str() {
            "ruleset" => {
                *self = Preset::from_name(value)
                    .ok_or_else(|| format!("unknown rule set '{value}' (lishogi, jcsa or hachu)"))?
                    .rules();
            }
            "okazakirule" => self.okazaki = flag(value)?,
            "lionmiddleprotector" => self.lion_middle_protector = flag(value)?,
            "bareking" => self.bare_king = flag(value)?,
            "counterstrikerecapture" => self.counter_strike_recapture = flag(value)?,
            "promotionrule" => {
                self.promotion = match value.to_ascii_lowercase().as_str() {
                    "lishogi" => PromotionRule::Lishogi,
                    "entry-only" | "entryonly" => PromotionRule::EntryOnly,
                    _ => {
                        return Err(format!(
                            "PromotionRule is lishogi or entry-only, not '{value}'"
                        ))
                    }
                }
            }
            "repetition" => {
                self.repetition = match value.to_ascii_lowercase().as_str() {
                    "fourfold" => Repetition::Fourfold,
                    "forbid" => Repetition::Forbid,
                    _ => return Err(format!("Repetition is fourfold or forbid, not '{value}'")),
                }
            }
            _ => return Err(format!("unknown rule option '{name}'")),
        }
        Ok(())
    }
}

impl Default for RuleSet {
    fn default() -> Self {
        RuleSet::LISHOGI
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.preset() {
            Some(p) => f.write_str(p.name()),
            None => write!(
                f,
                "custom (okazaki={}, lion-middle-protector={}, promotion={}, counter-strike-recapture={}, bare-king={}, repetition={})",
                self.okazaki,
                self.lion_middle_protector,
                match self.promotion {
                    PromotionRule::Lishogi => "lishogi",
                    PromotionRule::EntryOnly => "entry-only",
                },
                self.counter_strike_recapture,
                self.bare_king,
                match self.repetition {
                    Repetition::Fourfold => "fourfold",
                    Repetition::Forbid => "forbid",
                }
            ),
        }
    }
}
