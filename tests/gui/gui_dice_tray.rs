//! The window's dice tray, driven headless with egui_kittest (DICE-1, DICE-2): a tray roll is a roll
//! of the game (seeded, logged, undoable), and the tray's list is read from the game's log.
#![cfg(feature = "gui")]

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use kepi::app::dice_tray::tray_rolls;
use kepi::app::state::{AppState, Command};
use kepi::dice::RollSource;
use kepi::game::{Action, EntryKind};

fn harness(app: AppState) -> Harness<'static, AppState> {
    Harness::new_ui_state(
        |ui, app: &mut AppState| {
            let mut out = Vec::new();
            let AppState {
                panels,
                game,
                options,
                ..
            } = app;
            panels.tray.ui(ui, game, &mut options.own_dice, &mut out);
            for c in out {
                app.handle(c);
            }
        },
        app,
    )
}

#[test]
fn clicking_d10_logs_a_seeded_roll_of_the_game() {
    let app = AppState::demo(7).unwrap();
    let draws = app.state().dice.draws;
    let log_len = app.game.log().len();
    let mut h = harness(app);
    h.get_by_label("d10").click();
    h.run();
    let app = h.state();
    assert_eq!(app.game.log().len(), log_len + 1, "the roll is in the log");
    let EntryKind::Act {
        action: Action::Roll { expr, total, .. },
    } = &app.game.log().last().unwrap().kind
    else {
        panic!("a roll entry")
    };
    assert_eq!(expr.to_string(), "d10");
    assert!((1..=10).contains(total));
    assert!(
        app.state().dice.draws > draws,
        "kepi's one dice stream moved"
    );
    // The list shows it, read from the log.
    let rolls = tray_rolls(&app.game, 10);
    assert_eq!(rolls.len(), 1);
    let line = format!("d10: [{}] = {}", rolls[0].dice[0], rolls[0].total);
    assert!(
        h.query_by_label_contains(&line).is_some(),
        "history shows {line}"
    );
    // Undo takes the roll away like any action (the entry stays, the state goes back).
    h.state_mut().handle(Command::Undo);
    assert!(h.state().game.can_redo());
}

#[test]
fn own_dice_are_checked_logged_as_entered_and_leave_kepis_dice_alone() {
    let mut app = AppState::demo(1).unwrap();
    app.options.own_dice = true;
    app.panels.tray.entered_text = "11".into();
    let draws = app.state().dice.draws;
    let log_len = app.game.log().len();
    let mut h = harness(app);
    h.get_by_label("d10").click();
    h.run();
    assert_eq!(h.state().game.log().len(), log_len, "nothing logged");
    assert_eq!(
        h.state().panels.tray.error.as_deref(),
        Some("d10 takes 1-10, got 11")
    );
    h.state_mut().panels.tray.entered_text = "3 5".into();
    h.run();
    h.get_by_label("2d6").click();
    h.run();
    let app = h.state();
    let last = &tray_rolls(&app.game, 1)[0];
    assert_eq!(
        (last.dice.clone(), last.total, last.source),
        (vec![3, 5], 8, RollSource::Entered)
    );
    assert_eq!(app.state().dice.draws, draws, "entered dice draw nothing");
    assert!(
        app.panels.tray.entered_text.is_empty(),
        "the field is cleared"
    );
    // The resolver's own-dice setting is the same one.
    assert!(app.options.own_dice);
}

#[test]
fn too_few_entered_values_are_refused() {
    let mut app = AppState::demo(1).unwrap();
    app.options.own_dice = true;
    app.panels.tray.entered_text = "4".into();
    let log_len = app.game.log().len();
    let mut h = harness(app);
    h.get_by_label("2d6").click();
    h.run();
    assert_eq!(h.state().game.log().len(), log_len);
    assert_eq!(
        h.state().panels.tray.error.as_deref(),
        Some("2d6 needs 2 value(s), got 1")
    );
}
