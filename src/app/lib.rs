//! The eframe window: kepi's workspace for umpires and players.
//!
//! Panels are structs that keep their own state and are drawn with
//! `ui(&mut self, ui, &View) -> Vec<Command>` (egui_demo_lib's habit): they read the game from a
//! [`state::View`] lent by [`state::AppState::split`] and answer with [`state::Command`]s;
//! [`state::AppState::handle`] is the only place the game changes. The rules they show come from the
//! same library functions the command line uses.

pub mod board_map;
pub mod board_picture;
pub mod builder;
pub mod campaign;
pub mod charts;
pub mod dice_tray;
pub mod drift;
pub mod due;
pub mod exports;
pub mod file_dialog;
pub mod files;
pub mod help;
pub mod keys;
pub mod log_panel;
pub mod map;
pub mod map_edit;
pub mod net_ui;
pub mod other_rolls;
pub mod resolver;
pub mod roster;
pub mod state;
pub mod text_cache;
pub mod top_bar;
pub mod widgets;

use state::{AppState, BottomTab, Command};

/// The window.
pub struct KepiApp {
    /// Everything it shows.
    pub state: AppState,
    /// The theme and scale last handed to egui, so they are set when they change, not every frame.
    applied_look: Option<(bool, f32)>,
    /// File > Host this game… and Join a game….
    pub net: net_ui::NetUi,
    /// Close after the first frame (`KEPI_EXIT_AFTER_FIRST_FRAME=1`, for the start-up benchmark).
    exit_after_first_frame: bool,
    /// Keys typed just before a click, kept for the field they were typed in.
    input: keys::InputSplitter,
}

/// The hidden start-up benchmark switch: with this variable set, the window closes after drawing
/// its first frame (benches/startup.sh times that against a bare eframe window).
pub const EXIT_AFTER_FIRST_FRAME: &str = "KEPI_EXIT_AFTER_FIRST_FRAME";

const SETTINGS_KEY: &str = "kepi-settings";

/// Lines the status bar keeps for the last action's summary (its height, whatever it says).
const STATUS_LINES: usize = 2;

impl KepiApp {
    /// The demo battle, with settings restored from `storage` when there are any.
    pub fn new(seed: u64, storage: Option<&dyn eframe::Storage>) -> Result<Self, String> {
        KepiApp::with_settings(AppState::demo(seed)?, storage)
    }

    /// A window showing `state`, with settings restored from `storage` when there are any, and the
    /// last game offered.
    pub fn with_settings(
        mut state: AppState,
        storage: Option<&dyn eframe::Storage>,
    ) -> Result<Self, String> {
        if let Some(s) = storage.and_then(|s| eframe::get_value::<state::Settings>(s, SETTINGS_KEY))
        {
            state.settings = s;
        }
        state.dialogs.last_game =
            state::LastGame::find_with(&state.settings.recent, state.data_dir.as_deref());
        Ok(KepiApp::with_state(state))
    }

    /// A window showing `state`.
    pub fn with_state(state: AppState) -> Self {
        KepiApp {
            state,
            applied_look: None,
            net: net_ui::NetUi::default(),
            exit_after_first_frame: false,
            input: keys::InputSplitter::default(),
        }
    }

    /// Draws the whole window into `ui` (also used headless by the tests and the frame benchmark).
    /// In order: the look, the export's progress and the modified keys; the top bar, the status
    /// bar, the banners, the side panels and the centre; the dialogs over them; then the playing
    /// keys and every command asked this frame.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        self.apply_look(ui.ctx());
        let app = &mut self.state;
        let net = &mut self.net;
        let mut out: Vec<Command> = Vec::new();
        if app.poll_export() {
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(50));
        }
        // The builder's Ctrl+Z and Ctrl+Y undo the builder while it is open, not the game.
        app.dialogs.builder.keys(ui.ctx());
        let focused_at_start = ui.ctx().egui_wants_keyboard_input();
        // Issue 41: while the map editor is open, its keys are the editor's (Ctrl+Z undoes a
        // paint, never the game's last action).
        let editing = app.panels.map_edit.open;
        if editing {
            let game_map = app.game.state().map.clone();
            app.panels
                .map_edit
                .keys(ui.ctx(), game_map.as_ref(), &mut out);
        } else {
            keys::modified(
                ui.ctx(),
                &app.view(),
                &app.resolver,
                focused_at_start,
                &mut out,
            );
        }
        let top_bar = egui::Panel::top("top_bar").show(ui, |ui| {
            let (view, panels) = app.split();
            let asked = panels.top_bar.ui(ui, &view);
            now_or_later(app, asked, &mut out);
        });
        // Below the top bar: where the network dialogs stay (Undo and Redo are never covered).
        let below_top_bar = {
            let all = ui.ctx().content_rect();
            egui::Rect::from_min_max(
                egui::pos2(all.left(), top_bar.response.rect.bottom()),
                all.max,
            )
        };
        status_bar_ui(
            ui,
            &app.view(),
            app.dialogs.export_job.as_ref(),
            app.status.as_ref(),
            &mut out,
        );
        banners_ui(ui, &app.dialogs, &mut out);
        let system = app.state().system.system();
        let hex = map::has_map(system);
        // The panels' grips are painted once the central panel is (its fill would cover half of
        // a grip), on the panels' own layer: below every window and dialog.
        if editing {
            egui::CentralPanel::default().show(ui, |ui| {
                let game_map = app.game.state().map.clone();
                out.extend(app.panels.map_edit.ui(ui, game_map.as_ref()));
            });
        } else {
            let grips = side_panels(ui, app, hex, &mut out);
            centre(ui, app, hex, &mut out);
            for (x, panel) in grips {
                grip(ui.ctx(), x, panel);
            }
        }
        dialogs_over(ui.ctx(), app, net, below_top_bar, &mut out);
        finish_frame(ui.ctx(), app, out);
    }

    /// Hands egui the theme and the scale when they changed since the last frame.
    fn apply_look(&mut self, ctx: &egui::Context) {
        let look = (self.state.settings.dark, self.state.settings.scale);
        if self.applied_look != Some(look) {
            ctx.set_zoom_factor(look.1);
            ctx.set_visuals(if look.0 {
                egui::Visuals::dark()
            } else {
                egui::Visuals::light()
            });
            self.applied_look = Some(look);
        }
    }
}

/// The status bar ("status_bar"): from its right, where the game is kept, the scale (tape-measure
/// rule sets), then an export's progress and the status line.
fn status_bar_ui(
    ui: &mut egui::Ui,
    view: &state::View,
    export_job: Option<&exports::ExportJob>,
    status: Option<&state::Status>,
    out: &mut Vec<Command>,
) {
    egui::Panel::bottom("status_bar").show(ui, |ui| {
        ui.horizontal(|ui| {
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                top_bar::saved_state_ui(ui, view);
                ui.separator();
                // Issue 28: the tape-measure rule sets' scale, in the status line's corner
                // (the top bar is full on a laptop).
                if !view.state().system.uses_hexes() {
                    top_bar::scale_menu_ui(ui, view, out);
                    ui.separator();
                }
                ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                    exports::export_progress_ui(ui, export_job);
                    // Two lines always, wrapped before the corner's label (issue 46: a
                    // breach or a number at a summary's end was cut at 1366x768); the bar's
                    // height never changes with the text, so the panels above keep still.
                    // Only a summary longer than that is elided, whole on hover.
                    let text = match status {
                        Some(s) if s.error => {
                            egui::RichText::new(&s.text).color(ui.visuals().error_fg_color)
                        }
                        Some(s) => egui::RichText::new(&s.text),
                        None => egui::RichText::new(keys::reminder()).weak(),
                    };
                    widgets::lines_label(ui, text, STATUS_LINES);
                });
            });
        });
    });
}

/// The banners under the top bar: a battle its campaign already took back, and the offer to
/// continue the last game.
fn banners_ui(ui: &mut egui::Ui, dialogs: &state::Dialogs, out: &mut Vec<Command>) {
    if let Some(said) = &dialogs.campaign.returned {
        egui::Panel::top("returned_battle").show(ui, |ui| campaign::returned_banner_ui(ui, said));
    }
    if let Some(last) = dialogs.last_game.clone() {
        egui::Panel::top("last_game").show(ui, |ui| last_game_ui(ui, &last, out));
    }
}

/// The side panels: the roster on the left; on the right the log, or in the hex rule sets (`hex`)
/// the resolver and the log as tabs. Returns where their grips go (the edge's x, the panel).
fn side_panels(
    ui: &mut egui::Ui,
    app: &mut AppState,
    hex: bool,
    out: &mut Vec<Command>,
) -> Vec<(f32, egui::Rect)> {
    let roster = egui::Panel::left("roster")
        .resizable(true)
        .default_size(360.0)
        .show(ui, |ui| {
            let (view, panels) = app.split();
            out.extend(panels.roster.ui(ui, &view));
        });
    let mut grips = vec![(roster.response.rect.right(), roster.response.rect)];
    let system = app.state().system.system();
    if hex {
        // Hex rule sets: the map is the large central view and the resolver sits beside it,
        // sharing the right column with the log (a tab each); each rule set keeps its own
        // column width.
        let side = egui::Panel::right(("resolver_log", system.id()))
            .resizable(true)
            .default_size(400.0)
            .size_range(300.0..=700.0)
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.selectable_value(&mut app.options.side_log, false, "Resolver");
                    ui.selectable_value(&mut app.options.side_log, true, "Log");
                });
                ui.separator();
                if app.options.side_log {
                    let (view, panels) = app.split();
                    panels.log.ui(ui, &view);
                } else {
                    resolver_column_ui(ui, app, out);
                }
            });
        grips.push((side.response.rect.left(), side.response.rect));
    } else {
        let log = egui::Panel::right("log")
            .resizable(true)
            .default_size(340.0)
            .show(ui, |ui| {
                let (view, panels) = app.split();
                panels.log.ui(ui, &view);
            });
        grips.push((log.response.rect.left(), log.response.rect));
    }
    grips
}

/// The centre: the resolver (or, in hex rule sets, the map), the drift diagram, the charts and the
/// dice tray are tabs of the whole centre, so each has the column's height.
fn centre(ui: &mut egui::Ui, app: &mut AppState, hex: bool, out: &mut Vec<Command>) {
    let system = app.state().system.system();
    egui::CentralPanel::default().show(ui, |ui| {
        let drift = kepi_game::registry::get(system).has_drift();
        centre_tabs_ui(ui, &mut app.options.bottom, hex, drift);
        ui.separator();
        match app.options.bottom {
            BottomTab::Charts => charts::charts_ui(ui, &app.game, &mut app.panels.charts),
            BottomTab::Dice => app
                .panels
                .tray
                .ui(ui, &app.game, &mut app.options.own_dice, out),
            BottomTab::Drift if kepi_game::registry::get(system).has_drift() => {
                egui::ScrollArea::vertical()
                    .id_salt("drift_tab")
                    .show(ui, |ui| {
                        drift::drift_ui(ui, &app.view(), app.resolver.form())
                    });
            }
            _ if hex => {
                let form = app.resolver.form().map(|f| f.name());
                let (view, panels) = app.split();
                panels.map.set_form(form);
                out.extend(panels.map.ui(ui, &view));
            }
            _ => resolver_column_ui(ui, app, out),
        }
    });
}

/// The centre's tabs: Map (hex rule sets) or Resolver, Drift (where the rule set has it), Charts
/// and the dice tray.
fn centre_tabs_ui(ui: &mut egui::Ui, bottom: &mut BottomTab, hex: bool, drift: bool) {
    ui.horizontal(|ui| {
        if hex {
            ui.selectable_value(bottom, BottomTab::Map, "Map");
        } else {
            ui.selectable_value(bottom, BottomTab::Resolver, "Resolver");
        }
        if drift {
            ui.selectable_value(bottom, BottomTab::Drift, "Drift");
        }
        ui.selectable_value(bottom, BottomTab::Charts, "Charts");
        ui.selectable_value(bottom, BottomTab::Dice, "Dice tray");
    });
}

/// The windows over the panels, in order: export, the campaign's, the file dialog, the network's
/// (below the top bar), Help, and the guard's question.
fn dialogs_over(
    ctx: &egui::Context,
    app: &mut AppState,
    net: &mut net_ui::NetUi,
    below_top_bar: egui::Rect,
    out: &mut Vec<Command>,
) {
    app.dialogs.export.ui(
        ctx,
        app.dialogs.export_job.as_ref(),
        &mut app.settings.paper,
        out,
    );
    {
        // While the battle's file is being chosen, only the file dialog shows (one dialog
        // over another hid the file's path).
        let choosing =
            app.files.dialog.open && app.files.dialog.purpose == file_dialog::Purpose::Battle;
        let view = state::view_of!(app);
        let dialogs = &mut app.dialogs.campaign;
        if !choosing {
            campaign::fight_dialog_ui(ctx, dialogs, &view, out);
        }
        campaign::return_dialog_ui(ctx, dialogs, &view, out);
    }
    app.dialogs
        .builder
        .ui(ctx, &mut app.settings.csv_columns, out);
    if let Some(c) = app.files.dialog.ui(ctx) {
        out.push(c);
    }
    if let Some(d) = app.dialogs.net.take() {
        net.open(d);
    }
    net.ui(ctx, app, below_top_bar);
    app.panels.top_bar.help.ui(ctx);
    let lost = app.game.log().len().saturating_sub(app.saved_len);
    let view = state::view_of!(app);
    guard_ui(ctx, &mut app.guard, &view, lost, out);
}

/// The frame's end: the playing keys (held while Help or a dialog is open: that is reading, not
/// playing, so Roll and Next phase keep still under it), every command asked, in order, and
/// closing.
fn finish_frame(ctx: &egui::Context, app: &mut AppState, mut out: Vec<Command>) {
    let held = app.panels.top_bar.help.open.is_some()
        || app.guard.confirm.is_some()
        || app.files.dialog.open
        || app.dialogs.export.open
        || app.dialogs.builder.open
        || app.dialogs.campaign.fight.is_some()
        || app.dialogs.campaign.give.is_some()
        || app.panels.map_edit.open;
    keys::playing(ctx, &app.view(), &app.resolver, held, &mut out);
    for c in out {
        app.handle(c);
    }
    closing(ctx, app);
}

/// A visible handle on a resizable panel's edge at `x` (the edge egui lets you drag shows nothing
/// until hovered): three short bars in the middle of the panel's height, on the panels' layer
/// (the background), so windows and dialogs cover them.
pub fn grip(ctx: &egui::Context, x: f32, panel: egui::Rect) {
    let painter = ctx.layer_painter(grip_layer());
    let color = ctx.global_style().visuals.weak_text_color();
    let y = panel.center().y;
    for dy in [-8.0, 0.0, 8.0] {
        let r = egui::Rect::from_center_size(egui::pos2(x, y + dy), egui::vec2(3.0, 5.0));
        painter.rect_filled(r, 1.0, color);
    }
}

/// The layer the panels' grips are painted on: the panels' own, below every window.
pub fn grip_layer() -> egui::LayerId {
    egui::LayerId::background()
}

/// The height of the resolver's pinned foot (Roll, the exact odds, the last result).
const RESOLVER_FOOT: f32 = 250.0;

/// The resolver as a column: the due checks, the form and its situation scroll above; Roll, the
/// exact odds and the last result are pinned in a fixed-height foot, so they are always on screen
/// and Roll never moves under the mouse.
fn resolver_column_ui(ui: &mut egui::Ui, app: &mut AppState, out: &mut Vec<Command>) {
    let foot = RESOLVER_FOOT.min(ui.available_height() * 0.6);
    let mut upper = egui::ScrollArea::vertical()
        .id_salt("central")
        .max_height(ui.available_height() - foot)
        .auto_shrink([false, false]);
    if std::mem::take(&mut app.options.scroll_to_top) {
        upper = upper.vertical_scroll_offset(0.0);
    }
    // Each section is held to the column's width, so one that runs past it does not widen the
    // rest (the result card wrapped past the edge at 1366x768).
    let width = ui.available_width();
    upper.show(ui, |ui| {
        widgets::bounded(ui, width, |ui| {
            let (view, panels) = app.split();
            out.extend(panels.due.ui(ui, &view));
        });
        ui.separator();
        widgets::bounded(ui, width, |ui| {
            let (view, resolver) = app.split_resolver();
            out.extend(resolver.ui(ui, &view));
        });
        ui.separator();
        widgets::bounded(ui, width, |ui| {
            let (view, panels) = app.split();
            out.extend(panels.other_rolls.ui(ui, &view));
        });
        ui.separator();
        widgets::bounded(ui, width, |ui| roster::unit_editor_ui(ui, &app.view(), out));
    });
    ui.separator();
    egui::ScrollArea::vertical()
        .id_salt("resolver_foot")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            widgets::bounded(ui, width, |ui| {
                let (view, resolver) = app.split_resolver();
                let asked = resolver.foot_ui(ui, &view);
                now_or_later(app, asked, out);
            });
        });
}

/// A panel's commands: a dialog or an option asked for is handled at once (the dialog drawn
/// further down this frame shows it, as when the panel set it itself); the rest waits for the end
/// of the frame, in order with the keys' and the other panels'.
fn now_or_later(app: &mut AppState, asked: Vec<Command>, out: &mut Vec<Command>) {
    for c in asked {
        if c.shows_only() {
            app.handle(c);
        } else {
            out.push(c);
        }
    }
}

/// How long the table must be idle before the full save is rewritten (the journal already holds
/// every action; this only keeps the journal short to replay).
const COMPACT_WHEN_IDLE: std::time::Duration = std::time::Duration::from_secs(3);

/// Closing the window: asks first when something could be lost; otherwise rewrites the save and
/// lets the window close. Also rewrites the save once the table has been idle for a while.
fn closing(ctx: &egui::Context, app: &mut AppState) {
    if ctx.input(|i| i.viewport().close_requested()) && !app.guard.allow_close {
        if !app.panels.map_edit.may_close_window() {
            // Issue 41: the map editor asks about its changes first.
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
        } else if app.unsaved() {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            app.guard.confirm = Some(Box::new(Command::Close));
        } else {
            app.compact();
            app.guard.allow_close = true;
        }
    }
    if app.guard.take_close() {
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
    }
    if app.poll_store() {
        // A rewrite is running off this thread: look again soon to hear how it went.
        ctx.request_repaint_after(std::time::Duration::from_millis(100));
    }
    let behind = app.store.as_ref().is_some_and(|s| s.behind() > 0);
    if behind && let Some(t) = app.last_change {
        let idle = t.elapsed();
        if idle >= COMPACT_WHEN_IDLE {
            app.compact_idle();
            app.last_change = None;
        } else {
            ctx.request_repaint_after(COMPACT_WHEN_IDLE - idle);
        }
    }
}

/// "This game has actions that are not on disk" (`lost` of them): Save As / Discard / Cancel,
/// before the game is closed or replaced (New, Open, Recent, Import, closing the window).
fn guard_ui(
    ctx: &egui::Context,
    guard: &mut state::Guard,
    view: &state::View,
    lost: usize,
    out: &mut Vec<Command>,
) {
    let Some(pending) = guard.confirm.clone() else {
        return;
    };
    let what = match *pending {
        Command::Close => "Close the window",
        Command::NewGame(_) => "Start a new game",
        Command::NewFromCards(_) => "Start a new game from unit cards",
        Command::Open(_) | Command::OpenLast => "Open another game",
        _ => "Go on",
    };
    egui::Modal::new(egui::Id::unique("kepi-guard")).show(ctx, |ui| {
        ui.set_max_width(460.0);
        ui.heading("This game is not safely on disk");
        ui.label(if view.save_path.is_none() {
            format!(
                "This game has not been written anywhere yet (see the status line). {what} anyway and the whole game is lost."
            )
        } else if lost == 1 {
            format!("1 action could not be written (see the status line). {what} anyway and it is lost.")
        } else {
            format!("{lost} actions could not be written (see the status line). {what} anyway and they are lost.")
        });
        ui.horizontal(|ui| {
            if ui.button("Save As…").clicked() {
                guard.save_first();
                out.push(Command::ChooseFile(file_dialog::Purpose::SaveAs));
            }
            if ui.button("Discard").clicked() {
                out.push(Command::Discard);
            }
            if ui.button("Cancel").clicked() {
                out.push(Command::CancelGuard);
            }
        });
    });
}

/// The offer to continue (or recover) the game kepi had open last time.
fn last_game_ui(ui: &mut egui::Ui, last: &state::LastGame, out: &mut Vec<Command>) {
    ui.horizontal(|ui| {
        let name = last.path.display();
        if let Some(line) = &last.unclean {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!("kepi stopped uncleanly last time ({name} was open: {line})."),
            );
            if ui
                .button("Recover and open")
                .on_hover_text(
                    "Opens the game with every action its journal holds; a damaged journal is \
                     rebuilt first, as `kepi game recover` does",
                )
                .clicked()
            {
                out.push(Command::OpenLast);
            }
        } else if last.needs_recovery {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!("kepi stopped before {name} was saved; its journal holds the rest."),
            );
            if ui.button("Recover and open").clicked() {
                out.push(Command::OpenLast);
            }
        } else {
            ui.label(format!("Your last game: {name}"));
            if ui.button("Continue your last game").clicked() {
                out.push(Command::OpenLast);
            }
        }
        if ui.button("Not now").clicked() {
            out.push(Command::DismissLast);
        }
    });
}

impl eframe::App for KepiApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        KepiApp::ui(self, ui);
        if self.exit_after_first_frame {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }

    /// Keys typed in the frame of a click elsewhere reach their field first ([`keys::InputSplitter`]).
    fn raw_input_hook(&mut self, ctx: &egui::Context, raw_input: &mut egui::RawInput) {
        if self.input.split(&mut raw_input.events) {
            ctx.request_repaint();
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, SETTINGS_KEY, &self.state.settings);
    }

    /// The window closes cleanly: the game's "running" marker goes (one left says it did not).
    fn on_exit(&mut self) {
        self.state.compact();
        if let Some(store) = self.state.store.as_mut() {
            store.clear_running();
        }
    }
}

/// Opens the window (blocks until it is closed), on `open` when given (as File > Open would; a
/// save that does not open is reported in the status line, over the demo battle).
pub fn run_native(open: Option<std::path::PathBuf>) -> Result<(), eframe::Error> {
    // The window opens maximized, so it fits whatever screen it is on (a size remembered from a
    // larger monitor once opened past a laptop's edges); un-maximized it is 1280x720, which fits a
    // 1366x768 laptop with its panel.
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("kepi")
            .with_inner_size([1280.0, 720.0])
            .with_min_inner_size([960.0, 600.0])
            .with_maximized(true),
        persist_window: false,
        ..Default::default()
    };
    let seed = kepi_game::dice::fresh_seed();
    let exit_after_first_frame = std::env::var_os(EXIT_AFTER_FIRST_FRAME).is_some();
    // Build the demo battle (rule tables, scenarios, the game) while eframe opens the window and
    // its GL context, rather than after.
    let demo = std::thread::Builder::new()
        .name("kepi-demo".into())
        .spawn(move || AppState::demo(seed));
    eframe::run_native(
        "kepi",
        options,
        Box::new(move |cc| {
            let state = match demo {
                Ok(handle) => handle
                    .join()
                    .unwrap_or_else(|_| Err("the demo battle could not be built".to_string()))?,
                Err(_) => AppState::demo(seed)?,
            };
            let mut state = state;
            state.data_dir = eframe::storage_dir("kepi");
            state.files.native = file_dialog::native_available();
            let mut app = KepiApp::with_settings(state, cc.storage)?;
            app.exit_after_first_frame = exit_after_first_frame;
            if let Some(path) = open {
                app.state.dialogs.last_game = None;
                app.state.handle(Command::Open(path));
            }
            Ok(Box::new(app) as Box<dyn eframe::App>)
        }),
    )
}

// This crate's unit tests are a program of their own: they are built with kepi's five rule sets.
#[cfg(test)]
kepi_game::rule_sets!(&kepi_sets::BUILT_IN);
