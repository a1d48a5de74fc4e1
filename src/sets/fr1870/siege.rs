//! Sieges, the blockade calendar and a situation's points in play (FR-F1, FR-B1, FR-L1): the pure
//! resolutions of `kepi resolve fr1870 siege | blockade | points`, which `kepi game apply` runs with
//! what the game knows filled in (the rule set's `plain_defaults`) and whose outcomes the game keeps
//! (its `plain_effects`).
//!
//! The printed blockade calendar is not in the seed ("the general and blockade calendars referred to
//! throughout the rules are not reproduced"), so how many cells lie between a starting cell and
//! SURRENDER is unknown: the umpire enters it from his printed calendar (`--steps`), or declares
//! SURRENDER reached (`blockade --end surrender`). Nothing here invents that number.

use serde::{Deserialize, Serialize};

use super::Fr1870Tables;
use super::blockade::{self, Blockade, BlockadeEvent, BlockadeKind, TurnEnd};
use kepi_game::dice::{Dist, Ratio};
use kepi_game::hex::{Hex, Layout};
use kepi_game::rules::{Effect, ModifierLine, Resolution, RuleError, RuleId, odds_from};
use kepi_game::tables::Provenance;

/// The place's kind as typed or as its name says (Metz and Paris are the fortified camps).
pub fn kind_of(place: &str, typed: Option<BlockadeKind>) -> BlockadeKind {
    typed.unwrap_or_else(|| {
        let p = place.trim().to_ascii_lowercase();
        match p.as_str() {
            "metz" => BlockadeKind::Metz,
            "paris" => BlockadeKind::Paris,
            _ => BlockadeKind::Fortress,
        }
    })
}

/// The word the game keeps for a kind.
pub fn kind_word(k: BlockadeKind) -> &'static str {
    match k {
        BlockadeKind::Paris => "paris",
        BlockadeKind::Metz => "metz",
        BlockadeKind::Fortress => "fortress",
    }
}

/// A kind read back from the game's word.
pub fn kind_from_word(w: &str) -> Option<BlockadeKind> {
    match w {
        "paris" => Some(BlockadeKind::Paris),
        "metz" => Some(BlockadeKind::Metz),
        "fortress" => Some(BlockadeKind::Fortress),
        _ => None,
    }
}

/// What `siege` is given.
#[derive(Clone, Debug, Default)]
pub struct SiegeInput {
    /// The place.
    pub place: String,
    /// Its cells (a fortress: one; a fortified camp: those its siege covers).
    pub cells: Vec<String>,
    /// Its kind (None: by the name).
    pub kind: Option<BlockadeKind>,
    /// The besieging units (ids or names), if named.
    pub by: Vec<String>,
    /// The cells they stand on, in the order of `by`.
    pub by_cells: Vec<String>,
    /// True when none of them is infantry.
    pub no_infantry: bool,
    /// The kinds of the places the besiegers already besiege (I10).
    pub also_besieging: Vec<BlockadeKind>,
    /// The besieging side ("french", "german"), when known.
    pub besieger: Option<String>,
    /// The fortress's value (FR-F1, 1-3), for its calendar cell.
    pub coefficient: Option<u32>,
    /// The units in the place.
    pub garrison: Option<u32>,
    /// The calendar cell a situation gives ("METZ-2"), over the one the garrison gives.
    pub start: Option<String>,
    /// Cells from the start to SURRENDER, read off the printed calendar.
    pub steps: Option<u32>,
}

/// The outcome of `siege`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiegeOutcome {
    /// The place.
    pub place: String,
    /// Its cells.
    pub cells: Vec<String>,
    /// Its kind.
    pub kind: BlockadeKind,
    /// The besieging units as named.
    pub by: Vec<String>,
    /// The besieging side, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub besieger: Option<String>,
    /// Its blockade marker's starting cell; None: no marker (an unoccupied fortress, or a
    /// garrison its stores feed).
    pub start: Option<String>,
    /// Cells to SURRENDER as entered (None: unknown, the calendar is not in the seed).
    pub steps: Option<u32>,
}

/// A note line of a resolution with no dice (also 1870's transports, [`super::transport`]).
pub(super) fn line(label: impl Into<String>, rule: &'static str, p: Provenance) -> ModifierLine {
    ModifierLine::new(label, Effect::Note, RuleId::new(rule), p)
}

/// A resolution with no dice: its one outcome, certain.
pub(super) fn certain<O>(
    action: &str,
    modifiers: Vec<ModifierLine>,
    outcome: O,
    summary: String,
    notes: Vec<String>,
) -> Resolution<O> {
    Resolution {
        system: crate::fr1870::ID,
        action: action.to_string(),
        modifiers,
        dice: Vec::new(),
        outcome: Some(outcome),
        summary: summary.clone(),
        odds: odds_from(&Dist::certain(summary), |s| s.clone()),
        rolled: Some(0),
        notes,
    }
}

/// A cell of 1870's map as typed, or an error naming the option.
pub(super) fn cell(field: &str, s: &str) -> Result<Hex, RuleError> {
    Hex::from_label(s.trim(), Layout::EvenQ)
        .map_err(|e| RuleError::input(field, format!("`{s}`: {e}"), "a cell number such as 1541"))
}

/// FR-F1, FR-B1: a siege laid. "The besieger places at least one infantry unit on a cell adjacent
/// to the fortress, together with a "Siege" marker on the fortress itself"; from then on "1 is
/// subtracted from the number given by the die each time the besieger fights a defensive combat"
/// and "the results "DR" have no effect on either side". I10: "one and the same unit occupying a
/// cell adjacent to several fortresses may besiege them simultaneously (example: a unit occupying
/// cell 1640 may besiege Neuf-Brisach and Sélestat simultaneously); a unit may in no case besiege a
/// fortress and a fortified camp simultaneously". A besieger not adjacent, none of infantry, or
/// besieging a fortress and a fortified camp at once is noted (the umpire decides), never refused.
/// The blockade marker starts (I11-I13) on PARIS-0, on M1-M4 by Metz's garrison, on "[value]
/// +units" for a fortress whose garrison exceeds its stores, or on the situation's cell (`start`).
pub fn lay_siege(i: &SiegeInput, t: &Fr1870Tables) -> Result<Resolution<SiegeOutcome>, RuleError> {
    let place = i.place.trim();
    if place.is_empty() || place.len() > 200 {
        return Err(RuleError::input(
            "--place",
            "empty or too long",
            "the place's name, 1 to 200 bytes",
        ));
    }
    let kind = kind_of(place, i.kind);
    let (cells, first, at) = siege_cells(i, kind)?;
    let mut mods = vec![line(
        format!("{place} besieged ({})", kind_word(kind)),
        "FR-F1",
        Provenance::Seed,
    )];
    let mut notes = besieger_notes(i, place, kind, &first, at)?;
    if kind == BlockadeKind::Fortress {
        mods.push(ModifierLine::new(
            "the besieger's die when he defends",
            Effect::Add(Ratio::int(i64::from(t.combat.besieger_defence_die.v()))),
            RuleId::new("FR-F1"),
            t.combat.besieger_defence_die.provenance,
        ));
    } else {
        mods.push(line(
            "a fortified camp: the besieger must encircle it completely, each unit fighting as \
             in the open country (I2); its besieged units are supplied",
            "FR-B1",
            Provenance::Seed,
        ));
    }
    mods.push(line(
        "besieged and besieging units: DR has no effect on either side; D always counts",
        "FR-F1",
        Provenance::Seed,
    ));
    let marker = start_marker(i, place, kind, t, &mut notes)?;
    let start = marker.as_ref().map(|b| b.start.clone());
    marker_lines(i, place, kind, t, start.as_deref(), &mut mods, &mut notes);
    let summary = match &start {
        Some(s) => format!("{place} besieged; blockade marker on {s}"),
        None => format!("{place} besieged"),
    };
    Ok(certain(
        "siege",
        mods,
        SiegeOutcome {
            place: place.to_string(),
            cells,
            kind,
            by: i.by.clone(),
            besieger: i.besieger.as_ref().map(|b| b.trim().to_ascii_lowercase()),
            start,
            steps: i.steps,
        },
        summary,
        notes,
    ))
}

/// FR-F1: the place's cells as typed, each a cell of the map; a fortress has one, only the
/// fortified camps several. Returns them, the first, and where the first lies.
fn siege_cells(
    i: &SiegeInput,
    kind: BlockadeKind,
) -> Result<(Vec<String>, String, Hex), RuleError> {
    let cells: Vec<String> = i.cells.iter().map(|c| c.trim().to_string()).collect();
    let Some(first) = cells.first().cloned() else {
        return Err(RuleError::input(
            "--cell",
            "no cell",
            "the place's cell, such as 1541",
        ));
    };
    for c in &cells {
        cell("--cell", c)?;
    }
    if kind == BlockadeKind::Fortress && cells.len() > 1 {
        return Err(RuleError::input(
            "--cell",
            format!("{} cells for a fortress", cells.len()),
            "one cell (only the fortified camps, Metz and Paris, extend over several)",
        ));
    }
    let at = cell("--cell", &first)?;
    Ok((cells, first, at))
}

/// FR-F1, I10: what the umpire went ahead with in the besiegers (a besieger not adjacent to a
/// fortress, none of infantry, a fortress and a fortified camp at once), as notes; more cells
/// than besiegers is refused.
fn besieger_notes(
    i: &SiegeInput,
    place: &str,
    kind: BlockadeKind,
    first: &str,
    at: Hex,
) -> Result<Vec<String>, RuleError> {
    let mut notes = Vec::new();
    if i.by_cells.len() > i.by.len() {
        return Err(RuleError::input(
            "--besieger-cell",
            "more cells than --by units",
            "one cell per --by unit",
        ));
    }
    for (u, c) in i.by.iter().zip(i.by_cells.iter()) {
        let d = at.distance(cell("--besieger-cell", c)?);
        if d != 1 && kind == BlockadeKind::Fortress {
            notes.push(format!(
                "umpire went ahead: {u} at {c} is {d} cell(s) from {place} ({first}); the besieger \
                 stands on a cell adjacent to the fortress (FR-F1)"
            ));
        }
    }
    if !i.by.is_empty() && i.no_infantry && kind == BlockadeKind::Fortress {
        notes.push(
            "umpire went ahead: no infantry unit besieges; \"the besieger places at least one \
             infantry unit on a cell adjacent to the fortress\" (FR-F1)"
                .to_string(),
        );
    }
    let camp = |k: &BlockadeKind| *k != BlockadeKind::Fortress;
    if i.also_besieging.iter().any(|k| camp(k) != camp(&kind)) {
        notes.push(
            "umpire went ahead: \"a unit may in no case besiege a fortress and a fortified camp \
             simultaneously\" (I10, FR-F1)"
                .to_string(),
        );
    }
    Ok(notes)
}

/// FR-B1, I11-I13: the blockade marker a siege starts, if any: on the situation's cell
/// (`start`), on PARIS-0, on M1-M4 by Metz's garrison, or on "[value] +units" for a fortress
/// whose garrison exceeds its stores (a fortress given a garrison but no coefficient is noted).
fn start_marker(
    i: &SiegeInput,
    place: &str,
    kind: BlockadeKind,
    t: &Fr1870Tables,
    notes: &mut Vec<String>,
) -> Result<Option<Blockade>, RuleError> {
    let marker: Option<Blockade> = match (&i.start, kind) {
        (Some(s), k) => {
            let s = s.trim();
            if s.is_empty() || s.len() > 40 {
                return Err(RuleError::input(
                    "--start",
                    "empty or too long",
                    "a calendar cell such as METZ-2",
                ));
            }
            Some(blockade::start_cell(place, k, s))
        }
        (None, BlockadeKind::Paris) => Some(blockade::start_paris()),
        (None, BlockadeKind::Metz) => Some(blockade::start_metz(i.garrison.unwrap_or(0), t)?),
        (None, BlockadeKind::Fortress) => match (i.coefficient, i.garrison) {
            (Some(c), Some(g)) => blockade::start_fortress(place, c, g, t)?,
            (None, Some(g)) if g > 0 => {
                notes.push(format!(
                    "{place} holds {g} unit(s): give --coefficient (its value, 1-3) for its \
                     blockade marker when the garrison is larger than its stores (FR-B1)"
                ));
                None
            }
            _ => None,
        },
    };
    Ok(marker)
}

/// FR-B1: the marker's lines: where it is placed and how many cells it has to SURRENDER
/// (entered, the club's tables', or unknown and noted), or that there is none.
fn marker_lines(
    i: &SiegeInput,
    place: &str,
    kind: BlockadeKind,
    t: &Fr1870Tables,
    start: Option<&str>,
    mods: &mut Vec<ModifierLine>,
    notes: &mut Vec<String>,
) {
    match start {
        Some(s) => {
            let how = match (&i.start, kind) {
                (Some(_), _) => Provenance::Seed,
                (None, BlockadeKind::Fortress) => Provenance::Derived,
                _ => Provenance::Seed,
            };
            mods.push(line(format!("blockade marker placed on {s}"), "FR-B1", how));
            match i.steps {
                Some(n) => mods.push(ModifierLine::new(
                    format!("cells from {s} to SURRENDER, read off the printed calendar (not in the seed)"),
                    Effect::Target(Ratio::int(i64::from(n))),
                    RuleId::new("FR-B1"),
                    Provenance::Unknown,
                )),
                None => {
                    let known = blockade::steps_to_surrender(&blockade::start_cell(place, kind, s), t);
                    match known {
                        Some(n) => mods.push(ModifierLine::new(
                            format!("cells from {s} to SURRENDER (your tables)"),
                            Effect::Target(Ratio::int(i64::from(n))),
                            RuleId::new("FR-B1"),
                            Provenance::House,
                        )),
                        None => notes.push(format!(
                            "the blockade calendar is not in the seed: how many cells lie between \
                             {s} and SURRENDER is unknown; enter it with --steps from your printed \
                             calendar, or declare SURRENDER with `blockade --place {place} --end \
                             surrender`"
                        )),
                    }
                }
            }
        }
        None => mods.push(line(
            "no blockade marker (unoccupied, or a garrison its stores feed)",
            "FR-B1",
            Provenance::Seed,
        )),
    }
}

kepi_game::rules::crt::vocab! {
    /// How a turn ended for `blockade`.
    BlockadeEnd {
        /// The siege or blockade held: the marker advances one cell.
        Held => "held",
        /// A fortified camp's blockade is broken: turned over, then moved back.
        Broken => "broken",
        /// The siege is lifted (or the place taken): the marker leaves the calendar.
        Lifted => "lifted",
        /// The marker is on SURRENDER on the printed calendar: the place capitulates.
        Surrender => "surrender",
    }
}

/// What `blockade` is given: the marker as it stands (in play, from the game) and how the turn ended.
#[derive(Clone, Debug)]
pub struct TurnInput {
    /// The place.
    pub place: String,
    /// Its kind (None: by the name).
    pub kind: Option<BlockadeKind>,
    /// How the turn ended.
    pub end: BlockadeEnd,
    /// The marker's starting cell (None: no marker on the calendar).
    pub start: Option<String>,
    /// Cells moved so far.
    pub advanced: i32,
    /// Turned over now.
    pub flipped: bool,
    /// Cells from the start to SURRENDER, when entered.
    pub steps: Option<u32>,
    /// The game-turn that ends.
    pub turn: Option<u32>,
}

/// The outcome of `blockade`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnOutcome {
    /// The place.
    pub place: String,
    /// Its kind.
    pub kind: BlockadeKind,
    /// What the marker did.
    pub event: BlockadeEvent,
    /// The marker after it (None: off the calendar).
    pub marker: Option<Blockade>,
    /// True when the place capitulates.
    pub capitulates: bool,
    /// The turn of the capitulation, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<u32>,
    /// Metz: the first turn its besiegers may leave it (I6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub besiegers_leave_on: Option<u32>,
}

/// FR-B1 at the end of a turn: "a blockade marker advances at the rate of one cell per turn during
/// which the siege has been maintained. When the marker reaches the last cell, the fortified camp
/// capitulates"; a broken blockade "does not advance ... and it is turned over. If another turn
/// ends with the marker turned over, it is moved back one cell"; re-established, it "resumes its
/// normal progression in the same operation"; a fortress's siege is lifted, not broken. The number
/// of cells to SURRENDER is the one entered (`steps`), or the club's tables', or unknown (then the
/// umpire declares `surrender`). I6: "if Metz capitulates in turn 8, the besiegers may leave it only
/// in turn 10".
pub fn blockade_turn(
    i: &TurnInput,
    t: &Fr1870Tables,
) -> Result<Resolution<TurnOutcome>, RuleError> {
    let place = i.place.trim();
    if place.is_empty() || place.len() > 200 {
        return Err(RuleError::input(
            "--place",
            "empty or too long",
            "the place's name, 1 to 200 bytes",
        ));
    }
    let kind = kind_of(place, i.kind);
    let mut mods = Vec::new();
    let mut notes = Vec::new();
    let marker = i.start.as_ref().map(|s| Blockade {
        place: place.to_string(),
        kind,
        start: s.clone(),
        advanced: i.advanced,
        flipped: i.flipped,
    });
    let (event, after, capitulates) = match (i.end, &marker) {
        (BlockadeEnd::Lifted, _) => {
            let what = match kind {
                BlockadeKind::Fortress => {
                    "siege lifted: the marker leaves the calendar; a new siege starts again from the starting cell"
                }
                _ => "blockade ended: the marker leaves the calendar",
            };
            mods.push(line(what, "FR-B1", Provenance::Seed));
            (BlockadeEvent::Removed, None, false)
        }
        (BlockadeEnd::Surrender, _) => {
            mods.push(line(
                "the marker reaches SURRENDER on the printed calendar (the umpire's reading)",
                "FR-B1",
                Provenance::Unknown,
            ));
            let b = marker
                .clone()
                .unwrap_or_else(|| blockade::start_cell(place, kind, "SURRENDER"));
            notes.extend(blockade::capitulate(&b).notes);
            (BlockadeEvent::Surrendered, marker.clone(), true)
        }
        (_, None) => {
            return Err(RuleError::input(
                "--start",
                format!("{place} has no marker on the blockade calendar"),
                "the marker's starting cell (in a game: a siege laid with a marker), or --end lifted",
            ));
        }
        (end, Some(b)) => marker_turn(i, place, end, b, t, &mut mods, &mut notes)?,
    };
    let leave = (capitulates && kind == BlockadeKind::Metz)
        .then(|| i.turn.map(blockade::metz_besiegers_may_leave))
        .flatten();
    if let (Some(turn), Some(l)) = (i.turn.filter(|_| capitulates), leave) {
        mods.push(ModifierLine::new(
            format!("Metz capitulates in turn {turn}: the besiegers may leave it only in turn"),
            Effect::Target(Ratio::int(i64::from(l))),
            RuleId::new("FR-B1"),
            Provenance::Seed,
        ));
    }
    let summary = turn_summary(place, event, after.as_ref());
    Ok(certain(
        "blockade",
        mods,
        TurnOutcome {
            place: place.to_string(),
            kind,
            event,
            marker: after.filter(|_| event != BlockadeEvent::Removed),
            capitulates,
            turn: i.turn.filter(|_| capitulates),
            besiegers_leave_on: leave,
        },
        summary,
        notes,
    ))
}

/// FR-B1: a marker on the calendar at the end of a turn held or broken: it advances, is turned
/// over, resumes or moves back ([`blockade::end_turn`]); its lines say the cells moved and the
/// cells to SURRENDER (entered, the club's tables', or unknown and noted), and the place
/// capitulates when the marker reaches SURRENDER. Returns what the marker did, the marker after
/// it and whether the place capitulates.
fn marker_turn(
    i: &TurnInput,
    place: &str,
    end: BlockadeEnd,
    b: &Blockade,
    t: &Fr1870Tables,
    mods: &mut Vec<ModifierLine>,
    notes: &mut Vec<String>,
) -> Result<(BlockadeEvent, Option<Blockade>, bool), RuleError> {
    let how = if end == BlockadeEnd::Held {
        TurnEnd::Held
    } else {
        TurnEnd::Broken
    };
    let step = blockade::end_turn(b, how, t)?;
    let next = match &step.state {
        Some(n) => n.clone(),
        None => {
            let mut n = b.clone();
            n.advanced += 1;
            n.flipped = false;
            n
        }
    };
    let mut notes_step: Vec<String> = step
        .notes
        .iter()
        .filter(|n| !n.starts_with("the blockade calendar is not in the seed"))
        .cloned()
        .collect();
    let steps = i.steps.or_else(|| blockade::steps_to_surrender(b, t));
    let reached = steps.map(|s| next.advanced >= i32::try_from(s).unwrap_or(i32::MAX));
    mods.push(ModifierLine::new(
        format!("cells moved from {}", b.start),
        Effect::Base(Ratio::int(i64::from(next.advanced))),
        RuleId::new("FR-B1"),
        Provenance::Seed,
    ));
    match (steps, i.steps) {
        (Some(s), Some(_)) => mods.push(ModifierLine::new(
            "cells to SURRENDER, read off the printed calendar (not in the seed)",
            Effect::Target(Ratio::int(i64::from(s))),
            RuleId::new("FR-B1"),
            Provenance::Unknown,
        )),
        (Some(s), None) => mods.push(ModifierLine::new(
            "cells to SURRENDER (your tables)",
            Effect::Target(Ratio::int(i64::from(s))),
            RuleId::new("FR-B1"),
            Provenance::House,
        )),
        _ => notes_step.push(format!(
            "the blockade calendar is not in the seed: the marker is {} cell(s) from {}; \
             check your printed calendar for SURRENDER (then `blockade --place {place} \
             --end surrender`)",
            next.advanced, next.start
        )),
    }
    notes.extend(notes_step);
    if reached == Some(true)
        && matches!(
            step.event,
            BlockadeEvent::Advanced | BlockadeEvent::Resumed | BlockadeEvent::Surrendered
        )
    {
        notes.extend(blockade::capitulate(&next).notes);
        Ok((BlockadeEvent::Surrendered, Some(next), true))
    } else {
        Ok((step.event, step.state.or(Some(next)), false))
    }
}

/// `blockade`'s summary: the place capitulates, its marker is off the calendar, or what the
/// marker did and where it stands.
fn turn_summary(place: &str, event: BlockadeEvent, after: Option<&Blockade>) -> String {
    match (event, after) {
        (BlockadeEvent::Surrendered, _) => format!("{place} capitulates"),
        (BlockadeEvent::Removed, _) => format!("{place}: marker off the calendar"),
        (e, Some(b)) => format!(
            "{place}: {} ({} cell(s) from {}{})",
            match e {
                BlockadeEvent::Advanced => "advanced one cell",
                BlockadeEvent::Resumed => "re-established, advanced one cell",
                BlockadeEvent::Flipped => "blockade broken, marker turned over",
                BlockadeEvent::MovedBack => "broken again, moved back one cell",
                _ => "marker moved",
            },
            b.advanced,
            b.start,
            if b.flipped { ", turned over" } else { "" }
        ),
        (_, None) => format!("{place}: marker off the calendar"),
    }
}

/// What `points` is given.
#[derive(Clone, Debug, Default)]
pub struct PointsInput {
    /// The situation, 1-5.
    pub situation: u32,
    /// French units eliminated (German points).
    pub french_eliminated: u32,
    /// German units eliminated (French points).
    pub german_eliminated: u32,
    /// Situation 1: the numbers (1-5, as printed) of the conditions met.
    pub met: Vec<u32>,
    /// French units still besieged in Metz (the points its surrender would give).
    pub in_metz: Option<u32>,
}

/// The outcome of `points`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PointsOutcome {
    /// The situation.
    pub situation: u32,
    /// French points.
    pub french: u32,
    /// German points.
    pub german: u32,
    /// "french", "german" or "draw".
    pub leader: String,
    /// The difference (the degree of victory).
    pub margin: u32,
}

/// FR-L1: a situation's points. "At the end of the game, points are awarded to each player as
/// indicated for each situation. Total them. The player who has the most is the winner. The
/// difference between the two players lets you assess the degree of victory." Situations 2-5:
/// "each player receives 2 points per enemy unit eliminated" (so, Situation 2, "by maintaining
/// the blockade of Metz, the German player secures 44 points upon the surrender of the fortified
/// camp": its besieged units are eliminated, 2 points each); Situation 1: the printed conditions,
/// those met as the umpire says.
pub fn points(i: &PointsInput, t: &Fr1870Tables) -> Result<Resolution<PointsOutcome>, RuleError> {
    let s = t
        .situations
        .iter()
        .find(|s| s.number == i.situation)
        .ok_or_else(|| RuleError::input("--situation", format!("{}", i.situation), "1 to 5"))?;
    let mut mods = Vec::new();
    let mut notes = Vec::new();
    let (mut fr, mut de) = (0u32, 0u32);
    if let Some(each) = &s.points_per_enemy_unit_eliminated {
        for (label, n, to_german) in [
            (
                "German points, French units eliminated",
                i.french_eliminated,
                true,
            ),
            (
                "French points, German units eliminated",
                i.german_eliminated,
                false,
            ),
        ] {
            let p = n.saturating_mul(each.v());
            mods.push(ModifierLine::new(
                format!("{label}: {n} x {}", each.v()),
                Effect::Add(Ratio::int(i64::from(p))),
                RuleId::new("FR-L1"),
                each.provenance,
            ));
            if to_german {
                de = de.saturating_add(p);
            } else {
                fr = fr.saturating_add(p);
            }
        }
        if let Some(m) = i.in_metz.filter(|m| *m > 0) {
            notes.push(format!(
                "{m} French unit(s) besieged in Metz: its surrender would eliminate them, {} \
                 German points (FR-L1, FR-B1)",
                m.saturating_mul(each.v())
            ));
        }
    } else {
        if let Some(bad) = i
            .met
            .iter()
            .find(|n| **n == 0 || **n as usize > s.points.len())
        {
            return Err(RuleError::input(
                "--met",
                format!("{bad}"),
                format!(
                    "the numbers of Situation {}'s conditions, 1 to {}",
                    s.number,
                    s.points.len()
                ),
            ));
        }
        for (k, p) in s.points.iter().enumerate() {
            let met = i.met.contains(&(k as u32 + 1));
            let v = if met { p.points.v() } else { 0 };
            mods.push(ModifierLine::new(
                format!(
                    "{}. {} ({} {}): {}",
                    k + 1,
                    p.condition,
                    p.side,
                    p.points.v(),
                    if met { "met" } else { "not met" }
                ),
                Effect::Add(Ratio::int(i64::from(v))),
                RuleId::new("FR-L1"),
                p.points.provenance,
            ));
            if met {
                match p.side {
                    kepi_game::rules::crt::Nation::French => fr = fr.saturating_add(v),
                    kepi_game::rules::crt::Nation::German => de = de.saturating_add(v),
                }
            }
        }
    }
    let (leader, margin) = match fr.cmp(&de) {
        std::cmp::Ordering::Greater => ("french", fr - de),
        std::cmp::Ordering::Less => ("german", de - fr),
        std::cmp::Ordering::Equal => ("draw", 0),
    };
    let summary = match leader {
        "draw" => format!("Situation {}: French {fr}, German {de}: a draw", s.number),
        l => format!(
            "Situation {}: French {fr}, German {de}: {} ahead by {margin}",
            s.number,
            if l == "french" { "French" } else { "German" }
        ),
    };
    Ok(certain(
        "points",
        mods,
        PointsOutcome {
            situation: s.number,
            french: fr,
            german: de,
            leader: leader.to_string(),
            margin,
        },
        summary,
        notes,
    ))
}
