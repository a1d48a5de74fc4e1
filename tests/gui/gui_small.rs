//! Issue 26's small ones: the status line forgets "no unit chosen" once the unit is picked; a
//! player's seat shows the umpire's controls disabled with the reason on hover; an undone result
//! card no longer offers "Undo this"; placing an off-map unit is a placement (no "mv"); the first
//! start does not complain of an empty form before a unit is picked.

#![cfg(feature = "gui")]

use super::common::{demo, window};
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable};
use kepi::app::KepiApp;
use kepi::app::state::{Command, Mode, Remote};
use kepi::game::{Action, EntryKind};

#[test]
fn first_start_asks_for_a_unit_rather_than_complaining() {
    let h = window(None);
    assert!(
        h.query_all_by_label_contains("must be at least 1")
            .next()
            .is_none(),
        "no complaint before a unit is picked"
    );
    assert!(h.query_by_label(kepi::app::resolver::PICK_A_UNIT).is_some());
}

#[test]
fn the_status_forgets_a_missing_target_once_one_is_picked() {
    let mut h = window(None);
    h.state_mut()
        .state
        .handle(Command::Select("12th-grenadiers-1".into()));
    h.state_mut().state.target = None;
    h.state_mut().state.handle(Command::OpenForm {
        form: "fire".into(),
        actor: Some("12th-grenadiers-1".into()),
        target: None,
    });
    h.run();
    h.state_mut().state.handle(Command::ResolveAndApply {
        entered: Vec::new(),
    });
    h.run();
    let said = h.state().state.status.clone().expect("a status");
    assert!(
        said.error && said.text.contains("no unit chosen"),
        "{said:?}"
    );
    h.state_mut()
        .state
        .handle(Command::Target("8e-ligne-1".into()));
    h.run();
    assert!(
        h.state()
            .state
            .status
            .as_ref()
            .is_none_or(|s| !s.text.contains("no unit chosen")),
        "stale: {:?}",
        h.state().state.status
    );
}

#[test]
fn an_undone_result_card_offers_no_undo() {
    let mut h = window(None);
    h.state_mut().state.handle(Command::OpenForm {
        form: "fire".into(),
        actor: Some("12th-grenadiers-1".into()),
        target: Some("8e-ligne-1".into()),
    });
    h.run();
    h.get_by_label("Roll and apply").click();
    h.run();
    assert!(
        h.query_by_label("Undo this").is_some(),
        "offered after the roll"
    );
    h.state_mut().state.handle(Command::Undo);
    h.run();
    assert!(h.query_by_label("undone").is_some(), "the card says so");
    assert!(
        h.query_by_label("Undo this").is_none(),
        "nothing left to undo here"
    );
}

#[test]
fn a_players_seat_shows_the_umpires_controls_disabled_with_why() {
    let mut h = window(None);
    h.state_mut()
        .state
        .handle(Command::Act(Action::Note { text: "x".into() }));
    let side = h.state().state.game.state().sides[0];
    h.state_mut().state.mode = Mode::Joined(Remote::new(
        Some(kepi::net::Seat::Player(side)),
        "on the network",
    ));
    h.run();
    for b in ["Undo", "Redo", "Next phase >"] {
        assert!(
            h.get_by_label(b).accesskit_node().is_disabled(),
            "{b} is disabled on a player's seat"
        );
    }
    h.get_by_label("Undo").hover();
    for _ in 0..30 {
        h.step();
    }
    assert!(
        h.query_all_by_label_contains("undo is the umpire's")
            .next()
            .is_some(),
        "the reason on hover"
    );
    // The umpire's seat has them.
    h.state_mut().state.mode = Mode::Joined(Remote::new(Some(kepi::net::Seat::Umpire), "x"));
    h.run();
    assert!(!h.get_by_label("Undo").accesskit_node().is_disabled());
}

#[test]
fn placing_an_off_map_unit_is_a_placement_not_a_move() {
    let mut h = demo(egui::vec2(1366.0, 1000.0));
    h.state_mut()
        .state
        .handle(Command::NewGame("spi-1870".into()));
    h.run();
    let (id, name) = {
        let u = &h.state().state.state().units[0];
        assert_eq!(u.position, kepi::roster::Position::Off);
        (u.unit.id.clone(), u.unit.name.clone())
    };
    h.state_mut().state.handle(Command::Select(id.clone()));
    h.run();
    let field = format!("{name}: hex");
    h.get_by_role_and_label(Role::TextInput, &field).focus();
    h.run();
    h.get_by_role_and_label(Role::TextInput, &field)
        .type_text("1012");
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    h.run();
    let app = &h.state().state;
    let u = app.state().unit(&id).expect("unit");
    assert_eq!(u.position.to_string(), "1012");
    assert!(!u.moved, "a placement is not a move (no mv mark)");
    let e = app.game.log().last().expect("entry");
    assert!(
        matches!(
            &e.kind,
            EntryKind::Act {
                action: Action::Place { .. }
            }
        ),
        "{:?}",
        e.kind
    );
    assert!(e.summary.contains("is placed at 1012"), "{}", e.summary);
    // Once on the map, the unit editor's field moves it.
    h.get_by_role_and_label(Role::TextInput, "hex")
        .scroll_to_me();
    h.run();
    h.get_by_role_and_label(Role::TextInput, "hex").focus();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_role_and_label(Role::TextInput, "hex")
        .type_text("1013");
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    h.run();
    let app = &h.state().state;
    assert!(app.state().unit(&id).expect("unit").moved);
}

/// Issue 46: the log's unit filter finds every entry a unit took part in, not only those whose
/// line names it: a fire's target (by id or by name) finds the fire, whose line names the firer.
#[test]
fn the_log_filter_finds_an_entry_by_any_unit_in_it() {
    let mut h = window(None);
    h.state_mut().state.options.own_dice = false;
    h.state_mut().state.handle(Command::OpenForm {
        form: "fire".into(),
        actor: Some("12th-grenadiers-1".into()),
        target: Some("8e-ligne-1".into()),
    });
    h.state_mut().state.handle(Command::ResolveAndApply {
        entered: Vec::new(),
    });
    h.run();
    let fire = h.state().state.game.log().len() - 1;
    let fired = |h: &Harness<'_, KepiApp>| {
        let app = &h.state().state;
        app.panels.log.rows(&app.view()).contains(&fire)
    };
    assert!(fired(&h), "the fire is in the log");
    let target = h
        .state()
        .state
        .state()
        .unit("8e-ligne-1")
        .expect("target")
        .unit
        .name
        .clone();
    for (filter, shown) in [
        ("8e-ligne-1", true),
        (target.as_str(), true),
        ("no-such-unit", false),
    ] {
        h.state_mut().state.panels.log.filter = filter.to_string();
        h.run();
        assert_eq!(fired(&h), shown, "filter {filter:?}");
    }
}

/// Issue 46: "Verify chain" pushed the log's filters down as its answer appeared. The filter
/// field keeps its place before and after a Verify.
#[test]
fn verify_chain_does_not_move_the_log_filters() {
    let mut h = window(None);
    let filter = |h: &Harness<'_, KepiApp>| {
        h.get_all_by_role(Role::TextInput)
            .find(|n| n.rect().left() > 1000.0)
            .expect("the log's filter field")
            .rect()
    };
    let before = filter(&h);
    h.get_by_label("Verify chain").click();
    h.run();
    assert!(
        h.query_all_by_label_contains("chain holds")
            .next()
            .is_some()
    );
    assert_eq!(filter(&h), before);
}

/// Issue 46: the status after Undo and Redo says what the log says, once ("undone: undo: ..."
/// before).
#[test]
fn undo_says_undo_once() {
    let mut h = window(None);
    h.state_mut().state.handle(Command::NextPhase);
    h.state_mut().state.handle(Command::Undo);
    h.run();
    let status = h.state().state.status.as_ref().unwrap().text.clone();
    let logged = h.state().state.game.log().last().unwrap().summary.clone();
    assert!(status.starts_with("undo: "), "{status}");
    assert!(status.starts_with(&logged), "{status} / {logged}");
    assert!(h.query_by_label_contains("undone: undo").is_none());
    h.state_mut().state.handle(Command::Redo);
    h.run();
    let status = h.state().state.status.as_ref().unwrap().text.clone();
    assert!(status.starts_with("redo: "), "{status}");
    assert!(!status.contains("redone: redo"), "{status}");
}

/// Issue 46: a hex field's example is a hex of this game's board (the first unit's), not "0304",
/// which 1870's map has no cell for.
#[test]
fn the_hex_fields_example_is_this_games() {
    let mut h = demo(egui::vec2(1366.0, 1000.0));
    h.state_mut()
        .state
        .handle(Command::NewGame("fr1870-august".into()));
    let (id, first) = {
        let s = h.state().state.state();
        let first = s
            .units
            .iter()
            .find(|u| matches!(u.position, kepi::roster::Position::Hex { .. }))
            .expect("a unit on the map")
            .position
            .to_string();
        (s.units[0].unit.id.clone(), first)
    };
    assert_ne!(first, "0304");
    h.state_mut().state.handle(Command::Select(id));
    h.run();
    let field = h.get_by_role_and_label(Role::TextInput, "hex");
    assert_eq!(
        field.accesskit_node().data().placeholder(),
        Some(first.as_str()),
        "the example is the first unit's hex"
    );
}

/// Issue 46: a 1870 unit at sea with every other marker shows its "sea" chip whole in the
/// roster, however narrow the column (the row's room for its chips was a guess of 34 points a
/// chip, and the last one was cut at the column's edge).
#[test]
fn the_at_sea_chip_is_whole() {
    let tables = kepi::registry::builtin_tables().unwrap();
    let s = kepi::registry::builtin_scenario("fr1870-august").unwrap();
    let mut app = kepi::app::state::AppState::new_game(&s, 1, tables).unwrap();
    let id = app.state().units[0].unit.id.clone();
    for flag in ["moved", "fired", "disorganised", "must-retreat", "at-sea"] {
        app.handle(Command::Act(Action::SetFlag {
            unit: id.clone(),
            flag: flag.parse().unwrap(),
            on: true,
        }));
    }
    assert!(app.state().unit(&id).unwrap().has_mark("at-sea"));
    for width in [300.0, 330.0, 360.0, 420.0] {
        let mut h = Harness::builder()
            .with_size(egui::vec2(width, 500.0))
            .build_ui_state(
                move |ui, app: &mut kepi::app::state::AppState| {
                    let mut out = Vec::new();
                    // A left panel of this width, as the window's roster is.
                    egui::Panel::left("roster")
                        .resizable(false)
                        .exact_size(width - 20.0)
                        .show(ui, |ui| {
                            let (view, panels) = app.split();
                            out = panels.roster.ui(ui, &view);
                        });
                    for c in out {
                        app.handle(c);
                    }
                },
                app,
            );
        h.run();
        // The chip's text and, after it, its margin (5 points) and stroke: inside the column,
        // clear of the scroll bar drawn over the rows' right edge.
        let sea = h.get_by_label("sea").rect();
        assert!(
            sea.right() + 6.0 <= width - 20.0 - 8.0,
            "at {width}: the chip ends at {} of {width}",
            sea.right() + 6.0
        );
        app = std::mem::replace(h.state_mut(), kepi::app::state::AppState::demo(1).unwrap());
    }
}

/// Issue 46: the status bar reads a long summary whole at 1366x768 (wrapped on its two lines, a
/// breach at the end no longer cut), and its height, with the panels above it, does not change
/// with what it says.
#[test]
fn the_status_bar_reads_a_long_summary_whole_and_keeps_its_height() {
    let mut h = window(None);
    h.state_mut().state.set_status("ok", false);
    h.run();
    let short = h.get_by_label("ok").rect();
    let long = "ok 12: T3 French: fire phase: pk fire: 55e de ligne, 1er bataillon on 11. Brandenburg \
                Infanterie-Regiment Nr. 35: d10 7 + 2 = 9 => 3 casualties, the target tests morale; \
                umpire went ahead: 55e de ligne, 1er bataillon has already fired this turn";
    h.state_mut().state.set_status(long, false);
    h.run();
    let whole = h.get_by_label(long).rect();
    assert!(
        whole.height() > short.height(),
        "the summary wraps on a second line"
    );
    assert!(
        (whole.top() - short.top()).abs() < 1.0,
        "the bar keeps its place (its two lines are kept whatever it says): {short:?} then \
         {whole:?}"
    );
}
