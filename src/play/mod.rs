//! Play: the bridge between a game in progress and the rule sets.
//!
//! A [`Form`] is one resolver action (a fire, a melee, a rally roll...) with the acting and target
//! units and the situation. [`Form::prefill`] sets the situation from the units' live state (class,
//! figures, disorder, formation...), [`Form::resolve`] calls the rule set's pure function and turns
//! the outcome into [`Action`]s on the units, so one resolution is one undo step. The window, the
//! command line (`kepi game apply FILE fire ...`) and the tests all go through here.

pub mod crt;
pub mod gsp;
pub mod overrides;
pub mod pk;
pub mod pw;
pub mod refuse;

use serde::{Deserialize, Serialize};

use crate::dice::DiceSource;
use crate::game::{Action, GameState, UnitState};
use crate::rules::{Resolution, RuleError, System};
use crate::tables::Tables;

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
}

/// A resolution and what it does to the units.
pub type Resolved = (Resolution<serde_json::Value>, Vec<Action>);

impl Form {
    /// The resolver actions a rule set offers, with default situations.
    pub fn all_for(system: System) -> Vec<Form> {
        match system {
            System::Pk => pk::PkForm::all().into_iter().map(Form::Pk).collect(),
            System::Gsp => gsp::GspForm::all().into_iter().map(Form::Gsp).collect(),
            System::Pw => pw::PwForm::all().into_iter().map(Form::Pw).collect(),
            System::Spi => crt::SpiForm::all().into_iter().map(Form::Spi).collect(),
            System::Fr1870 => crt::FrForm::all().into_iter().map(Form::Fr1870).collect(),
        }
    }

    /// The action's name ("fire", "melee").
    pub fn name(&self) -> &'static str {
        match self {
            Form::Pk(f) => f.name(),
            Form::Gsp(f) => f.name(),
            Form::Pw(f) => f.name(),
            Form::Spi(f) => f.name(),
            Form::Fr1870(f) => f.name(),
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
        }
    }

    /// True when the action needs a target unit.
    pub fn needs_target(&self) -> bool {
        match self {
            Form::Pk(f) => f.needs_target(),
            Form::Gsp(f) => f.needs_target(),
            Form::Pw(f) => f.needs_target(),
            Form::Spi(_) | Form::Fr1870(_) => true,
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
