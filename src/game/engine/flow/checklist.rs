//! The current phase's steps per rule set, driven by the turn clock ([`crate::engine::game::clock`]).

use serde::Serialize;

use crate::engine::game::{GameState, UnitState};
use crate::engine::rule_set::RuleSetRef;
use crate::roster::Side;
use crate::rules::RuleId;

/// One step of the current phase: what to do, for whom, and where kepi resolves it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Item {
    /// The mechanic.
    pub rule: RuleId,
    /// What happens, for people.
    pub what: String,
    /// The side it is for, when one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
    /// The resolver form to open ([`Form::name`]), when kepi has one for this step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub form: Option<String>,
    /// The units it concerns (the window pre-fills the first as the acting unit).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub units: Vec<String>,
}

/// True when the rule set's resolver offers a form of this name.
pub fn form_offered(rules: RuleSetRef, name: &str) -> bool {
    rules.forms().iter().any(|f| f.name() == name)
}

/// The side whose phase it is (None: both sides, or the umpire).
pub fn phase_side(s: &GameState) -> Option<Side> {
    s.phase_kind().and_then(|p| p.side)
}

/// The current phase's steps as a rule set lists them ([`crate::engine::rule_set::RuleSet::checklist`]).
pub struct List<'a> {
    s: &'a GameState,
    out: Vec<Item>,
}

impl<'a> List<'a> {
    /// The game.
    pub fn state(&self) -> &'a GameState {
        self.s
    }

    /// Lists a step: its rule, what to do, the side it is for, the resolver form that does it
    /// (kept only when the rule set offers that form) and the units it concerns.
    pub fn add(
        &mut self,
        rule: &'static str,
        what: impl Into<String>,
        side: Option<Side>,
        form: Option<&str>,
        units: Vec<String>,
    ) {
        self.out.push(Item {
            rule: RuleId::new(rule),
            what: what.into(),
            side,
            form: form
                .filter(|f| form_offered(self.s.system, f))
                .map(str::to_string),
            units,
        });
    }

    /// How many steps are listed so far.
    pub fn len(&self) -> usize {
        self.out.len()
    }

    /// True when no step is listed yet.
    pub fn is_empty(&self) -> bool {
        self.out.is_empty()
    }

    /// The ids of the units in play (arrived, not eliminated) that `keep` keeps.
    pub fn ids(&self, keep: impl Fn(&UnitState) -> bool) -> Vec<String> {
        self.s
            .units
            .iter()
            .filter(|u| {
                !u.eliminated() && u.unit.arrives.is_none_or(|t| t <= self.s.turn) && keep(u)
            })
            .map(|u| u.id().to_string())
            .collect()
    }

    /// Units due to arrive this turn (the scenario's `arrives`).
    pub fn arrivals(&mut self, rule: &'static str, side: Option<Side>) {
        let turn = self.s.turn;
        let units =
            self.ids(|u| u.unit.arrives == Some(turn) && side.is_none_or(|s| s == u.unit.side));
        if !units.is_empty() {
            self.add(
                rule,
                format!("{} unit(s) arrive this turn: place them", units.len()),
                side,
                None,
                units,
            );
        }
    }
}

/// The steps of the current phase, in order, as the game's rule set lists them
/// ([`crate::engine::rule_set::RuleSet::checklist`]; each set's steps live in its folder,
/// `src/game/rules/<set>/checklist.rs`).
pub fn checklist(s: &GameState) -> Vec<Item> {
    let mut l = List { s, out: Vec::new() };
    s.system.checklist(&mut l);
    l.out
}
