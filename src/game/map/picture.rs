//! The picture of the printed board under the hex grid (issue 41, docs/MAPS.md "The picture of
//! the board"): a map's `[picture]` table names a PNG or JPEG beside the map file and how the grid
//! lies on it, so that each cell's centre in the window lands on the same cell's centre in the
//! picture.
//!
//! The geometry is pure over plain numbers: [`Alignment::centre`] gives a cell's centre in the
//! picture's pixels, [`Alignment::cell_at`] its inverse, [`Alignment::fit`] the similarity fit
//! from two cells clicked on the picture (origin, scale with a regular hex's row / column =
//! 2/sqrt 3, rotation) and [`Alignment::check`] how far a third click lies from where the fit puts
//! that cell. [`Picture::table`] writes the `[picture]` table and [`replace_table`] puts it into a
//! map file's text, changing nothing else of it ([`write_alignment`] saves it: the command line's
//! `kepi map align --write` and the window's "Align picture…" alike).
//!
//! The image itself is decoded only by [`load_image`], which the window calls off its frame
//! path; [`super::Map::load`] never decodes (the command line reads no picture).

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::Grid;
use crate::hex::{Hex, Layout};

/// The most pixels a side of a picture may have.
pub const MAX_PICTURE_SIDE: u32 = 8000;

/// The largest picture file kepi reads (on disk).
pub const MAX_PICTURE_BYTES: u64 = 200 * 1024 * 1024;

/// A regular flat-topped hex's row / column: sqrt 3 across the flats over 3/2 of the corner
/// radius, 2/sqrt 3 (1.1547).
pub const REGULAR_RATIO: f64 = 1.154_700_538_379_251_5;

/// The largest column or row in pixels a picture may give (a cell wider than any picture).
pub const MAX_CELL_PX: f64 = 10_000.0;

/// The farthest the origin may lie from the picture's corner, in pixels.
pub const MAX_ORIGIN_PX: f64 = 1_000_000.0;

/// The narrowest cell a fit gives: two clicks this close for cells this far apart are a mistake.
pub const MIN_CELL_PX: f64 = 2.0;

/// How the grid lies on the picture: the first cell's centre, the pixels from one column to the
/// next and from one row to the next, and how far the grid is turned (degrees clockwise).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Alignment {
    /// The map's first cell's centre, in the picture's pixels (x right, y down).
    pub origin: [f64; 2],
    /// Pixels from one column's cell centres to the next column's (along the grid's x axis).
    pub column: f64,
    /// Pixels from one cell centre to the next in the same column (along the grid's y axis).
    pub row: f64,
    /// Degrees clockwise the grid is turned on the picture.
    pub rotation: f64,
}

/// A map's `[picture]`: the file beside the map, the alignment and the note on how it was made.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Picture {
    /// The picture's file name, beside the map file (no folder).
    pub file: String,
    /// How the grid lies on it.
    #[serde(flatten)]
    pub alignment: Alignment,
    /// How the alignment was made ("two cells: 0101 at (412, 96.5), ..."), where given.
    pub aligned: Option<String>,
}

// A checked picture's numbers are finite (check.rs refuses NaN and infinities), so equality is
// an equivalence and `Map` stays `Eq`.
impl Eq for Picture {}

/// Whether column `col` sits half a cell lower in `layout` (odd-q: odd columns; even-q: even).
fn lower(layout: Layout, col: i32) -> bool {
    let odd = col & 1 == 1;
    match layout {
        Layout::OddQ => odd,
        Layout::EvenQ => !odd,
    }
}

/// A cell's place in grid units from the map's first cell: columns across, rows down (with the
/// half row of a column that sits lower than the first column).
pub fn grid_units(grid: &Grid, h: Hex) -> (f64, f64) {
    let o = h.to_offset(grid.layout);
    let half = |c: i32| if lower(grid.layout, c) { 0.5 } else { 0.0 };
    (
        f64::from(o.col - grid.first.col),
        f64::from(o.row - grid.first.row) + half(o.col) - half(grid.first.col),
    )
}

/// The cell nearest a point in grid units (the inverse of [`grid_units`], cube-rounded as a
/// regular hex grid would be), on the grid or not.
pub fn nearest_cell(grid: &Grid, (u, v): (f64, f64)) -> Hex {
    let sqrt3 = 3f64.sqrt();
    let first = Hex::from_offset(grid.first, grid.layout);
    // A regular grid of size 1: x = 3/2 q, y = sqrt3 (r + q/2); the first cell placed where
    // its axial coordinates put it.
    let (fq, fr) = (f64::from(first.q), f64::from(first.r));
    let x = 1.5 * fq + 1.5 * u;
    let y = sqrt3 * (fr + fq / 2.0) + sqrt3 * v;
    let q = 2.0 / 3.0 * x;
    let r = -x / 3.0 + sqrt3 / 3.0 * y;
    let s = -q - r;
    let (mut rq, mut rr, rs) = (q.round(), r.round(), s.round());
    let (dq, dr, ds) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
    if dq > dr && dq > ds {
        rq = -rr - rs;
    } else if dr > ds {
        rr = -rq - rs;
    }
    let clamp = |x: f64| x.clamp(-1e6, 1e6) as i32;
    Hex::new(clamp(rq), clamp(rr))
}

/// Degrees into (-180, 180].
#[doc(hidden)] // public for the tests of this module played with kepi's rule sets (src/sets/played)
pub fn normal_degrees(d: f64) -> f64 {
    let mut d = d % 360.0;
    if d <= -180.0 {
        d += 360.0;
    } else if d > 180.0 {
        d -= 360.0;
    }
    d
}

impl Alignment {
    /// A point in grid units ([`grid_units`]) in the picture's pixels.
    pub fn to_picture(&self, (u, v): (f64, f64)) -> [f64; 2] {
        let (x, y) = (u * self.column, v * self.row);
        let (s, c) = self.rotation.to_radians().sin_cos();
        [
            self.origin[0] + x * c - y * s,
            self.origin[1] + x * s + y * c,
        ]
    }

    /// A point of the picture in grid units: the inverse of [`Alignment::to_picture`].
    pub fn to_grid(&self, px: [f64; 2]) -> (f64, f64) {
        let (dx, dy) = (px[0] - self.origin[0], px[1] - self.origin[1]);
        let (s, c) = self.rotation.to_radians().sin_cos();
        let (x, y) = (dx * c + dy * s, -dx * s + dy * c);
        (x / self.column, y / self.row)
    }

    /// The centre of cell `h` in the picture's pixels.
    pub fn centre(&self, grid: &Grid, h: Hex) -> [f64; 2] {
        self.to_picture(grid_units(grid, h))
    }

    /// The map's cell under a pixel of the picture; None off the map (or for a point that is not
    /// a number).
    pub fn cell_at(&self, grid: &Grid, px: [f64; 2]) -> Option<Hex> {
        let g = self.to_grid(px);
        if !(g.0.is_finite() && g.1.is_finite()) {
            return None;
        }
        let h = nearest_cell(grid, g);
        grid.contains(h).then_some(h)
    }

    /// How many pixels a click on cell `h`'s centre lies from where this alignment puts it.
    pub fn check(&self, grid: &Grid, h: Hex, px: [f64; 2]) -> f64 {
        let c = self.centre(grid, h);
        (c[0] - px[0]).hypot(c[1] - px[1])
    }

    /// The alignment that puts cell `a` at pixel `pa` and cell `b` at `pb`: a similarity (one
    /// scale, a regular hex's row = column x 2/sqrt 3, a rotation and the origin). Refused, in
    /// words, for the same cell twice, the same pixel twice, a cell off the map, a pixel that is
    /// not a number, or two clicks so close that a cell would be under [`MIN_CELL_PX`] wide.
    pub fn fit(
        grid: &Grid,
        (a, pa): (Hex, [f64; 2]),
        (b, pb): (Hex, [f64; 2]),
    ) -> Result<Alignment, String> {
        for (h, p) in [(a, pa), (b, pb)] {
            if !grid.contains(h) {
                return Err(format!(
                    "cell {} is off the map ({})",
                    grid.label(h),
                    grid.span_label()
                ));
            }
            if !(p[0].is_finite() && p[1].is_finite()) {
                return Err(format!(
                    "the pixel of cell {} is not a number",
                    grid.label(h)
                ));
            }
        }
        if a == b {
            return Err(format!(
                "cell {} is given twice: two different cells are needed",
                grid.label(a)
            ));
        }
        let (dx, dy) = (pb[0] - pa[0], pb[1] - pa[1]);
        if dx.hypot(dy) < 1e-9 {
            return Err(format!(
                "cells {} and {} are given the same pixel ({}, {}): each cell is clicked at its own centre",
                grid.label(a),
                grid.label(b),
                num(pa[0]),
                num(pa[1])
            ));
        }
        // Grid units in columns: a row is REGULAR_RATIO columns long.
        let g = |h: Hex| {
            let (u, v) = grid_units(grid, h);
            (u, v * REGULAR_RATIO)
        };
        let (ga, gb) = (g(a), g(b));
        let (gx, gy) = (gb.0 - ga.0, gb.1 - ga.1);
        let column = dx.hypot(dy) / gx.hypot(gy);
        if column < MIN_CELL_PX {
            return Err(format!(
                "cells {} and {} are {} px apart on the picture: a cell would be {} px wide, under {MIN_CELL_PX}",
                grid.label(a),
                grid.label(b),
                num(dx.hypot(dy)),
                num(column)
            ));
        }
        if column * REGULAR_RATIO > MAX_CELL_PX {
            return Err(format!(
                "a cell would be {} px across, more than {MAX_CELL_PX}",
                num(column * REGULAR_RATIO)
            ));
        }
        let rotation = normal_degrees((dy.atan2(dx) - gy.atan2(gx)).to_degrees());
        let (s, c) = rotation.to_radians().sin_cos();
        let (x, y) = (ga.0 * column, ga.1 * column);
        let origin = [pa[0] - (x * c - y * s), pa[1] - (x * s + y * c)];
        if origin.iter().any(|o| o.abs() > MAX_ORIGIN_PX) {
            return Err(format!(
                "the first cell would be at ({}, {}), farther than {MAX_ORIGIN_PX} px from the picture",
                num(origin[0]),
                num(origin[1])
            ));
        }
        Ok(Alignment {
            origin,
            column,
            row: column * REGULAR_RATIO,
            rotation,
        })
    }
}

/// A number as kepi writes it in a `[picture]` table and says it: at most 3 decimals, trailing
/// zeros dropped ("412", "96.5", "84.123").
pub fn num(x: f64) -> String {
    let s = format!("{x:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_string() }
}

/// A number as a TOML float: [`num`] with a decimal point ("412.0", "96.5").
fn toml_float(x: f64) -> String {
    let s = num(x);
    if s.contains('.') { s } else { format!("{s}.0") }
}

/// The note an alignment from clicks keeps (`aligned`): "two cells: 0101 at (412, 96.5), 1210 at
/// (1340, 1020); checked on 0605, 1.2 px off".
pub fn note(
    grid: &Grid,
    a: (Hex, [f64; 2]),
    b: (Hex, [f64; 2]),
    checked: Option<(Hex, f64)>,
) -> String {
    let at =
        |(h, p): (Hex, [f64; 2])| format!("{} at ({}, {})", grid.label(h), num(p[0]), num(p[1]));
    let mut s = format!("two cells: {}, {}", at(a), at(b));
    if let Some((h, off)) = checked {
        s.push_str(&format!(
            "; checked on {}, {} px off",
            grid.label(h),
            num((off * 10.0).round() / 10.0)
        ));
    }
    s
}

impl Picture {
    /// The centre of cell `h` in the picture's pixels.
    pub fn centre(&self, grid: &Grid, h: Hex) -> [f64; 2] {
        self.alignment.centre(grid, h)
    }

    /// The map's cell under a pixel of the picture, None off the map.
    pub fn cell_at(&self, grid: &Grid, px: [f64; 2]) -> Option<Hex> {
        self.alignment.cell_at(grid, px)
    }

    /// The `[picture]` table as kepi writes it (keys in the order docs/MAPS.md gives), each line
    /// ended by `eol`.
    pub fn table(&self, eol: &str) -> String {
        let a = &self.alignment;
        let quoted = |s: &str| toml::Value::String(s.to_string()).to_string();
        let mut lines = vec![
            "[picture]".to_string(),
            format!("file = {}", quoted(&self.file)),
            format!(
                "origin = [{}, {}]",
                toml_float(a.origin[0]),
                toml_float(a.origin[1])
            ),
            format!("column = {}", toml_float(a.column)),
            format!("row = {}", toml_float(a.row)),
            format!("rotation = {}", toml_float(a.rotation)),
        ];
        if let Some(n) = &self.aligned {
            lines.push(format!("aligned = {}", quoted(n)));
        }
        let mut s = lines.join(eol);
        s.push_str(eol);
        s
    }

    /// The picture as its table reads back: each number at the 3 decimals [`Picture::table`]
    /// writes.
    pub fn as_written(&self) -> Picture {
        let r = |x: f64| num(x).parse::<f64>().unwrap_or(x);
        let a = &self.alignment;
        Picture {
            file: self.file.clone(),
            alignment: Alignment {
                origin: [r(a.origin[0]), r(a.origin[1])],
                column: r(a.column),
                row: r(a.row),
                rotation: r(a.rotation),
            },
            aligned: self.aligned.clone(),
        }
    }

    /// One line saying it: "board.png: first cell at (412, 96.5), column 84 px, row 97 px,
    /// rotation 0°".
    pub fn summary(&self) -> String {
        let a = &self.alignment;
        format!(
            "{}: first cell at ({}, {}), column {} px, row {} px, rotation {}°",
            self.file,
            num(a.origin[0]),
            num(a.origin[1]),
            num(a.column),
            num(a.row),
            num(a.rotation)
        )
    }
}

/// Whether `name` is a picture file name a map may give: a plain file name (no folder, no `..`,
/// no control characters) ending `.png`, `.jpg` or `.jpeg`. The accepted values, in words, are
/// [`FILE_WORDS`].
pub fn plain_file_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("is empty".into());
    }
    if name.contains(['/', '\\', ':']) || name == "." || name == ".." {
        return Err(format!(
            "`{}` is a path: the picture is a file beside the map file",
            name.escape_debug()
        ));
    }
    if name.chars().any(char::is_control) || name.chars().count() > 200 || name.trim() != name {
        return Err(format!(
            "`{}` is not a plain file name",
            name.escape_debug()
        ));
    }
    let lower = name.to_ascii_lowercase();
    if ![".png", ".jpg", ".jpeg"].iter().any(|e| lower.ends_with(e)) {
        return Err(format!(
            "`{}` is not a PNG or JPEG file name",
            name.escape_debug()
        ));
    }
    Ok(())
}

/// What `file` accepts, for errors.
pub const FILE_WORDS: &str =
    "a PNG or JPEG file beside the map file, by its plain name (board.jpg): no folder, no `..`";

/// Where the picture of a map read from `map_file` is: beside it. None for one of kepi's own
/// maps, which are compiled in and have no folder.
pub fn picture_path(map_file: &str, pic: &Picture) -> Option<PathBuf> {
    if map_file.starts_with("<built-in ") {
        return None;
    }
    let dir = Path::new(map_file).parent().unwrap_or(Path::new(""));
    Some(dir.join(&pic.file))
}

/// A picture decoded: its pixels, RGBA, row by row.
pub type PictureImage = image::RgbaImage;

/// Reads and decodes a picture: a regular file of at most [`MAX_PICTURE_BYTES`], PNG or JPEG, at
/// most [`MAX_PICTURE_SIDE`] pixels a side (refused from its header, before decoding). The error
/// names the file and why. The window calls this off its frame path; nothing of the command line
/// does.
pub fn load_image(path: &Path) -> Result<PictureImage, String> {
    let named = path.display();
    let bytes =
        crate::fsio::read_regular(path, MAX_PICTURE_BYTES, "picture").map_err(|e| e.to_string())?;
    let reader = || {
        image::ImageReader::new(std::io::Cursor::new(&bytes[..]))
            .with_guessed_format()
            .map_err(|e| format!("{named}: cannot be read: {e}"))
    };
    let format = reader()?.format();
    if !matches!(
        format,
        Some(image::ImageFormat::Png | image::ImageFormat::Jpeg)
    ) {
        return Err(format!(
            "{named}: is not a PNG or JPEG picture{}",
            format.map(|f| format!(" ({f:?})")).unwrap_or_default()
        ));
    }
    let (w, h) = reader()?
        .into_dimensions()
        .map_err(|e| format!("{named}: is not a picture kepi reads: {e}"))?;
    if w > MAX_PICTURE_SIDE || h > MAX_PICTURE_SIDE || w == 0 || h == 0 {
        return Err(format!(
            "{named}: is {w}x{h} px; a picture is at most {MAX_PICTURE_SIDE} px a side"
        ));
    }
    let mut r = reader()?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_PICTURE_SIDE);
    limits.max_image_height = Some(MAX_PICTURE_SIDE);
    // Room for the decoded pixels and the decoder's own buffers.
    limits.max_alloc = Some(u64::from(w) * u64::from(h) * 8 + (64 << 20));
    r.limits(limits);
    let img = r
        .decode()
        .map_err(|e| format!("{named}: does not decode: {e}"))?;
    Ok(img.into_rgba8())
}

/// Puts `table` (a whole `[picture]` table, [`Picture::table`]) into a map file's text: in place
/// of its `[picture]` table (from its header to the last line with a key before the next table;
/// comments and blank lines before the next table stay), or at the end where it has none.
/// Nothing else of the text changes. Refused where the text gives its picture otherwise (dotted
/// keys, an inline table), which kepi does not rewrite.
pub fn replace_table(src: &str, table: &str) -> Result<String, String> {
    let lines: Vec<(usize, &str)> = line_starts(src);
    let header_key = |l: &str| -> Option<String> {
        let t = l.trim();
        let t = t.split_once('#').map_or(t, |(a, _)| a).trim_end();
        if t.starts_with("[[") {
            return Some(String::from("[["));
        }
        let inner = t.strip_prefix('[')?.strip_suffix(']')?;
        let ok = inner
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ' ' | '\t'));
        ok.then(|| inner.trim().to_string())
    };
    let start = lines
        .iter()
        .position(|(_, l)| header_key(l).as_deref() == Some("picture"));
    let Some(start) = start else {
        let mut out = src.to_string();
        if !out.is_empty() && !out.ends_with('\n') {
            out.push_str(eol_of(src));
        }
        if !out.is_empty() {
            out.push_str(eol_of(src));
        }
        out.push_str(table);
        return Ok(out);
    };
    // The next table's header, then back over the blank lines and comments before it.
    let next = (start + 1..lines.len())
        .find(|i| header_key(lines[*i].1).is_some())
        .unwrap_or(lines.len());
    let mut end = next;
    while end > start + 1 {
        let t = lines[end - 1].1.trim();
        if t.is_empty() || t.starts_with('#') {
            end -= 1;
        } else {
            break;
        }
    }
    let from = lines[start].0;
    let to = lines.get(end).map_or(src.len(), |(o, _)| *o);
    let mut out = String::with_capacity(src.len() + table.len());
    out.push_str(&src[..from]);
    out.push_str(table);
    out.push_str(&src[to..]);
    Ok(out)
}

/// Each line of `src` with the byte offset it starts at.
fn line_starts(src: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut at = 0;
    for l in src.split_inclusive('\n') {
        out.push((at, l));
        at += l.len();
    }
    out
}

/// The line ending a text uses: "\r\n" where its first line ends so, else "\n".
pub fn eol_of(src: &str) -> &'static str {
    match src.find('\n') {
        Some(i) if i > 0 && src.as_bytes().get(i - 1) == Some(&b'\r') => "\r\n",
        _ => "\n",
    }
}

/// The map file's text with `pic` as its `[picture]` table, checked: the new text must read as
/// the same map with this picture, or nothing is written. `file` names the map in errors.
pub fn with_picture(file: &str, src: &str, pic: &Picture) -> Result<String, String> {
    let old = super::Map::from_source(file, src).map_err(|e| e.to_string())?;
    let new_src = replace_table(src, &pic.table(eol_of(src)))?;
    let new = super::Map::from_source(file, &new_src).map_err(|e| {
        format!(
            "{file}: the [picture] table could not be rewritten in place ({e}): edit it by hand (docs/MAPS.md)"
        )
    })?;
    let same_rest = super::Map {
        picture: None,
        ..new.clone()
    } == super::Map {
        picture: None,
        ..old
    };
    if !same_rest || new.picture.as_ref() != Some(&pic.as_written()) {
        return Err(format!(
            "{file}: its picture is not written as a [picture] table of its own, so kepi cannot rewrite it in place: edit it by hand (docs/MAPS.md)"
        ));
    }
    Ok(new_src)
}

/// Why a map file's `[picture]` table was not written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WriteError {
    /// kepi would not write it (a link, not a regular file, a map that does not read, a picture
    /// not written as a table of its own): the input's fault.
    Refused(String),
    /// Writing failed (the disk, permissions).
    Failed(String),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Refused(m) | WriteError::Failed(m) => f.write_str(m),
        }
    }
}

/// Rewrites the map file at `path` with `pic` as its `[picture]` table ([`with_picture`]): the
/// rest of the file byte for byte, written to a temp file beside it and renamed over it; never
/// through a symbolic link, never over anything but a regular file, never over a game's own
/// files. Returns the new text.
pub fn write_alignment(path: &Path, pic: &Picture) -> Result<String, WriteError> {
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(WriteError::Refused(format!(
            "{}: is a symbolic link; kepi never writes through links: name the map file itself",
            path.display()
        )));
    }
    let src = super::carried::read(path).map_err(|e| WriteError::Refused(e.to_string()))?;
    let file = path.display().to_string();
    let new_src = with_picture(&file, &src, pic).map_err(WriteError::Refused)?;
    crate::fsio::write_output(path, new_src.as_bytes()).map_err(|e| {
        if e.io_kind() == std::io::ErrorKind::InvalidInput {
            WriteError::Refused(e.to_string())
        } else {
            WriteError::Failed(e.to_string())
        }
    })?;
    Ok(new_src)
}
