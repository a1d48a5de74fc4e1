//! Measured play at the club's scale (issue 28): the unit a table measures in (inches or
//! centimetres) and a distance factor (1/2 for 6 mm figures), a game setting every distance kepi
//! prints or reads follows.
//!
//! The rules stay in the text's inches. A distance typed at the table ([`Distance`]: `30cm`,
//! `12in`, `12"`, or a bare number read in the game's unit) becomes the text's inches once, at the
//! edge, exactly ([`Scale::text_inches`]: rational arithmetic, 1 in = 2.54 cm by definition), and a
//! distance of the text is printed once, at the edge, in the game's unit ([`Scale::show`],
//! [`Scale::localize`]). No float ever decides a band: a typed distance that lands exactly on a
//! band's edge is that edge (the text's "up to": it falls in the shorter band), one a hair beyond
//! falls in the next. Printing rounds to hundredths, half up, and marks a rounded value with `~`;
//! the band is always decided by the exact value typed, never by the printed one.
//!
//! The default is the text's own scale, inches at factor 1: [`Scale::localize`] is then the
//! identity, and a game at that scale saves exactly as before the setting existed.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::dice::Ratio;

/// Centimetres in an inch, exactly (the inch is defined as 2.54 cm).
pub fn cm_per_inch() -> Ratio {
    Ratio::new(127, 50)
}

/// The largest numerator or denominator a distance factor may have (1/1000 to 1000): keeps every
/// conversion far from overflow, and no club plays beyond it.
pub const FACTOR_MAX: i128 = 1000;

/// The largest distance that can be typed, in any unit (the text's ranges are at most 60").
pub const DISTANCE_MAX: i64 = 10_000;

/// The unit a table measures in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// Inches, the texts' own unit.
    #[default]
    In,
    /// Centimetres.
    Cm,
}

impl Unit {
    /// Every unit, in the order the window offers them.
    pub const ALL: [Unit; 2] = [Unit::In, Unit::Cm];

    /// The word printed after a number in a label ("range (inches)", "range (cm)").
    pub fn word(self) -> &'static str {
        match self {
            Unit::In => "inches",
            Unit::Cm => "cm",
        }
    }

    /// The suffix printed after a number (`12"`, `30.48cm`).
    pub fn suffix(self) -> &'static str {
        match self {
            Unit::In => "\"",
            Unit::Cm => "cm",
        }
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Unit::In => "in",
            Unit::Cm => "cm",
        })
    }
}

impl FromStr for Unit {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "in" | "inch" | "inches" | "\"" => Ok(Unit::In),
            "cm" | "centimetres" | "centimeters" => Ok(Unit::Cm),
            _ => Err(format!("`{s}` is not a unit (accepted: in, cm)")),
        }
    }
}

/// A game's scale: the unit its table measures in and the factor its distances are scaled by
/// (the table's length is the text's length times the factor). Serialized as
/// `{"unit": "cm", "factor": "1/2"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scale {
    /// The unit measured in.
    pub unit: Unit,
    /// The distance factor (table length = text length x factor).
    pub factor: Ratio,
}

impl Default for Scale {
    fn default() -> Self {
        Scale::TEXT
    }
}

impl Scale {
    /// The text's own scale: inches, factor 1.
    pub const TEXT: Scale = Scale {
        unit: Unit::In,
        factor: Ratio::ONE,
    };

    /// A scale, or why not: the factor must be positive with parts of at most [`FACTOR_MAX`].
    pub fn new(unit: Unit, factor: Ratio) -> Result<Scale, String> {
        if factor <= Ratio::ZERO || factor.numer() > FACTOR_MAX || factor.denom() > FACTOR_MAX {
            return Err(format!(
                "distance factor {factor} is out of range (accepted: a positive fraction such as 1, 1/2 or 2/3, \
                 numerator and denominator at most {FACTOR_MAX})"
            ));
        }
        Ok(Scale { unit, factor })
    }

    /// True for the text's own scale (inches, factor 1): nothing to convert, nothing saved.
    pub fn is_text(&self) -> bool {
        *self == Scale::TEXT
    }

    /// Table length per inch of the text, in this scale's unit.
    fn per_text_inch(&self) -> Ratio {
        match self.unit {
            Unit::In => self.factor,
            Unit::Cm => self.factor * cm_per_inch(),
        }
    }

    /// A distance of the text (inches) as measured on this table, exactly, in this scale's unit.
    pub fn table_length(&self, text_inches: Ratio) -> Ratio {
        text_inches
            .checked_mul(self.per_text_inch())
            .unwrap_or(text_inches)
    }

    /// A distance measured on this table, in the text's inches, exactly: the one conversion of a
    /// typed distance. A bare number is in this scale's unit. Out of range (beyond
    /// [`DISTANCE_MAX`] of its unit) is an error naming the accepted values.
    pub fn text_inches(&self, d: Distance) -> Result<Ratio, String> {
        let unit = d.unit.unwrap_or(self.unit);
        let table_inches = match unit {
            Unit::In => Some(d.amount),
            Unit::Cm => d.amount.checked_div(cm_per_inch()),
        };
        table_inches
            .and_then(|x| x.checked_div(self.factor))
            .ok_or_else(|| format!("{d} cannot be converted at {self}"))
    }

    /// A distance of the text (inches) as a number in this scale's unit, for a field: exact
    /// decimals, else rounded to hundredths half up and marked `~` ("7.62", "~8.47", "12").
    pub fn number(&self, text_inches: Ratio) -> String {
        decimal(self.table_length(text_inches))
    }

    /// A distance of the text (inches) printed in this scale's unit: `12"` at the text's scale,
    /// `15.24cm` in centimetres at 1/2.
    pub fn show(&self, text_inches: Ratio) -> String {
        format!("{}{}", self.number(text_inches), self.unit.suffix())
    }

    /// A text of the rules with every distance in it (a number written straight before `"` or
    /// `in`: `18"`, `31/2"`, `12in`) printed in this scale ([`Scale::show`]); the rest unchanged.
    /// The identity at the text's scale. Labels that name the unit in words, "(inches)", name
    /// this scale's; "12 inches" in words is left as written (the text's own measure).
    pub fn localize(&self, text: &str) -> String {
        if self.is_text() {
            return text.to_string();
        }
        let mut out = String::with_capacity(text.len() + 8);
        let b = text.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let starts_number =
                b[i].is_ascii_digit() && (i == 0 || !is_wordish(text[..i].chars().next_back()));
            if starts_number {
                let (end, num) = scan_number(text, i);
                let rest = &text[end..];
                let unit_len = if rest.starts_with('"') {
                    Some(1)
                } else if rest.starts_with("in")
                    && !rest[2..]
                        .chars()
                        .next()
                        .is_some_and(|c| c.is_alphanumeric())
                {
                    Some(2)
                } else {
                    None
                };
                if let (Some(n), Some(ul)) = (num, unit_len) {
                    out.push_str(&self.show(n));
                    i = end + ul;
                    continue;
                }
                out.push_str(&text[i..end]);
                i = end;
                continue;
            }
            let c = text[i..].chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
        }
        if self.unit == Unit::Cm {
            out = out.replace("(inches)", "(cm)");
        }
        out
    }
}

fn is_wordish(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || c == '.' || c == '/' || c == '-' || c == '_')
}

/// A number starting at `i`: digits, then `/digits` or `.digits`; its end and its value.
fn scan_number(text: &str, i: usize) -> (usize, Option<Ratio>) {
    let b = text.as_bytes();
    let digits = |mut j: usize| {
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        j
    };
    let mut end = digits(i);
    if end + 1 < b.len() && (b[end] == b'/' || b[end] == b'.') && b[end + 1].is_ascii_digit() {
        end = digits(end + 1);
    }
    (end, text[i..end].parse::<Ratio>().ok())
}

/// An exact rational as a decimal: whole numbers as themselves, exact decimals of up to two
/// places as such ("7.62", "7.5"), anything else rounded to hundredths half up and marked "~".
pub fn decimal(r: Ratio) -> String {
    if r.is_integer() {
        return r.to_plain();
    }
    let neg = r < Ratio::ZERO;
    let (n, d) = (r.numer().unsigned_abs(), r.denom().unsigned_abs());
    // Hundredths, rounded half up: floor((200 n + d) / 2d).
    let hundredths = n
        .checked_mul(200)
        .and_then(|x| x.checked_add(d))
        .map(|x| x / (2 * d));
    let Some(h) = hundredths else {
        return r.to_plain();
    };
    let exact = n.checked_mul(100).is_some_and(|x| x % d == 0);
    let mut s = format!("{}.{:02}", h / 100, h % 100);
    while s.ends_with('0') {
        s.pop();
    }
    if s.ends_with('.') {
        s.pop();
    }
    let sign = if neg { "-" } else { "" };
    if exact {
        format!("{sign}{s}")
    } else {
        format!("~{sign}{s}")
    }
}

impl fmt::Display for Scale {
    /// `in` at the text's scale; `cm 1/2` otherwise (what `kepi game apply scale` takes).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.factor == Ratio::ONE {
            write!(f, "{}", self.unit)
        } else {
            write!(f, "{} {}", self.unit, self.factor)
        }
    }
}

impl FromStr for Scale {
    type Err = String;
    /// `in`, `cm`, `cm 1/2`, `cm:1/2`, `in 0.5`: a unit, then an optional factor (default 1).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let mut parts = t.split(|c: char| c.is_whitespace() || c == ':' || c == ',');
        let unit: Unit = parts.next().unwrap_or("").parse().map_err(|e: String| {
            format!("{e}; a scale is a unit and a factor, e.g. `cm 1/2` or `in`")
        })?;
        let rest: Vec<&str> = parts.filter(|p| !p.is_empty()).collect();
        let factor = match rest.as_slice() {
            [] => Ratio::ONE,
            [f] => f.parse::<Ratio>().map_err(|e| {
                format!("{e}: the distance factor is a fraction such as 1/2 or 2/3")
            })?,
            _ => {
                return Err(format!(
                    "`{s}` is not a scale (expected a unit and a factor, e.g. `cm 1/2`)"
                ));
            }
        };
        Scale::new(unit, factor)
    }
}

/// A distance as typed: a number and, when written, its unit (`30cm`, `12in`, `12"`); a bare
/// number (`30`) is read in the game's unit by [`Scale::text_inches`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Distance {
    /// The number typed.
    pub amount: Ratio,
    /// The unit written after it, if any.
    pub unit: Option<Unit>,
}

impl Distance {
    /// A distance in the text's inches, as kepi's own forms hold it.
    pub fn inches(amount: Ratio) -> Distance {
        Distance {
            amount,
            unit: Some(Unit::In),
        }
    }
}

impl fmt::Display for Distance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.unit {
            Some(u) => write!(f, "{}{u}", self.amount),
            None => write!(f, "{}", self.amount),
        }
    }
}

impl FromStr for Distance {
    type Err = String;
    /// `30`, `14.5`, `31/2`, `12in`, `12"`, `12 inches`, `30cm`, `76.2 cm`: at least 0 and at
    /// most [`DISTANCE_MAX`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        let (num, unit) = if let Some(n) = t.strip_suffix("cm") {
            (n, Some(Unit::Cm))
        } else if let Some(n) = t
            .strip_suffix("inches")
            .or_else(|| t.strip_suffix("in"))
            .or_else(|| t.strip_suffix('"'))
        {
            (n, Some(Unit::In))
        } else {
            (t.as_str(), None)
        };
        let bad = || {
            format!(
                "`{s}` is not a distance (accepted: a number from 0 to {DISTANCE_MAX}, bare in the game's unit, \
                 or with its unit: 30cm, 12in, 12\")"
            )
        };
        let amount: Ratio = num.trim().parse().map_err(|_| bad())?;
        if amount < Ratio::ZERO || amount > Ratio::int(DISTANCE_MAX) {
            return Err(bad());
        }
        Ok(Distance { amount, unit })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> Ratio {
        s.parse().unwrap()
    }

    #[test]
    fn text_scale_is_identity() {
        let s = Scale::default();
        assert!(s.is_text());
        assert_eq!(
            s.localize("falls back 6\"; 12in, 31/2\""),
            "falls back 6\"; 12in, 31/2\""
        );
        assert_eq!(s.text_inches("30".parse().unwrap()).unwrap(), r("30"));
        assert_eq!(s.show(r("12")), "12\"");
    }

    #[test]
    fn half_scale_in_cm() {
        let s: Scale = "cm 1/2".parse().unwrap();
        assert_eq!(s, Scale::new(Unit::Cm, r("1/2")).unwrap());
        assert_eq!(s.to_string(), "cm 1/2");
        // 12" of the text is 6" on the table: 15.24 cm.
        assert_eq!(s.show(r("12")), "15.24cm");
        // 30 cm on the table is 30/2.54 = 11.81" there, 23.62" of the text: exact.
        assert_eq!(
            s.text_inches("30cm".parse().unwrap()).unwrap(),
            Ratio::new(3000, 127)
        );
        // A bare number is the game's unit (cm); an inch typed stays an inch of the table.
        assert_eq!(
            s.text_inches("30".parse().unwrap()).unwrap(),
            Ratio::new(3000, 127)
        );
        assert_eq!(s.text_inches("12in".parse().unwrap()).unwrap(), r("24"));
        assert_eq!(
            s.localize("falls back 6\" (inches); 12in; Part I \"Setup\"; 4 hits"),
            "falls back 7.62cm (cm); 15.24cm; Part I \"Setup\"; 4 hits"
        );
    }

    #[test]
    fn edges_round_trip_exactly() {
        // The artillery short band ends at 15" of the text: 7.5" at 1/2, 19.05 cm exactly.
        let s: Scale = "cm:1/2".parse().unwrap();
        assert_eq!(s.show(r("15")), "19.05cm");
        assert_eq!(s.text_inches("19.05cm".parse().unwrap()).unwrap(), r("15"));
        assert!(s.text_inches("19.06cm".parse().unwrap()).unwrap() > r("15"));
        assert!(s.text_inches("19.04cm".parse().unwrap()).unwrap() < r("15"));
        // Inexact values print rounded, marked; half up.
        let third: Scale = "cm 1/3".parse().unwrap();
        assert_eq!(third.show(r("10")), "~8.47cm");
        assert_eq!(decimal(r("1/8")), "~0.13");
        assert_eq!(decimal(r("-1/8")), "~-0.13");
        assert_eq!(decimal(r("3/200")), "~0.02");
        assert_eq!(decimal(r("1/200")), "~0.01");
        assert_eq!(decimal(r("1/4")), "0.25");
        assert_eq!(decimal(r("15/2")), "7.5");
    }

    #[test]
    fn bad_scales_and_distances_say_what_is_accepted() {
        for bad in ["mm", "cm 0", "cm -1/2", "cm 1/2000", "cm x", "cm 1 2", ""] {
            let e = bad.parse::<Scale>().unwrap_err();
            assert!(e.contains("accepted") || e.contains("e.g."), "{bad}: {e}");
        }
        for bad in ["-1", "30mm", "x", "10001", "1e9cm"] {
            let e = bad.parse::<Distance>().unwrap_err();
            assert!(e.contains("accepted"), "{bad}: {e}");
        }
        assert_eq!(
            "12 inches".parse::<Distance>().unwrap(),
            Distance::inches(r("12"))
        );
    }
}
