//! Exact rational numbers: probabilities and fractional combat values (an LF of 31/2).
//!
//! DICE-3 asks for exact odds, so nothing in kepi's rules engine touches a float. A [`Ratio`] is
//! always reduced, its denominator is always positive, and it prints as `num/den` (probabilities)
//! or as a mixed value via [`Ratio::to_plain`] (combat values such as `15 1/2`).
//!
//! Numerator and denominator are `i128`s. Arithmetic never wraps: when both operands' parts fit in
//! 64 bits every product fits in 128 and the old fast path runs unchanged; otherwise the operation
//! cancels common factors first and uses checked arithmetic, then exact big integers, and returns
//! the exact reduced result whenever it fits. A result that cannot be held in 128 bits is refused:
//! the `checked_*` methods return `None`, the operators panic with a message naming the operands
//! (an exact engine must never print a wrong fraction). Dice odds too large for 128 bits are
//! counted with big integers instead ([`crate::dice::SumOdds`]).

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Div, Mul, Neg, Sub};

use num_bigint::BigInt;
use num_integer::Integer;
use serde::{Deserialize, Serialize};

/// An exact, reduced fraction `num/den` with `den > 0`; neither part is ever `i128::MIN`, so
/// negation and absolute values cannot overflow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ratio {
    num: i128,
    den: i128,
}

/// The greatest common divisor, by Stein's binary method: shifts and subtractions only (the
/// 128-bit division Euclid's method needs is a slow library call).
#[cfg(test)]
fn gcd(a: i128, b: i128) -> i128 {
    i128::try_from(binary_gcd(a.unsigned_abs(), b.unsigned_abs())).unwrap_or(i128::MAX)
}

fn binary_gcd(mut a: u128, mut b: u128) -> u128 {
    if a == 0 || b == 0 {
        return a | b;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

/// Reduces `num/den` (`den > 0`). Dice odds have denominators made of 2s, 3s and 5s (6^k, 216^k,
/// 10^k), so the shared factors 2, 3 and 5 are cancelled first by shifts and divisions by a
/// constant; if nothing else divides the denominator the fraction is then already reduced and no
/// general gcd is needed. Every odds line reduces a fraction, so this is the engine's hot path.
fn reduce_u64(mut num: u64, mut den: u64) -> (u64, u64) {
    if num == 0 {
        return (0, 1);
    }
    let k = num.trailing_zeros().min(den.trailing_zeros());
    num >>= k;
    den >>= k;
    while num.is_multiple_of(3) && den.is_multiple_of(3) {
        num /= 3;
        den /= 3;
    }
    while num.is_multiple_of(5) && den.is_multiple_of(5) {
        num /= 5;
        den /= 5;
    }
    // Strip the denominator's own 3s and 5s in big steps (216^6 has eighteen 3s).
    let mut rest = den >> den.trailing_zeros();
    for step in [3u64.pow(20), 3u64.pow(5), 3] {
        while rest.is_multiple_of(step) {
            rest /= step;
        }
    }
    for step in [5u64.pow(10), 5] {
        while rest.is_multiple_of(step) {
            rest /= step;
        }
    }
    if rest == 1 {
        return (num, den);
    }
    // Another prime in the denominator (rare for dice): the general gcd.
    let g = u64::try_from(binary_gcd(u128::from(num), u128::from(den))).unwrap_or(1);
    (num / g, den / g)
}

impl Ratio {
    /// Zero.
    pub const ZERO: Ratio = Ratio { num: 0, den: 1 };
    /// One (certainty, for a probability).
    pub const ONE: Ratio = Ratio { num: 1, den: 1 };

    /// `num/den`, reduced. A zero denominator is a programming error in the rules engine
    /// (no user input reaches it), so it yields zero rather than panicking.
    ///
    /// # Panics
    /// When the reduced fraction still needs `i128::MIN` (only `num` or `den` equal to
    /// `i128::MIN` with nothing to cancel); [`Ratio::checked_new`] returns `None` instead.
    pub fn new(num: i128, den: i128) -> Ratio {
        Ratio::checked_new(num, den).unwrap_or_else(|| overflow("new", num, den))
    }

    /// `num/den`, reduced, or `None` when the reduced fraction cannot be held (a part would be
    /// `i128::MIN`). A zero denominator yields zero, as for [`Ratio::new`].
    #[inline]
    pub fn checked_new(num: i128, den: i128) -> Option<Ratio> {
        if den == 0 {
            return Some(Ratio::ZERO);
        }
        let neg = (num < 0) != (den < 0);
        if let (Ok(n), Ok(d)) = (
            u64::try_from(num.unsigned_abs()),
            u64::try_from(den.unsigned_abs()),
        ) {
            let (n, d) = reduce_u64(n, d);
            return Some(Ratio {
                num: if neg { -i128::from(n) } else { i128::from(n) },
                den: i128::from(d),
            });
        }
        let (n, d) = (num.unsigned_abs(), den.unsigned_abs());
        let g = binary_gcd(n, d).max(1);
        let n = i128::try_from(n / g).ok()?;
        let d = i128::try_from(d / g).ok()?;
        Some(Ratio {
            num: if neg { -n } else { n },
            den: d,
        })
    }

    /// The exact reduced value of a big fraction, or `None` when it needs more than 128 bits.
    fn from_big(num: BigInt, den: BigInt) -> Option<Ratio> {
        if den == BigInt::ZERO {
            return None;
        }
        let g = num.gcd(&den);
        let (mut n, mut d) = (num / &g, den / &g);
        if d < BigInt::ZERO {
            (n, d) = (-n, -d);
        }
        let n = i128::try_from(&n).ok().filter(|&v| v != i128::MIN)?;
        let d = i128::try_from(&d).ok().filter(|&v| v != i128::MIN)?;
        Some(Ratio { num: n, den: d })
    }

    /// `self + o` exactly, or `None` when the reduced sum needs more than 128 bits.
    #[inline]
    pub fn checked_add(self, o: Ratio) -> Option<Ratio> {
        if all_i64(&[self.num, self.den, o.num, o.den]) {
            // Each product is below 2^126 in size, so neither they nor their sum can overflow.
            return Ratio::checked_new(self.num * o.den + o.num * self.den, self.den * o.den);
        }
        self.wide_add(o)
    }

    /// Knuth's addition for parts beyond 64 bits: cancel the denominators' gcd first, so
    /// intermediate values stay as small as the result allows; big integers if they still overflow.
    #[cold]
    #[inline(never)]
    fn wide_add(self, o: Ratio) -> Option<Ratio> {
        let g = binary_gcd(self.den.unsigned_abs(), o.den.unsigned_abs()).max(1);
        let g = i128::try_from(g).ok()?;
        let (s, t) = (self.den / g, o.den / g);
        let fast = self
            .num
            .checked_mul(t)
            .zip(o.num.checked_mul(s))
            .and_then(|(x, y)| x.checked_add(y))
            .and_then(|n| {
                let g2 =
                    i128::try_from(binary_gcd(n.unsigned_abs(), g.unsigned_abs()).max(1)).ok()?;
                let den = s.checked_mul(o.den / g2)?;
                Ratio::checked_new(n / g2, den)
            });
        fast.or_else(|| {
            Ratio::from_big(
                BigInt::from(self.num) * o.den + BigInt::from(o.num) * self.den,
                BigInt::from(self.den) * o.den,
            )
        })
    }

    /// `self - o` exactly, or `None` when the reduced difference needs more than 128 bits.
    pub fn checked_sub(self, o: Ratio) -> Option<Ratio> {
        self.checked_add(-o)
    }

    /// `self * o` exactly, or `None` when the reduced product needs more than 128 bits.
    #[inline]
    pub fn checked_mul(self, o: Ratio) -> Option<Ratio> {
        if all_i64(&[self.num, self.den, o.num, o.den]) {
            return Ratio::checked_new(self.num * o.num, self.den * o.den);
        }
        self.wide_mul(o)
    }

    /// Multiplication for parts beyond 64 bits: cross-cancel first (the result is then already
    /// reduced), big integers if the products still overflow.
    #[cold]
    #[inline(never)]
    fn wide_mul(self, o: Ratio) -> Option<Ratio> {
        let g1 = i128::try_from(binary_gcd(self.num.unsigned_abs(), o.den.unsigned_abs()).max(1))
            .ok()?;
        let g2 = i128::try_from(binary_gcd(o.num.unsigned_abs(), self.den.unsigned_abs()).max(1))
            .ok()?;
        let fast = (self.num / g1)
            .checked_mul(o.num / g2)
            .zip((self.den / g2).checked_mul(o.den / g1))
            .and_then(|(n, d)| Ratio::checked_new(n, d));
        fast.or_else(|| {
            Ratio::from_big(
                BigInt::from(self.num) * o.num,
                BigInt::from(self.den) * o.den,
            )
        })
    }

    /// `self / o` exactly, or `None` when the reduced quotient needs more than 128 bits. Dividing by
    /// zero yields zero, as [`Ratio::new`] does for a zero denominator.
    pub fn checked_div(self, o: Ratio) -> Option<Ratio> {
        if o.num == 0 {
            return Some(Ratio::ZERO);
        }
        let sign = if o.num < 0 { -1 } else { 1 };
        self.checked_mul(Ratio {
            num: sign * o.den,
            den: sign * o.num,
        })
    }

    /// A whole number.
    pub const fn int(n: i64) -> Ratio {
        Ratio {
            num: n as i128,
            den: 1,
        }
    }

    /// The numerator (reduced).
    pub fn numer(&self) -> i128 {
        self.num
    }

    /// The denominator (reduced, positive).
    pub fn denom(&self) -> i128 {
        self.den
    }

    /// The largest whole number not above this value (`floor(31/2) = 15`); beyond the range of
    /// `i64` it saturates at `i64::MIN` / `i64::MAX` rather than wrapping.
    pub fn floor(&self) -> i64 {
        saturate_i64(self.num.div_euclid(self.den))
    }

    /// The smallest whole number not below this value; saturates like [`Ratio::floor`].
    pub fn ceil(&self) -> i64 {
        saturate_i64(-((-self.num).div_euclid(self.den)))
    }

    /// True for a whole number.
    pub fn is_integer(&self) -> bool {
        self.den == 1
    }

    /// A float for drawing bars only; never for rules.
    pub fn to_f64(&self) -> f64 {
        self.num as f64 / self.den as f64
    }

    /// `num/den` always, even for whole numbers ("1/1"): the form probabilities use in JSON.
    pub fn to_fraction_string(&self) -> String {
        format!("{}/{}", self.num, self.den)
    }

    /// A whole number as itself, else `num/den` ("84", "31/2").
    pub fn to_plain(&self) -> String {
        if self.den == 1 {
            self.num.to_string()
        } else {
            format!("{}/{}", self.num, self.den)
        }
    }

    /// As a percentage with one decimal, for display ("16.7%").
    pub fn percent(&self) -> String {
        // Tenths of a percent, rounded half up: floor((2000 num + den) / (2 den)).
        let fast = self
            .num
            .checked_mul(2000)
            .and_then(|n| n.checked_add(self.den))
            .zip(self.den.checked_mul(2));
        if let Some((n, d)) = fast {
            let rounded = n.div_euclid(d);
            return format!("{}.{}%", rounded / 10, (rounded % 10).abs());
        }
        let two_den = BigInt::from(self.den) * 2i32;
        let rounded = (BigInt::from(self.num) * 2000i32 + self.den).div_floor(&two_den);
        let (whole, tenth) = rounded.div_rem(&BigInt::from(10i32));
        format!("{whole}.{}%", tenth.magnitude())
    }
}

impl Default for Ratio {
    fn default() -> Self {
        Ratio::ZERO
    }
}

impl From<i64> for Ratio {
    fn from(n: i64) -> Self {
        Ratio::int(n)
    }
}

impl From<u32> for Ratio {
    fn from(n: u32) -> Self {
        Ratio::int(n as i64)
    }
}

/// True when every value fits in 64 bits, so products of two fit in 128 with room for a sum.
#[inline]
fn all_i64(values: &[i128; 4]) -> bool {
    values.iter().all(|&v| i64::try_from(v).is_ok())
}

fn saturate_i64(v: i128) -> i64 {
    i64::try_from(v).unwrap_or(if v < 0 { i64::MIN } else { i64::MAX })
}

/// An exact result that 128 bits cannot hold: refusing loudly beats printing a wrong fraction.
#[cold]
#[inline(never)]
#[allow(
    clippy::panic,
    reason = "the ranges in rules/limits.rs keep every input below it; a wrong fraction is worse"
)]
fn overflow(op: &str, a: impl fmt::Display, b: impl fmt::Display) -> ! {
    panic!(
        "exact fraction overflow: {op}({a}, {b}) needs more than 128 bits; kepi never rounds exact odds"
    )
}

/// # Panics
/// When the exact sum needs more than 128 bits ([`Ratio::checked_add`] returns `None`).
impl Add for Ratio {
    type Output = Ratio;
    fn add(self, o: Ratio) -> Ratio {
        self.checked_add(o)
            .unwrap_or_else(|| overflow("add", self, o))
    }
}

/// # Panics
/// When the exact difference needs more than 128 bits.
impl Sub for Ratio {
    type Output = Ratio;
    fn sub(self, o: Ratio) -> Ratio {
        self.checked_sub(o)
            .unwrap_or_else(|| overflow("sub", self, o))
    }
}

/// # Panics
/// When the exact product needs more than 128 bits.
impl Mul for Ratio {
    type Output = Ratio;
    fn mul(self, o: Ratio) -> Ratio {
        self.checked_mul(o)
            .unwrap_or_else(|| overflow("mul", self, o))
    }
}

/// # Panics
/// When the exact quotient needs more than 128 bits.
impl Div for Ratio {
    type Output = Ratio;
    fn div(self, o: Ratio) -> Ratio {
        self.checked_div(o)
            .unwrap_or_else(|| overflow("div", self, o))
    }
}

impl Neg for Ratio {
    type Output = Ratio;
    fn neg(self) -> Ratio {
        Ratio {
            num: -self.num,
            den: self.den,
        }
    }
}

impl std::iter::Sum for Ratio {
    fn sum<I: Iterator<Item = Ratio>>(iter: I) -> Ratio {
        iter.fold(Ratio::ZERO, |a, b| a + b)
    }
}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ratio {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        if all_i64(&[self.num, self.den, other.num, other.den]) {
            return (self.num * other.den).cmp(&(other.num * self.den));
        }
        wide_cmp(self, other)
    }
}

/// Comparison for parts beyond 64 bits, where the cross products may overflow.
#[cold]
#[inline(never)]
fn wide_cmp(a: &Ratio, b: &Ratio) -> Ordering {
    match a.num.checked_mul(b.den).zip(b.num.checked_mul(a.den)) {
        Some((x, y)) => x.cmp(&y),
        None => (BigInt::from(a.num) * b.den).cmp(&(BigInt::from(b.num) * a.den)),
    }
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_plain())
    }
}

/// Parses "3", "-2", "31/2" or "1.5" (a decimal is read exactly: 1.5 = 3/2).
impl std::str::FromStr for Ratio {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        let bad = || format!("`{s}` is not a number (expected e.g. 3, -2, 31/2 or 1.5)");
        if let Some((n, d)) = s.split_once('/') {
            let n: i128 = n.trim().parse().map_err(|_| bad())?;
            let d: i128 = d.trim().parse().map_err(|_| bad())?;
            if d == 0 {
                return Err(format!("`{s}` has a zero denominator"));
            }
            return Ratio::checked_new(n, d).ok_or_else(|| format!("`{s}` is too large"));
        }
        if let Some((w, frac)) = s.split_once('.') {
            if frac.is_empty() || frac.len() > 9 || !frac.chars().all(|c| c.is_ascii_digit()) {
                return Err(bad());
            }
            let neg = w.trim_start().starts_with('-');
            let w: i128 = if w.is_empty() || w == "-" {
                0
            } else {
                w.parse().map_err(|_| bad())?
            };
            let scale = 10i128.pow(frac.len() as u32);
            let f: i128 = frac.parse().map_err(|_| bad())?;
            let num = w
                .checked_abs()
                .and_then(|w| w.checked_mul(scale))
                .and_then(|w| w.checked_add(f))
                .ok_or_else(|| format!("`{s}` is too large"))?;
            return Ratio::checked_new(if neg { -num } else { num }, scale)
                .ok_or_else(|| format!("`{s}` is too large"));
        }
        let n = s.parse::<i128>().map_err(|_| bad())?;
        Ratio::checked_new(n, 1).ok_or_else(|| format!("`{s}` is too large"))
    }
}

/// Serialised as a string: "num/den" for fractions, the plain integer otherwise.
impl Serialize for Ratio {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_plain())
    }
}

impl<'de> Deserialize<'de> for Ratio {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Int(i64),
            Float(f64),
            Str(String),
        }
        match Raw::deserialize(d)? {
            Raw::Int(n) => Ok(Ratio::int(n)),
            Raw::Float(x) => format!("{x}").parse().map_err(serde::de::Error::custom),
            Raw::Str(s) => s.parse().map_err(serde::de::Error::custom),
        }
    }
}

/// A probability, serialised always as "num/den" (the JSON contract for odds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Prob(pub Ratio);

impl Prob {
    /// Certainty.
    pub const ONE: Prob = Prob(Ratio::ONE);
    /// Impossibility.
    pub const ZERO: Prob = Prob(Ratio::ZERO);

    /// `num/den` as a probability.
    pub fn new(num: i128, den: i128) -> Prob {
        Prob(Ratio::new(num, den))
    }
}

impl fmt::Display for Prob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.to_fraction_string())
    }
}

impl Add for Prob {
    type Output = Prob;
    fn add(self, o: Prob) -> Prob {
        Prob(self.0 + o.0)
    }
}

impl Mul for Prob {
    type Output = Prob;
    fn mul(self, o: Prob) -> Prob {
        Prob(self.0 * o.0)
    }
}

impl std::iter::Sum for Prob {
    fn sum<I: Iterator<Item = Prob>>(iter: I) -> Prob {
        Prob(iter.map(|p| p.0).sum())
    }
}

impl Serialize for Prob {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0.to_fraction_string())
    }
}

impl<'de> Deserialize<'de> for Prob {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ratio::deserialize(d).map(Prob)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduces_and_orders() {
        assert_eq!(Ratio::new(6, 36), Ratio::new(1, 6));
        assert_eq!(Ratio::new(3, -6).to_plain(), "-1/2");
        assert!(Ratio::new(1, 3) < Ratio::new(1, 2));
        assert_eq!(Ratio::new(31, 2).floor(), 15);
        assert_eq!(Ratio::new(-1, 2).floor(), -1);
        assert_eq!(Ratio::new(31, 2).ceil(), 16);
    }

    #[test]
    fn binary_gcd_agrees_with_euclid() {
        fn euclid(mut a: i128, mut b: i128) -> i128 {
            (a, b) = (a.abs(), b.abs());
            while b != 0 {
                (a, b) = (b, a % b);
            }
            a
        }
        let big = 216i128.pow(12);
        let values = [
            0,
            1,
            2,
            6,
            36,
            216,
            -216,
            1 << 40,
            3 * (1 << 40),
            big,
            big / 6 * 5,
            -big,
            i64::MAX as i128,
            i64::MAX as i128 + 1,
            u64::MAX as i128 * 3,
            i128::MAX / 7,
        ];
        for a in values {
            for b in values {
                assert_eq!(gcd(a, b), euclid(a, b), "gcd({a}, {b})");
            }
        }
        assert_eq!(Ratio::new(big / 6 * 5, big), Ratio::new(5, 6));
        // The 2-3-5 fast path and the general gcd give the same reduced fraction.
        for n in [-3600i128, -7, 0, 1, 14, 35, 49, 210, 1000, 6i128.pow(9) * 7] {
            for d in [
                1i128,
                2,
                7,
                10,
                36,
                49,
                70,
                216,
                -216,
                1_000_000,
                6i128.pow(12),
            ] {
                let r = Ratio::new(n, d);
                let g = euclid(n, d).max(1);
                let s = if d < 0 { -1 } else { 1 };
                assert_eq!((r.numer(), r.denom()), (s * n / g, s * d / g), "{n}/{d}");
            }
        }
        assert_eq!(Ratio::new(-(1 << 70), 1 << 72), Ratio::new(-1, 4));
    }

    #[test]
    fn parses_exactly() {
        assert_eq!("1.5".parse::<Ratio>().unwrap(), Ratio::new(3, 2));
        assert_eq!("-0.25".parse::<Ratio>().unwrap(), Ratio::new(-1, 4));
        assert_eq!("31/2".parse::<Ratio>().unwrap(), Ratio::new(31, 2));
        assert!("1/0".parse::<Ratio>().is_err());
        assert!("x".parse::<Ratio>().is_err());
    }

    #[test]
    fn prob_prints_as_fraction() {
        assert_eq!(Prob::ONE.to_string(), "1/1");
        assert_eq!(Prob::new(6, 36).to_string(), "1/6");
        assert_eq!(Prob::new(1, 6).0.percent(), "16.7%");
    }
}
