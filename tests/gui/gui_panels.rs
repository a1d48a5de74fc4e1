//! Issue 26, panels own their state: the top bar, the resolver, the unit editor and the export
//! dialog drawn alone from a bare `View` of a game (no window state). Each answers with commands
//! and changes nothing itself.
#![cfg(feature = "gui")]

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use kepi::app::resolver::ResolverState;
use kepi::app::state::{AppState, Command, Mode, Settings, View};
use kepi::app::top_bar::TopBar;

/// A unit of the demo battle, and an enemy unit for it to fire at.
const FIRER: &str = "12th-grenadiers-1";
const TARGET: &str = "8e-ligne-1";

#[test]
fn the_top_bar_is_drawn_alone_and_asks_for_what_it_would_change() {
    let app = AppState::demo(1).expect("demo");
    let game = app.game.clone();
    let log = game.log().len();
    let tables = app.tables;
    let mode = Mode::Local;
    let settings = Settings::default();
    let mut h = Harness::builder()
        .with_size(egui::vec2(1366.0, 60.0))
        .build_ui_state(
            move |ui, (bar, sent, len): &mut (TopBar, Vec<Command>, usize)| {
                let view = View::bare(&game, tables, &mode, &settings);
                sent.extend(bar.ui(ui, &view));
                *len = view.game.log().len();
            },
            (TopBar::default(), Vec::new(), 0),
        );
    h.run();
    h.get_by_label("Next phase >").click();
    h.run();
    h.get_by_label("mine").click();
    h.run();
    let (_, sent, len) = h.state();
    assert!(matches!(sent.first(), Some(Command::NextPhase)), "{sent:?}");
    assert!(
        sent.iter().any(|c| matches!(c, Command::SetOwnDice(true))),
        "{sent:?}"
    );
    assert_eq!(*len, log, "the bar changed nothing in the game");
}

#[test]
fn the_resolver_is_drawn_alone_and_rolls_by_asking() {
    let mut app = AppState::demo(1).expect("demo");
    app.handle(Command::Select(FIRER.into()));
    app.handle(Command::Target(TARGET.into()));
    let game = app.game.clone();
    let tables = app.tables;
    let resolver: ResolverState = app.resolver.clone();
    let mode = Mode::Local;
    let settings = Settings::default();
    let mut h = Harness::builder()
        .with_size(egui::vec2(900.0, 1600.0))
        .build_ui_state(
            move |ui, (panel, sent): &mut (ResolverState, Vec<Command>)| {
                let view = View::bare(&game, tables, &mode, &settings);
                sent.extend(panel.ui(ui, &view));
                ui.separator();
                sent.extend(panel.foot_ui(ui, &view));
            },
            (resolver, Vec::new()),
        );
    h.run();
    assert!(h.query_by_label_contains("Exact odds").is_some());
    h.get_by_label("Roll and apply").click();
    h.run();
    let (panel, sent) = h.state();
    assert!(
        matches!(sent.as_slice(), [Command::ResolveAndApply { entered }] if entered.is_empty()),
        "{sent:?}"
    );
    assert!(
        panel.last_rolled.is_none(),
        "nothing was rolled by the panel itself"
    );
}

/// The Host dialog is drawn alone from a bare `View`: without a save it says to save first; with
/// one it names it, keeps the address choice typed into it, and "Start hosting" is asked of the
/// window (nothing starts in the dialog itself).
#[test]
fn the_host_dialog_is_drawn_alone_and_asks_to_start() {
    use kepi::app::net_ui::{BindChoice, NetAction, NetUi};
    let app = AppState::demo(1).expect("demo");
    let game = app.game.clone();
    let tables = app.tables;
    let mode = Mode::Local;
    let settings = Settings::default();
    let save = std::path::PathBuf::from("club-night.json");
    let mut h = Harness::builder()
        .with_size(egui::vec2(700.0, 500.0))
        .build_ui_state(
            move |ui, (net, asked, saved): &mut (NetUi, Vec<NetAction>, bool)| {
                let mut view = View::bare(&game, tables, &mode, &settings);
                if *saved {
                    view.save_path = Some(&save);
                }
                asked.extend(net.host_ui(ui, &view));
            },
            (NetUi::default(), Vec::new(), false),
        );
    h.run();
    assert!(
        h.query_by_label_contains("must be saved first").is_some(),
        "no save, no hosting"
    );
    h.state_mut().2 = true;
    h.run();
    assert!(h.query_by_label_contains("club-night.json").is_some());
    h.get_by_label("the local network (all interfaces)").click();
    h.run();
    h.get_by_label("Start hosting").click();
    h.run();
    let (net, asked, _) = h.state();
    assert!(
        matches!(asked.as_slice(), [NetAction::StartHosting]),
        "{asked:?}"
    );
    assert_eq!(
        net.bind,
        BindChoice::LocalNetwork,
        "the dialog keeps its choice"
    );
    assert!(!net.active(), "nothing started in the dialog itself");
}

#[test]
fn the_unit_editor_is_drawn_alone_from_a_view_and_asks_for_the_change() {
    let app = AppState::demo(1).expect("demo");
    let before = app.state().unit(FIRER).map(|u| u.strength).expect("unit");
    let mut h = super::common::unit_editor_of(&app, FIRER, 600.0);
    h.get_by_label("strength -1").click();
    h.run();
    let sent = h.state();
    assert!(
        matches!(
            sent.as_slice(),
            [Command::Act(kepi::engine::game::Action::SetCount { unit, value, .. })]
                if unit == FIRER && *value + 1 == before
        ),
        "{sent:?}"
    );
}

/// Issue 45: 1870's markers are its own kinds, offered in the editor beside the engine's flags
/// and set as the log always wrote them; wrapped onto a second line in the resolver's column
/// (about 450 points at 1366x768), they stay above the next row (egui draws a wrapped row in a
/// grid cell over the next one).
#[test]
fn a_sets_own_markers_wrap_in_the_unit_editor_above_the_next_row() {
    let s = kepi::registry::builtin_scenario("fr1870-august").unwrap();
    let tables = kepi::registry::builtin_tables().unwrap();
    let app = AppState::new_game(&s, 1, tables).unwrap();
    let mut h = super::common::unit_editor_of(&app, "fr-1rc", 430.0);
    let first = h.get_by_label("moved").rect();
    let last = h.get_by_label("stormed").rect();
    let supply = h.get_by_label("supply").rect();
    assert!(last.top() > first.bottom(), "wrapped: {first:?} {last:?}");
    assert!(last.bottom() <= supply.top(), "{last:?} over {supply:?}");
    h.get_by_label("must retreat").click();
    h.run();
    let sent = h.state();
    assert!(
        matches!(
            sent.as_slice(),
            [Command::Act(kepi::engine::game::Action::SetFlag {
                unit,
                flag: kepi::engine::game::FlagName::Mark(m),
                on: true,
            })] if unit == "fr-1rc" && m == "must-retreat"
        ),
        "{sent:?}"
    );
}

#[test]
fn the_export_dialog_keeps_its_own_fields_and_asks_to_export() {
    use kepi::app::exports::{ExportDialog, ExportKind};
    use kepi::export::Paper;
    let mut dialog = ExportDialog::default();
    dialog.show_for(ExportKind::RosterPdf, None);
    let mut h = Harness::builder()
        .with_size(egui::vec2(800.0, 600.0))
        .build_ui_state(
            |ui, (d, paper, sent): &mut (ExportDialog, Paper, Vec<Command>)| {
                d.ui(ui.ctx(), None, paper, sent);
            },
            (dialog, Paper::A4, Vec::new()),
        );
    h.run();
    h.get_by_label("letter").click();
    h.run();
    h.get_by_label("Unit cards, one PNG each (folder)").click();
    h.run();
    {
        let (d, paper, sent) = h.state();
        assert_eq!(*paper, Paper::Letter);
        assert_eq!(d.kind, ExportKind::CardsPng);
        assert!(d.path.ends_with("cards"), "{}", d.path);
        assert!(sent.is_empty(), "{sent:?}");
    }
    h.get_by_label("Export").click();
    h.run();
    let (_, _, sent) = h.state();
    assert!(
        matches!(sent.as_slice(), [Command::Export { kind: ExportKind::CardsPng, path }]
            if path.ends_with("cards")),
        "{sent:?}"
    );
}
