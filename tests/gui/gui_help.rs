//! Issue 26, Help: the Help menu's pages (keyboard shortcuts, quick start, rule glossary with its
//! filter), the one shortcut table the key handling acts on, and Ctrl+Z in a text field.

#![cfg(feature = "gui")]

use super::common::window;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use kepi::app::KepiApp;
use kepi::app::keys::{self, Does, SHORTCUTS};
use kepi::app::state::{AppState, Command};
use kepi::game::Action;

fn open_page(h: &mut Harness<'_, KepiApp>, title: &str) {
    h.get_by_label("Help").click();
    h.run();
    h.get_by_label(title).click();
    h.run();
}

#[test]
fn help_pages_open_and_the_glossary_filters() {
    let mut h = window(None);
    open_page(&mut h, "Keyboard shortcuts");
    for s in SHORTCUTS {
        assert!(
            h.query_by_label(s.what).is_some(),
            "the shortcuts page lists {}",
            s.keys
        );
    }
    assert!(h.query_by_label(keys::PLAIN_KEYS_NOTE).is_some());

    // The other pages, from the window's tabs.
    h.get_all_by_label("Quick start")
        .last()
        .expect("tab")
        .click();
    h.run();
    assert!(h.query_by_label("For the umpire").is_some());
    assert!(h.query_by_label("For a player").is_some());

    h.get_all_by_label("Rule glossary")
        .last()
        .expect("tab")
        .click();
    h.run();
    assert!(
        h.query_by_label("PK-F1").is_some(),
        "all ids before a filter"
    );
    assert!(h.query_by_label("FR-L1").is_some());
    h.get_by_role_and_label(Role::TextInput, "Filter:").click();
    h.run();
    h.get_by_role_and_label(Role::TextInput, "Filter:")
        .type_text("enfilade");
    h.run();
    assert!(h.query_by_label("PK-F3").is_some());
    assert!(h.query_by_label("Enfilade").is_some());
    assert!(h.query_by_label("Pickelhaube & Kepi (seed 002)").is_some());
    assert!(h.query_by_label("PK-F1").is_none(), "filtered out");
    assert_eq!(h.state().state.panels.top_bar.help.filter, "enfilade");
    // Typing the filter changed nothing in the game (no N or R taken from it).
    assert_eq!(h.state().state.game.log().len(), 1);

    // The window closes with its cross and opens again on the page asked for.
    h.state_mut().state.panels.top_bar.help.open = None;
    h.run();
    assert!(h.query_by_label("For the umpire").is_none());
    open_page(&mut h, "Quick start");
    assert!(h.query_by_label("For the umpire").is_some());
}

/// What a command is, as the shortcut table says it.
fn does(c: &Command) -> Option<Does> {
    match c {
        Command::Save => Some(Does::Save),
        Command::Undo => Some(Does::Undo),
        Command::Redo => Some(Does::Redo),
        Command::NextPhase => Some(Does::NextPhase),
        Command::ResolveAndApply { .. } => Some(Does::Roll),
        _ => None,
    }
}

struct Probe {
    app: AppState,
    out: Vec<Command>,
}

#[test]
fn every_key_the_handler_acts_on_is_in_the_table() {
    let probe = Probe {
        app: AppState::demo(7).expect("demo"),
        out: Vec::new(),
    };
    let mut h = Harness::builder()
        .with_size(egui::vec2(200.0, 100.0))
        .build_ui_state(
            |ui, p: &mut Probe| {
                let typing = ui.ctx().egui_wants_keyboard_input();
                let view = p.app.view();
                keys::modified(ui.ctx(), &view, &p.app.resolver, typing, &mut p.out);
                keys::playing(ui.ctx(), &view, &p.app.resolver, false, &mut p.out);
            },
            probe,
        );
    let mods = [
        egui::Modifiers::NONE,
        egui::Modifiers::COMMAND,
        egui::Modifiers::SHIFT,
        egui::Modifiers::ALT,
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
    ];
    let mut acted = Vec::new();
    for key in egui::Key::ALL {
        for m in mods {
            h.state_mut().out.clear();
            h.key_press_modifiers(m, *key);
            h.step();
            for c in std::mem::take(&mut h.state_mut().out) {
                let d = does(&c).unwrap_or_else(|| panic!("{key:?} {m:?} gave {c:?}"));
                let listed = SHORTCUTS
                    .iter()
                    .any(|s| s.global && s.key == *key && s.mods.egui() == m && s.does == d);
                assert!(listed, "{key:?} with {m:?} does {d:?}, not in SHORTCUTS");
                acted.push(d);
            }
        }
    }
    // And every global entry of the table is acted on.
    for s in SHORTCUTS.iter().filter(|s| s.global) {
        assert!(
            acted.contains(&s.does),
            "{} is listed but does nothing",
            s.keys
        );
    }
}

#[test]
fn buttons_name_their_shortcut_from_the_table() {
    let mut h = window(None);
    h.state_mut()
        .state
        .handle(Command::Act(Action::Note { text: "x".into() }));
    h.state_mut()
        .state
        .handle(Command::Select("12th-grenadiers-1".into()));
    h.state_mut()
        .state
        .handle(Command::Target("8e-ligne-1".into()));
    h.run();
    for (button, d) in [
        ("Next phase >", Does::NextPhase),
        ("Undo", Does::Undo),
        ("Roll and apply", Does::Roll),
    ] {
        h.get_by_label(button).hover();
        for _ in 0..30 {
            h.step();
        }
        let tip = keys::tip(d, "");
        assert!(
            h.query_all_by_label_contains(tip.trim_end())
                .next()
                .is_some(),
            "hovering {button} shows {:?}",
            keys::keys_for(d)
        );
    }
}

#[test]
fn ctrl_z_in_a_text_field_edits_the_field_not_the_game() {
    let mut h = window(None);
    h.state_mut()
        .state
        .handle(Command::Act(Action::Note { text: "x".into() }));
    h.run();
    let log = h.state().state.game.log().len();
    h.get_all_by_role(Role::TextInput)
        .next()
        .expect("a field")
        .click();
    h.run();
    h.get_all_by_role(Role::TextInput)
        .next()
        .expect("a field")
        .type_text("abc");
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(
        h.state().state.game.log().len(),
        log,
        "Ctrl+Z in a field did not undo the game"
    );
    // Outside a field it does.
    h.key_press(egui::Key::Escape);
    h.run();
    assert!(!h.ctx.egui_wants_keyboard_input(), "the field let go");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(h.state().state.game.log().len(), log + 1, "undone");
}

/// Help open is reading, not playing: Ctrl+Shift+N and Ctrl+R change nothing while it is open,
/// and act again once it is closed.
#[test]
fn playing_keys_keep_still_while_help_is_open() {
    let mut h = window(None);
    open_page(&mut h, "Keyboard shortcuts");
    let log = h.state().state.game.log().len();
    h.hover_at(egui::pos2(700.0, 5.0));
    let next = egui::Modifiers::COMMAND | egui::Modifiers::SHIFT;
    for (m, k) in [
        (next, egui::Key::N),
        (egui::Modifiers::COMMAND, egui::Key::R),
    ] {
        h.key_press_modifiers(m, k);
        h.run();
    }
    assert_eq!(h.state().state.game.log().len(), log, "nothing changed");
    h.state_mut().state.panels.top_bar.help.open = None;
    h.run();
    h.key_press_modifiers(next, egui::Key::N);
    h.run();
    assert_eq!(
        h.state().state.game.log().len(),
        log + 1,
        "Ctrl+Shift+N acts again"
    );
}

/// Issue 46: Help's close button moved as the window widened with its page. The window keeps its
/// place and width on every page.
#[test]
fn helps_window_keeps_its_width_on_every_page() {
    use kepi::app::help::Page;
    let mut h = window(None);
    open_page(&mut h, "Keyboard shortcuts");
    let rect = |h: &Harness<'_, KepiApp>| {
        h.ctx
            .memory(|m| m.area_rect(egui::Id::unique("kepi_help")))
            .expect("Help's window")
    };
    let first = rect(&h);
    for p in Page::ALL {
        h.state_mut().state.panels.top_bar.help.open = Some(p);
        h.run();
        h.run();
        let now = rect(&h);
        assert_eq!(
            (now.left(), now.right()),
            (first.left(), first.right()),
            "{} moved Help's edges",
            p.title()
        );
    }
}
