//! The bottom "Drift" tab, offered when the game's rule set has one
//! ([`crate::engine::rule_set::RuleSet::has_drift`]): the rule set draws it
//! ([`crate::engine::rule_set::RuleSet::drift_ui`]) from the game, the form shown and the tables.

use egui::Ui;

use super::state::AppState;

/// The Drift tab.
pub fn drift_ui(ui: &mut Ui, app: &AppState) {
    let game = &app.game;
    game.state()
        .system
        .drift_ui(ui, game, app.resolver.form(), app.tables);
}
