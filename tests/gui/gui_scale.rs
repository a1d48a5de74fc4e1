//! Issue 28, measured play at the club's scale, in the window: the umpire sets the scale from the
//! status line's Scale menu (logged); "a P&K game at 1/2 scale in centimetres prints every distance in cm at half
//! value, and a typed range of 30 cm falls in the band the text gives for 30 cm at that scale".
//! At 1366x768.

use super::common::{app, new_game, resolver, window};

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use kepi::app::KepiApp;
use kepi::app::state::Command;
use kepi::dice::Ratio;
use kepi::game::{Action, EntryKind, Flag};
use kepi::rules::Scale;

const BATTERY: &str = "2e-corps-batterie-4";
const TARGET: &str = "12th-grenadiers-1";

/// Replaces what the field labelled `label` holds with `text`.
fn type_into<S>(h: &mut Harness<'_, S>, label: &str, text: &str) {
    h.get_by_role_and_label(Role::TextInput, label)
        .scroll_to_me();
    h.run();
    h.get_by_role_and_label(Role::TextInput, label).click();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run();
    h.get_by_role_and_label(Role::TextInput, label)
        .type_text(text);
    h.run();
}

fn modifier_labels<S>(h: &Harness<'_, S>) -> Vec<String> {
    h.query_all_by_role(Role::Label)
        .filter_map(|n| n.value())
        .collect()
}

#[test]
fn pk_at_half_scale_in_cm_from_the_scale_menu() {
    let mut h = window(None);
    // The Scale menu: centimetres, factor 1/2, set (logged).
    h.get_by_label("Scale: in").click();
    h.run();
    h.get_by_label("cm").click();
    h.run();
    type_into(&mut h, "factor", "1/2");
    assert!(
        h.query_by_label_contains("12 inches of the text = 15.24cm on the table")
            .is_some()
    );
    let before = app(&mut h).game.log().len();
    h.get_by_label("Set scale (logged)").click();
    h.run();
    let half = Scale::new(kepi::rules::scale::Unit::Cm, Ratio::new(1, 2)).unwrap();
    assert_eq!(app(&mut h).game.state().scale, half);
    assert_eq!(app(&mut h).game.log().len(), before + 1, "logged");
    assert!(matches!(
        app(&mut h).game.log().last().map(|e| &e.kind),
        Some(EntryKind::Act {
            action: Action::Scale { .. }
        })
    ));
    assert!(h.query_by_label("Scale: cm 1/2").is_some());

    // The battery fires at 30 cm: 23.62" of the text, the MLR's medium band; the band's edges
    // print in cm at half value.
    app(&mut h).handle(Command::Act(Action::SetFlag {
        unit: BATTERY.into(),
        flag: Flag::Limbered.into(),
        on: false,
    }));
    app(&mut h).handle(Command::OpenForm {
        form: "artillery".into(),
        actor: Some(BATTERY.into()),
        target: Some(TARGET.into()),
    });
    h.run();
    type_into(&mut h, "range (cm)", "30");
    let labels = modifier_labels(&h);
    assert!(
        labels
            .iter()
            .any(|l| l == "mlr medium range (over 19.05cm, up to 45.72cm)"),
        "{labels:?}"
    );
    assert!(labels.iter().any(|l| l == "30cm"), "{labels:?}");
    assert!(
        !labels.iter().any(|l| l.contains('"')),
        "an inch left in the window: {labels:?}"
    );
    // On the short band's edge (15" of the text = 19.05 cm): short.
    type_into(&mut h, "range (cm)", "19.05");
    assert!(
        h.query_by_label("mlr short range (up to 19.05cm)")
            .is_some()
    );
    type_into(&mut h, "range (cm)", "30");
    h.get_by_label("Roll and apply").click();
    h.run();
    let Some(EntryKind::Act {
        action: Action::Resolved { input, .. },
    }) = app(&mut h).game.log().last().map(|e| e.kind.clone())
    else {
        panic!("a resolution")
    };
    let input = serde_json::to_string(&input).unwrap();
    assert!(input.contains("\"3000/127\""), "{input}");
    // The result card prints at the scale too; undo takes the roll back, then the scale.
    assert!(h.query_by_label_contains("Result:").is_some());
    app(&mut h).handle(Command::Undo);
    app(&mut h).handle(Command::Undo);
    app(&mut h).handle(Command::Undo);
    h.run();
    assert!(app(&mut h).game.state().scale.is_text());
    assert!(h.query_by_label("Scale: in").is_some());
}

/// GSP-A1 at cm 1/2: a measured 30 cm is 23.62" of the text, sector 2 of 12" sectors (15.24 cm
/// on the table).
#[test]
fn gsp_measured_range_at_a_scale() {
    let mut app = new_game("st-privat", 5);
    app.handle(Command::Act(Action::Scale {
        scale: "cm 1/2".parse().unwrap(),
    }));
    app.handle(Command::Select("gfar-heavy-1".into()));
    app.handle(Command::Target("9e-ligne-1".into()));
    let mut h = resolver(app, egui::vec2(1366.0, 1600.0));
    h.run();
    h.get_by_label("measured range").click();
    h.run();
    type_into(&mut h, "range (cm)", "30");
    assert!(
        h.query_by_label_contains("range 30cm / sector 15.24cm -> range sector")
            .is_some(),
        "{:?}",
        modifier_labels(&h)
    );
}

/// Issue 46: "Scale: in" moved with the text beside it. The scale menu keeps its place whatever
/// the status line's corner says: before the first action, once the game is kept, with a long
/// status text.
#[test]
fn the_scale_menu_never_moves_under_the_pointer() {
    let mut h = window(None);
    let at = |h: &Harness<'_, KepiApp>| {
        h.query_all_by_label_contains("Scale:")
            .next()
            .expect("the scale menu")
            .rect()
    };
    let first = at(&h);
    app(&mut h).handle(Command::Act(Action::Note {
        text: "a note, so the game has an action".into(),
    }));
    h.run();
    assert_eq!(at(&h), first, "after the first action");
    app(&mut h).handle(Command::Act(Action::Note {
        text: "x".repeat(300),
    }));
    h.run();
    assert_eq!(at(&h), first, "with a long status");
}
