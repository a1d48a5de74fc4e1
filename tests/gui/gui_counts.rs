//! Issue 26, counts that agree: the checklist's "N still to act" and the roster's "still to act"
//! filter ask one function (`flow::is_still_to_act`), on every demo battle, through its phases.

#![cfg(feature = "gui")]

use super::common::{LAPTOP, demo};
use egui_kittest::kittest::Queryable;
use kepi::app::roster::{RosterView, Row, rows};
use kepi::app::state::Command;

fn roster_count(app: &kepi::app::state::AppState) -> usize {
    let view = RosterView {
        only_to_act: true,
        ..RosterView::default()
    };
    rows(app.game.state(), &view)
        .iter()
        .filter(|r| matches!(r, Row::Unit { .. }))
        .count()
}

#[test]
fn checklist_and_roster_filter_count_the_same_units() {
    for s in kepi::registry::builtin_scenarios().expect("scenarios") {
        let scenario = s.name.as_str();
        let mut h = demo(LAPTOP);
        h.state_mut()
            .state
            .handle(Command::NewGame(scenario.into()));
        h.run();
        // Through the first phases: some units eliminated or not yet arrived must not count.
        for step in 0..4 {
            let app = &h.state().state;
            let checklist = kepi::flow::activity(app.game.state()).to_act().len();
            assert_eq!(
                roster_count(app),
                checklist,
                "{scenario}, phase step {step}: roster filter and checklist"
            );
            let shown = format!("{checklist} still to act this phase");
            if h.query_by_label(&shown).is_some() {
                // The link, clicked, lists exactly that many units.
                h.get_by_label(&shown).click();
                h.run();
                assert!(h.state().state.panels.roster.options.only_to_act);
                h.state_mut().state.panels.roster.options.only_to_act = false;
            }
            h.state_mut().state.handle(Command::NextPhase);
            h.run();
        }
    }
}
