//! The d6 resolutions of the Portable Wargame variant: activation, artillery and rifle fire, melee,
//! army defeat and the dice for the first side.

use serde::{Deserialize, Serialize};

use super::{Army, Gunnery, PwTables, Quality, UnitKind, UnitType};
use kepi_game::dice::{DiceSource, Die, Dist, Ratio, Roll};
use kepi_game::rules::{
    Effect, ModifierLine, Resolution, RuleError, RuleId, odds_from, rolled_line,
};
use kepi_game::tables::{Provenance, Sourced};

use super::state::Side;

const T1: RuleId = RuleId::new("PW-T1");
const T2: RuleId = RuleId::new("PW-T2");
const A1: RuleId = RuleId::new("PW-A1");
const R1: RuleId = RuleId::new("PW-R1");
const X1: RuleId = RuleId::new("PW-X1");
const V1: RuleId = RuleId::new("PW-V1");
const U1: RuleId = RuleId::new("PW-U1");
const G1: RuleId = RuleId::new("PW-G1");

/// All the PW rule ids this module cites (checked against RULES.md by a test).
#[cfg(test)]
const CITED: [RuleId; 8] = [T1, T2, A1, R1, X1, V1, U1, G1];

/// The largest strength a unit may be given (the table's 4 plus room for scenarios).
const MAX_SP: u32 = 20;

fn line(label: impl Into<String>, v: &Sourced<i64>, rule: RuleId) -> ModifierLine {
    ModifierLine::new(label, Effect::Add(Ratio::int(v.v())), rule, v.provenance)
}

fn target(label: impl Into<String>, v: &Sourced<i64>, rule: RuleId) -> ModifierLine {
    ModifierLine::new(label, Effect::Target(Ratio::int(v.v())), rule, v.provenance)
}

fn check_sp(sp: u32, field: &str) -> Result<(), RuleError> {
    if sp == 0 || sp > MAX_SP {
        return Err(RuleError::input(
            field,
            format!("{sp} strength points is not a unit on the table"),
            format!("1 to {MAX_SP}"),
        ));
    }
    Ok(())
}

/// Rolls one d6 when there are dice; returns the value and exactly the rolls this call made.
fn roll_d6(
    dice: Option<&mut DiceSource>,
    label: &str,
) -> Result<(Option<u32>, Vec<Roll>), RuleError> {
    match dice {
        None => Ok((None, Vec::new())),
        Some(d) => {
            let start = d.rolls().len();
            let v = d.roll(Die::D6, label)?;
            let rolls = d.rolls().get(start..).unwrap_or_default().to_vec();
            Ok((Some(v), rolls))
        }
    }
}

fn sum(mods: &[ModifierLine]) -> i64 {
    mods.iter()
        .filter_map(|m| match &m.effect {
            Effect::Add(r) => Some(r.floor()),
            _ => None,
        })
        .sum()
}

/// Strength-point modifier lines shared by fire (firers) and melee (infantry and artillery).
fn strength_lines(
    sp: u32,
    tables: &PwTables,
    strong: &Sourced<i64>,
    weak: &Sourced<i64>,
    who: &str,
    rule: RuleId,
) -> Vec<ModifierLine> {
    let s = &tables.strength;
    let sp = sp as i64;
    if sp > s.strong_above.v() {
        let mut l = line(
            format!("{who} more than {} SP", s.strong_above.v()),
            strong,
            rule,
        );
        l.provenance = l.provenance.weakest(s.strong_above.provenance);
        vec![l]
    } else if sp < s.weak_below.v() {
        let mut l = line(
            format!("{who} fewer than {} SP", s.weak_below.v()),
            weak,
            rule,
        );
        l.provenance = l.provenance.weakest(s.weak_below.provenance);
        vec![l]
    } else {
        Vec::new()
    }
}

/// Hits from a modified score: `needs` or more one hit; `two_at` or more (melee only) two.
fn hits_for(score: i64, needs: i64, two_at: Option<i64>) -> u32 {
    match two_at {
        Some(t) if score >= t => 2,
        _ if score >= needs => 1,
        _ => 0,
    }
}

fn hits_label(h: &u32) -> String {
    match h {
        1 => "1 hit".to_string(),
        n => format!("{n} hits"),
    }
}

// ---------------------------------------------------------------------------------------------
// PW-T2 activation

/// PW-T2: a unit trying to activate (to move this half-turn).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActivationInput {
    /// Whose staff work: Prussians and Garibaldi's Redshirts 2+, all others 3+.
    pub army: Army,
    /// Elite +1, poor -1.
    pub quality: Quality,
}

/// The activation roll's result. JSON keys `score` and `active` are the CLI contract.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActivationOutcome {
    /// The modified score (d6 + quality).
    pub score: i64,
    /// True when the unit may move.
    pub active: bool,
    /// The d6 as rolled.
    pub roll: u32,
    /// The score needed.
    pub needs: i64,
}

/// PW-T2: activation. A d6 plus the quality modifier must reach the army's threshold (2 for
/// Prussians and Garibaldi's Redshirts, 3 for all others including non-Prussian Germans).
pub fn activate(
    input: &ActivationInput,
    tables: &PwTables,
    dice: Option<&mut DiceSource>,
) -> Result<Resolution<ActivationOutcome>, RuleError> {
    let a = &tables.activation;
    let needs = a.needs(input.army);
    let mut modifiers = vec![target(format!("{} needs", input.army), needs, T2)];
    match input.quality {
        Quality::Elite => modifiers.push(line("elite", &a.elite, T2)),
        Quality::Poor => modifiers.push(line("poor", &a.poor, T2)),
        Quality::Normal => {}
    }
    let m = sum(&modifiers);
    let n = needs.v();
    let outcome_of = |d: u32| ActivationOutcome {
        score: d as i64 + m,
        active: d as i64 + m >= n,
        roll: d,
        needs: n,
    };
    let label = |a: &bool| if *a { "active" } else { "not active" }.to_string();
    let odds = odds_from(&Dist::die(Die::D6).map(|d| outcome_of(*d).active), label);
    let (roll, rolls) = roll_d6(dice, "activation")?;
    let outcome = roll.map(outcome_of);
    let summary = match &outcome {
        Some(o) => format!(
            "score {} (d6 {}), needs {}: {}",
            o.score,
            o.roll,
            o.needs,
            if o.active { "active" } else { "not active" }
        ),
        None => format!("needs {n} on d6{m:+}"),
    };
    let rolled = outcome
        .as_ref()
        .and_then(|o| rolled_line(&odds, &label(&o.active)));
    Ok(Resolution {
        system: crate::pw::ID,
        action: "activate".into(),
        modifiers,
        dice: rolls,
        outcome,
        summary,
        odds,
        rolled,
        notes: Vec::new(),
    })
}

// ---------------------------------------------------------------------------------------------
// PW-A1 / PW-R1 fire

/// A fire roll's result. JSON keys `score` and `hits` are the CLI contract.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FireOutcome {
    /// The modified score.
    pub score: i64,
    /// Hits inflicted (0 or 1).
    pub hits: u32,
    /// The d6 as rolled.
    pub roll: u32,
    /// The score needed.
    pub needs: i64,
}

/// PW-A1: a battery firing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArtilleryInput {
    /// Whose guns.
    pub army: Gunnery,
    /// The battery's strength points.
    pub sp: u32,
    /// The target is in cover.
    pub target_cover: bool,
    /// Hexes to the target (PW-G1), when known: checked against the guns' range.
    #[serde(default)]
    pub range: Option<u32>,
}

/// PW-R1: infantry firing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RifleInput {
    /// The firers' strength points.
    pub sp: u32,
    /// The firers moved this turn.
    pub moved: bool,
    /// The target is in cover.
    pub target_cover: bool,
    /// The firers' type, when known (cavalry and artillery cannot use rifle fire).
    #[serde(default)]
    pub firer: Option<UnitType>,
    /// Hexes to the target (PW-G1), when known: checked against the firers' range.
    #[serde(default)]
    pub range: Option<u32>,
}

/// PW-G1 + PW-U1: checks a target distance against a unit type's range.
fn check_range(
    tables: &PwTables,
    t: UnitType,
    range: Option<u32>,
    mods: &mut Vec<ModifierLine>,
) -> Result<(), RuleError> {
    let Some(d) = range else { return Ok(()) };
    let row = tables.unit(t);
    let max = row.range.v();
    if d == 0 || d as i64 > max {
        return Err(RuleError::input(
            "range",
            format!(
                "{t} reach {}; the target is {} away (PW-G1)",
                kepi_game::rules::count(max, "hex", "hexes"),
                kepi_game::rules::count(d, "hex", "hexes")
            ),
            format!("1 to {max}"),
        ));
    }
    mods.push(ModifierLine::new(
        format!(
            "{t} weapon range {}",
            kepi_game::rules::count(max, "hex", "hexes")
        ),
        Effect::Note,
        U1,
        row.range.provenance,
    ));
    mods.push(ModifierLine::new(
        format!(
            "target {} away: in range",
            kepi_game::rules::count(d, "hex", "hexes")
        ),
        Effect::Note,
        G1,
        Provenance::Seed,
    ));
    Ok(())
}

fn fire_resolution(
    action: &str,
    modifiers: Vec<ModifierLine>,
    needs: &Sourced<i64>,
    dice: Option<&mut DiceSource>,
    notes: Vec<String>,
) -> Result<Resolution<FireOutcome>, RuleError> {
    let m = sum(&modifiers);
    let n = needs.v();
    let outcome_of = |d: u32| FireOutcome {
        score: d as i64 + m,
        hits: hits_for(d as i64 + m, n, None),
        roll: d,
        needs: n,
    };
    let odds = odds_from(&Dist::die(Die::D6).map(|d| outcome_of(*d).hits), hits_label);
    let (roll, rolls) = roll_d6(dice, action)?;
    let outcome = roll.map(outcome_of);
    let summary = match &outcome {
        Some(o) => format!(
            "score {} (d6 {}), needs {}: {}",
            o.score,
            o.roll,
            o.needs,
            hits_label(&o.hits)
        ),
        None => format!("needs {n} on d6{m:+}"),
    };
    let rolled = outcome
        .as_ref()
        .and_then(|o| rolled_line(&odds, &hits_label(&o.hits)));
    Ok(Resolution {
        system: crate::pw::ID,
        action: action.into(),
        modifiers,
        dice: rolls,
        outcome,
        summary,
        odds,
        rolled,
        notes,
    })
}

/// PW-A1: artillery fire, line of sight only. d6 needing 4; Prussian +1; French Imperial -1;
/// target in cover -1; firers with more than 3 SP +1, fewer than 3 SP -1. Guns that fire cannot move
/// that turn (see [`super::PwUnit::can_move`]).
pub fn artillery(
    input: &ArtilleryInput,
    tables: &PwTables,
    dice: Option<&mut DiceSource>,
) -> Result<Resolution<FireOutcome>, RuleError> {
    check_sp(input.sp, "sp")?;
    let a = &tables.artillery;
    let mut modifiers = vec![target("hit on", &a.needs, A1)];
    check_range(tables, input.army.unit_type(), input.range, &mut modifiers)?;
    match input.army {
        Gunnery::Prussian => modifiers.push(line("Prussian guns", &a.prussian, A1)),
        Gunnery::FrenchImperial => {
            modifiers.push(line("French Imperial guns", &a.french_imperial, A1))
        }
        Gunnery::FrenchRepublican | Gunnery::German => {}
    }
    if input.target_cover {
        modifiers.push(line("target in cover", &a.target_cover, A1));
    }
    modifiers.extend(strength_lines(
        input.sp, tables, &a.strong, &a.weak, "firers", A1,
    ));
    let notes = vec![
        "PW-A1: line-of-sight fire only; guns that fire cannot also move this turn".to_string(),
    ];
    fire_resolution("artillery", modifiers, &a.needs, dice, notes)
}

/// PW-R1: rifle fire (active and inactive units alike). d6 needing 4; firers moved this turn -1;
/// target in cover -1; firers with more than 3 SP +1, fewer than 3 SP -1.
pub fn rifle(
    input: &RifleInput,
    tables: &PwTables,
    dice: Option<&mut DiceSource>,
) -> Result<Resolution<FireOutcome>, RuleError> {
    check_sp(input.sp, "sp")?;
    let r = &tables.rifle;
    let mut modifiers = vec![target("hit on", &r.needs, R1)];
    match input.firer {
        Some(t) if t.kind() == UnitKind::Cavalry => {
            return Err(RuleError::input(
                "unit",
                "cavalry does not fire: range 0 and no dismounted fire (PW-U1)",
                "french-infantry, german-infantry",
            ));
        }
        Some(t) if t.kind() == UnitKind::Artillery => {
            return Err(RuleError::input(
                "unit",
                "guns fire with artillery fire (PW-A1), not rifle fire",
                "french-infantry, german-infantry",
            ));
        }
        Some(t) => check_range(tables, t, input.range, &mut modifiers)?,
        None if input.range.is_some() => {
            return Err(RuleError::input(
                "range",
                "a range can only be checked against the firers' type",
                "give the unit type too (french-infantry, german-infantry)",
            ));
        }
        None => {}
    }
    if input.moved {
        modifiers.push(line("firers moved this turn", &r.moved, R1));
    }
    if input.target_cover {
        modifiers.push(line("target in cover", &r.target_cover, R1));
    }
    modifiers.extend(strength_lines(
        input.sp, tables, &r.strong, &r.weak, "firers", R1,
    ));
    fire_resolution("rifle", modifiers, &r.needs, dice, Vec::new())
}

// ---------------------------------------------------------------------------------------------
// PW-X1 melee

/// PW-X1: one side of a melee (both sides roll; resolve each with [`melee`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeleeInput {
    /// The arm rolling.
    pub unit: UnitKind,
    /// Its strength points.
    pub sp: u32,
    /// The arm it fights.
    pub enemy: UnitKind,
    /// It attacks the enemy through the enemy's flank or rear hexsides.
    pub attacking_flank: bool,
    /// It is attacked through its own flank or rear hexsides.
    pub attacked_flank: bool,
    /// The enemy stands uphill of it.
    pub enemy_uphill: bool,
    /// The enemy is in cover.
    pub enemy_cover: bool,
}

/// A melee roll's result. JSON keys `score` and `hits` are the CLI contract.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeleeOutcome {
    /// The modified score.
    pub score: i64,
    /// Hits inflicted on the enemy (0, 1, or 2 on a modified 8+).
    pub hits: u32,
    /// The d6 as rolled.
    pub roll: u32,
    /// The score needed for one hit.
    pub needs: i64,
}

/// PW-X1: the modifier lines of one side of a melee.
fn melee_lines(input: &MeleeInput, tables: &PwTables) -> Vec<ModifierLine> {
    let m = &tables.melee;
    let s = &tables.strength;
    let mut out = vec![target("hit on", &m.needs, X1), {
        let mut l = target("two hits on", &m.two_hits_at, X1);
        l.effect = Effect::Note;
        l.value = format!("{}+", m.two_hits_at.v());
        l
    }];
    if input.attacking_flank {
        out.push(line("attacking in flank or rear", &m.attacking_flank, X1));
    }
    if input.attacked_flank {
        out.push(line("attacked in flank or rear", &m.attacked_flank, X1));
    }
    if input.enemy_uphill {
        out.push(line("enemy uphill", &m.enemy_uphill, X1));
    }
    if input.enemy_cover {
        out.push(line("enemy in cover", &m.enemy_cover, X1));
    }
    let sp = input.sp as i64;
    match input.unit {
        UnitKind::Infantry | UnitKind::Artillery => {
            out.extend(strength_lines(
                input.sp,
                tables,
                &m.strong,
                &m.weak,
                input.unit.as_str(),
                X1,
            ));
        }
        UnitKind::Cavalry => {
            if sp < s.cavalry_weak_below.v() {
                let mut l = line(
                    format!("cavalry fewer than {} SP", s.cavalry_weak_below.v()),
                    &m.cavalry_weak,
                    X1,
                );
                l.provenance = l.provenance.weakest(s.cavalry_weak_below.provenance);
                out.push(l);
            }
        }
    }
    let v = m.versus.get(input.unit, input.enemy);
    if v.v() != 0 {
        out.push(line(
            format!("{} fighting {}", input.unit, input.enemy),
            v,
            X1,
        ));
    }
    out
}

/// PW-X1: hits from one side's modified melee score (`needs`+ one hit, `two_hits_at`+ two).
pub fn melee_hits(score: i64, tables: &PwTables) -> u32 {
    hits_for(
        score,
        tables.melee.needs.v(),
        Some(tables.melee.two_hits_at.v()),
    )
}

/// PW-X1: one side's melee roll. Melee happens when a unit tries to enter a hex held by the enemy;
/// both sides roll a d6 needing 4 for a hit, a modified 8 or more inflicting two. Modifiers:
/// attacking flank/rear +1; attacked in flank/rear -1; enemy uphill -1; enemy in cover -1; infantry
/// or artillery with more than 3 SP +1, fewer than 3 SP -1; cavalry with fewer than 2 SP -1; and arm
/// against arm (cavalry v infantry +1, infantry v cavalry -1, cavalry v artillery +2, artillery v
/// cavalry -2, infantry v artillery +1, artillery v infantry -1).
pub fn melee(
    input: &MeleeInput,
    tables: &PwTables,
    dice: Option<&mut DiceSource>,
) -> Result<Resolution<MeleeOutcome>, RuleError> {
    check_sp(input.sp, "sp")?;
    let modifiers = melee_lines(input, tables);
    let m = sum(&modifiers);
    let n = tables.melee.needs.v();
    let outcome_of = |d: u32| MeleeOutcome {
        score: d as i64 + m,
        hits: melee_hits(d as i64 + m, tables),
        roll: d,
        needs: n,
    };
    let odds = odds_from(&Dist::die(Die::D6).map(|d| outcome_of(*d).hits), hits_label);
    let (roll, rolls) = roll_d6(dice, &format!("{} melee", input.unit))?;
    let outcome = roll.map(outcome_of);
    let summary = match &outcome {
        Some(o) => format!(
            "score {} (d6 {}), needs {}: {} on the enemy",
            o.score,
            o.roll,
            o.needs,
            hits_label(&o.hits)
        ),
        None => format!(
            "needs {n} on d6{m:+}; {}+ two hits",
            tables.melee.two_hits_at.v()
        ),
    };
    let rolled = outcome
        .as_ref()
        .and_then(|o| rolled_line(&odds, &hits_label(&o.hits)));
    Ok(Resolution {
        system: crate::pw::ID,
        action: "melee".into(),
        modifiers,
        dice: rolls,
        outcome,
        summary,
        odds,
        rolled,
        notes: vec!["PW-X1: the enemy rolls too; resolve its side the same way".into()],
    })
}

// ---------------------------------------------------------------------------------------------
// PW-V1 defeat

/// PW-V1: an army's losses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DefeatInput {
    /// Strength points lost.
    pub sp_lost: u32,
    /// Strength points at the start.
    pub sp_total: u32,
    /// Units lost.
    pub units_lost: u32,
    /// Units at the start.
    pub units_total: u32,
}

/// PW-V1's verdict. The JSON key `defeated` is the CLI contract.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct DefeatOutcome {
    /// The army is defeated.
    pub defeated: bool,
    /// More than half its strength points are lost.
    pub by_sp: bool,
    /// More than half its units are lost.
    pub by_units: bool,
}

/// PW-V1: an army is defeated once it has lost more than half its strength points OR more than half
/// its units ("more than half": lost x 2 > total). No dice: the odds are the certain outcome.
pub fn defeat(input: &DefeatInput) -> Result<Resolution<DefeatOutcome>, RuleError> {
    for (lost, total, lf, tf) in [
        (input.sp_lost, input.sp_total, "sp-lost", "sp-total"),
        (
            input.units_lost,
            input.units_total,
            "units-lost",
            "units-total",
        ),
    ] {
        if total == 0 {
            return Err(RuleError::input(
                tf,
                "an army has at least one",
                "1 or more",
            ));
        }
        if lost > total {
            return Err(RuleError::input(
                lf,
                format!("{lost} lost out of {total}"),
                format!("0 to {total}"),
            ));
        }
    }
    let by_sp = input.sp_lost as u64 * 2 > input.sp_total as u64;
    let by_units = input.units_lost as u64 * 2 > input.units_total as u64;
    let outcome = DefeatOutcome {
        defeated: by_sp || by_units,
        by_sp,
        by_units,
    };
    let modifiers = vec![
        ModifierLine::new(
            format!("SP lost {} of {}", input.sp_lost, input.sp_total),
            Effect::Note,
            V1,
            Provenance::Seed,
        ),
        ModifierLine::new(
            format!("units lost {} of {}", input.units_lost, input.units_total),
            Effect::Note,
            V1,
            Provenance::Seed,
        ),
    ];
    let label = |o: &DefeatOutcome| if o.defeated { "defeated" } else { "fights on" }.to_string();
    let summary = match (by_sp, by_units) {
        (true, true) => "defeated: more than half its SP and more than half its units lost".into(),
        (true, false) => "defeated: more than half its SP lost".into(),
        (false, true) => "defeated: more than half its units lost".into(),
        (false, false) => "fights on".to_string(),
    };
    Ok(Resolution {
        system: crate::pw::ID,
        action: "defeat".into(),
        modifiers,
        dice: Vec::new(),
        odds: odds_from(&Dist::certain(outcome.clone()), label),
        // no dice: the verdict is certain, the one line
        rolled: Some(0),
        outcome: Some(outcome),
        summary,
        notes: Vec::new(),
    })
}

// ---------------------------------------------------------------------------------------------
// PW-T1 first side

/// Who moves first. The JSON key `first` names the side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FirstSideOutcome {
    /// The side taking the first half-turn.
    pub first: Side,
    /// The d6, when it was diced for.
    pub roll: Option<u32>,
}

/// PW-T1: the defender goes second; when neither side is obviously on the defensive, dice for who
/// goes first (house method: one d6, side A on 1-3 by default).
pub fn first_side(
    defender: Option<Side>,
    tables: &PwTables,
    dice: Option<&mut DiceSource>,
) -> Result<Resolution<FirstSideOutcome>, RuleError> {
    if let Some(d) = defender {
        let o = FirstSideOutcome {
            first: d.other(),
            roll: None,
        };
        return Ok(Resolution {
            system: crate::pw::ID,
            action: "first-side".into(),
            modifiers: vec![ModifierLine::new(
                format!("side {d} defends: goes second"),
                Effect::Note,
                T1,
                Provenance::Seed,
            )],
            dice: Vec::new(),
            odds: odds_from(&Dist::certain(o.first), |s| format!("side {s} first")),
            // no dice: the defender's side is certain, the one line
            rolled: Some(0),
            summary: format!("side {} goes first", o.first),
            outcome: Some(o),
            notes: Vec::new(),
        });
    }
    let t = &tables.turn.first_a_up_to;
    let side_of = |d: u32| {
        if d as i64 <= t.v() { Side::A } else { Side::B }
    };
    let modifiers = vec![ModifierLine::new(
        "side A first on d6 up to",
        Effect::Target(Ratio::int(t.v())),
        T1,
        t.provenance,
    )];
    let label = |s: &Side| format!("side {s} first");
    let odds = odds_from(&Dist::die(Die::D6).map(|d| side_of(*d)), label);
    let (roll, rolls) = roll_d6(dice, "first side")?;
    let outcome = roll.map(|d| FirstSideOutcome {
        first: side_of(d),
        roll: Some(d),
    });
    let summary = match &outcome {
        Some(o) => format!("side {} goes first", o.first),
        None => "dice for the first side".into(),
    };
    let rolled = outcome
        .as_ref()
        .and_then(|o| rolled_line(&odds, &label(&o.first)));
    Ok(Resolution {
        system: crate::pw::ID,
        action: "first-side".into(),
        modifiers,
        dice: rolls,
        outcome,
        summary,
        odds,
        rolled,
        notes: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cited_ids_are_known() {
        for id in CITED {
            assert!(id.is_known(), "{id}");
        }
        for id in ["PW-X2", "PW-H1"] {
            assert!(RuleId::new(id).is_known());
        }
    }

    #[test]
    fn hits_thresholds() {
        assert_eq!(hits_for(3, 4, Some(8)), 0);
        assert_eq!(hits_for(4, 4, Some(8)), 1);
        assert_eq!(hits_for(7, 4, Some(8)), 1);
        assert_eq!(hits_for(8, 4, Some(8)), 2);
        assert_eq!(hits_for(9, 4, None), 1);
    }
}
