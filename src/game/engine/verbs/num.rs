//! The range-checked parser of every number a user types (issue 29): a flag of `kepi resolve`, a
//! `kepi game apply` verb's option (parsed by the same clap declarations) or a verb's count. A
//! value outside the rule's range ([`crate::rules::limits`]) is refused with the flag and the range
//! named (exit 2), before any rule sees it; the rules check the same ranges again for their other
//! callers.

use crate::dice::Ratio;
use crate::rules::limits::Limit;

/// The text of a refusal: `VALUE` is not a whole number in `limit`.
pub(crate) fn refusal(text: &str, limit: Limit) -> String {
    format!(
        "`{}` is out of range (accepted: {})",
        text.trim(),
        limit.accepted()
    )
}

/// Parses a whole number in `limit` (any width: a 30-digit number is out of range, not garbage).
pub fn parse_within<T: TryFrom<i64>>(text: &str, limit: Limit) -> Result<T, String> {
    let v: i128 = text.trim().parse().map_err(|_| {
        format!(
            "`{}` is not a number (accepted: whole numbers {})",
            text.trim(),
            limit.accepted()
        )
    })?;
    i64::try_from(v)
        .ok()
        .filter(|v| limit.contains(*v))
        .and_then(|v| T::try_from(v).ok())
        .ok_or_else(|| refusal(text, limit))
}

/// A clap value parser for a whole-number flag accepting `limit` only; clap's error names the flag.
pub fn within<T>(limit: Limit) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync
where
    T: TryFrom<i64> + Clone + Send + Sync + 'static,
{
    move |s| parse_within(s, limit)
}

/// A clap value parser for an exact number (`31/2`, `1.5`) accepting `limit` only.
pub fn ratio_within(limit: Limit) -> impl Fn(&str) -> Result<Ratio, String> + Clone {
    move |s| {
        let r: Ratio = s.parse()?;
        if r < Ratio::int(limit.lo) || r > Ratio::int(limit.hi) {
            return Err(refusal(s, limit));
        }
        Ok(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::limits::{FIGURES, ROLL_MODIFIER};

    #[test]
    fn edges_and_extremes() {
        assert_eq!(parse_within::<i64>("-100", ROLL_MODIFIER), Ok(-100));
        assert_eq!(parse_within::<i64>("100", ROLL_MODIFIER), Ok(100));
        for bad in [
            "-101",
            "101",
            "9223372036854775807",
            "-9223372036854775808",
            "99999999999999999999999999",
        ] {
            let e = parse_within::<i64>(bad, ROLL_MODIFIER).unwrap_err();
            assert!(e.contains("accepted: -100 to 100"), "{e}");
        }
        assert_eq!(parse_within::<u32>("10000", FIGURES), Ok(10_000));
        assert!(parse_within::<u32>("-1", FIGURES).is_err());
        assert!(parse_within::<u32>("4294967296", FIGURES).is_err());
        assert!(parse_within::<u32>("x", FIGURES).is_err());
        let r = ratio_within(crate::rules::limits::INCHES);
        assert!(r("10000").is_ok() && r("10001").is_err() && r("-1/2").is_err());
        assert!(r("9223372036854775807").is_err());
    }
}
