//! Play: the bridge between a game in progress and the rule sets.
//!
//! A [`Form`] is one resolver action (a fire, a melee, a rally roll...) with the acting and target
//! units and the situation. [`Form::prefill`] sets the situation from the units' live state (class,
//! figures, disorder, formation...), [`Form::resolve`] calls the rule set's pure function and turns
//! the outcome into [`Action`]s on the units, so one resolution is one undo step. The window, the
//! command line (`kepi game apply FILE fire ...`) and the tests all go through here.

pub mod breaches;
pub mod crt;
pub mod gsp;
pub mod overrides;
pub mod pk;
pub mod pw;
pub mod refuse;

use serde::{Deserialize, Serialize};

use crate::dice::DiceSource;
use crate::engine::game::{Action, GameState, UnitState};
use crate::engine::rule_set::Rules;
use crate::rules::Tables;
use crate::rules::{Resolution, RuleError};

/// One resolver action with its units and situation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "form", rename_all = "kebab-case")]
pub enum Form {
    /// Pickelhaube & Kepi.
    Pk(pk::PkForm),
    /// Graveyard St. Privat artillery.
    Gsp(gsp::GspForm),
    /// Portable Wargame.
    Pw(pw::PwForm),
    /// SPI Franco-Prussian War.
    Spi(crt::SpiForm),
    /// 1870.
    Fr1870(crt::FrForm),
    /// A form of a rule set registered at run time ([`crate::registry::register`]).
    Custom(Custom),
}

/// A resolver form of a rule set registered at run time ([`crate::registry::register`]); the five
/// rule sets kepi ships have their own variants of [`Form`]. The form keeps its units and
/// situation; kepi pre-fills it, asks it for the odds and rolls it like any other.
pub trait CustomForm: std::fmt::Debug + Send + Sync {
    /// The action's name ("fire").
    fn name(&self) -> &'static str;
    /// The acting unit and the target.
    fn units(&self) -> (Option<&str>, Option<&str>);
    /// True when the action needs a target unit.
    fn needs_target(&self) -> bool {
        true
    }
    /// Sets the units and pre-sets the situation from their live state.
    fn prefill(&mut self, state: &GameState, actor: Option<&str>, target: Option<&str>);
    /// Why the action is impossible now, or None.
    fn refusal(&self, _state: &GameState) -> Option<String> {
        None
    }
    /// The dice it rolls (any other entered die is refused).
    fn dice_used(&self) -> &'static [crate::dice::Die] {
        &[crate::dice::Die::D6]
    }
    /// The odds (no dice) or the outcome and its effects on the units.
    fn resolve(
        &self,
        state: &GameState,
        dice: Option<&mut DiceSource>,
    ) -> Result<Resolved, RuleError>;
    /// The situation in the window's resolver (the rule set's resolver UI file draws it; by
    /// default the form says its situation comes from the units).
    #[cfg(feature = "gui")]
    fn situation_ui(&mut self, ui: &mut egui::Ui) {
        ui.label(format!(
            "{}: the situation is set from the units.",
            self.name()
        ));
    }
    /// The units and situation as a JSON object (what the window's overrides compare).
    fn to_value(&self) -> serde_json::Value;
    /// A copy with the units and situation of `v` (None when `v` does not fit the form).
    fn with_value(&self, v: &serde_json::Value) -> Option<Box<dyn CustomForm>>;
    /// A copy.
    fn boxed_clone(&self) -> Box<dyn CustomForm>;
}

/// A [`CustomForm`] in a [`Form`].
#[derive(Debug)]
pub struct Custom(pub Box<dyn CustomForm>);

impl Clone for Custom {
    fn clone(&self) -> Self {
        Custom(self.0.boxed_clone())
    }
}

impl PartialEq for Custom {
    fn eq(&self, other: &Self) -> bool {
        self.0.name() == other.0.name() && self.0.to_value() == other.0.to_value()
    }
}

impl Serialize for Custom {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.to_value().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Custom {
    fn deserialize<D: serde::Deserializer<'de>>(_: D) -> Result<Self, D::Error> {
        Err(serde::de::Error::custom(
            "a registered rule set's form is read back through the form itself (Form::with_value)",
        ))
    }
}

/// A resolution and what it does to the units.
pub type Resolved = (Resolution<serde_json::Value>, Vec<Action>);

impl Form {
    /// The resolver actions a rule set offers, with default situations.
    pub fn all_for(rules: impl Into<Rules>) -> Vec<Form> {
        rules.into().forms()
    }

    /// The action's name ("fire", "melee").
    pub fn name(&self) -> &'static str {
        match self {
            Form::Pk(f) => f.name(),
            Form::Gsp(f) => f.name(),
            Form::Pw(f) => f.name(),
            Form::Spi(f) => f.name(),
            Form::Fr1870(f) => f.name(),
            Form::Custom(f) => f.0.name(),
        }
    }

    /// The acting unit and the target, when the form has them.
    pub fn units(&self) -> (Option<&str>, Option<&str>) {
        match self {
            Form::Pk(f) => (f.actor.as_deref(), f.target.as_deref()),
            Form::Gsp(f) => (f.actor.as_deref(), f.target.as_deref()),
            Form::Pw(f) => (f.actor.as_deref(), f.target.as_deref()),
            Form::Spi(f) => (f.actor.as_deref(), f.target.as_deref()),
            Form::Fr1870(f) => (f.actor.as_deref(), f.target.as_deref()),
            Form::Custom(f) => f.0.units(),
        }
    }

    /// True when the action needs a target unit.
    pub fn needs_target(&self) -> bool {
        match self {
            Form::Pk(f) => f.needs_target(),
            Form::Gsp(f) => f.needs_target(),
            Form::Pw(f) => f.needs_target(),
            Form::Spi(_) | Form::Fr1870(_) => true,
            Form::Custom(f) => f.0.needs_target(),
        }
    }

    /// Sets the units and pre-sets the situation from their live state.
    pub fn prefill(
        &mut self,
        state: &GameState,
        actor: Option<&str>,
        target: Option<&str>,
        tables: &Tables,
    ) {
        match self {
            Form::Pk(f) => f.prefill(state, actor, target, &tables.pk),
            Form::Gsp(f) => f.prefill(state, actor, target, &tables.gsp),
            Form::Pw(f) => f.prefill(state, actor, target, &tables.pw),
            Form::Spi(f) => f.prefill(state, actor, target),
            Form::Fr1870(f) => f.prefill(state, actor, target),
            Form::Custom(f) => f.0.prefill(state, actor, target),
        }
    }

    /// Why this action is impossible for its units now (see [`refuse`]), or None. The window
    /// disables its Roll button with this reason, `kepi game apply` exits 2 with it.
    pub fn refusal(&self, state: &GameState) -> Option<String> {
        refuse::refusal(self, state)
    }

    /// Resolves: with `dice` None the preview (odds only, no effects); with dice the outcome and its
    /// effects on the units.
    pub fn resolve(
        &self,
        state: &GameState,
        tables: &Tables,
        dice: Option<&mut DiceSource>,
    ) -> Result<Resolved, RuleError> {
        if let Some(why) = self.refusal(state) {
            return Err(RuleError::input(
                "units",
                why,
                "other units or settings: this action is impossible",
            ));
        }
        match self {
            Form::Pk(f) => f.resolve(state, &tables.pk, dice),
            Form::Gsp(f) => f.resolve(state, &tables.gsp, dice),
            Form::Pw(f) => f.resolve(state, &tables.pw, dice),
            Form::Spi(f) => f.resolve(state, &tables.spi, dice),
            Form::Fr1870(f) => f.resolve(state, &tables.fr1870, dice),
            Form::Custom(f) => f.0.resolve(state, dice),
        }
    }

    /// SPI-C2, FR-C1: a hex combat form's attackers are the acting unit and `extra` units of its
    /// side still fighting (the window's Ctrl-clicked ones, `form ... --attacker`); others are
    /// left out, not refused: a pick may go stale. Other forms are left as they are.
    pub fn with_attackers(&mut self, state: &GameState, extra: &[String]) {
        let (ids, defenders) = match self {
            Form::Spi(x) => (x.attacker_ids.clone(), x.defender_ids.clone()),
            Form::Fr1870(x) => (x.attacker_ids.clone(), x.defender_ids.clone()),
            _ => return,
        };
        let Some(lead) = ids.first().and_then(|id| state.unit(id)) else {
            return;
        };
        let mut all = ids.clone();
        for e in extra {
            if let Some(u) = state.unit(e)
                && u.unit.side == lead.unit.side
                && !u.eliminated()
                && !all.contains(&u.unit.id)
            {
                all.push(u.unit.id.clone());
            }
        }
        if all == ids {
            return;
        }
        match self {
            Form::Spi(x) => {
                let (a, t) = (x.actor.clone(), x.target.clone());
                x.prefill_engaged(state, &all, &defenders);
                (x.actor, x.target) = (a, t);
            }
            Form::Fr1870(x) => {
                let (a, t) = (x.actor.clone(), x.target.clone());
                x.prefill_engaged(state, &all, &defenders);
                (x.actor, x.target) = (a, t);
            }
            _ => {}
        }
    }

    /// This form with the units and situation of `v` (its JSON form, as [`overrides`] edits it),
    /// or None when `v` does not fit it.
    pub fn with_value(&self, v: &serde_json::Value) -> Option<Form> {
        match self {
            Form::Custom(f) => f.0.with_value(v).map(|b| Form::Custom(Custom(b))),
            _ => serde_json::from_value(v.clone()).ok(),
        }
    }
}

/// Looks a unit up for a form, with an error naming the field.
pub(crate) fn unit<'a>(
    state: &'a GameState,
    id: Option<&str>,
    field: &str,
) -> Result<&'a UnitState, RuleError> {
    let id = id.ok_or_else(|| RuleError::input(field, "no unit chosen", "a unit of the roster"))?;
    state.unit(id).ok_or_else(|| {
        RuleError::input(
            field,
            format!("no unit `{id}` in this game"),
            "a unit id of the roster",
        )
    })
}

/// The strength loss of a unit as actions: never more than it has.
pub(crate) fn lose(u: &UnitState, n: u32, out: &mut Vec<Action>) -> u32 {
    let n = n.min(u.strength);
    if n > 0 {
        out.push(Action::LoseStrength {
            unit: u.unit.id.clone(),
            n,
        });
    }
    n
}

/// Erases a typed resolution and pairs it with its effects.
pub(crate) fn done<O: Serialize>(res: Resolution<O>, effects: Vec<Action>) -> Resolved {
    (res.erase(), effects)
}
