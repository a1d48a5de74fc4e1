//! Artillery (PK-A1..A4): gun AV by range band, canister, hills, counter-battery, buildings.

use serde::{Deserialize, Serialize};

use super::common::{Hit, Lines, cas_label, lf_value, need_positive, rolls_since, with_leader};
use super::fire::target_df;
use super::{Building, Class, Cover, Gun, Officer, PkTables, RangeBand};
use kepi_game::dice::{DiceSource, Die, Dist, Ratio};
use kepi_game::rules::{Resolution, RuleError, odds_from, rolled_line};
use kepi_game::tables::{Provenance, Sourced};

/// What a battery's fire needs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ArtilleryInput {
    /// The gun type.
    pub gun: Gun,
    /// The battery's points (its AV; PK-A2: it falls as points are lost).
    pub points: u32,
    /// The crew's class.
    pub class: Class,
    /// Range to the target, inches.
    pub range: Ratio,
    /// Firing canister (+2 and the canister column).
    pub canister: bool,
    /// On a hill firing at enemy below (+1).
    pub downhill: bool,
    /// Firing uphill (-1).
    pub uphill: bool,
    /// Firing at other artillery (PK-A3).
    pub counter_battery: bool,
    /// Firing into the target's flank or rear (PK-F3).
    pub enfilade: bool,
    /// The battery is limbered: it cannot fire.
    pub limbered: bool,
    /// Firing over friendly troops a contour lower (not with canister).
    pub over_friends: bool,
    /// Supporting fire (PK-F7): shot or shell only.
    pub supporting: bool,
    /// The target is disordered: LF doubled (PK-F6).
    pub target_disordered: bool,
    /// The target is in skirmish order (unlimbered guns are, PK-A2).
    pub target_skirmish: bool,
    /// The target's cover.
    pub cover: Cover,
    /// Figures (or, counter-battery, points) in the target, when known.
    pub target_figures: Option<u32>,
    /// Counter-battery: the target battery's points (it loses 1/3 when its guns are hit).
    pub target_points: Option<u32>,
    /// A general or staff officer with the target (PK-L1).
    pub target_officer: Option<Officer>,
    /// PK-A4: the target is a building of this kind.
    pub building: Option<Building>,
    /// PK-A4: the building's points left before this fire.
    pub building_points: Option<u32>,
    /// PK-V1, PK-A1 ("the target visible to the crew"): the crew's sight, when the umpire gives
    /// it: a target not seen is warned of, not refused. Left out of the JSON when not given, so a
    /// battery's fire logged before it reads and hashes as it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sight: Option<super::visibility::Sight>,
}

/// What the umpire applies after artillery fire.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArtilleryOutcome {
    /// The exact LF.
    pub lf: Ratio,
    /// The LF as a number.
    pub lf_value: f64,
    /// The target's DF.
    pub df: i64,
    /// Figures (or crew points) the target removes.
    pub casualties: u32,
    /// Counter-battery: the d% hit the guns (null when not counter-battery or no hit was scored).
    pub guns_hit: Option<bool>,
    /// Counter-battery: points the target battery loses because its guns were hit.
    pub points_lost: Option<u32>,
    /// PK-L1: a leader fell (null when there were no casualties).
    pub leader_lost: Option<bool>,
    /// PK-L1: the attached officer who fell instead.
    pub officer_lost: Option<Officer>,
    /// PK-A4: damage points to the building.
    pub building_damage: Option<u32>,
    /// PK-A4: the building's points left.
    pub building_points_left: Option<u32>,
    /// PK-A4: the building collapses (resolve `building_collapse` against the troops inside).
    pub building_collapses: Option<bool>,
    /// The d10 read.
    pub d10: u32,
}

/// PK-A1: the range band and its table value for a gun at a range.
pub fn range_band(
    gun: Gun,
    range: Ratio,
    canister: bool,
    t: &PkTables,
) -> Result<(RangeBand, &Sourced<i64>), RuleError> {
    let a = &t.artillery;
    if gun == Gun::Mitrailleuse {
        let m = &a.mitrailleuse;
        if canister {
            return Err(RuleError::input(
                "canister",
                "the mitrailleuse fires from its own table, without canister",
                "omit --canister",
            ));
        }
        if range <= Ratio::ZERO || range > Ratio::int(m.range.v()) {
            return Err(RuleError::input(
                "range",
                format!("{range}\" is out of the mitrailleuse's range"),
                format!("more than 0 and at most {}\"", m.range.v()),
            ));
        }
        return Ok(if range <= Ratio::int(m.short_max.v()) {
            (RangeBand::Short, &m.short)
        } else if range <= Ratio::int(m.medium_max.v()) {
            (RangeBand::Medium, &m.medium)
        } else {
            (RangeBand::Long, &m.long)
        });
    }
    if range <= Ratio::ZERO || range > Ratio::int(a.range.v()) {
        return Err(RuleError::input(
            "range",
            format!("{range}\" is out of artillery range"),
            format!("more than 0 and at most {}\"", a.range.v()),
        ));
    }
    let row = if gun == Gun::Blr { &a.blr } else { &a.mlr };
    if canister {
        if range > Ratio::int(a.canister_max.v()) {
            return Err(RuleError::input(
                "range",
                format!("{range}\" is beyond canister range"),
                format!("at most {}\" for canister", a.canister_max.v()),
            ));
        }
        return Ok((RangeBand::Canister, &row.canister));
    }
    Ok(
        if range <= Ratio::int(a.short_max.v()) && gun != Gun::Howitzer {
            (RangeBand::Short, &row.short)
        } else if range <= Ratio::int(a.medium_max.v()) {
            (RangeBand::Medium, &row.medium)
        } else {
            (RangeBand::Long, &row.long)
        },
    )
}

/// PK-A1: where a band lies, as printed beside it: `over 15", up to 36"` (the text's inches; a
/// range on an edge falls in the shorter band).
pub fn band_edges(gun: Gun, band: RangeBand, t: &PkTables) -> String {
    let a = &t.artillery;
    let (short, medium, max) = if gun == Gun::Mitrailleuse {
        let m = &a.mitrailleuse;
        (m.short_max.v(), m.medium_max.v(), m.range.v())
    } else {
        (a.short_max.v(), a.medium_max.v(), a.range.v())
    };
    match band {
        RangeBand::Canister => format!("up to {}\"", a.canister_max.v()),
        RangeBand::Short => format!("up to {short}\""),
        RangeBand::Medium if gun == Gun::Howitzer => format!("up to {medium}\""),
        RangeBand::Medium => format!("over {short}\", up to {medium}\""),
        RangeBand::Long => format!("over {medium}\", up to {max}\""),
    }
}

/// PK-A3: points a battery loses when its guns are hit: the table's fraction (1/3), rounded down,
/// at least 1 (house rounding: the text does not say).
pub fn guns_hit_points(points: u32, t: &PkTables) -> u32 {
    let lost = (Ratio::int(i64::from(points)) * t.artillery.guns_hit_fraction.v()).floor();
    u32::try_from(lost).unwrap_or(0).max(1).min(points)
}

/// One roll's result, as a distribution key: (casualties, guns hit, leader lost).
type Key = (u32, Option<bool>, Option<bool>);

fn key_label(k: &Key) -> String {
    match k {
        (_, Some(true), _) => "guns hit: battery loses 1/3 of its points".into(),
        (c, Some(false), l) => format!("hit on the crew: {}", cas_label(*c, *l)),
        (c, None, l) => cas_label(*c, *l),
    }
}

/// PK-A1..A4, PK-L1: one battery's fire (with its crew's sight, PK-V1). Rolls d10; counter-battery
/// on a hit rolls d% for the guns; casualties roll d% for a leader.
pub fn artillery(
    input: &ArtilleryInput,
    t: &PkTables,
    dice: Option<&mut DiceSource>,
) -> Result<Resolution<ArtilleryOutcome>, RuleError> {
    check_input(input)?;
    let mut l = Lines::default();
    let (fixed, factor) = attack_value(input, t, &mut l)?;
    // PK-A1: "the target visible to the crew" (PK-V1), when the sight is given.
    super::visibility::fire_sight(&mut l, input.sight.as_ref(), Some(input.range), t)?;
    match input.building {
        Some(b) => at_building(input, b, t, l, (fixed, factor), dice),
        None => at_troops(input, t, l, (fixed, factor), dice),
    }
}

/// PK-A1, PK-F7: what a battery cannot do (a limbered battery fires not; no canister over
/// friends or in support).
fn check_input(input: &ArtilleryInput) -> Result<(), RuleError> {
    need_positive(input.points, "points")?;
    if input.limbered {
        return Err(RuleError::input(
            "limbered",
            "a limbered battery cannot fire (PK-A1: unlimber first, 1 URT)",
            "an unlimbered battery",
        ));
    }
    if input.canister && (input.over_friends || input.supporting) {
        return Err(RuleError::input(
            "canister",
            "no canister over friends' heads or as supporting fire (PK-A1, PK-F7)",
            "shot or shell",
        ));
    }
    if input.downhill && input.uphill {
        return Err(RuleError::input(
            "downhill/uphill",
            "both given",
            "one of them",
        ));
    }
    Ok(())
}

/// PK-A1, PK-C1, PK-A3, PK-F3, PK-F6: the attack value (gun points, range, class, canister,
/// slope, counter-battery, enfilade) as a fixed part and a factor, each step a modifier line.
fn attack_value(
    input: &ArtilleryInput,
    t: &PkTables,
    l: &mut Lines,
) -> Result<(i64, Ratio), RuleError> {
    let a = &t.artillery;
    let mut fixed = i64::from(input.points);
    let mut factor = Ratio::ONE;
    l.base("gun points (AV)", fixed, "PK-A1", Provenance::Seed);
    let (band, tv) = range_band(input.gun, input.range, input.canister, t)?;
    if input.gun == Gun::Howitzer && input.range <= Ratio::int(a.short_max.v()) && !input.canister {
        l.note("howitzer: no short range", "PK-A1", Provenance::Seed);
    }
    fixed += tv.v();
    // Issue 28: the measured range and the band's edges, printed at the game's scale (a
    // distance on an edge is in the shorter band: the text's "up to").
    l.push(
        "measured range (inches)",
        kepi_game::rules::Effect::Target(input.range),
        "PK-A1",
        Provenance::Seed,
    );
    l.add(
        format!(
            "{} {band} range ({})",
            input.gun,
            band_edges(input.gun, band, t)
        ),
        tv,
        "PK-A1",
    );
    let cm = input.class.modifier(t);
    fixed += cm.v();
    l.add(format!("class: {}", input.class), cm, "PK-C1");
    l.note("d10", "PK-A1", Provenance::Seed);
    if input.canister {
        fixed += a.canister_add.v();
        l.add("canister", &a.canister_add, "PK-A1");
    }
    if input.downhill {
        fixed += a.downhill_add.v();
        l.add("on a hill firing down", &a.downhill_add, "PK-A1");
    }
    if input.uphill {
        fixed += a.uphill_add.v();
        l.add("firing uphill", &a.uphill_add, "PK-A1");
    }
    if input.over_friends {
        l.note(
            "firing over friends a contour lower",
            "PK-A1",
            Provenance::Seed,
        );
    }
    if input.supporting {
        l.note(
            "supporting fire: shot or shell only",
            "PK-F7",
            Provenance::Seed,
        );
    }
    if input.counter_battery {
        fixed += a.counter_battery_add.v();
        l.add("counter-battery", &a.counter_battery_add, "PK-A3");
    }
    if input.enfilade {
        fixed += t.fire.enfilade_add.v();
        factor = factor * t.fire.enfilade_times.v();
        l.add("enfilade", &t.fire.enfilade_add, "PK-F3");
        l.times("enfilade", &t.fire.enfilade_times, "PK-F3");
    }
    if input.target_disordered && input.building.is_none() {
        factor = factor * t.fire.vs_disordered_times.v();
        l.times("target disordered", &t.fire.vs_disordered_times, "PK-F6");
    }

    Ok((fixed, factor))
}

/// PK-A4: fire at a building damages it (only roundshot and shell).
fn at_building(
    input: &ArtilleryInput,
    b: Building,
    t: &PkTables,
    mut l: Lines,
    (fixed, factor): (i64, Ratio),
    dice: Option<&mut DiceSource>,
) -> Result<Resolution<ArtilleryOutcome>, RuleError> {
    let a = &t.artillery;
    let mut notes = Vec::new();
    if input.canister || input.gun == Gun::Mitrailleuse {
        return Err(RuleError::input(
            "building",
            "only roundshot and shell damage buildings (PK-A4)",
            "a field gun or howitzer firing shot or shell",
        ));
    }
    let (dv, dmg) = match b {
        Building::Wooden => (&a.wooden_building_dv, &a.wooden_building_damage),
        Building::Stone => (&a.stone_building_dv, &a.stone_building_damage),
    };
    l.target(format!("{b} building DV"), dv.v(), "PK-A4", dv.provenance);
    l.target(
        format!("damage per hit: {b}"),
        dmg.v(),
        "PK-A4",
        dmg.provenance,
    );
    let mut hit = Hit::new(fixed, dv.v(), None);
    hit.factor = factor;
    let per = u32::try_from(dmg.v()).unwrap_or(0);
    // PK-A4: "When artillery fires at a building and the AV equals or exceeds the DV of the
    // building it causes 5 points if damage to wooden buildings and 2 points to stone
    // buildings": a flat amount once the DV is reached, not one per multiple of the DV.
    let damage = |d: u32| if hit.casualties(d) > 0 { per } else { 0 };
    let left = |d: u32| input.building_points.map(|p| p.saturating_sub(damage(d)));
    let dist = Dist::die(Die::D10).map(|&d| (damage(d), left(d)));
    let label = |(dm, lf): &(u32, Option<u32>)| match lf {
        Some(0) => format!("{dm} damage: building collapses"),
        Some(p) => format!("{dm} damage, {p} points left"),
        None => format!("{dm} damage"),
    };
    let odds = odds_from(&dist, label);
    notes.push(
        "PK-A4: reaching the building's DV causes a flat 5 points (wooden) or 2 (stone), as printed"
            .into(),
    );
    let (outcome, rolls, summary) = match dice {
        None => (None, Vec::new(), "odds only".to_string()),
        Some(dice) => {
            let start = dice.rolls().len();
            let d10 = dice.roll(Die::D10, "artillery d10")?;
            let lf = hit.lf(d10);
            let dm = damage(d10);
            let pl = left(d10);
            let s = format!("d10 {d10}: LF {lf} vs building DV {}: {dm} damage", hit.df);
            (
                Some(ArtilleryOutcome {
                    lf,
                    lf_value: lf_value(lf),
                    df: hit.df,
                    casualties: 0,
                    guns_hit: None,
                    points_lost: None,
                    leader_lost: None,
                    officer_lost: None,
                    building_damage: Some(dm),
                    building_points_left: pl,
                    building_collapses: pl.map(|p| p == 0),
                    d10,
                }),
                rolls_since(dice, start),
                s,
            )
        }
    };
    let rolled = outcome.as_ref().and_then(|o| {
        let dm = o.building_damage?;
        rolled_line(&odds, &label(&(dm, o.building_points_left)))
    });
    Ok(Resolution {
        system: crate::pk::ID,
        action: "artillery".into(),
        modifiers: l.0,
        dice: rolls,
        outcome,
        summary,
        odds,
        rolled,
        notes,
    })
}

/// PK-A1..A3: fire at troops (a battery in counter-battery fire: its guns may be hit, PK-A3).
fn at_troops(
    input: &ArtilleryInput,
    t: &PkTables,
    mut l: Lines,
    (fixed, factor): (i64, Ratio),
    dice: Option<&mut DiceSource>,
) -> Result<Resolution<ArtilleryOutcome>, RuleError> {
    let a = &t.artillery;
    let mut notes = Vec::new();
    // PK-A2: an unlimbered battery is in skirmish order.
    let skirmish = input.target_skirmish || input.counter_battery;
    if input.counter_battery {
        l.note(
            "target battery unlimbered: skirmish order",
            "PK-A2",
            Provenance::Seed,
        );
    }
    let (df, _) = target_df(
        &mut l,
        t,
        skirmish,
        input.cover,
        input.enfilade,
        input.gun == Gun::Howitzer,
    );
    let cap = if input.counter_battery {
        input.target_points.or(input.target_figures)
    } else {
        input.target_figures
    };
    let mut hit = Hit::new(fixed, df, cap);
    hit.factor = factor;
    let lmin = t.rules.leader_min.v();
    let gmin = a.guns_hit_min.v();
    let cas = Dist::die(Die::D10).map(|&d| hit.casualties(d));
    let dist: Dist<Key> = if input.counter_battery {
        let guns = Dist::die(Die::Pct).map(|&v| v >= gmin);
        let crew = with_leader(&Dist::certain(1u32), lmin);
        cas.and_then(|&c| {
            if c == 0 {
                Dist::certain((0, None, None))
            } else {
                guns.and_then(|&g| {
                    if g {
                        Dist::certain((0, Some(true), None))
                    } else {
                        crew.map(|&(_, ld)| (c, Some(false), ld))
                    }
                })
            }
        })
    } else {
        with_leader(&cas, lmin).map(|&(c, ld)| (c, None, ld))
    };
    let odds = odds_from(&dist, key_label);
    if input.counter_battery && input.target_points.is_none() {
        notes.push(
            "give the target battery's points to know how many it loses when its guns are hit"
                .into(),
        );
    }
    let (outcome, rolls, summary) = match dice {
        None => (None, Vec::new(), "odds only".to_string()),
        Some(dice) => {
            let start = dice.rolls().len();
            let d10 = dice.roll(Die::D10, "artillery d10")?;
            let lf = hit.lf(d10);
            let mut c = hit.casualties(d10);
            let mut guns_hit = None;
            let mut points_lost = None;
            if input.counter_battery {
                guns_hit = Some(false);
                points_lost = Some(0);
                if c > 0 {
                    let g = dice.roll(Die::Pct, "counter-battery guns d%")? >= gmin;
                    guns_hit = Some(g);
                    if g {
                        c = 0;
                        points_lost = input.target_points.map(|p| guns_hit_points(p, t));
                    }
                }
            }
            let leader = super::common::roll_leader(dice, c, lmin, "leader d%")?;
            let officer_lost = match leader {
                Some(true) => input.target_officer,
                _ => None,
            };
            let s = format!(
                "d10 {d10}: LF {lf} vs DF {df}: {}",
                key_label(&(c, guns_hit.filter(|_| hit.casualties(d10) > 0), leader))
            );
            (
                Some(ArtilleryOutcome {
                    lf,
                    lf_value: lf_value(lf),
                    df,
                    casualties: c,
                    guns_hit,
                    points_lost,
                    leader_lost: leader,
                    officer_lost,
                    building_damage: None,
                    building_points_left: None,
                    building_collapses: None,
                    d10,
                }),
                rolls_since(dice, start),
                s,
            )
        }
    };
    let rolled = outcome.as_ref().and_then(|o| {
        // the odds key: whether the guns were hit counts only when the d10 reached the DV
        let guns = o.guns_hit.filter(|_| hit.casualties(o.d10) > 0);
        rolled_line(&odds, &key_label(&(o.casualties, guns, o.leader_lost)))
    });
    Ok(Resolution {
        system: crate::pk::ID,
        action: "artillery".into(),
        modifiers: l.0,
        dice: rolls,
        outcome,
        summary,
        odds,
        rolled,
        notes,
    })
}

/// The result of a building falling on its occupants.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CollapseOutcome {
    /// The exact LF.
    pub lf: Ratio,
    /// The LF as a number.
    pub lf_value: f64,
    /// The occupants' DF (no cover: the building is gone).
    pub df: i64,
    /// Figures the occupants lose.
    pub casualties: u32,
    /// PK-L1: a leader fell (null when there were no casualties).
    pub leader_lost: Option<bool>,
    /// The d10 read.
    pub d10: u32,
}

/// PK-A4: a building at 0 points collapses and its point value is an AV (+ d10) against the troops
/// inside, at their DV without cover.
pub fn building_collapse(
    building_points: u32,
    occupants: Option<u32>,
    t: &PkTables,
    dice: Option<&mut DiceSource>,
) -> Result<Resolution<CollapseOutcome>, RuleError> {
    need_positive(building_points, "building_points")?;
    let mut l = Lines::default();
    l.base(
        "building points (AV)",
        i64::from(building_points),
        "PK-A4",
        Provenance::Seed,
    );
    l.note("d10", "PK-A4", Provenance::Seed);
    let df = t.dv.formed.v();
    l.target("occupants' DV", df, "PK-A4", t.dv.formed.provenance);
    let hit = Hit::new(i64::from(building_points), df, occupants);
    let lmin = t.rules.leader_min.v();
    let dist = with_leader(&Dist::die(Die::D10).map(|&d| hit.casualties(d)), lmin);
    let odds = odds_from(&dist, |(c, ld)| cas_label(*c, *ld));
    let (outcome, rolls, summary) = match dice {
        None => (None, Vec::new(), "odds only".to_string()),
        Some(dice) => {
            let start = dice.rolls().len();
            let d10 = dice.roll(Die::D10, "collapse d10")?;
            let c = hit.casualties(d10);
            let leader = super::common::roll_leader(dice, c, lmin, "leader d%")?;
            let lf = hit.lf(d10);
            let s = format!("d10 {d10}: LF {lf} vs DF {df}: {}", cas_label(c, leader));
            (
                Some(CollapseOutcome {
                    lf,
                    lf_value: lf_value(lf),
                    df,
                    casualties: c,
                    leader_lost: leader,
                    d10,
                }),
                rolls_since(dice, start),
                s,
            )
        }
    };
    let rolled = outcome
        .as_ref()
        .and_then(|o| rolled_line(&odds, &cas_label(o.casualties, o.leader_lost)));
    Ok(Resolution {
        system: crate::pk::ID,
        action: "collapse".into(),
        modifiers: l.0,
        dice: rolls,
        outcome,
        summary,
        odds,
        rolled,
        notes: Vec::new(),
    })
}
