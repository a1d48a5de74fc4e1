//! The game: its state, the actions that change it, the pure `apply`, the log, undo and redo.
//!
//! [`GameState`] is plain data (the window, the export and the rule wiring read its pub fields). It
//! changes only through an [`Action`] applied by the pure [`apply`], which refuses (never clamps) an
//! action that would drive a count below zero or above its maximum. A rule resolution enters the game
//! as one [`Action::Resolved`]: the resolution with its dice, and the effects it has, applied together,
//! so undo and redo cover the whole of it. [`Game`] keeps the hash-chained [`LogEntry`] list and the
//! undo/redo history; seed + log replays the battle exactly.

mod canon;
pub mod clock;
mod effects;
mod history;
mod log;
mod session;
pub mod unit_wire;

pub use effects::{Effect, EffectValue, effects};
pub use history::strength_by_turn;
pub use log::{
    ChainBreak, ChainSummary, EntryKind, EntryText, GENESIS, LOG_REVISION, LogEntry,
    MOVE_EFFECTS_REVISION, SeedSecret, commitment, entry_hash, entry_text, notes_text,
    participants, stray_member, verify_chain, verify_chain_from,
};
pub use session::{Game, InEffect, ReplayError, Resolve};
pub use unit_wire::FlagName;

use std::fmt;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use crate::dice::{DiceExpr, Roll};
use crate::engine::rule_set::RuleSetRef;
use crate::roster::{Facing, Position, Scenario, Side, Unit};
use crate::rules::{Resolution, RuleId};

use crate::roster::vocab::vocab;

vocab! {
    /// PK-E1 effectiveness levels (also used as plain morale states by the other rule sets).
    Level, "level" {
        /// Steady: may initiate melee.
        Steady = "steady",
        /// Shaken.
        Shaken = "shaken",
        /// Broken.
        Broken = "broken",
        /// Routed: never returns (PK-W1).
        Routed = "routed",
    }
}

vocab! {
    /// Supply state (SPI-S1; FR-S1 uses supplied/unsupplied).
    Supply, "supply" {
        /// In supply.
        Supplied = "supplied",
        /// Out of supply.
        Unsupplied = "unsupplied",
        /// Isolated.
        Isolated = "isolated",
    }
}

vocab! {
    /// The engine's on/off flags of a unit, the status every rule set's umpire keeps (disorder,
    /// limbered guns, moved and fired; the formation as changed in play). A rule set's own markers
    /// (P&K's muddle, 1870's disorganisation, SPI's entraining ...) are its declared kinds
    /// ([`UnitMarkerKind`], issue 45).
    Flag, "flag" {
        /// Disordered (PK-F6, PK-D1).
        Disordered = "disordered",
        /// Guns limbered (PK-A2).
        Limbered = "limbered",
        /// Moved this turn (PW-R1, GSP-A4). Cleared at the start of each turn.
        Moved = "moved",
        /// Fired this turn. Cleared at the start of each turn.
        Fired = "fired",
        /// Activated this turn (PW-T2). Cleared at the start of each turn.
        Activated = "activated",
        /// In extended formation (SPI-H2); off, concentrated: the card's formation as changed in
        /// play (until changed, the card's).
        Extended = "extended",
    }
}

vocab! {
    /// The counts of a unit that actions change, each between 0 and its maximum.
    Counter, "counter" {
        /// Figures, guns or strength points (max: the card's strength).
        Strength = "strength" | "figures" | "sp",
        /// Fatigue points (PK-X5; max [`MAX_FATIGUE`]).
        Fatigue = "fatigue",
        /// Leaders left (max: the card's leaders).
        Leaders = "leaders",
        /// Melees fought this turn (PK-X7: at most 3).
        Melees = "melees",
    }
}

/// Largest fatigue a unit can carry (kepi's bound; the rules give none).
pub const MAX_FATIGUE: u32 = 99;

/// How a marker's chip is drawn on the roster: plain information, a warning, an alarm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// A state to know (limbered, moved).
    Info,
    /// A state that hampers the unit (disordered, must retreat).
    Warn,
    /// A loss (its flag).
    Alarm,
}

/// A flag's chip on the roster (issue 45): its short tag, what it means on hover, its tone. The
/// engine words each flag ([`Flag::chip`]); a rule set words its own with its rule ids
/// ([`crate::engine::rule_set::RuleSet::flag_chip`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlagChip {
    /// The chip's text ("Dis").
    pub tag: &'static str,
    /// What it means, on hover.
    pub what: &'static str,
    /// How it is drawn.
    pub tone: Tone,
}

impl Flag {
    /// The flag's chip in the engine's words, without a rule set's rule ids; None for a flag the
    /// roster does not draw (activated: the "still to act" filter says it).
    pub fn chip(self) -> Option<FlagChip> {
        let c = |tag, what, tone| Some(FlagChip { tag, what, tone });
        match self {
            Flag::Disordered => c("Dis", "disordered", Tone::Warn),
            Flag::Limbered => c("Lim", "limbered", Tone::Info),
            Flag::Moved => c("mv", "moved this turn", Tone::Info),
            Flag::Fired => c("f", "fired this turn", Tone::Info),
            Flag::Activated => None,
            Flag::Extended => c("Ext", "extended formation", Tone::Info),
        }
    }

    /// The engine's flags a rule set's units carry (the unit editor offers these, and the set's
    /// own markers, [`UnitMarkerKind`]): P&K's disorder and limber (PK-D1, PK-A2); the Portable
    /// Wargame's activation (PW-T2); Graveyard St. Privat's limbered guns (GSP-A4); SPI's
    /// formation (SPI-H2); moved and fired everywhere.
    pub fn for_system(rules: impl Into<RuleSetRef>) -> &'static [Flag] {
        rules.into().flags()
    }
}

impl Counter {
    /// The counts a rule set keeps per unit (strength everywhere; P&K's fatigue and leaders,
    /// PK-X5 and PK-L1, exist only there).
    pub fn for_system(rules: impl Into<RuleSetRef>) -> &'static [Counter] {
        rules.into().counters()
    }

    /// True when the rules set this count's maximum (strength and leaders from the card); fatigue
    /// has only kepi's bound ([`MAX_FATIGUE`]), which is not shown as if it were a rule.
    pub fn has_rule_maximum(self) -> bool {
        matches!(self, Counter::Strength | Counter::Leaders | Counter::Melees)
    }
}

/// True when a rule set's units have P&K's effectiveness levels (PK-E1).
pub fn has_levels(rules: impl Into<RuleSetRef>) -> bool {
    rules.into().has_levels()
}
/// PK-X7: at most 3 melees per unit per turn.
pub const MAX_MELEES: u32 = 3;

/// A unit in play: its card and everything that changes. Written and read through
/// [`unit_wire`] (the older sets' markers under the fields saves spelled them with).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitState {
    /// The validated card (id, name, side, class, ...). Shared, never changed in play: copying a
    /// state (an undo snapshot) copies a pointer, not every name and note.
    pub unit: std::sync::Arc<Unit>,
    /// Figures, guns or strength points now.
    pub strength: u32,
    /// At full strength.
    pub max_strength: u32,
    /// Fatigue points.
    pub fatigue: u32,
    /// Effectiveness level.
    pub level: Level,
    /// Disordered.
    pub disordered: bool,
    /// Limbered (guns).
    pub limbered: bool,
    /// Its formation as changed in play (SPI-H2: extended or concentrated); None while it is the
    /// card's (so a game that never changes one saves as before).
    pub extended: Option<bool>,
    /// Issue 19: a player's copy of a game whose strengths are hidden from their seat
    /// (`kepi_middle::net::redact::seat_state`): this unit's strength, fatigue, level and leaders are
    /// placeholders, shown as "?". Never set in a game kepi plays (nor written in a save).
    pub strength_hidden: bool,
    /// Moved this turn.
    pub moved: bool,
    /// Fired this turn.
    pub fired: bool,
    /// Activated this turn.
    pub activated: bool,
    /// Melees this turn.
    pub melees: u32,
    /// Leaders left.
    pub leaders: u32,
    /// Leaders at full strength.
    pub max_leaders: u32,
    /// Where it is.
    pub position: Position,
    /// Which way it faces.
    pub facing: Option<Facing>,
    /// Supply.
    pub supply: Supply,
    /// True once the umpire has typed this unit's supply ([`Action::SetSupply`]): where the game's
    /// map traces supply (SPI-S1), the typed state overrides the traced one and is marked so.
    /// Absent while never typed, so saves made without it read and hash the same.
    pub supply_typed: bool,
    /// The markers of the kinds its rule set declares ([`UnitMarkerKind`], issue 45), by name,
    /// sorted: 1870's `disorganised`, SPI's `entrained` ... Written as saves wrote them before
    /// ([`unit_wire::LEGACY_MARKERS`]): the older sets' under their fields, the rest in `marks`,
    /// absent when none, so saves made before read and hash the same.
    pub marks: Vec<String>,
}

impl UnitState {
    /// A fresh unit from its card.
    pub fn new(unit: Unit) -> Self {
        UnitState {
            strength: unit.strength,
            max_strength: unit.strength,
            fatigue: 0,
            level: Level::Steady,
            disordered: false,
            limbered: unit.formation == Some(crate::roster::Formation::Limbered),
            extended: None,
            strength_hidden: false,
            moved: false,
            fired: false,
            activated: false,
            melees: 0,
            leaders: unit.leaders,
            max_leaders: unit.leaders,
            position: unit.position,
            facing: unit.facing,
            supply: Supply::Supplied,
            supply_typed: false,
            marks: Vec::new(),
            unit: std::sync::Arc::new(unit),
        }
    }

    /// The unit's id.
    pub fn id(&self) -> &str {
        &self.unit.id
    }

    /// True when nothing is left of it.
    pub fn eliminated(&self) -> bool {
        self.strength == 0
    }

    /// True when the unit carries the marker `name` of its rule set's kinds
    /// ([`UnitMarkerKind`]).
    pub fn has_mark(&self, name: &str) -> bool {
        self.marks.iter().any(|m| m == name)
    }

    /// True when the unit carries the rule set's marker `kind`.
    pub fn carries(&self, kind: &UnitMarkerKind) -> bool {
        self.has_mark(kind.name)
    }

    /// Puts the marker `name` on (idempotent) or takes it off; `marks` stays sorted.
    pub fn set_mark(&mut self, name: &str, on: bool) {
        match (on, self.marks.binary_search_by(|m| m.as_str().cmp(name))) {
            (true, Err(at)) => self.marks.insert(at, name.to_string()),
            (false, Ok(at)) => {
                self.marks.remove(at);
            }
            _ => {}
        }
    }

    /// A flag's value.
    pub fn flag(&self, f: Flag) -> bool {
        match f {
            Flag::Disordered => self.disordered,
            Flag::Limbered => self.limbered,
            Flag::Moved => self.moved,
            Flag::Fired => self.fired,
            Flag::Activated => self.activated,
            Flag::Extended => self
                .extended
                .unwrap_or(self.unit.formation == Some(crate::roster::Formation::Extended)),
        }
    }

    /// A flag's or a marker's value.
    pub fn flagged(&self, f: &FlagName) -> bool {
        match f {
            FlagName::Flag(f) => self.flag(*f),
            FlagName::Mark(m) => self.has_mark(m),
        }
    }

    /// Sets a flag.
    fn set_flag(&mut self, f: Flag, on: bool) {
        match f {
            Flag::Extended => self.extended = Some(on),
            Flag::Disordered => self.disordered = on,
            Flag::Limbered => self.limbered = on,
            Flag::Moved => self.moved = on,
            Flag::Fired => self.fired = on,
            Flag::Activated => self.activated = on,
        }
    }

    /// A count's value and its maximum.
    pub fn count(&self, c: Counter) -> (u32, u32) {
        match c {
            Counter::Strength => (self.strength, self.max_strength),
            Counter::Fatigue => (self.fatigue, MAX_FATIGUE),
            Counter::Leaders => (self.leaders, self.max_leaders),
            Counter::Melees => (self.melees, MAX_MELEES),
        }
    }

    fn count_mut(&mut self, c: Counter) -> &mut u32 {
        match c {
            Counter::Strength => &mut self.strength,
            Counter::Fatigue => &mut self.fatigue,
            Counter::Leaders => &mut self.leaders,
            Counter::Melees => &mut self.melees,
        }
    }
}

/// Where kepi's dice stand: the seed's public commitment and the number of raw draws used so far.
/// The seed itself stays in the save's secret until revealed ([`SeedSecret`]); with it,
/// `DiceSource::resume(seed, draws)` continues the stream. Draws only ever increase (undo never
/// gives dice back, so a re-roll is always a new roll).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceState {
    /// SHA-256 commitment to the seed, shown at the start of the game.
    pub commitment: std::sync::Arc<str>,
    /// Raw generator draws used.
    pub draws: u64,
    /// The seed, once revealed.
    #[serde(default)]
    pub revealed: Option<u64>,
}

/// A place under siege on a board game's map (1870 FR-F1, FR-B1), as the rule set lays it: kept by
/// the game so the calendar advances, combats know who besieges whom and the place's fall is a
/// check due. The engine stores it; what it means is the rule set's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Siege {
    /// The place ("Metz", "Neuf-Brisach"); unique among the game's sieges.
    pub place: String,
    /// The place's cell on the map (a fortified camp's first cell).
    pub hex: Position,
    /// A fortified camp's other cells (Paris "extends over 3 cells").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more: Vec<Position>,
    /// The besieging side.
    pub besieger: Side,
    /// The besieging units (one unit may besiege several places, 1870 I10).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub by: Vec<String>,
    /// The game-turn the siege was laid.
    pub since: u32,
    /// Its marker on the blockade calendar, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calendar: Option<CalendarMarker>,
    /// The game-turn the place capitulated (its marker reached SURRENDER), once it has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capitulated: Option<u32>,
}

impl Siege {
    /// True when `p` is one of the place's cells.
    pub fn covers(&self, p: Position) -> bool {
        self.hex == p || self.more.contains(&p)
    }
}

/// A marker on a blockade calendar (1870 FR-B1), in the rule set's words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CalendarMarker {
    /// What kind of place ("paris", "metz", "fortress").
    pub kind: String,
    /// The starting cell ("PARIS-0", "M2", "[2] +3", "METZ-2").
    pub start: String,
    /// Cells moved from the start (negative: moved back behind it).
    pub advanced: i32,
    /// Turned over (the blockade was broken at the end of the last turn).
    #[serde(default, skip_serializing_if = "is_false")]
    pub flipped: bool,
    /// Cells from the start to SURRENDER as the umpire read them off the printed calendar (the
    /// text does not print it), when entered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<u32>,
}

fn no_due(due: &crate::engine::flow::DueList) -> bool {
    due.is_empty()
}

/// The whole state of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameState {
    /// The rule set, handed to the game when it is made or its save is read (saved as its id).
    pub system: RuleSetRef,
    /// Scenario name (shared by every undo snapshot).
    pub scenario: std::sync::Arc<str>,
    /// Scenario title (shared by every undo snapshot).
    pub title: std::sync::Arc<str>,
    /// Sides in order of play.
    pub sides: Vec<Side>,
    /// Every unit.
    pub units: Vec<UnitState>,
    /// Game-turn, from 1.
    pub turn: u32,
    /// Index into `phases`.
    pub phase: usize,
    /// The phases of a turn ([`clock::phases_for`]); shared by every undo snapshot.
    pub phases: std::sync::Arc<Vec<String>>,
    /// The scenario's date.
    pub start_date: Option<NaiveDate>,
    /// Calendar cell of turn 1 (board games).
    pub first_cell: u32,
    /// The date of the current turn, where the rule set has one.
    pub date: Option<NaiveDate>,
    /// Kepi's dice.
    pub dice: DiceState,
    /// Checks that applied outcomes set off, kept until resolved or waived ([`crate::engine::flow`]).
    /// Absent from saves made before it existed, and from saves with none open (so old logs hash the
    /// same).
    /// Shared between undo snapshots in chunks ([`crate::engine::flow::DueList`]): an action that queues
    /// or answers a check copies one chunk, so an umpire who leaves hundreds of checks open does
    /// not make every later action slower.
    #[serde(default, skip_serializing_if = "no_due")]
    pub due: crate::engine::flow::DueList,
    /// The id the next due check gets (ids are never reused along one line of play).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub next_due: u64,
    /// The scenario's `hide_strengths`: hosted, player seats see only their own side's strengths
    /// (`kepi_middle::net`). Absent when off, so logs made without it hash the same.
    #[serde(default, skip_serializing_if = "is_false")]
    pub hide_strengths: bool,
    /// Measured play at the club's scale (issue 28): the unit the table measures in and the
    /// distance factor, set by the scenario's `scale` and changed in play by [`Action::Scale`].
    /// The rules keep the text's inches; every distance printed or read follows this. Absent at
    /// the text's own scale (inches, factor 1), so logs made without it hash the same.
    #[serde(default, skip_serializing_if = "crate::rules::Scale::is_text")]
    pub scale: crate::rules::Scale,
    /// The places under siege ([`Siege`], 1870 FR-F1, FR-B1), changed by [`Action::SetSiege`].
    /// Absent when none, so logs made without it hash the same.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sieges: Vec<Siege>,
    /// The board's map (issue 41): the scenario's or `kepi game new --map`'s, its text and hash
    /// kept in the first log entry, so the save holds the map the battle began with
    /// ([`crate::map::MapFile`]). Absent without one, so logs made without it hash the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map: Option<crate::map::MapFile>,
    /// The markers on the board's cells (issue 45: SPI's rail cuts, 1870's possession markers),
    /// of the kinds the rule set declares ([`crate::engine::rule_set::RuleSet::cell_markers`]),
    /// changed by [`Action::Mark`]; sorted by kind and cell. Absent when none, so logs made
    /// without them hash the same.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<CellMark>,
}

/// A kind of marker a rule set puts on the board's cells (issue 45): the engine keeps and logs
/// them without knowing what they mean; the rule set's rules read them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellMarkerKind {
    /// Its name in saves, logs and verbs (`rail-cut`).
    pub name: &'static str,
    /// Its words on the map and in the log ("rail cut").
    pub label: &'static str,
    /// Its short tag drawn on the cell ("cut", "A").
    pub tag: &'static str,
    /// The rule that places it.
    pub rule: &'static str,
    /// What it means, for help and hovers.
    pub what: &'static str,
}

/// A kind of marker a rule set puts on its units beyond the engine's own flags (issue 45): the
/// engine keeps them on the unit ([`UnitState::marks`]), logs them ([`Action::MarkUnit`]) and
/// clears those of a turn when the turn ends, without knowing what they mean; the rule set's
/// rules and checks read them ([`UnitState::has_mark`]), the roster shows them as chips and its
/// unit editor lets the umpire put them on and take them off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitMarkerKind {
    /// Its name in saves, logs and verbs (`wavering`).
    pub name: &'static str,
    /// Its words in the log and on hover ("wavering").
    pub label: &'static str,
    /// Its short chip on the roster ("Wav").
    pub tag: &'static str,
    /// The rule that places it.
    pub rule: &'static str,
    /// What it means, for help and hovers.
    pub what: &'static str,
    /// How its chip is drawn: information, a warning, an alarm.
    pub tone: Tone,
    /// How long it stays on.
    pub lasts: MarkerLasts,
    /// Other words typed for it (`disorganized`); saves and logs write its name.
    pub aliases: &'static [&'static str],
}

/// How long a unit's marker stays on ([`UnitMarkerKind::lasts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkerLasts {
    /// Until the turn ends (as "moved" and "fired").
    Turn,
    /// Until it is taken off.
    UntilTakenOff,
    /// Until the unit moves (1870's retreat one cell, FR-C2: the move is the retreat), or it is
    /// taken off.
    UntilMoved,
}

/// One marker on a cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CellMark {
    /// Its kind's name ([`CellMarkerKind::name`]).
    pub kind: String,
    /// The cell.
    pub cell: Position,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl GameState {
    /// The state at the start of a scenario.
    pub fn new(scenario: &Scenario, rules: impl Into<RuleSetRef>, commitment: String) -> Self {
        let system: RuleSetRef = rules.into();
        let phases = clock::phases_for(system, &scenario.sides);
        GameState {
            system,
            scenario: scenario.name.as_str().into(),
            // A battle built in the window has a name and may have no title: the log's first
            // line, the roster and the report then say its name, not nothing (" begins; ...").
            title: if scenario.title.trim().is_empty() {
                scenario.name.as_str().into()
            } else {
                scenario.title.as_str().into()
            },
            sides: scenario.sides.clone(),
            units: scenario
                .units
                .iter()
                .cloned()
                .map(|unit| {
                    // The markers a card gives its unit at the start (GSP-S1's siege guns begin
                    // hidden).
                    let marks = system.initial_marks(&unit);
                    let mut u = UnitState::new(unit);
                    for m in marks {
                        u.set_mark(m, true);
                    }
                    u
                })
                .collect(),
            turn: 1,
            phase: 0,
            phases: phases.into(),
            start_date: scenario.date,
            first_cell: scenario.first_cell,
            date: clock::date_of_turn(system, scenario.date, scenario.first_cell, 1),
            dice: DiceState {
                commitment: commitment.into(),
                draws: 0,
                revealed: None,
            },
            due: Default::default(),
            next_due: 0,
            hide_strengths: scenario.hide_strengths,
            scale: scenario.scale,
            sieges: Vec::new(),
            marks: scenario
                .marks
                .iter()
                .map(|m| CellMark {
                    kind: m.kind.clone(),
                    cell: m.cell,
                })
                .collect(),
            map: scenario.map.clone(),
        }
    }

    /// The current phase's name.
    /// The current phase, typed (side and step): what the flow, the checklist and the phase
    /// warnings read, so no code parses a phase's name. None only for a state whose phase index is
    /// past its turn's phases (a hand-edited save).
    pub fn phase_kind(&self) -> Option<clock::Phase> {
        clock::phases(self.system, &self.sides)
            .get(self.phase)
            .copied()
    }

    /// The current phase's name, for people (and as saves and logs carry it).
    pub fn phase_name(&self) -> &str {
        self.phases
            .get(self.phase)
            .map(String::as_str)
            .unwrap_or("")
    }

    /// True when `cell` carries a marker of `kind` ([`GameState::marks`]).
    pub fn marked(&self, kind: &str, cell: Position) -> bool {
        self.marks.iter().any(|m| m.kind == kind && m.cell == cell)
    }

    /// The game's map, where it carries one that reads.
    pub fn board(&self) -> Option<&crate::map::Map> {
        self.map.as_ref()?.map().ok()
    }

    /// True when `u` carries a marker of this game's rule set that its move takes off
    /// ([`MarkerLasts::UntilMoved`]: 1870's retreat one cell, FR-C2), so its next move is due.
    pub fn awaits_move(&self, u: &UnitState) -> bool {
        self.system
            .unit_markers()
            .iter()
            .any(|k| k.lasts == MarkerLasts::UntilMoved && u.carries(k))
    }

    /// A unit by id.
    pub fn unit(&self, id: &str) -> Option<&UnitState> {
        self.units.iter().find(|u| u.unit.id == id)
    }

    /// A unit by id, or by exact name (case-insensitive), for the command line and the window.
    pub fn find(&self, key: &str) -> Result<&UnitState, ActionError> {
        let k = key.trim();
        self.unit(k)
            .or_else(|| {
                self.units
                    .iter()
                    .find(|u| u.unit.name.eq_ignore_ascii_case(k))
            })
            .ok_or_else(|| self.unknown(k))
    }

    fn unknown(&self, key: &str) -> ActionError {
        let mut ids: Vec<&str> = self.units.iter().map(|u| u.unit.id.as_str()).collect();
        let close: Vec<&str> = ids
            .iter()
            .copied()
            .filter(|id| id.contains(key) || key.contains(*id))
            .collect();
        if !close.is_empty() {
            ids = close;
        }
        let more = if ids.len() > 10 { ", ..." } else { "" };
        ActionError::UnknownUnit {
            unit: key.to_string(),
            known: format!(
                "{}{more}",
                ids.into_iter().take(10).collect::<Vec<_>>().join(", ")
            ),
        }
    }

    fn unit_mut(&mut self, id: &str) -> Result<&mut UnitState, ActionError> {
        if self.unit(id).is_none() {
            return Err(self.unknown(id));
        }
        self.units
            .iter_mut()
            .find(|u| u.unit.id == id)
            .ok_or_else(|| ActionError::Invalid(format!("unit `{id}` vanished")))
    }
}

/// One change to the game. Serialized as `{"type": "lose-strength", "unit": ..., "n": ...}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Action {
    /// Lose figures/points (refused beyond what is left).
    LoseStrength {
        /// Unit id.
        unit: String,
        /// How many.
        n: u32,
    },
    /// Get figures/points back (rally; refused beyond full strength).
    GainStrength {
        /// Unit id.
        unit: String,
        /// How many.
        n: u32,
    },
    /// Set a count to a value (0..=its maximum).
    SetCount {
        /// Unit id.
        unit: String,
        /// Which count.
        counter: Counter,
        /// The new value.
        value: u32,
        /// What the rules say against the change, which the umpire went ahead with (issue 42:
        /// an eliminated unit brought back, [`crate::engine::flow::set_count_action`]). Absent
        /// when empty, so older saves and their hashes read back unchanged.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        notes: Vec<String>,
    },
    /// Add fatigue points (PK-X5).
    AddFatigue {
        /// Unit id.
        unit: String,
        /// How many.
        n: u32,
    },
    /// Fatigue back to 0 (PK-X5: when the melee ends).
    ResetFatigue {
        /// Unit id.
        unit: String,
    },
    /// Set the effectiveness level (PK-E1).
    SetLevel {
        /// Unit id.
        unit: String,
        /// The level.
        level: Level,
    },
    /// Set or clear a marker.
    SetFlag {
        /// Unit id.
        unit: String,
        /// The flag, or a marker of the kinds the unit's rule set declares ([`FlagName`]).
        flag: FlagName,
        /// On or off.
        on: bool,
    },
    /// A leader falls (PK-L1).
    LoseLeader {
        /// Unit id.
        unit: String,
    },
    /// Move to a position (sets the unit's `moved` marker).
    Move {
        /// Unit id.
        unit: String,
        /// Where to.
        to: Position,
        /// What the rules say against this move, which the umpire went ahead with (a retreat
        /// of more than one cell, an advance by a unit that did not fight, a move beyond the
        /// allowance): logged with the move, shown wherever it is ([`crate::engine::flow::move_notes`]).
        /// Absent when empty, so older saves and their hashes read back unchanged.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        notes: Vec<String>,
        /// The movement points the move costs, where the rule set counts them (SPI: the umpire's
        /// count from the printed map, or kepi's from the board, [`crate::engine::flow::move_cost`]).
        /// Absent elsewhere and in older saves, whose hashes read back unchanged.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mp: Option<u32>,
        /// What the move does to the board by its rule set's text, applied with it (one undo
        /// step): the cell markers it puts on or takes off ([`Action::Mark`]; SPI-E2, an enemy
        /// unit moving onto a rail line cuts it, an EB unit moving into a cut repairs it) and the
        /// moving unit's own ([`Action::MarkUnit`]; SPI-W1, a unit moved off the west edge), as
        /// [`crate::engine::rule_set::RuleSet::move_effects`] makes them. Absent when none, and in
        /// older saves, whose hashes read back unchanged.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        effects: Vec<Action>,
    },
    /// Put an off-map unit on the map (setup, an arrival): its position, without the `moved`
    /// marker a move sets; logged as a placement.
    Place {
        /// Unit id.
        unit: String,
        /// Where.
        to: Position,
    },
    /// Face a direction (None: no facing).
    Face {
        /// Unit id.
        unit: String,
        /// The direction.
        facing: Option<Facing>,
    },
    /// Set supply state.
    SetSupply {
        /// Unit id.
        unit: String,
        /// The state.
        supply: Supply,
    },
    /// Next phase; after the last phase, next turn (per-turn markers cleared, date advanced).
    NextPhase,
    /// A note in the log; changes nothing.
    Note {
        /// The text.
        text: String,
    },
    /// A logged roll of kepi's seeded dice (or entered dice), outside any resolution.
    Roll {
        /// The expression.
        expr: DiceExpr,
        /// Every die.
        dice: Vec<Roll>,
        /// The total.
        total: i64,
        /// Kepi's dice position after the roll.
        draws: u64,
    },
    /// A rule resolution and its effects, applied together (all or none). This is how the rule sets
    /// plug into the game: build the effects from the outcome, and apply one `Resolved`.
    Resolved {
        /// The resolution, with its modifiers, dice and outcome.
        resolution: Box<Resolution<serde_json::Value>>,
        /// The changes it makes, in order.
        effects: Vec<Action>,
        /// Kepi's dice position after the resolution's rolls.
        draws: u64,
        /// The acting unit and the target, when known (so a resolution can answer a due check).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        units: Vec<String>,
        /// What was resolved, so `kepi log verify` can resolve it again from the logged dice and
        /// compare (issue 29): the resolver form (units and situation) as JSON, or `{"resolve":
        /// [words of kepi resolve]}` for a unit-less action. Absent in older logs.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        input: Option<Box<serde_json::Value>>,
    },
    /// A due check done at the table (its roll made or its effect applied by hand), with what
    /// doing it does to the units when the rule set says (SPI-S1: an isolated unit's lost CP),
    /// as [`crate::engine::flow::resolve_due`] makes it.
    ResolveDue {
        /// The check's id ([`crate::engine::flow::Due::id`]).
        id: u64,
        /// Its effects, applied with it (one undo step). Absent in older logs and for checks
        /// whose effect the umpire applies by hand.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        effects: Vec<Action>,
    },
    /// A due check the umpire decides not to make, with why (logged).
    WaiveDue {
        /// The check's id.
        id: u64,
        /// Why.
        reason: String,
    },
    /// The umpire sets the scale the table measures at (issue 28): unit and distance factor.
    /// Every distance printed or read from then on follows it; the rules keep the text's inches.
    Scale {
        /// The new scale.
        scale: crate::rules::Scale,
    },
    /// A siege laid, its calendar marker moved, or (None) the siege ended (1870 FR-F1, FR-B1):
    /// the effect of the rule set's siege and blockade verbs and of its calendar's due check.
    SetSiege {
        /// The place.
        place: String,
        /// The siege now; None: the place is no longer besieged.
        siege: Option<Siege>,
    },
    /// A marker of a kind the rule set declares put on a cell, or (`on` false) taken off it
    /// (issue 45: SPI's Rail Cut markers, SPI-E2; 1870's possession markers, FR-G1).
    Mark {
        /// The kind's name.
        kind: String,
        /// The cell.
        cell: Position,
        /// Put on (true) or taken off.
        on: bool,
    },
    /// A marker of a kind the unit's rule set declares ([`UnitMarkerKind`]) put on a unit, or
    /// (`on` false) taken off it (issue 45).
    MarkUnit {
        /// Unit id.
        unit: String,
        /// The kind's name.
        kind: String,
        /// Put on (true) or taken off.
        on: bool,
    },
    /// A fortress passes to `side` (1870 FR-F1, H5 "the player takes possession of the fortress
    /// immediately", H12's possession marker): its card's side changes, so its advantages are
    /// its new possessor's.
    Possess {
        /// The fortress card's id.
        unit: String,
        /// Its new possessor.
        side: Side,
    },
}

impl Action {
    /// The unit the action is about, if one.
    pub fn unit(&self) -> Option<&str> {
        match self {
            Action::LoseStrength { unit, .. }
            | Action::GainStrength { unit, .. }
            | Action::SetCount { unit, .. }
            | Action::AddFatigue { unit, .. }
            | Action::ResetFatigue { unit }
            | Action::SetLevel { unit, .. }
            | Action::SetFlag { unit, .. }
            | Action::LoseLeader { unit }
            | Action::Move { unit, .. }
            | Action::Place { unit, .. }
            | Action::Face { unit, .. }
            | Action::SetSupply { unit, .. }
            | Action::MarkUnit { unit, .. }
            | Action::Possess { unit, .. } => Some(unit),
            _ => None,
        }
    }

    /// The dice this action rolled.
    pub fn dice(&self) -> Vec<Roll> {
        match self {
            Action::Roll { dice, .. } => dice.clone(),
            Action::Resolved { resolution, .. } => resolution.dice.clone(),
            _ => Vec::new(),
        }
    }

    /// The rule ids this action cites (for the log).
    pub fn rules(&self, rules: RuleSetRef) -> Vec<RuleId> {
        match self {
            Action::NextPhase => vec![clock::turn_rule(rules)],
            Action::Mark { kind, .. } => rules
                .cell_markers()
                .iter()
                .filter(|k| k.name == kind)
                .map(|k| RuleId::new(k.rule))
                .collect(),
            Action::MarkUnit { kind, .. } => rules
                .unit_markers()
                .iter()
                .filter(|k| k.name == kind)
                .map(|k| RuleId::new(k.rule))
                .collect(),
            Action::Roll { .. } => vec![RuleId::new("DICE-2")],
            // A move cites its own rules and those of the markers it puts or takes off.
            Action::Move { effects, .. } if !effects.is_empty() => {
                let mut ids = rules.hand_rules(self);
                for id in effects.iter().flat_map(|e| e.rules(rules)) {
                    if !ids.contains(&id) {
                        ids.push(id);
                    }
                }
                ids
            }
            Action::Resolved { resolution, .. } => {
                let mut ids = resolution.rule_ids();
                if !resolution.dice.is_empty() {
                    ids.push(RuleId::new("DICE-2"));
                }
                ids
            }
            a => rules.hand_rules(a),
        }
    }

    /// One line for people, read against the state before the action.
    /// Over 150 lines: one match with an arm per action, so the log's words for every action
    /// read in one place.
    pub fn describe(&self, s: &GameState) -> String {
        let name = |id: &str| {
            s.unit(id)
                .map(|u| u.unit.name.clone())
                .unwrap_or_else(|| id.to_string())
        };
        let count = |id: &str, c: Counter| s.unit(id).map(|u| u.count(c).0).unwrap_or(0);
        match self {
            Action::LoseStrength { unit, n } => {
                let was = count(unit, Counter::Strength);
                format!(
                    "{} loses {n} ({was} -> {})",
                    name(unit),
                    was.saturating_sub(*n)
                )
            }
            Action::GainStrength { unit, n } => {
                let was = count(unit, Counter::Strength);
                format!(
                    "{} gains {n} ({was} -> {})",
                    name(unit),
                    was.saturating_add(*n)
                )
            }
            Action::SetCount {
                unit,
                counter,
                value,
                ..
            } => format!(
                "{} {counter} {} -> {value}",
                name(unit),
                count(unit, *counter)
            ),
            Action::AddFatigue { unit, n } => format!("{} +{n} fatigue", name(unit)),
            Action::ResetFatigue { unit } => format!("{} fatigue reset", name(unit)),
            Action::SetLevel { unit, level } => format!("{} is now {level}", name(unit)),
            Action::SetFlag { unit, flag, on } => {
                format!("{} {flag} {}", name(unit), if *on { "on" } else { "off" })
            }
            Action::LoseLeader { unit } => format!("{}: a leader falls", name(unit)),
            Action::Move {
                unit,
                to,
                mp,
                effects,
                ..
            } => {
                let mut t = format!("{} moves to {to}", name(unit));
                if let Some(mp) = mp {
                    t.push_str(&format!(" ({mp} MP)"));
                }
                for e in effects {
                    t.push_str("; ");
                    t.push_str(&e.describe(s));
                }
                t
            }
            Action::Place { unit, to } => format!("{} is placed at {to}", name(unit)),
            Action::Face { unit, facing } => match facing {
                Some(f) => format!("{} faces {f}", name(unit)),
                None => format!("{} facing cleared", name(unit)),
            },
            Action::SetSupply { unit, supply } => format!("{} is {supply}", name(unit)),
            Action::NextPhase => {
                let mut t = s.clone();
                next_phase(&mut t);
                format!("next phase: turn {}, {}", t.turn, t.phase_name())
            }
            Action::Note { text } => format!("note: {text}"),
            Action::Possess { unit, side } => {
                format!("{} passes into the {side} side's possession", name(unit))
            }
            Action::MarkUnit { unit, kind, on } => {
                let label = s
                    .system
                    .unit_markers()
                    .iter()
                    .find(|k| k.name == kind)
                    .map_or(kind.as_str(), |k| k.label);
                format!("{} {label} {}", name(unit), if *on { "on" } else { "off" })
            }
            Action::Mark { kind, cell, on } => {
                let label = s
                    .system
                    .cell_markers()
                    .iter()
                    .find(|k| k.name == kind)
                    .map_or(kind.as_str(), |k| k.label);
                if *on {
                    format!("{label} marked at {cell}")
                } else {
                    format!("{label} taken off {cell}")
                }
            }
            Action::Scale { scale } => scale_line(*scale),
            Action::SetSiege { place, siege } => match siege {
                None => format!("{place}: no longer besieged"),
                Some(g) => {
                    let mut t = format!("{place} ({}) besieged by {}", g.hex, g.besieger);
                    if !g.by.is_empty() {
                        t.push_str(&format!(
                            " ({})",
                            g.by.iter().map(|u| name(u)).collect::<Vec<_>>().join(", ")
                        ));
                    }
                    if let Some(c) = &g.calendar {
                        t.push_str(&format!(
                            "; blockade marker {} cell(s) from {}{}",
                            c.advanced,
                            c.start,
                            if c.flipped { ", turned over" } else { "" }
                        ));
                    }
                    if let Some(n) = g.capitulated {
                        t.push_str(&format!("; capitulated on turn {n}"));
                    }
                    t
                }
            },
            Action::ResolveDue { id, effects } => {
                let done = match s.due.iter().find(|d| d.id == *id) {
                    Some(d) => format!("done: {}", d.describe(s)),
                    None => format!("done: due check #{id}"),
                };
                if effects.is_empty() {
                    done
                } else {
                    let fx: Vec<String> = effects.iter().map(|e| e.describe(s)).collect();
                    format!("{done}; {}", fx.join("; "))
                }
            }
            Action::WaiveDue { id, reason } => {
                let what = match s.due.iter().find(|d| d.id == *id) {
                    Some(d) => d.describe(s),
                    None => format!("due check #{id}"),
                };
                if reason.trim().is_empty() {
                    format!("waived: {what}")
                } else {
                    format!("waived: {what} ({reason})")
                }
            }
            Action::Roll {
                expr, dice, total, ..
            } => {
                let d: Vec<String> = dice.iter().map(|r| r.value.to_string()).collect();
                format!("roll {expr}: [{}] = {total}", d.join(", "))
            }
            Action::Resolved {
                resolution,
                effects,
                ..
            } => {
                let mut t = s.clone();
                let mut parts = Vec::new();
                for e in effects {
                    parts.push(e.describe(&t));
                    if let Ok(n) = apply(&t, e) {
                        t = n;
                    }
                }
                if parts.is_empty() {
                    format!(
                        "{} {}: {}",
                        resolution.system, resolution.action, resolution.summary
                    )
                } else {
                    format!(
                        "{} {}: {} => {}",
                        resolution.system,
                        resolution.action,
                        resolution.summary,
                        parts.join("; ")
                    )
                }
            }
        }
    }
}

/// The log's line for a scale set in play: the unit, the factor and what a text distance becomes.
pub fn scale_line(scale: crate::rules::Scale) -> String {
    format!(
        "scale: {} at {} (12 inches of the text are {} on the table)",
        scale.unit.word(),
        scale.factor,
        scale.show(crate::dice::Ratio::int(12))
    )
}

/// Why an action was refused. The state is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// No unit by that id or name.
    #[error("no unit `{unit}` (ids: {known})")]
    UnknownUnit {
        /// What was asked for.
        unit: String,
        /// Some ids that exist.
        known: String,
    },
    /// A count would leave 0..=max.
    #[error("{unit}: {counter} {message} (accepted: 0 to {max})")]
    OutOfRange {
        /// Unit name.
        unit: String,
        /// Which count.
        counter: Counter,
        /// What went wrong ("is 3, cannot lose 5").
        message: String,
        /// Its maximum.
        max: u32,
    },
    /// Anything else (nothing to undo, nested resolution, dice).
    #[error("{0}")]
    Invalid(String),
}

/// Applies an action to a state: the new state, or why not (the input is never changed).
///
/// The checks the action sets off ([`crate::engine::flow::checks_after`]) join the state's due list here, in
/// the one place every action passes, so undo (which restores the earlier state) takes them away.
pub fn apply(state: &GameState, action: &Action) -> Result<GameState, ActionError> {
    apply_as_of(state, action, LOG_REVISION)
}

/// [`apply`] as kepi of log revision `rev` applied it: replaying an entry, its own revision
/// ([`LogEntry::rev`]), so a check a rule set queues differently since a revision
/// ([`crate::engine::flow::Event::revision`]) is queued as it was when the entry was written and
/// the replayed state is the one the older kepi saved.
pub fn apply_as_of(state: &GameState, action: &Action, rev: u32) -> Result<GameState, ActionError> {
    let mut s = state.clone();
    apply_in(&mut s, action, false)?;
    let queued = crate::engine::flow::checks_after_as_of(state, action, &s, rev);
    s.next_due = s.next_due.saturating_add(queued.len() as u64);
    if !queued.is_empty() {
        s.due.extend(queued);
    }
    Ok(s)
}

fn set_count(u: &mut UnitState, c: Counter, value: i64, what: &str) -> Result<(), ActionError> {
    let (now, max) = u.count(c);
    if value < 0 || value > i64::from(max) {
        return Err(ActionError::OutOfRange {
            unit: u.unit.name.clone(),
            counter: c,
            message: format!("is {now}, {what}"),
            max,
        });
    }
    *u.count_mut(c) = value as u32;
    Ok(())
}

fn next_phase(s: &mut GameState) {
    s.phase += 1;
    if s.phase >= s.phases.len() {
        s.phase = 0;
        s.turn = s.turn.saturating_add(1);
        for u in &mut s.units {
            u.moved = false;
            u.fired = false;
            u.activated = false;
            u.melees = 0;
        }
        // The rule set's markers that last the turn go with it.
        let of_turn: Vec<&str> = s
            .system
            .unit_markers()
            .iter()
            .filter(|k| k.lasts == MarkerLasts::Turn)
            .map(|k| k.name)
            .collect();
        if !of_turn.is_empty() {
            for u in &mut s.units {
                if u.marks.iter().any(|m| of_turn.contains(&m.as_str())) {
                    u.marks.retain(|m| !of_turn.contains(&m.as_str()));
                }
            }
        }
        s.date = clock::date_of_turn(s.system, s.start_date, s.first_cell, s.turn);
    }
}

// A flat match, one arm per `Action`: the actions that do more than set a field (a move, a
// siege, a resolution, a due check closed) are applied by their own functions below.
/// Applies one action to the state (`nested`: as an effect of another action, which may not
/// set a scale, roll, resolve or close a due check with effects).
fn apply_in(s: &mut GameState, a: &Action, nested: bool) -> Result<(), ActionError> {
    match a {
        Action::LoseStrength { unit, n } => {
            let u = s.unit_mut(unit)?;
            let v = i64::from(u.strength) - i64::from(*n);
            set_count(u, Counter::Strength, v, &format!("cannot lose {n}"))
        }
        Action::GainStrength { unit, n } => {
            let u = s.unit_mut(unit)?;
            let v = i64::from(u.strength) + i64::from(*n);
            set_count(u, Counter::Strength, v, &format!("cannot gain {n}"))
        }
        Action::SetCount {
            unit,
            counter,
            value,
            ..
        } => {
            let u = s.unit_mut(unit)?;
            set_count(
                u,
                *counter,
                i64::from(*value),
                &format!("cannot be set to {value}"),
            )
        }
        Action::AddFatigue { unit, n } => {
            let u = s.unit_mut(unit)?;
            let v = i64::from(u.fatigue) + i64::from(*n);
            set_count(u, Counter::Fatigue, v, &format!("cannot add {n}"))
        }
        Action::ResetFatigue { unit } => {
            s.unit_mut(unit)?.fatigue = 0;
            Ok(())
        }
        Action::SetLevel { unit, level } => {
            s.unit_mut(unit)?.level = *level;
            Ok(())
        }
        Action::SetFlag { unit, flag, on } => set_flag(s, unit, flag, *on),
        Action::LoseLeader { unit } => {
            let u = s.unit_mut(unit)?;
            let v = i64::from(u.leaders) - 1;
            set_count(u, Counter::Leaders, v, "no leader left to lose")
        }
        Action::Move {
            unit, to, effects, ..
        } => {
            if nested && !effects.is_empty() {
                return Err(ActionError::Invalid(
                    "a move that is an effect carries no effects of its own".into(),
                ));
            }
            move_unit(s, unit, *to)?;
            for e in effects {
                let own = |u: &String| u == unit;
                if !matches!(e, Action::Mark { .. })
                    && !matches!(e, Action::MarkUnit { unit: u, .. } if own(u))
                {
                    return Err(ActionError::Invalid(
                        "a move's effects are markers its rules put on cells or take off \
                         (`mark`), and on the moving unit, nothing else"
                            .into(),
                    ));
                }
                apply_in(s, e, true)?;
            }
            Ok(())
        }
        Action::Place { unit, to } => {
            s.unit_mut(unit)?.position = *to;
            Ok(())
        }
        Action::Face { unit, facing } => {
            s.unit_mut(unit)?.facing = *facing;
            Ok(())
        }
        Action::SetSupply { unit, supply } => {
            let u = s.unit_mut(unit)?;
            u.supply = *supply;
            u.supply_typed = true;
            Ok(())
        }
        Action::NextPhase => {
            next_phase(s);
            Ok(())
        }
        Action::SetSiege { place, siege } => set_siege(s, place, siege.as_ref()),
        Action::Mark { kind, cell, on } => mark(s, kind, *cell, *on),
        Action::MarkUnit { unit, kind, on } => mark_unit(s, unit, kind, *on),
        Action::Possess { unit, side } => {
            let u = s.unit_mut(unit)?;
            std::sync::Arc::make_mut(&mut u.unit).side = *side;
            Ok(())
        }
        Action::Scale { scale } => {
            if nested {
                return Err(ActionError::Invalid(
                    "a scale cannot be a resolution's effect: the umpire sets it".into(),
                ));
            }
            // A scale read from a file is checked like one typed.
            s.scale =
                crate::rules::Scale::new(scale.unit, scale.factor).map_err(ActionError::Invalid)?;
            Ok(())
        }
        Action::Note { text } => {
            if text.len() > 4000 {
                return Err(ActionError::Invalid("a note is at most 4000 bytes".into()));
            }
            Ok(())
        }
        Action::Roll { draws, .. } => {
            if nested {
                return Err(ActionError::Invalid(
                    "a roll cannot be an effect: its dice belong to the resolution".into(),
                ));
            }
            s.dice.draws = s.dice.draws.max(*draws);
            Ok(())
        }
        Action::Resolved {
            resolution,
            effects,
            draws,
            units,
            ..
        } => {
            if nested {
                return Err(ActionError::Invalid(
                    "a resolution cannot contain another resolution".into(),
                ));
            }
            apply_resolved(s, resolution, effects, *draws, units)
        }
        Action::ResolveDue { id, .. } | Action::WaiveDue { id, .. } => close_due(s, a, *id, nested),
    }
}

/// A flag set on a unit, or a marker of the kinds its rule set declares put on or taken off
/// (idempotent, as a flag). A marker saves spell as a field ([`unit_wire::LEGACY_MARKERS`]) is
/// taken for any set's unit, as an older kepi took the flag; any other name not of the set's kinds
/// is refused with the names accepted.
fn set_flag(s: &mut GameState, unit: &str, flag: &FlagName, on: bool) -> Result<(), ActionError> {
    match flag {
        FlagName::Flag(f) => s.unit_mut(unit)?.set_flag(*f, on),
        FlagName::Mark(m) => {
            let kinds = s.system.unit_markers();
            if !kinds.iter().any(|k| k.name == m) && !unit_wire::is_legacy_marker(m) {
                let names: Vec<&str> = Flag::ALL
                    .iter()
                    .map(|f| f.as_str())
                    .chain(kinds.iter().map(|k| k.name))
                    .collect();
                return Err(ActionError::Invalid(format!(
                    "`{m}` is not a flag or a unit marker of {} (accepted: {})",
                    s.system.title(),
                    names.join(", ")
                )));
            }
            s.unit_mut(unit)?.set_mark(m, on);
        }
    }
    Ok(())
}

/// A unit moved: placed, marked as moved, its retreat done (FR-C2: the retreat is the move that
/// follows the result; it answers the check) and the due checks a move of it answers closed.
fn move_unit(s: &mut GameState, unit: &str, to: Position) -> Result<(), ActionError> {
    let kinds = s.system.unit_markers();
    let u = s.unit_mut(unit)?;
    u.position = to;
    u.moved = true;
    // The markers that last until the unit moves go (FR-C2: the retreat is the move that
    // follows the result; it answers the check).
    for k in kinds.iter().filter(|k| k.lasts == MarkerLasts::UntilMoved) {
        u.set_mark(k.name, false);
    }
    if s.due
        .iter()
        .any(|d| d.by_move && d.unit.as_deref() == Some(unit))
    {
        s.due
            .retain(|d| !(d.by_move && d.unit.as_deref() == Some(unit)));
    }
    Ok(())
}

/// [`Action::MarkUnit`]: a marker of a kind the rule set declares put on a unit or taken off it;
/// refused when the kind is not the set's, or the unit already carries it (on) or does not (off).
fn mark_unit(s: &mut GameState, unit: &str, kind: &str, on: bool) -> Result<(), ActionError> {
    let kinds = s.system.unit_markers();
    if !kinds.iter().any(|k| k.name == kind) {
        let names: Vec<&str> = kinds.iter().map(|k| k.name).collect();
        return Err(ActionError::Invalid(if names.is_empty() {
            format!(
                "`{kind}`: {} puts no markers of its own on units",
                s.system.title()
            )
        } else {
            format!(
                "`{kind}` is not a unit marker of {} (accepted: {})",
                s.system.title(),
                names.join(", ")
            )
        }));
    }
    let u = s.unit_mut(unit)?;
    match (on, u.has_mark(kind)) {
        (true, true) => Err(ActionError::Invalid(format!(
            "{} carries `{kind}` already",
            u.unit.name
        ))),
        (false, false) => Err(ActionError::Invalid(format!(
            "{} does not carry `{kind}`",
            u.unit.name
        ))),
        (on, _) => {
            u.set_mark(kind, on);
            Ok(())
        }
    }
}

/// A siege set under its place's name (added or replaced), or lifted (`None`); refused when the
/// names differ, the name is empty or longer than 200 bytes, or there is no siege to lift.
/// [`Action::Mark`]: a marker of a kind the rule set declares, put on a cell of the board or taken
/// off it; refused when the kind is not the set's, the position is not a cell, the cell already
/// carries it (on) or does not (off).
fn mark(s: &mut GameState, kind: &str, cell: Position, on: bool) -> Result<(), ActionError> {
    let kinds = s.system.cell_markers();
    let Some(k) = kinds.iter().find(|k| k.name == kind) else {
        let names: Vec<&str> = kinds.iter().map(|k| k.name).collect();
        return Err(ActionError::Invalid(if names.is_empty() {
            format!("`{kind}`: {} puts no markers on cells", s.system.title())
        } else {
            format!(
                "`{kind}` is not a marker of {} (accepted: {})",
                s.system.title(),
                names.join(", ")
            )
        }));
    };
    if cell.hex().is_none() {
        return Err(ActionError::Invalid(format!(
            "a {} marker goes on a cell, not {cell}",
            k.label
        )));
    }
    if let Some(map) = s.board()
        && on
        && !crate::engine::play::board::hex_in(cell, map.grid.layout).is_some_and(|h| map.on_map(h))
    {
        return Err(ActionError::Invalid(format!(
            "{cell} is not a cell of the game's map ({})",
            map.grid.span_label()
        )));
    }
    let at = s
        .marks
        .iter()
        .position(|m| m.kind == kind && m.cell == cell);
    match (at, on) {
        (Some(_), true) => Err(ActionError::Invalid(format!(
            "{cell} already carries a {} marker",
            k.label
        ))),
        (None, false) => Err(ActionError::Invalid(format!(
            "{cell} carries no {} marker",
            k.label
        ))),
        (Some(i), false) => {
            s.marks.remove(i);
            Ok(())
        }
        (None, true) => {
            s.marks.push(CellMark {
                kind: kind.to_string(),
                cell,
            });
            s.marks
                .sort_by_cached_key(|m| (m.kind.clone(), m.cell.to_string()));
            Ok(())
        }
    }
}

fn set_siege(s: &mut GameState, place: &str, siege: Option<&Siege>) -> Result<(), ActionError> {
    if let Some(g) = siege
        && g.place != place
    {
        return Err(ActionError::Invalid(format!(
            "a siege of `{}` set under the name `{place}`",
            g.place
        )));
    }
    if place.trim().is_empty() || place.len() > 200 {
        return Err(ActionError::Invalid(
            "a place is named by 1 to 200 bytes".into(),
        ));
    }
    let at = s.sieges.iter().position(|g| g.place == place);
    match (at, siege) {
        (Some(i), Some(g)) => s.sieges[i] = g.clone(),
        (None, Some(g)) => s.sieges.push(g.clone()),
        (Some(i), None) => {
            s.sieges.remove(i);
        }
        (None, None) => {
            return Err(ActionError::Invalid(format!("`{place}` is not besieged")));
        }
    }
    Ok(())
}

/// A resolution's effects applied (nested), kepi's dice moved on past its rolls and the due
/// checks it answers closed.
fn apply_resolved(
    s: &mut GameState,
    resolution: &Resolution<serde_json::Value>,
    effects: &[Action],
    draws: u64,
    units: &[String],
) -> Result<(), ActionError> {
    // Which open checks this answers depends on the checks open before it, read now
    // rather than from a copy of the whole state.
    let answered = crate::engine::flow::answered_by(s, resolution, effects, units);
    for e in effects {
        apply_in(s, e, true)?;
    }
    s.dice.draws = s.dice.draws.max(draws);
    if s.due.iter().any(|d| answered.contains(&d.id)) {
        s.due.retain(|d| !answered.contains(&d.id));
    }
    Ok(())
}

/// A due check done (`ResolveDue`, with its effects) or waived (`WaiveDue`, with its reason):
/// refused when the reason passes 4000 bytes, the check is not open, or, done, its effects are
/// nested or hold another due check.
fn close_due(s: &mut GameState, a: &Action, id: u64, nested: bool) -> Result<(), ActionError> {
    if let Action::WaiveDue { reason, .. } = a
        && reason.len() > 4000
    {
        return Err(ActionError::Invalid(
            "a reason is at most 4000 bytes".into(),
        ));
    }
    let before = s.due.len();
    if s.due.iter().any(|d| d.id == id) {
        s.due.retain(|d| d.id != id);
    }
    if s.due.len() == before {
        let open: Vec<String> = s.due.iter().map(|d| d.id.to_string()).collect();
        return Err(ActionError::Invalid(format!(
            "no due check #{id} (open: {})",
            if open.is_empty() {
                "none".to_string()
            } else {
                open.join(", ")
            }
        )));
    }
    if let Action::ResolveDue { effects, .. } = a {
        if nested && !effects.is_empty() {
            return Err(ActionError::Invalid(
                "a due check done cannot be an effect of another action".into(),
            ));
        }
        for e in effects {
            if matches!(e, Action::ResolveDue { .. } | Action::WaiveDue { .. }) {
                return Err(ActionError::Invalid(
                    "a due check's effect cannot be another due check".into(),
                ));
            }
            apply_in(s, e, true)?;
        }
    }
    Ok(())
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&serde_json::to_string(self).unwrap_or_default())
    }
}
