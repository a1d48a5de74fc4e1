//! `kepi resolve pw ...`: the Portable Wargame variant's d6 mechanics, each resolved by the same pure
//! function the window calls (see [`crate::pw`]).
//!
//! Outcome JSON: `activate` → `{"score", "active", "roll", "needs"}`; `artillery` and `rifle` →
//! `{"score", "hits", "roll", "needs"}`; `melee` → `{"score", "hits", "roll", "needs"}` (one side's
//! roll: both sides roll); `defeat` → `{"defeated", "by_sp", "by_units"}`; `first-side` →
//! `{"first", "roll"}`.

use clap::Subcommand;

use crate::pw::{
    self, ActivationInput, Army, ArtilleryInput, DefeatInput, Gunnery, MeleeInput, Quality,
    RifleInput, Side, UnitKind, UnitType,
};
use kepi_game::engine::verbs::Ctx;
use kepi_game::engine::verbs::MoveError;
use kepi_game::rules::Resolution;
use kepi_game::rules::limits;

/// The pw actions.
#[derive(Debug, Subcommand)]
pub enum PwAction {
    /// PW-T2: roll to activate a unit (d6 against 2 for Prussians and Garibaldi's Redshirts, 3 for
    /// all others).
    Activate {
        /// Whose staff work: prussian, garibaldi, french or german (non-Prussian German).
        #[arg(long)]
        army: Army,
        /// The unit's quality: elite (+1), normal, poor (-1).
        #[arg(long, default_value = "normal")]
        quality: Quality,
    },
    /// PW-A1: a battery fires (d6 needing 4).
    Artillery {
        /// Whose guns: prussian, french-imperial, french-republican or german (non-Prussian).
        #[arg(long)]
        army: Gunnery,
        /// The battery's strength points (1-20).
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::PW_SP), allow_negative_numbers = true)]
        sp: u32,
        /// The target is in cover (-1).
        #[arg(long)]
        target_cover: bool,
        /// Hexes to the target, checked against the guns' range (PW-G1).
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::HEXES), allow_negative_numbers = true, value_name = "HEXES")]
        range: Option<u32>,
    },
    /// PW-R1: infantry fire (d6 needing 4).
    Rifle {
        /// The firers' strength points (1-20).
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::PW_SP), allow_negative_numbers = true)]
        sp: u32,
        /// The firers moved this turn (-1).
        #[arg(long)]
        moved: bool,
        /// The target is in cover (-1).
        #[arg(long)]
        target_cover: bool,
        /// The firers' type (french-infantry, german-infantry), to check --range (PW-U1).
        #[arg(long, value_name = "TYPE")]
        unit: Option<UnitType>,
        /// Hexes to the target, checked against the firers' range (PW-G1); needs --unit.
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::HEXES), allow_negative_numbers = true, value_name = "HEXES")]
        range: Option<u32>,
    },
    /// PW-X1: one side's melee roll (d6 needing 4; modified 8+ two hits). Both sides roll.
    Melee {
        /// The arm rolling: infantry, cavalry or artillery.
        #[arg(long)]
        unit: UnitKind,
        /// Its strength points (1-20).
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::PW_SP), allow_negative_numbers = true)]
        sp: u32,
        /// The arm it fights: infantry, cavalry or artillery.
        #[arg(long)]
        enemy: UnitKind,
        /// It attacks through the enemy's flank or rear hexsides (+1).
        #[arg(long)]
        attacking_flank: bool,
        /// It is attacked through its own flank or rear hexsides (-1).
        #[arg(long)]
        attacked_flank: bool,
        /// The enemy stands uphill (-1).
        #[arg(long)]
        enemy_uphill: bool,
        /// The enemy is in cover (-1).
        #[arg(long)]
        enemy_cover: bool,
    },
    /// PW-V1: is an army defeated (more than half its SP or more than half its units lost)? No dice.
    Defeat {
        /// Strength points lost.
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::ARMY_SP), allow_negative_numbers = true)]
        sp_lost: u32,
        /// Strength points at the start.
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::ARMY_SP), allow_negative_numbers = true)]
        sp_total: u32,
        /// Units lost.
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::UNITS), allow_negative_numbers = true)]
        units_lost: u32,
        /// Units at the start.
        #[arg(long, value_parser = kepi_game::engine::verbs::num::within::<u32>(limits::UNITS), allow_negative_numbers = true)]
        units_total: u32,
    },
    /// PW-T1: who takes the first half-turn (the defender goes second; otherwise dice for it).
    FirstSide {
        /// The side obviously on the defensive (a or b); omit to dice for it.
        #[arg(long)]
        defender: Option<Side>,
    },
}

/// Resolves one pw action.
pub fn run(action: &PwAction, ctx: Ctx<'_>) -> Result<Resolution<serde_json::Value>, MoveError> {
    let t = ctx.tables.get::<crate::pw::PwTables>();
    let dice = ctx.dice;
    Ok(match action {
        PwAction::Activate { army, quality } => pw::activate(
            &ActivationInput {
                army: *army,
                quality: *quality,
            },
            t,
            dice,
        )?
        .erase(),
        PwAction::Artillery {
            army,
            sp,
            target_cover,
            range,
        } => pw::artillery(
            &ArtilleryInput {
                army: *army,
                sp: *sp,
                target_cover: *target_cover,
                range: *range,
            },
            t,
            dice,
        )
        .map_err(flag_error)?
        .erase(),
        PwAction::Rifle {
            sp,
            moved,
            target_cover,
            unit,
            range,
        } => pw::rifle(
            &RifleInput {
                sp: *sp,
                moved: *moved,
                target_cover: *target_cover,
                firer: *unit,
                range: *range,
            },
            t,
            dice,
        )
        .map_err(flag_error)?
        .erase(),
        PwAction::Melee {
            unit,
            sp,
            enemy,
            attacking_flank,
            attacked_flank,
            enemy_uphill,
            enemy_cover,
        } => pw::melee(
            &MeleeInput {
                unit: *unit,
                sp: *sp,
                enemy: *enemy,
                attacking_flank: *attacking_flank,
                attacked_flank: *attacked_flank,
                enemy_uphill: *enemy_uphill,
                enemy_cover: *enemy_cover,
            },
            t,
            dice,
        )
        .map_err(flag_error)?
        .erase(),
        PwAction::Defeat {
            sp_lost,
            sp_total,
            units_lost,
            units_total,
        } => pw::defeat(&DefeatInput {
            sp_lost: *sp_lost,
            sp_total: *sp_total,
            units_lost: *units_lost,
            units_total: *units_total,
        })
        .map_err(flag_error)?
        .erase(),
        PwAction::FirstSide { defender } => pw::first_side(*defender, t, dice)?.erase(),
    })
}

/// A rule's input error, named as the flag the user typed ("--sp: ...").
fn flag_error(e: kepi_game::rules::RuleError) -> MoveError {
    match e {
        kepi_game::rules::RuleError::Input {
            field,
            message,
            accepted,
        } => MoveError::usage(format!("--{field}: {message} (accepted: {accepted})")),
        other => other.into(),
    }
}
