//! `kepi resolve fr1870 ...`: 1870 combat and storming a fortress.
//!
//! `combat` JSON outcome: `{"odds": "1:2", "result": "AD,DD" | null, "message"?, "valid_results"?,
//! "die", "modified_die", "attack", "defence", "entered", "effects"}`; `storm`: `{"taken", "die"}`.

use clap::Subcommand;

use super::Ctx;
use crate::moves::MoveError;
use crate::rules::Resolution;
use crate::rules::fr1870::{self, Arm, FrCombatInput, FrUnit, StormInput};
use crate::rules::limits;

/// The fr1870 actions.
#[derive(Debug, Subcommand)]
pub enum Fr1870Action {
    /// Resolve one combat (FR-C1, FR-C2, FR-S1, FR-F1).
    Combat {
        /// Total attacking combat potential (printed).
        #[arg(long, value_parser = crate::moves::num::within::<u32>(limits::STRENGTH), allow_negative_numbers = true, value_name = "N")]
        attack: u32,
        /// Total defending combat potential (printed, terrain already counted).
        #[arg(long, value_parser = crate::moves::num::within::<u32>(limits::STRENGTH), allow_negative_numbers = true, value_name = "N")]
        defend: u32,
        /// Die correction from your Terrain Table (not in the seed), e.g. -1.
        #[arg(
            long, value_parser = crate::moves::num::within::<i32>(limits::DIE_MOD),
            value_name = "N",
            default_value_t = 0,
            allow_negative_numbers = true
        )]
        die_mod: i32,
        /// FR-S1: the attackers are not supplied (halved, rounded down).
        #[arg(long)]
        attacker_unsupplied: bool,
        /// FR-S1: the defenders are not supplied (halved, rounded up).
        #[arg(long)]
        defender_unsupplied: bool,
        /// FR-S1: the attackers are disorganised (halved; a second D eliminates them).
        #[arg(long)]
        attacker_disorganised: bool,
        /// FR-S1: the defenders are disorganised.
        #[arg(long)]
        defender_disorganised: bool,
        /// FR-F1: the defender is a besieger (die -1).
        #[arg(long)]
        besieger_defending: bool,
        /// FR-F1: besieged against besiegers (DR has no effect).
        #[arg(long)]
        siege: bool,
        /// FR-F1: the besiegers assault the fortress (taken only on E or DE).
        #[arg(long)]
        assault: bool,
        /// FR-C2: the defenders cannot retreat (blocked, full stack, off the map): a retreat eliminates.
        #[arg(long)]
        no_retreat: bool,
        /// The result read off your printed CRT when kepi does not know the cell ("AD", "AD,DD").
        #[arg(long, value_name = "RESULT")]
        result: Option<String>,
    },
    /// FR-F1: storm an unoccupied enemy fortress of value 1 from the move (d6 4-6 taken).
    Storm {
        /// The fortress's value (only 1 can be stormed).
        #[arg(long, value_parser = crate::moves::num::within::<u32>(limits::FORTRESS_VALUE), allow_negative_numbers = true, value_name = "N", default_value_t = 1)]
        value: u32,
        /// The fortress is occupied (cannot be stormed).
        #[arg(long)]
        occupied: bool,
        /// The storming unit is cavalry (only infantry may storm).
        #[arg(long)]
        cavalry: bool,
    },
}

/// Resolves one fr1870 action.
pub fn run(
    action: &Fr1870Action,
    ctx: Ctx<'_>,
) -> Result<Resolution<serde_json::Value>, MoveError> {
    let t = &ctx.tables.fr1870;
    match action {
        Fr1870Action::Combat {
            attack,
            defend,
            die_mod,
            attacker_unsupplied,
            defender_unsupplied,
            attacker_disorganised,
            defender_disorganised,
            besieger_defending,
            siege,
            assault,
            no_retreat,
            result,
        } => {
            if *attack == 0 {
                return Err(MoveError::usage(
                    "--attack: 0 is no attack (accepted: 1 or more)",
                ));
            }
            if *defend == 0 {
                return Err(MoveError::usage(
                    "--defend: 0 is no defence (accepted: 1 or more)",
                ));
            }
            let mk = |p: u32, unsupplied: bool, dis: bool, retreat: bool| FrUnit {
                name: None,
                potential: p,
                arm: Arm::Infantry,
                disorganised: dis,
                supplied: !unsupplied,
                fortress_multiplied: false,
                can_retreat: retreat,
            };
            let input = FrCombatInput {
                attackers: vec![mk(
                    *attack,
                    *attacker_unsupplied,
                    *attacker_disorganised,
                    true,
                )],
                defenders: vec![mk(
                    *defend,
                    *defender_unsupplied,
                    *defender_disorganised,
                    !no_retreat,
                )],
                fortress: None,
                die_mod: *die_mod,
                besieger_defending: *besieger_defending,
                siege_combat: *siege || *assault,
                assault: *assault,
            };
            Ok(fr1870::combat_with_result(&input, t, ctx.dice, result.as_deref())?.erase())
        }
        Fr1870Action::Storm {
            value,
            occupied,
            cavalry,
        } => {
            let input = StormInput {
                value: *value,
                occupied: *occupied,
                infantry: !cavalry,
            };
            Ok(fr1870::storm(&input, t, ctx.dice)?.erase())
        }
    }
}
