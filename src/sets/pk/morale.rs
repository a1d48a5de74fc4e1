//! Morale (PK-E1, PK-L1, PK-L2, PK-W1): effectiveness levels, rally rolls, leaders and officers,
//! army effectiveness and victory points.

use serde::{Deserialize, Serialize};

use super::common::{Lines, rolls_since};
use super::{Class, Level, Officer, PkTables};
use kepi_game::dice::{DiceSource, Die, Dist, Ratio};
use kepi_game::rules::{Effect, Resolution, RuleError, odds_from, rolled_line};
use kepi_game::tables::Provenance;

/// PK-E1: the level of a unit with `now` figures of `start` (Effectiveness Table).
pub fn level(now: u32, start: u32, t: &PkTables) -> Level {
    if start == 0 {
        return Level::Routed;
    }
    let f = Ratio::new(i128::from(now), i128::from(start));
    let e = &t.effectiveness;
    if f >= e.steady_min.v() {
        Level::Steady
    } else if f >= e.shaken_min.v() {
        Level::Shaken
    } else if f >= e.broken_min.v() {
        Level::Broken
    } else {
        Level::Routed
    }
}

/// PK-E1: the unit dropped below a level this move (it rallies, and in melee falls back 6").
pub fn dropped_level(before: u32, after: u32, start: u32, t: &PkTables) -> bool {
    level(after, start, t) > level(before, start, t)
}

/// PK-E1: an advancing or charging unit below Steady cannot close; it withdraws 6" from contact.
pub fn may_close(level: Level) -> bool {
    level == Level::Steady
}

/// A general's death near a unit (PK-L1).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default,
)]
#[serde(rename_all = "kebab-case")]
pub enum GeneralDeath {
    /// No general fell.
    #[default]
    None,
    /// One of the unit's generals fell within 18" this move.
    Nearby,
    /// The general was with this unit: it loses the points permanently.
    WithUnit,
}

/// What a rally roll needs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct RallyInput {
    /// The unit's class.
    pub class: Class,
    /// Leaders lost so far.
    pub leaders_lost: u32,
    /// The unit is brigaded (6 leaders worth 1 each).
    pub brigaded: bool,
    /// The one officer touching the unit.
    pub officer: Option<Officer>,
    /// A general's death affecting the unit.
    pub general_death: GeneralDeath,
    /// Figures lost this move: no more come back (None: not capped).
    pub figures_lost: Option<u32>,
}

/// The rally roll's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RallyOutcome {
    /// d10 + class + modifiers.
    pub score: i64,
    /// Lightly wounded figures that return.
    pub figures_back: u32,
}

fn back_for(score: i64, bands: &[i64], cap: Option<u32>) -> u32 {
    let n = u32::try_from(bands.iter().filter(|&&b| score >= b).count()).unwrap_or(0);
    cap.map_or(n, |c| n.min(c))
}

/// PK-E1, PK-L1, PK-L2: the rally roll: d10 + class - 2 per leader lost (1 brigaded) + the officer
/// touching the unit - a fallen general's points; the score gives figures back.
pub fn rally(
    input: &RallyInput,
    t: &PkTables,
    dice: Option<&mut DiceSource>,
) -> Result<Resolution<RallyOutcome>, RuleError> {
    let r = &t.rally;
    let max_leaders = if input.brigaded { 6 } else { 3 };
    if input.leaders_lost > max_leaders {
        return Err(RuleError::input(
            "leaders_lost",
            format!("{} leaders", input.leaders_lost),
            format!("0 to {max_leaders}"),
        ));
    }
    let mut l = Lines::default();
    let cm = input.class.modifier(t);
    let mut fixed = cm.v();
    l.add(format!("class: {}", input.class), cm, "PK-C1");
    l.note("d10", "PK-E1", Provenance::Seed);
    if input.leaders_lost > 0 {
        let per = if input.brigaded {
            &r.brigade_leader_lost
        } else {
            &r.leader_lost
        };
        let total = per.v() * i64::from(input.leaders_lost);
        fixed += total;
        l.push(
            format!("{} leaders lost", input.leaders_lost),
            Effect::Add(Ratio::int(total)),
            "PK-L1",
            per.provenance,
        );
    }
    if let Some(o) = input.officer {
        let v = match o {
            Officer::General => &r.general,
            Officer::Staff => &r.staff,
        };
        fixed += v.v();
        l.add(format!("{o} touching the unit"), v, "PK-L2");
    }
    match input.general_death {
        GeneralDeath::None => {}
        GeneralDeath::Nearby => {
            fixed += r.general_death.v();
            l.add("general fell within 18\"", &r.general_death, "PK-L1");
        }
        GeneralDeath::WithUnit => {
            fixed += r.general_death.v();
            l.add(
                "general fell with this unit (permanent)",
                &r.general_death,
                "PK-L1",
            );
        }
    }
    let bands = r.figures_back.get().clone();
    l.push(
        format!("figures back at scores {bands:?}"),
        Effect::Note,
        "PK-E1",
        r.figures_back.provenance,
    );
    let cap = input.figures_lost;
    let dist = Dist::die(Die::D10).map(|&d| back_for(fixed + i64::from(d), &bands, cap));
    let label = |n: &u32| format!("{} back", kepi_game::rules::count(n, "figure", "figures"));
    let odds = odds_from(&dist, label);
    let (outcome, rolls, summary) = match dice {
        None => (None, Vec::new(), "odds only".to_string()),
        Some(dice) => {
            let start = dice.rolls().len();
            let d = dice.roll(Die::D10, "rally d10")?;
            let score = fixed + i64::from(d);
            let o = RallyOutcome {
                score,
                figures_back: back_for(score, &bands, cap),
            };
            let s = format!(
                "score {score}: {} back",
                kepi_game::rules::count(o.figures_back, "figure", "figures")
            );
            (Some(o), rolls_since(dice, start), s)
        }
    };
    let mut notes = Vec::new();
    if input.general_death == GeneralDeath::WithUnit {
        notes.push(
            "the unit the general was with keeps this penalty for the rest of the game (PK-L1)"
                .into(),
        );
    }
    let rolled = outcome
        .as_ref()
        .and_then(|o| rolled_line(&odds, &label(&o.figures_back)));
    Ok(Resolution {
        system: crate::pk::ID,
        action: "rally".into(),
        modifiers: l.0,
        dice: rolls,
        outcome,
        summary,
        odds,
        rolled,
        notes,
    })
}

/// PK-L2: officers a force needs: one general and one staff officer per 5-8 units; over two or more
/// corps a commanding general and 2 staff. Returns (generals, staff officers).
pub fn officers_for(units: u32, corps: u32) -> (u32, u32) {
    let groups = units.div_ceil(8).max(u32::from(units > 0));
    let (g, s) = (groups, groups);
    if corps >= 2 { (g + 1, s + 2) } else { (g, s) }
}

/// PK-W1: the army's roll for its broken units.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ArmyInput {
    /// The army's figures at the start.
    pub start_figures: u32,
    /// Its figures now.
    pub figures: u32,
    /// Broken units that could return (routed units never do).
    pub broken_units: u32,
    /// Modifiers to the roll (the army's class, its commander): added as given.
    pub modifier: i64,
}

/// The army's roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArmyOutcome {
    /// The army has fallen below 25% and had to roll.
    pub below_threshold: bool,
    /// d10 + modifier (null when no roll was needed).
    pub score: Option<i64>,
    /// Broken units that return as Shaken.
    pub units_back: u32,
    /// The army's level by its strength (the Effectiveness Table applied to the army).
    pub level: Level,
}

/// PK-W1: below 25% of its strength an army rolls d10 + modifiers like a unit that lost figures; the
/// Army Effectiveness Table gives the broken units that return as Shaken; routed units never return.
pub fn army_morale(
    input: &ArmyInput,
    t: &PkTables,
    dice: Option<&mut DiceSource>,
) -> Result<Resolution<ArmyOutcome>, RuleError> {
    if input.start_figures == 0 || input.figures > input.start_figures {
        return Err(RuleError::input(
            "figures",
            "army strength must be at most its start and start above 0",
            "0 <= figures <= start_figures, start_figures >= 1",
        ));
    }
    kepi_game::rules::limits::ROLL_MODIFIER.check("modifier", input.modifier)?;
    let mut l = Lines::default();
    let th = &t.army.collapse_below;
    let f = Ratio::new(i128::from(input.figures), i128::from(input.start_figures));
    let below = f < th.v();
    let lvl = level(input.figures, input.start_figures, t);
    l.push("army strength", Effect::Base(f), "PK-W1", Provenance::Seed);
    l.push(
        "rolls below",
        Effect::Target(th.v()),
        "PK-W1",
        th.provenance,
    );
    let bands = t.army.units_back.get().clone();
    let cap = Some(input.broken_units);
    if !below {
        let o = ArmyOutcome {
            below_threshold: false,
            score: None,
            units_back: 0,
            level: lvl,
        };
        return Ok(Resolution {
            system: crate::pk::ID,
            action: "army".into(),
            modifiers: l.0,
            dice: Vec::new(),
            rolled: dice.as_ref().map(|_| 0),
            outcome: dice.map(|_| o),
            summary: "army above 25%: no roll".into(),
            odds: vec![kepi_game::rules::OddsLine {
                outcome: "no roll".into(),
                p: kepi_game::dice::Prob::ONE,
            }],
            notes: Vec::new(),
        });
    }
    if input.modifier != 0 {
        l.push(
            "army modifiers",
            Effect::Add(Ratio::int(input.modifier)),
            "PK-W1",
            Provenance::House,
        );
    }
    l.note("d10", "PK-W1", Provenance::Seed);
    l.push(
        format!("units back at scores {bands:?}"),
        Effect::Note,
        "PK-W1",
        t.army.units_back.provenance,
    );
    let dist = Dist::die(Die::D10)
        .map(|&d| back_for(input.modifier.saturating_add(d.into()), &bands, cap));
    let label = |n: &u32| format!("{n} broken units return as Shaken");
    let odds = odds_from(&dist, label);
    let (outcome, rolls, summary) = match dice {
        None => (None, Vec::new(), "odds only".to_string()),
        Some(dice) => {
            let start = dice.rolls().len();
            let d = dice.roll(Die::D10, "army d10")?;
            let score = input.modifier + i64::from(d);
            let n = back_for(score, &bands, cap);
            let o = ArmyOutcome {
                below_threshold: true,
                score: Some(score),
                units_back: n,
                level: lvl,
            };
            (
                Some(o),
                rolls_since(dice, start),
                format!("score {score}: {n} units return as Shaken"),
            )
        }
    };
    let rolled = outcome
        .as_ref()
        .and_then(|o| rolled_line(&odds, &label(&o.units_back)));
    Ok(Resolution {
        system: crate::pk::ID,
        action: "army".into(),
        modifiers: l.0,
        dice: rolls,
        outcome,
        summary,
        odds,
        rolled,
        notes: Vec::new(),
    })
}

/// One objective's victory points and who holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Objective {
    /// Its name.
    pub name: String,
    /// Points, 1-4, set before play.
    pub points: i64,
    /// Held by side A (true) or B (false); None: nobody.
    pub held_by_a: Option<bool>,
}

/// PK-W1: victory points of both sides from the objectives held: (A, B). Units lost (broken, routed,
/// destroyed) are reported separately by the session. Errors on an objective outside 1-4.
pub fn victory_points(objectives: &[Objective], t: &PkTables) -> Result<(i64, i64), RuleError> {
    let (lo, hi) = (t.army.objective_min.v(), t.army.objective_max.v());
    let mut a = 0;
    let mut b = 0;
    for o in objectives {
        if !(lo..=hi).contains(&o.points) {
            return Err(RuleError::input(
                format!("objective {}", o.name),
                format!("{} points", o.points),
                format!("{lo} to {hi}"),
            ));
        }
        match o.held_by_a {
            Some(true) => a += o.points,
            Some(false) => b += o.points,
            None => {}
        }
    }
    Ok((a, b))
}

/// PK-W1: a unit counts as lost when broken or routed (or destroyed: no figures).
pub fn unit_lost(level: Level, figures: u32) -> bool {
    figures == 0 || matches!(level, Level::Broken | Level::Routed)
}
