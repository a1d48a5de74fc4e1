//! Graveyard St. Privat artillery in the window, driven headless with egui_kittest: a battery fires
//! at a unit from the resolver, the target loses what landed on it, the Drift tab lights the sectors
//! where the shells fell (GSP-A1, GSP-A3, GSP-A4), and undo puts it all back.

#![cfg(feature = "gui")]

use super::common::{last_resolution, new_game, resolver};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use kepi::app::drift::drift_ui;
use kepi::app::state::{AppState, Command};

const BATTERY: &str = "gfar-heavy-1";
const TARGET: &str = "9e-ligne-1";

fn harness(seed: u64) -> Harness<'static, AppState> {
    let mut app = new_game("st-privat", seed);
    app.handle(Command::Select(BATTERY.into()));
    app.handle(Command::Target(TARGET.into()));
    Harness::builder()
        .with_size(egui::vec2(1400.0, 2600.0))
        .build_ui_state(
            |ui, app: &mut AppState| {
                let mut out = Vec::new();
                let (view, resolver) = app.split_resolver();
                out.extend(resolver.ui(ui, &view));
                out.extend(resolver.foot_ui(ui, &view));
                ui.separator();
                drift_ui(ui, &view, resolver.form());
                for c in out {
                    app.handle(c);
                }
            },
            app,
        )
}

/// Shells shown as landed on the drift diagram, summed over its cells.
fn landed_on_screen(h: &Harness<'_, AppState>) -> u32 {
    h.query_all_by_label_contains("landed")
        .filter_map(|n| n.value())
        .filter_map(|v| {
            let tail = v.rsplit("; ").next()?.to_string();
            tail.split_whitespace().next()?.parse::<u32>().ok()
        })
        .sum()
}

#[test]
fn a_battery_fires_shells_drift_and_undo_restores() {
    let mut h = harness(11);
    h.run();
    // Before any fire: the nine sectors with their chances, nothing landed, the reading stated.
    assert!(h.query_by_label_contains("on target: 4/9").is_some());
    assert!(h.query_by_label_contains("over-left: 1/36").is_some());
    assert!(
        h.query_by_label_contains("Top row over: beyond the target")
            .is_some()
    );
    assert_eq!(landed_on_screen(&h), 0);
    let log_before = h.state().game.log().len();

    h.get_by_label("Roll and apply").click();
    h.run();

    let app = h.state();
    assert_eq!(app.game.log().len(), log_before + 1, "{:?}", app.status);
    let resolution = last_resolution(app);
    let o = resolution.outcome.as_ref().expect("an outcome");
    let hits = o["hits"].as_u64().expect("hits") as u32;
    assert!(
        hits > 0,
        "seed 11 hits at least once: {}",
        resolution.summary
    );
    // GSP-A4: the battery has fired.
    assert!(app.state().unit(BATTERY).expect("battery").fired);
    // The target lost exactly the casualties of the shells that landed on it.
    let on_target: u64 = o["cells"]
        .as_array()
        .expect("cells")
        .iter()
        .filter(|c| c["cell"] == "on-target")
        .filter_map(|c| c["casualties"].as_object())
        .map(|c| {
            ["infantry", "cavalry", "cannoneers", "horses"]
                .iter()
                .map(|k| c[*k].as_u64().unwrap_or(0))
                .sum::<u64>()
        })
        .sum();
    let strength = app.state().unit(TARGET).expect("target").strength;
    assert_eq!(u64::from(14 - strength), on_target);
    // Every hit drifted somewhere, and the diagram shows each of them.
    assert_eq!(landed_on_screen(&h), hits);
    assert!(h.query_by_label_contains("Last fire:").is_some());

    // Undo from the result box: the target, the battery and the diagram are as before.
    h.get_by_label("Undo this").click();
    h.run();
    let app = h.state();
    assert_eq!(app.state().unit(TARGET).expect("target").strength, 14);
    assert!(!app.state().unit(BATTERY).expect("battery").fired);
    assert_eq!(landed_on_screen(&h), 0);
    assert!(h.query_by_label_contains("No shell fired yet").is_some());
}

#[test]
fn a_limbered_battery_cannot_roll() {
    let mut app = new_game("st-privat", 3);
    app.handle(Command::Select("6e-corps-batterie-reserve".into()));
    app.handle(Command::Target("1st-foot-guards-1".into()));
    let mut h = resolver(app, egui::vec2(1400.0, 2600.0));
    h.run();
    // GSP-A4: the refusal is shown and the roll button does nothing.
    assert!(
        h.query_by_label_contains("limbered battery cannot fire")
            .is_some()
    );
    let before = h.state().game.log().len();
    h.get_by_label("Roll and apply").click();
    h.run();
    assert_eq!(h.state().game.log().len(), before);
}
