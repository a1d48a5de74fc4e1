//! FR-B1: the blockade calendar as a state machine.
//!
//! A marker starts on a cell chosen by the place and its garrison (PARIS-0; Metz M1-M4; a fortress with
//! a garrison too large for its stores on "[value] +units"; a situation's own cell such as METZ-2) and
//! advances one cell per turn the siege holds. A broken blockade (fortified camps only) turns the
//! marker over without advancing; a second turn broken moves it back one cell; re-established, it is
//! turned face up and advances in the same operation. A fortress's siege is not broken but lifted:
//! the marker leaves the calendar and a new siege starts over. The printed calendar (how many cells
//! from each start to SURRENDER) is not in the seed, so surrender is reported as unknown until a club
//! fills `blockade.steps_to_surrender`.

use serde::{Deserialize, Serialize};

use super::Fr1870Tables;
use kepi_game::rules::RuleError;
use kepi_game::tables::Provenance;

/// What kind of place is blockaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BlockadeKind {
    /// Paris (fortified camp; its fall ends the game).
    Paris,
    /// Metz (fortified camp).
    Metz,
    /// An ordinary fortress whose garrison exceeds its stores.
    Fortress,
}

/// A marker on the blockade calendar.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Blockade {
    /// The place ("Paris", "Metz", "Belfort").
    pub place: String,
    /// Its kind.
    pub kind: BlockadeKind,
    /// The starting cell ("PARIS-0", "M2", "[2] +3", "METZ-2").
    pub start: String,
    /// Cells moved from the start (negative: moved back behind it).
    pub advanced: i32,
    /// Turned over (the blockade was broken at the end of the last turn).
    pub flipped: bool,
}

/// How a turn ended for a blockade.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TurnEnd {
    /// The siege or blockade held all turn.
    Held,
    /// A fortified camp's blockade is broken (a surrounding cell neither occupied nor controlled).
    Broken,
    /// The besieger lifted the siege (or the place was taken): the marker leaves the calendar.
    Lifted,
}

/// What the marker did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BlockadeEvent {
    /// Advanced one cell.
    Advanced,
    /// Turned face up again and advanced one cell.
    Resumed,
    /// Turned over, not advanced (supplies arrived).
    Flipped,
    /// Moved back one cell (reserves rebuilt).
    MovedBack,
    /// Removed from the calendar.
    Removed,
    /// Reached SURRENDER: the place capitulates.
    Surrendered,
}

/// One end-of-turn step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockadeStep {
    /// The marker after the step (None once removed or surrendered).
    pub state: Option<Blockade>,
    /// What happened.
    pub event: BlockadeEvent,
    /// Whether the marker is on SURRENDER; None when the printed calendar's length is unknown.
    pub surrendered: Option<bool>,
    /// What the players must do.
    pub notes: Vec<String>,
}

/// FR-B1: Paris's marker starts on PARIS-0 whatever the garrison.
pub fn start_paris() -> Blockade {
    Blockade {
        place: "Paris".to_string(),
        kind: BlockadeKind::Paris,
        start: "PARIS-0".to_string(),
        advanced: 0,
        flipped: false,
    }
}

/// FR-B1: Metz's marker starts on M1-M4 by the number of units in the fortified camp.
pub fn start_metz(units: u32, t: &Fr1870Tables) -> Result<Blockade, RuleError> {
    let band = t
        .blockade
        .metz
        .iter()
        .find(|b| (b.min.v()..=b.max.v()).contains(&units))
        .ok_or_else(|| {
            let hi = t.blockade.metz.iter().map(|b| b.max.v()).max().unwrap_or(0);
            RuleError::input(
                "garrison",
                format!("{units} units in Metz"),
                format!("0 to {hi}"),
            )
        })?;
    Ok(Blockade {
        place: "Metz".to_string(),
        kind: BlockadeKind::Metz,
        start: band.cell.clone(),
        advanced: 0,
        flipped: false,
    })
}

/// FR-B1: a besieged fortress gets a marker only when its garrison exceeds its coefficient (the
/// units its stores feed); the marker starts on "[value] +units". None: no marker.
pub fn start_fortress(
    place: &str,
    coefficient: u32,
    units: u32,
    t: &Fr1870Tables,
) -> Result<Option<Blockade>, RuleError> {
    let limit = t.stacking.limit.v();
    if !(1..=t.fortress.max_coefficient.v()).contains(&coefficient) {
        return Err(RuleError::input(
            "coefficient",
            format!("{coefficient}"),
            format!("1 to {}", t.fortress.max_coefficient.v()),
        ));
    }
    if units > limit {
        return Err(RuleError::input(
            "garrison",
            format!("{units} units in one cell"),
            format!("0 to {limit} (stacking limit)"),
        ));
    }
    if units <= coefficient {
        return Ok(None);
    }
    Ok(Some(Blockade {
        place: place.to_string(),
        kind: BlockadeKind::Fortress,
        start: format!("[{coefficient}] +{units}"),
        advanced: 0,
        flipped: false,
    }))
}

/// FR-L1, FR-B1: a situation's own starting cell ("METZ-2", "PARIS-4").
pub fn start_cell(place: &str, kind: BlockadeKind, cell: &str) -> Blockade {
    Blockade {
        place: place.to_string(),
        kind,
        start: cell.to_string(),
        advanced: 0,
        flipped: false,
    }
}

/// Cells from the marker's start to SURRENDER, when the calendar is known.
pub fn steps_to_surrender(b: &Blockade, t: &Fr1870Tables) -> Option<u32> {
    t.blockade
        .steps_to_surrender
        .get(&b.start)
        .filter(|s| s.provenance != Provenance::Unknown)
        .map(|s| s.v())
}

fn capitulation_notes(b: &Blockade) -> Vec<String> {
    match b.kind {
        BlockadeKind::Metz => vec![
            "Metz capitulates: the besieged units are eliminated".to_string(),
            "the besiegers occupy the fortified camp and may leave only after one complete turn there \
             (capitulation on turn n: they leave on turn n+2)"
                .to_string(),
        ],
        BlockadeKind::Paris => vec!["Paris capitulates: the game ends with victory for the German player".to_string()],
        BlockadeKind::Fortress => vec![format!(
            "{} capitulates: its garrison is eliminated and the marker leaves the calendar",
            b.place
        )],
    }
}

/// FR-B1: the marker at the end of a turn.
pub fn end_turn(b: &Blockade, how: TurnEnd, t: &Fr1870Tables) -> Result<BlockadeStep, RuleError> {
    let mut next = b.clone();
    let mut notes = Vec::new();
    let event = match how {
        TurnEnd::Lifted => {
            notes.push(match b.kind {
                BlockadeKind::Fortress => {
                    "siege lifted: the marker leaves the calendar; a new siege starts again \
                                           from the starting cell"
                        .to_string()
                }
                _ => "blockade ended: the marker leaves the calendar".to_string(),
            });
            return Ok(BlockadeStep {
                state: None,
                event: BlockadeEvent::Removed,
                surrendered: Some(false),
                notes,
            });
        }
        TurnEnd::Broken => {
            if b.kind == BlockadeKind::Fortress {
                return Err(RuleError::input(
                    "turn end",
                    "only the blockade of a fortified camp (Metz, Paris) can be broken",
                    "held, or lifted for a fortress's siege",
                ));
            }
            if b.flipped {
                next.advanced -= 1;
                notes.push(
                    "second turn broken: the marker moves back one cell (reserves rebuilt)"
                        .to_string(),
                );
                BlockadeEvent::MovedBack
            } else {
                next.flipped = true;
                notes.push(
                    "blockade broken: the marker does not advance and is turned over".to_string(),
                );
                BlockadeEvent::Flipped
            }
        }
        TurnEnd::Held => {
            next.advanced += 1;
            if b.flipped {
                next.flipped = false;
                notes.push(
                    "blockade re-established: the marker is turned face up and advances"
                        .to_string(),
                );
                BlockadeEvent::Resumed
            } else {
                BlockadeEvent::Advanced
            }
        }
    };
    let surrendered = steps_to_surrender(&next, t).map(|s| next.advanced >= s as i32);
    if surrendered == Some(true) {
        notes.extend(capitulation_notes(&next));
        return Ok(BlockadeStep {
            state: None,
            event: BlockadeEvent::Surrendered,
            surrendered,
            notes,
        });
    }
    if surrendered.is_none() {
        notes.push(format!(
            "the blockade calendar is not in the seed: the marker is {} cell(s) from {}; check your printed \
             calendar for SURRENDER",
            next.advanced, next.start
        ));
    }
    Ok(BlockadeStep {
        state: Some(next),
        event,
        surrendered,
        notes,
    })
}

/// FR-B1: the umpire declares the marker on SURRENDER (the calendar is not in the seed).
pub fn capitulate(b: &Blockade) -> BlockadeStep {
    BlockadeStep {
        state: None,
        event: BlockadeEvent::Surrendered,
        surrendered: Some(true),
        notes: capitulation_notes(b),
    }
}

/// FR-B1: the first turn besiegers may leave Metz after it capitulates on `turn`.
pub fn metz_besiegers_may_leave(turn: u32) -> u32 {
    turn + 2
}

/// FR-B1: Paris is taken when one German unit occupies one of its three cells.
pub fn paris_taken(german_units_in_paris_cells: u32) -> bool {
    german_units_in_paris_cells > 0
}
