//! The resolver: pick acting and target units, tick the situation, see every modifier and the exact
//! odds, then Roll or Enter dice, then Apply.

use crate::dice::DiceSource;
use crate::game::{Action, GameState};
use crate::rules::{Resolution, RuleError, System};
use crate::tables::Tables;

/// The resolver's forms.
#[derive(Clone, Debug)]
pub struct ResolverState {
    /// The rule set.
    pub system: System,
    /// Log index of the last resolution applied from here.
    pub last_rolled: Option<u64>,
}

impl ResolverState {
    /// Forms for a rule set.
    pub fn new(system: System) -> Self {
        ResolverState {
            system,
            last_rolled: None,
        }
    }

    /// Pre-sets the form from the selected units.
    pub fn prefill(&mut self, _state: &GameState, _actor: Option<&str>, _target: Option<&str>) {}

    /// Resolves with dice and returns the effects on the units.
    pub fn resolve_with_effects(
        &self,
        _state: &GameState,
        _tables: &Tables,
        _dice: &mut DiceSource,
    ) -> Result<(Resolution<serde_json::Value>, Vec<Action>), RuleError> {
        Err(RuleError::input(
            "resolver",
            "no resolver for this rule set yet",
            "-",
        ))
    }
}

/// The resolver panel.
pub fn resolver_ui(
    ui: &mut egui::Ui,
    app: &mut super::state::AppState,
    _out: &mut Vec<super::state::Command>,
) {
    ui.heading("Resolver");
    ui.label(app.state().system.title());
}
