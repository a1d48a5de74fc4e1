//! The top bar: rule set, turn and phase with the date, next phase, undo/redo, saved state, dice mode.

use egui::{RichText, Ui};

use super::state::{AppState, Command};

/// Draws the top bar and the File menu; returns the commands clicked.
pub fn top_bar_ui(ui: &mut Ui, app: &mut AppState, out: &mut Vec<Command>) {
    ui.horizontal_wrapped(|ui| {
        super::files::file_menu_ui(ui, app, out);
        ui.separator();
        let state = app.game.state();
        ui.label(RichText::new("kepi").strong().size(20.0));
        ui.label(RichText::new(state.system.title()).strong())
            .on_hover_text(&*state.title);
        ui.separator();
        let date = state
            .date
            .map(|d| d.format("%-d %b %Y").to_string())
            .unwrap_or_default();
        ui.label(RichText::new(format!("Turn {} - {}", state.turn, state.phase_name())).size(16.0));
        if !date.is_empty() {
            ui.label(RichText::new(date).weak());
        }
        if ui.button("Next phase >").on_hover_text("N").clicked() {
            out.push(Command::NextPhase);
        }
        ui.separator();
        if ui
            .add_enabled(app.game.can_undo(), egui::Button::new("Undo"))
            .on_hover_text("Ctrl+Z")
            .clicked()
        {
            out.push(Command::Undo);
        }
        if ui
            .add_enabled(app.game.can_redo(), egui::Button::new("Redo"))
            .on_hover_text("Ctrl+Shift+Z")
            .clicked()
        {
            out.push(Command::Redo);
        }
        ui.separator();
        ui.label("Dice:");
        ui.radio_value(&mut app.own_dice, false, "kepi rolls");
        ui.radio_value(&mut app.own_dice, true, "my own dice");
        ui.separator();
        let saved = match (&app.store, app.unsaved()) {
            (None, false) => RichText::new("no actions yet").weak(),
            (_, true) => RichText::new("NOT on disk").color(ui.visuals().error_fg_color),
            (Some(_), false) if app.autosaved => RichText::new("kept by kepi").weak(),
            (Some(s), false) => RichText::new(format!(
                "saved: {}",
                s.path()
                    .file_name()
                    .map(|f| f.to_string_lossy().into_owned())
                    .unwrap_or_default()
            ))
            .weak(),
        };
        let hover = match (&app.store, app.unsaved()) {
            (_, true) => "Some actions could not be written: File > Save As to keep them".to_string(),
            (Some(s), false) if app.autosaved => format!(
                "Every action is in {} (kepi's folder). File > Save As moves the game where you choose.",
                s.path().display()
            ),
            (Some(s), false) => format!("Every action is journalled in {}", s.path().display()),
            (None, false) => "The game gets its file at its first action".to_string(),
        };
        ui.label(saved).on_hover_text(hover);
    });
}
