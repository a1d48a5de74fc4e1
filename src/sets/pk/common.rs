//! Shared arithmetic: modifier lines, the LF/DF hit rule, the PK-L1 leader roll.

use serde::{Deserialize, Serialize};

use kepi_game::dice::{DiceSource, Die, Dist, Ratio, Roll};
use kepi_game::rules::{Effect, ModifierLine, RuleError, RuleId};
use kepi_game::tables::{Provenance, Sourced};

/// One of two sides (initiative, firing first, a melee's two units).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The first side named.
    A,
    /// The second side named.
    B,
}

/// Collects modifier lines in the order they apply.
#[derive(Default)]
pub(crate) struct Lines(pub Vec<ModifierLine>);

impl Lines {
    pub fn push(&mut self, label: impl Into<String>, e: Effect, rule: &'static str, p: Provenance) {
        self.0
            .push(ModifierLine::new(label, e, RuleId::new(rule), p));
    }
    pub fn base(&mut self, label: impl Into<String>, v: i64, rule: &'static str, p: Provenance) {
        self.push(label, Effect::Base(Ratio::int(v)), rule, p);
    }
    pub fn add<T: Copy + Into<i64>>(
        &mut self,
        label: impl Into<String>,
        v: &Sourced<T>,
        rule: &'static str,
    ) {
        self.push(
            label,
            Effect::Add(Ratio::int(v.v().into())),
            rule,
            v.provenance,
        );
    }
    pub fn times(&mut self, label: impl Into<String>, v: &Sourced<Ratio>, rule: &'static str) {
        self.push(label, Effect::Times(v.v()), rule, v.provenance);
    }
    pub fn target(&mut self, label: impl Into<String>, v: i64, rule: &'static str, p: Provenance) {
        self.push(label, Effect::Target(Ratio::int(v)), rule, p);
    }
    pub fn note(&mut self, label: impl Into<String>, rule: &'static str, p: Provenance) {
        self.push(label, Effect::Note, rule, p);
    }
}

/// The hit arithmetic of one attack: LF = (fixed + die) x factor against DF.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hit {
    /// Every addition except the die (AV, class, situation).
    pub fixed: i64,
    /// The product of all factors.
    pub factor: Ratio,
    /// The target's DF (DV + cover).
    pub df: i64,
    /// Figures or points present in the target, when known.
    pub cap: Option<u32>,
}

impl Hit {
    pub fn new(fixed: i64, df: i64, cap: Option<u32>) -> Hit {
        Hit {
            fixed,
            factor: Ratio::ONE,
            df,
            cap,
        }
    }
    /// LF for a die value.
    pub fn lf(&self, die: u32) -> Ratio {
        (Ratio::int(self.fixed) + Ratio::int(i64::from(die))) * self.factor
    }
    /// Casualties for a die value.
    pub fn casualties(&self, die: u32) -> u32 {
        casualties(self.lf(die), self.df, self.cap)
    }
}

/// The hit rule: floor(LF / DF) losses (none below DF, none for a negative LF), never more than
/// `present` when the figures present are known.
pub fn casualties(lf: Ratio, df: i64, present: Option<u32>) -> u32 {
    if df <= 0 {
        return 0;
    }
    let n = (lf / Ratio::int(df)).floor().max(0);
    let n = u32::try_from(n).unwrap_or(u32::MAX);
    present.map_or(n, |c| n.min(c))
}

/// PK-L1: the distribution of "a leader falls" on one d% roll at or above `min`.
pub fn leader_roll_odds(min: u32) -> Dist<bool> {
    Dist::die(Die::Pct).map(|&v| v >= min)
}

/// PK-X6: casualties divided between two units muddled together; the first takes the odd one.
pub fn split_casualties(n: u32) -> (u32, u32) {
    (n - n / 2, n / 2)
}

/// The rolls made since `start`.
pub(crate) fn rolls_since(dice: &DiceSource, start: usize) -> Vec<Roll> {
    dice.rolls()
        .get(start..)
        .map(<[Roll]>::to_vec)
        .unwrap_or_default()
}

/// PK-L1: rolls the leader d% when there were casualties; None (no roll) otherwise.
pub(crate) fn roll_leader(
    dice: &mut DiceSource,
    casualties: u32,
    min: u32,
    label: &str,
) -> Result<Option<bool>, RuleError> {
    if casualties == 0 {
        return Ok(None);
    }
    Ok(Some(dice.roll(Die::Pct, label)? >= min))
}

/// The casualties and, when there were any, the leader roll: the outcome distribution of one attack.
pub(crate) fn with_leader(cas: &Dist<u32>, min: u32) -> Dist<(u32, Option<bool>)> {
    let leader = leader_roll_odds(min);
    cas.and_then(|&c| {
        if c == 0 {
            Dist::certain((0, None))
        } else {
            leader.map(|&l| (c, Some(l)))
        }
    })
}

/// "2 casualties, leader lost" / "no casualties".
pub(crate) fn cas_label(c: u32, leader: Option<bool>) -> String {
    let n = match c {
        0 => "no casualties".to_string(),
        1 => "1 casualty".to_string(),
        n => format!("{n} casualties"),
    };
    match leader {
        Some(true) => format!("{n}, leader lost"),
        Some(false) => format!("{n}, leaders safe"),
        None => n,
    }
}

/// A positive count or a named input error.
pub(crate) fn need_positive(v: u32, field: &str) -> Result<(), RuleError> {
    if v == 0 {
        return Err(RuleError::input(field, "must be at least 1", "1 or more"));
    }
    if v > 10_000 {
        return Err(RuleError::input(
            field,
            format!("{v} is too many"),
            "1 to 10000",
        ));
    }
    Ok(())
}

/// Serialises an LF for people and scripts: `lf` exact ("31/2"), `lf_value` as a number.
pub(crate) fn lf_value(lf: Ratio) -> f64 {
    lf.to_f64()
}
