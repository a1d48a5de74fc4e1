//! `tables/gsp.toml` as typed data: the hit chart, the A.O.A. grid with its orientation, cover,
//! thresholds, crews and the siege gun, each value with its provenance; validated with located errors.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::types::{Cell, Col, Cover, CrewMember, GunType, Row, StructureKind, Terrain};
use kepi_game::dice::Ratio;
use kepi_game::rules::RuleError;
use kepi_game::tables::{Check, Provenance, RuleTable, Sourced, TableError};

/// The Graveyard St. Privat tables (`tables/gsp.toml`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GspTables {
    /// The rule set id, "gsp".
    pub system: String,
    /// GSP-A1: range sectors.
    pub range: RangeTable,
    /// GSP-A1: per gun, per range sector ("1".."8"), the d6 faces that hit.
    pub hit_chart: BTreeMap<GunType, BTreeMap<String, Sourced<Vec<u32>>>>,
    /// GSP-A3: the accuracy-of-aim grid and how it is read.
    pub aoa: AoaTable,
    /// GSP-C1: pips deducted by each cover.
    pub cover: BTreeMap<Cover, Sourced<u32>>,
    /// GSP-C1: the mixed-sector rule.
    pub mixed: MixedTable,
    /// GSP-C2: accumulated pips that destroy each structure or piece of equipment.
    pub thresholds: BTreeMap<StructureKind, Sourced<u32>>,
    /// GSP-C2: the wall-then-equipment split.
    pub split: SplitTable,
    /// GSP-C3: gun crews and limber teams.
    pub crew: CrewTable,
    /// GSP-S1: the siege gun.
    pub siege: SiegeTable,
}

/// GSP-A1: how a measured range becomes a range sector.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RangeTable {
    /// Length of one range sector, in inches (house: Part I is not in the seed).
    pub sector_length_inches: Sourced<Ratio>,
    /// Centimetres per inch, for ranges measured in centimetres.
    pub cm_per_inch: Sourced<Ratio>,
    /// The chart's last range sector (8).
    pub last_sector: Sourced<u32>,
}

/// GSP-A3: the printed grid and its orientation.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AoaTable {
    /// The grid as printed: rows top to bottom, columns left to right, each cell its 2d6 totals.
    pub grid: Sourced<Vec<Vec<Vec<u32>>>>,
    /// What each printed row means (top first).
    pub rows: Sourced<Vec<Row>>,
    /// What each printed column means (left first).
    pub columns: Sourced<Vec<Col>>,
}

/// GSP-C1: the mixed-sector rule.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MixedTable {
    /// The arm that takes the extra point of an uneven split ("infantry").
    pub extra_point_to: Sourced<super::types::Arm>,
}

/// GSP-C2: the wall-then-equipment split.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SplitTable {
    /// True: the wall receives the first (odd) pip.
    pub wall_takes_first_pip: Sourced<bool>,
}

/// GSP-C3: crews and teams.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrewTable {
    /// Combat value a crew or team defends at, per unit (3).
    pub defence_cv: Sourced<u32>,
    /// Who takes the first hit when the hit die is even ("horse"); odd gives the other.
    pub even_die_first: Sourced<CrewMember>,
}

/// GSP-S1: the siege gun.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiegeTable {
    /// Number of dice rolled for its position (2).
    pub position_dice: Sourced<u32>,
    /// The position table of Part I "Setup" (unknown: the umpire types the result).
    pub position_table: Sourced<String>,
    /// Terrain it may not be placed in.
    pub forbidden_terrain: Sourced<Vec<Terrain>>,
}

impl RuleTable for GspTables {
    const FILE: &'static str = "gsp.toml";
    const BUILTIN: &'static str = include_str!("../../../tables/gsp.toml");

    fn validate(&self, check: &Check<'_>) -> Result<(), TableError> {
        if self.system != "gsp" {
            return Err(check.error(
                0..0,
                "system",
                format!("`{}` is not this file's rule set", self.system),
                "gsp",
            ));
        }
        let r = &self.range;
        check.range(
            &r.sector_length_inches,
            "range.sector_length_inches",
            Ratio::new(1, 100),
            Ratio::int(1000),
        )?;
        check.range(
            &r.cm_per_inch,
            "range.cm_per_inch",
            Ratio::int(1),
            Ratio::int(10),
        )?;
        check.range(&r.last_sector, "range.last_sector", 1, 20)?;
        let last = r.last_sector.v();
        for gun in GunType::ALL {
            let Some(col) = self.hit_chart.get(gun) else {
                return Err(check.error(
                    0..0,
                    &format!("hit_chart.{gun}"),
                    "this gun's column is missing",
                    GunType::accepted(),
                ));
            };
            for key in col.keys() {
                if !key.parse::<u32>().is_ok_and(|s| (1..=last).contains(&s)) {
                    return Err(check.error(
                        0..0,
                        &format!("hit_chart.{gun}.{key}"),
                        format!("`{key}` is not a range sector"),
                        format!("1 to {last}"),
                    ));
                }
            }
            for sector in 1..=last {
                let field = format!("hit_chart.{gun}.{sector}");
                let Some(faces) = col.get(&sector.to_string()) else {
                    return Err(check.error(
                        0..0,
                        &field,
                        "this range sector is missing",
                        "a list of d6 faces, [] for no hit",
                    ));
                };
                if let Some(f) = faces.get().iter().find(|f| !(1..=6).contains(*f)) {
                    return Err(check.error(
                        faces.span(),
                        &field,
                        format!("{f} is not a d6 face"),
                        "faces 1 to 6",
                    ));
                }
            }
        }
        self.validate_aoa(check)?;
        for c in Cover::ALL {
            match self.cover.get(c) {
                Some(v) => check.range(v, &format!("cover.{c}"), 0, 6)?,
                None => {
                    return Err(check.error(
                        0..0,
                        &format!("cover.{c}"),
                        "this cover is missing",
                        "pips deducted, 0 to 6",
                    ));
                }
            }
        }
        for k in StructureKind::ALL {
            match self.thresholds.get(k) {
                Some(v) => check.range(v, &format!("thresholds.{k}"), 1, 1000)?,
                None => {
                    return Err(check.error(
                        0..0,
                        &format!("thresholds.{k}"),
                        "this structure's threshold is missing",
                        "accumulated pips, 1 to 1000",
                    ));
                }
            }
        }
        check.range(&self.crew.defence_cv, "crew.defence_cv", 1, 100)?;
        check.range(&self.siege.position_dice, "siege.position_dice", 1, 6)?;
        Ok(())
    }
}

impl GspTables {
    fn validate_aoa(&self, check: &Check<'_>) -> Result<(), TableError> {
        let a = &self.aoa;
        let is_perm = |v: &[Row]| v.len() == 3 && Row::ALL.iter().all(|r| v.contains(r));
        if !is_perm(a.rows.get()) {
            return Err(check.error(
                a.rows.span(),
                "aoa.rows",
                "the rows must name over, level and short once each",
                "a permutation of [\"over\", \"level\", \"short\"]",
            ));
        }
        let cols = a.columns.get();
        if !(cols.len() == 3 && Col::ALL.iter().all(|c| cols.contains(c))) {
            return Err(check.error(
                a.columns.span(),
                "aoa.columns",
                "the columns must name left, centre and right once each",
                "a permutation of [\"left\", \"centre\", \"right\"]",
            ));
        }
        let grid = a.grid.get();
        let shape_ok = grid.len() == 3 && grid.iter().all(|r| r.len() == 3);
        let mut seen: Vec<u32> = grid.iter().flatten().flatten().copied().collect();
        seen.sort_unstable();
        if !shape_ok || seen != (2..=12).collect::<Vec<u32>>() {
            return Err(check.error(
                a.grid.span(),
                "aoa.grid",
                "the grid must be 3 rows of 3 cells holding each 2d6 total 2..12 exactly once",
                "e.g. [[[2], [5], [12]], [[3], [6, 7, 8], [11]], [[4], [9], [10]]]",
            ));
        }
        Ok(())
    }

    /// GSP-A1: the faces that hit for a gun at a range sector, with their provenance.
    pub fn hit_faces(&self, gun: GunType, sector: u32) -> Result<&Sourced<Vec<u32>>, RuleError> {
        let last = self.range.last_sector.v();
        if !(1..=last).contains(&sector) {
            return Err(RuleError::input(
                "range sector",
                format!("{sector} is beyond the hit chart"),
                format!("1 to {last}"),
            ));
        }
        self.hit_chart
            .get(&gun)
            .and_then(|c| c.get(&sector.to_string()))
            .ok_or_else(|| {
                RuleError::input(
                    "hit chart",
                    format!("no entry for {gun} at sector {sector}"),
                    "a complete tables/gsp.toml",
                )
            })
    }

    /// GSP-A1: true when `face` hits for this gun at this sector (false beyond the chart).
    pub fn is_hit(&self, gun: GunType, sector: u32, face: u32) -> bool {
        self.hit_faces(gun, sector)
            .map(|f| f.get().contains(&face))
            .unwrap_or(false)
    }

    /// GSP-C1: the pips a cover deducts (0 when missing, which validation rules out).
    pub fn cover_pips(&self, cover: Cover) -> u32 {
        self.cover.get(&cover).map(Sourced::v).unwrap_or(0)
    }

    /// GSP-C1: the provenance of a cover's deduction.
    pub fn cover_provenance(&self, cover: Cover) -> Provenance {
        self.cover
            .get(&cover)
            .map(|s| s.provenance)
            .unwrap_or(Provenance::Unknown)
    }

    /// GSP-C2: the accumulated pips that destroy a structure or piece.
    pub fn threshold(&self, kind: StructureKind) -> u32 {
        self.thresholds
            .get(&kind)
            .map(Sourced::v)
            .unwrap_or(u32::MAX)
    }

    /// GSP-A3: the sector a 2d6 A.O.A. total lands in, read through the file's orientation.
    pub fn aoa_cell(&self, total: u32) -> Option<Cell> {
        let rows = self.aoa.rows.get();
        let cols = self.aoa.columns.get();
        for (i, row) in self.aoa.grid.get().iter().enumerate() {
            for (j, totals) in row.iter().enumerate() {
                if totals.contains(&total) {
                    return Some(Cell::new(*rows.get(i)?, *cols.get(j)?));
                }
            }
        }
        None
    }

    /// GSP-A3: where every 2d6 total lands, indexed by the total (0 and 1 are never rolled): the
    /// grid read once for callers that need all eleven.
    pub fn aoa_landings(&self) -> [Option<Cell>; 13] {
        let mut land = [None; 13];
        for (t, l) in land.iter_mut().enumerate().skip(2) {
            *l = self.aoa_cell(t as u32);
        }
        land
    }

    /// GSP-A3: the 2d6 totals that land in a sector (read through the file's orientation).
    pub fn aoa_totals(&self, cell: Cell) -> Vec<u32> {
        (2..=12)
            .filter(|t| self.aoa_cell(*t) == Some(cell))
            .collect()
    }

    /// GSP-A3: the provenance of the grid's reading (the weaker of grid, rows and columns).
    pub fn aoa_provenance(&self) -> Provenance {
        self.aoa
            .grid
            .provenance
            .weakest(self.aoa.rows.provenance)
            .weakest(self.aoa.columns.provenance)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_loads_and_reads_the_grid() {
        let t = kepi_game::tables::builtin::<crate::gsp::GspTables>();
        assert_eq!(t.aoa_cell(7), Some(Cell::OnTarget));
        assert_eq!(t.aoa_cell(2), Some(Cell::OverLeft));
        assert_eq!(t.aoa_cell(10), Some(Cell::ShortRight));
        assert_eq!(t.aoa_cell(1), None);
        assert_eq!(t.aoa_totals(Cell::OnTarget), vec![6, 7, 8]);
    }

    #[test]
    fn a_turned_grid_is_read_through_its_orientation() {
        let src = GspTables::BUILTIN.replace(
            "rows = { value = [\"over\", \"level\", \"short\"]",
            "rows = { value = [\"short\", \"level\", \"over\"]",
        );
        let t = GspTables::from_source("club.toml", &src).unwrap();
        assert_eq!(t.aoa_cell(2), Some(Cell::ShortLeft));
        assert_eq!(t.aoa_cell(10), Some(Cell::OverRight));
    }

    #[test]
    fn bad_tables_name_the_field_and_line() {
        let src = GspTables::BUILTIN.replace("[[[2], [5], [12]]", "[[[2], [5], [2]]");
        let e = GspTables::from_source("club.toml", &src).unwrap_err();
        assert_eq!(e.field, "aoa.grid");
        assert!(e.line > 1, "{e}");
        let src =
            GspTables::BUILTIN.replace("1 = { value = [2, 3, 4, 5, 6]", "1 = { value = [2, 7]");
        let e = GspTables::from_source("club.toml", &src).unwrap_err();
        assert_eq!(e.field, "hit_chart.mitrailleuse.1", "{e}");
        let src = GspTables::BUILTIN.replace("wall = { value = 5,", "wall = { value = 0,");
        let e = GspTables::from_source("club.toml", &src).unwrap_err();
        assert_eq!(e.field, "thresholds.wall", "{e}");
    }
}
