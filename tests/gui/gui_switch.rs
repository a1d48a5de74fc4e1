//! Switching scenarios keeps the bottom tabs (a regression seen under Xvfb: after a hex game the
//! Graveyard St. Privat workspace lost its Drift / Charts / Dice tray panel).

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use kepi::app::KepiApp;
use kepi::app::state::Command;

#[test]
fn bottom_tabs_survive_a_change_of_scenario() {
    let app = KepiApp::new(1870, None).expect("demo battle");
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_ui_state(|ui, app: &mut KepiApp| app.ui(ui), app);
    h.run();
    assert!(h.query_by_label("Dice tray").is_some());
    for (name, tab) in [
        ("pw-skirmish", "Map"),
        ("st-privat", "Drift"),
        ("spi-1870", "Map"),
        ("mars-la-tour", "Charts"),
    ] {
        h.state_mut().state.handle(Command::NewGame(name.into()));
        h.run();
        h.run();
        assert!(
            h.query_by_label("Dice tray").is_some(),
            "{name}: the bottom tabs are there"
        );
        assert!(h.query_by_label(tab).is_some(), "{name}: the {tab} tab");
    }
}

#[test]
fn a_tall_bottom_panel_survives_a_change_of_scenario() {
    let app = KepiApp::new(1870, None).expect("demo battle");
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_ui_state(|ui, app: &mut KepiApp| app.ui(ui), app);
    h.run();
    h.state_mut()
        .state
        .handle(Command::NewGame("pw-skirmish".into()));
    h.run();
    // Drag the bottom panel's top edge up, as a user making room for the map.
    let tab = h.get_by_label("Map").rect();
    let edge = egui::pos2(tab.center().x, tab.top() - 9.0);
    for dy in [0.0, 1.0] {
        h.hover_at(edge + egui::vec2(0.0, dy));
        h.run();
    }
    h.drag_at(edge);
    h.run();
    for step in 1..=10 {
        h.hover_at(edge - egui::vec2(0.0, 25.0 * step as f32));
        h.run();
    }
    h.drop_at(edge - egui::vec2(0.0, 250.0));
    h.run();
    let moved = h.get_by_label("Map").rect();
    assert!(
        moved.top() < tab.top() - 100.0,
        "the drag made the panel taller"
    );
    h.state_mut()
        .state
        .handle(Command::NewGame("st-privat".into()));
    h.run();
    let tray = h.get_by_label("Dice tray").rect();
    let screen = h.ctx.content_rect();
    assert!(
        screen.contains(tray.center()),
        "the bottom tabs are on screen ({tray:?} in {screen:?})"
    );
    // And they did not grow past the height the user gave them (egui fits a panel to its
    // content, so a smaller diagram may make them shorter, never taller).
    assert!(
        tray.top() >= moved.top() - 2.0,
        "the panel grew: tab row at {} before the switch, {} after",
        moved.top(),
        tray.top()
    );
}
