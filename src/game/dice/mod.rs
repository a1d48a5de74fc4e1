//! Dice: the faces kepi knows, seeded and entered rolls, and exact distributions (DICE-1..3).
//!
//! Every roll in kepi comes from a [`DiceSource`]: either kepi's own seeded ChaCha8 generator (the seed
//! is recorded, so a battle replays face for face) or the physical dice a player typed in. Both go
//! through the same resolution code and land in the same log as [`Roll`]s (DICE-2). Faces are drawn from
//! raw `u32`s with kepi's own rejection sampling, so a seed gives the same faces on every platform and
//! with every future release of `rand`.

mod dist;
mod expr;
mod ratio;
mod sum;

pub use dist::Dist;
pub use expr::{DiceExpr, ExprRoll, MAX_DICE, MAX_MODIFIER, MAX_SIDES};
pub use ratio::{Prob, Ratio};
pub use sum::{BigProb, MAX_OUTCOMES, MAX_STEPS, SumOdds};

use std::collections::VecDeque;
use std::fmt;
use std::str::FromStr;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// A seed for when the user gave none, from the operating system's entropy (DICE-2: printed and
/// logged, so the rolls can be replayed). Two games started in the same nanosecond still differ,
/// which a clock-and-process-id seed did not promise. Should the OS refuse (no entropy source, a
/// sandbox), the clock is the fallback: a seed is never worth refusing to play over.
pub fn fresh_seed() -> u64 {
    getrandom::u64().unwrap_or_else(|_| {
        let now = chrono::Utc::now();
        (now.timestamp_nanos_opt().unwrap_or(0) as u64)
            ^ u64::from(std::process::id()).rotate_left(32)
    })
}

/// DICE-1: the dice the five rule sets use. `D(n)` is any other die of an NdM expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Die {
    /// Six faces, 1-6.
    D6,
    /// Ten faces, read 1-10 (the 0 face reads 10).
    D10,
    /// Percentile: two d10 (tens and units), 1-100; 00 and 0 read 100.
    #[serde(rename = "d%")]
    Pct,
    /// Any other die with this many faces, 1-n.
    #[serde(untagged)]
    D(u32),
}

impl Die {
    /// The named dice, for menus and buttons.
    pub const ALL: [Die; 3] = [Die::D6, Die::D10, Die::Pct];

    /// Smallest and largest face.
    pub fn range(self) -> (u32, u32) {
        match self {
            Die::D6 => (1, 6),
            Die::D10 => (1, 10),
            Die::Pct => (1, 100),
            Die::D(n) => (1, n.max(1)),
        }
    }

    /// Number of faces.
    pub fn faces(self) -> u32 {
        self.range().1
    }

    /// The die for `sides` faces, using the named variants where they exist.
    pub fn with_sides(sides: u32) -> Die {
        match sides {
            6 => Die::D6,
            10 => Die::D10,
            100 => Die::Pct,
            n => Die::D(n),
        }
    }

    /// Checks an entered value: "d10 takes 1-10, got 11".
    pub fn check(self, value: u32) -> Result<u32, DiceError> {
        let (lo, hi) = self.range();
        if (lo..=hi).contains(&value) {
            Ok(value)
        } else {
            Err(DiceError::OutOfRange { die: self, value })
        }
    }
}

impl fmt::Display for Die {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Die::D6 => f.write_str("d6"),
            Die::D10 => f.write_str("d10"),
            Die::Pct => f.write_str("d%"),
            Die::D(n) => write!(f, "d{n}"),
        }
    }
}

impl FromStr for Die {
    type Err = DiceError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        match t.as_str() {
            "d6" => Ok(Die::D6),
            "d10" => Ok(Die::D10),
            "d%" | "d100" | "dpct" => Ok(Die::Pct),
            _ => t
                .strip_prefix('d')
                .and_then(|n| n.parse::<u32>().ok())
                .filter(|n| (2..=1000).contains(n))
                .map(Die::with_sides)
                .ok_or_else(|| DiceError::BadDie(s.to_string())),
        }
    }
}

/// Errors from dice: entered values out of range, unparsable expressions, missing entered dice.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DiceError {
    /// An entered value that the die cannot show.
    #[error("{die} takes {}-{}, got {value}", die.range().0, die.range().1)]
    OutOfRange {
        /// The die.
        die: Die,
        /// What was entered.
        value: u32,
    },
    /// Not a die name.
    #[error("`{0}` is not a die (expected d6, d10, d% or dN with N from 2 to 1000)")]
    BadDie(String),
    /// Not a dice expression.
    #[error("`{0}` is not a dice expression (expected e.g. d6, 2d6, d10, d%, 3d6+2)")]
    BadExpr(String),
    /// An expression beyond one of kepi's limits (dice, faces, outcomes, or the 128 bits of a
    /// [`Ratio`]): named, with the limit it broke, instead of hanging or printing wrong odds.
    /// Boxed so that `Result<u32, DiceError>`, returned by every roll, stays small.
    #[error("`{}` is too large: {}", .0.expr, .0.limit)]
    TooLarge(Box<SizeLimit>),
    /// Entered-dice mode, and no value of this die is left in the queue.
    #[error("no {0} entered: type the value of your {0} (or let kepi roll)")]
    Missing(Die),
}

/// The expression and the limit behind a [`DiceError::TooLarge`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SizeLimit {
    /// The expression as typed or built.
    pub expr: String,
    /// Which limit, with its value ("at most 100 dice").
    pub limit: String,
}

impl DiceError {
    /// A [`DiceError::TooLarge`] naming the expression and the limit it broke.
    pub fn too_large(expr: impl fmt::Display, limit: impl Into<String>) -> DiceError {
        DiceError::TooLarge(Box::new(SizeLimit {
            expr: expr.to_string(),
            limit: limit.into(),
        }))
    }
}

/// Who made a roll: kepi's seeded generator or the player's hand (DICE-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RollSource {
    /// Rolled by kepi from the recorded seed.
    Seeded,
    /// Typed in from physical dice.
    Entered,
}

/// One die rolled: which die, what it is for, its value, and who rolled it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Roll {
    /// The die.
    pub die: Die,
    /// What this die decides ("fire d10", "leader d%", "A.O.A. die 1").
    pub label: String,
    /// The value read (d%: 1-100).
    pub value: u32,
    /// The faces behind the value where there are several (d%: tens and units, 0-9 each).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub faces: Vec<u32>,
    /// Seeded or entered.
    pub source: RollSource,
}

/// One group of dice a resolution rolls, as the window asks for them in "I roll my own dice" mode
/// and as `--dice` fills them: the rule set's words for them ("hit dice (d6 x 6)", "accuracy of
/// aim (2d6 per hit)", "attacker d6"), the die, and how many. Groups are listed in the order the
/// resolution rolls them, and entered values are taken in that order ([`DiceSource::roll`]), so
/// the window's fields and the command line's `--dice d6=..,d6=..` fill the same dice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiceGroup {
    /// The field's label, in the rule set's words.
    pub label: String,
    /// The die.
    pub die: Die,
    /// Exactly this many (a battery's hit dice, one die a side); None: as many as the roll needs.
    pub count: Option<u32>,
    /// The roll needs these only on some results (GSP-A3's accuracy of aim after a hit, P&K's
    /// leader d%): left empty, kepi rolls them from the game's seed, and says so on the card.
    pub optional: bool,
}

impl DiceGroup {
    /// A group of exactly `count` dice, to be typed.
    pub fn exactly(label: impl Into<String>, die: Die, count: u32) -> Self {
        DiceGroup {
            label: label.into(),
            die,
            count: Some(count),
            optional: false,
        }
    }

    /// A group the roll needs only on some results: kepi rolls what is not typed.
    pub fn if_needed(label: impl Into<String>, die: Die) -> Self {
        DiceGroup {
            label: label.into(),
            die,
            count: None,
            optional: true,
        }
    }
}

/// The dice of a roll that kepi rolled although the player entered some (a group left empty): "kepi
/// rolled these (...): A.O.A. die 1 d6 = 3; A.O.A. die 2 d6 = 5". None when every die is the player's, or none
/// is (kepi rolled them all, as asked). What the window's card and `kepi game apply` both say.
pub fn kepi_rolled(dice: &[Roll]) -> Option<String> {
    let entered = dice.iter().any(|d| d.source == RollSource::Entered);
    let seeded: Vec<String> = dice
        .iter()
        .filter(|d| d.source == RollSource::Seeded)
        .map(|d| format!("{} {} = {}", d.label, d.die, d.value))
        .collect();
    (entered && !seeded.is_empty()).then(|| {
        format!(
            "kepi rolled these (none entered for them; the rest are yours): {}",
            seeded.join("; ")
        )
    })
}

/// Where dice come from: entered values first (in order, per die), then the seeded generator if the
/// source has one. A source without a generator is "I roll my own dice" mode.
#[derive(Clone, Debug)]
pub struct DiceSource {
    seed: Option<u64>,
    rng: Option<ChaCha8Rng>,
    draws: u64,
    entered: VecDeque<(Die, u32)>,
    rolls: Vec<Roll>,
}

/// Expands a u64 seed to ChaCha8's 32-byte key with SplitMix64, written here (not `seed_from_u64`) so
/// the mapping from seed to faces is kepi's own and cannot change under a dependency update.
fn expand_seed(seed: u64) -> [u8; 32] {
    let mut state = seed;
    let mut out = [0u8; 32];
    for chunk in out.chunks_exact_mut(8) {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        chunk.copy_from_slice(&z.to_le_bytes());
    }
    out
}

impl DiceSource {
    /// kepi rolls, from this seed.
    pub fn seeded(seed: u64) -> Self {
        DiceSource {
            seed: Some(seed),
            rng: Some(ChaCha8Rng::from_seed(expand_seed(seed))),
            draws: 0,
            entered: VecDeque::new(),
            rolls: Vec::new(),
        }
    }

    /// "I roll my own dice": every die must be entered.
    pub fn entered_only() -> Self {
        DiceSource {
            seed: None,
            rng: None,
            draws: 0,
            entered: VecDeque::new(),
            rolls: Vec::new(),
        }
    }

    /// A seeded source fast-forwarded past `draws` raw draws (to resume a saved battle).
    pub fn resume(seed: u64, draws: u64) -> Self {
        let mut s = DiceSource::seeded(seed);
        if let Some(rng) = s.rng.as_mut() {
            for _ in 0..draws {
                rng.next_u32();
            }
        }
        s.draws = draws;
        s
    }

    /// Queues a value read off a physical die; it is used by the next roll of that die.
    pub fn enter(&mut self, die: Die, value: u32) -> Result<&mut Self, DiceError> {
        die.check(value)?;
        self.entered.push_back((die, value));
        Ok(self)
    }

    /// The seed, when kepi rolls.
    pub fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// Raw generator draws so far (with the seed, the exact position of the stream).
    pub fn draws(&self) -> u64 {
        self.draws
    }

    /// True when entered values are still waiting to be used.
    pub fn has_entered(&self) -> bool {
        !self.entered.is_empty()
    }

    /// The entered values not used yet, in order.
    pub fn left_over(&self) -> Vec<(Die, u32)> {
        self.entered.iter().copied().collect()
    }

    /// The rolls made so far, in order.
    pub fn rolls(&self) -> &[Roll] {
        &self.rolls
    }

    /// Takes the rolls made so far, leaving the source ready for the next resolution.
    pub fn take_rolls(&mut self) -> Vec<Roll> {
        std::mem::take(&mut self.rolls)
    }

    /// A uniform face 0..n-1 from raw u32 draws, by rejection: the same draws give the same face
    /// everywhere (no dependency on `rand`'s own range sampling).
    fn uniform(&mut self, n: u32) -> Option<u32> {
        let rng = self.rng.as_mut()?;
        let n = n.max(1);
        let zone = u32::MAX - (u32::MAX - n + 1) % n;
        loop {
            let x = rng.next_u32();
            self.draws += 1;
            if x <= zone {
                return Some(x % n);
            }
        }
    }

    /// One seeded die: its value and, for d%, its tens and units faces. The one place a seeded value
    /// is made, for [`DiceSource::roll`] and [`DiceSource::roll_quiet`] alike.
    fn seeded_value(&mut self, die: Die) -> Result<(u32, Option<[u32; 2]>), DiceError> {
        Ok(match die {
            Die::Pct => {
                let tens = self.uniform(10).ok_or(DiceError::Missing(die))?;
                let units = self.uniform(10).ok_or(DiceError::Missing(die))?;
                let v = tens * 10 + units;
                (if v == 0 { 100 } else { v }, Some([tens, units]))
            }
            _ => (
                self.uniform(die.faces()).ok_or(DiceError::Missing(die))? + 1,
                None,
            ),
        })
    }

    /// Rolls one die like [`DiceSource::roll`] (the same value from the same stream, an entered value
    /// first) but records nothing: for Monte Carlo what-ifs, millions of rolls no one reads.
    pub fn roll_quiet(&mut self, die: Die) -> Result<u32, DiceError> {
        if let Some(pos) = self.entered.iter().position(|(d, _)| *d == die) {
            return Ok(self.entered.remove(pos).map_or(1, |(_, v)| v));
        }
        Ok(self.seeded_value(die)?.0)
    }

    /// Rolls one die (or takes its entered value), records it under `label`, and returns the value.
    pub fn roll(&mut self, die: Die, label: &str) -> Result<u32, DiceError> {
        if let Some(pos) = self.entered.iter().position(|(d, _)| *d == die) {
            let (_, value) = self.entered.remove(pos).unwrap_or((die, 1));
            let faces = if die == Die::Pct {
                vec![(value / 10) % 10, value % 10]
            } else {
                Vec::new()
            };
            self.rolls.push(Roll {
                die,
                label: label.to_string(),
                value,
                faces,
                source: RollSource::Entered,
            });
            return Ok(value);
        }
        let (value, faces) = self.seeded_value(die)?;
        let faces = match faces {
            Some([tens, units]) => vec![tens, units],
            None => Vec::new(),
        };
        self.rolls.push(Roll {
            die,
            label: label.to_string(),
            value,
            faces,
            source: RollSource::Seeded,
        });
        Ok(value)
    }

    /// Rolls a whole expression ("2d6", "d%", "3d6+2").
    pub fn roll_expr(&mut self, expr: &DiceExpr) -> Result<ExprRoll, DiceError> {
        let die = expr.die();
        let mut dice = Vec::with_capacity(expr.count as usize);
        for i in 0..expr.count {
            let label = if expr.count > 1 {
                format!("{expr} die {}", i + 1)
            } else {
                expr.to_string()
            };
            dice.push(self.roll(die, &label)?);
        }
        let total = dice.iter().map(|&d| d as i64).sum::<i64>() + expr.modifier;
        Ok(ExprRoll {
            expr: expr.clone(),
            dice,
            total,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_replays() {
        let mut a = DiceSource::seeded(7);
        let mut b = DiceSource::seeded(7);
        for _ in 0..100 {
            assert_eq!(
                a.roll(Die::D10, "x").unwrap(),
                b.roll(Die::D10, "x").unwrap()
            );
        }
        let mut c = DiceSource::resume(7, a.draws());
        assert_eq!(c.roll(Die::D6, "x").unwrap(), a.roll(Die::D6, "x").unwrap());
    }

    #[test]
    fn faces_stay_in_range() {
        let mut s = DiceSource::seeded(1);
        for die in [Die::D6, Die::D10, Die::Pct, Die::D(3)] {
            let (lo, hi) = die.range();
            for _ in 0..2000 {
                let v = s.roll(die, "t").unwrap();
                assert!((lo..=hi).contains(&v), "{die} gave {v}");
            }
        }
    }

    #[test]
    fn entered_values_are_checked_and_used_first() {
        let mut s = DiceSource::entered_only();
        assert_eq!(
            s.enter(Die::D10, 11).unwrap_err().to_string(),
            "d10 takes 1-10, got 11"
        );
        s.enter(Die::D10, 4).unwrap();
        assert_eq!(s.roll(Die::D10, "fire").unwrap(), 4);
        assert_eq!(s.rolls()[0].source, RollSource::Entered);
        assert_eq!(
            s.roll(Die::D10, "fire").unwrap_err(),
            DiceError::Missing(Die::D10)
        );
    }

    #[test]
    fn pct_reads_00_0_as_100() {
        let mut s = DiceSource::entered_only();
        s.enter(Die::Pct, 100).unwrap();
        assert_eq!(s.roll(Die::Pct, "leader").unwrap(), 100);
        assert!(Die::Pct.check(0).is_err());
    }
}
