//! The bottom "Drift" tab, offered when the game's rule set has one
//! ([`kepi_game::engine::rule_set::RuleSet::has_drift`]): the rule set draws it
//! ([`kepi_game::engine::rule_set::RuleSet::drift_ui`]) from the game, the form shown and the tables.

use egui::Ui;

use super::state::View;
use kepi_game::engine::play::Form;

/// The Drift tab, for the resolver's `form` (the fire whose drift it draws).
pub fn drift_ui(ui: &mut Ui, view: &View, form: Option<&Form>) {
    view.state()
        .system
        .drift_ui(ui, view.game, form, view.tables);
}
