//! The turn clock: each rule set's phases and, where it has one, the historical date of a turn.

use chrono::{Days, NaiveDate};

use crate::engine::rule_set::RuleSetRef;
use crate::roster::Side;
use crate::rules::RuleId;

/// What a phase is for: the steps the five turn sequences are made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// PK-T1 part 1: movement and fire.
    MovementAndFire,
    /// Movement (GSP, PW, SPI, 1870).
    Movement,
    /// Artillery fire (PW-A1; GSP-A4 both sides at once).
    ArtilleryFire,
    /// Rifle fire (PW, GSP).
    RifleFire,
    /// Melee (PK part 2, PW).
    Melee,
    /// GSP close combat.
    CloseCombat,
    /// PK-T1 part 3: unit morale.
    UnitMorale,
    /// PK-T1 part 4: army morale.
    ArmyMorale,
    /// SPI reinforcement phase.
    Reinforcement,
    /// SPI and 1870 combat phase.
    Combat,
    /// FR-T1: advance the calendars.
    AdvanceCalendars,
}

/// One phase of a turn: which side acts (None: both, or the umpire) and what it does. Displayed
/// exactly as the phase names saves and logs have always carried.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Phase {
    /// The side whose phase it is.
    pub side: Option<Side>,
    /// What it is for.
    pub step: Step,
    /// Its place in the side's half-turn (PW numbers its phases 1-4).
    pub number: u8,
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let side = self.side.map(|s| s.title()).unwrap_or("");
        match self.step {
            Step::MovementAndFire => f.write_str("Part 1: movement and fire"),
            Step::UnitMorale => f.write_str("Part 3: unit morale"),
            Step::ArmyMorale => f.write_str("Part 4: army morale"),
            Step::AdvanceCalendars => f.write_str("Advance calendars"),
            step if self.number > 0 => {
                let what = match step {
                    Step::ArtilleryFire => "artillery fire",
                    Step::Movement => "movement",
                    Step::RifleFire => "rifle fire",
                    _ => "melee",
                };
                write!(f, "{side} half-turn: {} {what}", self.number)
            }
            Step::CloseCombat => f.write_str("Close combat"),
            Step::Melee if self.side.is_none() => f.write_str("Part 2: melee"),
            Step::Movement if self.side.is_none() => f.write_str("Movement"),
            Step::RifleFire => f.write_str("Rifle fire"),
            Step::ArtilleryFire => f.write_str("Artillery fire (both sides at once)"),
            Step::Movement => write!(f, "{side} movement"),
            Step::Combat => write!(f, "{side} combat"),
            Step::Reinforcement => write!(f, "{side} reinforcement"),
            Step::Melee => write!(f, "{side} melee"),
        }
    }
}

/// The phases of one game-turn, typed, in order, for a rule set and its sides in order of play.
///
/// - PK-T1: four parts (movement and fire, melee, unit morale, army morale).
/// - PW-T1: alternate half-turns, each with four phases (artillery fire, movement, rifle fire, melee).
/// - GSP-A4 gives only the artillery step (after rifle fire, both sides at once); the rest of the
///   turn is kepi's reading (house): movement, rifle fire, artillery fire, close combat.
/// - SPI-T1: German then French player-turns, each reinforcement, movement, combat.
/// - FR-T1: French move, French combat, German move, German combat, advance calendars.
pub fn phases(rules: impl Into<RuleSetRef>, sides: &[Side]) -> Vec<Phase> {
    rules.into().phases(sides)
}

impl Phase {
    /// A phase of both sides at once (or of the umpire).
    pub fn both(step: Step) -> Phase {
        Phase {
            side: None,
            step,
            number: 0,
        }
    }

    /// A phase of one side.
    pub fn of(side: Side, step: Step) -> Phase {
        Phase {
            side: Some(side),
            step,
            number: 0,
        }
    }
}

/// The phases' names, as saves and logs carry them (the typed [`phases`], displayed).
pub fn phases_for(rules: impl Into<RuleSetRef>, sides: &[Side]) -> Vec<String> {
    phases(rules, sides)
        .into_iter()
        .map(|p| p.to_string())
        .collect()
}

/// The rule that defines a rule set's turn sequence (logged with each change of phase).
pub fn turn_rule(rules: impl Into<RuleSetRef>) -> RuleId {
    rules.into().turn_rule()
}

/// 1 August 1870: calendar cell 1 of both board games.
pub fn campaign_start() -> NaiveDate {
    NaiveDate::from_ymd_opt(1870, 8, 1).unwrap_or_default()
}

/// The date a game-turn starts on.
///
/// SPI-T1 / FR-T1: turn n is calendar cell `first_cell + n - 1`, which starts on 1 Aug 1870 +
/// 3(cell - 1) days (cell 7 = 19 Aug, cell 12 = 3 Sep). The miniatures rule sets fight one day: the
/// scenario's date.
pub fn date_of_turn(
    rules: impl Into<RuleSetRef>,
    scenario_date: Option<NaiveDate>,
    first_cell: u32,
    turn: u32,
) -> Option<NaiveDate> {
    rules.into().date_of_turn(scenario_date, first_cell, turn)
}

/// SPI-T1 / FR-T1: the date calendar cell `first_cell + turn - 1` starts on (1 Aug 1870 +
/// 3(cell - 1) days).
pub fn calendar_date(first_cell: u32, turn: u32) -> Option<NaiveDate> {
    let cell = u64::from(first_cell.max(1)) + u64::from(turn.max(1)) - 1;
    campaign_start().checked_add_days(Days::new(3 * (cell - 1)))
}
