//! The picture of the printed board under the map panel's grid (issue 41, docs/MAPS.md "The
//! picture of the board"): the map's `[picture]` file, found beside the map file, decoded on a
//! thread of its own ([`kepi_game::map::picture::load_image`], never on the frame's path), cut
//! into textures of at most 2048 px a side (so a 6000 x 4000 scan draws whatever the GPU's
//! limit), and drawn as textured meshes under the terrain, the grid, the overlays and the units,
//! by the same transform as the hexes: each cell's centre on screen lands on that cell's centre in
//! the picture ([`ScreenMap`]), rotation included.
//!
//! It is loaded once per file, size and modification time (checked at most once a second); a
//! missing or bad picture is a line in the map's legend row saying which file and why. The
//! "Align picture…" mode fits the picture to the grid from cells clicked on it
//! ([`kepi_game::map::Alignment::fit`]) and saves the numbers to the map file with the same writer
//! as `kepi map align --write` ([`kepi_game::map::picture::write_alignment`]).

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::SystemTime;

use egui::{Color32, Painter, Pos2, Rect, RichText, Shape, Ui, pos2};
use kepi_game::hex::Hex;
use kepi_game::map::picture::{self, Alignment, Picture};
use kepi_game::map::{Grid, Map};

/// The largest side of one texture of the picture.
pub const TILE: usize = 2048;

/// How a point of the picture lands on the screen: an affine map, `o + x ex + y ey` for the
/// pixel (x, y). Made so that each cell's centre in the picture lands on the cell's centre on
/// screen ([`ScreenMap::of`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScreenMap {
    /// Where the picture's pixel (0, 0) lands.
    pub o: [f64; 2],
    /// Where one pixel right goes.
    pub ex: [f64; 2],
    /// Where one pixel down goes.
    pub ey: [f64; 2],
}

impl ScreenMap {
    /// The picture's pixels on the screen for a grid whose first cell's centre is at `first`
    /// and whose hexes are `size` (centre to corner): a column is 3/2 size across, a row sqrt 3
    /// size down, as the panel's `hex_to_pixel` draws them.
    pub fn of(a: &Alignment, first: Pos2, size: f32) -> ScreenMap {
        let (size, sqrt3) = (f64::from(size), 3f64.sqrt());
        let screen = |px: [f64; 2]| {
            let (u, v) = a.to_grid(px);
            [
                f64::from(first.x) + 1.5 * size * u,
                f64::from(first.y) + sqrt3 * size * v,
            ]
        };
        let o = screen([0.0, 0.0]);
        let x = screen([1.0, 0.0]);
        let y = screen([0.0, 1.0]);
        ScreenMap {
            o,
            ex: [x[0] - o[0], x[1] - o[1]],
            ey: [y[0] - o[0], y[1] - o[1]],
        }
    }

    /// A pixel of the picture on the screen.
    pub fn to_screen(&self, p: [f64; 2]) -> Pos2 {
        pos2(
            (self.o[0] + p[0] * self.ex[0] + p[1] * self.ey[0]) as f32,
            (self.o[1] + p[0] * self.ex[1] + p[1] * self.ey[1]) as f32,
        )
    }

    /// The picture's pixel under a point of the screen (None where the map is degenerate).
    pub fn to_picture(&self, s: Pos2) -> Option<[f64; 2]> {
        let det = self.ex[0] * self.ey[1] - self.ex[1] * self.ey[0];
        if det.abs() < 1e-12 || !det.is_finite() {
            return None;
        }
        let (dx, dy) = (f64::from(s.x) - self.o[0], f64::from(s.y) - self.o[1]);
        Some([
            (dx * self.ey[1] - dy * self.ey[0]) / det,
            (dy * self.ex[0] - dx * self.ex[1]) / det,
        ])
    }
}

/// One texture of the picture and the pixels of the picture it holds.
struct Tile {
    texture: egui::TextureHandle,
    /// x, y, width, height in the picture's pixels.
    at: [usize; 4],
}

/// A tile cut from the decoded picture, before it is a texture.
type Cut = ([usize; 4], egui::ColorImage);

/// What the thread that decodes sends back: the picture's size and its tiles, or why not.
type Decoded = Result<([usize; 2], Vec<Cut>), String>;

/// Where the picture stands.
enum Load {
    /// No picture to show (the map gives none, or no map).
    None,
    /// Being decoded on its thread.
    Loading(Receiver<Decoded>),
    /// Drawn from these textures.
    Ready { size: [usize; 2], tiles: Vec<Tile> },
    /// Not found, or does not read: the words say which file and why.
    Failed(String),
}

/// What the picture is loaded for: its path and, when it is there, its size and time.
type Key = (PathBuf, Option<(u64, Option<SystemTime>)>);

/// Decodes `path` and cuts it into tiles of at most `side` pixels a side (on the thread that
/// calls it: the panel's loader, never the frame).
pub fn decode_tiles(path: &Path, side: usize) -> Decoded {
    let img = picture::load_image(path)?;
    let (w, h) = (img.width() as usize, img.height() as usize);
    let side = side.max(64);
    let raw = img.as_raw();
    let mut tiles = Vec::new();
    for y0 in (0..h).step_by(side) {
        for x0 in (0..w).step_by(side) {
            let (tw, th) = (side.min(w - x0), side.min(h - y0));
            let mut pixels = Vec::with_capacity(tw * th);
            for y in y0..y0 + th {
                let start = (y * w + x0) * 4;
                let row = raw.get(start..start + tw * 4).unwrap_or_default();
                pixels.extend(
                    row.chunks_exact(4)
                        .map(|p| Color32::from_rgba_unmultiplied(p[0], p[1], p[2], p[3])),
                );
            }
            if pixels.len() != tw * th {
                return Err(format!("{}: does not decode whole", path.display()));
            }
            tiles.push(([x0, y0, tw, th], egui::ColorImage::new([tw, th], pixels)));
        }
    }
    Ok(([w, h], tiles))
}

/// The clicks of "Align picture…": each a cell typed (pre-filled with the cell under the click)
/// and the pixel of the picture clicked; two fit, a third checks.
#[derive(Default)]
struct Aligning {
    points: Vec<(String, [f64; 2])>,
    /// What saving said last.
    said: Option<String>,
}

/// The map panel's picture: what is loaded, the legend row's two checkboxes, the align mode and
/// an alignment saved from it.
pub struct PictureLayer {
    key: Option<Key>,
    load: Load,
    /// When the file was last looked at (the ui's time, seconds).
    looked: f64,
    /// The "Picture" checkbox: draw it.
    pub show: bool,
    /// The "Terrain colours" checkbox: fill the cells with their terrain's colour over it.
    pub terrain: bool,
    aligning: Option<Aligning>,
    /// The alignment saved from the window for this map file (the game keeps the map it began
    /// with; the picture is only drawn, so the window draws what the file now says).
    saved: Option<(String, Picture)>,
}

impl Default for PictureLayer {
    fn default() -> Self {
        PictureLayer {
            key: None,
            load: Load::None,
            looked: f64::NEG_INFINITY,
            show: true,
            terrain: true,
            aligning: None,
            saved: None,
        }
    }
}

impl std::fmt::Debug for PictureLayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PictureLayer")
            .field("key", &self.key)
            .field("show", &self.show)
            .field("terrain", &self.terrain)
            .finish()
    }
}

/// The picture a map gives, as the window draws it: what was saved from the window for this map
/// file, else the map's own `[picture]`.
fn picture_of<'a>(
    saved: &'a Option<(String, Picture)>,
    file: &str,
    map: &'a Map,
) -> Option<&'a Picture> {
    match saved {
        Some((f, p)) if f == file => Some(p),
        _ => map.picture.as_ref(),
    }
}

impl PictureLayer {
    /// The picture in force for `map` read from `file` (the alignment the window draws), with the
    /// preview of a fit under way.
    pub fn alignment(&self, file: &str, map: &Map) -> Option<Alignment> {
        let pic = picture_of(&self.saved, file, map)?;
        Some(
            self.fitted(map)
                .and_then(Result::ok)
                .map_or(pic.alignment, |(a, _)| a),
        )
    }

    /// Whether the picture is drawn this frame (shown, and loaded).
    pub fn drawn(&self) -> bool {
        self.show && matches!(self.load, Load::Ready { .. })
    }

    /// Whether the align mode is on (clicks on the board pick cells of the picture).
    pub fn aligning(&self) -> bool {
        self.aligning.is_some()
    }

    /// Loads the picture of `map` (read from `file`) when it changed: looks at the file at most
    /// once a second, decodes on a thread, and makes the textures when the thread is done.
    pub fn update(&mut self, ctx: &egui::Context, file: Option<&str>, map: Option<&Map>) {
        let Some((file, map)) = file.zip(map) else {
            self.key = None;
            self.load = Load::None;
            return;
        };
        let Some(pic) = picture_of(&self.saved, file, map) else {
            self.key = None;
            self.load = Load::None;
            return;
        };
        let now = ctx.input(|i| i.time);
        if self.key.is_none() || now - self.looked >= 1.0 || now < self.looked {
            self.looked = now;
            let Some(path) = picture::picture_path(file, pic) else {
                self.key = None;
                self.load = Load::Failed(format!(
                    "{}: not found: {} is kepi's own map, compiled in, with no folder beside it",
                    pic.file, file
                ));
                return;
            };
            let stat = std::fs::metadata(&path)
                .ok()
                .map(|m| (m.len(), m.modified().ok()));
            let key = (path.clone(), stat);
            if self.key.as_ref() != Some(&key) {
                self.key = Some(key);
                self.load = if stat.is_none() {
                    Load::Failed(format!(
                        "{}: not found beside the map ({})",
                        pic.file,
                        path.display()
                    ))
                } else {
                    let side = ctx.input(|i| i.max_texture_side).clamp(64, TILE);
                    let (tx, rx) = channel();
                    let spawned = std::thread::Builder::new()
                        .name("kepi-picture".into())
                        .spawn(move || {
                            let _ = tx.send(decode_tiles(&path, side));
                        });
                    match spawned {
                        Ok(_) => Load::Loading(rx),
                        Err(e) => Load::Failed(format!("{}: cannot be read: {e}", pic.file)),
                    }
                };
            }
        }
        if let Load::Loading(rx) = &self.load {
            match rx.try_recv() {
                Ok(Ok((size, cuts))) => {
                    let tiles = cuts
                        .into_iter()
                        .map(|(at, image)| Tile {
                            texture: ctx.load_texture(
                                format!("map-picture-{}-{}", at[0], at[1]),
                                image,
                                egui::TextureOptions::LINEAR,
                            ),
                            at,
                        })
                        .collect();
                    self.load = Load::Ready { size, tiles };
                }
                Ok(Err(why)) => self.load = Load::Failed(why),
                Err(TryRecvError::Empty) => {
                    ctx.request_repaint_after(std::time::Duration::from_millis(50));
                }
                Err(TryRecvError::Disconnected) => {
                    self.load = Load::Failed("the picture's loader stopped".into());
                }
            }
        }
    }

    /// The picture's words in the legend row: "Picture: board.png 64x48", loading, or which
    /// file and why it is not drawn.
    pub fn words(&self, file: &str, map: &Map) -> Option<String> {
        let pic = picture_of(&self.saved, file, map)?;
        Some(match &self.load {
            Load::None => format!("Picture: {}", pic.file),
            Load::Loading(_) => format!("Picture: {} loading…", pic.file),
            Load::Ready { size, .. } => format!("Picture: {} {}x{}", pic.file, size[0], size[1]),
            Load::Failed(why) => format!("Picture: {why}"),
        })
    }

    /// The picture's words and the "Picture" and "Terrain colours" checkboxes (the map
    /// editor's row); false when the map names no picture.
    pub fn toggles_ui(&mut self, ui: &mut Ui, file: &str, map: &Map) -> bool {
        let Some(words) = self.words(file, map) else {
            return false;
        };
        let failed = matches!(self.load, Load::Failed(_));
        ui.separator();
        if failed {
            ui.label(RichText::new(words).color(ui.visuals().warn_fg_color));
        } else {
            ui.label(words);
        }
        ui.checkbox(&mut self.show, "Picture");
        ui.checkbox(&mut self.terrain, "Terrain colours");
        true
    }

    /// The legend row's part: [`Self::toggles_ui`] and "Align picture…".
    pub fn legend_ui(&mut self, ui: &mut Ui, file: &str, map: &Map) {
        if !self.toggles_ui(ui, file, map) {
            return;
        }
        let ready = matches!(self.load, Load::Ready { .. });
        if ui
            .add_enabled(ready && self.aligning.is_none(), egui::Button::new("Align picture…"))
            .on_hover_text("Click two cells' centres on the picture and type their numbers: kepi fits the picture to the grid")
            .clicked()
        {
            self.aligning = Some(Aligning::default());
            self.show = true;
        }
    }

    /// The fit of the clicks so far: None under two clicks; else the alignment and the third
    /// click's pixels off, or why not.
    fn fitted(&self, map: &Map) -> Option<Result<(Alignment, Option<f64>), String>> {
        let a = self.aligning.as_ref()?;
        if a.points.len() < 2 {
            return None;
        }
        let cell = |(text, px): &(String, [f64; 2])| -> Result<(Hex, [f64; 2]), String> {
            let h = Hex::from_label(text, map.grid.layout).map_err(|e| e.to_string())?;
            Ok((h, *px))
        };
        Some((|| -> Result<(Alignment, Option<f64>), String> {
            let one = cell(&a.points[0])?;
            let two = cell(&a.points[1])?;
            let fit = Alignment::fit(&map.grid, one, two)?;
            let off = match a.points.get(2) {
                Some(p) => {
                    let (h, px) = cell(p)?;
                    if !map.grid.contains(h) {
                        return Err(format!("cell {} is off the map", map.grid.label(h)));
                    }
                    Some(fit.check(&map.grid, h, px))
                }
                None => None,
            };
            Ok((fit, off))
        })())
    }

    /// A click on the board in the align mode: the picture's pixel under it and the cell drawn
    /// there (its number pre-filled; the umpire types the right one).
    pub fn clicked(&mut self, px: [f64; 2], cell: Option<String>) {
        if let Some(a) = &mut self.aligning
            && a.points.len() < 3
        {
            a.points.push((cell.unwrap_or_default(), px));
            a.said = None;
        }
    }

    /// The align mode's row: what to do, the cells clicked with their numbers (stable ids, so
    /// keystrokes land), the fitted numbers and the error, Save and Cancel.
    pub fn align_ui(&mut self, ui: &mut Ui, file: &str, map: &Map) {
        let fitted = self.fitted(map);
        let grid = map.grid;
        let Some(a) = &mut self.aligning else {
            return;
        };
        let mut done = false;
        let mut save = None;
        ui.group(|ui| {
            ui.label(RichText::new("Align picture").strong());
            // Every row is there from the start (three cells, the fit, the check), so nothing
            // below moves while the umpire clicks: the board stays under the pointer.
            ui.label(match a.points.len() {
                0 => "Click a cell's centre on the picture; type its number.",
                1 => "Click a second cell's centre, far from the first.",
                2 => "Click a third cell to check the fit, or save.",
                _ => "Three cells clicked: save, or clear and click again.",
            });
            for i in 0..3 {
                ui.horizontal(|ui| {
                    let label = ui.label(["First cell:", "Second cell:", "Check cell:"][i]);
                    match a.points.get_mut(i) {
                        Some((text, px)) => {
                            super::keys::field(
                                ui,
                                egui::TextEdit::singleline(text).desired_width(48.0),
                                ("map_align_cell", i),
                            )
                            .labelled_by(label.id);
                            ui.label(format!(
                                "at ({}, {}) px",
                                picture::num(px[0]),
                                picture::num(px[1])
                            ));
                        }
                        None => {
                            ui.weak(if i == 2 {
                                "not clicked (optional)"
                            } else {
                                "not clicked yet"
                            });
                        }
                    }
                });
            }
            // Two short lines, whatever the fit says, so neither wraps in a narrow panel.
            match &fitted {
                Some(Ok((fit, _))) => {
                    ui.label(format!(
                        "Fitted: first cell at ({}, {})",
                        picture::num(fit.origin[0]),
                        picture::num(fit.origin[1]),
                    ));
                    ui.label(format!(
                        "column {} px, row {} px, rotation {}°",
                        picture::num(fit.column),
                        picture::num(fit.row),
                        picture::num(fit.rotation)
                    ));
                }
                Some(Err(why)) => {
                    ui.label(RichText::new(why).color(ui.visuals().warn_fg_color));
                    ui.weak("Fitted: not yet");
                }
                None => {
                    ui.weak("Fitted: after two cells");
                    ui.weak("column, row and rotation from them");
                }
            }
            match (&fitted, &a.said) {
                (_, Some(said)) => ui.label(said.as_str()),
                (Some(Ok((_, Some(off)))), None) => {
                    ui.label(format!("Check: {} px off", picture::num(*off)))
                }
                _ => ui.weak("Check: a third cell says how far off the fit is"),
            };
            ui.horizontal(|ui| {
                let ok = matches!(fitted, Some(Ok(_)));
                if ui
                    .add_enabled(ok, egui::Button::new("Save to the map file"))
                    .clicked()
                    && let Some(Ok((fit, off))) = &fitted
                {
                    save = Some((*fit, *off));
                }
                if ui.button("Clear clicks").clicked() {
                    a.points.clear();
                    a.said = None;
                }
                if ui.button("Cancel").clicked() {
                    done = true;
                }
            });
        });
        if let Some((fit, off)) = save {
            let Some(pic) = picture_of(&self.saved, file, map) else {
                return;
            };
            let points = &a.points;
            let cell = |i: usize| {
                points
                    .get(i)
                    .and_then(|(t, px)| Some((Hex::from_label(t, grid.layout).ok()?, *px)))
            };
            let note = match (cell(0), cell(1)) {
                (Some(one), Some(two)) => Some(picture::note(
                    &grid,
                    one,
                    two,
                    cell(2).zip(off).map(|((h, _), off)| (h, off)),
                )),
                _ => None,
            };
            let new = Picture {
                file: pic.file.clone(),
                alignment: fit,
                aligned: note,
            };
            match picture::write_alignment(Path::new(file), &new) {
                Ok(_) => {
                    self.saved = Some((file.to_string(), new.as_written()));
                    done = true;
                }
                Err(e) => a.said = Some(format!("Not saved: {e}")),
            }
        }
        if done {
            self.aligning = None;
        }
    }

    /// The picture under the grid: each tile a textured mesh placed by `at` (only the tiles
    /// that show in the painter's clip).
    pub fn paint(&self, painter: &Painter, at: &ScreenMap) {
        let Load::Ready { tiles, .. } = &self.load else {
            return;
        };
        if !self.show {
            return;
        }
        let clip = painter.clip_rect();
        for t in tiles {
            let [x, y, w, h] = t.at.map(|v| v as f64);
            let corners = [[x, y], [x + w, y], [x + w, y + h], [x, y + h]].map(|p| at.to_screen(p));
            let bounds = Rect::from_points(&corners);
            if !bounds.intersects(clip) || !bounds.is_finite() {
                continue;
            }
            let mut mesh = egui::Mesh::with_texture(t.texture.id());
            let uv = [
                pos2(0.0, 0.0),
                pos2(1.0, 0.0),
                pos2(1.0, 1.0),
                pos2(0.0, 1.0),
            ];
            for (p, uv) in corners.into_iter().zip(uv) {
                mesh.vertices.push(egui::epaint::Vertex {
                    pos: p,
                    uv,
                    color: Color32::WHITE,
                });
            }
            mesh.add_triangle(0, 1, 2);
            mesh.add_triangle(0, 2, 3);
            painter.add(Shape::mesh(mesh));
        }
    }
}

/// The screen map of `map`'s picture for a grid drawn with `centre` and `size`.
pub fn screen_map(
    a: &Alignment,
    grid: &Grid,
    centre: &dyn Fn(Hex) -> Pos2,
    size: f32,
) -> ScreenMap {
    ScreenMap::of(a, centre(Hex::from_offset(grid.first, grid.layout)), size)
}

/// How far apart two screen points are (tests).
#[cfg(test)]
fn apart(a: Pos2, b: Pos2) -> f32 {
    (a - b).length()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::hex_to_pixel;
    use kepi_game::hex::{Layout, Offset};

    #[test]
    fn each_cells_centre_on_the_picture_lands_on_its_centre_on_screen() {
        for layout in [Layout::OddQ, Layout::EvenQ] {
            let grid = Grid {
                layout,
                first: Offset { col: 1, row: 1 },
                last: Offset { col: 12, row: 10 },
            };
            for (rotation, row) in [
                (0.0, 97.0),
                (11.0, 84.0 * picture::REGULAR_RATIO),
                (-90.0, 70.0),
            ] {
                let a = Alignment {
                    origin: [412.0, 96.5],
                    column: 84.0,
                    row,
                    rotation,
                };
                let size = 28.0;
                let origin = pos2(100.0, 50.0);
                let centre = |h: Hex| origin + hex_to_pixel(h, size);
                let m = screen_map(&a, &grid, &centre, size);
                for h in grid.cells() {
                    let on_screen = m.to_screen(a.centre(&grid, h));
                    assert!(apart(on_screen, centre(h)) < 0.01, "{layout:?} {rotation}");
                    let back = m.to_picture(centre(h)).unwrap();
                    let c = a.centre(&grid, h);
                    assert!((back[0] - c[0]).hypot(back[1] - c[1]) < 0.01);
                }
            }
        }
    }

    #[test]
    fn a_picture_is_cut_into_tiles_no_larger_than_the_limit() {
        let dir = std::env::temp_dir().join(format!("kepi-tiles-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.png");
        let img =
            image::RgbaImage::from_fn(150, 70, |x, y| image::Rgba([x as u8, y as u8, 7, 255]));
        img.save(&path).unwrap();
        let (size, tiles) = decode_tiles(&path, 64).unwrap();
        assert_eq!(size, [150, 70]);
        assert_eq!(tiles.len(), 3 * 2);
        for (at, image) in &tiles {
            assert!(at[2] <= 64 && at[3] <= 64);
            assert_eq!(image.size, [at[2], at[3]]);
            // The tile's first pixel is the picture's pixel at its corner.
            assert_eq!(
                image.pixels[0],
                Color32::from_rgb(at[0] as u8, at[1] as u8, 7)
            );
        }
        let covered: usize = tiles.iter().map(|(at, _)| at[2] * at[3]).sum();
        assert_eq!(covered, 150 * 70);
        let e = decode_tiles(&dir.join("none.png"), 64).unwrap_err();
        assert!(e.contains("none.png"), "{e}");
        std::fs::write(dir.join("junk.png"), b"not a picture").unwrap();
        let e = decode_tiles(&dir.join("junk.png"), 64).unwrap_err();
        assert!(e.contains("junk.png") && e.contains("PNG or JPEG"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_degenerate_map_has_no_inverse() {
        let m = ScreenMap {
            o: [0.0, 0.0],
            ex: [1.0, 1.0],
            ey: [2.0, 2.0],
        };
        assert_eq!(m.to_picture(pos2(1.0, 1.0)), None);
    }
}
