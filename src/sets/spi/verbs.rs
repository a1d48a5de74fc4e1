//! SPI's resolution verbs of `kepi game apply` (`combat`, `raise`, `eb`, `entrain`, `detrain`,
//! `formation`): each names its units (a combat its attackers and the hex attacked) and lays the
//! options of its `kepi resolve spi` action ([`super::grammar`]) over the form pre-filled from them.

use clap::Args;

use crate::board::verbs::{HexOpt, combat_overlay, engage};
use crate::spi::combat_form::SpiForm;
use crate::spi::{Formation as SpiFormation, SpiCombatInput, SupplyState};
use kepi_game::engine::play::Form;
use kepi_game::engine::verbs::{
    Given, MoveError, Units, VerbSpec, no_extra, no_options, set, set_some,
};
use kepi_game::rules::Tables;

/// SPI-C2 and SPI-R1: the units of one attack on one hex, and the owners' split of its losses.
#[derive(Debug, Args)]
struct SpiHexOpt {
    #[command(flatten)]
    hex: HexOpt,
    /// SPI-R1: how each owner spreads the combat points the result takes, UNIT=N,... (unit ids of
    /// the attackers or of the units in --hex; a fortification may take them). A side's numbers
    /// must add up to its loss; a side not named loses in kepi's order (first unit first).
    #[arg(long, value_name = "UNIT=N,...", value_delimiter = ',')]
    losses: Vec<String>,
}

/// SPI's resolution verbs, one per form of [`super::set::SpiRules`].
pub static SPECS: &[VerbSpec] = &[
    VerbSpec {
        verb: "combat",
        aliases: &[],
        form: "combat",
        resolve: "combat",
        units: Units::Hex(engage::<SpiForm>),
        required: &[],
        // `--attack` is a hasty attack's allocation (SPI-H1 Case O), read by [`spi_situation`].
        refused: &[("defend", "the defence comes from the enemy units in --hex")],
        extra: <SpiHexOpt as Args>::augment_args,
        what: "one attack on one hex (SPI-C1..C5, S1, F1, H1, H2; losses SPI-R1, --losses); on \
               a game's map, rough terrain and all attacking through ridge or river hexsides \
               are read from it (SPI-C5): --rough, --ridge, --river set one, --rough=off, \
               --ridge=off, --river=off clear one the map gives",
        overlay: spi_combat,
    },
    VerbSpec {
        verb: "raise",
        aliases: &[],
        form: "raise",
        resolve: "raise",
        units: Units::One("UNIT"),
        required: &["pool"],
        refused: &[],
        extra: no_extra,
        what: "a French unit raised at Chalons with reinforcing CP, up to 8 (SPI-I1; no dice)",
        overlay: spi_raise,
    },
    VerbSpec {
        verb: "eb",
        aliases: &[],
        form: "eb",
        resolve: "eb",
        units: Units::One("EB-UNIT"),
        required: &[],
        refused: &[],
        extra: no_extra,
        what: "an EB unit crossing a river hexside: d6 1-3 continues, 4-6 stops it for the \
               movement phase (SPI-E1; a later move of it that phase is a note)",
        overlay: no_options,
    },
    VerbSpec {
        verb: "entrain",
        aliases: &[],
        form: "entrain",
        resolve: "entrain",
        units: Units::One("UNIT"),
        required: &[],
        refused: &[("side", "the unit's card gives it")],
        extra: no_extra,
        what: "rail movement: the unit entrains, 3 MP (errata), the entrained marker on; over its \
               allowance, the side's limit (French 1, German 2) or next to the enemy is a note \
               (SPI-T1, SPI-S1; no dice)",
        overlay: spi_spend,
    },
    VerbSpec {
        verb: "detrain",
        aliases: &[],
        form: "detrain",
        resolve: "detrain",
        units: Units::One("UNIT"),
        required: &[],
        refused: &[("side", "the unit's card gives it")],
        extra: no_extra,
        what: "rail movement: the unit detrains, 2 MP (errata), the marker off (SPI-T1; no dice)",
        overlay: spi_spend,
    },
    VerbSpec {
        verb: "formation",
        aliases: &[],
        form: "formation",
        resolve: "formation",
        units: Units::One("UNIT"),
        required: &[],
        refused: &[("side", "the unit's card gives it")],
        extra: no_extra,
        what: "a change of formation status, 4 MP against the unit's allowance (SPI-H2; no dice)",
        overlay: spi_spend,
    },
];

/// SPI-C1..C5: `kepi resolve spi combat`'s situation over the engaged units' state.
/// SPI-R1's `--losses` and SPI-C1's `--result` are read as 1870's are ([`combat_overlay`]).
fn spi_combat(g: &Given, f: &mut Form, _t: &Tables) -> Result<(), MoveError> {
    combat_overlay(g, f, |x: &mut SpiForm| spi_situation(g, &mut x.input))
}

/// SPI-C3, SPI-S1, SPI-F1, SPI-H1, SPI-H2, SPI-C5: the attack's situation as typed.
fn spi_situation(g: &Given, input: &mut SpiCombatInput) -> Result<(), MoveError> {
    set(&mut input.flank, g.get("flank")?);
    if let Some(s) = g.get::<SupplyState>("attacker_supply")? {
        input.attackers.iter_mut().for_each(|u| u.supply = s);
    }
    if let Some(s) = g.get::<SupplyState>("defender_supply")? {
        input.defenders.iter_mut().for_each(|u| u.supply = s);
    }
    set_some(&mut input.fortress, g.get::<u32>("fortress")?);
    set(&mut input.hasty, g.get("hasty")?);
    hasty_allocation(g, input)?;
    set(&mut input.dummies_only, g.get("dummy")?);
    let formation = |ext: bool| {
        if ext {
            SpiFormation::Extended
        } else {
            SpiFormation::Concentrated
        }
    };
    if let Some(e) = g.get::<bool>("attacker_extended")? {
        input
            .attackers
            .iter_mut()
            .for_each(|u| u.formation = formation(e));
    }
    if let Some(e) = g.get::<bool>("defender_extended")? {
        input
            .defenders
            .iter_mut()
            .for_each(|u| u.formation = formation(e));
    }
    if let Some(e) = g.get::<bool>("entrained")? {
        input.defenders.iter_mut().for_each(|u| u.entrained = e);
    }
    // SPI-C5: over what the game's map gave (`--rough=off` clears it), kept apart as the
    // umpire's in the lines ([`SpiForm::terrain_lines`]).
    set(&mut input.defender_rough, g.get("rough")?);
    set(&mut input.all_through_ridge, g.get("ridge")?);
    set(&mut input.all_through_river, g.get("river")?);
    Ok(())
}

/// SPI-H1, Combat Case O: "Units making Hasty Attacks may allocate only a portion of their Combat
/// Strength to the attack. Thus a Combat unit with a Combat Strength of "8" might allocate only
/// one Combat Point to the attack." In play `--attack N` is that allocation, taken only with
/// `--hasty` (a normal attack's strength comes from the `--attackers` units) and never more than
/// the unit has. With more than one attacker the allocation is left to the hasty attack's own
/// refusal (one unit, Case N).
fn hasty_allocation(g: &Given, input: &mut SpiCombatInput) -> Result<(), MoveError> {
    let Some(n) = g.get::<u32>("attack")? else {
        return Ok(());
    };
    if !input.hasty {
        return Err(g.bad(
            "attack",
            "not taken in play: the attack strength comes from the --attackers units (a hasty \
             attack allocates part of its unit's: --hasty --attack N, SPI-H1 Case O)",
        ));
    }
    if let [unit] = input.attackers.as_mut_slice() {
        if n > unit.strength {
            return Err(g.bad(
                "attack",
                format!(
                    "{n} combat points allocated, more than the unit's {} (SPI-H1 Case O: a \
                     portion of its Combat Strength)",
                    unit.strength
                ),
            ));
        }
        unit.strength = n;
    }
    Ok(())
}

/// SPI-I1: `kepi resolve spi raise`'s options over the unit's strength.
fn spi_raise(g: &Given, f: &mut Form, _t: &Tables) -> Result<(), MoveError> {
    let Some(x) = f.get_mut::<crate::spi::form::RaiseForm>() else {
        return Err(g.mismatch());
    };
    set(&mut x.strength, g.get::<u32>("strength")?);
    set(&mut x.pool, g.get::<u32>("pool")?);
    Ok(())
}

/// SPI-T1, SPI-H2: `kepi resolve spi entrain|detrain|formation`'s options over the unit's supply.
fn spi_spend(g: &Given, f: &mut Form, _t: &Tables) -> Result<(), MoveError> {
    let Some(x) = f.get_mut::<crate::spi::form::SpendForm>() else {
        return Err(g.mismatch());
    };
    set_some(&mut x.supply, g.get::<SupplyState>("supply")?);
    set(&mut x.spent, g.get::<u32>("spent")?);
    Ok(())
}
