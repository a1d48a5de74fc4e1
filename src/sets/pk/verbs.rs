//! P&K's resolution verbs of `kepi game apply` (`fire`, `artillery`, `melee`, `rally`,
//! `flag-roll`, `fatigue-check`, `urt`): each names its units and lays the options of its
//! `kepi resolve pk` action ([`super::grammar`]) over the form pre-filled from them.

use crate::pk::form::{PkAction, PkForm};
use crate::pk::{
    self, Class, Cover, Facing, Formation, Officer, Terrain, Weapon,
    morale::GeneralDeath,
    visibility::{Obstacle, Sight},
};
use kepi_game::engine::play::Form;
use kepi_game::engine::verbs::{Given, MoveError, Units, VerbSpec, no_extra, set, set_some};
use kepi_game::rules::Tables;

/// P&K's resolution verbs, one per form of [`super::set::PkRules`].
pub static SPECS: &[VerbSpec] = &[
    VerbSpec {
        verb: "fire",
        aliases: &[],
        form: "fire",
        resolve: "fire",
        units: Units::Two("FIRER", "TARGET"),
        required: &[],
        refused: &[],
        extra: no_extra,
        what: "rifle or carbine fire (PK-F1, PK-F3..F7; leader PK-L1)",
        overlay: pk_fire,
    },
    VerbSpec {
        verb: "artillery",
        aliases: &[],
        form: "artillery",
        resolve: "artillery",
        units: Units::Two("BATTERY", "TARGET"),
        required: &["range"],
        refused: &[],
        extra: no_extra,
        what: "artillery fire and counter-battery (PK-A1..A4)",
        overlay: pk_artillery,
    },
    VerbSpec {
        verb: "melee",
        aliases: &[],
        form: "melee",
        resolve: "melee",
        units: Units::Two("ATTACKER", "DEFENDER"),
        required: &[],
        refused: &[],
        extra: no_extra,
        what: "one move of melee, both sides rolling (PK-X3); the options are the attacker's, \
               --position the defender's; the outcome is `kepi resolve pk melee-both`'s",
        overlay: pk_melee,
    },
    VerbSpec {
        verb: "rally",
        aliases: &[],
        form: "rally",
        resolve: "rally",
        units: Units::One("UNIT"),
        required: &[],
        refused: &[],
        extra: no_extra,
        what: "rally roll for figures back (PK-E1, PK-L1, PK-L2)",
        overlay: pk_rally,
    },
    VerbSpec {
        verb: "flag-roll",
        aliases: &[],
        form: "flag",
        resolve: "flag",
        units: Units::One("UNIT"),
        required: &[],
        refused: &[],
        extra: no_extra,
        what: "the loser's flag roll (PK-X4)",
        overlay: pk_flag,
    },
    VerbSpec {
        verb: "fatigue-check",
        aliases: &[],
        form: "fatigue",
        resolve: "fatigue",
        units: Units::One("UNIT"),
        required: &[],
        refused: &[],
        extra: no_extra,
        what: "the end-of-move fatigue check (PK-X5)",
        overlay: pk_fatigue,
    },
    VerbSpec {
        verb: "urt",
        aliases: &[],
        form: "urt",
        resolve: "urt",
        units: Units::One("UNIT"),
        required: &["activity"],
        refused: &[],
        extra: no_extra,
        what: "the time an activity takes, as a part of the unit's move (PK-U1, PK-C1; no dice)",
        overlay: pk_urt,
    },
];

/// PK-F1..F7: `kepi resolve pk fire`'s options over the firer's and target's state.
fn pk_fire(g: &Given, f: &mut Form, _t: &Tables) -> Result<(), MoveError> {
    let Some(PkForm {
        action: PkAction::Fire(i),
        ..
    }) = f.get_mut::<PkForm>()
    else {
        return Err(g.mismatch());
    };
    set(&mut i.figures, g.get::<u32>("figures")?);
    set(&mut i.class, g.get::<Class>("class")?);
    set(&mut i.weapon, g.get::<Weapon>("weapon")?);
    set(&mut i.skirmish, g.get("skirmish")?);
    set(&mut i.mounted, g.get("mounted")?);
    set(&mut i.enfilade, g.get("enfilade")?);
    set(&mut i.vs_cavalry, g.get("vs_cavalry")?);
    set(&mut i.disordered, g.get("disordered")?);
    set(&mut i.target_disordered, g.get("target_disordered")?);
    set(&mut i.target_skirmish, g.get("target_skirmish")?);
    set(&mut i.cover, g.get::<Cover>("cover")?);
    set_some(&mut i.range, g.distance("range")?);
    set(&mut i.supporting, g.get("supporting")?);
    set_some(&mut i.target_figures, g.get::<u32>("target_figures")?);
    set_some(&mut i.target_officer, g.get::<Officer>("target_officer")?);
    sight(g, &mut i.sight)?;
    Ok(())
}

/// PK-V1: `--sight` and the sight's flags over the form's sight: any of them given sets a sight
/// (from open ground at 0 contours unless they say otherwise), each flag its own field.
fn sight(g: &Given, slot: &mut Option<Sight>) -> Result<(), MoveError> {
    let on = g.get::<bool>("sight")?.unwrap_or(false);
    let contours = g.get::<u32>("observer_contours")?;
    let observer_in = g.get::<Terrain>("observer_in")?;
    let target_in = g.get::<Terrain>("target_in")?;
    let depth = g.distance("target_depth")?;
    let obstacle = g.get::<Obstacle>("obstacle")?;
    let behind = g.distance("behind")?;
    let any = contours.is_some()
        || observer_in.is_some()
        || target_in.is_some()
        || depth.is_some()
        || obstacle.is_some()
        || behind.is_some();
    if !on && !any {
        return Ok(());
    }
    let s = slot.get_or_insert_with(Sight::default);
    set(&mut s.observer_contours, contours);
    set(&mut s.observer_in, observer_in);
    set(&mut s.target_in, target_in);
    set(&mut s.target_depth, depth);
    set_some(&mut s.obstacle, obstacle);
    set(&mut s.behind, behind);
    Ok(())
}

/// PK-A1..A4: `kepi resolve pk artillery`'s options over the battery's and target's state.
fn pk_artillery(g: &Given, f: &mut Form, _t: &Tables) -> Result<(), MoveError> {
    let Some(PkForm {
        action: PkAction::Artillery(i),
        ..
    }) = f.get_mut::<PkForm>()
    else {
        return Err(g.mismatch());
    };
    set(&mut i.gun, g.get::<pk::Gun>("gun")?);
    set(&mut i.points, g.get::<u32>("points")?);
    set(&mut i.class, g.get::<Class>("class")?);
    set(&mut i.range, g.distance("range")?);
    set(&mut i.canister, g.get("canister")?);
    set(&mut i.downhill, g.get("downhill")?);
    set(&mut i.uphill, g.get("uphill")?);
    set(&mut i.counter_battery, g.get("counter_battery")?);
    set(&mut i.enfilade, g.get("enfilade")?);
    set(&mut i.target_disordered, g.get("target_disordered")?);
    set(&mut i.target_skirmish, g.get("target_skirmish")?);
    set(&mut i.cover, g.get::<Cover>("cover")?);
    set_some(&mut i.target_figures, g.get::<u32>("target_figures")?);
    set_some(&mut i.target_points, g.get::<u32>("target_points")?);
    set_some(&mut i.building, g.get::<pk::Building>("building")?);
    set_some(&mut i.building_points, g.get::<u32>("building_points")?);
    set(&mut i.over_friends, g.get("over_friends")?);
    set(&mut i.supporting, g.get("supporting")?);
    set_some(&mut i.target_officer, g.get::<Officer>("target_officer")?);
    sight(g, &mut i.sight)?;
    Ok(())
}

/// one side's option is the other's situation); `--position` is the defender's.
fn pk_melee(g: &Given, f: &mut Form, _t: &Tables) -> Result<(), MoveError> {
    let Some(PkForm {
        action: PkAction::Melee { a, b },
        ..
    }) = f.get_mut::<PkForm>()
    else {
        return Err(g.mismatch());
    };
    if let Some(n) = g.get::<u32>("figures")? {
        a.figures = n;
        b.target_figures = Some(n);
    }
    set(&mut a.class, g.get::<Class>("class")?);
    set_some(&mut a.ranks, g.get::<u8>("ranks")?);
    set(&mut a.second_rank, g.get::<u32>("second_rank")?);
    let (flank, rear) = (g.get::<bool>("flank")?, g.get::<bool>("rear")?);
    if flank == Some(true) {
        a.facing = Facing::Flank;
    } else if rear == Some(true) {
        a.facing = Facing::Rear;
    } else if flank == Some(false) || rear == Some(false) {
        a.facing = Facing::Front;
    }
    set(&mut a.charge, g.get("charge")?);
    set(&mut a.joined, g.get("joined")?);
    if let Some(d) = g.get::<bool>("disordered")? {
        a.disordered = d;
        b.target_disordered = d;
    }
    if let Some(d) = g.get::<bool>("target_disordered")? {
        a.target_disordered = d;
        b.disordered = d;
    }
    set(&mut a.target_muddled, g.get("target_muddled")?);
    if let Some(x) = g.get::<Formation>("formation")? {
        a.formation = x;
        b.opponent = x;
    }
    if let Some(x) = g.get::<Formation>("opponent")? {
        b.formation = x;
        a.opponent = x;
    }
    set(&mut b.position, g.get::<pk::Position>("position")?);
    if let Some(m) = g.get::<u32>("melee_move")? {
        if m == 0 {
            return Err(g.bad("melee-move", "the first move is 1 (accepted: 1 or more)"));
        }
        a.melee_move = m;
        b.melee_move = m;
    }
    if let Some(n) = g.get::<u32>("target_figures")? {
        b.figures = n;
        a.target_figures = Some(n);
    }
    set_some(&mut a.target_officer, g.get::<Officer>("target_officer")?);
    Ok(())
}

/// PK-E1: `kepi resolve pk rally`'s options over the unit's state.
fn pk_rally(g: &Given, f: &mut Form, _t: &Tables) -> Result<(), MoveError> {
    let Some(PkForm {
        action: PkAction::Rally(i),
        ..
    }) = f.get_mut::<PkForm>()
    else {
        return Err(g.mismatch());
    };
    set(&mut i.class, g.get::<Class>("class")?);
    set(&mut i.leaders_lost, g.get::<u32>("leaders_lost")?);
    set(&mut i.brigaded, g.get("brigaded")?);
    set_some(&mut i.officer, g.get::<Officer>("officer")?);
    set(
        &mut i.general_death,
        g.get::<GeneralDeath>("general_death")?,
    );
    set_some(&mut i.figures_lost, g.get::<u32>("figures_lost")?);
    Ok(())
}

/// PK-X4: `kepi resolve pk flag`'s class over the unit's.
fn pk_flag(g: &Given, f: &mut Form, _t: &Tables) -> Result<(), MoveError> {
    let Some(PkForm {
        action: PkAction::Flag { class },
        ..
    }) = f.get_mut::<PkForm>()
    else {
        return Err(g.mismatch());
    };
    set(class, g.get::<Class>("class")?);
    Ok(())
}

/// PK-X5: `kepi resolve pk fatigue`'s total, or class and moves, over the unit's fatigue.
fn pk_fatigue(g: &Given, f: &mut Form, t: &Tables) -> Result<(), MoveError> {
    let Some(PkForm {
        action: PkAction::Fatigue { fatigue },
        ..
    }) = f.get_mut::<PkForm>()
    else {
        return Err(g.mismatch());
    };
    let (total, class, moves) = (
        g.get::<i64>("fatigue")?,
        g.get::<Class>("class")?,
        g.get::<u32>("moves")?,
    );
    if let (Some(c), Some(m)) = (class, moves) {
        *fatigue = pk::melee::fatigue_points(c, m, t.get::<crate::pk::PkTables>());
    }
    set(fatigue, total);
    Ok(())
}

/// PK-U1: `kepi resolve pk urt`'s options over the unit's class.
fn pk_urt(g: &Given, f: &mut Form, _t: &Tables) -> Result<(), MoveError> {
    let Some(PkForm {
        action:
            PkAction::Urt {
                class,
                activity,
                amount,
            },
        ..
    }) = f.get_mut::<PkForm>()
    else {
        return Err(g.mismatch());
    };
    set(class, g.get::<Class>("class")?);
    set(activity, g.get::<pk::Activity>("activity")?);
    set(amount, g.get::<u32>("amount")?);
    Ok(())
}
