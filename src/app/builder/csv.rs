//! File > Import units from CSV… (issue 43): a spreadsheet's file read, each card field matched
//! to a column (by name as `kepi cards import` does, or as the last file was mapped), the first
//! rows shown as the cards they make with their errors, and every row added to the open order of
//! battle (a row with an error comes in with it, to be fixed in the form).

use std::path::PathBuf;

use egui::{RichText, Ui};

use kepi_game::roster::Field;
use kepi_game::roster::builder::Op;
use kepi_game::roster::csv_import::{
    Csv, Import, Mapping, cell_text, has_column, import, match_columns, read_csv,
};

use super::BuilderWindow;

/// Rows the preview shows.
pub const PREVIEW_ROWS: usize = 5;

/// The import's state while its window is open.
#[derive(Default)]
pub struct CsvImport {
    /// The file field.
    pub file_text: String,
    /// The file read.
    csv: Option<(PathBuf, Csv)>,
    /// Field -> column index.
    pub columns: Vec<(Field, Option<usize>)>,
    /// What went wrong reading.
    pub error: Option<String>,
    /// Every row checked under the mapping chosen: made again when the file is read or a
    /// column is picked, not every frame (a 2,000-row file is 2,000 cards checked).
    result: Option<Import>,
}

impl CsvImport {
    /// Reads `path` and maps its columns: as `remembered` (field key, header) says where the file
    /// has that header, else by name.
    pub fn read(
        &mut self,
        path: &std::path::Path,
        spec: &kepi_game::roster::CardSpec,
        remembered: &[(String, String)],
    ) {
        let bytes = match kepi_game::fsio::read_regular(
            path,
            kepi_game::roster::csv_import::MAX_CSV_BYTES as u64,
            "CSV file",
        ) {
            Ok(b) => b,
            Err(e) => {
                self.error = Some(e.message());
                return;
            }
        };
        let csv = match read_csv(&path.display().to_string(), &bytes) {
            Ok(c) => c,
            Err(e) => {
                self.error = Some(e.to_string());
                return;
            }
        };
        let chosen: Vec<(Field, String)> = remembered
            .iter()
            .filter_map(|(f, h)| Some((Field::from_key(f)?, h.clone())))
            .filter(|(_, h)| has_column(&csv.header.cells, h))
            .collect();
        // The remembered columns this file has (a header it lacks is not an error here), else
        // by name as `kepi cards import` matches them.
        let mapping = match_columns(&csv.header.cells, &chosen, spec)
            .or_else(|_| match_columns(&csv.header.cells, &[], spec))
            .unwrap_or_default();
        self.columns = spec
            .fields
            .iter()
            .map(|f| (f.field, mapping.column(f.field)))
            .collect();
        self.error = None;
        self.csv = Some((path.to_path_buf(), csv));
        self.result = None;
    }

    fn mapping(&self) -> Mapping {
        let mut columns: Vec<(Field, usize)> = self
            .columns
            .iter()
            .filter_map(|(f, c)| Some((*f, (*c)?)))
            .collect();
        columns.sort();
        Mapping {
            columns,
            ignored: Vec::new(),
        }
    }

    /// The mapping as (field key, header), to remember for the next file.
    pub fn remembered(&self) -> Vec<(String, String)> {
        let Some((_, csv)) = &self.csv else {
            return Vec::new();
        };
        self.columns
            .iter()
            .filter_map(|(f, c)| {
                let h = csv.header.cells.get((*c)?)?;
                Some((f.key().to_string(), h.text.clone()))
            })
            .collect()
    }

    /// Every row's cards, as the builder's drafts take them.
    pub fn cards(&self) -> Vec<Vec<(Field, String)>> {
        let Some((_, csv)) = &self.csv else {
            return Vec::new();
        };
        csv.rows
            .iter()
            .map(|row| {
                self.columns
                    .iter()
                    .filter_map(|(f, c)| {
                        let cell = row.cells.get((*c)?)?;
                        Some((*f, cell_text(*f, cell).to_string()))
                    })
                    .collect()
            })
            .collect()
    }

    /// The window; false once it is closed. `remembered` is the mapping kept between files.
    pub fn ui(
        &mut self,
        ctx: &egui::Context,
        builder: &mut BuilderWindow,
        remembered: &mut Vec<(String, String)>,
    ) -> bool {
        let mut open = true;
        let mut done = false;
        egui::Window::new("Import units from CSV")
            .id(egui::Id::unique("builder_csv"))
            .open(&mut open)
            .default_size([760.0, 520.0])
            .show(ctx, |ui| {
                done = self.body(ui, builder, remembered);
            });
        open && !done
    }

    fn body(
        &mut self,
        ui: &mut Ui,
        builder: &mut BuilderWindow,
        remembered: &mut Vec<(String, String)>,
    ) -> bool {
        let Some(oob) = builder.oob.as_ref() else {
            ui.label("Open or create an order of battle first.");
            return false;
        };
        let system = oob.header.system;
        ui.horizontal(|ui| {
            let l = ui.label("CSV file");
            ui.add(
                egui::TextEdit::singleline(&mut self.file_text)
                    .id_salt("builder_csv_file")
                    .desired_width(360.0)
                    .hint_text("my-collection.csv"),
            )
            .labelled_by(l.id);
            if ui.button("Read").clicked() {
                let p = PathBuf::from(self.file_text.trim());
                self.read(&p, &oob.spec, remembered);
            }
        });
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        let Some((path, csv)) = &self.csv else {
            return false;
        };
        let headers = &csv.header.cells;
        let mut picked = false;
        ui.label(RichText::new("Which column is each field:").strong());
        egui::ScrollArea::vertical()
            .id_salt("builder_csv_map")
            .max_height(200.0)
            .show(ui, |ui| {
                egui::Grid::new("builder_csv_grid")
                    .num_columns(2)
                    .show(ui, |ui| {
                        for (f, col) in &mut self.columns {
                            let label = oob.spec.field(*f).map_or(f.key(), |s| s.label);
                            let l = ui.label(label);
                            let shown = col
                                .and_then(|c| headers.get(c))
                                .map_or("(none)", |h| h.text.as_str());
                            egui::ComboBox::from_id_salt(("builder_csv_col", *f))
                                .selected_text(shown)
                                .show_ui(ui, |ui| {
                                    picked |= ui.selectable_value(col, None, "(none)").changed();
                                    for (k, h) in headers.iter().enumerate() {
                                        picked |= ui
                                            .selectable_value(col, Some(k), h.text.as_str())
                                            .changed();
                                    }
                                })
                                .response
                                .labelled_by(l.id);
                            ui.end_row();
                        }
                    });
            });
        let file = path.display().to_string();
        if picked {
            self.result = None;
        }
        let mapping = self.mapping();
        let result = self
            .result
            .get_or_insert_with(|| import(&file, csv, &mapping, system, path.parent()));
        let bad = result.errors().count();
        ui.label(RichText::new(format!(
            "{} rows, {} with an error (they come in with it, to fix in the form). The first rows:",
            result.rows.len(),
            bad
        )));
        for r in result.rows.iter().take(PREVIEW_ROWS) {
            match &r.unit {
                Ok(u) => {
                    ui.label(format!(
                        "row {}: {} ({}, {}, {} {})",
                        r.row,
                        u.name,
                        u.side.title(),
                        u.arm,
                        u.strength,
                        oob.strength_unit()
                    ));
                }
                Err(e) => {
                    ui.colored_label(
                        ui.visuals().error_fg_color,
                        format!("row {}: {}: {}", r.row, e.field, e.message),
                    );
                }
            }
        }
        let n = result.rows.len();
        if ui
            .add_enabled(n > 0, egui::Button::new(format!("Import {n} rows")))
            .clicked()
        {
            *remembered = self.remembered();
            let cards = self.cards();
            if let Some(oob) = builder.oob.as_mut() {
                match oob.apply(Op::AddCards { cards }) {
                    Ok(_) => {
                        builder.status = Some((format!("imported {n} rows from {file}"), false));
                    }
                    Err(e) => builder.status = Some((e, true)),
                }
            }
            return true;
        }
        false
    }
}
