//! The hex map for the hex rule sets (Portable Wargame, SPI, 1870): the flat-topped, odd-q grid of
//! [`kepi_game::hex`] with its board labels, the units on their hexes (side colour, initials, strength,
//! facing tick), and the umpire's tools: click a unit to act with it, right-click to target it, drag
//! it to another hex to move it; the selected unit's weapon range (PW-U1, PW-G1), the line to the
//! hovered hex, zones of control, and the distance in hexes to the hex under the cursor.
//!
//! The geometry (hex to pixel and back) is pure and tested; the panel only draws and sends
//! [`Command`]s.

use egui::{Color32, Pos2, Rect, RichText, Sense, Shape, Stroke, StrokeKind, Ui, Vec2, vec2};

use super::board_map;
use super::state::{Command, View};
use super::text_cache::TextCache;
use kepi_game::engine::flow::HexNow;
use kepi_game::engine::game::{Action, GameState, UnitState};
use kepi_game::engine::play::board::{hex_in, position_in};
use kepi_game::hex::{Hex, Layout, Offset, ZocLimits, zone_of_control};
use kepi_game::roster::{Facing, Side};
use kepi_game::rules::RuleSetId;

/// True for the rule sets played on hexes.
pub fn has_map(system: RuleSetId) -> bool {
    kepi_game::registry::get(system).uses_hexes()
}

const SQRT3: f32 = 1.732_050_8;

/// Lines the map's status slot keeps (the hover's or drag's distance and notes).
const MAP_STATUS_LINES: usize = 2;

/// The pixel offset of a hex's centre from the centre of axial hex (0, 0), for flat-topped hexes
/// of `size` (centre to corner): x = 3/2 size q, y = sqrt3 size (r + q/2).
pub fn hex_to_pixel(h: Hex, size: f32) -> Vec2 {
    let (q, r) = (h.q as f32, h.r as f32);
    vec2(size * 1.5 * q, size * SQRT3 * (r + q / 2.0))
}

/// The hex containing a pixel offset from the centre of axial hex (0, 0): the inverse of
/// [`hex_to_pixel`] followed by cube rounding.
pub fn pixel_to_hex(p: Vec2, size: f32) -> Hex {
    let size = size.max(1e-3);
    let q = (2.0 / 3.0 * p.x) / size;
    let r = (-p.x / 3.0 + SQRT3 / 3.0 * p.y) / size;
    let s = -q - r;
    let (mut rq, mut rr, rs) = (q.round(), r.round(), s.round());
    let (dq, dr, ds) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
    if dq > dr && dq > ds {
        rq = -rr - rs;
    } else if dr > ds {
        rr = -rq - rs;
    }
    Hex::new(rq as i32, rr as i32)
}

/// The six corners of a flat-topped hex around `centre`, clockwise from the right-hand corner.
pub fn hex_corners(centre: Pos2, size: f32) -> [Pos2; 6] {
    std::array::from_fn(|i| {
        let a = (60.0 * i as f32).to_radians();
        centre + vec2(size * a.cos(), size * a.sin())
    })
}

/// The screen angle (radians, clockwise from +x, y down) a facing points at: the six hexsides of a
/// flat-topped hex (N straight up), and east and west at the side corners.
pub fn facing_angle(f: Facing) -> f32 {
    let deg: f32 = match f {
        Facing::N => 270.0,
        Facing::Ne => 330.0,
        Facing::E => 0.0,
        Facing::Se => 30.0,
        Facing::S => 90.0,
        Facing::Sw => 150.0,
        Facing::W => 180.0,
        Facing::Nw => 210.0,
    };
    deg.to_radians()
}

/// A unit's short name on the map: the initials of its words (numbers kept whole, little words
/// such as "de" left out), at most four characters.
pub fn abbreviation(name: &str) -> String {
    let small = ["de", "du", "des", "la", "le", "of", "the", "von", "d'"];
    let mut out = String::new();
    for w in name.split(|c: char| c.is_whitespace() || c == ',' || c == '/' || c == '(') {
        let w = w.trim_matches(|c: char| !c.is_alphanumeric());
        if w.is_empty() || small.contains(&w.to_lowercase().as_str()) {
            continue;
        }
        let digits: String = w.chars().take_while(|c| c.is_ascii_digit()).collect();
        if !digits.is_empty() {
            out.push_str(&digits);
        } else if let Some(c) = w.chars().next() {
            out.extend(c.to_uppercase());
        }
    }
    out.chars().take(4).collect()
}

/// Each unit's label on its counter, in the order of `units` (id, name): its [`abbreviation`],
/// and where two units share one (SPI's "German 5 (area 2, #1)" and "(area 2, #2)" both read
/// "G5A2": issue 46), a mark that tells them apart after a dot: the last number of the name where
/// those differ, else the last part of the id, else its place among them.
pub fn counter_labels<'a>(units: impl Iterator<Item = (&'a str, &'a str)>) -> Vec<String> {
    let units: Vec<(&str, &str)> = units.collect();
    let base: Vec<String> = units.iter().map(|(_, n)| abbreviation(n)).collect();
    let mut groups: std::collections::HashMap<&str, Vec<usize>> = Default::default();
    for (i, b) in base.iter().enumerate() {
        groups.entry(b.as_str()).or_default().push(i);
    }
    let last_number = |name: &str| -> String {
        name.split(|c: char| !c.is_ascii_digit())
            .rfind(|w| !w.is_empty())
            .unwrap_or_default()
            .to_string()
    };
    let id_tail = |id: &str| -> String {
        id.rsplit(['-', '_', '.', ' '])
            .next()
            .unwrap_or_default()
            .to_string()
    };
    let distinct = |marks: &[String]| {
        marks.iter().all(|m| !m.is_empty())
            && marks
                .iter()
                .enumerate()
                .all(|(k, m)| !marks[..k].contains(m))
    };
    let mut out = base.clone();
    for members in groups.values().filter(|m| m.len() > 1) {
        let by_name: Vec<String> = members.iter().map(|&i| last_number(units[i].1)).collect();
        let by_id: Vec<String> = members.iter().map(|&i| id_tail(units[i].0)).collect();
        let marks = if distinct(&by_name) {
            by_name
        } else if distinct(&by_id) {
            by_id
        } else {
            (1..=members.len()).map(|k| k.to_string()).collect()
        };
        for (&i, m) in members.iter().zip(marks) {
            out[i] = format!("{}·{m}", base[i]);
        }
    }
    out
}

/// The board's extent in printed columns and rows: the units' hexes with a hex of margin, at least
/// 8 x 6 (a Hexon table), within labels 00-99.
pub fn board_extent(hexes: &[Hex]) -> (Offset, Offset) {
    board_extent_in(hexes, Layout::OddQ)
}

/// [`board_extent`] on a board numbered in `layout` (the rule set's).
pub fn board_extent_in(hexes: &[Hex], layout: Layout) -> (Offset, Offset) {
    let offs: Vec<Offset> = hexes.iter().map(|h| h.to_offset(layout)).collect();
    let min_c = offs.iter().map(|o| o.col).min().unwrap_or(1);
    let max_c = offs.iter().map(|o| o.col).max().unwrap_or(8);
    let min_r = offs.iter().map(|o| o.row).min().unwrap_or(1);
    let max_r = offs.iter().map(|o| o.row).max().unwrap_or(6);
    let c0 = (min_c - 1).clamp(0, 99);
    let r0 = (min_r - 1).clamp(0, 99);
    let c1 = (max_c + 1).max(c0 + 8).clamp(0, 99);
    let r1 = (max_r + 1).max(r0 + 6).clamp(0, 99);
    (Offset { col: c0, row: r0 }, Offset { col: c1, row: r1 })
}

/// A hex of `state`'s board to give as an example in a hex field (issue 46: "0304" was shown on
/// 1870's map, which has no such cell): the first unit's on the map, else "0101".
pub fn example_hex(state: &GameState) -> String {
    let layout = state.system.hex_layout();
    state
        .units
        .iter()
        .find_map(|u| on_map(u, layout))
        .and_then(|h| h.label(layout))
        .unwrap_or_else(|| "0101".to_string())
}

/// A side's colour in the window ([`Side::rgb`], the one source the chart and the prints use).
pub fn side_colour(s: Side) -> Color32 {
    let [r, g, b] = s.rgb();
    Color32::from_rgb(r, g, b)
}

/// The map's screen frame: where axial (0, 0) sits and how big a hex is.
#[derive(Clone, Copy, Debug)]
struct Frame {
    origin: Pos2,
    size: f32,
    /// How the rule set's board numbers its hexes.
    layout: Layout,
}

impl Frame {
    fn centre(&self, h: Hex) -> Pos2 {
        self.origin + hex_to_pixel(h, self.size)
    }
    fn hex_at(&self, p: Pos2) -> Hex {
        pixel_to_hex(p - self.origin, self.size)
    }
}

fn on_map(u: &UnitState, layout: Layout) -> Option<Hex> {
    if u.eliminated() {
        None
    } else {
        hex_in(u.position, layout)
    }
}

/// What the reach shown depends on: the game as it stands (its log's length and head) and the
/// unit picked.
type ReachKey = ((usize, String), Option<String>);

/// The Map tab's own state: the hex size and overlay chosen, the line under the tools, the board
/// drawn so far and a drag under way.
#[derive(Debug, Default)]
pub struct MapPanel {
    /// Hex size in points (None: the default, 28).
    size: Option<f32>,
    /// Zones of control drawn (None: as the rule set has them).
    zoc: Option<bool>,
    /// The line above the board (what is hovered, a drag's note), from the last frame.
    status: String,
    /// The board drawn so far, per rule set: it only grows while the window is open.
    extent: Option<(&'static str, Offset, Offset)>,
    /// Where a unit being dragged is now (unit, hex): kept, since the pointer may be gone on the
    /// frame it is released.
    drag: Option<(String, Hex)>,
    /// The resolver's form now (the window sets it before drawing): its fires shade the range.
    form: Option<&'static str>,
    /// The counters' labels ([`counter_labels`]) for the game as it stands.
    labels: super::state::Memo<(usize, String), Vec<String>>,
    /// The cells the unit picked may reach ([`reach_of`]), for the game as it stands and the
    /// unit picked: searched once, not every frame.
    reach: super::state::Memo<ReachKey, Option<kepi_game::map::Reach>>,
    /// The unit picked's supply traced on the map ([`supply_of`]), for the game as it stands and
    /// the unit picked (SPI-S1).
    supply: super::state::Memo<ReachKey, Option<kepi_game::engine::play::supply::UnitSupply>>,
    /// What a drag would log (the move's cost and notes, [`kepi_game::engine::flow::move_notes`],
    /// and the markers it puts on or takes off, [`kepi_game::engine::flow::move_effects`])
    /// for the game as it stands, the unit dragged and the hex under it: worked out when the hex
    /// changes, not every frame of the drag (SPI's cost replays the phase's moves on the map).
    drag_notes: super::state::Memo<((usize, String), String, Hex), Vec<String>>,
    /// The map's legend ([`board_map::legend`]), per map (its text's hash).
    legend: super::state::Memo<String, Vec<(String, Color32)>>,
    /// The picture of the printed board under the grid, and aligning it (issue 41).
    picture: super::board_picture::PictureLayer,
    /// The cells' labels and the counters' text, laid out once (issue 41's 4 ms frame).
    text: super::text_cache::TextCache,
    /// Each side's controlled cells on the map as the rules apply them
    /// ([`kepi_game::engine::play::board::controlled_cells`]), for the game as it stands.
    zones: super::state::Memo<(usize, String), Zones>,
    /// The rail network the unit picked's side may use, as its rule set traces it (SPI-S2), for
    /// the game as it stands and that side: its cells and where the trace stopped.
    rail: super::state::Memo<((usize, String), Option<Side>), RailNetwork>,
    /// The kind of cell marker a click puts on or takes off (issue 45: SPI's rail cut, 1870's
    /// possession markers), when the umpire has picked one; None: clicks act with units.
    marking: Option<&'static str>,
}

/// A side's rail network: its cells and the cells where its trace stopped.
type RailNetwork = Option<(std::collections::HashSet<Hex>, Vec<Hex>)>;

/// The rail network `side` may use on the game's map, from the supply trace
/// ([`kepi_game::engine::play::supply::game_supply`]: the rail sources and the stops); None
/// without one.
pub fn rail_network(state: &GameState, side: Side) -> RailNetwork {
    let supply = kepi_game::engine::play::supply::game_supply(state);
    let want = kepi_game::engine::play::supply::map_side(side);
    let layout = state.system.hex_layout();
    let traced = supply.sides.iter().find(|s| s.side == want)?;
    use kepi_game::map::supply::SourceKind;
    let stops: Vec<Hex> = traced
        .rail_stops
        .iter()
        .filter_map(|o| Hex::from_label(&o.cell, layout).ok())
        .collect();
    if !traced.sources.iter().any(|s| s.kind == SourceKind::Rail) && stops.is_empty() {
        return None;
    }
    // The rail cells traced and the edge cells they were traced from.
    let cells = traced
        .sources
        .iter()
        .filter(|s| matches!(s.kind, SourceKind::Rail | SourceKind::Edge))
        .map(|s| s.hex)
        .collect();
    Some((cells, stops))
}

/// The French and the German zones of control, as the map shades them ([`zones_of`]).
type Zones = Vec<(Side, Vec<Hex>)>;

/// Each side's zone of control as the map shades it: the cells the rules apply on the map
/// (SPI-Z1, [`kepi_game::engine::play::board::controlled_cells`]: the ones a move pays for), or,
/// where the rule set declares none on a map, the six cells around each unit less those the other
/// side holds.
fn zones_of(state: &GameState, layout: Layout) -> Zones {
    [Side::French, Side::German]
        .into_iter()
        .map(|side| {
            let cells = kepi_game::engine::play::board::controlled_cells(state, side)
                .unwrap_or_else(|| {
                    let limits = ZocLimits {
                        rivers: Default::default(),
                        friendly_held: state
                            .units
                            .iter()
                            .filter(|o| o.unit.side != side)
                            .filter_map(|o| on_map(o, layout))
                            .collect(),
                    };
                    state
                        .units
                        .iter()
                        .filter(|u| u.unit.side == side)
                        .filter_map(|u| on_map(u, layout))
                        .flat_map(|h| zone_of_control(h, &limits))
                        .collect()
                });
            (side, cells)
        })
        .collect()
}

impl MapPanel {
    /// Tells the map which resolver form is open (None: none), so it shades the acting unit's
    /// weapon range only where that counts ([`kepi_game::engine::rule_set::RuleSet::range_shaded`]).
    pub fn set_form(&mut self, form: Option<&'static str>) {
        self.form = form;
    }

    /// Sets the hex size (the zoom), within the slider's 14 to 48 points.
    pub fn set_hex_size(&mut self, size: f32) {
        self.size = Some(size.clamp(14.0, 48.0));
    }

    /// Whether the picture of the board is drawn (shown, and loaded): the frame bench waits for
    /// it.
    pub fn picture_drawn(&self) -> bool {
        self.picture.drawn()
    }

    /// Draws the map: click a unit to act with it, right-click a target, drag to move (the move's
    /// notes said while dragging). In order: the tools, the placement row, the status line, the
    /// board (in its scroll area) with the units on it; then the status for the next frame.
    pub fn ui(&mut self, ui: &mut Ui, view: &View) -> Vec<Command> {
        let mut out = Vec::new();
        self.text.begin_frame(ui.ctx());
        let mut size: f32 = self.size.unwrap_or(28.0);
        let mut zoc: bool = self
            .zoc
            .unwrap_or_else(|| view.state().system.zones_of_control());
        let mut scene = Scene::of(view, self.form);
        let key = (
            super::state::game_key(view.game),
            view.selected.map(str::to_string),
        );
        scene.supply = self
            .supply
            .get(key.clone(), || supply_of(scene.state, scene.selected))
            .clone();
        scene.reach = self
            .reach
            .get(key, || {
                reach_of(scene.state, scene.selected, scene.map.is_some())
            })
            .clone();
        let legend: &[(String, Color32)] = match (scene.map, &scene.state.map) {
            (Some(map), Some(carried)) => self
                .legend
                .get(carried.sha256.clone(), || board_map::legend(map)),
            _ => &[],
        };
        let map_file = scene.state.map.as_ref().map(|m| m.file.as_str());
        self.picture.update(ui.ctx(), map_file, scene.map);
        tools_ui(
            ui,
            (&mut size, &mut zoc),
            scene.map.zip(map_file),
            legend,
            &mut self.picture,
        );
        marking_ui(
            ui,
            &mut self.marking,
            scene.state.system.cell_markers(),
            scene.map.is_some(),
        );
        if let (Some(map), Some(file)) = (scene.map, map_file) {
            self.picture.align_ui(ui, file, map);
        }
        placement_ui(ui, &scene, &mut out);
        self.size = Some(size);
        self.zoc = Some(zoc);
        self.status_ui(ui);
        let (lo, hi) = self.grown_extent(&scene);
        let grid: Vec<Hex> = (lo.col..=hi.col)
            .flat_map(|c| {
                (lo.row..=hi.row)
                    .map(move |r| Hex::from_offset(Offset { col: c, row: r }, scene.layout))
            })
            .collect();
        let board = Board {
            size,
            zoc,
            lo,
            hi,
            grid: &grid,
        };
        let hovered_text = self.board_ui(ui, view, &scene, &board, &mut out);
        self.status = scene.status(hovered_text);
        out
    }

    /// The status slot: two lines always, wrapped (issue 46: a distance or a note's end was cut at
    /// 1366x768): a long note never moves the map under the cursor, as the slot's height is
    /// fixed. It says what the last frame left (taken), or how to use the map.
    fn status_ui(&mut self, ui: &mut Ui) {
        let status = std::mem::take(&mut self.status);
        super::widgets::lines_label(
            ui,
            if status.is_empty() {
                RichText::new("Click a unit: acting · right-click: target · drag: move").weak()
            } else {
                RichText::new(status).strong()
            },
            MAP_STATUS_LINES,
        );
    }

    /// The board's corners this frame. The board only grows while the window is open: a drag that
    /// empties the edge row must not shrink it, which moved every hex under the pointer (two rows
    /// on the 1870 board).
    fn grown_extent(&mut self, scene: &Scene) -> (Offset, Offset) {
        let (mut lo, mut hi) = board_extent_in(&scene.hexes, scene.layout);
        if let Some((_, l, h)) = self.extent.filter(|(id, _, _)| *id == scene.rules) {
            lo = Offset {
                col: lo.col.min(l.col),
                row: lo.row.min(l.row),
            };
            hi = Offset {
                col: hi.col.max(h.col),
                row: hi.row.max(h.row),
            };
        }
        self.extent = Some((scene.rules, lo, hi));
        (lo, hi)
    }

    /// The board in its scroll area ("map_scroll"): the shading and outlines under the grid, the
    /// grid, the hovered hex, then the units. Returns what the hovered hex or a drag says.
    /// Over 150 lines: the board's layers in painting order (shading, grid, hover, units, the
    /// drag), one pass over the same painter and scene.
    fn board_ui(
        &mut self,
        ui: &mut Ui,
        view: &View,
        scene: &Scene,
        board: &Board,
        out: &mut Vec<Command>,
    ) -> String {
        let mut hovered_text = String::new();
        egui::ScrollArea::both()
            .id_salt("map_scroll")
            .show(ui, |ui| {
                let (rect, fr) = board.allocate(ui, scene.layout);
                let painter = ui.painter_at(rect);
                let visuals = ui.visuals().clone();
                let hover_pos = ui
                    .input(|i| i.pointer.hover_pos())
                    .filter(|p| rect.contains(*p));
                let hovered = hover_pos
                    .map(|p| fr.hex_at(p))
                    .filter(|h| board.grid.contains(h));
                let centre = |h: Hex| fr.centre(h);
                // Only the cells on screen (and a margin) are drawn: a 60 x 40 board shows a few
                // hundred of its 2,400 cells at 1366x768, and a frame is 4 ms at most (issue 41).
                let visible =
                    board_map::on_screen(&painter, board.grid.iter().copied(), &centre, fr.size);
                // The picture of the printed board first, under everything (issue 41).
                let file = scene.state.map.as_ref().map(|m| m.file.as_str());
                let on_screen = scene
                    .map
                    .zip(file)
                    .and_then(|(map, file)| Some((map, self.picture.alignment(file, map)?)))
                    .map(|(map, a)| {
                        super::board_picture::screen_map(&a, &map.grid, &centre, fr.size)
                    });
                if let Some(at) = &on_screen {
                    self.picture.paint(&painter, at);
                }
                if let Some(map) = scene.map.filter(|_| self.picture.terrain) {
                    // Translucent over the picture, so the printed board reads through.
                    let alpha = if self.picture.drawn() { 0.3 } else { 0.55 };
                    board_map::paint_terrain(&painter, map, &visible, &centre, fr.size, alpha);
                }
                if let Some(reach) = &scene.reach {
                    let text = visuals.strong_text_color();
                    board_map::paint_reach(&painter, &mut self.text, reach, &centre, fr.size, text);
                }
                if board.zoc {
                    let zones = self.zones.get(super::state::game_key(view.game), || {
                        zones_of(scene.state, scene.layout)
                    });
                    paint_zones_of_control(&painter, &fr, &visible, zones);
                }
                if let Some(t) = scene.supply.as_ref().and_then(|x| x.traced.as_ref()) {
                    board_map::paint_supply(&painter, t, scene.layout, &centre, fr.size);
                }
                paint_weapon_range(&painter, scene, &fr, &visible, &visuals);
                paint_after_combat(&painter, scene, &fr, &visible);
                if let (Some(s), Some(h)) = (scene.sel_hex, hovered)
                    && s != h
                {
                    paint_line_to(&painter, &fr, s, h);
                }
                board_map::paint_grid(
                    &painter,
                    &mut self.text,
                    &visible,
                    &centre,
                    fr.size,
                    &|h| h.label(fr.layout),
                    &visuals,
                );
                if let Some(map) = scene.map {
                    board_map::paint_features(&painter, map, &visible, &centre, fr.size);
                    let side = scene.selected.map(|u| u.unit.side);
                    let rail = self
                        .rail
                        .get((super::state::game_key(view.game), side), || {
                            side.and_then(|side| rail_network(scene.state, side))
                        });
                    if let (Some((cells, stops)), Some(side)) = (rail, side) {
                        board_map::paint_rail_network(
                            &painter,
                            map,
                            (cells, stops),
                            &centre,
                            fr.size,
                            side_colour(side),
                        );
                    }
                    let names = visuals.strong_text_color();
                    board_map::paint_places(
                        &painter,
                        &mut self.text,
                        map,
                        &visible,
                        &centre,
                        fr.size,
                        names,
                    );
                }
                paint_marks(&painter, scene, &fr, &visuals);
                if let Some(h) = hovered {
                    let mut pts = hex_corners(fr.centre(h), fr.size).to_vec();
                    pts.push(pts[0]);
                    painter.add(Shape::line(
                        pts,
                        Stroke::new(2.0, visuals.strong_text_color()),
                    ));
                    hovered_text = scene.hover_text(h);
                }
                if self.picture.aligning() {
                    // Aligning: a click picks the picture's pixel under it (the units stay off).
                    let click =
                        ui.interact(rect, ui.scope_id().with("map_align_click"), Sense::click());
                    if click.clicked()
                        && let Some(p) = click.interact_pointer_pos()
                        && let Some(px) = on_screen.and_then(|at| at.to_picture(p))
                    {
                        let h = fr.hex_at(p);
                        let cell = board.grid.contains(&h).then(|| h.label_or_axial(fr.layout));
                        self.picture.clicked(px, cell);
                    }
                } else {
                    if let Some(note) =
                        self.units_on_board_ui(ui, view, scene, &fr, board.grid, out)
                    {
                        hovered_text = note;
                    }
                    // Marking (issue 45): a click anywhere on the board, units too, marks the cell
                    // under it (this sense is laid over theirs; a drag still moves a unit).
                    if let Some(kind) = self.marking {
                        let click =
                            ui.interact(rect, ui.scope_id().with("map_mark_click"), Sense::click());
                        if click.clicked()
                            && let Some(p) = click.interact_pointer_pos()
                            && board.grid.contains(&fr.hex_at(p))
                            && let Some(cell) = position_in(fr.hex_at(p), scene.layout)
                        {
                            let on = !scene.state.marked(kind, cell);
                            out.push(Command::Act(kepi_game::engine::game::Action::Mark {
                                kind: kind.to_string(),
                                cell,
                                on,
                            }));
                        }
                    }
                }
            });
        hovered_text
    }

    /// The units on the board, with the notes a drag would log ([`units_ui`]); returns the note
    /// on the move being dragged, if any.
    fn units_on_board_ui(
        &mut self,
        ui: &mut Ui,
        view: &View,
        scene: &Scene,
        fr: &Frame,
        grid: &[Hex],
        out: &mut Vec<Command>,
    ) -> Option<String> {
        let (state, layout) = (scene.state, scene.layout);
        let tables = view.tables;
        let game = view.game;
        let key = super::state::game_key(game);
        let notes = std::cell::RefCell::new(&mut self.drag_notes);
        let warn = |u: &UnitState, to: Hex| {
            notes
                .borrow_mut()
                .get((key.clone(), u.unit.id.clone(), to), || {
                    position_in(to, layout)
                        .map(|p| {
                            let mp = kepi_game::engine::flow::move_cost(game, &u.unit.id, p, None);
                            // What the drop will do to the board by the rules (SPI-E2's rail
                            // cut, the EB unit's secured line) first, in one line, then what
                            // the rules say against it: a long note is elided at its end.
                            let effects =
                                kepi_game::engine::flow::move_effects(game.state(), &u.unit.id, p);
                            let mut ids: Vec<String> = Vec::new();
                            let done: Vec<String> = effects
                                .iter()
                                .map(|e| {
                                    for r in e.rules(game.state().system) {
                                        if !ids.iter().any(|i| i == r.as_str()) {
                                            ids.push(r.as_str().to_string());
                                        }
                                    }
                                    e.describe(game.state())
                                })
                                .collect();
                            let mut said: Vec<String> = Vec::new();
                            if !done.is_empty() {
                                said.push(format!(
                                    "this move: {} ({})",
                                    done.join("; "),
                                    ids.join(", ")
                                ));
                            }
                            said.extend(kepi_game::engine::flow::move_notes(
                                game, &u.unit.id, p, mp, tables,
                            ));
                            said
                        })
                        .unwrap_or_default()
                })
                .clone()
        };
        let labels = self.labels.get(key.clone(), || {
            counter_labels(
                state
                    .units
                    .iter()
                    .map(|u| (u.unit.id.as_str(), u.unit.name.as_str())),
            )
        });
        units_ui(
            ui,
            app_units(state, layout),
            labels,
            fr,
            view.selected,
            view.target,
            grid,
            &warn,
            (&mut self.drag, &mut self.text),
            out,
        )
    }
}

/// What one frame of the map reads from the game: the unit picked and its reach, the hexes the
/// checks are about, and the hexes something stands on.
struct Scene<'a> {
    state: &'a GameState,
    selected: Option<&'a UnitState>,
    /// The rule set's id (the board drawn so far is kept per rule set).
    rules: &'static str,
    layout: Layout,
    sel_hex: Option<Hex>,
    weapon_range: Option<u32>,
    /// The weapon range shaded this frame, if any.
    shaded_range: Option<u32>,
    /// Hexes a check is about: the hex, what the check says of it now, who stands in it now.
    due_hexes: Vec<(Hex, String, Option<HexNow>)>,
    /// The hexes units and checks are on (the board is drawn around them).
    hexes: Vec<Hex>,
    /// Units in play that are not on the map.
    off_map: usize,
    /// The board's map the game carries, when it reads (issue 41).
    map: Option<&'a kepi_game::map::Map>,
    /// The cells the unit picked may reach on the map, in a movement phase (issue 41): the
    /// panel's memo of [`reach_of`], set after the scene is made.
    reach: Option<kepi_game::map::Reach>,
    /// The unit picked's supply traced on the map (SPI-S1): the panel's memo of [`supply_of`].
    supply: Option<kepi_game::engine::play::supply::UnitSupply>,
}

impl<'a> Scene<'a> {
    fn of(view: &View<'a>, form: Option<&'static str>) -> Scene<'a> {
        let state = view.state();
        let selected = view.selected.and_then(|id| state.unit(id));
        let rules = state.system;
        let layout = rules.hex_layout();
        let on_map = |u: &UnitState| on_map(u, layout);
        let sel_hex = selected.and_then(on_map);
        let weapon_range =
            selected.and_then(|u| rules.hex_range(u, state.date.or(state.start_date), view.tables));
        // Shaded only where the range counts (the fire phases, a fire in the resolver): in the
        // movement phase it read as how far the unit may go (issue 46). The hover line still
        // says whether a hex is in range.
        let shaded_range = weapon_range
            .filter(|r| *r > 0 && sel_hex.is_some())
            .filter(|_| rules.range_shaded(state.phase_kind(), form));
        // Hexes a check is about (SPI-C4, FR-C2: the hex a combat vacated) stay on the board; what
        // is said and drawn about them follows who stands in them now.
        let due_hexes: Vec<(Hex, String, Option<HexNow>)> = state
            .due
            .iter()
            .filter_map(|d| Some((hex_in(d.at?, layout)?, d.what_now(state), d.hex_now(state))))
            .collect();
        let map = state.board().filter(|m| m.grid.layout == layout);
        // The whole map is shown, and any unit or check beyond it.
        let corners = map.map(|m| [m.grid.first, m.grid.last].map(|o| Hex::from_offset(o, layout)));
        let hexes: Vec<Hex> = state
            .units
            .iter()
            .filter_map(on_map)
            .chain(due_hexes.iter().map(|(h, _, _)| *h))
            .chain(corners.into_iter().flatten())
            .collect();
        let off_map = state
            .units
            .iter()
            .filter(|u| !u.eliminated() && hex_in(u.position, layout).is_none())
            .count();
        Scene {
            state,
            selected,
            rules: rules.id(),
            layout,
            sel_hex,
            weapon_range,
            shaded_range,
            due_hexes,
            hexes,
            off_map,
            map,
            reach: None,
            supply: None,
        }
    }

    /// What the hovered hex `h` says: its distance from the unit picked and whether it is in its
    /// weapon range, or its label alone.
    fn hover_text(&self, h: Hex) -> String {
        let mut text = self.distance_text(h);
        if let Some(words) = self.map.and_then(|m| super::board_map::cell_words(m, h)) {
            text = format!("{text} · {words}");
        }
        if let Some(words) = self
            .reach
            .as_ref()
            .and_then(|r| board_map::reach_words(r, h))
        {
            text = format!("{text} · {words}");
        }
        if let (Some(u), Some(x)) = (self.selected, &self.supply) {
            text = format!("{text} · {} supply: {}", u.unit.name, x.says());
        }
        text
    }

    /// The hovered hex's distance from the unit picked and whether it is in its weapon range, or
    /// its label alone.
    fn distance_text(&self, h: Hex) -> String {
        let label = h.label_or_axial(self.layout);
        match (self.selected, self.sel_hex) {
            (Some(u), Some(s)) => {
                let d = s.distance(h);
                let reach = match self.weapon_range {
                    Some(0) => " · does not fire".to_string(),
                    Some(r) if d >= 1 && d <= r => format!(" · in range ({r})"),
                    Some(r) => format!(" · out of range ({r})"),
                    None => String::new(),
                };
                format!(
                    "Distance from {} to {label}: {}{reach}",
                    u.unit.name,
                    kepi_game::rules::count(d, "hex", "hexes")
                )
            }
            _ => format!("Hex {label}"),
        }
    }

    /// The map's status for the next frame: a retreat the unit picked must make first, then what
    /// the board said (`hovered_text`); with nothing said, the first hex a check is about.
    fn status(&self, mut hovered_text: String) -> String {
        if let Some(u) = self.selected.filter(|u| self.state.awaits_move(u))
            && let Some(cells) = self.state.system.retreat_cells(self.state, u)
        {
            // The outlined cells, named (FR-C2, E13: none the enemy controls unless a friend
            // holds it): the rule set's `retreat_cells`, as the outline and the retreat check's
            // line give them.
            let cells: Vec<String> = cells.iter().map(|p| p.to_string()).collect();
            let must = if cells.is_empty() {
                format!(
                    "{} must retreat one cell (FR-C2): no cell is open around it (blocked: \
                     eliminated)",
                    u.unit.name
                )
            } else {
                format!(
                    "{} must retreat one cell (FR-C2): drag it to a marked cell ({})",
                    u.unit.name,
                    cells.join(", ")
                )
            };
            hovered_text = if hovered_text.is_empty() {
                must
            } else {
                format!("{must} · {hovered_text}")
            };
        }
        if hovered_text.is_empty()
            && let Some((h, what, _)) = self.due_hexes.first()
        {
            let label = h.label_or_axial(self.layout);
            // Not "2544: cell 2544 ...": the words name the hex already.
            hovered_text = if what.contains(&label) {
                what.clone()
            } else {
                format!("{label}: {what}")
            };
        }
        hovered_text
    }
}

/// The board's size this frame: the hex size, whether zones of control are drawn, its corners and
/// its hexes.
struct Board<'g> {
    size: f32,
    zoc: bool,
    lo: Offset,
    hi: Offset,
    grid: &'g [Hex],
}

impl Board<'_> {
    /// Takes the board's room in the scroll area and places the grid in it.
    fn allocate(&self, ui: &mut Ui, layout: Layout) -> (Rect, Frame) {
        let (size, lo, hi) = (self.size, self.lo, self.hi);
        let cols = (hi.col - lo.col + 1) as f32;
        let rows = (hi.row - lo.row + 1) as f32;
        // Room for the scroll bars too, so they never cover the last column or row.
        let bar = ui.spacing().scroll.allocated_width() + 2.0;
        let want = vec2(
            size * (1.5 * cols + 0.5) + 4.0 + bar,
            size * SQRT3 * (rows + 0.5) + 4.0 + bar,
        );
        let (rect, _bg) = ui.allocate_exact_size(want, Sense::hover());
        // The first row's higher hex sets the top: which of the first two columns sits
        // higher depends on the board's numbering (odd-q, or 1870's even-q).
        let top_left = hex_to_pixel(Hex::from_offset(lo, layout), size);
        let next = Offset {
            col: lo.col + 1,
            row: lo.row,
        };
        let top = top_left
            .y
            .min(hex_to_pixel(Hex::from_offset(next, layout), size).y);
        let origin = rect.min + vec2(size + 2.0, size * SQRT3 / 2.0 + 2.0) - vec2(top_left.x, top);
        (
            rect,
            Frame {
                origin,
                size,
                layout,
            },
        )
    }
}

/// The unit picked's supply traced on the game's map (SPI-S1, issue 41's "a traced supply line
/// (highlighted)"), from the same function as `kepi game supply`; None without a map that traces
/// it or for a unit not traced.
fn supply_of(
    state: &GameState,
    selected: Option<&UnitState>,
) -> Option<kepi_game::engine::play::supply::UnitSupply> {
    let u = selected?;
    kepi_game::engine::play::supply::unit_supply(state, &u.unit.id).filter(|x| x.traced.is_some())
}

/// The markers on the board's cells (issue 45): each its kind's tag in a small box at the top of
/// its cell, the boxes of one cell side by side.
fn paint_marks(painter: &egui::Painter, scene: &Scene, fr: &Frame, visuals: &egui::Visuals) {
    let kinds = scene.state.system.cell_markers();
    let mut at: std::collections::HashMap<Hex, f32> = std::collections::HashMap::new();
    for m in &scene.state.marks {
        let Some(h) = hex_in(m.cell, scene.layout) else {
            continue;
        };
        let tag = kinds
            .iter()
            .find(|k| k.name == m.kind)
            .map_or(m.kind.as_str(), |k| k.tag);
        let n = at.entry(h).or_insert(0.0);
        let size = (fr.size * 0.32).max(8.0);
        let pos = fr.centre(h) + vec2(-fr.size * 0.3 + *n, -fr.size * 0.62);
        let galley = painter.layout_no_wrap(
            tag.to_string(),
            egui::FontId::proportional(size),
            Color32::WHITE,
        );
        let r = egui::Rect::from_min_size(pos, galley.size() + vec2(4.0, 0.0));
        painter.rect_filled(r, 2.0, Color32::from_rgb(0xb0, 0x20, 0x20));
        painter.rect_stroke(
            r,
            2.0,
            Stroke::new(1.0, visuals.strong_text_color()),
            egui::StrokeKind::Inside,
        );
        painter.galley(pos + vec2(2.0, 0.0), galley, Color32::WHITE);
        *n += r.width() + 2.0;
    }
}

/// The map's tools: the hex size and whether zones of control are drawn.
/// The cells the unit picked may reach, with their cost (issue 41, [`kepi_game::map::reach`]):
/// shown in a movement phase only (in a fire phase a shading read as how far a unit may go, issue
/// 46), for a unit on the game's map with a movement allowance on its card.
fn reach_of(
    state: &GameState,
    selected: Option<&UnitState>,
    has_map: bool,
) -> Option<kepi_game::map::Reach> {
    use kepi_game::engine::game::clock::Step;
    let moving = matches!(
        state.phase_kind().map(|p| p.step),
        Some(Step::Movement | Step::MovementAndFire)
    );
    let u = selected.filter(|_| has_map && moving)?;
    kepi_game::engine::play::board::unit_reach(state, &u.unit.id, None)
        .ok()
        .map(|r| r.reach)
}

/// The cell markers' row (issue 45), for a rule set that has some and a game on its map: which
/// kind a click on a cell puts on or takes off, or off (clicks act with units). One row that
/// does not change with the choice, so nothing below it moves.
fn marking_ui(
    ui: &mut Ui,
    marking: &mut Option<&'static str>,
    kinds: &'static [kepi_game::engine::game::CellMarkerKind],
    on_map: bool,
) {
    if kinds.is_empty() || !on_map {
        *marking = None;
        return;
    }
    ui.horizontal(|ui| {
        let now = kinds
            .iter()
            .find(|k| Some(k.name) == *marking)
            .map_or("off", |k| k.label);
        egui::ComboBox::new("map_marking", "markers")
            .selected_text(now)
            .show_ui(ui, |ui| {
                ui.selectable_value(marking, None, "off");
                for k in kinds {
                    ui.selectable_value(marking, Some(k.name), k.label)
                        .on_hover_text(format!("{} ({})", k.what, k.rule));
                }
            });
        // Short, so the row fits its column at 1366x768 whatever the kind's label.
        ui.label(RichText::new("click a cell: on / off").weak())
            .on_hover_text(
                "a click on a cell of the map puts the marker on it, or takes it off; logged, and \
             undone like any action",
            );
    });
}

fn tools_ui(
    ui: &mut Ui,
    (size, zoc): (&mut f32, &mut bool),
    map: Option<(&kepi_game::map::Map, &str)>,
    legend: &[(String, Color32)],
    picture: &mut super::board_picture::PictureLayer,
) {
    ui.horizontal(|ui| {
        ui.add(egui::Slider::new(size, 14.0..=48.0).text("hex size"));
        ui.checkbox(zoc, "zones of control");
    });
    // The board's map in a row of its own (beside the tools it ran off the column at 1366x768):
    // its name, and each terrain's colour (issue 41). The row is the game's: it does not change
    // while the game is open, so nothing below it moves.
    if let Some((map, file)) = map {
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new("map").weak())
                .on_hover_text(format!("{} ({})", map.name, map.file));
            for (name, colour) in legend {
                let (r, _) = ui.allocate_exact_size(vec2(10.0, 10.0), Sense::hover());
                ui.painter().rect_filled(r, 2.0, *colour);
                ui.label(name);
            }
            picture.legend_ui(ui, file, map);
        });
    }
}

/// Where units come onto the map: the selected unit, placed right here (a row two lines high
/// whatever it holds, so the map below keeps its place); with none off the map picked, how many
/// are off it, after what the shading means.
fn placement_ui(ui: &mut Ui, scene: &Scene, out: &mut Vec<Command>) {
    let (state, layout) = (scene.state, scene.layout);
    // What the shading means, said in this row (two lines, wrapped): beside the tools it ran
    // past the map's edge at 1366x768 ("shaded: weapo", issue 46).
    let shaded = scene.shaded_range.map(|r| {
        format!(
            "shaded: weapon range {}",
            kepi_game::rules::count(r, "hex", "hexes")
        )
    });
    ui.horizontal(|ui| {
        ui.set_min_height(super::widgets::lines_height(ui, 2));
        if let Some(u) = scene
            .selected
            .filter(|u| !u.eliminated() && hex_in(u.position, layout).is_none())
        {
            // The name in a box of one width (elided there, whole on hover), so the field
            // after it is at one place whatever unit is picked (issue 46).
            // Wrapped on two lines in that box (issue 46: a long name was cut), the row
            // two lines high whatever is picked (below), so the map never moves.
            let size = egui::vec2(220.0, super::widgets::lines_height(ui, 2));
            let name = format!("{}: hex", u.unit.name);
            let label = ui
                .allocate_ui_with_layout(
                    size,
                    egui::Layout::left_to_right(egui::Align::Center),
                    |ui| {
                        ui.set_min_size(size);
                        super::widgets::lines_label(ui, RichText::new(&name), 2)
                    },
                )
                .inner
                .id;
            super::roster::hex_field_ui(ui, state, u, u.id(), label, false, out);
        } else {
            let placing = if scene.off_map > 0 {
                format!(
                    "{} off the map: pick one in the roster to place it here",
                    kepi_game::rules::count(scene.off_map, "unit", "units")
                )
            } else {
                "every unit is on the map".to_string()
            };
            let text = match &shaded {
                Some(shaded) => format!("{shaded} · {placing}"),
                None => placing,
            };
            super::widgets::lines_label(ui, RichText::new(text).weak(), 2);
        }
    });
}

/// Each side's zone of control ([`zones_of`], kept per game) shaded on the cells on screen.
fn paint_zones_of_control(painter: &egui::Painter, fr: &Frame, grid: &[Hex], zones: &Zones) {
    let grid: std::collections::HashSet<Hex> = grid.iter().copied().collect();
    for (side, cells) in zones {
        for z in cells.iter().filter(|z| grid.contains(z)) {
            painter.add(Shape::convex_polygon(
                hex_corners(fr.centre(*z), fr.size).to_vec(),
                side_colour(*side).gamma_multiply(0.18),
                Stroke::NONE,
            ));
        }
    }
}

/// The selected unit's weapon range (PW-U1), where it is shaded this frame.
fn paint_weapon_range(
    painter: &egui::Painter,
    scene: &Scene,
    fr: &Frame,
    grid: &[Hex],
    visuals: &egui::Visuals,
) {
    if let (Some(s), Some(r)) = (scene.sel_hex, scene.shaded_range) {
        let c = visuals.selection.bg_fill.gamma_multiply(0.25);
        for h in s.disc(r) {
            if grid.contains(&h) && h != s {
                painter.add(Shape::convex_polygon(
                    hex_corners(fr.centre(h), fr.size).to_vec(),
                    c,
                    Stroke::NONE,
                ));
            }
        }
    }
}

/// After a combat (FR-C2, SPI-C4): the cells a unit that must retreat may go to (not into an
/// enemy-held hex nor an empty one the enemy controls: the one answer of `retreat_cells`), and
/// the hexes the defenders left, for the victors.
fn paint_after_combat(painter: &egui::Painter, scene: &Scene, fr: &Frame, grid: &[Hex]) {
    let size = fr.size;
    let after_combat = Color32::from_rgb(230, 140, 40);
    if let Some(u) = scene
        .selected
        .filter(|u| scene.state.awaits_move(u) && !u.eliminated())
        && let Some(cells) = scene.state.system.retreat_cells(scene.state, u)
    {
        for h in cells.into_iter().filter_map(|p| hex_in(p, scene.layout)) {
            if grid.contains(&h) {
                let mut pts = hex_corners(fr.centre(h), size * 0.9).to_vec();
                pts.push(pts[0]);
                painter.add(Shape::line(pts, Stroke::new(3.0, after_combat)));
            }
        }
    }
    // Only an empty hex is offered for the advance: once units stand in it, the
    // outline goes (the status line says who holds it).
    for (h, _, now) in &scene.due_hexes {
        if grid.contains(h) && *now == Some(HexNow::Empty) {
            let c = fr.centre(*h);
            let mut pts = hex_corners(c, size * 0.9).to_vec();
            pts.push(pts[0]);
            painter.add(Shape::line(
                pts,
                Stroke::new(3.0, Color32::from_rgb(90, 190, 110)),
            ));
            // In the middle of the empty hex: below it, a counter on the hex beneath
            // covered the first letter ("dvance").
            painter.text(
                c,
                egui::Align2::CENTER_CENTER,
                "advance?",
                egui::FontId::proportional((size * 0.30).max(7.0)),
                Color32::from_rgb(90, 190, 110),
            );
        }
    }
}

/// The line from the selected unit's hex `s` to the hovered hex `h`: the hexes it crosses, and the
/// line itself.
fn paint_line_to(painter: &egui::Painter, fr: &Frame, s: Hex, h: Hex) {
    for l in s.line_to(h) {
        painter.add(Shape::convex_polygon(
            hex_corners(fr.centre(l), fr.size * 0.92).to_vec(),
            Color32::from_rgba_unmultiplied(240, 200, 60, 40),
            Stroke::NONE,
        ));
    }
    painter.line_segment(
        [fr.centre(s), fr.centre(h)],
        Stroke::new(2.0, Color32::from_rgb(240, 200, 60)),
    );
}

/// The units on the map: each with its hex, its place in its hex's stack and its index in the
/// game's units.
fn app_units(state: &GameState, layout: Layout) -> Vec<(&UnitState, Hex, usize, usize)> {
    let mut seen: Vec<(Hex, usize)> = Vec::new();
    let mut v = Vec::new();
    for (index, u) in state.units.iter().enumerate() {
        let Some(h) = on_map(u, layout) else { continue };
        let k = match seen.iter_mut().find(|(x, _)| *x == h) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                seen.push((h, 0));
                0
            }
        };
        v.push((u, h, k, index));
    }
    v
}

/// The unit counters: drawn on their hexes (stacked ones offset), each an interactive widget named
/// after its unit (click: acting, right-click: target, drag: move).
/// Draws the units and handles clicks and drags; returns the note on the move being dragged, if
/// `warn` finds one (a PW move beyond the allowance), for the map's status line.
#[allow(clippy::too_many_arguments)]
fn units_ui(
    ui: &mut Ui,
    units: Vec<(&UnitState, Hex, usize, usize)>,
    labels: &[String],
    fr: &Frame,
    selected: Option<&str>,
    target: Option<&str>,
    grid: &[Hex],
    warn: &dyn Fn(&UnitState, Hex) -> Vec<String>,
    (drag, text): (&mut Option<(String, Hex)>, &mut TextCache),
    out: &mut Vec<Command>,
) -> Option<String> {
    let mut drag_note = None;
    let size = fr.size;
    // A counter off screen stays a widget (found by its name, scrolled to) but is not drawn this
    // frame (the frame's cost follows what is seen, issue 41), unless it is being dragged.
    let seen = ui.clip_rect().expand(size);
    for (u, h, k, index) in units {
        let shift = vec2(k as f32 * size * 0.18, k as f32 * size * 0.14);
        let centre = fr.centre(h) + shift + vec2(0.0, size * 0.12);
        let rect = Rect::from_center_size(centre, vec2(size * 1.15, size * 0.8));
        let resp = counter_response(ui, u, rect);
        if seen.intersects(rect) || resp.dragged() {
            paint_counter_at(
                (ui, text),
                u,
                (h, shift, rect),
                &resp,
                labels.get(index),
                fr,
                (selected, target),
            );
        }
        counter_clicks(ui, &resp, u, out);
        if let Some(note) = counter_drag(ui, &resp, (u, h), fr, grid, warn, drag, out) {
            drag_note = Some(note);
        }
    }
    drag_note
}

/// Paints one counter where it stands (or under the pointer while dragged), outlined when it is
/// the acting unit or the target, with its facing.
fn paint_counter_at(
    (ui, text): (&Ui, &mut TextCache),
    u: &UnitState,
    (h, shift, rect): (Hex, egui::Vec2, Rect),
    resp: &egui::Response,
    label: Option<&String>,
    fr: &Frame,
    (selected, target): (Option<&str>, Option<&str>),
) {
    let size = fr.size;
    let visuals = ui.visuals();
    {
        let drawn = if resp.dragged() {
            ui.input(|i| i.pointer.latest_pos())
                .map(|p| Rect::from_center_size(p, rect.size()))
                .unwrap_or(rect)
        } else {
            rect
        };
        let outline = if selected == Some(u.unit.id.as_str()) {
            Stroke::new(2.5, Color32::from_rgb(250, 210, 60))
        } else if target == Some(u.unit.id.as_str()) {
            Stroke::new(2.5, Color32::from_rgb(230, 60, 50))
        } else {
            Stroke::new(1.0, visuals.strong_text_color().gamma_multiply(0.5))
        };
        let label = label.cloned().unwrap_or_else(|| abbreviation(&u.unit.name));
        paint_counter(ui.painter(), text, u, drawn, outline, &label, size);
        if let Some(f) = u.facing {
            let a = facing_angle(f);
            let dir = vec2(a.cos(), a.sin());
            let c = fr.centre(h) + shift + (drawn.center() - rect.center());
            ui.painter().line_segment(
                [c + dir * size * 0.55, c + dir * size * 0.85],
                Stroke::new(3.0, side_colour(u.unit.side)),
            );
        }
    }
}

/// A counter's widget at `rect`, named after its unit ("map_unit" and its id, in the map's
/// scope), saying its name, place and strength on hover.
fn counter_response(ui: &mut Ui, u: &UnitState, rect: Rect) -> egui::Response {
    let id = ui.scope_id().with(("map_unit", &u.unit.id));
    let resp = ui.interact(rect, id, Sense::click_and_drag());
    let name = u.unit.name.clone();
    resp.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &name));
    // Said only while hovered: 200 counters' texts were formatted every frame.
    resp.on_hover_ui(|ui| {
        ui.label(format!(
            "{} · {} · {} {}",
            u.unit.name,
            u.position,
            if u.unit.arm == kepi_game::roster::Arm::Fortress {
                "fortification, strength"
            } else {
                "strength"
            },
            if u.strength_hidden {
                "hidden".to_string()
            } else {
                u.strength.to_string()
            }
        ));
    })
}

/// A counter drawn at `drawn`: its shape in its side's colour with `outline`, its `label`, and its
/// strength ("?" when hidden).
fn paint_counter(
    painter: &egui::Painter,
    text: &mut TextCache,
    u: &UnitState,
    drawn: Rect,
    outline: Stroke,
    label: &str,
    size: f32,
) {
    let fill = side_colour(u.unit.side);
    if u.unit.arm == kepi_game::roster::Arm::Fortress {
        // SPI-F1, FR-F1: a fortification is drawn as the text's hexagonal counter, so it
        // stands apart from the units it fortifies.
        let c = drawn.center();
        let r = drawn.height() * 0.7;
        let points: Vec<egui::Pos2> = (0..6)
            .map(|i| {
                let a = std::f32::consts::FRAC_PI_3 * i as f32;
                c + vec2(a.cos(), a.sin()) * r
            })
            .collect();
        painter.add(Shape::convex_polygon(
            points,
            fill.gamma_multiply(0.8),
            outline,
        ));
    } else {
        painter.rect_filled(drawn, 3.0, fill);
        painter.rect_stroke(drawn, 3.0, outline, StrokeKind::Inside);
    }
    // The label, smaller where it is longer than the counter is wide (a mark after a dot).
    let mut font = (size * 0.32).max(7.0);
    let room = drawn.width() - 3.0;
    let w = text.layout(painter, label, font, false).size().x;
    if w > room && w > 0.0 {
        font = (font * room / w).max(6.0);
    }
    text.paint(
        painter,
        (
            drawn.center() - vec2(0.0, size * 0.14),
            egui::Align2::CENTER_CENTER,
        ),
        label,
        (font, false),
        Color32::WHITE,
    );
    let strength = if u.strength_hidden {
        "?".to_string()
    } else {
        u.strength.to_string()
    };
    text.paint(
        painter,
        (
            drawn.center() + vec2(0.0, size * 0.2),
            egui::Align2::CENTER_CENTER,
        ),
        &strength,
        ((size * 0.30).max(7.0), true),
        Color32::WHITE,
    );
}

/// A click on a counter picks its unit to act; Ctrl-click adds it to the hex combat's attackers or
/// takes it out (SPI-C2, FR-C1); a right-click makes it the target.
fn counter_clicks(ui: &Ui, resp: &egui::Response, u: &UnitState, out: &mut Vec<Command>) {
    if resp.clicked() && ui.input(|i| i.modifiers.command) {
        out.push(Command::ToggleAttacker(u.unit.id.clone()));
    } else if resp.clicked() {
        out.push(Command::Select(u.unit.id.clone()));
    }
    if resp.secondary_clicked() {
        out.push(Command::Target(u.unit.id.clone()));
    }
}

/// A counter dragged: where it is now (kept in `drag`, since the pointer may be gone on the frame
/// it is released) with the note `warn` finds for the move, returned; dropped on another hex of
/// the grid, the move. `at` is the unit and the hex it stands on.
#[allow(clippy::too_many_arguments)]
fn counter_drag(
    ui: &Ui,
    resp: &egui::Response,
    at: (&UnitState, Hex),
    fr: &Frame,
    grid: &[Hex],
    warn: &dyn Fn(&UnitState, Hex) -> Vec<String>,
    drag: &mut Option<(String, Hex)>,
    out: &mut Vec<Command>,
) -> Option<String> {
    let (u, h) = at;
    let mut drag_note = None;
    // Where the drag is now; kept, since the pointer may be gone on the frame it is released.
    if resp.dragged()
        && let Some(p) = ui.input(|i| i.pointer.latest_pos())
    {
        let to = fr.hex_at(p);
        *drag = Some((u.unit.id.clone(), to));
        // Checked while dragging, so the note shows before the drop.
        let said = warn(u, to);
        if !said.is_empty() {
            drag_note = Some(format!("Note: {}", said.join("; ")));
        }
    }
    if resp.drag_stopped()
        && let Some(to) = ui
            .input(|i| i.pointer.latest_pos())
            .map(|p| fr.hex_at(p))
            .or_else(|| {
                drag.as_ref()
                    .filter(|(id, _)| *id == u.unit.id)
                    .map(|(_, h)| *h)
            })
    {
        *drag = None;
        if to != h
            && grid.contains(&to)
            && let Some(pos) = position_in(to, fr.layout)
        {
            // The umpire decides: the move is made, and its log entry keeps what was odd
            // about it ([`kepi_game::engine::flow::move_notes`], filled in where it is applied).
            out.push(Command::Act(Action::Move {
                unit: u.unit.id.clone(),
                to: pos,
                notes: Vec::new(),
                mp: None,
                effects: Vec::new(),
            }));
        }
    }
    drag_note
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixel_round_trip_every_hex_centre_and_near_it() {
        for q in -6..7 {
            for r in -6..7 {
                let h = Hex::new(q, r);
                let p = hex_to_pixel(h, 30.0);
                assert_eq!(pixel_to_hex(p, 30.0), h);
                // Anywhere well inside the hex (within the inner circle) is still the hex.
                for a in 0..12 {
                    let t = (30.0 * a as f32).to_radians();
                    let q = p + vec2(t.cos(), t.sin()) * 30.0 * 0.8;
                    assert_eq!(pixel_to_hex(q, 30.0), h, "{h:?} at {a}");
                }
            }
        }
    }

    #[test]
    fn neighbours_sit_where_their_direction_points() {
        use kepi_game::hex::Direction;
        let o = Hex::new(2, 3);
        for (d, f) in [
            (Direction::N, Facing::N),
            (Direction::NE, Facing::Ne),
            (Direction::SE, Facing::Se),
            (Direction::S, Facing::S),
            (Direction::SW, Facing::Sw),
            (Direction::NW, Facing::Nw),
        ] {
            let v = hex_to_pixel(o.neighbour(d), 10.0) - hex_to_pixel(o, 10.0);
            // Neighbour centres are sqrt3 * size apart, in the facing's direction.
            assert!((v.length() - SQRT3 * 10.0).abs() < 1e-3);
            let a = facing_angle(f);
            assert!(
                (v.normalized() - vec2(a.cos(), a.sin())).length() < 1e-3,
                "{d:?}"
            );
        }
    }

    #[test]
    fn odd_columns_sit_half_a_hex_lower() {
        let a = Hex::from_offset(Offset { col: 2, row: 1 }, Layout::OddQ);
        let b = Hex::from_offset(Offset { col: 3, row: 1 }, Layout::OddQ);
        let d = hex_to_pixel(b, 10.0) - hex_to_pixel(a, 10.0);
        assert!((d.y - SQRT3 * 5.0).abs() < 1e-3);
    }

    #[test]
    fn abbreviations() {
        assert_eq!(abbreviation("1st Prussian Infantry"), "1PI");
        assert_eq!(abbreviation("1er bataillon, 93e de ligne"), "1B93");
        assert_eq!(abbreviation("Prussian Uhlans"), "PU");
    }

    #[test]
    fn extent_covers_units_with_a_margin() {
        let h = |s: &str| Hex::from_label(s, Layout::OddQ).unwrap();
        let (lo, hi) = board_extent(&[h("0201"), h("0705")]);
        assert_eq!((lo.col, lo.row, hi.col, hi.row), (1, 0, 9, 6));
        let (lo, hi) = board_extent(&[]);
        assert!(hi.col - lo.col >= 8 && hi.row - lo.row >= 6);
    }
}
