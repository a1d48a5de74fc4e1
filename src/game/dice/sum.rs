//! Exact odds of an NdM+K total at every size kepi accepts (DICE-3, issue 18).
//!
//! The number of ways to roll each total is counted by convolution, one die at a time, with a
//! sliding window (each new count is the previous one plus one entering and minus one leaving
//! term), so a die costs one pass over the totals whatever its faces. Counts are kept in the
//! smallest integer that provably holds them: `u64` or `u128` when `sides^count` fits (the fast
//! path behind [`Dist`]), big integers beyond (100d2 has 2^100 outcomes, 100d6 has 6^100). Every
//! addition is checked: a count that would not fit is refused, never wrapped.
//!
//! Two limits keep a request from hanging or eating memory: at most [`MAX_OUTCOMES`] distinct totals
//! and at most [`MAX_STEPS`] window steps (dice × totals). The parser's own limits (100 dice of up to
//! 1000 faces) stay well inside both.

use std::fmt;

use num_bigint::BigUint;
use num_integer::Integer;
use serde::Serialize;

use super::{DiceError, DiceExpr, Dist, Prob, Ratio};

/// Most distinct totals an expression may have for exact odds (100d1000 has 99,901).
pub const MAX_OUTCOMES: u64 = 250_000;

/// Most convolution steps (dice × distinct totals) for exact odds: about a second of work.
pub const MAX_STEPS: u64 = 25_000_000;

/// An unsigned count that the convolution can add and subtract without ever wrapping.
trait Count: Clone {
    fn zero() -> Self;
    fn one() -> Self;
    /// `self += o`, false when the sum does not fit.
    fn add(&mut self, o: &Self) -> bool;
    /// `self -= o`, false when it would go below zero.
    fn sub(&mut self, o: &Self) -> bool;
}

macro_rules! prim_count {
    ($t:ty) => {
        impl Count for $t {
            fn zero() -> Self {
                0
            }
            fn one() -> Self {
                1
            }
            #[inline]
            fn add(&mut self, o: &Self) -> bool {
                match self.checked_add(*o) {
                    Some(v) => {
                        *self = v;
                        true
                    }
                    None => false,
                }
            }
            #[inline]
            fn sub(&mut self, o: &Self) -> bool {
                match self.checked_sub(*o) {
                    Some(v) => {
                        *self = v;
                        true
                    }
                    None => false,
                }
            }
        }
    };
}
prim_count!(u64);
prim_count!(u128);

impl Count for BigUint {
    fn zero() -> Self {
        BigUint::ZERO
    }
    fn one() -> Self {
        BigUint::from(1u8)
    }
    fn add(&mut self, o: &Self) -> bool {
        *self += o;
        true
    }
    fn sub(&mut self, o: &Self) -> bool {
        if *self < *o {
            return false;
        }
        *self -= o;
        true
    }
}

/// The number of ways to roll each sum of `count` dice of faces `1..=sides`, from the lowest sum
/// (`count`) up; `None` when a count does not fit `W`.
fn convolve<W: Count>(count: u32, sides: u32) -> Option<Vec<W>> {
    let k = usize::try_from(sides).ok()?;
    let mut prev = vec![W::one()];
    for _ in 0..count {
        let len = prev.len().checked_add(k - 1)?;
        let mut next = Vec::with_capacity(len);
        let mut window = W::zero();
        for j in 0..len {
            if let Some(w) = prev.get(j)
                && !window.add(w)
            {
                return None;
            }
            if j >= k && !window.sub(&prev[j - k]) {
                return None;
            }
            next.push(window.clone());
        }
        prev = next;
    }
    Some(prev)
}

/// The lowest total of the expression, after checking every limit: dice and faces, distinct
/// totals, work, and totals within `i64`.
fn check(expr: &DiceExpr) -> Result<(i64, i64), DiceError> {
    let too_large = |limit: String| DiceError::too_large(expr, limit);
    if expr.count == 0 || expr.sides < 2 {
        return Err(too_large(
            "exact odds need at least one die of two faces".into(),
        ));
    }
    let outcomes = u64::from(expr.count) * u64::from(expr.sides - 1) + 1;
    if outcomes > MAX_OUTCOMES {
        return Err(too_large(format!(
            "{outcomes} distinct totals; exact odds list at most {MAX_OUTCOMES}"
        )));
    }
    let steps = u64::from(expr.count) * outcomes;
    if steps > MAX_STEPS {
        return Err(too_large(format!(
            "{} dice × {outcomes} totals is more counting than the {MAX_STEPS} steps exact odds allow",
            expr.count
        )));
    }
    let lo = i64::from(expr.count).checked_add(expr.modifier);
    let hi = i64::from(expr.count)
        .checked_mul(i64::from(expr.sides))
        .and_then(|h| h.checked_add(expr.modifier));
    match (lo, hi) {
        (Some(lo), Some(hi)) => Ok((lo, hi)),
        _ => Err(too_large("its totals do not fit in 64 bits".into())),
    }
}

/// `sides^count` when it fits in 128 bits.
fn total_u128(count: u32, sides: u32) -> Option<u128> {
    u128::from(sides).checked_pow(count)
}

impl Dist<i64> {
    /// The distribution of the sum of `count` dice of `sides` faces plus `modifier`, with exact
    /// [`Prob`]s. Fails with [`DiceError::TooLarge`] when `sides^count` (the denominator before
    /// reduction) exceeds 128 bits or a limit is broken; [`SumOdds`] counts such expressions
    /// exactly with big integers.
    pub fn sum_of(count: u32, sides: u32, modifier: i64) -> Result<Self, DiceError> {
        let expr = DiceExpr {
            count,
            sides,
            modifier,
        };
        let (lo, hi) = check(&expr)?;
        let too_large = || {
            DiceError::too_large(
                &expr,
                format!(
                    "{sides}^{count} outcomes exceed the 128 bits of an exact fraction (`kepi odds` counts it with big integers)"
                ),
            )
        };
        let total = total_u128(count, sides).ok_or_else(too_large)?;
        let values = lo..=hi;
        if total <= u128::from(u64::MAX) {
            let counts = convolve::<u64>(count, sides).ok_or_else(too_large)?;
            return Ok(Dist::from_weights(values.zip(counts)));
        }
        let den = i128::try_from(total).map_err(|_| too_large())?;
        let counts = convolve::<u128>(count, sides).ok_or_else(too_large)?;
        let mut items = Vec::with_capacity(counts.len());
        for (v, c) in values.zip(counts) {
            let num = i128::try_from(c).map_err(|_| too_large())?;
            items.push((v, Prob(Ratio::checked_new(num, den).ok_or_else(too_large)?)));
        }
        Ok(Dist::from_probs(items))
    }
}

/// An exact probability of any size: a reduced fraction of big integers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BigProb {
    num: BigUint,
    den: BigUint,
}

impl BigProb {
    /// `num/den` reduced; a zero denominator is refused with `None`.
    pub fn new(num: BigUint, den: BigUint) -> Option<BigProb> {
        if den == BigUint::ZERO {
            return None;
        }
        let g = num.gcd(&den);
        Some(BigProb {
            num: num / &g,
            den: den / &g,
        })
    }

    /// The reduced numerator.
    pub fn numer(&self) -> &BigUint {
        &self.num
    }

    /// The reduced denominator (positive).
    pub fn denom(&self) -> &BigUint {
        &self.den
    }

    /// The same value as a 128-bit [`Prob`], when both parts fit.
    pub fn to_prob(&self) -> Option<Prob> {
        let num = i128::try_from(&self.num).ok()?;
        let den = i128::try_from(&self.den).ok()?;
        Ratio::checked_new(num, den).map(Prob)
    }

    /// As a percentage with one decimal, rounded half up ("7.96%" is "8.0%"), exactly as
    /// [`Ratio::percent`] prints it.
    pub fn percent(&self) -> String {
        let two_den = &self.den * 2u32;
        let tenths = (&self.num * 2000u32 + &self.den) / two_den;
        let (whole, tenth) = tenths.div_rem(&BigUint::from(10u8));
        format!("{whole}.{tenth}%")
    }

    /// A float for drawing bars only; both parts are shifted below 64 bits first, so a count of
    /// thousands of bits still gives a finite value.
    pub fn to_f64(&self) -> f64 {
        if let Some(p) = self.to_prob() {
            return p.0.to_f64();
        }
        let shift = self.den.bits().saturating_sub(64);
        let as_f64 = |v: BigUint| u64::try_from(v).map_or(f64::MAX, |v| v as f64);
        as_f64(&self.num >> shift) / as_f64(&self.den >> shift)
    }
}

/// `num/den` always, like [`Prob`].
impl fmt::Display for BigProb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.num, self.den)
    }
}

/// Serialised as the string "num/den", the same JSON form as [`Prob`].
impl Serialize for BigProb {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// The exact odds of every total of an NdM+K expression, counted with big integers where needed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SumOdds {
    lo: i64,
    hi: i64,
    counts: Vec<BigUint>,
    total: BigUint,
}

impl SumOdds {
    /// Counts the ways to roll each total of `expr`. Refuses with [`DiceError::TooLarge`] an
    /// expression beyond [`MAX_OUTCOMES`] or [`MAX_STEPS`], before doing any work.
    pub fn of(expr: &DiceExpr) -> Result<SumOdds, DiceError> {
        let (lo, hi) = check(expr)?;
        let (count, sides) = (expr.count, expr.sides);
        let counts =
            match total_u128(count, sides) {
                Some(t) if t <= u128::from(u64::MAX) => convolve::<u64>(count, sides)
                    .map(|c| c.into_iter().map(BigUint::from).collect()),
                Some(_) => convolve::<u128>(count, sides)
                    .map(|c| c.into_iter().map(BigUint::from).collect()),
                None => convolve::<BigUint>(count, sides),
            };
        let counts =
            counts.ok_or_else(|| DiceError::too_large(expr, "a count did not fit its integer"))?;
        Ok(SumOdds {
            lo,
            hi,
            counts,
            total: BigUint::from(sides).pow(count),
        })
    }

    /// The number of equally likely outcomes, `sides^count`.
    pub fn total(&self) -> &BigUint {
        &self.total
    }

    /// The number of ways to roll each total, lowest total first.
    pub fn counts(&self) -> impl Iterator<Item = (i64, &BigUint)> {
        (self.lo..=self.hi).zip(self.counts.iter())
    }

    /// Each total with its exact, reduced probability, lowest total first.
    pub fn iter(&self) -> impl Iterator<Item = (i64, BigProb)> + '_ {
        self.counts()
            .filter_map(|(v, c)| BigProb::new(c.clone(), self.total.clone()).map(|p| (v, p)))
    }

    /// Number of distinct totals.
    pub fn len(&self) -> usize {
        self.counts.len()
    }

    /// True when there is no total (never, for an accepted expression).
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The error of a call that must fail (`expect_err` would print a huge `Ok` value).
    fn refused<T>(r: Result<T, DiceError>, what: &str) -> DiceError {
        match r {
            Ok(_) => panic!("{what}"),
            Err(e) => e,
        }
    }

    #[test]
    fn sliding_window_matches_the_plain_convolution() {
        for (count, sides) in [(1u32, 2u32), (3, 6), (5, 10), (2, 100)] {
            let mut plain = vec![1u64];
            for _ in 0..count {
                let mut next = vec![0u64; plain.len() + sides as usize - 1];
                for (s, w) in plain.iter().enumerate() {
                    for f in 0..sides as usize {
                        next[s + f] += w;
                    }
                }
                plain = next;
            }
            assert_eq!(
                convolve::<u64>(count, sides),
                Some(plain),
                "{count}d{sides}"
            );
        }
    }

    #[test]
    fn u64_overflow_is_refused_not_wrapped() {
        // 2^70 outcomes: the middle counts exceed 64 bits.
        assert_eq!(convolve::<u64>(70, 2), None);
        assert!(convolve::<u128>(70, 2).is_some());
    }

    #[test]
    fn limits_name_the_expression() {
        let e = DiceExpr {
            count: 1_000_000,
            sides: 6,
            modifier: 0,
        };
        let err = refused(SumOdds::of(&e), "refused").to_string();
        assert!(err.contains("1000000d6") && err.contains("250000"), "{err}");
        let e = DiceExpr {
            count: 6000,
            sides: 2,
            modifier: 0,
        };
        let err = refused(SumOdds::of(&e), "refused").to_string();
        assert!(err.contains("6000d2") && err.contains("steps"), "{err}");
        let err = refused(Dist::sum_of(100, 6, 0), "refused").to_string();
        assert!(err.contains("100d6") && err.contains("128 bits"), "{err}");
    }

    #[test]
    fn percent_matches_ratio() {
        for (n, d) in [
            (1u32, 6u32),
            (1, 2),
            (5, 36),
            (1, 1000),
            (1, 2000),
            (999, 1000),
            (0, 7),
        ] {
            let big = BigProb::new(n.into(), d.into()).unwrap();
            assert_eq!(
                big.percent(),
                Ratio::new(n.into(), d.into()).percent(),
                "{n}/{d}"
            );
        }
    }
}
