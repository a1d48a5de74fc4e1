//! The campaign's conversion table (`tables/campaign.toml`): board units to table units and back
//! (CAMP-C1, CAMP-C2), loaded like the rule sets' tables, errors naming file, line, field and the
//! accepted values.

use std::path::Path;

use serde::Deserialize;

use kepi_game::engine::rule_set::CampaignPart;
use kepi_game::roster::{Arm, Weapon};
use kepi_game::rules::RuleSetId;
use kepi_game::tables::{Check, RuleTable, Sourced, TableError, folder_source};

/// CAMP-C2: how a fraction of a board point lost is rounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Rounding {
    /// To the nearest point, a half rounding up.
    Nearest,
    /// Down (a fraction of a point is not lost).
    Down,
    /// Up (any fraction of a point is a point lost).
    Up,
}

impl Rounding {
    /// `num / den` rounded (den > 0).
    pub fn apply(self, num: u64, den: u64) -> u64 {
        let den = den.max(1);
        match self {
            Rounding::Nearest => (2 * num + den) / (2 * den),
            Rounding::Down => num / den,
            Rounding::Up => num.div_ceil(den),
        }
    }

    /// The word used in the file.
    pub fn as_str(self) -> &'static str {
        match self {
            Rounding::Nearest => "nearest",
            Rounding::Down => "down",
            Rounding::Up => "up",
        }
    }
}

/// One row: a board game's arm (of a nation, or of any) as table units.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    /// The board game: `spi` or `fr1870`.
    pub board: String,
    /// A card's arm.
    pub arm: String,
    /// A card's nation, or `*` for any nation without its own row.
    pub nation: String,
    /// What one table unit is: battalion, battery, squadron.
    pub kind: String,
    /// The table units' weapon, when the row gives one.
    #[serde(default)]
    pub weapon: Option<String>,
    /// CAMP-C1: table units per board strength point.
    pub per_point: Sourced<u32>,
    /// CAMP-C1: figures per table unit in Pickelhaube & Kepi.
    pub pk_figures: Sourced<u32>,
    /// CAMP-C1: strength points per table unit in the Portable Wargame.
    pub pw_sp: Sourced<u32>,
}

impl Row {
    /// The columns giving one table unit's strength, by name (CAMP-C1): what a battle rule set's
    /// [`kepi_game::engine::rule_set::RuleSet::campaign_strength_column`] may name.
    pub const STRENGTH_COLUMNS: [&'static str; 2] = ["pk_figures", "pw_sp"];

    /// The strength of one table unit in `column` (one of [`Row::STRENGTH_COLUMNS`]); None for a
    /// column the table does not have.
    pub fn strength(&self, column: &str) -> Option<u32> {
        match column {
            "pk_figures" => Some(self.pk_figures.v()),
            "pw_sp" => Some(self.pw_sp.v()),
            _ => None,
        }
    }

    /// The row's weapon, when it names one that reads.
    pub fn weapon(&self) -> Option<Weapon> {
        self.weapon.as_deref().and_then(|w| w.parse().ok())
    }
}

/// The whole table.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignTable {
    /// Always `campaign`.
    pub system: String,
    /// CAMP-C2: the rounding of losses carried back.
    pub rounding: Sourced<Rounding>,
    /// The rows.
    #[serde(default)]
    pub convert: Vec<Row>,
    /// The file it was read from (for the errors of a gap).
    #[serde(skip)]
    pub file: String,
}

/// The ids of the rule sets a campaign is played on (their [`CampaignPart::Board`]), in the
/// registry's order.
pub fn boards() -> Vec<&'static str> {
    kepi_game::registry::all()
        .into_iter()
        .filter(|s| kepi_game::registry::get(*s).campaign_part() == Some(CampaignPart::Board))
        .map(RuleSetId::id)
        .collect()
}

impl RuleTable for CampaignTable {
    const FILE: &'static str = "campaign.toml";
    const BUILTIN: &'static str = include_str!("../../../tables/campaign.toml");

    fn validate(&self, check: &Check<'_>) -> Result<(), TableError> {
        if self.system != "campaign" {
            return Err(check.error(
                0..0,
                "system",
                format!("`{}` is not this file's table", self.system),
                "campaign",
            ));
        }
        for (i, r) in self.convert.iter().enumerate() {
            let f = |x: &str| format!("convert[{i}].{x}");
            let at = r.per_point.span();
            let boards = boards();
            if !boards.contains(&r.board.as_str()) {
                return Err(check.error(
                    at,
                    &f("board"),
                    format!("unknown board game `{}`", r.board),
                    boards.join(", "),
                ));
            }
            if r.arm.parse::<Arm>().is_err() {
                return Err(check.error(
                    r.per_point.span(),
                    &f("arm"),
                    format!("unknown arm `{}`", r.arm),
                    "infantry, cavalry, artillery, engineers, railway, fortress, headquarters",
                ));
            }
            if r.nation.trim().is_empty() {
                return Err(check.error(
                    r.per_point.span(),
                    &f("nation"),
                    "empty nation",
                    "a card's nation, or * for any",
                ));
            }
            if let Some(w) = &r.weapon
                && w.parse::<Weapon>().is_err()
            {
                return Err(check.error(
                    r.per_point.span(),
                    &f("weapon"),
                    format!("unknown weapon `{w}`"),
                    "a card's weapon (chassepot, needle-gun, ...)",
                ));
            }
            check.range(&r.per_point, &f("per_point.value"), 1, 20)?;
            check.range(&r.pk_figures, &f("pk_figures.value"), 1, 100)?;
            check.range(&r.pw_sp, &f("pw_sp.value"), 1, 20)?;
        }
        Ok(())
    }
}

impl CampaignTable {
    /// The table from `dir` (`--tables`) when it has `campaign.toml`, else the built-in one.
    pub fn load(dir: Option<&Path>) -> Result<CampaignTable, TableError> {
        let (file, src) = match folder_source(dir, Self::FILE)? {
            Some(found) => found,
            None => (
                format!("<built-in {}>", Self::FILE),
                Self::BUILTIN.to_string(),
            ),
        };
        let mut t = Self::from_source(&file, &src)?;
        t.file = file;
        Ok(t)
    }

    /// CAMP-C1: the row for a board unit (its nation's own row first, then `*`), or a gap: an
    /// error naming the file, the unit, its arm and nation, and the rows there are.
    pub fn row(
        &self,
        board: RuleSetId,
        arm: Arm,
        nation: &str,
        unit: &str,
    ) -> Result<&Row, TableError> {
        let rows = || {
            self.convert
                .iter()
                .filter(|r| r.board == board.id() && r.arm.parse::<Arm>().ok() == Some(arm))
        };
        let n = nation.trim();
        rows()
            .find(|r| r.nation.trim().eq_ignore_ascii_case(n))
            .or_else(|| rows().find(|r| r.nation.trim() == "*"))
            .ok_or_else(|| {
                let have: Vec<String> = self
                    .convert
                    .iter()
                    .map(|r| format!("{} {} {}", r.board, r.arm, r.nation))
                    .collect();
                TableError {
                    file: self.file.clone(),
                    line: 0,
                    column: 0,
                    field: "convert".into(),
                    message: format!(
                        "no row for {} {} of nation `{n}` (CAMP-C1: unit `{unit}` is engaged): add a \
                         [[convert]] row with board = \"{}\", arm = \"{}\", nation = \"{n}\" or \"*\"",
                        board.id(),
                        arm.as_str(),
                        board.id(),
                        arm.as_str()
                    ),
                    accepted: if have.is_empty() {
                        "no rows".into()
                    } else {
                        have.join("; ")
                    },
                }
            })
    }
}
