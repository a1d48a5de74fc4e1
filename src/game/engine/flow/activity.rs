//! Who has done what this turn: moved, fired, activated, meleed; and who is still to act in this
//! phase. The per-turn markers are cleared by the change of turn ([`crate::engine::game::Action::NextPhase`]).

use serde::Serialize;

use crate::engine::game::{GameState, UnitState};
use crate::engine::rule_set::RuleSetRef;
use crate::roster::Side;

use crate::engine::game::clock::{Phase, Step};

/// One unit's doings this turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UnitActivity {
    /// Unit id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Side.
    pub side: Side,
    /// Moved this turn.
    pub moved: bool,
    /// Fired this turn.
    pub fired: bool,
    /// Activated this turn (PW-T2).
    pub activated: bool,
    /// Melees this turn (PK-X7: at most 3).
    pub melees: u32,
    /// Still to act in the current phase.
    pub to_act: bool,
}

/// The turn so far.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Activity {
    /// Game-turn.
    pub turn: u32,
    /// Phase.
    pub phase: String,
    /// Every unit still in play.
    pub units: Vec<UnitActivity>,
}

impl Activity {
    /// The ids of the units still to act in this phase.
    pub fn to_act(&self) -> Vec<&str> {
        self.units
            .iter()
            .filter(|u| u.to_act)
            .map(|u| u.id.as_str())
            .collect()
    }

    /// Counts: (moved, fired, activated, meleed) this turn.
    pub fn counts(&self) -> (usize, usize, usize, usize) {
        let c = |f: fn(&UnitActivity) -> bool| self.units.iter().filter(|u| f(u)).count();
        (
            c(|u| u.moved),
            c(|u| u.fired),
            c(|u| u.activated),
            c(|u| u.melees > 0),
        )
    }
}

/// What the current phase (`phase`, typed) waits for from a unit: the rule set says.
fn still_to_act(s: &GameState, phase: Option<Phase>, u: &UnitState) -> bool {
    s.system.still_to_act(s, phase, u)
}

/// A unit on the table this turn: not eliminated, and arrived.
fn in_play(s: &GameState, u: &UnitState) -> bool {
    !u.eliminated() && u.unit.arrives.is_none_or(|t| t <= s.turn)
}

/// The one answer to "is `u` still to act in this phase?": in play and waited for by the phase.
/// The checklist's count ([`Activity::to_act`]) and the roster's "still to act" filter both ask
/// it, so they always agree.
pub fn is_still_to_act(s: &GameState, u: &UnitState) -> bool {
    in_play(s, u) && still_to_act(s, s.phase_kind(), u)
}

/// SPI-T1 / FR-T1: the phasing side's units move in the movement phase and attack in the combat
/// phase.
pub fn board_still_to_act(phase: Option<Phase>, u: &UnitState) -> bool {
    let side_ok = phase.and_then(|p| p.side).is_none_or(|x| x == u.unit.side);
    let step = phase.map(|p| p.step);
    side_ok
        && ((step == Some(Step::Movement) && !u.moved) || (step == Some(Step::Combat) && !u.fired))
}

/// Who has moved, fired, activated and fought this turn, and who is still to act in this phase.
pub fn activity(s: &GameState) -> Activity {
    Activity {
        turn: s.turn,
        phase: s.phase_name().to_string(),
        units: s
            .units
            .iter()
            .filter(|u| in_play(s, u))
            .map(|u| UnitActivity {
                id: u.id().to_string(),
                name: u.unit.name.clone(),
                side: u.unit.side,
                moved: u.moved,
                fired: u.fired,
                activated: u.activated,
                melees: u.melees,
                to_act: is_still_to_act(s, u),
            })
            .collect(),
    }
}

/// The steps of the turn a resolver form belongs to (PK-T1, PW-T1, GSP-A4, SPI-T1, FR-T1, as each
/// rule set says); empty for a form that may come at any time (a rally roll ends whatever move
/// dropped the unit, PK-E1; a fatigue or flag roll follows the melee move it ends).
fn steps_for(rules: RuleSetRef, form: &str) -> &'static [Step] {
    rules.form_steps(form)
}

/// What is odd about resolving `form` for `actor` now: a form that does not fit the phase, a unit
/// of the side that is not acting, a unit that has already fired or fought this turn. The umpire
/// decides: these are shown and logged with the roll, never a refusal.
pub fn phase_warnings(s: &GameState, form: &str, actor: Option<&str>) -> Vec<String> {
    let mut out = Vec::new();
    let phase = s.phase_kind();
    let steps = steps_for(s.system, form);
    if let Some(p) = phase
        && !steps.is_empty()
        && !steps.contains(&p.step)
    {
        out.push(format!("{form} in the {} phase", s.phase_name()));
    }
    let Some(u) = actor.and_then(|id| s.unit(id)) else {
        return out;
    };
    if let Some(side) = phase.and_then(|p| p.side)
        && side != u.unit.side
        && !steps.is_empty()
    {
        out.push(format!(
            "{} is {}, and this is the {} phase",
            u.unit.name,
            u.unit.side.title(),
            side.title()
        ));
    }
    let fires = matches!(form, "fire" | "artillery" | "rifle" | "combat");
    if fires && u.fired {
        out.push(format!("{} has already fired this turn", u.unit.name));
    }
    out.extend(s.system.phase_warnings(s, form, u));
    out
}
