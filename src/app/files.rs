//! File menu: New from scenario, Open, Save, Save As, Recent, New from a unit-card file. Files are
//! chosen with the desktop's dialog or, where it has none, the in-window one
//! ([`super::file_dialog`]); the menu itself holds no text field (a click in one closed the menu,
//! and the next typed "n" advanced the phase).

use egui::Ui;

use super::file_dialog::Purpose;
use super::state::{Command, View};

/// The File menu and the View menu (theme and scale: set by [`Command::SetLook`]).
pub fn file_menu_ui(ui: &mut Ui, view: &View, out: &mut Vec<Command>) {
    ui.menu_button("File", |ui| {
        ui.menu_button("New from scenario", |ui| {
            if let Ok(list) = kepi_game::registry::builtin_scenarios() {
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
        if ui.button("New battle…").clicked() {
            out.push(Command::ShowBuilder(super::builder::Opening::New));
            ui.close();
        }
        if ui.button("Edit order of battle…").clicked() {
            out.push(Command::ShowBuilder(super::builder::Opening::Current));
            ui.close();
        }
        if ui.button("Import units from CSV…").clicked() {
            out.push(Command::ShowBuilder(super::builder::Opening::Csv));
            ui.close();
        }
        if ui.button("New from unit-card file…").clicked() {
            out.push(Command::ChooseFile(Purpose::ImportCards));
            ui.close();
        }
        if ui.button("Open…").clicked() {
            out.push(Command::ChooseFile(Purpose::Open));
            ui.close();
        }
        if ui.button("Save  (Ctrl+S)").clicked() {
            out.push(Command::Save);
            ui.close();
        }
        if ui.button("Save As…").clicked() {
            out.push(Command::ChooseFile(Purpose::SaveAs));
            ui.close();
        }
        if ui.button("Import board from VASSAL…").clicked() {
            out.push(Command::ChooseFile(Purpose::VassalModule));
            ui.close();
        }
        super::campaign::return_menu_ui(ui, view, out);
        ui.separator();
        if ui.button("Host this game…").clicked() {
            out.push(Command::ShowNet(super::net_ui::NetDialog::Host));
            ui.close();
        }
        if ui.button("Join a game…").clicked() {
            out.push(Command::ShowNet(super::net_ui::NetDialog::Join));
            ui.close();
        }
        ui.separator();
        super::exports::export_menu_ui(ui, view, out);
        if !view.settings.recent.is_empty() {
            ui.separator();
            ui.label("Recent");
            for p in &view.settings.recent {
                if ui.button(p.display().to_string()).clicked() {
                    out.push(Command::Open(p.clone()));
                    ui.close();
                }
            }
        }
    });
    // Issue 41: the map editor. "Board", not "Map": the map tab is "Map", and a label names one
    // thing (the window's tests and a screen reader find widgets by it).
    ui.menu_button("Board", |ui| {
        if ui.button("Edit map").clicked() {
            out.push(Command::EditMap);
            ui.close();
        }
        if ui.button("Edit a map file…").clicked() {
            out.push(Command::ChooseFile(Purpose::EditMap));
            ui.close();
        }
        if ui.button("Import board from VASSAL…").clicked() {
            out.push(Command::ChooseFile(Purpose::VassalModule));
            ui.close();
        }
    });
    ui.menu_button("View", |ui| {
        let (mut dark, mut scale) = (view.settings.dark, view.settings.scale);
        ui.checkbox(&mut dark, "Dark theme");
        ui.add(egui::Slider::new(&mut scale, 0.8..=2.0).text("UI scale"));
        if (dark, scale) != (view.settings.dark, view.settings.scale) {
            out.push(Command::SetLook { dark, scale });
        }
    });
}
