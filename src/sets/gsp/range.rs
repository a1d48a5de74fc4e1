//! GSP-A1 range: a measured distance (inches or centimetres, exact) becomes a range sector.
//!
//! Part III counts range in sectors of the table; the size of a sector is in Part I, which the seed does
//! not hold, so the length is a `house` value of `tables/gsp.toml` that a club can change, or a
//! `--sector-length` given per resolution.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::GspTables;
use kepi_game::dice::Ratio;
use kepi_game::rules::{Effect, ModifierLine, RuleError, RuleId};
use kepi_game::tables::Provenance;

/// A unit of length on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LengthUnit {
    /// Inches (the default when no unit is written).
    In,
    /// Centimetres.
    Cm,
}

/// A measured length, exact: `30`, `30in`, `30"`, `76.2cm`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Length {
    /// The number as measured.
    pub amount: Ratio,
    /// Its unit.
    pub unit: LengthUnit,
}

impl Length {
    /// A length in inches.
    pub fn inches(amount: Ratio) -> Length {
        Length {
            amount,
            unit: LengthUnit::In,
        }
    }

    /// A length in centimetres.
    pub fn cm(amount: Ratio) -> Length {
        Length {
            amount,
            unit: LengthUnit::Cm,
        }
    }

    /// The length in inches, converting centimetres with the table's `cm_per_inch` (2.54).
    pub fn to_inches(self, tables: &GspTables) -> Ratio {
        match self.unit {
            LengthUnit::In => self.amount,
            LengthUnit::Cm => self.amount / tables.range.cm_per_inch.v(),
        }
    }
}

impl fmt::Display for Length {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unit = match self.unit {
            LengthUnit::In => "in",
            LengthUnit::Cm => "cm",
        };
        write!(f, "{}{unit}", self.amount)
    }
}

impl FromStr for Length {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        let (num, unit) = if let Some(n) = t.strip_suffix("cm") {
            (n, LengthUnit::Cm)
        } else if let Some(n) = t
            .strip_suffix("inches")
            .or_else(|| t.strip_suffix("in"))
            .or_else(|| t.strip_suffix('"'))
        {
            (n, LengthUnit::In)
        } else {
            (t.as_str(), LengthUnit::In)
        };
        let amount: Ratio = num
            .trim()
            .parse()
            .map_err(|_| format!("`{s}` is not a length (expected e.g. 30, 30in, 14.5, 76.2cm)"))?;
        if amount < Ratio::ZERO {
            return Err(format!("`{s}` is negative: a range is a distance"));
        }
        Ok(Length { amount, unit })
    }
}

/// GSP-A1: a range turned into a sector, with how.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SectorFromRange {
    /// The range sector (1 = the first sector out from the gun).
    pub sector: u32,
    /// The range, in inches.
    pub range_inches: Ratio,
    /// The sector length used, in inches.
    pub sector_length_inches: Ratio,
    /// Where the sector length comes from (house for the table default, derived when given).
    pub provenance: Provenance,
}

/// GSP-A1: the range sector of a measured distance: `ceil(range / sector length)`, at least 1 (a
/// target up to one sector length away is in sector 1). Beyond the chart's last sector is an error.
pub fn sector_for_range(
    range: Length,
    sector_length: Option<Length>,
    tables: &GspTables,
) -> Result<SectorFromRange, RuleError> {
    let (len, provenance) = match sector_length {
        Some(l) => (l.to_inches(tables), Provenance::Derived),
        None => (
            tables.range.sector_length_inches.v(),
            tables.range.sector_length_inches.provenance,
        ),
    };
    if len <= Ratio::ZERO {
        return Err(RuleError::input(
            "--sector-length",
            "the sector length must be more than 0",
            "a length such as 12, 12in or 30cm",
        ));
    }
    let inches = range.to_inches(tables);
    let sector = (inches / len).ceil().max(1);
    let last = tables.range.last_sector.v();
    let sector = u32::try_from(sector).unwrap_or(u32::MAX);
    if sector > last {
        return Err(RuleError::input(
            "--range",
            format!(
                "{range} is range sector {sector} (sectors of {len}in): beyond the hit chart, no gun reaches it"
            ),
            format!(
                "a range up to {} inches (sector {last})",
                len * Ratio::from(last)
            ),
        ));
    }
    Ok(SectorFromRange {
        sector,
        range_inches: inches,
        sector_length_inches: len,
        provenance,
    })
}

impl SectorFromRange {
    /// The modifier line that shows the conversion.
    pub fn line(&self) -> ModifierLine {
        ModifierLine::new(
            format!(
                "range {}in / sector {}in -> range sector",
                self.range_inches, self.sector_length_inches
            ),
            Effect::Base(Ratio::from(self.sector)),
            RuleId::new("GSP-A1"),
            self.provenance,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t() -> &'static GspTables {
        kepi_game::tables::builtin::<crate::gsp::GspTables>()
    }

    #[test]
    fn lengths_parse_exactly() {
        assert_eq!(
            "76.2cm".parse::<Length>().unwrap(),
            Length::cm(Ratio::new(762, 10))
        );
        assert_eq!(
            "30\"".parse::<Length>().unwrap(),
            Length::inches(Ratio::int(30))
        );
        assert_eq!(
            "14.5".parse::<Length>().unwrap(),
            Length::inches(Ratio::new(29, 2))
        );
        assert!("-3".parse::<Length>().is_err());
        assert!("far".parse::<Length>().is_err());
    }

    #[test]
    fn sectors_from_ranges() {
        // GSP-A1: 12in sectors (house default).
        for (range, sector) in [
            ("0", 1),
            ("1", 1),
            ("12", 1),
            ("12.01", 2),
            ("36", 3),
            ("96", 8),
        ] {
            let s = sector_for_range(range.parse().unwrap(), None, t()).unwrap();
            assert_eq!(s.sector, sector, "{range}");
            assert_eq!(s.provenance, Provenance::House);
        }
        assert!(sector_for_range("96.5".parse().unwrap(), None, t()).is_err());
        // 30.48 cm is exactly one foot.
        let s = sector_for_range("30.48cm".parse().unwrap(), None, t()).unwrap();
        assert_eq!(s.sector, 1);
        let s = sector_for_range("61cm".parse().unwrap(), None, t()).unwrap();
        assert_eq!(s.sector, 3);
        let s =
            sector_for_range("25".parse().unwrap(), Some("20cm".parse().unwrap()), t()).unwrap();
        // 20cm = 7.874in: 25 / 7.874 = 3.175 -> sector 4
        assert_eq!(s.sector, 4);
        assert!(sector_for_range("5".parse().unwrap(), Some("0".parse().unwrap()), t()).is_err());
    }
}
