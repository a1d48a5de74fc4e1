//! The eframe window: kepi's workspace for umpires and players.
//!
//! Panels are functions named `*_ui` that read state and send actions; the rules they show come from
//! the same library functions the command line uses.

pub mod dice_tray;
pub mod widgets;

use dice_tray::DiceTray;

/// The whole window's state.
pub struct KepiApp {
    /// The dice tray.
    pub tray: DiceTray,
}

impl KepiApp {
    /// A fresh window with a seeded dice tray.
    pub fn new(seed: u64) -> Self {
        KepiApp {
            tray: DiceTray::new(seed),
        }
    }

    /// Draws the whole window into `ui` (also used headless by the tests).
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let KepiApp { tray } = self;
        egui::Panel::top("top_bar").show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.heading("kepi");
                ui.label("Franco-Prussian War wargames assistant");
            });
        });
        egui::CentralPanel::default().show(ui, |ui| {
            tray.ui(ui);
        });
    }
}

impl eframe::App for KepiApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        KepiApp::ui(self, ui);
    }
}

/// Opens the window (blocks until it is closed).
pub fn run_native() -> Result<(), eframe::Error> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("kepi")
            .with_inner_size([1280.0, 820.0]),
        ..Default::default()
    };
    let seed = crate::cli::fresh_seed();
    eframe::run_native(
        "kepi",
        options,
        Box::new(move |_cc| Ok(Box::new(KepiApp::new(seed)))),
    )
}
