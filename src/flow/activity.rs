//! Who has done what this turn: moved, fired, activated, meleed; and who is still to act in this
//! phase. The per-turn markers are cleared by the change of turn ([`crate::game::Action::NextPhase`]).

use serde::Serialize;

use crate::game::{GameState, MAX_MELEES, UnitState};
use crate::roster::{Arm, Side};
use crate::rules::System;

use crate::game::clock::{Phase, Step};

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

/// What the current phase (`phase`, typed) waits for from a unit.
fn still_to_act(s: &GameState, phase: Option<Phase>, u: &UnitState) -> bool {
    let side_ok = phase.and_then(|p| p.side).is_none_or(|x| x == u.unit.side);
    let step = phase.map(|p| p.step);
    let guns = u.unit.arm == Arm::Artillery;
    match s.system {
        // PK-T1: part 1 moves and fires; part 2 melees (PK-X7).
        System::Pk => match step {
            Some(Step::MovementAndFire) => !u.moved || (!u.fired && !u.muddled),
            Some(Step::Melee) => u.fatigue > 0 && u.melees < MAX_MELEES,
            _ => false,
        },
        // PW-T1: the active side's guns fire, its units activate and move; rifle fire by all.
        System::Pw => match step {
            Some(Step::ArtilleryFire) => side_ok && guns && !u.fired,
            Some(Step::Movement) => side_ok && (!u.activated || !u.moved),
            Some(Step::RifleFire) => !guns && u.unit.arm != Arm::Cavalry && !u.fired,
            _ => false,
        },
        // GSP-A4: guns that did not move or unlimber fire in the artillery phase.
        System::Gsp => match step {
            Some(Step::Movement) => !u.moved,
            Some(Step::RifleFire) => !guns && !u.fired,
            Some(Step::ArtilleryFire) => guns && !u.moved && !u.limbered && !u.fired && !u.hidden,
            _ => false,
        },
        System::Spi | System::Fr1870 => {
            side_ok
                && ((step == Some(Step::Movement) && !u.moved)
                    || (step == Some(Step::Combat) && !u.fired))
        }
    }
}

/// Who has moved, fired, activated and fought this turn, and who is still to act in this phase.
pub fn activity(s: &GameState) -> Activity {
    let phase = s.phase_kind();
    Activity {
        turn: s.turn,
        phase: s.phase_name().to_string(),
        units: s
            .units
            .iter()
            .filter(|u| !u.eliminated() && u.unit.arrives.is_none_or(|t| t <= s.turn))
            .map(|u| UnitActivity {
                id: u.id().to_string(),
                name: u.unit.name.clone(),
                side: u.unit.side,
                moved: u.moved,
                fired: u.fired,
                activated: u.activated,
                melees: u.melees,
                to_act: still_to_act(s, phase, u),
            })
            .collect(),
    }
}
