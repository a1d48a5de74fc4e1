//! What the window test modules share: the whole window or one panel in a kittest harness, a new
//! game, a scratch folder (tests/shared/run.rs).

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use kepi::app::KepiApp;
use kepi::app::state::{AppState, Command};
use kepi::game::{Action, EntryKind};
use kepi::registry::builtin_scenario;
use kepi::rules::Resolution;

pub use super::games::*;
pub use super::host::TestHost;
pub use super::run::tmp;

/// The laptop screen most window tests are drawn on.
pub const LAPTOP: egui::Vec2 = egui::vec2(1366.0, 768.0);

/// A desk screen, where the exports' dialogs have room.
pub const DESK: egui::Vec2 = egui::vec2(1500.0, 1000.0);

/// A new game of the built-in `scenario` with `seed`, in the window's state.
pub fn new_game(scenario: &str, seed: u64) -> AppState {
    let tables = kepi::registry::builtin_tables().expect("tables");
    let s = builtin_scenario(scenario).expect("scenario");
    AppState::new_game(&s, seed, tables).expect("game")
}

/// The strength of unit `id` in the game being played.
pub fn strength(app: &AppState, id: &str) -> u32 {
    app.state().unit(id).expect("unit").strength
}

/// The resolution the last log entry holds (the test fails, saying the status line, when it holds
/// none).
pub fn last_resolution(app: &AppState) -> &Resolution<serde_json::Value> {
    match app.game.log().last().map(|e| &e.kind) {
        Some(EntryKind::Act {
            action: Action::Resolved { resolution, .. },
        }) => resolution,
        other => panic!(
            "a resolution last in the log, got {other:?}: {:?}",
            app.status
        ),
    }
}

/// The whole window around `app` at `size`, not yet run.
pub fn window_of(app: KepiApp, size: impl Into<egui::Vec2>) -> Harness<'static, KepiApp> {
    Harness::builder()
        .with_size(size)
        .build_ui_state(|ui, app: &mut KepiApp| app.ui(ui), app)
}

/// The whole window on the demo battle at `size`, not yet run.
pub fn demo(size: impl Into<egui::Vec2>) -> Harness<'static, KepiApp> {
    window_of(KepiApp::new(1870, None).expect("demo battle"), size)
}

/// The whole window at 1366x768 on `scenario` (the demo battle with `None`), run once.
pub fn window(scenario: Option<&str>) -> Harness<'static, KepiApp> {
    let mut h = demo(LAPTOP);
    if let Some(s) = scenario {
        h.state_mut().state.handle(Command::NewGame(s.into()));
    }
    h.run();
    h
}

/// The window's state under the harness.
pub fn app<'a>(h: &'a mut Harness<'_, KepiApp>) -> &'a mut AppState {
    &mut h.state_mut().state
}

/// The resolver alone (its form and its foot) at `size`, its commands handled; not yet run.
pub fn resolver(app: AppState, size: impl Into<egui::Vec2>) -> Harness<'static, AppState> {
    Harness::builder().with_size(size).build_ui_state(
        |ui, app: &mut AppState| {
            let mut out = Vec::new();
            let (view, resolver) = app.split_resolver();
            out.extend(resolver.ui(ui, &view));
            out.extend(resolver.foot_ui(ui, &view));
            for c in out {
                app.handle(c);
            }
        },
        app,
    )
}

/// The map panel alone at 900x700, its commands handled; not yet run.
pub fn map_panel(app: AppState) -> Harness<'static, AppState> {
    Harness::builder().with_size((900.0, 700.0)).build_ui_state(
        |ui, app: &mut AppState| {
            let (view, panels) = app.split();
            let out = panels.map.ui(ui, &view);
            for c in out {
                app.handle(c);
            }
        },
        app,
    )
}

/// A counter of the map dragged from `from` straight down by `hexes` hexes (a hex is sqrt3 x 28
/// points tall at the default size) and held there, not dropped: returns where it is held (the
/// caller reads the drag note, then `drop_at` it).
pub fn drag_down(h: &mut Harness<'static, AppState>, from: egui::Pos2, hexes: f32) -> egui::Pos2 {
    let to = from + egui::vec2(0.0, hexes * 28.0 * 1.732);
    h.drag_at(from);
    h.run();
    h.hover_at(from + egui::vec2(0.0, 20.0));
    h.run();
    h.hover_at(to);
    h.run();
    to
}

/// The roster panel alone, its commands handled.
pub fn roster_of(app: AppState) -> Harness<'static, AppState> {
    Harness::builder().with_size((420.0, 700.0)).build_ui_state(
        |ui, app: &mut AppState| {
            let (view, panels) = app.split();
            let out = panels.roster.ui(ui, &view);
            for c in out {
                app.handle(c);
            }
        },
        app,
    )
}

/// The due panel alone at `size`, its commands handled; not yet run (its headers start closed).
pub fn due_of(app: AppState, size: impl Into<egui::Vec2>) -> Harness<'static, AppState> {
    Harness::builder().with_size(size).build_ui_state(
        |ui, app: &mut AppState| {
            let (view, panels) = app.split();
            let out = panels.due.ui(ui, &view);
            for c in out {
                app.handle(c);
            }
        },
        app,
    )
}

/// The due panel alone at kittest's 800x600 with both headers opened (they start as one line
/// each, with a count): its checklist and the "still to act" link.
pub fn due_panel(app: AppState) -> Harness<'static, AppState> {
    let mut h = due_of(app, (800.0, 600.0));
    h.run();
    h.get_by_label_contains("Due: ").click();
    h.run();
    h.get_by_label_contains("Checklist: ").click();
    h.run();
    h
}

/// Moves units to hexes, as the umpire's setup would.
pub fn place(app: &mut AppState, at: &[(&str, &str)]) {
    for (unit, hex) in at {
        app.handle(Command::Act(Action::Move {
            effects: Vec::new(),
            unit: unit.to_string(),
            to: hex.parse().expect("hex"),
            notes: Vec::new(),
            mp: None,
        }));
    }
}

/// An SPI campaign's combat: two German corps (1010, 1110) next to the French corps of Metz
/// moved to 1011, the resolver holding that combat (de-3-3-1 and de-3-3-2 against fr-metz-5).
pub fn spi_metz_combat(app: &mut AppState) {
    place(
        app,
        &[
            ("de-3-3-1", "1010"),
            ("de-3-3-2", "1110"),
            ("fr-metz-5", "1011"),
        ],
    );
    app.handle(Command::Select("de-3-3-1".into()));
    app.handle(Command::Target("fr-metz-5".into()));
    app.handle(Command::ToggleAttacker("de-3-3-2".into()));
}

/// The unit editor alone for `app`'s unit `selected`, `width` points wide, drawn from a view of
/// its game: the commands it asks for are the harness's state.
pub fn unit_editor_of(
    app: &AppState,
    selected: &'static str,
    width: f32,
) -> Harness<'static, Vec<Command>> {
    let game = app.game.clone();
    let tables = app.tables;
    let mode = kepi::app::state::Mode::Local;
    let settings = kepi::app::state::Settings::default();
    let mut h = Harness::builder()
        .with_size(egui::vec2(width, 600.0))
        .build_ui_state(
            move |ui, sent: &mut Vec<Command>| {
                let mut view = kepi::app::state::View::bare(&game, tables, &mode, &settings);
                view.selected = Some(selected);
                kepi::app::roster::unit_editor_ui(ui, &view, sent);
            },
            Vec::new(),
        );
    h.run();
    h
}
