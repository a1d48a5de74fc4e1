//! SPI Franco-Prussian War (Aug 1 - Sep 2 1870): odds-ratio combat and the campaign's mechanics.
//!
//! [`combat`] resolves an attack on one hex (SPI-C1..C5, SPI-S1, SPI-F1, SPI-H1, SPI-H2) through the
//! shared CRT engine ([`kepi_game::rules::crt`]); the CRT itself is not in the seed, so every cell is
//! `unknown` until a club enters it and a roll into it asks the umpire for the printed result.
//! [`mechanics`] holds the rest: calendar, flanking geometry, supply, fortifications, unit
//! reduction, formation status, orders of battle, EB river rolls and victory.

pub mod card;
mod checklist;
mod checks;
pub mod combat;
pub mod combat_form;
pub mod form;
pub mod grammar;
pub mod marks;
pub mod mechanics;
pub mod movement;
pub mod moves;
#[cfg(feature = "gui")]
pub mod panel;
pub mod set;
pub mod supply;
pub mod verbs;
pub mod victory;

use std::collections::BTreeMap;

use serde::Deserialize;

pub use combat::{
    SpiCombatInput, SpiCombatOutcome, SpiLoss, SpiResult, SpiUnit, combat, combat_with_result,
};
pub use mechanics::*;

use kepi_game::rules::crt::{CrtCells, validate_cells};
use kepi_game::tables::{Check, RuleTable, Sourced, TableError};

/// The SPI Franco-Prussian War tables (`tables/spi.toml`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpiTables {
    /// The rule set id, "spi".
    pub system: String,
    /// SPI-T1: length of the game and of a turn.
    pub calendar: SpiCalendarTable,
    /// Combat multipliers and die modifiers.
    pub combat: SpiCombatTable,
    /// SPI-S1: supply path lengths.
    pub supply: SpiSupplyTable,
    /// SPI-E1: the EB river roll.
    pub eb: SpiEbTable,
    /// SPI-H2: formation status.
    pub formation: SpiFormationTable,
    /// SPI-W1: victory points and levels.
    pub victory: SpiVictoryTable,
    /// SPI-F1: the Fortification Initial Placement Chart (town -> initial strength).
    pub forts: BTreeMap<String, Sourced<u32>>,
    /// SPI-O1: the printed letter-number codes of the orders of battle.
    pub oob: SpiOobTable,
    /// SPI-I1: initial forces and reinforcements as unit-card data.
    pub forces: Vec<ForceRow>,
    /// SPI-C1: the CRT (all `unknown` in the seed).
    pub crt: CrtCells,
}

/// SPI-T1.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpiCalendarTable {
    /// Game-turns (11).
    pub turns: Sourced<u32>,
    /// Days per game-turn (3).
    pub days_per_turn: Sourced<u32>,
}

/// Combat multipliers (as divisors/multipliers) and die modifiers.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpiCombatTable {
    /// SPI-C3: flanking attack multiplier (2).
    pub flank_multiplier: Sourced<u32>,
    /// SPI-F1: defence multiplier of units in a fort (2).
    pub fort_multiplier: Sourced<u32>,
    /// SPI-S1: unsupplied divisor (2).
    pub unsupplied_divisor: Sourced<u32>,
    /// SPI-S1: isolated defence divisor (2).
    pub isolated_defence_divisor: Sourced<u32>,
    /// SPI-H1: hasty attack divisor (2).
    pub hasty_divisor: Sourced<u32>,
    /// SPI-H2: extended formation divisor (2).
    pub extended_divisor: Sourced<u32>,
    /// SPI-C5: entrained defence divisor (2).
    pub entrained_divisor: Sourced<u32>,
    /// SPI-C5: defender in rough terrain, die +1.
    pub rough_die: Sourced<i32>,
    /// SPI-C5: all attackers through ridge hexsides, die +1.
    pub ridge_die: Sourced<i32>,
    /// SPI-C5: all attackers through river hexsides, die +1.
    pub river_die: Sourced<i32>,
}

/// SPI-S1 path lengths.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpiSupplyTable {
    /// Longest path for "supplied" (10 hexes).
    pub supplied_max_hexes: Sourced<u32>,
    /// Longest path for "unsupplied" (25 hexes).
    pub unsupplied_max_hexes: Sourced<u32>,
    /// Standard Game: CP an isolated unit loses per friendly movement phase (1).
    pub isolated_loss_per_phase: Sourced<u32>,
}

/// SPI-E1.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpiEbTable {
    /// Highest die with which the EB unit continues (3).
    pub continue_max: Sourced<u32>,
}

/// SPI-H2.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpiFormationTable {
    /// Movement points to change formation (4).
    pub change_cost_mp: Sourced<u32>,
}

/// SPI-W1.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpiVictoryTable {
    /// VP per enemy CP destroyed (5).
    pub vp_per_cp_destroyed: Sourced<i64>,
    /// VP per enemy CP isolated at the end (3).
    pub vp_per_cp_isolated: Sourced<i64>,
    /// French VP per hex of penetration into Germany (50).
    pub french_vp_per_hex: Sourced<i64>,
    /// German VP per CP exited off the west edge (10).
    pub german_vp_per_cp_exited: Sourced<i64>,
    /// Smallest row award for the most advanced German unit (10).
    pub german_row_min: Sourced<i64>,
    /// Largest row award (184).
    pub german_row_max: Sourced<i64>,
    /// The highest net VP of each level but the last (German Decisive: anything above).
    pub max_net: BTreeMap<VictoryLevel, Sourced<i64>>,
}

/// SPI-O1: the printed codes, letter -> number.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpiOobTable {
    /// German orders of battle A-F.
    pub german: BTreeMap<String, Sourced<u32>>,
    /// French orders of battle G-M.
    pub french: BTreeMap<String, Sourced<u32>>,
}

/// SPI-I1: one row of the initial forces or reinforcement chart (a kind of counter, with a count).
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct ForceRow {
    /// Nation.
    pub nation: Nation,
    /// The variable order of battle (A-F, G-M) this row belongs to; none for the Basic/Standard Game.
    #[serde(default)]
    pub oob: Option<String>,
    /// How many counters; none means "any quantity".
    #[serde(default)]
    pub count: Option<u32>,
    /// Combat unit, dummy, EB unit or loose combat points.
    pub kind: ForceKind,
    /// Combat strength of each counter (0 for dummies and EB units).
    pub strength: u32,
    /// Town, hex or area as printed.
    pub place: String,
    /// Game-turn of arrival; 0 for the initial placement.
    pub turn: u32,
    /// Enters the map entrained.
    #[serde(default)]
    pub entrained: bool,
    /// Where the row comes from.
    pub provenance: kepi_game::tables::Provenance,
    /// The printed line.
    #[serde(default)]
    pub quote: Option<String>,
}

/// What a force row counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ForceKind {
    /// A combat unit (corps).
    Combat,
    /// A dummy counter (Standard Game).
    Dummy,
    /// An EB (railway repair) unit.
    Eb,
    /// Loose combat points to raise existing units.
    CombatPoints,
}

impl RuleTable for SpiTables {
    const FILE: &'static str = "spi.toml";
    const BUILTIN: &'static str = include_str!("../../../tables/spi.toml");

    fn validate(&self, check: &Check<'_>) -> Result<(), TableError> {
        if self.system != "spi" {
            return Err(check.error(
                0..0,
                "system",
                format!("`{}` is not this file's rule set", self.system),
                "spi",
            ));
        }
        check.range(&self.calendar.turns, "calendar.turns", 1, 100)?;
        check.range(
            &self.calendar.days_per_turn,
            "calendar.days_per_turn",
            1,
            30,
        )?;
        let c = &self.combat;
        for (v, f) in [
            (&c.flank_multiplier, "combat.flank_multiplier"),
            (&c.fort_multiplier, "combat.fort_multiplier"),
            (&c.unsupplied_divisor, "combat.unsupplied_divisor"),
            (
                &c.isolated_defence_divisor,
                "combat.isolated_defence_divisor",
            ),
            (&c.hasty_divisor, "combat.hasty_divisor"),
            (&c.extended_divisor, "combat.extended_divisor"),
            (&c.entrained_divisor, "combat.entrained_divisor"),
        ] {
            check.range(v, f, 1, 10)?;
        }
        for (v, f) in [
            (&c.rough_die, "combat.rough_die"),
            (&c.ridge_die, "combat.ridge_die"),
            (&c.river_die, "combat.river_die"),
        ] {
            check.range(v, f, -6, 6)?;
        }
        check.range(
            &self.supply.supplied_max_hexes,
            "supply.supplied_max_hexes",
            0,
            200,
        )?;
        check.range(
            &self.supply.unsupplied_max_hexes,
            "supply.unsupplied_max_hexes",
            self.supply.supplied_max_hexes.v(),
            500,
        )?;
        check.range(
            &self.supply.isolated_loss_per_phase,
            "supply.isolated_loss_per_phase",
            0,
            10,
        )?;
        check.range(&self.eb.continue_max, "eb.continue_max", 0, 6)?;
        check.range(
            &self.formation.change_cost_mp,
            "formation.change_cost_mp",
            0,
            20,
        )?;
        let v = &self.victory;
        for (x, f) in [
            (&v.vp_per_cp_destroyed, "victory.vp_per_cp_destroyed"),
            (&v.vp_per_cp_isolated, "victory.vp_per_cp_isolated"),
            (&v.french_vp_per_hex, "victory.french_vp_per_hex"),
            (
                &v.german_vp_per_cp_exited,
                "victory.german_vp_per_cp_exited",
            ),
            (&v.german_row_min, "victory.german_row_min"),
            (&v.german_row_max, "victory.german_row_max"),
        ] {
            check.range(x, f, 0, 10_000)?;
        }
        let mut last: Option<i64> = None;
        for &level in VictoryLevel::ALL {
            match (v.max_net.get(&level), level) {
                (None, VictoryLevel::GermanDecisive) => {}
                (Some(x), VictoryLevel::GermanDecisive) => {
                    return Err(check.error(
                        x.span(),
                        "victory.max_net.german-decisive",
                        "the last level has no maximum",
                        "remove this line",
                    ));
                }
                (None, l) => {
                    return Err(check.error(
                        0..0,
                        &format!("victory.max_net.{}", l.id()),
                        "missing",
                        "the level's highest net VP",
                    ));
                }
                (Some(x), l) => {
                    if let Some(prev) = last {
                        check.range(
                            x,
                            &format!("victory.max_net.{}", l.id()),
                            prev + 1,
                            i64::MAX,
                        )?;
                    }
                    last = Some(x.v());
                }
            }
        }
        for (name, f) in &self.forts {
            check.range(f, &format!("forts.{name}"), 0, 50)?;
        }
        validate_oob(&self.oob.german, &GERMAN_OOB, "oob.german", check)?;
        validate_oob(&self.oob.french, &FRENCH_OOB, "oob.french", check)?;
        validate_cells::<SpiResult>(&self.crt, check, "crt", -5, 12, SpiResult::ACCEPTED)?;
        Ok(())
    }
}

fn validate_oob(
    m: &BTreeMap<String, Sourced<u32>>,
    letters: &[&str; 6],
    field: &str,
    check: &Check<'_>,
) -> Result<(), TableError> {
    let mut seen = [false; 6];
    for l in letters {
        let Some(v) = m.get(*l) else {
            return Err(check.error(0..0, &format!("{field}.{l}"), "missing", "a number 1-6"));
        };
        check.range(v, &format!("{field}.{l}"), 1, 6)?;
        let i = (v.v() as usize).saturating_sub(1).min(5);
        if seen[i] {
            return Err(check.error(
                v.span(),
                &format!("{field}.{l}"),
                format!("number {} is used twice", v.v()),
                "each number 1-6 once",
            ));
        }
        seen[i] = true;
    }
    if let Some(k) = m.keys().find(|k| !letters.contains(&k.as_str())) {
        return Err(check.error(
            0..0,
            &format!("{field}.{k}"),
            "not an order of battle",
            letters.join(", "),
        ));
    }
    Ok(())
}

/// SPI Franco-Prussian War (odds-ratio CRT). Its id, what saves and cards carry as `system`.
pub const ID: kepi_game::rules::RuleSetId = kepi_game::rules::RuleSetId::new_registered("spi");
