//! 1870's resolution verbs of `kepi game apply`: `combat` (the attackers and the hex attacked,
//! with the options of `kepi resolve fr1870 combat`, [`super::grammar`], and the exchange's losses
//! and the cavalry's refusal only play has), `rail` and `sea` (a unit carried, FR-G1 and FR-K1),
//! `storm` (a unit storms a fortress from the move, FR-F1 H5), each over its form pre-filled from
//! the units.

use clap::Args;

use super::form::{RailForm, SeaForm, StormForm};
use crate::board::verbs::{HexOpt, combat_overlay, engage};
use crate::fr1870::FrCombatInput;
use crate::fr1870::combat_form::FrForm;
use kepi_game::engine::play::Form;
use kepi_game::engine::verbs::{Given, MoveError, Units, VerbSpec, no_extra, set, set_some};
use kepi_game::rules::Tables;

/// FR-C1, FR-C2 (E) and FR-C3: the units of one attack on one hex, the attacker's choice of the
/// units an exchange eliminates, and the attacked cavalry's refusal of combat.
#[derive(Debug, Args)]
struct FrHexOpt {
    #[command(flatten)]
    hex: HexOpt,
    /// FR-C2 (E): the attacking units the attacker eliminates in an exchange, UNIT=N,... (N is the
    /// unit's printed potential: a unit is eliminated whole). They must add up to at least the
    /// printed potential the defender lost; none named: kepi eliminates none and notes what is owed.
    #[arg(long, value_name = "UNIT=N,...", value_delimiter = ',')]
    losses: Vec<String>,
    /// FR-C3: the attacked cavalry refuses combat and retreats one cell (no die). Refused unless
    /// every unit in --hex is cavalry, every attacker infantry, and the cavalry can retreat.
    #[arg(long)]
    cavalry_refuses: bool,
}

/// FR-F1 (H5): the fortress stormed.
#[derive(Debug, Args)]
struct StormOpt {
    /// FR-F1 (H5): the cell of the enemy fortress stormed (default: the enemy fortress next to
    /// the unit, when only one is).
    #[arg(long, value_name = "CELL")]
    fortress: Option<String>,
}

/// 1870's resolution verbs, one per form of [`super::set::FrRules`].
pub static SPECS: &[VerbSpec] = &[
    VerbSpec {
        verb: "combat",
        aliases: &[],
        form: "combat",
        resolve: "combat",
        units: Units::Hex(engage::<FrForm>),
        required: &[],
        refused: &[
            (
                "attack",
                "the attack potential comes from the --attackers units",
            ),
            ("defend", "the defence comes from the enemy units in --hex"),
            ("garrison", "the units in --hex are the garrison"),
            ("fortress", "the fortress card in --hex gives its value"),
            (
                "from_fortress",
                "the game sees the fortress the attackers stand in",
            ),
        ],
        extra: <FrHexOpt as Args>::augment_args,
        what: "one combat on one hex (FR-C1, FR-C2, FR-S1, FR-F1; exchange losses --losses, \
               FR-C3 --cavalry-refuses, the units an occupied fortress multiplies --multiplied, \
               FR-F1 H11)",
        overlay: fr_combat,
    },
    VerbSpec {
        verb: "rail",
        aliases: &[],
        form: "rail",
        resolve: "rail",
        units: Units::One("UNIT"),
        required: &["to"],
        refused: &[
            ("from", "the unit stands where the game has it"),
            ("earlier", "the game counts the unit's transports this turn"),
            (
                "carried",
                "the game counts the units on the section this phase",
            ),
            ("enemy_held", "the game sees the units in the cell"),
            (
                "enemy_controlled",
                "the game sees the units next to the cell",
            ),
        ],
        extra: no_extra,
        what: "a railway transport to --to CELL: 12 cells at most (1 + 10 on the line + 1), one a                turn, a section's --capacity; what the text forbids is a note (FR-G1; no dice)",
        overlay: fr_rail,
    },
    VerbSpec {
        verb: "sea",
        aliases: &[],
        form: "sea",
        resolve: "sea",
        units: Units::One("UNIT"),
        required: &["to"],
        refused: &[
            ("side", "the unit's card gives it"),
            ("in_transit", "the game counts the units at sea"),
            ("passages", "the game counts the unit's passages this phase"),
        ],
        extra: no_extra,
        what: "one passage by sea --to port|counter1|counter2|west|south (--port NAME, --at CELL                when it lands): French units, four in transit, one passage a phase (FR-K1; no                dice)",
        overlay: fr_sea,
    },
    VerbSpec {
        verb: "storm",
        aliases: &[],
        form: "storm",
        resolve: "storm",
        units: Units::One("UNIT"),
        required: &[],
        refused: &[
            ("value", "the fortress card's strength is its value"),
            (
                "occupied",
                "the game sees the units in the fortress (storming an occupied one is noted)",
            ),
            ("cavalry", "the unit's card gives its arm"),
        ],
        extra: <StormOpt as Args>::augment_args,
        what: "an infantry unit storms the unoccupied enemy fortress of value 1 next to it \
               (--fortress CELL) from the move: d6 4-6 taken, the unit occupies it and the \
               fortress changes hands; either way the unit stops and may not fight in the \
               following Combat Phase (FR-F1, H5)",
        overlay: fr_storm,
    },
];

/// FR-F1 (H5): the fortress's cell, when typed.
fn fr_storm(g: &Given, f: &mut Form, _t: &Tables) -> Result<(), MoveError> {
    let Some(x) = f.get_mut::<StormForm>() else {
        return Err(g.mismatch());
    };
    set(&mut x.fortress, g.get::<String>("fortress")?);
    Ok(())
}

/// FR-G1: `kepi resolve fr1870 rail`'s options the umpire reads off the map.
fn fr_rail(g: &Given, f: &mut Form, _t: &Tables) -> Result<(), MoveError> {
    let Some(x) = f.get_mut::<RailForm>() else {
        return Err(g.mismatch());
    };
    set(&mut x.to, g.get::<String>("to")?);
    set_some(&mut x.line, g.get::<u32>("line")?);
    set(&mut x.section, g.get::<String>("section")?);
    set_some(&mut x.capacity, g.get::<u32>("capacity")?);
    Ok(())
}

/// FR-K1: where the unit embarks from and where it goes.
fn fr_sea(g: &Given, f: &mut Form, _t: &Tables) -> Result<(), MoveError> {
    let Some(x) = f.get_mut::<SeaForm>() else {
        return Err(g.mismatch());
    };
    set(&mut x.from, g.get::<super::transport::SeaPlace>("from")?);
    set(&mut x.from_port, g.get::<String>("from_port")?);
    set(&mut x.to, g.get::<super::transport::SeaPlace>("to")?);
    set(&mut x.port, g.get::<String>("port")?);
    set(&mut x.at, g.get::<String>("at")?);
    Ok(())
}

/// FR-C1, FR-C2, FR-S1, FR-F1: `kepi resolve fr1870 combat`'s situation over the engaged units.
/// FR-C2 (E)'s `--losses` (the attacker's choice) and FR-C1's `--result` are read as SPI's are
/// ([`combat_overlay`]).
fn fr_combat(g: &Given, f: &mut Form, _t: &Tables) -> Result<(), MoveError> {
    combat_overlay(g, f, |x: &mut FrForm| {
        set(&mut x.cavalry_refuses, g.get("cavalry_refuses")?);
        set_some(&mut x.multiplied, multiplied(g, &x.defender_ids)?);
        fr_situation(g, &mut x.input)
    })
}

/// FR-F1 (H11): `--multiplied UNIT,...`, the defending units the occupied fortress multiplies
/// and supplies, at the defender's choice: each a unit in --hex, named once (whether the hex holds
/// an occupied fortress and how many it takes is checked when the combat resolves). None typed:
/// the defender's best.
fn multiplied(g: &Given, defender_ids: &[String]) -> Result<Option<Vec<String>>, MoveError> {
    let typed = g.get_many::<String>("multiplied")?;
    if typed.is_empty() {
        return Ok(None);
    }
    let mut out: Vec<String> = Vec::new();
    for id in typed {
        let id = id.trim().to_string();
        // A blank form (the hex checked later, after a script's moves) has no units yet.
        if !defender_ids.is_empty() && !defender_ids.contains(&id) {
            return Err(g.bad(
                "multiplied",
                format!(
                    "`{id}` is not a unit in --hex (accepted: the ids of units in the fortress)"
                ),
            ));
        }
        if out.contains(&id) {
            return Err(g.bad("multiplied", format!("`{id}` is named twice")));
        }
        out.push(id);
    }
    Ok(Some(out))
}

/// FR-C1, FR-S1, FR-F1, FR-C2: the combat's situation as typed.
fn fr_situation(g: &Given, input: &mut FrCombatInput) -> Result<(), MoveError> {
    // The range is checked by the flag's parser (crate::cli::num) and again by the rule.
    set(&mut input.die_mod, g.get::<i32>("die_mod")?);
    if let Some(x) = g.get::<bool>("attacker_unsupplied")? {
        input.attackers.iter_mut().for_each(|u| u.supplied = !x);
    }
    if let Some(x) = g.get::<bool>("defender_unsupplied")? {
        input.defenders.iter_mut().for_each(|u| u.supplied = !x);
    }
    if let Some(x) = g.get::<bool>("attacker_disorganised")? {
        input.attackers.iter_mut().for_each(|u| u.disorganised = x);
    }
    if let Some(x) = g.get::<bool>("defender_disorganised")? {
        input.defenders.iter_mut().for_each(|u| u.disorganised = x);
    }
    set(&mut input.besieger_defending, g.get("besieger_defending")?);
    set(&mut input.siege_combat, g.get("siege")?);
    if let Some(x) = g.get::<bool>("assault")? {
        input.assault = x;
        if x {
            input.siege_combat = true;
        }
    }
    if let Some(x) = g.get::<bool>("no_retreat")? {
        input.defenders.iter_mut().for_each(|u| u.can_retreat = !x);
    }
    Ok(())
}
