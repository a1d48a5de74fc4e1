//! The rule-set registry: what each rule set is, asked in one place.
//!
//! Everything outside a rule set's own module asks this registry what the rule set is (its id,
//! title, phases, forms, markers, the checks its results set off, whether it plays on hexes, its
//! scenarios) instead of matching on the rule set. The five rule sets kepi ships are listed in
//! [`BUILT_IN`]; each implements [`RuleSet`] in its own module (`src/rules/<set>/set.rs`). A rule
//! set added at run time (a test's, or a club's build) registers with [`register`] and is then
//! played, saved, checked and reported like the five. See docs/ADDING_A_RULE_SET.md.

use std::sync::RwLock;

use chrono::NaiveDate;
use serde_json::Value;

use crate::flow::checklist::List;
use crate::flow::{Event, Queue};
use crate::game::clock::{Phase, Step};
use crate::game::{Action, Counter, Flag, GameState, UnitState};
use crate::play::Form;
use crate::roster::{Arm, Quality, Side};
use crate::rules::{Outcome, RuleId, System};
use crate::tables::Tables;

/// One rule set, as the rest of kepi sees it. The defaults are those of a rule set with strength
/// only, no hexes, no checks and no scenario.
pub trait RuleSet: Send + Sync + 'static {
    /// The short id saves and the command line carry ("pk"); lower case ASCII, unique.
    fn id(&self) -> &'static str;

    /// The rule set's name as printed.
    fn title(&self) -> &'static str;

    /// True when the rule set plays on a hex map (the window's centre is then the map).
    fn uses_hexes(&self) -> bool {
        false
    }

    /// The phases of one game-turn, typed, in order, for the sides in order of play (never empty).
    fn phases(&self, sides: &[Side]) -> Vec<Phase>;

    /// The rule ids the rule set logs, beyond RULES.md's (which every built-in rule set uses): a
    /// save that names one of these reads back only while the rule set is registered.
    fn rule_ids(&self) -> &'static [&'static str] {
        &[]
    }

    /// The rule that defines the turn sequence (logged with each change of phase).
    fn turn_rule(&self) -> RuleId;

    /// The date a game-turn starts on: the scenario's date unless the rule set keeps a calendar.
    fn date_of_turn(
        &self,
        scenario_date: Option<NaiveDate>,
        _first_cell: u32,
        _turn: u32,
    ) -> Option<NaiveDate> {
        scenario_date
    }

    /// The dice the rule set rolls (an entered die of another kind is refused).
    fn dice(&self) -> &'static [crate::dice::Die] {
        &[crate::dice::Die::D6]
    }

    /// The markers a unit carries (the unit editor offers these only).
    fn flags(&self) -> &'static [Flag] {
        &[Flag::Moved, Flag::Fired]
    }

    /// The counts kept per unit.
    fn counters(&self) -> &'static [Counter] {
        &[Counter::Strength]
    }

    /// True when units have P&K's effectiveness levels (PK-E1).
    fn has_levels(&self) -> bool {
        false
    }

    /// True when units are in or out of supply (the unit editor sets it).
    fn has_supply(&self) -> bool {
        false
    }

    /// True when a fire can drift and the window offers the drift diagram.
    fn has_drift(&self) -> bool {
        false
    }

    /// The qualities a card may give (none: the rule set has no classes).
    fn qualities(&self) -> &'static [Quality] {
        &[]
    }

    /// The leaders a card of `arm` has when it gives none.
    fn default_leaders(&self, _arm: Arm) -> u32 {
        0
    }

    /// What strength counts ("figures", "SP").
    fn strength_unit(&self, _arm: Arm) -> &'static str {
        "strength"
    }

    /// The fatigue scale printed on cards (0: the rule set keeps no fatigue).
    fn fatigue_max(&self) -> u32 {
        0
    }

    /// How the rule set's board numbers its hexes (which columns sit half a hex lower): every
    /// distance, adjacency, zone of control and retreat cell reads a label through it.
    fn hex_layout(&self) -> crate::hex::Layout {
        crate::hex::Layout::OddQ
    }

    /// Move and range as a roster prints them, where the rule set gives them.
    fn move_and_range(&self, _u: &UnitState, _t: &Tables) -> (Option<String>, Option<String>) {
        (None, None)
    }

    /// A unit's weapon range in hexes on the map, where the rule set reads one.
    fn hex_range(&self, _u: &UnitState, _date: Option<NaiveDate>, _t: &Tables) -> Option<u32> {
        None
    }

    /// What is odd about moving `u` by `hexes` now (shown while dragging, logged with the move).
    fn move_warning(
        &self,
        _u: &UnitState,
        _hexes: u32,
        _date: Option<NaiveDate>,
        _t: &Tables,
    ) -> Option<String> {
        None
    }

    /// True when the map shows zones of control when it opens.
    fn zones_of_control(&self) -> bool {
        self.uses_hexes()
    }

    /// The rules an action by hand stands for (logged with it), beyond the generic ones.
    fn hand_rules(&self, _action: &Action) -> Vec<RuleId> {
        Vec::new()
    }

    /// The resolver forms, with default situations.
    fn forms(&self) -> Vec<Form>;

    /// The steps of the turn a form belongs to (empty: any time).
    fn form_steps(&self, _form: &str) -> &'static [Step] {
        &[]
    }

    /// True when the current phase waits for `u` to act.
    fn still_to_act(&self, s: &GameState, phase: Option<Phase>, u: &UnitState) -> bool;

    /// What else is odd about `u` resolving `form` now, beyond the phase and side (never refused).
    fn phase_warnings(&self, _s: &GameState, _form: &str, _u: &UnitState) -> Vec<String> {
        Vec::new()
    }

    /// A logged resolution's outcome, typed, when kepi acts on it.
    fn outcome(&self, _action: &str, _outcome: &Value) -> Option<Outcome> {
        None
    }

    /// Queues the checks an action sets off (read the event, push onto the queue).
    fn checks(&self, _ev: &Event, _q: &mut Queue) {}

    /// Lists the steps of the current phase.
    fn checklist(&self, l: &mut List);

    /// The scenarios compiled in: (file name, TOML source).
    fn scenarios(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }
}

/// The five rule sets kepi ships, in menu order. Adding one to kepi itself is one line here.
pub static BUILT_IN: [&dyn RuleSet; 5] = [
    &crate::rules::pk::set::PkRules,
    &crate::rules::pw::set::PwRules,
    &crate::rules::gsp::set::GspRules,
    &crate::rules::spi::set::SpiRules,
    &crate::rules::fr1870::set::FrRules,
];

/// Rule sets registered at run time, after the built-in ones.
static REGISTERED: RwLock<Vec<&'static dyn RuleSet>> = RwLock::new(Vec::new());

fn registered() -> Vec<&'static dyn RuleSet> {
    REGISTERED
        .read()
        .map(|v| v.clone())
        .unwrap_or_else(|e| e.into_inner().clone())
}

fn every() -> impl Iterator<Item = &'static dyn RuleSet> {
    BUILT_IN.iter().copied().chain(registered())
}

/// Why a rule set could not be registered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RegisterError {
    /// The id is taken.
    #[error("a rule set with id `{0}` is already registered")]
    Taken(&'static str),
    /// The id is not lower case ASCII letters and digits.
    #[error("rule set id `{0}` must be 1-16 lower case ASCII letters or digits")]
    BadId(&'static str),
}

/// Registers a rule set and returns its [`System`]. Registering the same rule set (same object)
/// again returns the same `System`; another rule set with a taken id is refused.
pub fn register(rules: &'static dyn RuleSet) -> Result<System, RegisterError> {
    let id = rules.id();
    if id.is_empty()
        || id.len() > 16
        || !id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    {
        return Err(RegisterError::BadId(id));
    }
    let mut list = REGISTERED.write().unwrap_or_else(|e| e.into_inner());
    let same = |r: &&'static dyn RuleSet| std::ptr::addr_eq(*r as *const _, rules as *const _);
    if list.iter().any(same) {
        return Ok(System::new_registered(id));
    }
    if BUILT_IN.iter().chain(list.iter()).any(|r| r.id() == id) {
        return Err(RegisterError::Taken(id));
    }
    list.push(rules);
    Ok(System::new_registered(id))
}

/// The rule set behind a [`System`]. A `System` is only made from a registered rule set, so this
/// always finds it; were it ever not found, the first built-in rule set answers.
pub fn get(system: System) -> &'static dyn RuleSet {
    // The built-in rule sets answer without taking the lock (this is asked per unit per frame).
    if let Some(r) = BUILT_IN.iter().find(|r| r.id() == system.id()) {
        return *r;
    }
    registered()
        .into_iter()
        .find(|r| r.id() == system.id())
        .unwrap_or(BUILT_IN[0])
}

/// The rule set with this id (case and surrounding blanks ignored), if one is registered.
pub fn find(id: &str) -> Option<System> {
    let id = id.trim().to_ascii_lowercase();
    every()
        .find(|r| r.id() == id)
        .map(|r| System::new_registered(r.id()))
}

/// Every rule set, built-in ones first, in menu order.
pub fn all() -> Vec<System> {
    every().map(|r| System::new_registered(r.id())).collect()
}

/// A rule set's place in menu order.
pub fn position(system: System) -> usize {
    every()
        .position(|r| r.id() == system.id())
        .unwrap_or(usize::MAX)
}

/// The rule ids registered rule sets declare ([`RuleSet::rule_ids`]).
pub fn registered_rule_ids() -> impl Iterator<Item = &'static str> {
    let list = REGISTERED.read().unwrap_or_else(|e| e.into_inner());
    let ids: Vec<&'static str> = if list.is_empty() {
        Vec::new()
    } else {
        list.iter()
            .flat_map(|r| r.rule_ids().iter().copied())
            .collect()
    };
    ids.into_iter()
}

/// Every compiled-in scenario of every rule set: (file name, TOML source).
pub fn scenarios() -> Vec<(&'static str, &'static str)> {
    every()
        .flat_map(|r| r.scenarios().iter().copied())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_ids_match_the_system_constants() {
        let ids: Vec<&str> = BUILT_IN.iter().map(|r| r.id()).collect();
        let consts: Vec<&str> = System::ALL.iter().map(|s| s.id()).collect();
        assert_eq!(ids, consts);
        for s in System::ALL {
            assert_eq!(get(s).id(), s.id());
            assert_eq!(find(&s.id().to_uppercase()), Some(s));
        }
        assert_eq!(find("nope"), None);
    }

    #[test]
    fn a_taken_or_bad_id_is_refused() {
        assert_eq!(
            register(BUILT_IN[0]),
            Err(RegisterError::Taken("pk")),
            "a built-in rule set is not registered twice"
        );
    }
}
