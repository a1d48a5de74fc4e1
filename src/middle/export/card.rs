//! Unit cards, 63 x 88 mm (playing-card size): a cut line, a band with side and formation, the
//! symbol, name and class, strength boxes with losses crossed out, fatigue and leader boxes, and a
//! weapon / move / range strip. One layout, rendered to PNG (one file per unit) or to PDF sheets of
//! nine cards with crop marks.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use image::RgbaImage;

use super::draw::{Canvas, Fonts, GREY, INK, LIGHT, Op, PT, RED, boxes_width, fonts, side_fill};
use super::model::{RosterDoc, UnitDoc};
use super::{ExportError, Paper, Progress, no_progress, pdf, raster, write_atomic_no_tidy};

/// Card width in millimetres.
pub const CARD_W_MM: f32 = 63.0;
/// Card height in millimetres.
pub const CARD_H_MM: f32 = 88.0;

/// What a card shows besides the unit itself.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CardCtx {
    /// The unit's side.
    pub side: String,
    /// The side's position in the roster (picks the band colour).
    pub side_index: usize,
    /// The formations above the unit, outermost first, joined for printing.
    pub group_path: String,
    /// The rule set's title.
    pub system: String,
}

/// The card's size in pixels at `dpi`: (63 mm, 88 mm) rounded, so 744 x 1039 at 300 dpi.
pub fn card_px(dpi: u32) -> (u32, u32) {
    let px = |mm: f32| (mm / 25.4 * dpi as f32).round() as u32;
    (px(CARD_W_MM), px(CARD_H_MM))
}

fn check_dpi(dpi: u32) -> Result<(), ExportError> {
    if (30..=1200).contains(&dpi) {
        Ok(())
    } else {
        Err(ExportError::Invalid(format!(
            "--dpi {dpi}: expected 30 to 1200"
        )))
    }
}

/// The card of `unit` as an image at `dpi` (white background, cut line at the edge).
pub fn card_png(unit: &UnitDoc, ctx: &CardCtx, dpi: u32) -> Result<RgbaImage, ExportError> {
    check_dpi(dpi)?;
    let fonts = fonts()?;
    let (w, h) = card_px(dpi);
    let mut img = RgbaImage::from_pixel(w, h, image::Rgba([255, 255, 255, 255]));
    let ops = card_ops(fonts, unit, ctx, false);
    raster::render(&mut img, &ops, dpi as f32 / 25.4, fonts);
    Ok(img)
}

/// A file name from a unit id: ASCII letters, digits, `-` and `_` kept, anything else `_`.
fn sanitise(id: &str) -> String {
    let s: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(80)
        .collect();
    if s.trim_matches('_').is_empty() {
        "unit".to_string()
    } else {
        s
    }
}

/// Every unit with the context its card needs, in roster order.
fn cards(doc: &RosterDoc) -> Vec<(&UnitDoc, CardCtx)> {
    doc.units()
        .into_iter()
        .map(|(side, path, u)| {
            let side_index = doc
                .sides
                .iter()
                .position(|s| std::ptr::eq(s, side))
                .unwrap_or(0);
            (
                u,
                CardCtx {
                    side: side.name.clone(),
                    side_index,
                    group_path: path.join(" › "),
                    system: doc.system.clone(),
                },
            )
        })
        .collect()
}

/// Writes one PNG card per unit into `dir` (created if missing), named from the unit ids
/// (sanitised, made unique). Returns the files written, in roster order.
pub fn cards_png_dir(
    doc: &RosterDoc,
    dir: &Path,
    dpi: u32,
    progress: Progress,
) -> Result<Vec<PathBuf>, ExportError> {
    check_dpi(dpi)?;
    std::fs::create_dir_all(dir).map_err(|source| ExportError::Write {
        path: dir.to_path_buf(),
        source,
    })?;
    // One tidy of the folder for all cards, not one listing per card.
    kepi_game::fsio::remove_stale_temps(dir);
    let all = cards(doc);
    let total = all.len();
    let mut used = HashSet::new();
    let mut out = Vec::with_capacity(total);
    for (i, (u, ctx)) in all.iter().enumerate() {
        let base = sanitise(&u.id);
        let mut name = base.clone();
        let mut n = 2;
        while !used.insert(name.to_ascii_lowercase()) {
            name = format!("{base}-{n}");
            n += 1;
        }
        let img = card_png(u, ctx, dpi)?;
        let mut bytes = Vec::new();
        image::DynamicImage::ImageRgba8(img)
            .write_to(
                &mut std::io::Cursor::new(&mut bytes),
                image::ImageFormat::Png,
            )
            .map_err(|e| ExportError::Png(e.to_string()))?;
        let path = dir.join(format!("{name}.png"));
        write_atomic_no_tidy(&path, &bytes)?;
        out.push(path);
        progress(i + 1, total);
    }
    Ok(out)
}

/// How far above the sheet's bottom edge the crop marks stop, leaving the footer line clear.
const FOOTER_CLEAR_MM: f32 = 6.5;

/// Every card of `doc` on sheets of nine (3 x 3) with crop marks, as a PDF.
pub fn cards_pdf(doc: &RosterDoc, paper: Paper) -> Result<Vec<u8>, ExportError> {
    cards_pdf_progress(doc, paper, &no_progress)
}

/// [`cards_pdf`] reporting `(sheets done, sheets)` as it renders.
pub fn cards_pdf_progress(
    doc: &RosterDoc,
    paper: Paper,
    progress: Progress,
) -> Result<Vec<u8>, ExportError> {
    let fonts = fonts()?;
    let (paper_w, paper_h) = paper.size_mm();
    let (gw, gh) = (3.0 * CARD_W_MM, 3.0 * CARD_H_MM);
    let (x0, y0) = ((paper_w - gw) / 2.0, (paper_h - gh) / 2.0);
    let all = cards(doc);
    let sheets: Vec<_> = all.chunks(9).collect();
    let n = sheets.len().max(1);
    let mut pages = Vec::with_capacity(n);
    for (si, sheet) in sheets.iter().enumerate() {
        let mut c = Canvas::new(fonts);
        // Crop marks in the margins along every cut; those at the foot stop short of the sheet's
        // footer line, which once ran through them.
        let foot_mark_end = (paper_h - FOOTER_CLEAR_MM).max(y0 + gh + 4.0);
        for i in 0..=3 {
            let x = x0 + i as f32 * CARD_W_MM;
            c.line(x, 1.0, x, y0 - 1.0, 0.2, INK);
            c.line(x, y0 + gh + 1.0, x, foot_mark_end, 0.2, INK);
            let y = y0 + i as f32 * CARD_H_MM;
            c.line(1.0, y, x0 - 1.0, y, 0.2, INK);
            c.line(x0 + gw + 1.0, y, paper_w - 1.0, y, 0.2, INK);
        }
        let mut ops = c.ops;
        for (k, (u, ctx)) in sheet.iter().enumerate() {
            let dx = x0 + (k % 3) as f32 * CARD_W_MM;
            let dy = y0 + (k / 3) as f32 * CARD_H_MM;
            ops.extend(
                card_ops(fonts, u, ctx, true)
                    .iter()
                    .map(|op| op.translated(dx, dy)),
            );
        }
        let mut c = Canvas::new(fonts);
        c.text_right(
            paper_w - x0,
            paper_h - (y0 / 2.0).min(3.0),
            6.0 * PT,
            false,
            GREY,
            &format!("{} cards · sheet {} of {}", doc.title, si + 1, n),
        );
        ops.extend(c.ops);
        pages.push(ops);
    }
    if pages.is_empty() {
        pages.push(Vec::new());
    }
    pdf::render(
        &pages,
        paper.size_mm(),
        &format!("{} unit cards", doc.title),
        progress,
    )
}

/// Where a card's frame lies, in millimetres from the card's top-left corner: the frame itself,
/// its inner margins and the card's centre line.
struct Frame {
    fx: f32,
    fy: f32,
    fw: f32,
    fh: f32,
    inner_l: f32,
    inner_r: f32,
    cx: f32,
}

impl Frame {
    /// The frame of a card of [`CARD_W_MM`] by [`CARD_H_MM`].
    fn of_card() -> Self {
        let (w, h) = (CARD_W_MM, CARD_H_MM);
        let (fx, fy, fw, fh) = (3.0, 3.0, w - 6.0, h - 6.0);
        Frame {
            fx,
            fy,
            fw,
            fh,
            inner_l: fx + 2.0,
            inner_r: fx + fw - 2.0,
            cx: w / 2.0,
        }
    }
}

/// The card's display list, in millimetres from its top-left corner. On a sheet the cut line is
/// dashed (adjacent cards share it); on a single PNG it is solid at the image edge.
fn card_ops(fonts: &Fonts, u: &UnitDoc, ctx: &CardCtx, sheet: bool) -> Vec<Op> {
    let mut c = Canvas::new(fonts);
    let f = Frame::of_card();
    cut_line(&mut c, sheet);
    band(&mut c, &f, u, ctx);
    let top = name_block(&mut c, &f, u, ctx);
    let y = strength_block(&mut c, &f, u, top);
    fatigue_and_leaders(&mut c, &f, u, y.max(top + 18.0));
    strip_and_status(&mut c, &f, u, ctx);
    c.ops
}

/// The cut line: dashed on a sheet (adjacent cards share it), solid at a single card's edge.
fn cut_line(c: &mut Canvas<'_>, sheet: bool) {
    let (w, h) = (CARD_W_MM, CARD_H_MM);
    if sheet {
        c.dashed(0.0, 0.0, w, 0.0, 0.15, GREY);
        c.dashed(0.0, h, w, h, 0.15, GREY);
        c.dashed(0.0, 0.0, 0.0, h, 0.15, GREY);
        c.dashed(w, 0.0, w, h, 0.15, GREY);
    } else {
        c.stroke_rect(0.15, 0.15, w - 0.3, h - 0.3, 0.3, GREY);
    }
}

/// The frame and its band in the side's colour: the side and the unit's id, then the group it
/// belongs to.
fn band(c: &mut Canvas<'_>, f: &Frame, u: &UnitDoc, ctx: &CardCtx) {
    let &Frame {
        fx,
        fy,
        fw,
        fh,
        inner_l,
        inner_r,
        ..
    } = f;
    c.fill_rect(fx, fy, fw, 10.0, side_fill(&ctx.side, ctx.side_index));
    c.line(fx, fy + 10.0, fx + fw, fy + 10.0, 0.3, INK);
    c.stroke_rect(fx, fy, fw, fh, 0.5, INK);
    let id_w = c.fonts.width(false, 5.5 * PT, &u.id);
    c.text_fit(
        inner_l,
        fy + 4.3,
        7.0 * PT,
        true,
        INK,
        &ctx.side,
        inner_r - inner_l - id_w - 2.0,
    );
    c.text_right(inner_r, fy + 4.3, 5.5 * PT, false, GREY, &u.id);
    c.text_fit(
        inner_l,
        fy + 8.3,
        5.5 * PT,
        false,
        INK,
        &ctx.group_path,
        inner_r - inner_l,
    );
}

/// The arm's symbol, the name (up to two lines) and the class, with a rule under them. Returns
/// where the rule lies.
fn name_block(c: &mut Canvas<'_>, f: &Frame, u: &UnitDoc, ctx: &CardCtx) -> f32 {
    let &Frame {
        fy,
        inner_l,
        inner_r,
        ..
    } = f;
    let fonts = c.fonts;
    let sy = fy + 13.0;
    c.symbol(
        u.arm,
        inner_l,
        sy,
        15.0,
        10.0,
        side_fill(&ctx.side, ctx.side_index),
        0.45,
    );
    let nx = inner_l + 18.0;
    let nw = inner_r - nx;
    // The whole name: two lines at the card's size, else smaller until it fits in two (three at
    // the smallest); cut with an ellipsis only past that.
    let mut name_size = 10.0 * PT;
    let mut lines = fonts.wrap(true, name_size, u.display_name(), nw);
    for k in [0.9, 0.8, 0.7] {
        if lines.len() <= 2 {
            break;
        }
        name_size = 10.0 * PT * k;
        lines = fonts.wrap(true, name_size, u.display_name(), nw);
    }
    if lines.len() > 3 {
        let rest = lines.split_off(2).join(" ");
        lines.push(fonts.fit(true, name_size, &rest, nw));
    }
    let line_h = 4.2 * name_size / (10.0 * PT);
    let mut ny = sy + 3.6;
    for l in &lines {
        c.text(nx, ny, name_size, true, INK, l);
        ny += line_h;
    }
    let class = match &u.class {
        Some(cl) => format!("{cl} · {}", u.arm.label()),
        None => u.arm.label().to_string(),
    };
    c.text_fit(nx, ny + 0.4, 7.0 * PT, false, GREY, &class, nw);
    let top = (sy + 12.5).max(ny + 2.5);
    c.line(inner_l, top, inner_r, top, 0.2, LIGHT);
    top
}

/// The strength, in words and as boxes to tick (a bar past 40). Returns where it ends.
fn strength_block(c: &mut Canvas<'_>, f: &Frame, u: &UnitDoc, top: f32) -> f32 {
    let &Frame { inner_l, cx, .. } = f;
    let mut y = top + 4.0;
    c.text(
        inner_l,
        y,
        7.0 * PT,
        true,
        INK,
        &format!(
            "Strength  {}/{} {}",
            u.strength, u.max_strength, u.strength_unit
        ),
    );
    y += 1.6;
    let (bs, gap, per_row) = (4.0, 0.8, 10u32);
    let grid_w = boxes_width(per_row, bs, gap);
    if u.max_strength <= per_row * 4 {
        let used = c.boxes(
            cx - grid_w / 2.0,
            y,
            u.max_strength,
            per_row,
            bs,
            gap,
            u.strength,
            0,
        );
        y += used + 2.0;
    } else {
        c.bar(
            cx - grid_w / 2.0,
            y,
            grid_w,
            4.0,
            u.strength,
            u.max_strength,
        );
        y += 6.0;
    }
    y
}

/// Fatigue and leaders side by side on the row at `row_y`: boxes when few, else a number.
fn fatigue_and_leaders(c: &mut Canvas<'_>, f: &Frame, u: &UnitDoc, row_y: f32) {
    let &Frame { inner_l, cx, .. } = f;
    let lab = 6.5 * PT;
    let half = cx;
    c.text(inner_l, row_y + 2.8, lab, false, GREY, "Fatigue");
    let fb = inner_l + 11.0;
    if u.fatigue_max <= 5 {
        c.boxes(
            fb,
            row_y,
            u.fatigue_max,
            5,
            3.4,
            0.6,
            u.fatigue_max,
            u.fatigue,
        );
    } else {
        c.text(
            fb,
            row_y + 2.8,
            7.0 * PT,
            true,
            INK,
            &format!("{}/{}", u.fatigue, u.fatigue_max),
        );
    }
    c.text(half + 3.0, row_y + 2.8, lab, false, GREY, "Leaders");
    let lb = half + 15.0;
    if u.leaders_max <= 4 {
        c.boxes(lb, row_y, u.leaders_max, 4, 3.4, 0.6, u.leaders, 0);
    } else {
        c.text(
            lb,
            row_y + 2.8,
            7.0 * PT,
            true,
            INK,
            &format!("{}/{}", u.leaders, u.leaders_max),
        );
    }
}

/// The weapon across the frame, then move | range, at the bottom of the frame; under them the
/// status, or the rule set's name when there is none.
fn strip_and_status(c: &mut Canvas<'_>, f: &Frame, u: &UnitDoc, ctx: &CardCtx) {
    let &Frame {
        fx, fy, fw, fh, cx, ..
    } = f;
    let strip_top = fy + fh - 23.0;
    let row_h = 9.0;
    let dash = "–".to_string();
    let cells = [
        (fx, strip_top, fw, "Weapon", &u.weapon),
        (fx, strip_top + row_h, fw / 2.0, "Move", &u.move_),
        (
            fx + fw / 2.0,
            strip_top + row_h,
            fw / 2.0,
            "Range",
            &u.range,
        ),
    ];
    c.line(fx, strip_top, fx + fw, strip_top, 0.3, INK);
    c.line(fx, strip_top + row_h, fx + fw, strip_top + row_h, 0.2, INK);
    c.line(
        fx,
        strip_top + 2.0 * row_h,
        fx + fw,
        strip_top + 2.0 * row_h,
        0.3,
        INK,
    );
    c.line(cx, strip_top + row_h, cx, strip_top + 2.0 * row_h, 0.2, INK);
    for (x, y, cw, label, value) in cells {
        c.text(x + 1.5, y + 3.0, 5.5 * PT, false, GREY, label);
        c.text_shrink(
            x + 1.5,
            y + 7.3,
            8.0 * PT,
            true,
            INK,
            value.as_ref().unwrap_or(&dash),
            cw - 3.0,
        );
    }
    // Status under the strip.
    if !u.status.is_empty() {
        c.text_center(
            cx,
            fy + fh - 1.8,
            7.0 * PT,
            true,
            RED,
            &u.status.join(", "),
            fw - 4.0,
        );
    } else {
        c.text_center(
            cx,
            fy + fh - 1.8,
            5.5 * PT,
            false,
            GREY,
            &ctx.system,
            fw - 4.0,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixel_size_follows_dpi() {
        assert_eq!(card_px(300), (744, 1039));
        assert_eq!(card_px(150), (372, 520));
    }

    #[test]
    fn sanitised_names_are_safe() {
        assert_eq!(sanitise("p-1"), "p-1");
        assert_eq!(sanitise("../../etc/passwd"), "______etc_passwd");
        assert_eq!(sanitise("///"), "unit");
        assert_eq!(sanitise(""), "unit");
        assert_eq!(sanitise("2/12 Gren"), "2_12_Gren");
    }

    #[test]
    fn bad_dpi_is_refused() {
        let doc = RosterDoc::sample(1);
        let u = &doc.units()[0].2.clone();
        assert!(card_png(u, &CardCtx::default(), 0).is_err());
    }
}
