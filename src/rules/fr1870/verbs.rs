//! 1870's resolution verb of `kepi game apply` (`combat`): the attackers and the hex attacked,
//! with the options of `kepi resolve fr1870 combat` ([`super::grammar`]) and the exchange's
//! losses and the cavalry's refusal only play has, over the form pre-filled from the units.

use clap::Args;

use crate::engine::play::Form;
use crate::engine::verbs::{Given, MoveError, Units, VerbSpec, set, set_some};
use crate::rules::Tables;
use crate::rules::board::form::FrForm;
use crate::rules::board::verbs::{HexOpt, engage, parse_losses};

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

/// 1870's resolution verb, the form of [`super::set::FrRules`].
pub static SPECS: &[VerbSpec] = &[VerbSpec {
    verb: "combat",
    aliases: &[],
    form: "combat",
    resolve: "combat",
    units: Units::Hex(engage),
    required: &[],
    refused: &[
        (
            "attack",
            "the attack potential comes from the --attackers units",
        ),
        ("defend", "the defence comes from the enemy units in --hex"),
    ],
    extra: <FrHexOpt as Args>::augment_args,
    what: "one combat on one hex (FR-C1, FR-C2, FR-S1, FR-F1; exchange losses --losses, \
               FR-C3 --cavalry-refuses)",
    overlay: fr_combat,
}];

/// FR-C1, FR-C2, FR-S1, FR-F1: `kepi resolve fr1870 combat`'s situation over the engaged units.
fn fr_combat(g: &Given, f: &mut Form, _t: &Tables) -> Result<(), MoveError> {
    let Some(FrForm {
        input,
        entered_result,
        losses,
        cavalry_refuses,
        attacker_ids,
        defender_ids,
        ..
    }) = f.get_mut::<FrForm>()
    else {
        return Err(g.mismatch());
    };
    // FR-C2 (E): the attacker's choice, checked against the result when it is known.
    losses.extend(parse_losses(g, attacker_ids, defender_ids)?);
    set(cavalry_refuses, g.get("cavalry_refuses")?);
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
    set_some(entered_result, g.get::<String>("result")?);
    g.mark(&["attack", "defend", "attackers", "hex"]);
    Ok(())
}
