//! The window's dice tray, driven headless with egui_kittest (DICE-1, DICE-2).
#![cfg(feature = "gui")]

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use kepi::app::dice_tray::DiceTray;
use kepi::dice::RollSource;

#[test]
fn clicking_d10_adds_a_roll_to_the_history() {
    let mut harness =
        Harness::new_ui_state(|ui, tray: &mut DiceTray| tray.ui(ui), DiceTray::new(7));
    harness.get_by_label("d10").click();
    harness.run();
    let tray = harness.state();
    assert_eq!(tray.history.len(), 1);
    let e = &tray.history[0];
    assert_eq!(e.expr, "d10");
    assert!((1..=10).contains(&e.total));
    // The history line is on screen, with the value.
    let line = format!("d10: [{}] = {}", e.dice[0], e.total);
    assert!(
        harness.query_by_label_contains(&line).is_some(),
        "history shows {line}"
    );
}

#[test]
fn own_dice_mode_checks_the_range() {
    let mut tray = DiceTray::new(1);
    tray.own_dice = true;
    tray.entered_text = "11".into();
    let mut harness = Harness::new_ui_state(|ui, tray: &mut DiceTray| tray.ui(ui), tray);
    harness.get_by_label("d10").click();
    harness.run();
    assert!(harness.state().history.is_empty());
    assert_eq!(
        harness.state().error.as_deref(),
        Some("d10 takes 1-10, got 11")
    );
    harness.get_by_label("2d6").click();
    harness.state_mut().entered_text = "3 5".into();
    harness.run();
    harness.get_by_label("2d6").click();
    harness.run();
    let tray = harness.state();
    let last = tray.history.last().expect("a roll");
    assert_eq!(
        (last.dice.clone(), last.total, last.source),
        (vec![3, 5], 8, RollSource::Entered)
    );
}
