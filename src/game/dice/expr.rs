//! NdM+K dice expressions (DICE-1): "d6", "2d6", "d10", "d%", "3d6+2", "d6-1".

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::{DiceError, Die, Dist, SumOdds};

/// Most dice in one expression.
pub const MAX_DICE: u32 = 100;
/// Most faces on one die.
pub const MAX_SIDES: u32 = 1000;
/// Largest modifier, either way.
pub const MAX_MODIFIER: i64 = 10_000;

/// `count` dice of `sides` faces plus `modifier`. "d%" is one percentile die (1-100).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceExpr {
    /// How many dice (1-100).
    pub count: u32,
    /// Faces per die (2-1000; 100 for d%).
    pub sides: u32,
    /// Added to the sum.
    pub modifier: i64,
}

/// A rolled expression: every die kept apart, and the total.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExprRoll {
    /// The expression rolled.
    pub expr: DiceExpr,
    /// Each die's value, in order (2d6 keeps both dice).
    pub dice: Vec<u32>,
    /// Sum of the dice plus the modifier.
    pub total: i64,
}

impl DiceExpr {
    /// The die every term of the expression uses.
    pub fn die(&self) -> Die {
        Die::with_sides(self.sides)
    }

    /// The exact distribution of the total, as 128-bit fractions. Fails with
    /// [`DiceError::TooLarge`] when `sides^count` needs more than 128 bits (100d2, 50d6):
    /// [`DiceExpr::odds`] counts those exactly.
    pub fn dist(&self) -> Result<Dist<i64>, DiceError> {
        Dist::sum_of(self.count, self.sides, self.modifier)
    }

    /// The exact odds of every total at any size the limits allow, with big integers where 128
    /// bits are not enough.
    pub fn odds(&self) -> Result<SumOdds, DiceError> {
        SumOdds::of(self)
    }
}

impl fmt::Display for DiceExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count != 1 {
            write!(f, "{}", self.count)?;
        }
        write!(f, "{}", Die::with_sides(self.sides))?;
        match self.modifier {
            0 => Ok(()),
            m if m > 0 => write!(f, "+{m}"),
            m => write!(f, "{m}"),
        }
    }
}

impl FromStr for DiceExpr {
    type Err = DiceError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || DiceError::BadExpr(s.to_string());
        let t: String = s
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_lowercase();
        let dpos = t.find('d').ok_or_else(bad)?;
        // Read wide, so that "1000000d6" is refused for its size rather than as gibberish.
        let count: u64 = if dpos == 0 {
            1
        } else {
            t[..dpos].parse().map_err(|_| bad())?
        };
        let rest = &t[dpos + 1..];
        let split = rest.find(['+', '-']).unwrap_or(rest.len());
        let (sides_s, mod_s) = rest.split_at(split);
        let sides: u64 = match sides_s {
            "%" => 100,
            _ => sides_s.parse().map_err(|_| bad())?,
        };
        let modifier: i64 = if mod_s.is_empty() {
            0
        } else {
            mod_s
                .strip_prefix('+')
                .unwrap_or(mod_s)
                .parse()
                .map_err(|_| bad())?
        };
        if count == 0 || sides < 2 {
            return Err(bad());
        }
        let too_large = |limit: String| DiceError::too_large(s.trim(), limit);
        if count > u64::from(MAX_DICE) {
            return Err(too_large(format!("at most {MAX_DICE} dice (got {count})")));
        }
        if sides > u64::from(MAX_SIDES) {
            return Err(too_large(format!(
                "dice of at most {MAX_SIDES} faces (got {sides})"
            )));
        }
        if !(-MAX_MODIFIER..=MAX_MODIFIER).contains(&modifier) {
            return Err(too_large(format!(
                "a modifier of at most ±{MAX_MODIFIER} (got {modifier})"
            )));
        }
        let (count, sides) = (
            u32::try_from(count).map_err(|_| bad())?,
            u32::try_from(sides).map_err(|_| bad())?,
        );
        Ok(DiceExpr {
            count,
            sides,
            modifier,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Prob;

    #[test]
    fn parses_the_usual_forms() {
        for (s, c, n, m) in [
            ("d6", 1, 6, 0),
            ("2d6", 2, 6, 0),
            ("D10", 1, 10, 0),
            ("d%", 1, 100, 0),
            ("3d6+2", 3, 6, 2),
            ("d6-1", 1, 6, -1),
        ] {
            let e: DiceExpr = s.parse().unwrap();
            assert_eq!((e.count, e.sides, e.modifier), (c, n, m), "{s}");
        }
        for bad in ["", "6", "2d", "d1", "0d6", "2d6+", "d6*2", "101d6"] {
            assert!(bad.parse::<DiceExpr>().is_err(), "{bad}");
        }
    }

    #[test]
    fn two_d6_seven_is_one_sixth() {
        let d: DiceExpr = "2d6".parse().unwrap();
        let dist = d.dist().unwrap();
        assert_eq!(dist.p(&7), Prob::new(1, 6));
        assert_eq!(dist.total(), Prob::ONE);
        assert_eq!(dist.len(), 11);
    }
}
