//! File > Print roster, Export cards, Battle report, CSV: the export dialog and the worker thread
//! that writes the files (issues 8 and 9).
//!
//! The view model (a [`RosterDoc`], [`ReportDoc`] or log rows) is taken from the game on the window's
//! thread, which is quick and keeps the worker away from the live game; laying out, rendering and
//! writing run on a worker thread that reports progress through an [`AtomicProgress`]. The window
//! polls the job each frame, draws a progress bar, and stays responsive while a 1,000-unit roster
//! prints. Output goes through the same [`kepi_middle::export`] functions as `kepi roster print`,
//! `kepi cards`, `kepi report` and `kepi export csv`, and is written atomically.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread::JoinHandle;

use egui::Ui;

use super::state::{Command, View};
use kepi_game::engine::game::Game;
use kepi_game::rules::Tables;
use kepi_middle::export::{self, AtomicProgress, ExportError, Paper};

/// The PNG card resolution the window uses (the command line's default too).
pub const CARD_DPI: u32 = 300;

/// What to export.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ExportKind {
    /// The roster as a printable PDF (`kepi roster print`).
    RosterPdf,
    /// Unit cards on sheets of nine, PDF (`kepi cards --pdf`).
    CardsPdf,
    /// One PNG per unit card, into a folder (`kepi cards --png`).
    CardsPng,
    /// The battle report as a PDF (`kepi report --pdf`).
    ReportPdf,
    /// The battle report as HTML (`kepi report --html`).
    ReportHtml,
    /// Units as CSV (`kepi export csv --units`).
    UnitsCsv,
    /// The log as CSV (`kepi export csv --log`).
    LogCsv,
}

impl ExportKind {
    /// Every kind, in menu order.
    pub const ALL: [ExportKind; 7] = [
        ExportKind::RosterPdf,
        ExportKind::CardsPdf,
        ExportKind::CardsPng,
        ExportKind::ReportPdf,
        ExportKind::ReportHtml,
        ExportKind::UnitsCsv,
        ExportKind::LogCsv,
    ];

    /// The label in the dialog.
    pub fn label(self) -> &'static str {
        match self {
            ExportKind::RosterPdf => "Roster (PDF)",
            ExportKind::CardsPdf => "Unit cards, sheets of nine (PDF)",
            ExportKind::CardsPng => "Unit cards, one PNG each (folder)",
            ExportKind::ReportPdf => "Battle report (PDF)",
            ExportKind::ReportHtml => "Battle report (HTML)",
            ExportKind::UnitsCsv => "Units (CSV)",
            ExportKind::LogCsv => "Log (CSV)",
        }
    }

    /// What the status line says while it runs.
    pub fn verb(self) -> &'static str {
        match self {
            ExportKind::RosterPdf => "printing the roster",
            ExportKind::CardsPdf | ExportKind::CardsPng => "drawing unit cards",
            ExportKind::ReportPdf | ExportKind::ReportHtml => "writing the battle report",
            ExportKind::UnitsCsv | ExportKind::LogCsv => "writing CSV",
        }
    }

    /// True when the output is a folder, not a file.
    pub fn is_folder(self) -> bool {
        self == ExportKind::CardsPng
    }

    /// True when the paper size matters.
    pub fn uses_paper(self) -> bool {
        matches!(
            self,
            ExportKind::RosterPdf | ExportKind::CardsPdf | ExportKind::ReportPdf
        )
    }

    /// The file (or folder) name offered by default.
    pub fn default_name(self) -> &'static str {
        match self {
            ExportKind::RosterPdf => "roster.pdf",
            ExportKind::CardsPdf => "cards.pdf",
            ExportKind::CardsPng => "cards",
            ExportKind::ReportPdf => "report.pdf",
            ExportKind::ReportHtml => "report.html",
            ExportKind::UnitsCsv => "units.csv",
            ExportKind::LogCsv => "log.csv",
        }
    }

    fn extension(self) -> Option<&'static str> {
        match self {
            ExportKind::RosterPdf | ExportKind::CardsPdf | ExportKind::ReportPdf => Some("pdf"),
            ExportKind::ReportHtml => Some("html"),
            ExportKind::UnitsCsv | ExportKind::LogCsv => Some("csv"),
            ExportKind::CardsPng => None,
        }
    }
}

/// What the worker was handed: owned view models, so it never touches the live game.
enum Payload {
    Roster(export::RosterDoc),
    Report(export::ReportDoc),
    Log(Vec<export::LogRowDoc>),
}

/// Takes the view model an export needs from the game (on the caller's thread).
fn payload(kind: ExportKind, game: &Game, tables: &Tables) -> Payload {
    use kepi_middle::export::from_game::{game_roster_doc, log_rows, report_doc};
    match kind {
        ExportKind::RosterPdf
        | ExportKind::CardsPdf
        | ExportKind::CardsPng
        | ExportKind::UnitsCsv => Payload::Roster(game_roster_doc(game, tables)),
        ExportKind::ReportPdf | ExportKind::ReportHtml => Payload::Report(report_doc(game, tables)),
        ExportKind::LogCsv => Payload::Log(log_rows(game)),
    }
}

/// Renders and writes one export; returns what the status line says when it is done. Runs on the
/// worker thread; `progress` is called as pages or cards are done.
fn run(
    kind: ExportKind,
    payload: &Payload,
    path: &Path,
    paper: Paper,
    progress: export::Progress,
) -> Result<String, ExportError> {
    let shown = path.display();
    match (kind, payload) {
        (ExportKind::RosterPdf, Payload::Roster(doc)) => {
            let bytes = export::roster_pdf_progress(doc, paper, progress)?;
            export::write_atomic(path, &bytes)?;
            let pages = export::roster_page_count(doc, paper)?;
            Ok(format!(
                "roster printed to {shown} ({}, {}, {paper})",
                kepi_game::rules::count(doc.units().len(), "unit", "units"),
                kepi_game::rules::count(pages, "page", "pages")
            ))
        }
        (ExportKind::CardsPdf, Payload::Roster(doc)) => {
            let bytes = export::cards_pdf_progress(doc, paper, progress)?;
            export::write_atomic(path, &bytes)?;
            let n = doc.units().len();
            Ok(format!(
                "cards written to {shown} ({n} cards, {} sheets)",
                n.div_ceil(9).max(1)
            ))
        }
        (ExportKind::CardsPng, Payload::Roster(doc)) => {
            let files = export::cards_png_dir(doc, path, CARD_DPI, progress)?;
            Ok(format!(
                "{} cards written at {CARD_DPI} dpi into {shown}",
                files.len()
            ))
        }
        (ExportKind::ReportPdf, Payload::Report(doc)) => {
            let bytes = export::report_pdf_progress(doc, paper, progress)?;
            export::write_atomic(path, &bytes)?;
            Ok(format!("battle report written to {shown}"))
        }
        (ExportKind::ReportHtml, Payload::Report(doc)) => {
            progress(0, 1);
            export::write_atomic(path, export::report_html(doc).as_bytes())?;
            progress(1, 1);
            Ok(format!("battle report written to {shown}"))
        }
        (ExportKind::UnitsCsv, Payload::Roster(doc)) => {
            progress(0, 1);
            export::write_atomic(path, export::units_csv(doc).as_bytes())?;
            progress(1, 1);
            Ok(format!("{} units written to {shown}", doc.units().len()))
        }
        (ExportKind::LogCsv, Payload::Log(rows)) => {
            progress(0, 1);
            export::write_atomic(path, export::log_csv(rows).as_bytes())?;
            progress(1, 1);
            Ok(format!("{} log entries written to {shown}", rows.len()))
        }
        _ => Err(ExportError::Invalid(format!(
            "internal: {} was handed the wrong document",
            kind.label()
        ))),
    }
}

/// An export running on a worker thread.
pub struct ExportJob {
    /// What it writes.
    pub kind: ExportKind,
    /// Where.
    pub path: PathBuf,
    /// Pages or cards done, shared with the worker.
    pub progress: Arc<AtomicProgress>,
    handle: Option<JoinHandle<Result<String, String>>>,
}

impl ExportJob {
    /// Takes the view model from `game` now and starts the worker.
    pub fn start(
        kind: ExportKind,
        path: PathBuf,
        paper: Paper,
        game: &Game,
        tables: &Tables,
    ) -> Result<ExportJob, String> {
        let payload = payload(kind, game, tables);
        let progress = Arc::new(AtomicProgress::new());
        let worker_progress = Arc::clone(&progress);
        let worker_path = path.clone();
        let handle = std::thread::Builder::new()
            .name("kepi-export".into())
            .spawn(move || {
                let report = |d: usize, t: usize| worker_progress.report(d, t);
                run(kind, &payload, &worker_path, paper, &report).map_err(|e| e.to_string())
            })
            .map_err(|e| format!("could not start the export: {e}"))?;
        Ok(ExportJob {
            kind,
            path,
            progress,
            handle: Some(handle),
        })
    }

    /// True once the worker has finished (successfully or not).
    pub fn is_finished(&self) -> bool {
        self.handle.as_ref().is_none_or(|h| h.is_finished())
    }

    /// The result once the worker has finished; `None` while it runs. A worker that panicked is
    /// reported as a failed export (and the target file, written atomically, is untouched).
    pub fn poll(&mut self) -> Option<Result<String, String>> {
        if !self.is_finished() {
            return None;
        }
        let handle = self.handle.take()?;
        Some(handle.join().unwrap_or_else(|_| {
            Err(format!(
                "{} failed unexpectedly; {} was not changed",
                self.kind.label(),
                self.path.display()
            ))
        }))
    }
}

impl Drop for ExportJob {
    /// Closing the window mid-export lets the export finish rather than cutting it off (the target
    /// would be safe either way, being written atomically, but the user asked for the file).
    fn drop(&mut self) {
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// The export dialog's fields.
#[derive(Clone, Debug)]
pub struct ExportDialog {
    /// Shown.
    pub open: bool,
    /// What to export.
    pub kind: ExportKind,
    /// The path typed or picked.
    pub path: String,
}

impl Default for ExportDialog {
    fn default() -> Self {
        ExportDialog {
            open: false,
            kind: ExportKind::RosterPdf,
            path: String::new(),
        }
    }
}

impl ExportDialog {
    /// Opens the dialog on `kind`, offering a file name in `folder` (the game's own, or the last
    /// one a dialog chose: [`super::state::AppState::dialog_folder`]), or in the working folder
    /// when none is given.
    pub fn show_for(&mut self, kind: ExportKind, folder: Option<&Path>) {
        self.path = default_path(kind, folder);
        self.kind = kind;
        self.open = true;
    }
}

/// `kind`'s default file name in `folder`, or bare (the working folder) when there is none.
fn default_path(kind: ExportKind, folder: Option<&Path>) -> String {
    let name = kind.default_name();
    match folder.filter(|p| !p.as_os_str().is_empty()) {
        Some(folder) => folder.join(name).display().to_string(),
        None => name.to_string(),
    }
}

fn browse(kind: ExportKind, current: &str) -> Option<PathBuf> {
    let start = Path::new(current);
    let mut dialog = rfd::FileDialog::new();
    if let Some(dir) = start.parent().filter(|p| !p.as_os_str().is_empty()) {
        dialog = dialog.set_directory(dir);
    }
    if kind.is_folder() {
        return dialog.pick_folder();
    }
    if let Some(ext) = kind.extension() {
        dialog = dialog.add_filter(kind.label(), &[ext]);
    }
    dialog.set_file_name(kind.default_name()).save_file()
}

/// File menu entries that open the export dialog.
pub fn export_menu_ui(ui: &mut Ui, view: &View, out: &mut Vec<Command>) {
    let busy = view.exporting;
    let mut item = |ui: &mut Ui, label: &str, kind: ExportKind| {
        let b = ui
            .add_enabled(!busy, egui::Button::new(label))
            .on_disabled_hover_text("an export is running");
        if b.clicked() {
            out.push(Command::ShowExport(kind));
            ui.close();
        }
    };
    item(ui, "Print roster…", ExportKind::RosterPdf);
    item(ui, "Export cards…", ExportKind::CardsPdf);
    item(ui, "Battle report…", ExportKind::ReportPdf);
    item(ui, "Export CSV…", ExportKind::UnitsCsv);
}

impl ExportDialog {
    /// The dialog (a window over the workspace), drawn from its own fields; while `running`, the
    /// job's progress in place of Export. The paper is the user's setting, kept between runs.
    pub fn ui(
        &mut self,
        ctx: &egui::Context,
        running: Option<&ExportJob>,
        paper: &mut Paper,
        out: &mut Vec<Command>,
    ) {
        if !self.open {
            return;
        }
        let mut open = true;
        egui::Window::new("Print and export")
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .default_width(420.0)
            .show(ctx, |ui| {
                ui.label("What to write:");
                for kind in ExportKind::ALL {
                    let before = self.kind;
                    if ui.radio_value(&mut self.kind, kind, kind.label()).clicked()
                        && before != kind
                    {
                        // Keep the folder the user chose, switch the name and extension.
                        self.path = default_path(kind, Path::new(&self.path).parent());
                    }
                }
                ui.separator();
                let kind = self.kind;
                if kind.uses_paper() {
                    ui.horizontal(|ui| {
                        ui.label("Paper:");
                        for p in Paper::ALL {
                            ui.radio_value(paper, p, p.to_string());
                        }
                    });
                }
                ui.horizontal(|ui| {
                    let label = ui.label(if kind.is_folder() { "Folder:" } else { "File:" });
                    super::keys::field(
                        ui,
                        egui::TextEdit::singleline(&mut self.path).desired_width(260.0),
                        "export_path",
                    )
                    .labelled_by(label.id);
                    if ui.button("Browse…").clicked()
                        && let Some(p) = browse(kind, &self.path)
                    {
                        self.path = p.display().to_string();
                    }
                });
                let path = self.path.trim().to_string();
                match running {
                    Some(job) => {
                        let (done, total) = job.progress.get();
                        ui.add(
                            egui::ProgressBar::new(job.progress.fraction())
                                .show_percentage()
                                .text(format!("{} {done}/{total}", job.kind.verb())),
                        );
                    }
                    None => {
                        let go = ui.add_enabled(!path.is_empty(), egui::Button::new("Export"));
                        if go.clicked() {
                            out.push(Command::Export {
                                kind,
                                path: PathBuf::from(path),
                            });
                        }
                    }
                }
            });
        if !open {
            self.open = false;
        }
    }
}

/// The progress bar in the status line while an export runs.
pub fn export_progress_ui(ui: &mut Ui, running: Option<&ExportJob>) -> bool {
    let Some(job) = running else {
        return false;
    };
    let (done, total) = job.progress.get();
    ui.spinner();
    ui.add(
        egui::ProgressBar::new(job.progress.fraction())
            .desired_width(220.0)
            .text(format!("{} {done}/{total}", job.kind.verb())),
    );
    true
}
