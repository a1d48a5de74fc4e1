//! The "Due" section of the window, driven headless with egui_kittest: open checks with Open /
//! Resolve / Waive, and the phase checklist.

#![cfg(feature = "gui")]

use super::common::{due_of, due_panel};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable};
use kepi::app::state::{AppState, Command};
use kepi::game::{Action, Level};

fn app_with_a_rally_due() -> AppState {
    let mut app = AppState::demo(1).unwrap();
    app.handle(Command::Act(Action::SetLevel {
        unit: "55e-ligne-1".into(),
        level: Level::Shaken,
    }));
    assert_eq!(app.state().due.len(), 1);
    app
}

#[test]
fn due_and_checklist_start_as_one_line_with_a_count() {
    let mut h = Harness::new_ui_state(
        |ui, app: &mut AppState| {
            let (view, panels) = app.split();
            panels.due.ui(ui, &view);
        },
        app_with_a_rally_due(),
    );
    h.run();
    assert!(h.query_by_label("Due: 1 check").is_some());
    assert!(h.query_by_label_contains("Checklist: ").is_some());
    assert!(h.query_by_label("Waive").is_none(), "closed until asked");
}

#[test]
fn waive_button_logs_the_waiver() {
    let mut h = due_panel(app_with_a_rally_due());
    assert!(h.query_by_label_contains("PK-E1").is_some());
    assert!(
        h.query_by_label_contains("PK-F1").is_some(),
        "the part 1 checklist"
    );
    h.get_by_label("Waive").click();
    h.run();
    let app = h.state();
    assert!(app.state().due.is_empty());
    let last = app.game.log().last().unwrap();
    assert!(
        last.summary.starts_with("waived: PK-E1"),
        "{}",
        last.summary
    );
}

#[test]
fn open_button_prefills_the_resolver() {
    let mut h = due_panel(app_with_a_rally_due());
    h.get_by_label("Open rally").click();
    h.run();
    let app = h.state();
    assert_eq!(app.selected.as_deref(), Some("55e-ligne-1"));
    assert_eq!(app.resolver.form().map(|f| f.name()), Some("rally"));
}

#[test]
fn a_long_due_list_lays_out_only_the_rows_in_view() {
    // Fifty fatigue checks left open: the section says how many, draws a handful of rows (the
    // list scrolls; each frame lays out only what is in view) and those rows still work.
    let mut app = AppState::demo(1).unwrap();
    for _ in 0..50 {
        app.handle(Command::Act(Action::AddFatigue {
            unit: "55e-ligne-1".into(),
            n: 1,
        }));
        app.handle(Command::Act(Action::ResetFatigue {
            unit: "55e-ligne-1".into(),
        }));
    }
    assert_eq!(app.state().due.len(), 50);
    let mut h = due_panel(app);
    assert!(h.query_by_label_contains("Due: 50 checks").is_some());
    let shown = h.query_all_by_label("Mark done").count();
    assert!((1..=8).contains(&shown), "{shown} rows laid out");
    h.query_all_by_label("Mark done").next().unwrap().click();
    h.run();
    assert_eq!(h.state().state().due.len(), 49);
    assert!(h.query_by_label_contains("Due: 49 checks").is_some());
}

#[test]
fn rolling_one_of_two_fatigue_checks_answers_that_one_only() {
    // Issue 15: after a melee both units had a fatigue check due; rolling the first removed both,
    // with no roll or log entry for the second. Here the second unit is also the picked target.
    let mut app = AppState::demo(1).unwrap();
    for unit in ["55e-ligne-1", "12th-grenadiers-1"] {
        app.handle(Command::Act(Action::AddFatigue {
            unit: unit.into(),
            n: 2,
        }));
    }
    app.handle(Command::Target("12th-grenadiers-1".into()));
    assert_eq!(app.state().due.len(), 2);
    let log_len = app.game.log().len();
    let mut h = due_panel(app);
    let second_before = h.query_all_by_label("Roll fatigue").nth(1).unwrap().rect();
    h.query_all_by_label("Roll fatigue").next().unwrap().click();
    h.run();
    // Issue 26: while the pointer is over the list, the row done stays in its place (marked
    // done, its buttons off), so the next row's button does not slide under the pointer.
    assert!(
        h.query_by_label_contains("done: ").is_some(),
        "kept, marked done"
    );
    let buttons: Vec<_> = h.query_all_by_label("Roll fatigue").collect();
    assert_eq!(buttons.len(), 2);
    assert!(
        buttons[0].accesskit_node().is_disabled(),
        "the done row's is off"
    );
    assert_eq!(
        buttons[1].rect(),
        second_before,
        "the next row did not move"
    );
    drop(buttons);
    let app = h.state();
    let left: Vec<_> = app.state().due.iter().map(|d| d.unit.clone()).collect();
    assert_eq!(left, vec![Some("12th-grenadiers-1".to_string())]);
    assert_eq!(app.game.log().len(), log_len + 1, "one roll logged");
    let last = app.game.log().last().unwrap();
    assert!(!last.dice.is_empty(), "with its die: {}", last.summary);
    assert!(last.rules.iter().any(|r| r == "PK-X5"), "{:?}", last.rules);
    // The second is still there to roll, and rolling it empties the list.
    h.query_all_by_label("Roll fatigue").nth(1).unwrap().click();
    h.run();
    assert!(h.state().state().due.is_empty());
    // Once the pointer leaves the list, the rows done go.
    h.hover_at(egui::pos2(5.0, 590.0));
    h.run();
    h.run();
    assert!(h.query_by_label("Roll fatigue").is_none());
    assert!(h.query_by_label_contains("done: ").is_none());
}

#[test]
fn roll_in_own_dice_mode_opens_the_form_without_rolling() {
    let mut app = app_with_a_rally_due();
    app.options.own_dice = true;
    let log_len = app.game.log().len();
    let mut h = due_panel(app);
    h.get_by_label("Roll rally").click();
    h.run();
    let app = h.state();
    assert_eq!(app.game.log().len(), log_len, "nothing rolled");
    assert_eq!(app.resolver.form().map(|f| f.name()), Some("rally"));
    assert_eq!(app.selected.as_deref(), Some("55e-ligne-1"));
}

#[test]
fn still_to_act_is_a_link_to_the_roster_filter() {
    let mut h = due_panel(app_with_a_rally_due());
    assert!(!h.state().panels.roster.options.only_to_act);
    h.get_by_label_contains("still to act this phase").click();
    h.run();
    assert!(
        h.state().panels.roster.options.only_to_act,
        "the roster lists only them"
    );
}

/// Issue 26, panels own their state: the Due panel drawn alone, from a `View` of a game (no
/// window state): the reason typed is the panel's, and Waive answers a command carrying it,
/// changing nothing itself.
#[test]
fn the_due_panel_is_drawn_alone_and_keeps_what_is_typed_in_it() {
    use kepi::app::due::DuePanel;
    use kepi::app::state::{Mode, Settings, View};
    let app = app_with_a_rally_due();
    let game = app.game.clone();
    let tables = app.tables;
    let mode = Mode::Local;
    let settings = Settings::default();
    let mut h = Harness::new_ui_state(
        move |ui, (panel, sent): &mut (DuePanel, Vec<Command>)| {
            let view = View::bare(&game, tables, &mode, &settings);
            sent.extend(panel.ui(ui, &view));
        },
        (DuePanel::default(), Vec::new()),
    );
    h.run();
    h.get_by_label_contains("Due: ").click();
    h.run();
    let field = egui::accesskit::Role::TextInput;
    h.get_by_role_and_label(field, "Waive reason:").focus();
    h.run();
    h.get_by_role_and_label(field, "Waive reason:")
        .type_text("made at the table");
    h.run();
    assert_eq!(h.state().0.waive_reason(), "made at the table");
    h.get_by_label("Waive").click();
    h.run();
    let waived: Vec<&Command> = h
        .state()
        .1
        .iter()
        .filter(|c| matches!(c, Command::Act(Action::WaiveDue { .. })))
        .collect();
    assert_eq!(waived.len(), 1, "one click, one command");
    assert!(
        matches!(waived[0], Command::Act(Action::WaiveDue { reason, .. }) if reason == "made at the table")
    );
}

/// Issue 26, no scroll box inside the resolver's column: many open checks are paged four at a
/// time, the pager under the list, and each page's checks are the game's in order.
#[test]
fn many_due_checks_are_paged_not_scrolled() {
    let mut app = AppState::demo(1).unwrap();
    let ids: Vec<String> = app
        .state()
        .units
        .iter()
        .take(10)
        .map(|u| u.id().to_string())
        .collect();
    for id in &ids {
        app.handle(Command::Act(Action::SetLevel {
            unit: id.clone(),
            level: Level::Shaken,
        }));
    }
    let due = app.state().due.len();
    assert!(due >= 9, "{due} checks open");
    let mut h = due_panel(app);
    assert!(h.query_by_label(&format!("1-4 of {due}")).is_some());
    assert_eq!(h.query_all_by_label("Waive").count(), 4, "one page");
    assert!(
        h.get_by_label("< earlier").accesskit_node().is_disabled(),
        "the first page"
    );
    h.get_by_label("later >").click();
    h.run();
    assert!(h.query_by_label(&format!("5-8 of {due}")).is_some());
    let fifth = h.state().state().due.iter().nth(4).map(|d| d.id).unwrap();
    assert!(h.query_by_label(&format!("#{fifth}")).is_some());
    h.get_by_label("< earlier").click();
    h.run();
    assert!(h.query_by_label(&format!("1-4 of {due}")).is_some());
}

/// Issue 46: a check's words are read whole in a narrow column (wrapped on the row's two lines,
/// never elided), and its buttons stand where they stood before it was read whole.
#[test]
fn a_due_check_is_read_whole_in_a_narrow_column() {
    let app = app_with_a_rally_due();
    let whole = {
        let s = app.state();
        s.due.iter().next().unwrap().describe_now(s)
    };
    let mut h = due_of(app, (300.0, 700.0));
    h.run();
    h.get_by_label_contains("Due: ").click();
    h.run();
    assert!(
        whole.len() > 60,
        "a check longer than a 300-point column holds on one line: {whole:?}"
    );
    // Found by its whole text: not elided.
    let shown = h.get_by_label(&whole);
    let waive = h.get_by_label("Waive").rect();
    assert!(
        waive.top() >= shown.rect().bottom(),
        "the buttons are under the words"
    );
}
