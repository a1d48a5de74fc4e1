//! 1870 mechanics other than the combat roll: calendar (FR-T1), storming a fortress and garrisons
//! (FR-F1), cavalry refusing combat (FR-C3), R counters and stacking (FR-R1), situations (FR-L1)
//! and Bazaine's die (FR-L1, Situation 3 b).

use serde::{Deserialize, Serialize};

use super::{Fr1870Tables, Situation};
use kepi_game::dice::{DiceSource, Die, Dist, Ratio};
use kepi_game::rules::crt::Nation;
use kepi_game::rules::crt::{CalendarEntry, turn_dates, vocab};
use kepi_game::rules::{
    Effect, ModifierLine, Resolution, RuleError, RuleId, odds_from, rolled_line,
};
use kepi_game::tables::Provenance;

vocab!(
    /// The kind of a unit or R counter.
    Arm {
        /// Infantry.
        Infantry => "infantry",
        /// Cavalry.
        Cavalry => "cavalry",
    }
);

/// FR-T1: calendar cell `cell` (turn n covers 1 Aug 1870 + 3(n-1) days, three days), with the marks
/// the seed gives: bad season from cell 44, situation starts (D1-D5) and ends (F1-F5).
pub fn fr_cell(cell: u32, t: &Fr1870Tables) -> Result<CalendarEntry, RuleError> {
    if cell == 0 || cell > 1000 {
        return Err(RuleError::input(
            "--turn",
            format!("{cell} is not a calendar cell"),
            "1 to 1000 (the situations use 1 to 61)",
        ));
    }
    let (start, end) = turn_dates(cell, t.calendar.days_per_turn.v())?;
    let mut marks = Vec::new();
    for s in &t.situations {
        if s.start_cell.v() == cell {
            marks.push(format!(
                "D{}: situation {} starts ({})",
                s.number, s.number, s.name
            ));
        }
        if s.end_cell.v() == cell {
            marks.push(format!("F{}: situation {} ends", s.number, s.number));
        }
    }
    if is_bad_season(cell, t) {
        marks.push("bad season".to_string());
    }
    Ok(CalendarEntry {
        turn: cell,
        start,
        end,
        marks,
    })
}

/// FR-T1: the bad season runs from cell 44.
pub fn is_bad_season(cell: u32, t: &Fr1870Tables) -> bool {
    cell >= t.calendar.bad_season_cell.v()
}

/// FR-F1: an attempt to storm a fortress from the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StormInput {
    /// The fortress's value (only 1 may be stormed).
    pub value: u32,
    /// A unit occupies it (then it cannot be stormed).
    pub occupied: bool,
    /// The attempting unit is infantry.
    pub infantry: bool,
}

/// FR-F1: the storm's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StormOutcome {
    /// Taken: the unit occupies the fortress at once.
    pub taken: bool,
    /// The die.
    pub die: u32,
}

/// FR-F1: an infantry unit adjacent to an unoccupied enemy fortress of value 1 may storm it from the
/// move: d6 4-6 taken. Either way it stops and may not fight in the following combat phase.
pub fn storm(
    input: &StormInput,
    t: &Fr1870Tables,
    dice: Option<&mut DiceSource>,
) -> Result<Resolution<StormOutcome>, RuleError> {
    let f = &t.fortress;
    if input.value == 0 || input.value > f.storm_max_value.v() {
        return Err(RuleError::input(
            "--value",
            format!(
                "a fortress of value {} cannot be stormed from the move",
                input.value
            ),
            format!(
                "value {} (values 2 and 3 need a siege)",
                f.storm_max_value.v()
            ),
        ));
    }
    if input.occupied {
        return Err(RuleError::input(
            "--occupied",
            "an occupied fortress cannot be stormed from the move",
            "an unoccupied fortress",
        ));
    }
    if !input.infantry {
        return Err(RuleError::input(
            "--cavalry",
            "only an infantry unit may storm a fortress",
            "an infantry unit",
        ));
    }
    let from = f.storm_taken_from.v();
    let dist = Dist::die(Die::D6).map(|d| *d >= from);
    let label = |b: bool| if b { "taken" } else { "not taken" }.to_string();
    let mut res = Resolution {
        system: crate::fr1870::ID,
        action: "storm".to_string(),
        modifiers: vec![ModifierLine::new(
            "fortress taken on",
            Effect::Target(Ratio::from(from)),
            RuleId::new("FR-F1"),
            f.storm_taken_from.provenance,
        )],
        dice: Vec::new(),
        outcome: None,
        summary: format!("d6 {from}-6 takes the fortress"),
        odds: odds_from(&dist, |b| label(*b)),
        rolled: None,
        notes: vec![
            "the unit stops; whatever the result it may not fight in the following combat phase"
                .to_string(),
        ],
    };
    if let Some(dice) = dice {
        let start = dice.rolls().len();
        let die = dice.roll(Die::D6, "storm d6")?;
        res.dice = dice.rolls()[start..].to_vec();
        let taken = die >= from;
        res.summary = format!("d6 {die}: {}", label(taken));
        res.rolled = rolled_line(&res.odds, &label(taken));
        if taken {
            res.notes
                .push("the attacking unit occupies the fortress at once".to_string());
        }
        res.outcome = Some(StormOutcome { taken, die });
    }
    Ok(res)
}

/// FR-L1, Situation 3, special rule b (Bazaine) as printed.
pub const BAZAINE: &str = "\"at the start of each of his combat phases, the French player rolls \
                           the die. If he obtains a 6, the units shut up in Metz have the right to \
                           attack (...); if he obtains anything other than a 6, these units remain \
                           inactive during that phase\"";

/// FR-L1 (Situation 3 b): the face on which the units in Metz may attack (seed: "If he obtains a
/// 6").
pub const BAZAINE_FACE: u32 = 6;

/// FR-L1 (Situation 3 b): the outcome of Bazaine's die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BazaineOutcome {
    /// The units shut up in Metz may attack this Combat Phase.
    pub may_attack: bool,
    /// The die.
    pub die: u32,
}

/// FR-L1, Situation 3, special rule b: "If you wish to introduce into the game the attitude of
/// Bazaine ... at the start of each of his combat phases, the French player rolls the die. If he
/// obtains a 6, the units shut up in Metz have the right to attack (if the player wishes,
/// obviously); if he obtains anything other than a 6, these units remain inactive during that
/// phase (it goes without saying that they can always defend themselves if the German player
/// attacks them). This restriction lasts for the whole game." One d6: 1/6 they may attack.
pub fn bazaine(dice: Option<&mut DiceSource>) -> Result<Resolution<BazaineOutcome>, RuleError> {
    let dist = Dist::die(Die::D6).map(|d| *d >= BAZAINE_FACE);
    let label = |b: bool| {
        if b {
            "the units in Metz may attack"
        } else {
            "the units in Metz remain inactive"
        }
        .to_string()
    };
    let mut res = Resolution {
        system: crate::fr1870::ID,
        action: "bazaine".to_string(),
        modifiers: vec![ModifierLine::new(
            "the units in Metz may attack on",
            Effect::Target(Ratio::from(BAZAINE_FACE)),
            RuleId::new("FR-L1"),
            Provenance::Seed,
        )],
        dice: Vec::new(),
        outcome: None,
        summary: format!("Bazaine: d6 {BAZAINE_FACE} lets the units in Metz attack this phase"),
        odds: odds_from(&dist, |b| label(*b)),
        rolled: None,
        notes: vec![
            "Situation 3, special rule b: rolled by the French player at the start of each of his \
             combat phases; they may always defend"
                .to_string(),
        ],
    };
    if let Some(dice) = dice {
        let start = dice.rolls().len();
        let die = dice.roll(Die::D6, "Bazaine d6")?;
        res.dice = dice.rolls()[start..].to_vec();
        let may_attack = die >= BAZAINE_FACE;
        res.summary = format!("Bazaine d6 {die}: {}", label(may_attack));
        res.rolled = rolled_line(&res.odds, &label(may_attack));
        res.outcome = Some(BazaineOutcome { may_attack, die });
    }
    Ok(res)
}

/// FR-C3: may the defender's cavalry refuse combat?
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "answer", content = "reason", rename_all = "kebab-case")]
pub enum Refusal {
    /// It may retreat one cell instead of fighting (the attacker may occupy the cell; the attackers
    /// engaged may not fight again this phase; the cavalry counts as having fought).
    MayRefuse,
    /// It must accept the combat, and why.
    MustFight(String),
}

/// FR-C3: cavalry alone attacked by infantry alone may refuse combat and retreat one cell, onto an
/// unoccupied cell not controlled by the enemy or onto friendly units within the stacking limit.
pub fn cavalry_may_refuse(
    attackers: &[Arm],
    defenders: &[Arm],
    retreat_cell_available: bool,
) -> Refusal {
    if defenders.is_empty() || defenders.iter().any(|a| *a != Arm::Cavalry) {
        return Refusal::MustFight("the attacked cell holds infantry (or no cavalry)".to_string());
    }
    if attackers.is_empty() || attackers.iter().any(|a| *a != Arm::Infantry) {
        return Refusal::MustFight("the attacker engages cavalry".to_string());
    }
    if !retreat_cell_available {
        return Refusal::MustFight(
            "no cell to retreat to (terrain, stacking, or an empty enemy-controlled cell)"
                .to_string(),
        );
    }
    Refusal::MayRefuse
}

/// FR-R1: units over the stacking limit at the end of a movement phase (they are eliminated). R
/// counters and markers do not count.
pub fn stacking_excess(units_in_cell: u32, t: &Fr1870Tables) -> u32 {
    units_in_cell.saturating_sub(t.stacking.limit.v())
}

/// FR-R1: a disorganised unit is rebuilt by an R counter of the same arm in its cell (the R counter is
/// removed). Also cancels a fresh D result at once when the R counter stacks with the unit.
pub fn may_rebuild(unit_arm: Arm, unit_disorganised: bool, r_counter_arm: Arm) -> bool {
    unit_disorganised && unit_arm == r_counter_arm
}

/// FR-L1: a situation by number.
pub fn situation(n: u32, t: &Fr1870Tables) -> Result<&Situation, RuleError> {
    t.situations
        .iter()
        .find(|s| s.number == n)
        .ok_or_else(|| RuleError::input("situation", format!("{n}"), "1 to 5"))
}

/// FR-L1: the end-of-game score of a situation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SituationScore {
    /// French points.
    pub french: u32,
    /// German points.
    pub german: u32,
    /// The side with more points, None on a tie.
    pub winner: Option<Nation>,
    /// The difference, which measures the degree of victory.
    pub margin: u32,
}

/// FR-L1: scores a situation from which of its printed conditions hold (by index) and the enemy units
/// each side eliminated (2 points each in situations 2-5).
pub fn score_situation(
    s: &Situation,
    conditions_met: &[usize],
    german_units_eliminated_by_french: u32,
    french_units_eliminated_by_german: u32,
) -> Result<SituationScore, RuleError> {
    let mut french = 0u32;
    let mut german = 0u32;
    for i in conditions_met {
        let p = s.points.get(*i).ok_or_else(|| {
            RuleError::input(
                "condition",
                format!("situation {} has no condition {i}", s.number),
                format!("0 to {}", s.points.len().saturating_sub(1)),
            )
        })?;
        match p.side {
            Nation::French => french += p.points.v(),
            Nation::German => german += p.points.v(),
        }
    }
    if let Some(per) = &s.points_per_enemy_unit_eliminated {
        french += per.v() * german_units_eliminated_by_french;
        german += per.v() * french_units_eliminated_by_german;
    }
    let winner = match french.cmp(&german) {
        std::cmp::Ordering::Greater => Some(Nation::French),
        std::cmp::Ordering::Less => Some(Nation::German),
        std::cmp::Ordering::Equal => None,
    };
    Ok(SituationScore {
        french,
        german,
        winner,
        margin: french.abs_diff(german),
    })
}
