//! The umpire's flow: what the current phase asks of whom, the checks each applied outcome sets off,
//! and who has done what this turn.
//!
//! A calculator answers the question it is asked; the umpire's burden is remembering what a result
//! sets off. [`checks_after`] is the one place that reads an action against the states before and
//! after it and queues the follow-up checks ([`Due`]): [`crate::engine::game::apply`] calls it, so the due
//! list lives in [`GameState::due`], is saved with the game, and undo (which restores the earlier
//! state) takes away the checks an undone action queued. A check leaves the list when it is done
//! ([`Action::ResolveDue`]), waived with a reason ([`Action::WaiveDue`], logged), or answered by the
//! resolution it asks for ([`answered_by`]: a rally roll for that unit clears its rally check).
//! [`checklist`] lists the current phase's steps per rule set, each with its rule id and the resolver
//! form to open; [`activity`] says which units have moved, fired, activated or fought this turn.

pub mod activity;
pub mod campaign;
pub mod checklist;
mod due_list;

pub use activity::{Activity, UnitActivity, activity, is_still_to_act, phase_warnings};
pub use checklist::{Item, checklist, form_offered, phase_side};
pub use due_list::DueList;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::game::{Action, GameState};
use crate::roster::Side;
use crate::rules::{Outcome, Resolution, RuleId};

/// One check an applied outcome set off, kept until done or waived.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Due {
    /// Its id, unique in the game (`kepi game apply FILE resolve-due ID`).
    pub id: u64,
    /// The mechanic that asks for it.
    pub rule: RuleId,
    /// The unit it is for, when one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// The army it is for, when a whole side (PK-W1, PW-V1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
    /// What to do, for people.
    pub what: String,
    /// The resolver form that makes the roll ("rally", "fatigue", "flag"), when kepi has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub form: Option<String>,
    /// The hex it concerns, when one (the hex a combat vacated, for the advance after it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<crate::roster::Position>,
    /// True when moving its unit answers it (a retreat, FR-C2).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_move: bool,
    /// Game-turn it was queued in.
    pub turn: u32,
    /// Phase it was queued in.
    pub phase: String,
}

impl Due {
    /// One line: "PK-E1 2/12th Grenadiers: rally roll ...".
    pub fn describe(&self, s: &GameState) -> String {
        let who = match (&self.unit, self.side) {
            (Some(u), _) => s
                .unit(u)
                .map(|x| x.unit.name.clone())
                .unwrap_or_else(|| u.clone()),
            (None, Some(side)) => format!("{} army", side.title()),
            (None, None) => "umpire".to_string(),
        };
        format!("{} {who}: {}", self.rule, self.what)
    }

    /// Who stands in the hex this check is about now (SPI-C4, FR-C2: the hex a combat vacated),
    /// read from the state, not from when the check was queued: `None` for a check about no hex.
    pub fn hex_now(&self, s: &GameState) -> Option<HexNow> {
        let at = self.at?;
        let mut side_in = None;
        for u in s
            .units
            .iter()
            .filter(|u| !u.eliminated() && u.position == at)
        {
            side_in = Some(u.unit.side);
            // The advancing side is the check's own; any of them in the hex is an advance.
            if self.side == Some(u.unit.side) {
                return Some(HexNow::Advanced);
            }
        }
        Some(match side_in {
            Some(_) => HexNow::Held,
            None => HexNow::Empty,
        })
    }

    /// What the check asks, as things stand now: the queued words while its hex is empty, else
    /// who holds the hex (a check is queued and answered as it was; only what is said about it
    /// follows the state, SPI-C4, FR-C2).
    pub fn what_now(&self, s: &GameState) -> String {
        let (Some(at), Some(now)) = (self.at, self.hex_now(s)) else {
            return self.asked_now(s);
        };
        let cell = if self.rule.as_str().starts_with("FR") {
            "cell"
        } else {
            "hex"
        };
        let names = |f: &dyn Fn(Side) -> bool| {
            s.units
                .iter()
                .filter(|u| !u.eliminated() && u.position == at && f(u.unit.side))
                .map(|u| u.unit.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        match now {
            HexNow::Empty => self.what.clone(),
            HexNow::Advanced => format!(
                "{cell} {at} advanced into by {}: mark done when the advance is over",
                names(&|x| Some(x) == self.side)
            ),
            HexNow::Held => format!(
                "{cell} {at} is still held by the defenders ({}): the victor may occupy it once \
                 they have retreated",
                names(&|x| Some(x) != self.side)
            ),
        }
    }

    /// The check's words with what its rule set says of it as things stand
    /// ([`crate::engine::rule_set::RuleSet::due_now`]: 1870's retreat names the cells open to it
    /// now), else the queued words: what `kepi game due` prints.
    pub fn asked_now(&self, s: &GameState) -> String {
        s.system
            .due_now(s, self)
            .unwrap_or_else(|| self.what.clone())
    }

    /// [`Due::describe`] with [`Due::what_now`]: what the window shows each frame.
    pub fn describe_now(&self, s: &GameState) -> String {
        let mut d = self.clone();
        d.what = self.what_now(s);
        d.describe(s)
    }
}

/// Who holds the hex a check is about, now ([`Due::hex_now`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HexNow {
    /// No unit stands in it.
    Empty,
    /// A unit of the check's side (the advancing one) stands in it.
    Advanced,
    /// Only the other side's units stand in it (the defenders have not left yet).
    Held,
}

/// The checks `action` sets off, read against the states before and after it (pure; ids follow
/// `after.next_due`). Triggers, by rule set:
///
/// - PK-L1: a casualty applied by hand (not by a resolution, which rolls the leader d% itself) asks
///   for the leader roll; a general who falls (an officer loss in a resolution, or a headquarters unit
///   wiped out) asks for his death effect on the units within 18".
/// - PK-E1: a unit that drops to a worse level asks for a rally roll at the end of the move.
/// - PK-X6: a unit that drops a level in melee falls back 6" (and its opponent may follow).
/// - PK-X5: fatigue gained in a melee move asks for the end-of-move fatigue check; a unit that falls
///   back on it asks for the pursuit roll.
/// - PK-X4: the loser of a melee move rolls for its flag.
/// - PK-W1: an army that falls below 25% of its starting strength rolls for army morale.
/// - PW-V1: after every loss, an army that has now lost more than half its SP or units is defeated.
/// - PW-H1: each hit a resolution scores without applying it asks for the owner's choice.
/// - GSP-C2: a structure or piece of equipment that reaches its threshold is destroyed.
/// - SPI-S1: isolated units lose 1 CP at the end of their movement phase (Standard Game).
/// - FR-B1: the blockade markers advance when the calendars do.
/// - FR-C2: a disorganised unit disorganised again is eliminated.
pub fn checks_after(before: &GameState, action: &Action, after: &GameState) -> Vec<Due> {
    checks_after_as_of(before, action, after, crate::engine::game::LOG_REVISION)
}

/// [`checks_after`] as kepi of log revision `rev` queued them (an older entry replayed;
/// [`Event::revision`]).
pub fn checks_after_as_of(
    before: &GameState,
    action: &Action,
    after: &GameState,
    rev: u32,
) -> Vec<Due> {
    let (by_hand, prims, res, units): (bool, Vec<&Action>, Option<&Resolution<Value>>, &[String]) =
        match action {
            Action::Resolved {
                resolution,
                effects,
                units,
                ..
            } => (false, effects.iter().collect(), Some(resolution), units),
            // A due check done with effects sets off what its effects do (1870 FR-B1: the
            // calendar's check that brings a marker to SURRENDER makes the capitulation due).
            Action::ResolveDue { effects, .. } if !effects.is_empty() => {
                (false, effects.iter().collect(), None, &[])
            }
            Action::ResolveDue { .. } | Action::WaiveDue { .. } => return Vec::new(),
            a => (true, vec![a], None, &[]),
        };
    let mut q = Queue {
        after,
        out: Vec::new(),
    };
    let ev = Event {
        before,
        after,
        action,
        by_hand,
        prims,
        outcome: res.and_then(|r| before.system.outcome_of(r)),
        resolution: res,
        units,
        rev,
    };
    before.system.checks(&ev, &mut q);
    campaign::checks(&ev, &mut q);
    q.out
}

/// The due check a resolution answers: the oldest open check that asks the acting unit (the first
/// unit logged with the resolution; without one, the first unit its effects change) for this
/// resolver form. A rally roll for a unit answers that unit's rally check and nothing else: the
/// opponent named as a melee's or a fatigue check's target keeps its own check open.
pub fn answered_by(
    before: &GameState,
    resolution: &Resolution<Value>,
    effects: &[Action],
    units: &[String],
) -> Vec<u64> {
    let Some(actor) = units
        .first()
        .map(String::as_str)
        .or_else(|| effects.iter().find_map(Action::unit))
    else {
        return Vec::new();
    };
    before
        .due
        .iter()
        .find(|d| {
            d.form.as_deref() == Some(resolution.action.as_str())
                && d.unit.as_deref() == Some(actor)
        })
        .map(|d| vec![d.id])
        .unwrap_or_default()
}

/// A hex the action left without its defenders, and the side that held it: the position,
/// before, of a unit the action eliminated or sent back (SPI-C4, FR-C2).
pub fn vacated(ev: &Event) -> Option<(crate::roster::Position, Side)> {
    ev.changes().iter().find_map(|a| {
        let id = a.unit()?;
        let (b, now) = (ev.before().unit(id)?, ev.after().unit(id)?);
        let gone = (now.eliminated() && !b.eliminated())
            || (ev.after().awaits_move(now) && !ev.before().awaits_move(b));
        (gone && matches!(b.position, crate::roster::Position::Hex { .. }))
            .then_some((b.position, b.unit.side))
    })
}

/// The due check `id` done, with what doing it does to the units as the game's rule set says
/// ([`crate::engine::rule_set::RuleSet::due_effects`]): what `kepi game apply ... resolve-due`,
/// the window's "Mark done" and the host all log.
pub fn resolve_due(s: &GameState, id: u64, tables: &crate::rules::Tables) -> Action {
    let effects = s
        .due
        .iter()
        .find(|d| d.id == id)
        .map(|d| s.system.due_effects(s, d, tables))
        .unwrap_or_default();
    Action::ResolveDue { id, effects }
}

/// What is odd about moving `unit` to `to` now (logged with the move as "umpire went ahead: ...",
/// by [`move_action`]): the distance against the unit's allowance ([`crate::engine::rule_set::RuleSet::move_warning`])
/// a move in a phase that is not a movement phase
/// ([`crate::engine::play::breaches::moved_out_of_phase`]) and what the rule set says against this
/// move at this moment
/// ([`crate::engine::rule_set::RuleSet::move_breaches`]). The one source the map's drag note,
/// the roster's move and `kepi game apply move` all read; the move is made all the same.
pub fn move_notes(
    game: &crate::engine::game::Game,
    unit: &str,
    to: crate::roster::Position,
    mp: Option<u32>,
    tables: &crate::rules::Tables,
) -> Vec<String> {
    let s = game.state();
    let Some(u) = s.unit(unit) else {
        return Vec::new();
    };
    let layout = s.system.hex_layout();
    let hexes = match (
        crate::engine::play::board::hex_in(u.position, layout),
        crate::engine::play::board::hex_in(to, layout),
    ) {
        (Some(a), Some(b)) => Some(a.distance(b)),
        _ => None,
    };
    let date = s.date.or(s.start_date);
    hexes
        .and_then(|n| s.system.move_warning(u, n, date, tables))
        .into_iter()
        .chain(crate::engine::play::breaches::moved_out_of_phase(s, u, to))
        .chain(s.system.move_breaches(game, u, to, mp))
        .collect()
}

/// `set UNIT COUNTER VALUE` as it is logged: with the notes of what the rules say against it
/// (issue 42: an eliminated unit's strength set above 0,
/// [`crate::engine::play::breaches::revived`]). `kepi game apply set`, the window's roster and
/// `kepi log verify` all make it here.
pub fn set_count_action(
    s: &GameState,
    unit: String,
    counter: crate::engine::game::Counter,
    value: u32,
) -> Action {
    let notes = crate::engine::play::breaches::revived(s, &unit, counter, value)
        .into_iter()
        .map(|w| format!("umpire went ahead: {w}"))
        .collect();
    Action::SetCount {
        unit,
        counter,
        value,
        notes,
    }
}

/// The movement points moving `unit` to `to` now costs, where the rule set counts them
/// ([`crate::engine::rule_set::RuleSet::move_points`]): `stated` is the umpire's count (`move
/// UNIT HEX --mp N`), else the rule set's from the board. `None` where no points are counted.
pub fn move_cost(
    game: &crate::engine::game::Game,
    unit: &str,
    to: crate::roster::Position,
    stated: Option<u32>,
) -> Option<u32> {
    let s = game.state();
    let u = s.unit(unit)?;
    s.system.move_points(game, u, to, stated)
}

/// The move of `unit` to `to` as it is logged: its cost ([`move_cost`]), the notes of what the
/// rules say against it ([`move_notes`]) and what it does to the board ([`move_effects`]).
/// `kepi game apply move`, the window's map and roster all make their moves here.
pub fn move_action(
    game: &crate::engine::game::Game,
    unit: String,
    to: crate::roster::Position,
    stated: Option<u32>,
    tables: &crate::rules::Tables,
) -> Action {
    let mp = move_cost(game, &unit, to, stated);
    // The umpire decides: the move is made, and its entry keeps what he went ahead with.
    let notes = move_notes(game, &unit, to, mp, tables)
        .into_iter()
        .map(|w| format!("umpire went ahead: {w}"))
        .collect();
    let effects = move_effects(game.state(), &unit, to);
    Action::Move {
        unit,
        to,
        notes,
        mp,
        effects,
    }
}

/// What moving `unit` to `to` now does to the board by its rule set's text
/// ([`crate::engine::rule_set::RuleSet::move_effects`]: SPI-E2's rail cut), logged with the move.
/// Empty for a unit not in the game.
pub fn move_effects(s: &GameState, unit: &str, to: crate::roster::Position) -> Vec<Action> {
    s.unit(unit)
        .map(|u| s.system.move_effects(s, u, to))
        .unwrap_or_default()
}

/// PK-W1: an army's strength now and at the start.
pub fn army_strength(s: &GameState, side: Side) -> (u32, u32) {
    s.units
        .iter()
        .filter(|u| u.unit.side == side)
        .fold((0, 0), |(n, m), u| (n + u.strength, m + u.max_strength))
}

/// The sides of a game (its order of play, or both).
pub fn sides(s: &GameState) -> Vec<Side> {
    if s.sides.is_empty() {
        vec![Side::German, Side::French]
    } else {
        s.sides.clone()
    }
}

/// What a rule set's checks read ([`crate::engine::rule_set::RuleSet::checks`]): an action with the states
/// before and after it.
pub struct Event<'a> {
    before: &'a GameState,
    after: &'a GameState,
    action: &'a Action,
    by_hand: bool,
    prims: Vec<&'a Action>,
    /// The resolution's outcome, typed (None for an action by hand).
    outcome: Option<Outcome>,
    resolution: Option<&'a Resolution<Value>>,
    units: &'a [String],
    rev: u32,
}

impl<'a> Event<'a> {
    /// The state before the action.
    pub fn before(&self) -> &'a GameState {
        self.before
    }

    /// The log revision of the entry the action is ([`crate::engine::game::LOG_REVISION`] in
    /// play; an older entry's own when its log is replayed): a check a rule set queues only since
    /// a revision is left out for an older entry, so a save an older kepi wrote replays to the
    /// state it saved.
    pub fn revision(&self) -> u32 {
        self.rev
    }

    /// The state after it.
    pub fn after(&self) -> &'a GameState {
        self.after
    }

    /// The action.
    pub fn action(&self) -> &'a Action {
        self.action
    }

    /// True for an action by hand (not a resolution).
    pub fn by_hand(&self) -> bool {
        self.by_hand
    }

    /// The changes made: the action by hand, or a resolution's effects.
    pub fn changes(&self) -> &[&'a Action] {
        &self.prims
    }

    /// The resolution's outcome, typed by its rule set ([`crate::engine::rule_set::RuleSet::outcome`]).
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// The resolution, when the action is one.
    pub fn resolution(&self) -> Option<&'a Resolution<Value>> {
        self.resolution
    }

    /// The resolution's outcome read as a rule set's own type (None for an action by hand, a
    /// preview, or an outcome that does not read as `T`).
    pub fn outcome_as<T: serde::de::DeserializeOwned>(&self) -> Option<T> {
        self.resolution
            .and_then(|r| r.outcome.as_ref())
            .and_then(crate::rules::outcome::typed)
    }

    /// The units logged with the resolution (the acting unit first).
    pub fn units(&self) -> &'a [String] {
        self.units
    }

    /// The resolution's `i`th unit (0: the acting unit, 1: the target).
    pub fn unit_at(&self, i: usize) -> Option<&str> {
        self.units.get(i).map(String::as_str)
    }
}

/// The checks an action sets off, as a rule set queues them ([`crate::engine::rule_set::RuleSet::checks`]).
pub struct Queue<'a> {
    after: &'a GameState,
    out: Vec<Due>,
}

impl Queue<'_> {
    /// Queues a check: its rule, the unit or army it is for, what to do, and the resolver form
    /// that answers it (kept only when the rule set offers that form).
    pub fn push(
        &mut self,
        rule: &'static str,
        unit: Option<&str>,
        side: Option<Side>,
        what: String,
        form: Option<&str>,
    ) {
        let form = form.filter(|f| form_offered(self.after.system, f));
        self.out.push(Due {
            id: self.after.next_due + self.out.len() as u64,
            rule: RuleId::new(rule),
            unit: unit.map(str::to_string),
            side,
            what,
            form: form.map(str::to_string),
            at: None,
            by_move: false,
            turn: self.after.turn,
            phase: self.after.phase_name().to_string(),
        });
    }

    /// Queues a check about a hex (the map shows it there): an advance into the hex a combat
    /// vacated (SPI-C4, FR-C2).
    pub fn push_at(
        &mut self,
        rule: &'static str,
        side: Option<Side>,
        at: crate::roster::Position,
        what: String,
    ) {
        self.push(rule, None, side, what, None);
        if let Some(d) = self.out.last_mut() {
            d.at = Some(at);
        }
    }

    /// Queues a check for a unit about a hex, answered by a resolution of `form` for that unit (a
    /// campaign's pending battle, CAMP-B1, answered by its combat resolved on the chart).
    pub fn push_unit_at(
        &mut self,
        rule: &'static str,
        unit: &str,
        at: crate::roster::Position,
        what: String,
        form: Option<&str>,
    ) {
        self.push(rule, Some(unit), None, what, form);
        if let Some(d) = self.out.last_mut() {
            d.at = Some(at);
        }
    }

    /// Queues a move its unit must make; moving the unit answers it (a retreat, FR-C2).
    pub fn push_move(&mut self, rule: &'static str, unit: &str, what: String) {
        self.push(rule, Some(unit), None, what, None);
        if let Some(d) = self.out.last_mut() {
            d.by_move = true;
        }
    }

    /// Queues unless the same check is already open for that unit or army.
    pub fn push_once(
        &mut self,
        rule: &'static str,
        unit: Option<&str>,
        side: Option<Side>,
        what: String,
        form: Option<&str>,
    ) {
        let open = self
            .after
            .due
            .iter()
            .map(|d| &**d)
            .chain(self.out.iter())
            .any(|d| d.rule.as_str() == rule && d.unit.as_deref() == unit && d.side == side);
        if !open {
            self.push(rule, unit, side, what, form);
        }
    }
}

/// Units whose state changed between the two states, paired (same order, same ids).
///
/// Actions never add, remove or reorder units, so the unit at the same place is the one (its card
/// is the same shared `Arc`); looking each up by id compared strings 34 x 34 times per action.
/// The units of an action, each as it was before and is after (the pairs a rule set's checks
/// compare).
pub fn pairs<'a>(
    ev: &'a Event<'a>,
) -> impl Iterator<
    Item = (
        &'a crate::engine::game::UnitState,
        &'a crate::engine::game::UnitState,
    ),
> {
    ev.before.units.iter().enumerate().filter_map(|(i, b)| {
        match ev.after.units.get(i) {
            Some(a) if std::sync::Arc::ptr_eq(&a.unit, &b.unit) || a.id() == b.id() => Some(a),
            _ => ev.after.unit(b.id()),
        }
        .map(|a| (b, a))
    })
}
