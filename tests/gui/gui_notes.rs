//! Issue 26, nothing recorded is hidden: a note logged with a roll ("umpire went ahead: ... has
//! already fired this turn") shows on the result card and in the log panel, from the one
//! formatter (`kepi::game::entry_text`); a summary names its acting unit; and a second fire in
//! one turn is a note in GSP as in P&K, never a refusal. At 1366x768.

#![cfg(feature = "gui")]

use super::common::window;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use kepi::app::KepiApp;
use kepi::app::state::Command;
use kepi::game::{Action, EntryKind, entry_text};

/// Rolls `form` for `actor` against `target` twice with kepi's dice; returns the second entry's
/// notes.
fn fire_twice(h: &mut Harness<'_, KepiApp>, actor: &str, target: &str, form: &str) -> Vec<String> {
    for _ in 0..2 {
        h.state_mut().state.handle(Command::OpenForm {
            form: form.into(),
            actor: Some(actor.into()),
            target: Some(target.into()),
        });
        h.run();
        let before = h.state().state.game.log().len();
        h.state_mut().state.handle(Command::ResolveAndApply {
            entered: Vec::new(),
        });
        h.run();
        let app = &h.state().state;
        assert_eq!(app.game.log().len(), before + 1, "rolled: {:?}", app.status);
    }
    match h.state().state.game.log().last().map(|e| &e.kind) {
        Some(EntryKind::Act {
            action: Action::Resolved { resolution, .. },
        }) => resolution.notes.clone(),
        other => panic!("a resolution, got {other:?}"),
    }
}

fn note_shown_everywhere_in_the_window(h: &mut Harness<'_, KepiApp>, hex: bool) {
    let app = &h.state().state;
    let e = app.game.log().last().expect("an entry");
    let said = entry_text(e, app.game.state());
    let note = said
        .notes
        .iter()
        .find(|n| n.contains("already fired this turn"))
        .expect("the note")
        .clone();
    assert!(note.starts_with("umpire went ahead:"), "{note}");
    // The result card.
    assert!(
        h.query_by_label(&format!("note: {note}")).is_some(),
        "the result card shows {note:?}"
    );
    // The log panel (a tab beside the resolver in hex rule sets).
    if hex {
        h.state_mut().state.options.side_log = true;
        h.run();
    }
    assert!(
        h.query_all_by_label_contains(&format!("· note: {note}"))
            .next()
            .is_some(),
        "the log panel shows {note:?}"
    );
}

#[test]
fn pk_second_fire_is_noted_on_the_card_and_in_the_log() {
    let mut h = window(None);
    let notes = fire_twice(&mut h, "12th-grenadiers-1", "8e-ligne-1", "fire");
    assert!(
        notes.iter().any(|n| n.contains("already fired")),
        "{notes:?}"
    );
    note_shown_everywhere_in_the_window(&mut h, false);
}

/// GSP-A4 as in P&K: the umpire went ahead, the note is logged, the roll is made.
#[test]
fn gsp_second_fire_is_a_note_not_a_refusal() {
    let mut h = window(Some("st-privat"));
    let notes = fire_twice(&mut h, "gfar-heavy-1", "9e-ligne-1", "artillery");
    assert!(
        notes.iter().any(|n| n.contains("already fired")),
        "{notes:?}"
    );
    note_shown_everywhere_in_the_window(&mut h, false);
}

/// A summary that does not name its acting unit (a fatigue check's) gets its name.
#[test]
fn every_line_names_its_acting_unit() {
    let mut h = window(None);
    fire_twice(&mut h, "12th-grenadiers-1", "8e-ligne-1", "fire");
    let app = &h.state().state;
    let name = app
        .game
        .state()
        .unit("12th-grenadiers-1")
        .expect("unit")
        .unit
        .name
        .clone();
    for e in app.game.log() {
        if let EntryKind::Act {
            action: Action::Resolved { units, .. },
        } = &e.kind
            && units.first().map(String::as_str) == Some("12th-grenadiers-1")
        {
            let line = entry_text(e, app.game.state()).line;
            assert!(line.contains(&name), "{line}");
        }
    }
}
