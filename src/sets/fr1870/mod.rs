//! 1870 (French board game, 3-day turns): odds-ratio combat, fortresses, blockades, situations.
//!
//! [`combat`] resolves one combat (FR-C1, FR-C2, FR-S1, FR-F1) through the shared CRT engine; only
//! part of the CRT is printed in the seed, so the rest is `unknown` and a roll into it asks the umpire.
//! [`blockade`] is the blockade calendar as a state machine (FR-B1); [`mechanics`] holds the calendar
//! (FR-T1), storming (FR-F1), cavalry refusing combat (FR-C3), R counters and stacking (FR-R1) and the
//! five situations (FR-L1); [`siege`] lays a siege, moves a marker at the end of a turn and totals
//! a situation's points, the resolutions `kepi game apply` plays (`siege`, `blockade`, `points`);
//! [`transport`] carries a unit by railway (FR-G1) or by sea (FR-K1).

pub mod blockade;
pub mod board;
pub mod card;
mod checklist;
mod checks;
pub mod combat;
pub mod combat_form;
pub mod form;
pub mod grammar;
pub mod marks;
pub mod mechanics;
mod moves;
#[cfg(feature = "gui")]
pub mod panel;
pub mod set;
pub mod siege;
pub mod transport;
pub mod verbs;

use std::collections::BTreeMap;

use serde::Deserialize;

pub use blockade::{Blockade, BlockadeEvent, BlockadeKind, BlockadeStep, TurnEnd};
pub use combat::{
    Fate, FortressRole, FrCell, FrCombatInput, FrCombatOutcome, FrEffects, FrFortress, FrResult,
    FrUnit, GarrisonChoice, apply_result, cavalry_refusal, cavalry_refuses, combat,
    combat_with_result, garrison,
};
pub use mechanics::*;

use kepi_game::rules::crt::{CrtCells, validate_cells};
use kepi_game::tables::{Check, RuleTable, Sourced, TableError};

/// The 1870 tables (`tables/fr1870.toml`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fr1870Tables {
    /// The rule set id, "fr1870".
    pub system: String,
    /// FR-T1.
    pub calendar: FrCalendarTable,
    /// FR-C1, FR-S1, FR-F1 numbers.
    pub combat: FrCombatTable,
    /// FR-F1.
    pub fortress: FrFortressTable,
    /// FR-R1.
    pub stacking: FrStackingTable,
    /// FR-B1.
    pub blockade: FrBlockadeTable,
    /// FR-L1.
    pub situations: Vec<Situation>,
    /// FR-C1: the CRT (row = force ratio, column = modified die).
    pub crt: CrtCells,
}

/// FR-T1.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrCalendarTable {
    /// Days per turn (3).
    pub days_per_turn: Sourced<u32>,
    /// First cell of the bad season (44).
    pub bad_season_cell: Sourced<u32>,
}

/// FR-C1 and friends.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrCombatTable {
    /// Lowest printed die column (-1).
    pub die_min: Sourced<i32>,
    /// Highest printed die column (6).
    pub die_max: Sourced<i32>,
    /// Worst printed row, 1 vs n (3).
    pub lowest_row: Sourced<u32>,
    /// Best printed row, n vs 1 (6).
    pub highest_row: Sourced<u32>,
    /// Result below the table (AE).
    pub below_table: Sourced<String>,
    /// Result above the table (DE).
    pub above_table: Sourced<String>,
    /// FR-S1: unsupplied divisor (2).
    pub unsupplied_divisor: Sourced<u32>,
    /// FR-S1: disorganised divisor (2).
    pub disorganised_divisor: Sourced<u32>,
    /// FR-F1: the besieger's defensive die modifier (-1).
    pub besieger_defence_die: Sourced<i32>,
    /// The Terrain Table (not in the seed).
    pub terrain_table: Sourced<String>,
}

/// FR-F1.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrFortressTable {
    /// Highest value that can be stormed from the move (1).
    pub storm_max_value: Sourced<u32>,
    /// Lowest die that takes it (4).
    pub storm_taken_from: Sourced<u32>,
    /// Highest coefficient (3).
    pub max_coefficient: Sourced<u32>,
}

/// FR-R1.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrStackingTable {
    /// Units per cell (4).
    pub limit: Sourced<u32>,
}

/// FR-B1.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrBlockadeTable {
    /// Metz's starting cell by garrison size.
    pub metz: Vec<MetzBand>,
    /// Cells from each starting cell to SURRENDER (unknown in the seed).
    pub steps_to_surrender: BTreeMap<String, Sourced<u32>>,
}

/// FR-B1: one Metz starting cell and its garrison range.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MetzBand {
    /// "M1".."M4".
    pub cell: String,
    /// Fewest units.
    pub min: Sourced<u32>,
    /// Most units.
    pub max: Sourced<u32>,
}

/// FR-L1: a starting situation.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Situation {
    /// 1-5.
    pub number: u32,
    /// Its title.
    pub name: String,
    /// Calendar cell of the first turn (D1..D5).
    pub start_cell: Sourced<u32>,
    /// Calendar cell of the last turn (F1..F5).
    pub end_cell: Sourced<u32>,
    /// Number of turns.
    pub turns: Sourced<u32>,
    /// French reinforcement option, "P" or "H".
    pub french_option: String,
    /// Places with a siege marker at the start.
    #[serde(default)]
    pub sieges: Vec<String>,
    /// Starting cell of the blockade marker, if any.
    #[serde(default)]
    pub blockade: Option<String>,
    /// Points per enemy unit eliminated (situations 2-5).
    #[serde(default)]
    pub points_per_enemy_unit_eliminated: Option<Sourced<u32>>,
    /// Conditional points (situation 1).
    #[serde(default)]
    pub points: Vec<SituationPoints>,
}

/// FR-L1: points for a condition at the end of the game.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SituationPoints {
    /// Who scores.
    pub side: kepi_game::rules::crt::Nation,
    /// How many.
    pub points: Sourced<u32>,
    /// The condition as printed.
    pub condition: String,
}

impl RuleTable for Fr1870Tables {
    const FILE: &'static str = "fr1870.toml";
    const BUILTIN: &'static str = include_str!("../../../tables/fr1870.toml");

    fn validate(&self, check: &Check<'_>) -> Result<(), TableError> {
        if self.system != "fr1870" {
            return Err(check.error(
                0..0,
                "system",
                format!("`{}` is not this file's rule set", self.system),
                "fr1870",
            ));
        }
        check.range(
            &self.calendar.days_per_turn,
            "calendar.days_per_turn",
            1,
            30,
        )?;
        check.range(
            &self.calendar.bad_season_cell,
            "calendar.bad_season_cell",
            1,
            1000,
        )?;
        let c = &self.combat;
        check.range(&c.die_min, "combat.die_min", -10, 1)?;
        check.range(&c.die_max, "combat.die_max", 6, 20)?;
        check.range(&c.lowest_row, "combat.lowest_row", 1, 20)?;
        check.range(&c.highest_row, "combat.highest_row", 1, 20)?;
        check.range(&c.unsupplied_divisor, "combat.unsupplied_divisor", 1, 10)?;
        check.range(
            &c.disorganised_divisor,
            "combat.disorganised_divisor",
            1,
            10,
        )?;
        check.range(
            &c.besieger_defence_die,
            "combat.besieger_defence_die",
            -6,
            6,
        )?;
        for (v, f) in [
            (&c.below_table, "combat.below_table"),
            (&c.above_table, "combat.above_table"),
        ] {
            if v.get().parse::<FrCell>().is_err() {
                return Err(check.error(
                    v.span(),
                    f,
                    format!("`{}` is not a result", v.get()),
                    FrResult::ACCEPTED,
                ));
            }
        }
        check.range(
            &self.fortress.storm_max_value,
            "fortress.storm_max_value",
            0,
            3,
        )?;
        check.range(
            &self.fortress.storm_taken_from,
            "fortress.storm_taken_from",
            1,
            7,
        )?;
        check.range(
            &self.fortress.max_coefficient,
            "fortress.max_coefficient",
            1,
            10,
        )?;
        check.range(&self.stacking.limit, "stacking.limit", 1, 20)?;
        for (i, b) in self.blockade.metz.iter().enumerate() {
            check.range(&b.max, &format!("blockade.metz[{i}].max"), b.min.v(), 1000)?;
        }
        for (k, v) in &self.blockade.steps_to_surrender {
            check.range(v, &format!("blockade.steps_to_surrender.\"{k}\""), 0, 200)?;
        }
        for (i, s) in self.situations.iter().enumerate() {
            check.range(
                &s.end_cell,
                &format!("situations[{i}].end_cell"),
                s.start_cell.v(),
                1000,
            )?;
            let turns = s.end_cell.v() - s.start_cell.v() + 1;
            check.range(&s.turns, &format!("situations[{i}].turns"), turns, turns)?;
            if !matches!(s.french_option.as_str(), "P" | "H") {
                return Err(check.error(
                    s.start_cell.span(),
                    &format!("situations[{i}].french_option"),
                    format!("`{}` is not an option", s.french_option),
                    "P or H",
                ));
            }
        }
        validate_cells::<FrCell>(
            &self.crt,
            check,
            "crt",
            c.die_min.v(),
            c.die_max.v(),
            FrResult::ACCEPTED,
        )
    }
}

/// 1870 (odds-ratio CRT). Its id, what saves and cards carry as `system`.
pub const ID: kepi_game::rules::RuleSetId = kepi_game::rules::RuleSetId::new_registered("fr1870");
