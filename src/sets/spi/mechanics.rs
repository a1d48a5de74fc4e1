//! SPI mechanics other than the combat roll: calendar, flanking geometry, attack planning, supply,
//! fortifications, unit reduction, hasty attacks, formation status, orders of battle, EB river
//! rolls, victory and the initial forces.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use super::{ForceRow, SpiTables};
use kepi_game::dice::{DiceSource, Die, Dist, Ratio};
use kepi_game::rules::crt::{CalendarEntry, turn_dates, vocab};
use kepi_game::rules::{
    Effect, ModifierLine, Resolution, RuleError, RuleId, odds_from, rolled_line,
};
use kepi_game::tables::Provenance;

vocab!(
    /// SPI-S1: the three supply states.
    SupplyState {
        /// Path of at most 10 hexes to a source.
        Supplied => "supplied",
        /// Path of at most 25 hexes: attack, defence and movement halved.
        Unsupplied => "unsupplied",
        /// Neither: cannot attack (hasty attacks allowed), defence and movement halved.
        Isolated => "isolated",
    }
);

vocab!(
    /// SPI-H2: formation status (optional rule).
    Formation {
        /// Full strength, no zone of control.
        Concentrated => "concentrated",
        /// Zone of control, strength halved in any combat.
        Extended => "extended",
    }
);

/// The two players, as both board games name them (one home for SPI and 1870: [`kepi_game::rules::crt`]).
pub use kepi_game::rules::crt::Nation;

vocab!(
    /// SPI-W1: the levels of victory, from the French best to the German best.
    VictoryLevel {
        /// 60 or less.
        FrenchDecisive => "french-decisive",
        /// 61-80.
        FrenchSubstantial => "french-substantial",
        /// 81-100.
        FrenchMarginal => "french-marginal",
        /// 101-130: neither player wins.
        Draw => "draw",
        /// 131-150.
        GermanMarginal => "german-marginal",
        /// 151-199.
        GermanSubstantial => "german-substantial",
        /// 200 or over.
        GermanDecisive => "german-decisive",
    }
);

impl VictoryLevel {
    /// The level as the Victory Points Chart prints it ("French Marginal Victory", "Draw").
    pub fn title(self) -> &'static str {
        match self {
            VictoryLevel::FrenchDecisive => "French Decisive Victory",
            VictoryLevel::FrenchSubstantial => "French Substantial Victory",
            VictoryLevel::FrenchMarginal => "French Marginal Victory",
            VictoryLevel::Draw => "Draw",
            VictoryLevel::GermanMarginal => "German Marginal Victory",
            VictoryLevel::GermanSubstantial => "German Substantial Victory",
            VictoryLevel::GermanDecisive => "German Decisive Victory",
        }
    }
}

vocab!(
    /// SPI-C3: what stands in one of the six hexes around the defender, for the flanking test.
    Around {
        /// A participating attacking unit.
        Attacker => "attacker",
        /// No attacker here, but the hex is adjacent to a participating attacker.
        AdjacentToAttacker => "adjacent-to-attacker",
        /// Neither.
        Empty => "empty",
    }
);

/// SPI-T1: game-turn `turn` (1-11) and its dates (turn n: Aug 1 1870 + 3(n-1) days, three days).
pub fn spi_turn(turn: u32, t: &SpiTables) -> Result<CalendarEntry, RuleError> {
    let last = t.calendar.turns.v();
    if turn == 0 || turn > last {
        return Err(RuleError::input(
            "--turn",
            format!("{turn} is not a game-turn of SPI Franco-Prussian War"),
            format!("1 to {last}"),
        ));
    }
    let (start, end) = turn_dates(turn, t.calendar.days_per_turn.v())?;
    let mut marks =
        vec!["German player-turn first: reinforcement, movement, combat; then French".to_string()];
    for r in t
        .forces
        .iter()
        .filter(|r| r.turn == turn && r.oob.is_none())
    {
        marks.push(format!(
            "reinforcement ({}): {} x{} {} at {}",
            r.nation,
            r.count
                .map(|c| c.to_string())
                .unwrap_or_else(|| "any".into()),
            r.strength,
            if r.entrained { "entrained" } else { "" },
            r.place
        ));
    }
    if turn == last {
        marks.push("last game-turn: evaluate victory (SPI-W1)".to_string());
    }
    Ok(CalendarEntry {
        turn,
        start,
        end,
        marks,
    })
}

/// SPI-C3: the flanking test over the six hexes around the defender, numbered 0-5 clockwise. Every
/// surrounding hex must hold a participating attacker or be adjacent to one; a hex of the ring is
/// adjacent to its two ring neighbours, so an attacker at `i` covers `i-1`, `i`, `i+1`. Two opposite
/// attackers or three in a triangle are the minimum.
pub fn is_flanking(ring: [Around; 6]) -> bool {
    (0..6).all(|i| {
        ring[i] != Around::Empty
            || ring[(i + 5) % 6] == Around::Attacker
            || ring[(i + 1) % 6] == Around::Attacker
    })
}

/// SPI-C3: the same test from which ring hexes hold participating attackers.
pub fn is_flanking_from(attackers: [bool; 6]) -> bool {
    is_flanking(attackers.map(|a| if a { Around::Attacker } else { Around::Empty }))
}

/// SPI-C3: whether the doubling applies: a flanking position, the attacker chooses to use it, and no
/// fortification in the defending hex.
pub fn flank_applies(ring: [Around; 6], attacker_uses_it: bool, fortification: bool) -> bool {
    attacker_uses_it && !fortification && is_flanking(ring)
}

/// SPI-C2: one planned attack: the attacking units (ids) and the enemy hexes (ids) it attacks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlannedAttack {
    /// Attacking unit ids.
    pub attackers: Vec<u32>,
    /// Defending hex ids (several hexes may be attacked by one group).
    pub hexes: Vec<u32>,
}

/// SPI-C2: each unit attacks at most once, each enemy hex is attacked at most once per phase.
pub fn check_attacks(plan: &[PlannedAttack]) -> Result<(), RuleError> {
    let mut units = std::collections::BTreeSet::new();
    let mut hexes = std::collections::BTreeSet::new();
    for (i, a) in plan.iter().enumerate() {
        if a.attackers.is_empty() || a.hexes.is_empty() {
            return Err(RuleError::input(
                format!("attack {}", i + 1),
                "an attack needs attackers and at least one hex",
                "one or more units against one or more adjacent hexes",
            ));
        }
        for u in &a.attackers {
            if !units.insert(*u) {
                return Err(RuleError::input(
                    format!("attack {}", i + 1),
                    format!("unit {u} already attacked this phase"),
                    "each unit attacks once per combat phase (SPI-C2)",
                ));
            }
        }
        for h in &a.hexes {
            if !hexes.insert(*h) {
                return Err(RuleError::input(
                    format!("attack {}", i + 1),
                    format!("hex {h} was already attacked this phase"),
                    "each enemy hex is attacked once per combat phase (SPI-C2)",
                ));
            }
        }
    }
    Ok(())
}

/// SPI-C4: attackers may advance (immediately, no MP) when every defending unit is gone.
pub fn advance_after_combat(defender_strengths_after: &[u32], fort_after: u32) -> bool {
    fort_after == 0 && defender_strengths_after.iter().all(|s| *s == 0)
}

/// SPI-S1: the state from the shortest path to a supply source (hexes, not through enemy units or
/// zones of control), or `None` when no path exists. Fortification units are always supplied.
pub fn supply_state(path_hexes: Option<u32>, t: &SpiTables) -> SupplyState {
    match path_hexes {
        Some(n) if n <= t.supply.supplied_max_hexes.v() => SupplyState::Supplied,
        Some(n) if n <= t.supply.unsupplied_max_hexes.v() => SupplyState::Unsupplied,
        _ => SupplyState::Isolated,
    }
}

/// SPI-S1: the Supply Effects Chart: multipliers of attack (None: cannot attack except hasty), defence
/// and movement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SupplyEffects {
    /// Offensive strength multiplier; None for isolated units.
    pub attack: Option<Ratio>,
    /// Defensive strength multiplier.
    pub defence: Ratio,
    /// Movement allowance multiplier.
    pub movement: Ratio,
}

/// SPI-S1: the effects of a supply state.
pub fn supply_effects(s: SupplyState, t: &SpiTables) -> SupplyEffects {
    let half = Ratio::new(1, i128::from(t.combat.unsupplied_divisor.v().max(1)));
    let iso = Ratio::new(1, i128::from(t.combat.isolated_defence_divisor.v().max(1)));
    match s {
        SupplyState::Supplied => SupplyEffects {
            attack: Some(Ratio::ONE),
            defence: Ratio::ONE,
            movement: Ratio::ONE,
        },
        SupplyState::Unsupplied => SupplyEffects {
            attack: Some(half),
            defence: half,
            movement: half,
        },
        SupplyState::Isolated => SupplyEffects {
            attack: None,
            defence: iso,
            movement: half,
        },
    }
}

/// SPI-S1 (Standard Game): strength after `phases` friendly movement phases spent isolated (1 CP each).
pub fn isolation_attrition(strength: u32, phases: u32, t: &SpiTables) -> u32 {
    strength.saturating_sub(phases.saturating_mul(t.supply.isolated_loss_per_phase.v()))
}

/// SPI-S1: how many friendly combat units a fortification can supply; None = any number (Metz and
/// Strasburg).
pub fn fort_supply_capacity(town: &str) -> Option<u32> {
    match town.trim().to_ascii_lowercase().as_str() {
        "metz" | "strasburg" | "strasbourg" => None,
        _ => Some(1),
    }
}

/// SPI-F1: a fortification's initial strength from the placement chart.
pub fn fort_strength(town: &str, t: &SpiTables) -> Option<u32> {
    t.forts
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(town.trim()))
        .map(|(_, v)| v.v())
}

/// SPI-F1: defence of a fortified hex: the units inside doubled plus the fort's own strength (a 5 in a
/// fort of 2 defends at 12). Halvings of the units (supply, formation) come before the doubling.
pub fn fort_defence(unit_defence: &[Ratio], fort: u32, t: &SpiTables) -> Ratio {
    let m = Ratio::from(t.combat.fort_multiplier.v());
    unit_defence.iter().copied().sum::<Ratio>() * m + Ratio::from(fort)
}

/// SPI-R1: applies a loss of `loss` combat points spread by the owner: `allocation[i]` CP come off unit
/// `i` (a fort may be one of them). The allocation must sum to the loss (or to everything when the loss
/// exceeds the total) and no unit may lose more than it has. Returns the strengths after; 0 = gone.
pub fn spread_losses(
    strengths: &[u32],
    loss: u32,
    allocation: &[u32],
) -> Result<Vec<u32>, RuleError> {
    if strengths.len() != allocation.len() {
        return Err(RuleError::input(
            "allocation",
            format!("{} entries for {} units", allocation.len(), strengths.len()),
            "one entry per unit involved",
        ));
    }
    let total: u32 = strengths.iter().sum();
    let due = loss.min(total);
    let given: u32 = allocation.iter().sum();
    if given != due {
        return Err(RuleError::input(
            "allocation",
            format!("the allocation takes {given} CP, the loss is {due}"),
            format!("entries summing to {due} (SPI-R1)"),
        ));
    }
    strengths
        .iter()
        .zip(allocation)
        .enumerate()
        .map(|(i, (s, a))| {
            s.checked_sub(*a).ok_or_else(|| {
                RuleError::input(
                    "allocation",
                    format!("unit {} has {s} CP and cannot lose {a}", i + 1),
                    format!("0 to {s}"),
                )
            })
        })
        .collect()
}

/// SPI-H1: the strength a hasty attack counts for the odds: the allocated points (part or all of the
/// unit's strength), halved.
pub fn hasty_strength(
    allocated: u32,
    unit_strength: u32,
    t: &SpiTables,
) -> Result<Ratio, RuleError> {
    if allocated == 0 || allocated > unit_strength {
        return Err(RuleError::input(
            "allocated",
            format!("{allocated} CP from a unit of {unit_strength}"),
            format!("1 to {unit_strength}"),
        ));
    }
    Ok(Ratio::new(
        i128::from(allocated),
        i128::from(t.combat.hasty_divisor.v().max(1)),
    ))
}

/// SPI-H2: a unit exerts a zone of control only in extended formation.
pub fn has_zoc(f: Formation) -> bool {
    f == Formation::Extended
}

/// SPI-H2: rail movement only in concentrated formation.
pub fn may_use_rail(f: Formation) -> bool {
    f == Formation::Concentrated
}

/// SPI-H2: movement points to change formation status.
pub fn formation_change_cost(t: &SpiTables) -> u32 {
    t.formation.change_cost_mp.v()
}

/// SPI-O1: the German orders of battle.
pub const GERMAN_OOB: [&str; 6] = ["A", "B", "C", "D", "E", "F"];
/// SPI-O1: the French orders of battle.
pub const FRENCH_OOB: [&str; 6] = ["G", "H", "J", "K", "L", "M"];

/// SPI-O1: a side's secret numbering, letter -> 1..6 (each number once).
pub type OobNumbering = BTreeMap<String, u32>;

/// SPI-O1: checks a numbering: every letter of the side, each number 1-6 exactly once.
pub fn check_numbering(n: &OobNumbering, letters: &[&str; 6]) -> Result<(), RuleError> {
    let mut seen = [false; 6];
    for l in letters {
        let v = n.get(*l).copied().unwrap_or(0);
        if !(1..=6).contains(&v) || seen[(v - 1) as usize] {
            return Err(RuleError::input(
                format!("order of battle {l}"),
                format!("number {v} is missing, out of range or used twice"),
                "each of the six letters numbered 1-6, each number once",
            ));
        }
        seen[(v - 1) as usize] = true;
    }
    Ok(())
}

/// The printed numbering of one side, from the tables.
pub fn printed_numbering(t: &SpiTables, nation: Nation) -> OobNumbering {
    let m = match nation {
        Nation::German => &t.oob.german,
        Nation::French => &t.oob.french,
    };
    m.iter().map(|(k, v)| (k.clone(), v.v())).collect()
}

/// SPI-O1: the orders of battle picked by one die.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OobOutcome {
    /// The die.
    pub die: u32,
    /// German order of battle (A-F).
    pub german: String,
    /// French order of battle (G-M).
    pub french: String,
}

fn letter_for(n: &OobNumbering, die: u32) -> String {
    n.iter()
        .find(|(_, v)| **v == die)
        .map(|(k, _)| k.clone())
        .unwrap_or_default()
}

/// SPI-O1: the odds line of a pair of orders of battle.
fn oob_label(german: &str, french: &str) -> String {
    format!("German {german}, French {french}")
}

/// SPI-O1: one die roll picks each side's (secretly numbered) order of battle.
pub fn pick_oob(
    german: &OobNumbering,
    french: &OobNumbering,
    dice: Option<&mut DiceSource>,
) -> Result<Resolution<OobOutcome>, RuleError> {
    check_numbering(german, &GERMAN_OOB)?;
    check_numbering(french, &FRENCH_OOB)?;
    let dist = Dist::die(Die::D6).map(|d| (letter_for(german, *d), letter_for(french, *d)));
    let mut res = Resolution {
        system: crate::spi::ID,
        action: "oob".to_string(),
        modifiers: vec![ModifierLine::new(
            "one die picks both sides' orders of battle (kept secret)",
            Effect::Note,
            RuleId::new("SPI-O1"),
            Provenance::Seed,
        )],
        dice: Vec::new(),
        outcome: None,
        summary: "orders of battle by one d6".to_string(),
        odds: odds_from(&dist, |(g, f)| oob_label(g, f)),
        rolled: None,
        notes: Vec::new(),
    };
    if let Some(dice) = dice {
        let start = dice.rolls().len();
        let die = dice.roll(Die::D6, "order of battle d6")?;
        res.dice = dice.rolls()[start..].to_vec();
        let o = OobOutcome {
            die,
            german: letter_for(german, die),
            french: letter_for(french, die),
        };
        res.summary = format!("d6 {die}: German {}, French {}", o.german, o.french);
        res.rolled = rolled_line(&res.odds, &oob_label(&o.german, &o.french));
        res.outcome = Some(o);
    }
    Ok(res)
}

/// SPI-E1: the outcome of an EB unit's river roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EbOutcome {
    /// The die.
    pub die: u32,
    /// True: it continues along the rail line; false: it stops for this movement phase.
    pub continues: bool,
}

/// SPI-E1: an EB unit opening an enemy rail line across a river hexside: 1-3 continues, 4-6 stops.
pub fn eb_river(
    t: &SpiTables,
    dice: Option<&mut DiceSource>,
) -> Result<Resolution<EbOutcome>, RuleError> {
    let max = t.eb.continue_max.v();
    let label = |c: bool| {
        if c {
            "continues"
        } else {
            "stops for this movement phase"
        }
        .to_string()
    };
    let dist = Dist::die(Die::D6).map(|d| *d <= max);
    let mut res = Resolution {
        system: crate::spi::ID,
        action: "eb".to_string(),
        modifiers: vec![ModifierLine::new(
            "EB unit continues on",
            Effect::Target(Ratio::from(max)),
            RuleId::new("SPI-E1"),
            t.eb.continue_max.provenance,
        )],
        dice: Vec::new(),
        outcome: None,
        summary: format!("d6 1-{max} continues"),
        odds: odds_from(&dist, |c| label(*c)),
        rolled: None,
        notes: Vec::new(),
    };
    if let Some(dice) = dice {
        let start = dice.rolls().len();
        let die = dice.roll(Die::D6, "EB river d6")?;
        res.dice = dice.rolls()[start..].to_vec();
        let continues = die <= max;
        res.summary = format!("d6 {die}: {}", label(continues));
        res.rolled = rolled_line(&res.odds, &label(continues));
        res.outcome = Some(EbOutcome { die, continues });
    }
    Ok(res)
}

/// SPI-W1: what each side scored, as the umpire counts it at the end of game-turn 11.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VictoryTally {
    /// French CP destroyed (German VP).
    pub french_cp_destroyed: u32,
    /// French CP isolated at the end (German VP).
    pub french_cp_isolated: u32,
    /// The printed row award of the most advanced supplied German unit (10-184), 0 if none.
    pub german_row_vp: u32,
    /// German CP exited off the west edge from a hex supplied at the end.
    pub german_cp_exited: u32,
    /// German CP destroyed (French VP).
    pub german_cp_destroyed: u32,
    /// German CP isolated at the end (French VP).
    pub german_cp_isolated: u32,
    /// Hexes of penetration into Germany of the deepest supplied French unit.
    pub french_hexes_penetrated: u32,
}

/// SPI-W1: where the penetration awards were read, when the game's map gave them (`kepi game
/// apply victory`): the cell of the most advanced supplied German unit, and of the deepest
/// supplied French unit in Germany. Said in the awards' lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VictoryWhere {
    /// The German unit's cell (`--german-row-at`).
    pub german_row: Option<String>,
    /// Where the German award comes from (`--german-row-from`: the map's provenance, house on
    /// kepi's example board); the printed map's (seed) when not given.
    pub german_row_from: Option<Provenance>,
    /// The French unit's cell (`--french-penetration-at`).
    pub french_penetration: Option<String>,
}

/// SPI-W1: the totals and the net (German minus French).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VictoryScore {
    /// German VP.
    pub german: i64,
    /// French VP.
    pub french: i64,
    /// German minus French.
    pub net: i64,
}

/// SPI-W1: adds up the victory points.
pub fn victory_points(v: &VictoryTally, t: &SpiTables) -> Result<VictoryScore, RuleError> {
    let w = &t.victory;
    if v.german_row_vp != 0
        && !(w.german_row_min.v()..=w.german_row_max.v()).contains(&i64::from(v.german_row_vp))
    {
        return Err(RuleError::input(
            "german row VP",
            format!("{} is not a printed row award", v.german_row_vp),
            format!("0 or {} to {}", w.german_row_min.v(), w.german_row_max.v()),
        ));
    }
    let g = i64::from(v.french_cp_destroyed) * w.vp_per_cp_destroyed.v()
        + i64::from(v.french_cp_isolated) * w.vp_per_cp_isolated.v()
        + i64::from(v.german_row_vp)
        + i64::from(v.german_cp_exited) * w.german_vp_per_cp_exited.v();
    let f = i64::from(v.german_cp_destroyed) * w.vp_per_cp_destroyed.v()
        + i64::from(v.german_cp_isolated) * w.vp_per_cp_isolated.v()
        + i64::from(v.french_hexes_penetrated) * w.french_vp_per_hex.v();
    Ok(VictoryScore {
        german: g,
        french: f,
        net: g - f,
    })
}

/// SPI-W1: the level of victory for a net score (German minus French).
pub fn victory_level(net: i64, t: &SpiTables) -> VictoryLevel {
    VictoryLevel::ALL
        .iter()
        .copied()
        .find(|l| t.victory.max_net.get(l).is_some_and(|m| net <= m.v()))
        .unwrap_or(VictoryLevel::GermanDecisive)
}

/// SPI-W1: the level as a resolution (no dice), with the band used as a modifier line.
pub fn victory(net: i64, t: &SpiTables) -> Resolution<VictoryOutcome> {
    let level = victory_level(net, t);
    let band = t.victory.max_net.get(&level);
    let line = ModifierLine::new(
        match band {
            Some(_) => format!("{} up to", level.title()),
            None => format!("{} above", level.title()),
        },
        Effect::Target(Ratio::int(band.map(|b| b.v()).unwrap_or(199))),
        RuleId::new("SPI-W1"),
        band.map(|b| b.provenance).unwrap_or(Provenance::Seed),
    );
    let summary = format!("net {net} VP: {}", level.title());
    Resolution {
        system: crate::spi::ID,
        action: "victory".to_string(),
        modifiers: vec![
            ModifierLine::new(
                "net victory points (German - French)",
                Effect::Base(Ratio::int(net)),
                RuleId::new("SPI-W1"),
                Provenance::Seed,
            ),
            line,
        ],
        dice: Vec::new(),
        outcome: Some(VictoryOutcome {
            net_vp: net,
            level: level.title().to_string(),
            id: level,
        }),
        summary: summary.clone(),
        odds: odds_from(&Dist::certain(summary), |s| s.clone()),
        // no dice: the level is certain, the one line
        rolled: Some(0),
        notes: Vec::new(),
    }
}

/// SPI-W1 from a tally: each count and what it is worth as a line of its own (German VP, then
/// French VP), then the net and the level as [`victory`] gives them.
pub fn victory_from_tally(
    v: &VictoryTally,
    at: &VictoryWhere,
    t: &SpiTables,
) -> Result<Resolution<VictoryOutcome>, RuleError> {
    let score = victory_points(v, t)?;
    let w = &t.victory;
    let mut lines = Vec::new();
    let mut count = |label: &str, n: u32, each: &kepi_game::tables::Sourced<i64>, sign: i64| {
        if n > 0 {
            lines.push(ModifierLine::new(
                format!("{label}: {n} x {} VP", each.v()),
                Effect::Add(Ratio::int(sign * i64::from(n) * each.v())),
                RuleId::new("SPI-W1"),
                each.provenance,
            ));
        }
    };
    count(
        "German VP, French CP destroyed",
        v.french_cp_destroyed,
        &w.vp_per_cp_destroyed,
        1,
    );
    count(
        "German VP, French CP isolated at the end",
        v.french_cp_isolated,
        &w.vp_per_cp_isolated,
        1,
    );
    count(
        "German VP, CP exited off the west edge",
        v.german_cp_exited,
        &w.german_vp_per_cp_exited,
        1,
    );
    count(
        "French VP (subtracted), German CP destroyed",
        v.german_cp_destroyed,
        &w.vp_per_cp_destroyed,
        -1,
    );
    count(
        "French VP (subtracted), German CP isolated at the end",
        v.german_cp_isolated,
        &w.vp_per_cp_isolated,
        -1,
    );
    let penetration = match &at.french_penetration {
        Some(c) => format!("French VP (subtracted), hexes of penetration (the map: from {c})"),
        None => "French VP (subtracted), hexes of penetration".to_string(),
    };
    count(
        &penetration,
        v.french_hexes_penetrated,
        &w.french_vp_per_hex,
        -1,
    );
    if v.german_row_vp > 0 {
        lines.push(ModifierLine::new(
            match &at.german_row {
                Some(c) => format!(
                    "German VP, the map's award where the most advanced supplied unit stands ({c})"
                ),
                None => "German VP, printed row award of the most advanced supplied unit".into(),
            },
            Effect::Add(Ratio::int(i64::from(v.german_row_vp))),
            RuleId::new("SPI-W1"),
            at.german_row_from.unwrap_or(Provenance::Seed),
        ));
    }
    let mut r = victory(score.net, t);
    r.notes.push(format!(
        "German {} VP, French {} VP: net {} (SPI-W1)",
        score.german, score.french, score.net
    ));
    lines.append(&mut r.modifiers);
    r.modifiers = lines;
    Ok(r)
}

/// SPI-W1: the JSON of `kepi resolve spi victory`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VictoryOutcome {
    /// Net VP.
    pub net_vp: i64,
    /// "French Marginal Victory", "Draw", ...
    pub level: String,
    /// The level's id ("french-marginal").
    pub id: VictoryLevel,
}

/// SPI-I1: the most a French unit may be raised to at Chalons with the turn-6 reinforcing combat
/// points ("may be raised up to a Combat Strength not to exceed eight Combat Points").
pub const CHALONS_RAISE_CAP: u32 = 8;

/// SPI-I1: raises a unit of `strength` at Chalons from a `pool` of reinforcing combat points, up to
/// [`CHALONS_RAISE_CAP`]. Returns the unit's new strength and the points left in the pool ("a French
/// Combat unit with a Combat Strength of six ... may be raised to a Combat Strength of eight ... There
/// would be two reinforcing Combat Points remaining").
pub fn raise_at_chalons(strength: u32, pool: u32) -> (u32, u32) {
    let used = CHALONS_RAISE_CAP.saturating_sub(strength).min(pool);
    (strength + used, pool - used)
}

/// SPI-I1: a unit raised at Chalons, and the reinforcing CP left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaiseOutcome {
    /// CP before.
    pub from: u32,
    /// CP after.
    pub to: u32,
    /// Reinforcing CP left in the pool.
    pub pool_left: u32,
}

/// SPI-I1 as a resolution (no dice): [`raise_at_chalons`] with the unit's strength, the pool and
/// the cap as lines.
pub fn raise(strength: u32, pool: u32) -> Resolution<RaiseOutcome> {
    let (to, left) = raise_at_chalons(strength, pool);
    let line = |label: &str, e: Effect| {
        ModifierLine::new(label, e, RuleId::new("SPI-I1"), Provenance::Seed)
    };
    let summary =
        format!("raised at Chalons from {strength} to {to} CP; {left} reinforcing CP remain");
    Resolution {
        system: crate::spi::ID,
        action: "raise".to_string(),
        modifiers: vec![
            line(
                "the unit's combat strength",
                Effect::Base(Ratio::int(i64::from(strength))),
            ),
            line(
                "reinforcing combat points to spend",
                Effect::Add(Ratio::int(i64::from(pool))),
            ),
            line(
                "raised up to a Combat Strength not to exceed eight",
                Effect::Target(Ratio::int(i64::from(CHALONS_RAISE_CAP))),
            ),
        ],
        dice: Vec::new(),
        outcome: Some(RaiseOutcome {
            from: strength,
            to,
            pool_left: left,
        }),
        odds: odds_from(&Dist::certain(summary.clone()), |s| s.clone()),
        summary,
        rolled: Some(0),
        notes: Vec::new(),
    }
}

/// SPI-I1: the force rows of the Basic/Standard Game (`oob: None`) or of one order of battle.
pub fn forces<'a>(t: &'a SpiTables, oob: Option<&str>) -> Vec<&'a ForceRow> {
    t.forces
        .iter()
        .filter(|r| r.oob.as_deref() == oob)
        .collect()
}
