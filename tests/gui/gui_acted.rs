//! Issue 46, wrong numbers in the window: after SPI's and 1870's attacks and PW's melees the
//! checklist counts who has acted and the roster's "still to act" filter leaves them out; a
//! 1870 retreat is offered only onto cells FR-C2 allows.

#![cfg(feature = "gui")]

use super::common::{FR1870_ATTACK, SPI_ATTACK, due_panel, map_panel, new_game};
use egui_kittest::kittest::Queryable;
use kepi::app::roster::{RosterView, Row, rows};
use kepi::app::state::{AppState, Command};

fn game(scenario: &str, words: &[&str]) -> AppState {
    let mut app = new_game(scenario, 3);
    let before = app.game.log().len();
    app.handle(Command::Words(
        words.iter().map(|w| w.to_string()).collect(),
    ));
    assert!(
        app.game.log().len() > before,
        "{scenario}: {words:?} not applied: {:?}",
        app.status
    );
    app
}

/// 1870: 1RC (2037) and 2RC (2139) attack Infantry 1 placed at 2138; DR, entered from the chart.
fn fr_attacked() -> AppState {
    game("fr1870-august", FR1870_ATTACK)
}

/// The ids the roster lists with "still to act" on.
fn still_to_act_rows(app: &AppState) -> Vec<String> {
    let view = RosterView {
        only_to_act: true,
        ..RosterView::default()
    };
    let s = app.game.state();
    rows(s, &view)
        .iter()
        .filter_map(|r| match r {
            Row::Unit { index, .. } => s.units.get(*index).map(|u| u.id().to_string()),
            _ => None,
        })
        .collect()
}

/// Issue 46: 1RC and 2RC have attacked: the checklist says "2 fired" and "1 still to act", and
/// the roster's filter lists 3RC alone, as the resolver's warning says they have attacked.
#[test]
fn fr1870_attackers_leave_the_still_to_act_roster() {
    let app = fr_attacked();
    assert_eq!(still_to_act_rows(&app), ["fr-3rc"]);
    let mut h = due_panel(app);
    assert!(
        h.query_by_label_contains("2 fired").is_some(),
        "the checklist counts the two attackers"
    );
    h.get_by_label("1 still to act this phase").click();
    h.run();
    assert!(h.state().panels.roster.options.only_to_act);
}

/// Issue 46: the same in SPI.
#[test]
fn spi_attackers_leave_the_still_to_act_roster() {
    let app = game("spi-1870", SPI_ATTACK);
    let left = still_to_act_rows(&app);
    assert!(!left.is_empty());
    for id in ["de-2-5-1", "de-2-5-2"] {
        assert!(!left.contains(&id.to_string()), "{id} in {left:?}");
    }
    let n = kepi::flow::activity(app.game.state()).to_act().len();
    assert_eq!(n, left.len());
    let h = due_panel(app);
    assert!(h.query_by_label_contains("2 fired").is_some());
    assert!(
        h.query_by_label(&format!("{n} still to act this phase"))
            .is_some()
    );
}

/// Issue 46: a PW melee counts both units in melee on the checklist.
#[test]
fn pw_melee_is_counted_on_the_checklist() {
    let app = game(
        "pw-skirmish",
        &[
            "move",
            "de-cav",
            "0303",
            "face",
            "de-cav",
            "s",
            "melee",
            "de-cav",
            "fr-inf-3",
            "--dice",
            "d6=3,d6=4",
        ],
    );
    let h = due_panel(app);
    assert!(
        h.query_by_label_contains("2 in melee").is_some(),
        "the checklist counts the melee"
    );
}

/// Issue 46, FR-C2 (E13): Infantry 1 must retreat from 2138; the map names the one cell it may
/// go to, 2237, and none next to 1RC (2037) or 2RC (2139).
#[test]
fn fr1870_map_offers_only_cells_the_enemy_does_not_control() {
    let mut app = fr_attacked();
    assert!(
        app.state()
            .unit("de-inf-1")
            .unwrap()
            .has_mark("must-retreat")
    );
    app.handle(Command::Select("de-inf-1".into()));
    let mut h = map_panel(app);
    h.run();
    h.run();
    // The cells are listed in the parentheses: 2237 alone.
    assert!(
        h.query_by_label_contains("drag it to a marked cell (2237)")
            .is_some(),
        "the map names 2237 alone"
    );
}
