//! The order-of-battle builder's window (issue 43): File > New battle… and File > Edit order of
//! battle…. A tree of the sides, armies, corps, divisions and brigades on the left, the selected
//! unit's form on the right with the fields its rule set's card gives ([`CardSpec`]) and each
//! field's error beside it, the totals in a strip, every error listed at the foot one click from
//! its field, and Save, Start this battle and Print roster. The model is
//! [`kepi_game::roster::builder`]; this module draws it and names no rule set.
//!
//! A unit or a formation is moved by dragging it in the tree onto another formation (or onto a
//! unit of it): the same undoable move as Cut and Paste.
//!
//! Keys: Ctrl+Z and Ctrl+Y (or Ctrl+Shift+Z) undo and redo in the builder while it is open
//! ([`BuilderWindow::keys`]); no bare letter does anything here, so typing in a field only types.
//! Every widget's id comes from the unit's stable key, not its place in the list.

pub mod csv;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use egui::{RichText, Ui};

use kepi_game::roster::builder::{Key, Level, NodePath, Op, OrderOfBattle};
use kepi_game::roster::spec::{FieldSpec, Kind};
use kepi_game::roster::{Field, Scenario, Side};
use kepi_game::rules::RuleSetId;

use crate::state::Command;

/// What the builder is asked to open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opening {
    /// File > New battle…: the rule set, name and sides asked first.
    New,
    /// File > Edit order of battle…: the current game's units.
    Current,
    /// File > Import units from CSV…: into the open order of battle (the current game's when
    /// none is open).
    Csv,
}

/// What is selected in the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selection {
    /// A unit, by its stable key.
    Unit(Key),
    /// A node.
    Node(NodePath),
}

/// File > New battle…'s questions.
#[derive(Clone, Debug)]
pub struct NewBattle {
    /// The rule set chosen.
    pub system: RuleSetId,
    /// The scenario's name.
    pub name: String,
    /// The sides, in order of play.
    pub sides: Vec<Side>,
}

/// The builder window and what it holds.
#[derive(Default)]
pub struct BuilderWindow {
    /// Shown.
    pub open: bool,
    /// The order of battle being built (None while File > New battle… asks its questions).
    pub oob: Option<OrderOfBattle>,
    /// File > New battle…'s questions, while asked.
    pub new_battle: Option<NewBattle>,
    /// The card file it was opened from or saved to.
    pub path: Option<PathBuf>,
    /// That file's text as opened (its comments are kept when saved over), and the scenario it
    /// reads as where its cards are all good (the save then does not read the text again:
    /// [`kepi_game::roster::write::save_over_opened`]).
    original: Option<(String, Option<Scenario>)>,
    /// The file field (open, save as, print to).
    pub file_text: String,
    /// Selected in the tree.
    pub selected: Option<Selection>,
    /// Cut, waiting to be pasted under another node.
    pub cut: Option<Selection>,
    /// Closed nodes of the tree.
    collapsed: HashSet<NodePath>,
    /// The tree's rows as last drawn, with the document's revision and whether any node was
    /// closed or opened since ([`BuilderWindow::rows`]): a frame with no edit reuses them.
    rows_cache: Option<(u64, std::sync::Arc<[Row]>)>,
    /// The name typed for a rename or a new node.
    pub name_text: String,
    /// A field to give the keyboard to (an error's link was clicked).
    focus: Option<(Key, Field)>,
    /// What the builder last said.
    pub status: Option<(String, bool)>,
    /// File > Import units from CSV…, while open.
    pub csv: Option<csv::CsvImport>,
    /// "Use these troops with another rule set…": the rule set picked, while asked.
    pub convert_to: Option<RuleSetId>,
}

/// A row of the tree as drawn: a node or a unit, at a depth.
#[derive(Clone, Copy, Debug)]
enum Row {
    Node(usize, usize),
    Unit(usize, usize),
}

impl BuilderWindow {
    /// Opens the builder as asked, on `current` (the game's scenario, for [`Opening::Current`]).
    pub fn show(&mut self, opening: Opening, current: Option<Scenario>) {
        self.open = true;
        match opening {
            Opening::New => {
                let system = kepi_game::registry::all()
                    .first()
                    .copied()
                    .or(current.as_ref().and_then(|s| s.system));
                if let Some(system) = system {
                    self.new_battle = Some(NewBattle {
                        system,
                        name: "my-battle".into(),
                        sides: vec![Side::German, Side::French],
                    });
                }
                self.oob = None;
            }
            Opening::Current => {
                if let Some(s) = current {
                    self.load(OrderOfBattle::from_scenario(&s, None), None, None);
                }
            }
            Opening::Csv => {
                if self.oob.is_none()
                    && let Some(s) = current
                {
                    self.load(OrderOfBattle::from_scenario(&s, None), None, None);
                }
                self.new_battle = None;
                self.csv = Some(csv::CsvImport::default());
            }
        }
    }

    /// Puts `oob` in the builder, from `path` (its text `original`).
    pub fn load(&mut self, oob: OrderOfBattle, path: Option<PathBuf>, original: Option<String>) {
        self.oob = Some(oob);
        self.new_battle = None;
        self.file_text = path
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        self.path = path;
        let opened = original
            .as_ref()
            .and_then(|_| self.oob.as_ref()?.to_scenario().ok());
        self.original = original.map(|text| (text, opened));
        self.selected = None;
        self.cut = None;
        self.collapsed.clear();
        self.rows_cache = None;
        self.open = true;
    }

    /// Opens a card file: its cards as the builder's, each with its errors.
    pub fn open_file(&mut self, path: &Path) -> Result<(), String> {
        let text = kepi_game::fsio::read_regular_string(
            path,
            kepi_game::tables::MAX_FILE_BYTES,
            "card file",
        )
        .map_err(|e| e.message())?;
        let dir = path.parent().map(Path::to_path_buf);
        let oob = OrderOfBattle::from_source(&path.display().to_string(), &text, dir.as_deref())
            .map_err(|e| e.to_string())?;
        self.load(oob, Some(path.to_path_buf()), Some(text));
        Ok(())
    }

    /// Saves to `path` as the `[[unit]]` TOML a person would write; over the file it was opened
    /// from, that file's comments are kept. While a card has an error the cards are saved as they
    /// stand, each error a `# TO FILL:` line ([`OrderOfBattle::draft_toml`]), written afresh: the
    /// opened file's own comments are not kept in such a draft.
    pub fn save_to(&mut self, path: &Path) -> Result<String, String> {
        let oob = self.oob.as_ref().ok_or("nothing to save")?;
        let s = match oob.to_scenario() {
            Ok(s) => s,
            // Work in progress is saved too (a conversion's fields still to ask, a card half
            // typed): the cards as they stand, each error a `# TO FILL:` line above its card,
            // which the builder opens again as it was. Nothing is lost for want of a value.
            Err(n) => {
                let text = oob.draft_toml();
                kepi_game::fsio::write_output(path, text.as_bytes()).map_err(|e| e.message())?;
                let said = format!(
                    "saved {} to {} with {} to fix (the file's `# TO FILL:` lines say which); \
                     the battle starts once they are fixed",
                    kepi_game::rules::count(oob.len(), "unit", "units"),
                    path.display(),
                    errors_word(n)
                );
                self.path = Some(path.to_path_buf());
                self.original = Some((text, None));
                return Ok(said);
            }
        };
        let dir = path.parent();
        let same = self.path.as_deref() == Some(path);
        let text = match (&self.original, same) {
            (Some((orig, Some(old))), true) => {
                kepi_game::roster::write::save_over_opened(orig, old, &s, dir)
            }
            (Some((orig, None)), true) => kepi_game::roster::write::save_over(orig, &s, dir),
            _ => kepi_game::roster::write::to_toml_in(&s, dir),
        };
        kepi_game::fsio::write_output(path, text.as_bytes()).map_err(|e| e.message())?;
        self.path = Some(path.to_path_buf());
        let said = format!(
            "saved {} to {}",
            kepi_game::rules::count(s.units.len(), "unit", "units"),
            path.display()
        );
        self.original = Some((text, Some(s)));
        Ok(said)
    }

    /// Applies `op` and says when it could not be done.
    fn apply(&mut self, op: Op) {
        let Some(oob) = self.oob.as_mut() else {
            return;
        };
        match oob.apply(op) {
            Ok(Some(key)) => {
                self.selected = Some(Selection::Unit(key));
                self.status = None;
            }
            Ok(None) => self.status = None,
            Err(e) => self.status = Some((e, true)),
        }
    }

    /// Ctrl+Z and Ctrl+Y (Ctrl+Shift+Z) while the builder is open: taken before the game's own
    /// shortcuts, so they undo the builder, not the game.
    pub fn keys(&mut self, ctx: &egui::Context) {
        if !self.open {
            return;
        }
        let Some(oob) = self.oob.as_mut() else {
            return;
        };
        let (undo, redo) = ctx.input_mut(|i| {
            let undo = i.consume_key(egui::Modifiers::COMMAND, egui::Key::Z);
            let redo = i.consume_key(egui::Modifiers::COMMAND, egui::Key::Y)
                || i.consume_key(
                    egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
                    egui::Key::Z,
                );
            (undo, redo)
        });
        if undo {
            oob.undo();
        }
        if redo {
            oob.redo();
        }
    }

    /// Draws the window; the game's commands (start, print) go to `out`.
    pub fn ui(
        &mut self,
        ctx: &egui::Context,
        remembered: &mut Vec<(String, String)>,
        out: &mut Vec<Command>,
    ) {
        if !self.open {
            return;
        }
        let mut open = true;
        let screen = ctx.content_rect();
        egui::Window::new("Order of battle")
            .id(egui::Id::unique("builder_window"))
            .open(&mut open)
            // One place and one size whatever it shows: a window sized by its content grew past
            // the screen's foot once a unit's form opened and egui moved it up under the pointer
            // (seen at 1366x768); the tree and the form scroll inside it.
            .fixed_pos(screen.min + egui::vec2(20.0, 30.0))
            .fixed_size([
                (screen.width() - 40.0).max(600.0),
                (screen.height() - 90.0).max(400.0),
            ])
            .collapsible(false)
            .show(ctx, |ui| {
                if self.new_battle.is_some() {
                    self.new_battle_ui(ui);
                } else if self.oob.is_some() {
                    self.builder_ui(ui, out);
                } else {
                    ui.label("Nothing open: File > New battle… or open a card file below.");
                    self.file_row(ui, out);
                }
            });
        self.open = open;
        if let Some(mut c) = self.csv.take() {
            let keep = c.ui(ctx, self, remembered);
            if keep {
                self.csv = Some(c);
            }
        }
    }

    /// File > New battle…: rule set, name, sides.
    fn new_battle_ui(&mut self, ui: &mut Ui) {
        let Some(nb) = self.new_battle.as_mut() else {
            return;
        };
        ui.heading("New battle");
        egui::Grid::new("builder_new")
            .num_columns(2)
            .show(ui, |ui| {
                let l = ui.label("Rule set");
                egui::ComboBox::from_id_salt("builder_new_rules")
                    .selected_text(nb.system.title())
                    .show_ui(ui, |ui| {
                        for s in kepi_game::registry::all() {
                            ui.selectable_value(&mut nb.system, s, s.title());
                        }
                    })
                    .response
                    .labelled_by(l.id);
                ui.end_row();
                ui.label("Name");
                ui.add(
                    egui::TextEdit::singleline(&mut nb.name)
                        .id_salt("builder_new_name")
                        .hint_text("lower-case, e.g. spicheren"),
                );
                ui.end_row();
                ui.label("Sides");
                ui.horizontal(|ui| {
                    for side in Side::ALL {
                        let mut on = nb.sides.contains(side);
                        if ui.checkbox(&mut on, side.title()).changed() {
                            if on {
                                nb.sides.push(*side);
                            } else {
                                nb.sides.retain(|s| s != side);
                            }
                        }
                    }
                });
                ui.end_row();
            });
        let name = kepi_game::roster::slug(&nb.name);
        let ok = !name.is_empty() && !nb.sides.is_empty();
        if !ok {
            ui.colored_label(
                ui.visuals().error_fg_color,
                "a name (letters or digits) and at least one side",
            );
        }
        if ui
            .add_enabled(ok, egui::Button::new("Create the battle"))
            .clicked()
        {
            let oob = OrderOfBattle::new_battle(Some(nb.system), &name, nb.sides.clone());
            self.load(oob, None, None);
        }
    }

    /// The file row: the file, Open, Save, Save as.
    fn file_row(&mut self, ui: &mut Ui, _out: &mut Vec<Command>) {
        ui.horizontal(|ui| {
            let label = ui.label("File");
            ui.add(
                egui::TextEdit::singleline(&mut self.file_text)
                    .id_salt("builder_file")
                    .desired_width(320.0)
                    .hint_text("unit-cards/my-battle.toml"),
            )
            .labelled_by(label.id);
            let typed = PathBuf::from(self.file_text.trim());
            let has = !self.file_text.trim().is_empty();
            if ui
                .add_enabled(has, egui::Button::new("Open"))
                .on_hover_text("open this card file in the builder")
                .clicked()
            {
                self.status = Some(match self.open_file(&typed) {
                    Ok(()) => (format!("opened {}", typed.display()), false),
                    Err(e) => (e, true),
                });
            }
            // Saved with its errors too (as `# TO FILL:` lines): only starting waits for them.
            let can_save = self.oob.is_some();
            if let Some(path) = self.path.clone()
                && ui
                    .add_enabled(can_save, egui::Button::new("Save"))
                    .on_hover_text(format!("save to {}", path.display()))
                    .clicked()
            {
                self.status = Some(match self.save_to(&path) {
                    Ok(m) => (m, false),
                    Err(e) => (e, true),
                });
            }
            if ui
                .add_enabled(can_save && has, egui::Button::new("Save as"))
                .on_hover_text("save to the file named here")
                .clicked()
            {
                self.status = Some(match self.save_to(&typed) {
                    Ok(m) => (m, false),
                    Err(e) => (e, true),
                });
            }
        });
    }

    /// The builder: the bar, the totals, the tree, the form, the errors.
    fn builder_ui(&mut self, ui: &mut Ui, out: &mut Vec<Command>) {
        self.file_row(ui, out);
        self.action_row(ui, out);
        // One line always, said or not: a line that came with a save or an open moved the tree
        // and the form under the pointer (seen at 1366x768).
        let line = match &self.status {
            Some((text, error)) => {
                let color = if *error {
                    ui.visuals().error_fg_color
                } else {
                    ui.visuals().text_color()
                };
                RichText::new(text.as_str()).color(color)
            }
            None => RichText::new(
                "Pick a row to edit it; drag a row onto a formation to move it there.",
            )
            .weak(),
        };
        ui.add(egui::Label::new(line).truncate());
        self.totals_strip(ui);
        ui.separator();
        // The error list's room: its heading and up to four errors (it scrolls past them), one
        // line when there are none, so the tree and the form reach down to it.
        let n = self.oob.as_ref().map_or(0, |o| o.errors().len());
        let line = ui.spacing().interact_size.y + ui.spacing().item_spacing.y;
        let lines = if n == 0 { 1.0 } else { 1.0 + n.min(4) as f32 };
        let errors_h = (line * lines + 12.0).min(ui.available_height() * 0.3);
        let body_h = (ui.available_height() - errors_h).max(120.0);
        ui.horizontal_top(|ui| {
            ui.set_min_height(body_h);
            ui.vertical(|ui| {
                ui.set_width(380.0_f32.min(ui.available_width() * 0.45));
                ui.set_max_height(body_h);
                // The buttons take two rows whatever is selected ("Add corps" comes and goes),
                // so the tree never moves under the pointer (seen at 1366x768: a row clicked
                // after an add landed on the row above).
                let rows = ui.spacing().interact_size.y * 2.0 + ui.spacing().item_spacing.y;
                let w = ui.available_width();
                ui.allocate_ui_with_layout(
                    egui::vec2(w, rows),
                    egui::Layout::top_down(egui::Align::Min),
                    |ui| {
                        ui.set_min_size(egui::vec2(w, rows));
                        ui.set_max_height(rows);
                        self.tree_buttons(ui);
                    },
                );
                self.tree_ui(ui, body_h - rows - 4.0);
            });
            ui.separator();
            ui.vertical(|ui| {
                ui.set_max_height(body_h);
                egui::ScrollArea::vertical()
                    .id_salt("builder_form")
                    .max_height(body_h)
                    .auto_shrink([false, false])
                    .show(ui, |ui| self.detail_ui(ui));
            });
        });
        ui.separator();
        self.errors_ui(ui);
    }

    /// Undo, redo, start, print, import.
    fn action_row(&mut self, ui: &mut Ui, out: &mut Vec<Command>) {
        let Some(oob) = self.oob.as_mut() else {
            return;
        };
        ui.horizontal(|ui| {
            let undo = oob.can_undo();
            if ui
                .add_enabled(undo.is_some(), egui::Button::new("Undo"))
                .on_hover_text(format!(
                    "Ctrl+Z: {}",
                    undo.as_deref().unwrap_or("nothing to undo")
                ))
                .clicked()
            {
                oob.undo();
            }
            let redo = oob.can_redo();
            if ui
                .add_enabled(redo.is_some(), egui::Button::new("Redo"))
                .on_hover_text(format!(
                    "Ctrl+Y: {}",
                    redo.as_deref().unwrap_or("nothing to redo")
                ))
                .clicked()
            {
                oob.redo();
            }
            ui.separator();
            let n = oob.errors().len();
            let start = ui
                .add_enabled(
                    n == 0 && !oob.is_empty(),
                    egui::Button::new("Start this battle"),
                )
                .on_hover_text("a new game with these units, as File > New from unit-card file");
            if n > 0 {
                ui.colored_label(
                    ui.visuals().error_fg_color,
                    format!("{} to fix", errors_word(n)),
                );
            }
            if start.clicked()
                && let Ok(s) = oob.to_scenario()
            {
                out.push(Command::StartBattle(Box::new(s)));
                self.open = false;
            }
            let ready = n == 0 && !oob.is_empty();
            let print = ui
                .add_enabled(ready, egui::Button::new("Print roster"))
                .on_hover_text(
                    "the roster as a PDF, beside the file named above (NAME-roster.pdf)",
                );
            let cards = ui
                .add_enabled(ready, egui::Button::new("Export cards"))
                .on_hover_text(
                    "the unit cards, sheets of nine, as a PDF beside the file named above \
                     (NAME-cards.pdf)",
                );
            let kind = if print.clicked() {
                Some((crate::exports::ExportKind::RosterPdf, "roster"))
            } else if cards.clicked() {
                Some((crate::exports::ExportKind::CardsPdf, "cards"))
            } else {
                None
            };
            if let Some((kind, what)) = kind
                && let Ok(s) = oob.to_scenario()
            {
                let dir = self
                    .path
                    .as_deref()
                    .and_then(Path::parent)
                    .map(Path::to_path_buf)
                    .unwrap_or_else(|| {
                        PathBuf::from(self.file_text.trim())
                            .parent()
                            .map(Path::to_path_buf)
                            .unwrap_or_default()
                    });
                let name = if s.name.is_empty() {
                    what.to_string()
                } else {
                    format!("{}-{what}", s.name)
                };
                out.push(Command::PrintBattle {
                    scenario: Box::new(s),
                    path: dir.join(format!("{name}.pdf")),
                    kind,
                });
            }
            ui.separator();
            if ui.button("Import units from CSV…").clicked() {
                self.csv = Some(csv::CsvImport::default());
            }
            let others: Vec<RuleSetId> = kepi_game::registry::all()
                .into_iter()
                .filter(|s| Some(*s) != oob.header.system)
                .collect();
            if ui
                .add_enabled(
                    !others.is_empty(),
                    egui::Button::new("Use these troops with another rule set…"),
                )
                .on_hover_text(
                    "a copy of this order of battle for another rule set: what means the same is \
                     carried over, the rest is left for you to fill, each at its field",
                )
                .clicked()
            {
                self.convert_to = others.first().copied();
            }
        });
        self.convert_row(ui);
    }

    /// The rule set to convert to, and Convert: the copy opens as a new, unsaved order of
    /// battle ([`OrderOfBattle::convert`]).
    fn convert_row(&mut self, ui: &mut Ui) {
        let Some(mut to) = self.convert_to else {
            return;
        };
        let Some(oob) = self.oob.as_ref() else {
            return;
        };
        let mut go = false;
        let mut cancel = false;
        ui.horizontal(|ui| {
            let l = ui.label("Convert to");
            egui::ComboBox::from_id_salt("builder_convert_to")
                .selected_text(to.title())
                .show_ui(ui, |ui| {
                    for s in kepi_game::registry::all() {
                        if Some(s) != oob.header.system {
                            ui.selectable_value(&mut to, s, s.title());
                        }
                    }
                })
                .response
                .labelled_by(l.id);
            go = ui
                .button("Convert")
                .on_hover_text("opens the copy here as a new battle; Save as keeps it")
                .clicked();
            cancel = ui.button("Cancel").clicked();
        });
        self.convert_to = Some(to);
        if cancel {
            self.convert_to = None;
        }
        if go {
            let (copy, report) = oob.convert(to);
            let n = copy.errors().len();
            let mut said = format!(
                "a copy for {}: {} carried, {} to fill",
                to.title(),
                kepi_game::rules::count(report.carried, "field", "fields"),
                n
            );
            if !report.dropped.is_empty() {
                let dropped: Vec<&str> = report.dropped.keys().map(|f| f.key()).collect();
                said.push_str(&format!("; not on its card: {}", dropped.join(", ")));
            }
            self.load(copy, None, None);
            self.convert_to = None;
            self.status = Some((said, n > 0));
        }
    }

    /// Units and strength per side, and under the selected node.
    fn totals_strip(&self, ui: &mut Ui) {
        let Some(oob) = &self.oob else {
            return;
        };
        let word = oob.strength_unit();
        let tree = oob.tree();
        ui.horizontal_wrapped(|ui| {
            let title = if oob.header.title.is_empty() {
                oob.header.name.as_str()
            } else {
                oob.header.title.as_str()
            };
            ui.label(RichText::new(format!("{title} ({})", oob.spec.title)).strong());
            for &r in &tree.roots {
                let n = &tree.nodes[r];
                ui.separator();
                ui.label(format!(
                    "{}: {}, {} {word}",
                    n.path.label(),
                    kepi_game::rules::count(n.totals.units, "unit", "units"),
                    n.totals.strength
                ));
            }
            if let Some(Selection::Node(p)) = &self.selected
                && !p.levels.is_empty()
                && let Some(n) = tree.find(p)
            {
                ui.separator();
                ui.label(format!(
                    "{}: {}, {} {word}",
                    p.name(),
                    kepi_game::rules::count(n.totals.units, "unit", "units"),
                    n.totals.strength
                ));
            }
        });
    }

    /// The node a new unit or node goes under: the selected node, or the selected unit's.
    fn selected_parent(&self) -> Option<NodePath> {
        let oob = self.oob.as_ref()?;
        match &self.selected {
            Some(Selection::Node(p)) => Some(p.clone()),
            Some(Selection::Unit(k)) => oob.draft(*k).map(|d| d.path()),
            None => oob
                .tree()
                .roots
                .first()
                .map(|&r| oob.tree().nodes[r].path.clone()),
        }
    }

    /// The tree's buttons: add, duplicate, cut, paste, delete.
    fn tree_buttons(&mut self, ui: &mut Ui) {
        let parent = self.selected_parent();
        ui.horizontal_wrapped(|ui| {
            if ui
                .add_enabled(parent.is_some(), egui::Button::new("Add unit"))
                .clicked()
                && let Some(p) = parent.clone()
            {
                self.apply(Op::AddUnit { parent: p });
            }
            if let Some(p) = parent.clone()
                && let Some(level) = p.level().below()
                && ui
                    .button(format!("Add {}", level.title().to_lowercase()))
                    .on_hover_text(format!("a new {} under {}", level.title(), p.name()))
                    .clicked()
            {
                let name = fresh_node_name(self.oob.as_ref(), &p, level);
                self.apply(Op::AddNode { parent: p, name });
            }
            let node = match &self.selected {
                Some(Selection::Node(p)) if !p.levels.is_empty() => Some(p.clone()),
                _ => None,
            };
            if ui
                .add_enabled(node.is_some(), egui::Button::new("Duplicate"))
                .on_hover_text(
                    "a copy beside it, numbered on, its battalions renumbered I/, II/, III/",
                )
                .clicked()
                && let Some(n) = node.clone()
            {
                self.apply(Op::Duplicate { node: n });
            }
            let sel = self.selected.clone().filter(|s| match s {
                Selection::Node(p) => !p.levels.is_empty(),
                Selection::Unit(_) => true,
            });
            if ui
                .add_enabled(sel.is_some(), egui::Button::new("Cut"))
                .on_hover_text(
                    "then select where it goes and Paste (or drag it in the tree onto where it goes)",
                )
                .clicked()
            {
                self.cut = sel.clone();
            }
            if ui
                .add_enabled(
                    self.cut.is_some() && parent.is_some(),
                    egui::Button::new("Paste"),
                )
                .clicked()
                && let (Some(c), Some(to)) = (self.cut.take(), parent.clone())
            {
                let op = match c {
                    Selection::Unit(key) => Op::MoveUnit { key, to },
                    Selection::Node(node) => Op::MoveNode { node, to },
                };
                self.apply(op);
            }
            if ui
                .add_enabled(sel.is_some(), egui::Button::new("Delete"))
                .on_hover_text("undo with Ctrl+Z")
                .clicked()
                && let Some(s) = sel
            {
                let op = match s {
                    Selection::Unit(key) => Op::DeleteUnit { key },
                    Selection::Node(node) => Op::DeleteNode { node },
                };
                self.apply(op);
                self.selected = None;
            }
        });
    }

    /// The tree's rows, flattened as shown: built again only when the document changed (its
    /// revision) or a node was closed or opened, else the last frame's.
    fn rows(&mut self) -> std::sync::Arc<[Row]> {
        let revision = self.oob.as_ref().map_or(0, OrderOfBattle::revision);
        if let Some((r, rows)) = &self.rows_cache
            && *r == revision
        {
            return rows.clone();
        }
        let rows: std::sync::Arc<[Row]> = self.build_rows().into();
        self.rows_cache = Some((revision, rows.clone()));
        rows
    }

    /// The tree's rows, flattened as shown (closed nodes' rows left out).
    fn build_rows(&self) -> Vec<Row> {
        let Some(oob) = &self.oob else {
            return Vec::new();
        };
        let tree = oob.tree();
        let mut rows = Vec::with_capacity(oob.drafts().len() + tree.nodes.len());
        let mut stack: Vec<(usize, usize)> = tree.roots.iter().rev().map(|&r| (r, 0)).collect();
        while let Some((n, depth)) = stack.pop() {
            rows.push(Row::Node(n, depth));
            let node = &tree.nodes[n];
            if self.collapsed.contains(&node.path) {
                continue;
            }
            // Units first, then the nodes below (pushed in reverse onto the stack).
            for &c in node.children.iter().rev() {
                stack.push((c, depth + 1));
            }
            // Units are drawn right after the node, before its children: insert them now.
            for &u in &node.units {
                rows.push(Row::Unit(u, depth + 1));
            }
        }
        rows
    }

    /// The tree (only its visible rows are laid out: thousands of units draw in one frame).
    fn tree_ui(&mut self, ui: &mut Ui, height: f32) {
        let rows = self.rows();
        let row_h = ui.spacing().interact_size.y;
        let mut clicked: Option<Selection> = None;
        let mut toggle: Option<NodePath> = None;
        let mut menu_op: Option<Op> = None;
        let mut dropped: Option<(Selection, NodePath)> = None;
        egui::ScrollArea::vertical()
            .id_salt("builder_tree")
            .max_height(height.max(80.0))
            .auto_shrink([false, false])
            .show_rows(ui, row_h, rows.len(), |ui, range| {
                let Some(oob) = &self.oob else {
                    return;
                };
                let tree = oob.tree();
                let word = oob.strength_unit();
                for row in &rows[range] {
                    match *row {
                        Row::Node(n, depth) => {
                            let node = &tree.nodes[n];
                            let closed = self.collapsed.contains(&node.path);
                            ui.horizontal(|ui| {
                                ui.add_space(depth as f32 * 14.0);
                                let arrow = if closed { "⏵" } else { "⏷" };
                                if ui
                                    .add(egui::Button::new(arrow).frame(false).small())
                                    .on_hover_text(if closed { "open" } else { "close" })
                                    .clicked()
                                {
                                    toggle = Some(node.path.clone());
                                }
                                let level = node.path.level();
                                let text = format!(
                                    "{}: {}  ({}, {} {word})",
                                    level.title(),
                                    if level == Level::Side {
                                        node.path.label()
                                    } else {
                                        node.path.name().to_string()
                                    },
                                    node.totals.units,
                                    node.totals.strength
                                );
                                let sel = self.selected.as_ref()
                                    == Some(&Selection::Node(node.path.clone()));
                                let this = Selection::Node(node.path.clone());
                                // A side does not move; an army, corps, division or brigade
                                // is dragged by its name onto another node.
                                let r = ui.selectable_label(sel, RichText::new(text).strong());
                                let r = if level == Level::Side {
                                    r
                                } else {
                                    drag_source(ui, &r, &this, node.path.name())
                                };
                                drop_target(ui, &r, &node.path, &mut dropped);
                                if r.clicked() {
                                    clicked = Some(this);
                                }
                                r.context_menu(|ui| {
                                    node_menu(ui, &node.path, &mut menu_op, &mut clicked);
                                });
                            });
                        }
                        Row::Unit(i, depth) => {
                            let Some(d) = oob.draft_at(i) else {
                                continue;
                            };
                            ui.horizontal(|ui| {
                                ui.add_space(depth as f32 * 14.0 + 18.0);
                                let bad = oob.errors_of(d.key).next().is_some();
                                let mut text = RichText::new(format!(
                                    "{}  {} {}",
                                    d.label(),
                                    d.get(Field::Strength),
                                    d.get(Field::Arm)
                                ));
                                if bad {
                                    text = text.color(ui.visuals().error_fg_color);
                                }
                                let sel = self.selected == Some(Selection::Unit(d.key));
                                let r = ui.push_id(("builder_unit", d.key), |ui| {
                                    let r = ui.selectable_label(sel, text);
                                    drag_source(ui, &r, &Selection::Unit(d.key), d.label())
                                });
                                // Dropped on a unit: under that unit's node.
                                drop_target(ui, &r.inner, &d.path(), &mut dropped);
                                if r.inner.clicked() {
                                    clicked = Some(Selection::Unit(d.key));
                                }
                                r.inner.context_menu(|ui| {
                                    if ui.button("Cut").clicked() {
                                        clicked = Some(Selection::Unit(d.key));
                                        menu_op = None;
                                        ui.close();
                                    }
                                    if ui.button("Delete").clicked() {
                                        menu_op = Some(Op::DeleteUnit { key: d.key });
                                        ui.close();
                                    }
                                });
                            });
                        }
                    }
                }
            });
        if let Some(p) = toggle {
            if !self.collapsed.remove(&p) {
                self.collapsed.insert(p);
            }
            self.rows_cache = None;
        }
        if let Some(c) = clicked {
            if let Selection::Node(p) = &c {
                self.name_text = p.name().to_string();
            }
            self.selected = Some(c);
        }
        if let Some(op) = menu_op {
            self.apply(op);
        }
        if let Some((what, to)) = dropped {
            self.drop_on(what, to);
        }
    }

    /// A unit or node dropped on node `to`: moved there, one undoable edit (the same
    /// [`Op::MoveUnit`] and [`Op::MoveNode`] as Cut and Paste). Dropped where it already is:
    /// nothing.
    fn drop_on(&mut self, what: Selection, to: NodePath) {
        let Some(oob) = self.oob.as_ref() else {
            return;
        };
        match what {
            Selection::Unit(key) => {
                if oob.draft(key).is_none_or(|d| d.path() == to) {
                    return;
                }
                self.apply(Op::MoveUnit { key, to });
            }
            Selection::Node(node) => {
                if node.parent().as_ref() == Some(&to) || node == to {
                    return;
                }
                let moved = to.child(node.level(), node.name());
                self.apply(Op::MoveNode { node, to });
                if self.status.is_none() {
                    self.selected = Some(Selection::Node(moved));
                }
            }
        }
        self.cut = None;
    }

    /// The right side: the selected unit's form, or the selected node's rename.
    fn detail_ui(&mut self, ui: &mut Ui) {
        match self.selected.clone() {
            Some(Selection::Unit(key)) => self.form_ui(ui, key),
            Some(Selection::Node(p)) => self.node_ui(ui, &p),
            None => {
                ui.label("Select a side, a formation or a unit in the tree.");
            }
        }
    }

    /// A node: its totals and its name.
    fn node_ui(&mut self, ui: &mut Ui, p: &NodePath) {
        let Some(oob) = &self.oob else {
            return;
        };
        ui.heading(p.label());
        if let Some(n) = oob.tree().find(p) {
            ui.label(format!(
                "{}, {} {}",
                kepi_game::rules::count(n.totals.units, "unit", "units"),
                n.totals.strength,
                oob.strength_unit()
            ));
        }
        if p.levels.is_empty() {
            return;
        }
        ui.horizontal(|ui| {
            let label = ui.label(format!("{} name", p.level().title()));
            ui.add(
                egui::TextEdit::singleline(&mut self.name_text)
                    .id_salt("builder_node_name")
                    .desired_width(240.0),
            )
            .labelled_by(label.id);
            if ui.button("Rename").clicked() {
                let name = self.name_text.trim().to_string();
                let mut renamed = p.clone();
                if let Some(last) = renamed.levels.last_mut() {
                    last.1 = name.clone();
                }
                self.apply(Op::Rename {
                    node: p.clone(),
                    name,
                });
                if self.status.is_none() {
                    self.selected = Some(Selection::Node(renamed));
                }
            }
        });
    }

    /// A unit's form: the card's fields, each with its error beside it.
    fn form_ui(&mut self, ui: &mut Ui, key: Key) {
        let Some(oob) = &self.oob else {
            return;
        };
        let Some(d) = oob.draft(key) else {
            ui.label("That unit is no longer in the order of battle.");
            return;
        };
        ui.heading(d.label());
        ui.label(RichText::new(d.path().label()).weak());
        let mut ops: Vec<Op> = Vec::new();
        let focus = self.focus.take();
        egui::Grid::new(("builder_form_grid", key))
            .num_columns(3)
            .spacing([10.0, 4.0])
            .show(ui, |ui| {
                for f in &oob.spec.fields {
                    let label = ui.label(f.label).on_hover_text(f.help);
                    let r = field_widget(ui, key, f, d.get(f.field), &mut ops)
                        .map(|r| r.labelled_by(label.id));
                    if focus == Some((key, f.field))
                        && let Some(r) = r
                    {
                        r.request_focus();
                        r.scroll_to_me(Some(egui::Align::Center));
                    }
                    match oob.error_at(key, f.field) {
                        Some(e) => {
                            ui.colored_label(ui.visuals().error_fg_color, &e.message)
                                .on_hover_text(format!("accepted: {}", e.accepted));
                        }
                        None => {
                            ui.label("");
                        }
                    }
                    ui.end_row();
                }
            });
        for op in ops {
            if let Some(oob) = self.oob.as_mut()
                && let Err(e) = oob.apply(op)
            {
                self.status = Some((e, true));
            }
        }
    }

    /// Every error, one line each: a click selects the unit and gives its field the keyboard.
    fn errors_ui(&mut self, ui: &mut Ui) {
        let Some(oob) = &self.oob else {
            return;
        };
        let errors = oob.errors();
        if errors.is_empty() {
            ui.label(RichText::new("No errors: the battle can start.").weak());
            return;
        }
        ui.label(
            RichText::new(format!("{}:", errors_word(errors.len())))
                .color(ui.visuals().error_fg_color),
        );
        let mut go: Option<(Key, Field)> = None;
        egui::ScrollArea::vertical()
            .id_salt("builder_errors")
            .max_height(ui.available_height().max(40.0))
            .show_rows(
                ui,
                ui.spacing().interact_size.y,
                errors.len(),
                |ui, range| {
                    for e in &errors[range] {
                        let name = oob.draft(e.key).map_or("?", |d| d.label());
                        let text = format!("{name}, {}: {}", e.field, e.message);
                        if ui
                            .push_id(("builder_error", e.key, e.field), |ui| ui.link(text))
                            .inner
                            .on_hover_text(format!("accepted: {}", e.accepted))
                            .clicked()
                        {
                            go = Some((e.key, e.field));
                        }
                    }
                },
            );
        if let Some((key, field)) = go {
            self.selected = Some(Selection::Unit(key));
            self.focus = Some((key, field));
        }
    }
}

/// "1 error", "3 errors" (the one counting every line of the window uses).
fn errors_word(n: usize) -> String {
    kepi_game::rules::count(n, "error", "errors")
}

/// A name for a new node at `level` under `p` no sibling has ("New corps", "New corps 2").
fn fresh_node_name(oob: Option<&OrderOfBattle>, p: &NodePath, level: Level) -> String {
    let base = format!("New {}", level.title().to_lowercase());
    let Some(oob) = oob else {
        return base;
    };
    let taken = |n: &str| oob.tree().find(&p.child(level, n)).is_some();
    if !taken(&base) {
        return base;
    }
    (2..)
        .map(|k| format!("{base} {k}"))
        .find(|n| !taken(n))
        .unwrap_or(base)
}

/// A tree row as a drag source: its label senses drags as well as clicks (egui's
/// `Ui::dnd_drag_source` lays a drag-only widget over the row, which takes its clicks), and a
/// drag carries `what` as egui's drag-and-drop payload, its name shown at the pointer. Returns
/// the row's response, sensing both.
fn drag_source(ui: &Ui, r: &egui::Response, what: &Selection, name: &str) -> egui::Response {
    let r = r.interact(egui::Sense::click_and_drag());
    r.dnd_set_drag_payload(what.clone());
    if r.dragged()
        && let Some(at) = ui.ctx().pointer_interact_pos()
    {
        ui.ctx().set_cursor_icon(egui::CursorIcon::Grabbing);
        egui::Area::new(egui::Id::unique("builder_dragged"))
            .order(egui::Order::Tooltip)
            .fixed_pos(at + egui::vec2(12.0, 4.0))
            .interactable(false)
            .show(ui.ctx(), |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.label(format!("Moving {name}"));
                });
            });
    }
    r
}

/// A tree row as a drop target for node `to`: outlined while a unit or node is dragged over it,
/// and what is released on it kept in `dropped`.
fn drop_target(
    ui: &Ui,
    r: &egui::Response,
    to: &NodePath,
    dropped: &mut Option<(Selection, NodePath)>,
) {
    if r.dnd_hover_payload::<Selection>().is_some() {
        let stroke = ui.visuals().selection.stroke;
        ui.painter()
            .rect_stroke(r.rect, 2.0, stroke, egui::StrokeKind::Inside);
    }
    if let Some(what) = r.dnd_release_payload::<Selection>() {
        *dropped = Some(((*what).clone(), to.clone()));
    }
}

/// A node's context menu: add, duplicate, cut, delete.
fn node_menu(ui: &mut Ui, p: &NodePath, op: &mut Option<Op>, select: &mut Option<Selection>) {
    if ui.button("Add unit").clicked() {
        *op = Some(Op::AddUnit { parent: p.clone() });
        ui.close();
    }
    if p.levels.is_empty() {
        return;
    }
    if ui.button("Duplicate").clicked() {
        *op = Some(Op::Duplicate { node: p.clone() });
        ui.close();
    }
    if ui.button("Delete").clicked() {
        *op = Some(Op::DeleteNode { node: p.clone() });
        *select = None;
        ui.close();
    }
}

/// One field's widget, under an id made from the unit's key and the field; a change becomes an
/// [`Op::Set`]. Returns the widget's response (for the keyboard).
fn field_widget(
    ui: &mut Ui,
    key: Key,
    f: &FieldSpec,
    value: &str,
    ops: &mut Vec<Op>,
) -> Option<egui::Response> {
    let id = ("builder_field", key, f.field);
    let mut set = |v: String| {
        ops.push(Op::Set {
            key,
            field: f.field,
            value: v,
        })
    };
    match &f.kind {
        Kind::Choice { values } => {
            let shown = if value.is_empty() { "(none)" } else { value };
            let r = egui::ComboBox::from_id_salt(id)
                .selected_text(shown)
                .width(180.0)
                .show_ui(ui, |ui| {
                    let mut chosen: Option<String> = None;
                    if !f.required && ui.selectable_label(value.is_empty(), "(none)").clicked() {
                        chosen = Some(String::new());
                    }
                    for v in values {
                        if ui.selectable_label(value == *v, *v).clicked() {
                            chosen = Some(v.to_string());
                        }
                    }
                    chosen
                });
            if let Some(Some(v)) = r.inner {
                set(v);
            }
            Some(r.response)
        }
        Kind::Number { min, max, unit } if f.required && value.trim().parse::<i64>().is_ok() => {
            let mut n: i64 = value.trim().parse().unwrap_or(i64::from(*min));
            let r = ui
                .horizontal(|ui| {
                    let r = ui.push_id(id, |ui| {
                        ui.add(
                            egui::DragValue::new(&mut n)
                                .range(i64::from(*min)..=i64::from(*max))
                                .clamp_existing_to_range(false),
                        )
                    });
                    if let Some(u) = unit {
                        ui.label(*u);
                    }
                    r.inner
                })
                .inner;
            if r.changed() {
                set(n.to_string());
            }
            Some(r)
        }
        Kind::Text { lines: true } => {
            let mut s = value.to_string();
            let r = ui.add(
                egui::TextEdit::multiline(&mut s)
                    .id_salt(id)
                    .desired_rows(2)
                    .desired_width(260.0),
            );
            if r.changed() {
                set(s);
            }
            Some(r)
        }
        _ => {
            let mut s = value.to_string();
            // What the field accepts, in the card spec's own words (the error says the same).
            let hint = match &f.kind {
                Kind::Number { .. } | Kind::Position { .. } => f.accepted(),
                _ => String::new(),
            };
            let r = ui.add(
                egui::TextEdit::singleline(&mut s)
                    .id_salt(id)
                    .hint_text(hint)
                    .desired_width(260.0),
            );
            if r.changed() {
                set(s);
            }
            Some(r)
        }
    }
}
