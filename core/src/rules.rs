//! Rule sets (docs/rules.md section 9): the presets people play and the single rules they differ in.
//! The move generator and the game-end logic read every rule from here; none is hard-coded.
//! Rules are set by value (the fields are public); reading option text is the protocols' job.

use std::fmt;

/// When a promotable Chu piece may promote (docs/rules.md section 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PromotionRule {
    /// Entering the zone, capturing with the start or final square in it, or a pawn or lance
    /// reaching the last rank.
    Lishogi,
    /// HaChu 0.21: a move entering the zone or capturing with its start or final square in it;
    /// a pawn or lance stepping onto the last rank without capturing may not promote.
    EntryOnly,
}

impl PromotionRule {
    /// Every promotion rule.
    pub const ALL: [PromotionRule; 2] = [PromotionRule::Lishogi, PromotionRule::EntryOnly];

    /// The name the `PromotionRule` option takes: `lishogi` or `entry-only`.
    pub fn name(self) -> &'static str {
        match self {
            PromotionRule::Lishogi => "lishogi",
            PromotionRule::EntryOnly => "entry-only",
        }
    }
}

/// What a repeated position means (docs/rules.md section 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Repetition {
    /// The fourth occurrence ends the game: a draw, or a loss for a side whose every move in the
    /// cycle was a check or an attack.
    Fourfold,
    /// Any move that repeats an earlier position (since the last irreversible move) is illegal.
    Forbid,
}

impl Repetition {
    /// Every repetition rule.
    pub const ALL: [Repetition; 2] = [Repetition::Fourfold, Repetition::Forbid];

    /// The name the `Repetition` option takes: `fourfold` or `forbid`.
    pub fn name(self) -> &'static str {
        match self {
            Repetition::Fourfold => "fourfold",
            Repetition::Forbid => "forbid",
        }
    }
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
    /// Bare king and the two-royal draw of docs/rules.md section 5.
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
                self.promotion.name(),
                self.counter_strike_recapture,
                self.bare_king,
                self.repetition.name()
            ),
        }
    }
}
