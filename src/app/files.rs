//! File menu: New from scenario, Open, Save, Save As, Recent; native dialogs (rfd) with a typed-path
//! fallback for machines without a dialog service.

use std::path::PathBuf;

use egui::Ui;

use super::state::{AppState, Command};

fn pick_save() -> Option<PathBuf> {
    rfd::FileDialog::new()
        .add_filter("kepi game", &["json"])
        .set_file_name("battle.kepi.json")
        .save_file()
}

fn pick_cards() -> Option<PathBuf> {
    rfd::FileDialog::new()
        .add_filter("unit cards", &["toml"])
        .pick_file()
}

fn pick_open() -> Option<PathBuf> {
    rfd::FileDialog::new()
        .add_filter("kepi game", &["json"])
        .pick_file()
}

/// The File menu.
pub fn file_menu_ui(ui: &mut Ui, app: &mut AppState, out: &mut Vec<Command>) {
    ui.menu_button("File", |ui| {
        ui.menu_button("New from scenario", |ui| {
            if let Ok(list) = crate::roster::builtin_scenarios() {
                for s in list {
                    let label =
                        format!("{} ({})", s.title, s.system.map(|x| x.id()).unwrap_or("-"));
                    if ui.button(label).clicked() {
                        out.push(Command::NewGame(s.name.clone()));
                        ui.close();
                    }
                }
            }
        });
        if ui.button("New from unit-card file…").clicked() {
            if let Some(p) = pick_cards() {
                out.push(Command::NewFromCards(p));
            }
            ui.close();
        }
        if ui.button("Open…").clicked() {
            if let Some(p) = pick_open() {
                out.push(Command::Open(p));
            }
            ui.close();
        }
        if ui.button("Save  (Ctrl+S)").clicked() {
            if app.store.is_some() {
                out.push(Command::Save);
            } else if let Some(p) = pick_save() {
                out.push(Command::SaveAs(p));
            }
            ui.close();
        }
        if ui.button("Save As…").clicked() {
            if let Some(p) = pick_save() {
                out.push(Command::SaveAs(p));
            }
            ui.close();
        }
        ui.separator();
        super::exports::export_menu_ui(ui, app);
        ui.separator();
        let label = ui.label("Or type a path:");
        ui.text_edit_singleline(&mut app.path_text)
            .labelled_by(label.id);
        ui.horizontal(|ui| {
            let p = PathBuf::from(app.path_text.trim());
            let ok = !app.path_text.trim().is_empty();
            if ui.add_enabled(ok, egui::Button::new("Open path")).clicked() {
                out.push(Command::Open(p.clone()));
                ui.close();
            }
            if ui
                .add_enabled(ok, egui::Button::new("Save to path"))
                .clicked()
            {
                out.push(Command::SaveAs(p.clone()));
                ui.close();
            }
            if ui
                .add_enabled(ok, egui::Button::new("Import cards from path"))
                .clicked()
            {
                out.push(Command::NewFromCards(p));
                ui.close();
            }
        });
        if !app.settings.recent.is_empty() {
            ui.separator();
            ui.label("Recent");
            for p in app.settings.recent.clone() {
                if ui.button(p.display().to_string()).clicked() {
                    out.push(Command::Open(p));
                    ui.close();
                }
            }
        }
    });
    ui.menu_button("View", |ui| {
        ui.checkbox(&mut app.settings.dark, "Dark theme");
        ui.add(egui::Slider::new(&mut app.settings.scale, 0.8..=2.0).text("UI scale"));
    });
}
