//! The window plays a rule set registered at run time ("Volley", tests/shared/volley.rs) like the
//! five it ships: its scenario opens, its form shows the odds and rolls, the log and the due list
//! follow (docs/ADDING_A_RULE_SET.md).

use super::common::{LAPTOP, demo};

#[path = "../shared/volley.rs"]
mod volley;

use egui_kittest::kittest::Queryable;
use kepi::app::state::Command;
use kepi::game::Action;

#[test]
fn a_registered_rule_set_opens_shows_its_odds_and_rolls() {
    let system = volley::system();
    let mut h = demo(LAPTOP);
    h.run();
    h.state_mut()
        .state
        .handle(Command::NewGame("volley-test".into()));
    h.run();
    assert_eq!(h.state().state.state().system, system);
    assert!(h.query_by_label_contains("Volley (tests)").is_some());
    h.state_mut().state.handle(Command::Act(Action::NextPhase));
    h.state_mut().state.handle(Command::Select("a".into()));
    h.state_mut().state.handle(Command::Target("b".into()));
    h.run();
    // Its odds, exact, before the roll.
    assert!(h.query_by_label("1/3").is_some(), "hit 1/3 shown");
    assert!(h.query_by_label("2/3").is_some(), "miss 2/3 shown");
    // Its own situation panel: cover makes it a six to hit.
    h.get_by_label("target in cover (hits on one more)").click();
    h.run();
    assert!(h.query_by_label("1/6").is_some(), "hit 1/6 in cover");
    assert!(h.query_by_label("5/6").is_some(), "miss 5/6 in cover");
    h.get_by_label("target in cover (hits on one more)").click();
    h.run();
    assert!(h.query_by_label("1/3").is_some(), "out of cover again");
    let before = h.state().state.game.log().len();
    h.get_by_label("Roll and apply").click();
    h.run();
    let s = h.state().state.state();
    assert_eq!(
        h.state().state.game.log().len(),
        before + 1,
        "one roll, one entry"
    );
    assert!(s.unit("a").is_some_and(|u| u.fired));
    h.run();
    assert!(h.query_by_label_contains("Result: ").is_some());
}

/// Issue 43: the registered set's cards open in the order-of-battle builder, its form drawn from
/// the set's card (the builder names no rule set).
#[test]
fn a_registered_rule_sets_cards_open_in_the_builder() {
    let system = volley::system();
    let mut h = demo(LAPTOP);
    h.run();
    h.state_mut()
        .state
        .handle(Command::NewGame("volley-test".into()));
    h.state_mut()
        .state
        .handle(Command::ShowBuilder(kepi::app::builder::Opening::Current));
    h.run();
    let b = &h.state().state.dialogs.builder;
    let oob = b.oob.as_ref().expect("opened");
    assert_eq!(oob.spec, system.card_spec());
    assert_eq!(oob.drafts().len(), 2);
    assert!(oob.errors().is_empty(), "{:?}", oob.errors());
    let key = oob.drafts().next().map(|d| d.key).expect("a card");
    h.state_mut().state.dialogs.builder.selected = Some(kepi::app::builder::Selection::Unit(key));
    h.run();
    assert!(
        h.query_all_by_label("A Company").next().is_some(),
        "its form is shown"
    );
    let spec = system.card_spec();
    for f in &spec.fields {
        assert!(
            h.query_all_by_label(f.label).next().is_some(),
            "{} on the form",
            f.label
        );
    }
}

/// Issue 45: the registered set's own unit marker (VOL-M1 "wavering", declared in its file) is
/// offered in the unit editor beside the engine's flags, and a click asks for it; once on, the
/// roster row shows its chip ("Wav", what it means on hover).
#[test]
fn a_registered_rule_sets_own_marker_is_in_the_editor_and_on_the_roster() {
    use kepi::app::state::AppState;
    let system = volley::system();
    let scenario = kepi::registry::builtin_scenario("volley-test").expect("scenario");
    let tables = kepi::registry::builtin_tables().expect("tables");
    let mut app = AppState::new_game(&scenario, 3, tables).expect("game");
    assert_eq!(app.state().system, system);
    let mut h = super::common::unit_editor_of(&app, "a", 600.0);
    h.get_by_label("wavering").click();
    h.run();
    let sent = h.state().clone();
    assert!(
        matches!(
            sent.as_slice(),
            [Command::Act(Action::MarkUnit { unit, kind, on: true })]
                if unit == "a" && kind == "wavering"
        ),
        "{sent:?}"
    );
    for c in sent {
        app.handle(c);
    }
    assert_eq!(
        app.state().unit("a").map(|u| u.marks.clone()),
        Some(vec!["wavering".to_string()])
    );
    let mut h = super::common::roster_of(app);
    h.run();
    assert!(h.query_by_label("Wav").is_some(), "its chip on the roster");
}
