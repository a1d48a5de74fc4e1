//! Board > Edit map (issue 41, "The map editor"): a club's map file edited in the window. The
//! editor takes the window below the top bar while it is open: a fixed tool bar (the file, Save
//! map, Save map as…, Undo, Redo, Close), the tools (terrain brush, hexside, country fill, place,
//! edge roles, victory values), each tool's options in a row of one height whatever the tool (so
//! the board never moves under the pointer), a two-line status, and the board.
//!
//! The edits are [`kepi_game::map::edit::Edit`] values applied through an
//! [`kepi_game::map::edit::Editor`] (undo and redo, a drag one step); the file is written by
//! [`kepi_game::map::write::save`] (checked before a byte is written, temp file and rename, never
//! a link nor a game's own file). A game whose map file is saved over keeps the map it began with
//! (its save carries the map by content hash): the editor says so, and the game names the change
//! when it is opened ([`kepi_game::map::MapFile::changed_on_disk`]).
//!
//! File > Import board from VASSAL… reads a module with the same functions as `kepi map
//! import-vassal` ([`kepi_game::map::vassal`]), writes the board's map and picture into the
//! folder given, and opens the new map here.

use std::path::{Path, PathBuf};

use egui::{Color32, Pos2, RichText, Sense, Shape, Stroke, Ui, vec2};
use kepi_game::hex::{Direction, Hex, Hexside, Offset};
use kepi_game::map::edit::{Edit, Editor};
use kepi_game::map::vassal;
use kepi_game::map::{
    Applies, Country, Edge, EdgeRole, Feature, Map, MapFile, Place, PlaceKind, Side, Terrain,
    Victory, VictoryBy,
};
use kepi_game::rules::RuleSetId;

use super::board_map;
use super::board_picture::{PictureLayer, screen_map};
use super::file_dialog::Purpose;
use super::map::{hex_corners, hex_to_pixel, pixel_to_hex};
use super::state::Command;
use super::text_cache::TextCache;

/// The editor's tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Paint a cell terrain: click or drag.
    Terrain,
    /// Toggle a hexside feature: click near a hexside.
    Hexside,
    /// Fill cells with a country: click or drag.
    Country,
    /// Name a place: click its cell.
    Place,
    /// Mark edge cells' roles: click or drag.
    Edge,
    /// Type victory values: click a cell of the column, row or line.
    Victory,
}

impl Tool {
    const ALL: [Tool; 6] = [
        Tool::Terrain,
        Tool::Hexside,
        Tool::Country,
        Tool::Place,
        Tool::Edge,
        Tool::Victory,
    ];

    fn label(self) -> &'static str {
        match self {
            Tool::Terrain => "Terrain brush",
            Tool::Hexside => "Hexsides",
            Tool::Country => "Country fill",
            Tool::Place => "Places",
            Tool::Edge => "Edge roles",
            Tool::Victory => "Victory values",
        }
    }

    fn help(self) -> &'static str {
        match self {
            Tool::Terrain => "Pick a terrain in the legend; click or drag across cells to paint.",
            Tool::Hexside => "Click near a hexside to put the feature on it, or take it off.",
            Tool::Country => "Pick a country; click or drag across cells to fill.",
            Tool::Place => {
                "Type a name, tick its kinds, click its cell (a cell with a place fills the form)."
            }
            Tool::Edge => "Pick a role; click or drag across edge cells to add or take them off.",
            Tool::Victory => {
                "Name the entry and type a value; click a cell of its column, row or line."
            }
        }
    }
}

/// What a victory entry counts by, in the editor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VictoryAxis {
    /// A value per column.
    Columns,
    /// A value per row.
    Rows,
    /// One value for a line of cells.
    Cells,
}

/// What the unsaved-changes prompt is asked before.
#[derive(Clone, Debug, PartialEq)]
enum Leave {
    /// Closing the editor.
    Close,
    /// Opening another map (its file, or None for the game's).
    Open(Option<PathBuf>),
}

/// A module read for File > Import board from VASSAL…: its boards, the board and rule set picked
/// and the folder to write into.
struct Importing {
    module: PathBuf,
    title: String,
    boards: Vec<vassal::Listed>,
    board: usize,
    rules: Option<RuleSetId>,
    folder: String,
    error: Option<String>,
}

/// The map editor's state.
pub struct MapEditor {
    /// Shown (it takes the window below the top bar).
    pub open: bool,
    ed: Option<Editor>,
    /// Where "Save map" writes (None: the map came from kepi's own, Save map as… asks).
    path: Option<PathBuf>,
    tool: Tool,
    terrain: String,
    feature: Feature,
    line_name: String,
    section: String,
    capacity: String,
    country: Option<Country>,
    place_name: String,
    place_kinds: Vec<PlaceKind>,
    place_value: String,
    edge_role: EdgeRole,
    edge_side: Option<Side>,
    edge_name: String,
    edge_distance: String,
    victory_axis: VictoryAxis,
    victory_name: String,
    victory_side: Option<Side>,
    victory_value: String,
    /// Hex size in points.
    size: f32,
    /// The last thing the editor said, and whether it was a refusal.
    said: Option<(String, bool)>,
    leaving: Option<Leave>,
    /// The cell the stroke under way painted last.
    last: Option<Hex>,
    importing: Option<Importing>,
    /// Where the board's axial (0, 0) was drawn last frame, and the hex size.
    drawn: Option<(Pos2, f32)>,
    /// The cell under the pointer last frame (the status line says it).
    hovered: Option<Hex>,
    /// The picture of the printed board under the grid (the map's `[picture]`, beside its
    /// file), to paint over (issue 41).
    picture: PictureLayer,
    /// The cells' labels, laid out once.
    text: TextCache,
}

impl Default for MapEditor {
    fn default() -> Self {
        MapEditor {
            open: false,
            ed: None,
            path: None,
            tool: Tool::Terrain,
            terrain: String::new(),
            feature: Feature::River,
            line_name: String::new(),
            section: String::new(),
            capacity: String::new(),
            country: Some(Country::France),
            place_name: String::new(),
            place_kinds: vec![PlaceKind::Town],
            place_value: String::new(),
            edge_role: EdgeRole::Supply,
            edge_side: None,
            edge_name: String::new(),
            edge_distance: String::new(),
            victory_axis: VictoryAxis::Columns,
            victory_name: "Victory".into(),
            victory_side: None,
            victory_value: String::new(),
            size: 24.0,
            said: None,
            leaving: None,
            last: None,
            importing: None,
            drawn: None,
            hovered: None,
            picture: PictureLayer::default(),
            text: TextCache::default(),
        }
    }
}

impl std::fmt::Debug for MapEditor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MapEditor")
            .field("open", &self.open)
            .field("path", &self.path)
            .field("tool", &self.tool)
            .finish()
    }
}

/// The words of a terrain's effects, as the legend's tooltip and line say them.
pub fn effects_words(t: &Terrain) -> String {
    let mut parts = vec![
        format!("movement: {} ({})", t.movement.text, t.movement.provenance),
        format!("combat: {} ({})", t.combat.text, t.combat.provenance),
    ];
    if let Some(o) = &t.other {
        parts.push(format!("other: {} ({})", o.text, o.provenance));
    }
    if let Some(mp) = t.mp {
        parts.push(format!("{mp} MP"));
    }
    if let Some(r) = &t.rule {
        parts.push(r.clone());
    }
    format!("{}: {}", t.name, parts.join(" · "))
}

/// The hexside of `h` nearest `p` (screen), and how far `p` is from its middle, in hex sizes.
pub fn nearest_side(h: Hex, p: Pos2, centre: &dyn Fn(Hex) -> Pos2, size: f32) -> (Hexside, f32) {
    let c = centre(h);
    let mut best = (Hexside::new(h, Direction::N), f32::INFINITY);
    for d in Direction::ALL {
        let n = centre(h.neighbour(d));
        let mid = c + (n - c) * 0.5;
        let dist = mid.distance(p) / size.max(1.0);
        if dist < best.1 {
            best = (Hexside::new(h, d), dist);
        }
    }
    best
}

impl MapEditor {
    /// The map being edited, if any.
    pub fn map(&self) -> Option<&Map> {
        self.ed.as_ref().map(|e| &e.map)
    }

    /// Whether the picture of the board is drawn under the grid (shown and loaded).
    pub fn picture_drawn(&self) -> bool {
        self.picture.drawn()
    }

    /// The file "Save map" writes, if any.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// True when the map has changes not saved.
    pub fn unsaved(&self) -> bool {
        self.ed.as_ref().is_some_and(Editor::unsaved)
    }

    /// Where the cell labelled `label` was drawn last frame (its centre), and the middle of its
    /// side `dir`, when `dir` is given: for the tests and the timing script, which click there.
    pub fn screen_of(&self, label: &str, dir: Option<Direction>) -> Option<Pos2> {
        let (origin, size) = self.drawn?;
        let map = self.map()?;
        let h = Hex::from_label(label, map.grid.layout).ok()?;
        let c = origin + hex_to_pixel(h, size);
        Some(match dir {
            None => c,
            Some(d) => c + (origin + hex_to_pixel(h.neighbour(d), size) - c) * 0.5,
        })
    }

    /// What the editor said last.
    pub fn said(&self) -> Option<&str> {
        self.said.as_ref().map(|(s, _)| s.as_str())
    }

    fn say(&mut self, s: impl Into<String>, error: bool) {
        self.said = Some((s.into(), error));
    }

    /// Starts editing `map` (saved at `path`), unless changes not saved would be lost: then the
    /// prompt asks first.
    pub fn start(&mut self, map: Map, path: Option<PathBuf>) {
        self.open = true;
        self.terrain = map.default_terrain.clone();
        let what = match &path {
            Some(p) => format!("Editing {}", p.display()),
            None => format!("Editing {} (kepi's own: Save map as… to keep it)", map.file),
        };
        self.ed = Some(Editor::new(map));
        self.path = path;
        self.leaving = None;
        self.say(what, false);
    }

    /// Board > Edit map: the game's map, where the game has one (a file, or kepi's own); false
    /// when it has none (then a file is chosen).
    pub fn edit_game_map(&mut self, game: Option<&MapFile>) -> bool {
        let Some(m) = game else {
            return false;
        };
        if self.unsaved() {
            self.open = true;
            self.leaving = Some(Leave::Open(None));
            return true;
        }
        self.open_game_map(m);
        true
    }

    fn open_game_map(&mut self, m: &MapFile) {
        let path = PathBuf::from(&m.file);
        if kepi_game::fsio::present(&path) {
            match Map::load(&path) {
                Ok(map) => self.start(map, Some(path)),
                Err(e) => {
                    self.open = true;
                    self.say(e.to_string(), true);
                }
            }
        } else if let Ok(map) = m.map() {
            // kepi's own map, or a file gone: edit what the game carries; Save map as… keeps it.
            self.start(map.clone(), None);
        }
    }

    /// A file chosen for the editor: a map to edit, where to save it, or a module to import from.
    pub fn chosen(&mut self, purpose: Purpose, path: &Path, game: Option<&MapFile>) {
        match purpose {
            Purpose::EditMap => {
                if self.unsaved() {
                    self.open = true;
                    self.leaving = Some(Leave::Open(Some(path.to_path_buf())));
                } else {
                    self.open_file(path);
                }
            }
            Purpose::SaveMapAs => self.save_to(path.to_path_buf(), game),
            Purpose::VassalModule => self.read_module(path),
            _ => {}
        }
    }

    fn open_file(&mut self, path: &Path) {
        self.open = true;
        match Map::load(path) {
            Ok(map) => self.start(map, Some(path.to_path_buf())),
            Err(e) => self.say(e.to_string(), true),
        }
    }

    /// Saves the map at `path` ([`kepi_game::map::write::save`]); says what happened, and what
    /// a game on that map file does about it.
    pub fn save_to(&mut self, path: PathBuf, game: Option<&MapFile>) {
        let Some(ed) = &mut self.ed else {
            return;
        };
        ed.end_stroke();
        match kepi_game::map::write::save(&ed.map, &path) {
            Ok(_) => {
                ed.saved();
                ed.map.file = path.display().to_string();
                let mut words = format!("Saved {}.", path.display());
                if let Some(note) = game_note(game, &path) {
                    words.push(' ');
                    words.push_str(&note);
                }
                self.path = Some(path);
                self.say(words, false);
                if matches!(self.leaving, Some(Leave::Close)) {
                    self.leaving = None;
                    self.open = false;
                }
            }
            Err(e) => self.say(format!("Not saved: {e}"), true),
        }
    }

    fn save(&mut self, game: Option<&MapFile>, out: &mut Vec<Command>) {
        match self.path.clone() {
            Some(p) => self.save_to(p, game),
            None => out.push(Command::ChooseFile(Purpose::SaveMapAs)),
        }
    }

    fn undo(&mut self) {
        if let Some(ed) = &mut self.ed {
            let done = ed.undo();
            self.said = Some((
                if done { "Undone." } else { "Nothing to undo." }.into(),
                false,
            ));
        }
    }

    fn redo(&mut self) {
        if let Some(ed) = &mut self.ed {
            let done = ed.redo();
            self.said = Some((
                if done { "Redone." } else { "Nothing to redo." }.into(),
                false,
            ));
        }
    }

    /// The editor's keys: Ctrl+Z undo, Ctrl+Y or Ctrl+Shift+Z redo, Ctrl+S save; taken only when
    /// no text field has the keyboard (a field keeps its own). No bare letter does anything.
    pub fn keys(&mut self, ctx: &egui::Context, game: Option<&MapFile>, out: &mut Vec<Command>) {
        if !self.open || self.ed.is_none() {
            return;
        }
        let typing = ctx.egui_wants_keyboard_input();
        let (undo, redo, save) = ctx.input_mut(|i| {
            let ctrl = egui::Modifiers::COMMAND;
            let shift = egui::Modifiers::COMMAND | egui::Modifiers::SHIFT;
            if typing {
                let save = i.consume_key(ctrl, egui::Key::S);
                return (false, false, save);
            }
            let redo = i.consume_key(shift, egui::Key::Z) || i.consume_key(ctrl, egui::Key::Y);
            let undo = i.consume_key(ctrl, egui::Key::Z);
            let save = i.consume_key(ctrl, egui::Key::S);
            (undo, redo, save)
        });
        if undo {
            self.undo();
        }
        if redo {
            self.redo();
        }
        if save {
            self.save(game, out);
        }
    }

    /// The window is asked to close: false (and the prompt shown) when the map has changes not
    /// saved.
    pub fn may_close_window(&mut self) -> bool {
        if self.unsaved() {
            self.open = true;
            self.leaving = Some(Leave::Close);
            return false;
        }
        true
    }

    /// Asks to close the editor: at once when everything is saved, else the prompt asks.
    pub fn close(&mut self) {
        if self.unsaved() {
            self.leaving = Some(Leave::Close);
        } else {
            self.open = false;
        }
    }

    /// Draws the editor into `ui` (the window below the top bar).
    pub fn ui(&mut self, ui: &mut Ui, game: Option<&MapFile>) -> Vec<Command> {
        let mut out = Vec::new();
        self.top_row(ui, game, &mut out);
        ui.separator();
        if self.ed.is_none() {
            ui.label("No map open: Board > Edit map… opens one, File > Import board from VASSAL… makes one.");
            self.leave_prompt(ui.ctx(), game, &mut out);
            self.import_window(ui.ctx());
            return out;
        }
        ui.horizontal(|ui| {
            for t in Tool::ALL {
                if ui.selectable_label(self.tool == t, t.label()).clicked() {
                    if let Some(ed) = &mut self.ed {
                        ed.end_stroke();
                    }
                    self.tool = t;
                }
            }
            ui.separator();
            let l = ui.label("Hex size");
            ui.add(egui::Slider::new(&mut self.size, 12.0..=48.0).show_value(false))
                .labelled_by(l.id);
            let file = self.path.as_deref().and_then(Path::to_str);
            if let (Some(file), Some(map)) = (file, self.ed.as_ref().map(|e| &e.map)) {
                self.picture.toggles_ui(ui, file, map);
            }
        });
        // The tool's options: one height whatever the tool, so the board keeps its place.
        let h = ui.spacing().interact_size.y * 3.0 + ui.spacing().item_spacing.y * 2.0;
        let w = ui.available_width();
        ui.allocate_ui_with_layout(vec2(w, h), egui::Layout::top_down(egui::Align::Min), |ui| {
            ui.set_min_size(vec2(w, h));
            ui.set_max_height(h);
            self.options_ui(ui);
        });
        ui.separator();
        let hovered = self.status_ui(ui);
        let file = self.path.as_deref().and_then(Path::to_str);
        self.picture
            .update(ui.ctx(), file, self.ed.as_ref().map(|e| &e.map));
        self.text.begin_frame(ui.ctx());
        let hovered_now = self.board_ui(ui);
        if hovered_now != hovered {
            ui.ctx().request_repaint();
        }
        self.hovered = hovered_now;
        self.leave_prompt(ui.ctx(), game, &mut out);
        self.import_window(ui.ctx());
        out
    }

    /// File, Save map, Save map as…, Undo, Redo, Close editor: always in this place.
    fn top_row(&mut self, ui: &mut Ui, game: Option<&MapFile>, out: &mut Vec<Command>) {
        ui.horizontal(|ui| {
            ui.label(RichText::new("Map editor").strong());
            let has = self.ed.is_some();
            if ui
                .add_enabled(has, egui::Button::new("Save map"))
                .on_hover_text("Ctrl+S")
                .clicked()
            {
                self.save(game, out);
            }
            if ui
                .add_enabled(has, egui::Button::new("Save map as…"))
                .clicked()
            {
                out.push(Command::ChooseFile(Purpose::SaveMapAs));
            }
            let (u, r) = self
                .ed
                .as_ref()
                .map_or((0, 0), |e| (e.undo_len(), e.redo_len()));
            if ui
                .add_enabled(u > 0, egui::Button::new("Undo edit"))
                .on_hover_text("Ctrl+Z")
                .clicked()
            {
                self.undo();
            }
            if ui
                .add_enabled(r > 0, egui::Button::new("Redo edit"))
                .on_hover_text("Ctrl+Y")
                .clicked()
            {
                self.redo();
            }
            if ui.button("Open map…").clicked() {
                out.push(Command::ChooseFile(Purpose::EditMap));
            }
            if ui.button("Close editor").clicked() {
                self.close();
            }
            let name = match (&self.ed, &self.path) {
                (Some(e), Some(p)) => format!(
                    "{}{} — {}",
                    if e.unsaved() { "* " } else { "" },
                    e.map.name,
                    p.display()
                ),
                (Some(e), None) => format!("* {} — not saved to a file yet", e.map.name),
                (None, _) => String::new(),
            };
            ui.add(egui::Label::new(name).truncate());
        });
    }

    /// The options of the tool in use.
    /// Over 150 lines: one row of widgets per tool of the editor, in the toolbar's order.
    fn options_ui(&mut self, ui: &mut Ui) {
        let Some(map) = self.ed.as_ref().map(|e| &e.map) else {
            return;
        };
        ui.weak(self.tool.help());
        match self.tool {
            Tool::Terrain => {
                let entries: Vec<Terrain> = map
                    .terrain
                    .entries
                    .iter()
                    .filter(|t| t.applies == Applies::Cell)
                    .cloned()
                    .collect();
                let unchecked: Vec<String> = if map.terrain_checked {
                    Vec::new()
                } else {
                    map.terrain_counts()
                        .iter()
                        .map(|(n, _)| n.to_string())
                        .filter(|n| !entries.iter().any(|t| t.name == *n))
                        .collect()
                };
                ui.horizontal(|ui| {
                    ui.label("Legend:");
                    for t in &entries {
                        let colour = board_map::colour_of(t);
                        let chosen = self.terrain == t.name;
                        let r = swatch_button(ui, colour, &t.name, chosen)
                            .on_hover_text(effects_words(t));
                        if r.clicked() {
                            self.terrain = t.name.clone();
                        }
                    }
                    for n in &unchecked {
                        let r = swatch_button(ui, Color32::GRAY, n, self.terrain == *n)
                            .on_hover_text(format!("{n}: effects unknown (no terrain table)"));
                        if r.clicked() {
                            self.terrain = n.clone();
                        }
                    }
                });
                let words = entries
                    .iter()
                    .find(|t| t.name == self.terrain)
                    .map(effects_words)
                    .unwrap_or_else(|| format!("{}: effects unknown", self.terrain));
                ui.add(egui::Label::new(words).truncate());
            }
            Tool::Hexside => {
                ui.horizontal(|ui| {
                    for f in Feature::ALL {
                        ui.radio_value(&mut self.feature, *f, f.as_str());
                    }
                    ui.separator();
                    let l = ui.label("Name:");
                    super::keys::field(
                        ui,
                        egui::TextEdit::singleline(&mut self.line_name).desired_width(140.0),
                        "map_edit_line_name",
                    )
                    .labelled_by(l.id);
                });
                ui.horizontal(|ui| {
                    let rail = self.feature == Feature::Rail;
                    ui.add_enabled_ui(rail, |ui| {
                        let l = ui.label("Rail section:");
                        super::keys::field(
                            ui,
                            egui::TextEdit::singleline(&mut self.section).desired_width(180.0),
                            "map_edit_section",
                        )
                        .labelled_by(l.id);
                        let l = ui.label("Capacity (1870):");
                        super::keys::field(
                            ui,
                            egui::TextEdit::singleline(&mut self.capacity).desired_width(40.0),
                            "map_edit_capacity",
                        )
                        .labelled_by(l.id);
                    });
                });
            }
            Tool::Country => {
                ui.horizontal(|ui| {
                    for c in Country::ALL {
                        ui.radio_value(&mut self.country, Some(*c), c.as_str());
                    }
                    ui.radio_value(&mut self.country, None, "none");
                });
            }
            Tool::Place => {
                ui.horizontal(|ui| {
                    let l = ui.label("Place name:");
                    super::keys::field(
                        ui,
                        egui::TextEdit::singleline(&mut self.place_name).desired_width(160.0),
                        "map_edit_place_name",
                    )
                    .labelled_by(l.id);
                    for k in PlaceKind::ALL {
                        let mut on = self.place_kinds.contains(k);
                        if ui.checkbox(&mut on, k.as_str()).changed() {
                            if on {
                                self.place_kinds.push(*k);
                            } else {
                                self.place_kinds.retain(|x| x != k);
                            }
                        }
                    }
                    let l = ui.label("Value:");
                    super::keys::field(
                        ui,
                        egui::TextEdit::singleline(&mut self.place_value).desired_width(32.0),
                        "map_edit_place_value",
                    )
                    .labelled_by(l.id);
                    if ui.button("Remove this place").clicked() {
                        let name = self.place_name.clone();
                        self.apply(Edit::RemovePlace(name));
                    }
                });
            }
            Tool::Edge => {
                ui.horizontal(|ui| {
                    for r in EdgeRole::ALL {
                        ui.radio_value(&mut self.edge_role, *r, r.as_str());
                    }
                    ui.separator();
                    side_radios(ui, &mut self.edge_side);
                });
                ui.horizontal(|ui| {
                    let l = ui.label("Edge name:");
                    super::keys::field(
                        ui,
                        egui::TextEdit::singleline(&mut self.edge_name).desired_width(160.0),
                        "map_edit_edge_name",
                    )
                    .labelled_by(l.id);
                    let l = ui.label("Distance (rail-link, sea-route):");
                    super::keys::field(
                        ui,
                        egui::TextEdit::singleline(&mut self.edge_distance).desired_width(40.0),
                        "map_edit_edge_distance",
                    )
                    .labelled_by(l.id);
                });
            }
            Tool::Victory => {
                ui.horizontal(|ui| {
                    ui.radio_value(&mut self.victory_axis, VictoryAxis::Columns, "per column");
                    ui.radio_value(&mut self.victory_axis, VictoryAxis::Rows, "per row");
                    ui.radio_value(
                        &mut self.victory_axis,
                        VictoryAxis::Cells,
                        "a line of cells",
                    );
                    ui.separator();
                    side_radios(ui, &mut self.victory_side);
                });
                ui.horizontal(|ui| {
                    let l = ui.label("Entry name:");
                    super::keys::field(
                        ui,
                        egui::TextEdit::singleline(&mut self.victory_name).desired_width(160.0),
                        "map_edit_victory_name",
                    )
                    .labelled_by(l.id);
                    let l = ui.label("Value (empty: take off):");
                    super::keys::field(
                        ui,
                        egui::TextEdit::singleline(&mut self.victory_value).desired_width(56.0),
                        "map_edit_victory_value",
                    )
                    .labelled_by(l.id);
                });
            }
        }
    }

    /// Two lines: what the editor said last, and the hovered cell.
    fn status_ui(&mut self, ui: &mut Ui) -> Option<Hex> {
        let hovered = self.hovered;
        let said = match &self.said {
            Some((s, true)) => RichText::new(s.as_str()).color(ui.visuals().error_fg_color),
            Some((s, false)) => RichText::new(s.as_str()),
            None => RichText::new("Ctrl+Z undo · Ctrl+Y redo · Ctrl+S save").weak(),
        };
        ui.add(egui::Label::new(said).truncate());
        let cell = match (self.map(), hovered) {
            (Some(m), Some(h)) => hovered_words(m, h),
            _ => String::new(),
        };
        ui.add(
            egui::Label::new(RichText::new(if cell.is_empty() { " ".into() } else { cell }).weak())
                .truncate(),
        );
        hovered
    }

    /// Applies an edit as its own step (or a part of the stroke under way); a refusal is said.
    /// True when the edit was made.
    fn apply(&mut self, edit: Edit) -> bool {
        let Some(ed) = &mut self.ed else {
            return false;
        };
        match ed.apply(edit) {
            Ok(_) => {
                // A refusal said before is about an edit not made: it goes with the next one made.
                if matches!(self.said, Some((_, true))) {
                    self.said = None;
                }
                true
            }
            Err(e) => {
                self.say(format!("Refused: {e}"), true);
                false
            }
        }
    }

    /// The board: the terrain, grid, features, places, edges and victory values, and the tool's
    /// clicks and drags on it. Returns the hovered cell.
    fn board_ui(&mut self, ui: &mut Ui) -> Option<Hex> {
        let map = self.map()?;
        let size = self.size;
        let cells: Vec<Hex> = map.grid.cells().collect();
        let (mut lo, mut hi) = (vec2(f32::MAX, f32::MAX), vec2(f32::MIN, f32::MIN));
        for h in &cells {
            let p = hex_to_pixel(*h, size);
            lo = lo.min(p);
            hi = hi.max(p);
        }
        let want = hi - lo + vec2(2.0 * size + 8.0, 2.0 * size + 8.0);
        let mut result = None;
        let mut clicked_at: Option<Pos2> = None;
        let mut down_at: Option<Pos2> = None;
        let mut released = false;
        let mut pointer: (Option<Hex>, Option<Hex>, Option<Hexside>) = (None, None, None);
        let mut drawn = None;
        let grid = map.grid;
        let path = self.path.clone();
        let file = path.as_deref().and_then(Path::to_str);
        egui::ScrollArea::both()
            .id_salt("map_edit_scroll")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                let (rect, resp) = ui.allocate_exact_size(want, Sense::click_and_drag());
                let origin = rect.min + vec2(size + 4.0, size + 4.0) - lo;
                drawn = Some((origin, size));
                let centre = |h: Hex| origin + hex_to_pixel(h, size);
                let painter = ui.painter_at(rect);
                let Some(map) = self.ed.as_ref().map(|e| &e.map) else {
                    return;
                };
                // Only the cells on screen are drawn, as on the map panel.
                let visible = board_map::on_screen(&painter, cells.iter().copied(), &centre, size);
                // The picture of the printed board first, to paint over (issue 41); the terrain's
                // colours then translucent, so the printed board reads through.
                let at = file
                    .and_then(|f| self.picture.alignment(f, map))
                    .map(|a| screen_map(&a, &map.grid, &centre, size));
                if let Some(at) = &at {
                    self.picture.paint(&painter, at);
                }
                if self.picture.terrain {
                    let alpha = if self.picture.drawn() { 0.4 } else { 0.85 };
                    board_map::paint_terrain(&painter, map, &visible, &centre, size, alpha);
                }
                let visuals = ui.visuals().clone();
                board_map::paint_grid(
                    &painter,
                    &mut self.text,
                    &visible,
                    &centre,
                    size,
                    &|h| (size >= 18.0).then(|| grid.label(h)),
                    &visuals,
                );
                board_map::paint_features(&painter, map, &visible, &centre, size);
                board_map::paint_places(
                    &painter,
                    &mut self.text,
                    map,
                    &visible,
                    &centre,
                    size,
                    visuals.strong_text_color(),
                );
                paint_edges_and_victory(
                    &painter,
                    map,
                    &visible,
                    &centre,
                    size,
                    visuals.strong_text_color(),
                );
                let hover = ui
                    .input(|i| i.pointer.hover_pos())
                    .filter(|p| rect.contains(*p));
                let hovered = hover
                    .map(|p| pixel_to_hex(p - origin, size))
                    .filter(|h| map.on_map(*h));
                if let Some(h) = hovered {
                    let mut pts = hex_corners(centre(h), size).to_vec();
                    pts.push(pts[0]);
                    painter.add(Shape::line(
                        pts,
                        Stroke::new(2.0, visuals.strong_text_color()),
                    ));
                    if self.tool == Tool::Hexside
                        && let Some(p) = hover
                    {
                        let (side, dist) = nearest_side(h, p, &centre, size);
                        if dist < 0.5 {
                            let (a, b) = side.hexes();
                            let (ca, cb) = (centre(a), centre(b));
                            let mid = ca + (cb - ca) * 0.5;
                            painter.circle_stroke(mid, size * 0.22, Stroke::new(2.0, Color32::RED));
                        }
                    }
                }
                result = hovered;
                // The release's frame paints too: a drag let go in the frame it last moved
                // ends at the cell it was let go on.
                if resp.is_pointer_button_down_on() || resp.drag_stopped() || resp.clicked() {
                    down_at = resp.interact_pointer_pos().or(hover);
                }
                if resp.clicked() {
                    clicked_at = resp.interact_pointer_pos();
                }
                if !ui.input(|i| i.pointer.any_down()) {
                    released = true;
                }
                let to_cell = |p: Pos2| {
                    let h = pixel_to_hex(p - origin, size);
                    map.on_map(h).then_some(h)
                };
                let click_cell = clicked_at.and_then(to_cell);
                let down_cell = down_at.and_then(to_cell);
                let click_side = clicked_at.and_then(|p| {
                    let h = pixel_to_hex(p - origin, size);
                    let (s, d) = nearest_side(h, p, &centre, size);
                    (d < 0.5).then_some(s)
                });
                pointer = (click_cell, down_cell, click_side);
            });
        self.drawn = drawn;
        let (click_cell, down_cell, click_side) = pointer;
        self.act(click_cell, down_cell, click_side, released);
        result
    }

    /// What the tool does with this frame's pointer: a stroke while the button is down (painting,
    /// filling, edge cells), a click (hexsides, places, victory).
    fn act(
        &mut self,
        click_cell: Option<Hex>,
        down_cell: Option<Hex>,
        click_side: Option<Hexside>,
        released: bool,
    ) {
        let stroke_tool = matches!(self.tool, Tool::Terrain | Tool::Country | Tool::Edge);
        if stroke_tool {
            if let Some(h) = down_cell {
                let started = self.ed.as_ref().is_some_and(Editor::in_stroke);
                if !started {
                    if let Some(ed) = &mut self.ed {
                        ed.begin_stroke();
                    }
                    self.last = None;
                }
                // A fast drag skips cells between two frames: the line between fills them.
                let path: Vec<Hex> = match self.last {
                    Some(l) if l != h => {
                        let mut v = l.line_to(h);
                        v.remove(0);
                        v
                    }
                    Some(_) => Vec::new(),
                    None => vec![h],
                };
                let on: Vec<Hex> = path
                    .into_iter()
                    .filter(|x| self.map().is_some_and(|m| m.on_map(*x)))
                    .collect();
                if !on.is_empty() {
                    self.stroke_cells(&on);
                }
                self.last = Some(h);
            }
            if released && self.ed.as_ref().is_some_and(Editor::in_stroke) {
                if let Some(ed) = &mut self.ed {
                    ed.end_stroke();
                }
                self.last = None;
            }
            return;
        }
        match self.tool {
            Tool::Hexside => {
                if let Some(side) = click_side {
                    self.toggle_side(side);
                }
            }
            Tool::Place => {
                if let Some(h) = click_cell {
                    self.place_at(h);
                }
            }
            Tool::Victory => {
                if let Some(h) = click_cell {
                    self.victory_at(h);
                }
            }
            _ => {}
        }
    }

    fn stroke_cells(&mut self, cells: &[Hex]) {
        match self.tool {
            Tool::Terrain => {
                let terrain = self.terrain.clone();
                self.apply(Edit::Paint {
                    cells: cells.to_vec(),
                    terrain,
                });
            }
            Tool::Country => {
                let country = self.country;
                self.apply(Edit::SetCountry {
                    cells: cells.to_vec(),
                    country,
                });
            }
            Tool::Edge => {
                for h in cells {
                    self.toggle_edge_cell(*h);
                }
            }
            _ => {}
        }
    }

    fn toggle_side(&mut self, side: Hexside) {
        let capacity = match self.capacity.trim() {
            "" => None,
            t => match t.parse::<u32>() {
                Ok(c) => Some(c),
                Err(_) => {
                    self.say(
                        format!(
                            "Refused: capacity `{t}` is not a number (accepted: 1 to 99, FR-G1)"
                        ),
                        true,
                    );
                    return;
                }
            },
        };
        let text = |s: &str| (!s.trim().is_empty()).then(|| s.trim().to_string());
        let edit = Edit::ToggleSide {
            side,
            feature: self.feature,
            name: text(&self.line_name),
            section: text(&self.section),
            capacity,
        };
        if self.apply(edit)
            && let Some(m) = self.map()
        {
            let (a, b) = side.hexes();
            let on = m.side_has(a, b, self.feature);
            let words = format!(
                "{} {} {}",
                self.feature,
                if on { "on" } else { "off" },
                m.grid.side_label(side)
            );
            self.say(words, false);
        }
    }

    fn place_at(&mut self, h: Hex) {
        let name = self.place_name.trim().to_string();
        if name.is_empty() {
            // A click on a place with no name typed: the form takes that place, to change it.
            let found = self
                .map()
                .and_then(|m| m.places_at(h).first().cloned().cloned());
            match found {
                Some(p) => {
                    self.place_name = p.name.clone();
                    self.place_kinds = p.kinds.clone();
                    self.place_value = p.value.map(|v| v.to_string()).unwrap_or_default();
                    self.say(format!("{}: change it and click its cell", p.name), false);
                }
                None => self.say("Type the place's name first.", true),
            }
            return;
        }
        let value = match self.place_value.trim() {
            "" => None,
            t => match t.parse::<u32>() {
                Ok(v) => Some(v),
                Err(_) => {
                    self.say(
                        format!("Refused: value `{t}` is not a number (accepted: 1 to 99)"),
                        true,
                    );
                    return;
                }
            },
        };
        if self.apply(Edit::Place(Place {
            name: name.clone(),
            cell: h,
            kinds: self.place_kinds.clone(),
            value,
        })) {
            let label = self.map().map(|m| m.grid.label(h)).unwrap_or_default();
            self.say(format!("{name} at {label}"), false);
        }
    }

    fn toggle_edge_cell(&mut self, h: Hex) {
        let distance = match self.edge_distance.trim() {
            "" => None,
            t => match t.parse::<u32>() {
                Ok(d) => Some(d),
                Err(_) => {
                    self.say(
                        format!("Refused: distance `{t}` (accepted: a whole number from 0 to 999)"),
                        true,
                    );
                    return;
                }
            },
        };
        let Some(map) = self.map() else {
            return;
        };
        let name = (!self.edge_name.trim().is_empty()).then(|| self.edge_name.trim().to_string());
        let mut edges = map.edges.clone();
        let found = edges
            .iter_mut()
            .position(|e| e.role == self.edge_role && e.side == self.edge_side && e.name == name);
        match found {
            Some(i) => {
                let e = &mut edges[i];
                if let Some(j) = e.cells.iter().position(|c| *c == h) {
                    e.cells.remove(j);
                } else {
                    e.cells.push(h);
                }
                if distance.is_some() {
                    e.distance = distance;
                }
                if e.cells.is_empty() {
                    edges.remove(i);
                }
            }
            None => edges.push(Edge {
                role: self.edge_role,
                side: self.edge_side,
                name,
                cells: vec![h],
                distance: distance
                    .filter(|_| matches!(self.edge_role, EdgeRole::RailLink | EdgeRole::SeaRoute)),
                to: None,
            }),
        }
        self.apply(Edit::Edges(edges));
    }

    fn victory_at(&mut self, h: Hex) {
        let Some((layout, mut all)) = self.map().map(|m| (m.grid.layout, m.victory.clone())) else {
            return;
        };
        let name = self.victory_name.trim().to_string();
        if name.is_empty() {
            self.say("Type the victory entry's name first.", true);
            return;
        }
        let value = match self.victory_value.trim() {
            "" => None,
            // Its range is the map file's, checked by the edit (victory_problem).
            t => match t.parse::<i64>() {
                Ok(v) => Some(v),
                Err(_) => {
                    self.say(
                        format!("Refused: value `{t}` (accepted: a whole number)"),
                        true,
                    );
                    return;
                }
            },
        };
        let o: Offset = h.to_offset(layout);
        let i = match all.iter().position(|v| v.name.eq_ignore_ascii_case(&name)) {
            Some(i) => i,
            None => {
                let Some(value) = value else {
                    self.say("Type a value to give.", true);
                    return;
                };
                all.push(Victory {
                    name: name.clone(),
                    side: self.victory_side,
                    by: match self.victory_axis {
                        VictoryAxis::Columns => VictoryBy::Columns(Default::default()),
                        VictoryAxis::Rows => VictoryBy::Rows(Default::default()),
                        VictoryAxis::Cells => VictoryBy::Cells {
                            cells: Vec::new(),
                            value,
                        },
                    },
                });
                all.len() - 1
            }
        };
        let v = &mut all[i];
        v.side = self.victory_side;
        match &mut v.by {
            VictoryBy::Columns(m) => {
                match value {
                    Some(x) => m.insert(o.col, x),
                    None => m.remove(&o.col),
                };
            }
            VictoryBy::Rows(m) => {
                match value {
                    Some(x) => m.insert(o.row, x),
                    None => m.remove(&o.row),
                };
            }
            VictoryBy::Cells { cells, value: val } => {
                if let Some(x) = value {
                    *val = x;
                }
                if let Some(j) = cells.iter().position(|c| *c == h) {
                    cells.remove(j);
                } else {
                    cells.push(h);
                }
            }
        }
        let empty = match &v.by {
            VictoryBy::Columns(m) | VictoryBy::Rows(m) => m.is_empty(),
            VictoryBy::Cells { cells, .. } => cells.is_empty(),
        };
        if empty {
            all.remove(i);
        }
        self.apply(Edit::Victory(all));
    }

    /// The unsaved-changes prompt, over the editor.
    fn leave_prompt(
        &mut self,
        ctx: &egui::Context,
        game: Option<&MapFile>,
        out: &mut Vec<Command>,
    ) {
        let Some(leave) = self.leaving.clone() else {
            return;
        };
        let mut answer = None;
        egui::Window::new("The map has changes not saved")
            .collapsible(false)
            .resizable(false)
            .pivot(egui::Align2::CENTER_CENTER)
            .default_pos(ctx.content_rect().center())
            .show(ctx, |ui| {
                ui.label(match &leave {
                    Leave::Close => "Save the map before closing the editor?",
                    Leave::Open(_) => "Save the map before opening another?",
                });
                ui.horizontal(|ui| {
                    if ui.button("Save map").clicked() {
                        answer = Some(0);
                    }
                    if ui.button("Discard changes").clicked() {
                        answer = Some(1);
                    }
                    if ui.button("Cancel").clicked() {
                        answer = Some(2);
                    }
                });
            });
        match answer {
            Some(0) => {
                if self.path.is_none() {
                    out.push(Command::ChooseFile(Purpose::SaveMapAs));
                    return;
                }
                self.save(game, out);
                if self.unsaved() {
                    return;
                }
                self.leaving = None;
                self.after_leave(leave, game);
            }
            Some(1) => {
                self.leaving = None;
                self.ed = None;
                self.after_leave(leave, game);
            }
            Some(_) => self.leaving = None,
            None => {}
        }
    }

    fn after_leave(&mut self, leave: Leave, game: Option<&MapFile>) {
        match leave {
            Leave::Close => {
                self.open = false;
            }
            Leave::Open(Some(p)) => self.open_file(&p),
            Leave::Open(None) => {
                if let Some(m) = game {
                    self.open_game_map(m);
                }
            }
        }
    }

    /// File > Import board from VASSAL…: the module chosen; lists its boards.
    fn read_module(&mut self, path: &Path) {
        self.open = true;
        let listed = vassal::open_module(path, vassal::Limits::DEFAULT).and_then(|mut a| {
            let m = a.module()?;
            Ok((m.title(), vassal::list(&mut a, &m)))
        });
        match listed {
            Ok((title, boards)) => {
                let folder = path
                    .parent()
                    .map(|p| p.join("maps"))
                    .unwrap_or_else(|| PathBuf::from("maps"));
                let board = boards.iter().position(|b| b.grid.is_ok()).unwrap_or(0);
                self.importing = Some(Importing {
                    module: path.to_path_buf(),
                    title,
                    boards,
                    board,
                    rules: None,
                    folder: folder.display().to_string(),
                    error: None,
                });
            }
            Err(e) => self.say(format!("{}: {}", e.file, e.message), true),
        }
    }

    /// The import's window: the module's boards, the rule set where two fit, the folder.
    fn import_window(&mut self, ctx: &egui::Context) {
        let Some(imp) = &mut self.importing else {
            return;
        };
        let mut go = false;
        let mut cancel = false;
        egui::Window::new("Import board from VASSAL")
            .collapsible(false)
            .resizable(false)
            .pivot(egui::Align2::CENTER_CENTER)
            .default_pos(ctx.content_rect().center())
            .show(ctx, |ui| {
                ui.label(format!("{} ({})", imp.title, imp.module.display()));
                ui.label(RichText::new("Board:").strong());
                for (i, b) in imp.boards.iter().enumerate() {
                    let words = match &b.grid {
                        Ok(p) => format!(
                            "{} — cells {:02}{:02}-{:02}{:02}, {}",
                            b.title,
                            p.first.col,
                            p.first.row,
                            p.last.col,
                            p.last.row,
                            p.layout.as_str()
                        ),
                        Err(why) => format!("{} — not imported: {why}", b.title),
                    };
                    ui.add_enabled_ui(b.grid.is_ok(), |ui| {
                        ui.radio_value(&mut imp.board, i, words);
                    });
                }
                let layout = imp
                    .boards
                    .get(imp.board)
                    .and_then(|b| b.grid.as_ref().ok())
                    .map(|p| p.layout);
                let fits: Vec<RuleSetId> = RuleSetId::hex_sets()
                    .into_iter()
                    .filter(|r| Some(r.hex_layout()) == layout)
                    .collect();
                ui.horizontal(|ui| {
                    ui.label("Rule set:");
                    ui.radio_value(&mut imp.rules, None, "the one numbered so");
                    for r in &fits {
                        ui.radio_value(&mut imp.rules, Some(*r), r.id());
                    }
                });
                // Two sets number their cells so: the club says which board game it is.
                let ambiguous = imp.rules.is_none() && fits.len() > 1;
                if ambiguous {
                    let names: Vec<&str> = fits.iter().map(|r| r.id()).collect();
                    ui.label(
                        RichText::new(format!(
                            "This board's numbering fits {}: pick its rule set.",
                            names.join(" and ")
                        ))
                        .color(ui.visuals().warn_fg_color),
                    );
                }
                ui.horizontal(|ui| {
                    let l = ui.label("Folder to write into:");
                    super::keys::field(
                        ui,
                        egui::TextEdit::singleline(&mut imp.folder).desired_width(320.0),
                        "map_edit_import_folder",
                    )
                    .labelled_by(l.id);
                });
                if let Some(e) = &imp.error {
                    ui.label(RichText::new(e.as_str()).color(ui.visuals().error_fg_color));
                }
                ui.horizontal(|ui| {
                    if ui
                        .add_enabled(
                            layout.is_some() && !ambiguous,
                            egui::Button::new("Import and edit"),
                        )
                        .clicked()
                    {
                        go = true;
                    }
                    if ui.button("Cancel").clicked() {
                        cancel = true;
                    }
                });
            });
        if cancel {
            self.importing = None;
            return;
        }
        if !go {
            return;
        }
        let (module, board, rules, folder) = (
            imp.module.clone(),
            imp.boards.get(imp.board).map(|b| b.name.clone()),
            imp.rules,
            PathBuf::from(imp.folder.trim()),
        );
        let Some(board) = board else {
            return;
        };
        match import_board(&module, &board, rules, &folder) {
            Ok(path) => {
                self.importing = None;
                if self.unsaved() {
                    self.leaving = Some(Leave::Open(Some(path)));
                } else {
                    self.open_file(&path);
                }
            }
            Err(e) => {
                if let Some(imp) = &mut self.importing {
                    imp.error = Some(e);
                }
            }
        }
    }
}

/// Imports `board` of the module at `module` into `folder`, as `kepi map import-vassal` does;
/// returns the map file written.
pub fn import_board(
    module: &Path,
    board: &str,
    rules: Option<RuleSetId>,
    folder: &Path,
) -> Result<PathBuf, String> {
    let mut a = vassal::open_module(module, vassal::Limits::DEFAULT)
        .map_err(|e| format!("{}: {}", e.file, e.message))?;
    let m = a
        .module()
        .map_err(|e| format!("{}: {}", e.file, e.message))?;
    let b = m
        .board(board, None)
        .map_err(|e| format!("{}: {}", e.file, e.message))?
        .clone();
    let imp =
        vassal::import(&mut a, &m, &b, rules).map_err(|e| format!("{}: {}", e.file, e.message))?;
    vassal::write_imported(&imp, folder, false).map_err(|e| e.to_string())?;
    Ok(folder.join(&imp.map_file))
}

/// What saving over `path` means for the game in play: None when its map is another file.
fn game_note(game: Option<&MapFile>, path: &Path) -> Option<String> {
    let m = game?;
    let same = std::path::absolute(path)
        .ok()
        .zip(std::path::absolute(&m.file).ok())
        .is_some_and(|(a, b)| a == b);
    if !same {
        return None;
    }
    Some(match m.changed_on_disk() {
        Some(words) => format!(
            "The game in play: {words}. Start a new game on the map (kepi game new --map) to play on it."
        ),
        None => "The game in play began on this very map.".into(),
    })
}

/// The hovered cell's words: its label, terrain, country, places, sides, edges and victory.
fn hovered_words(m: &Map, h: Hex) -> String {
    let mut w = vec![m.grid.label(h)];
    if let Some(words) = board_map::cell_words(m, h) {
        w.push(words);
    }
    if let Some(c) = m.country_of(h) {
        w.push(c.as_str().to_string());
    }
    for e in m.edges_at(h) {
        w.push(format!("edge {}", e.role));
    }
    for (v, x) in m.victory_at(h) {
        w.push(format!("{} {x}", v.name));
    }
    w.join(" · ")
}

fn side_radios(ui: &mut Ui, side: &mut Option<Side>) {
    ui.label("Side:");
    ui.radio_value(side, None, "either");
    for s in Side::ALL {
        ui.radio_value(side, Some(*s), s.as_str());
    }
}

/// A legend entry: a swatch of the terrain's colour and its name, selectable.
fn swatch_button(ui: &mut Ui, colour: Color32, name: &str, chosen: bool) -> egui::Response {
    ui.horizontal(|ui| {
        let (r, _) = ui.allocate_exact_size(vec2(12.0, 12.0), Sense::hover());
        ui.painter().rect_filled(r, 2.0, colour);
        ui.selectable_label(chosen, name)
    })
    .inner
}

/// The edges' roles (a letter in the cell's corner) and the victory values (under the label).
fn paint_edges_and_victory(
    painter: &egui::Painter,
    map: &Map,
    cells: &[Hex],
    centre: &dyn Fn(Hex) -> Pos2,
    size: f32,
    colour: Color32,
) {
    let font = egui::FontId::proportional((size * 0.3).max(7.0));
    for e in &map.edges {
        let letter = match e.role {
            EdgeRole::Supply => "S",
            EdgeRole::Entry => "E",
            EdgeRole::RailLink => "R",
            EdgeRole::SeaRoute => "~",
        };
        for h in &e.cells {
            painter.text(
                centre(*h) + vec2(-size * 0.45, 0.0),
                egui::Align2::CENTER_CENTER,
                letter,
                font.clone(),
                colour,
            );
        }
    }
    for &h in cells {
        let v: Vec<String> = map
            .victory_at(h)
            .iter()
            .map(|(_, x)| x.to_string())
            .collect();
        if !v.is_empty() {
            painter.text(
                centre(h) + vec2(size * 0.42, 0.0),
                egui::Align2::CENTER_CENTER,
                v.join("/"),
                font.clone(),
                colour,
            );
        }
    }
}
