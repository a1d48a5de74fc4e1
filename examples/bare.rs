//! A bare eframe window built the same way as kepi's (same eframe features, same options, release
//! profile): the yardstick for kepi's start-to-first-frame time in `benches/startup.sh`.
//! With `KEPI_EXIT_AFTER_FIRST_FRAME` set it closes after its first frame, like kepi.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may fail loudly

fn main() -> Result<(), eframe::Error> {
    let exit_after_first_frame = std::env::var_os(kepi::app::EXIT_AFTER_FIRST_FRAME).is_some();
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("bare")
            .with_inner_size([1400.0, 880.0]),
        ..Default::default()
    };
    eframe::run_native(
        "bare",
        options,
        Box::new(move |_cc| Ok(Box::new(Bare(exit_after_first_frame)))),
    )
}

struct Bare(bool);

impl eframe::App for Bare {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        egui::CentralPanel::default().show(ui, |ui| ui.label("bare eframe"));
        if self.0 {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }
}
