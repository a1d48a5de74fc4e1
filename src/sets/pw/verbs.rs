//! PW's resolution verbs of `kepi game apply` (`activate`, `artillery`, `rifle`, `melee`): each
//! names its units and lays the options of its `kepi resolve pw` action ([`super::grammar`]),
//! and the owners' hit choices only play has, over the form pre-filled from them.

use clap::Args;

use crate::pw::form::{PwAction, PwForm};
use crate::pw::{self, HitChoice};
use kepi_game::engine::play::Form;
use kepi_game::engine::verbs::{Given, MoveError, Units, VerbSpec, no_extra, set, set_some};
use kepi_game::rules::Tables;

/// PW-H1: the target owner's choice for a hit by fire.
#[derive(Debug, Args)]
struct HitOpt {
    /// PW-H1: the target owner's choice for each hit: lose-sp, withdraw, silenced (guns only).
    #[arg(long, value_name = "CHOICE")]
    hit: Option<HitChoice>,
}

/// PW-H1: each owner's choice for the hits its unit takes in melee.
#[derive(Debug, Args)]
struct MeleeHitOpt {
    /// PW-H1: the attacker's owner's choice for the hits it takes: lose-sp, withdraw.
    #[arg(long, value_name = "CHOICE")]
    attacker_hit: Option<HitChoice>,
    /// PW-H1: the defender's owner's choice for the hits it takes: lose-sp, withdraw.
    #[arg(long, value_name = "CHOICE")]
    defender_hit: Option<HitChoice>,
}

/// PW's resolution verbs, one per form of [`super::set::PwRules`].
pub static SPECS: &[VerbSpec] = &[
    VerbSpec {
        verb: "activate",
        aliases: &[],
        form: "activate",
        resolve: "activate",
        units: Units::One("UNIT"),
        required: &[],
        refused: &[],
        extra: no_extra,
        what: "roll to activate a unit (PW-T2)",
        overlay: pw_activate,
    },
    VerbSpec {
        verb: "artillery",
        aliases: &[],
        form: "artillery",
        resolve: "artillery",
        units: Units::Two("BATTERY", "TARGET"),
        required: &[],
        refused: &[],
        extra: <HitOpt as Args>::augment_args,
        what: "a battery fires; range in hexes from the map (PW-A1, PW-G1, hits PW-H1)",
        overlay: pw_artillery,
    },
    VerbSpec {
        verb: "rifle",
        aliases: &[],
        form: "rifle",
        resolve: "rifle",
        units: Units::Two("FIRER", "TARGET"),
        required: &[],
        refused: &[],
        extra: <HitOpt as Args>::augment_args,
        what: "infantry fire; range in hexes from the map (PW-R1, PW-G1, hits PW-H1)",
        overlay: pw_rifle,
    },
    VerbSpec {
        verb: "melee",
        aliases: &[],
        form: "melee",
        resolve: "melee",
        units: Units::Two("ATTACKER", "DEFENDER"),
        required: &[],
        refused: &[],
        extra: <MeleeHitOpt as Args>::augment_args,
        what: "melee, both sides rolling; flank and rear from the facings (PW-X1, hits PW-H1); the \
               options are the attacker's",
        overlay: pw_melee,
    },
];

/// PW-T2: `kepi resolve pw activate`'s options over the unit's army and quality.
fn pw_activate(g: &Given, f: &mut Form, _t: &Tables) -> Result<(), MoveError> {
    let Some(PwForm {
        action: PwAction::Activate(i),
        ..
    }) = f.get_mut::<PwForm>()
    else {
        return Err(g.mismatch());
    };
    set(&mut i.army, g.get::<pw::Army>("army")?);
    set(&mut i.quality, g.get::<pw::Quality>("quality")?);
    Ok(())
}

/// PW-A1: `kepi resolve pw artillery`'s options over the battery's state and the range on the map.
fn pw_artillery(g: &Given, f: &mut Form, _t: &Tables) -> Result<(), MoveError> {
    let Some(PwForm {
        action: PwAction::Artillery { input, hit },
        ..
    }) = f.get_mut::<PwForm>()
    else {
        return Err(g.mismatch());
    };
    set(&mut input.army, g.get::<pw::Gunnery>("army")?);
    set(&mut input.sp, g.get::<u32>("sp")?);
    set(&mut input.target_cover, g.get("target_cover")?);
    set_some(&mut input.range, g.get::<u32>("range")?);
    set(hit, g.get::<HitChoice>("hit")?);
    Ok(())
}

/// PW-R1: `kepi resolve pw rifle`'s options over the firers' state and the range on the map.
fn pw_rifle(g: &Given, f: &mut Form, _t: &Tables) -> Result<(), MoveError> {
    let Some(PwForm {
        action: PwAction::Rifle { input, hit },
        ..
    }) = f.get_mut::<PwForm>()
    else {
        return Err(g.mismatch());
    };
    set(&mut input.sp, g.get::<u32>("sp")?);
    set(&mut input.moved, g.get("moved")?);
    set(&mut input.target_cover, g.get("target_cover")?);
    set_some(&mut input.firer, g.get::<pw::UnitType>("unit")?);
    set_some(&mut input.range, g.get::<u32>("range")?);
    set(hit, g.get::<HitChoice>("hit")?);
    Ok(())
}

/// (the attacker's enemy is the defender; a flank attack is a flank attacked).
fn pw_melee(g: &Given, f: &mut Form, _t: &Tables) -> Result<(), MoveError> {
    let Some(PwForm {
        action: PwAction::Melee { a, b, a_hit, b_hit },
        ..
    }) = f.get_mut::<PwForm>()
    else {
        return Err(g.mismatch());
    };
    if let Some(k) = g.get::<pw::UnitKind>("unit")? {
        a.unit = k;
        b.enemy = k;
    }
    set(&mut a.sp, g.get::<u32>("sp")?);
    if let Some(k) = g.get::<pw::UnitKind>("enemy")? {
        a.enemy = k;
        b.unit = k;
    }
    if let Some(x) = g.get::<bool>("attacking_flank")? {
        a.attacking_flank = x;
        b.attacked_flank = x;
    }
    if let Some(x) = g.get::<bool>("attacked_flank")? {
        a.attacked_flank = x;
        b.attacking_flank = x;
    }
    set(&mut a.enemy_uphill, g.get("enemy_uphill")?);
    set(&mut a.enemy_cover, g.get("enemy_cover")?);
    set(a_hit, g.get::<HitChoice>("attacker_hit")?);
    set(b_hit, g.get::<HitChoice>("defender_hit")?);
    Ok(())
}
