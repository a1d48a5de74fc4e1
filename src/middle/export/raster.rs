//! The PNG back end: renders [`Op`]s into an RGBA image with anti-aliasing. Shapes are filled
//! polygons through `ab_glyph_rasterizer` (the same coverage rasteriser `ab_glyph` uses for glyphs),
//! text is rasterised from the bundled TTF with `ab_glyph`.

use ab_glyph::{Font, PxScale, ScaleFont, point};
use ab_glyph_rasterizer::Rasterizer;
use image::{Rgba, RgbaImage};

use super::draw::{Fonts, Op, Rgb};

/// Blends `c` with coverage `a` (0..=1) onto pixel (x, y), ignoring pixels off the image.
fn blend(img: &mut RgbaImage, x: i64, y: i64, c: Rgb, a: f32) {
    if a <= 0.0 || x < 0 || y < 0 || x >= img.width() as i64 || y >= img.height() as i64 {
        return;
    }
    let a = a.min(1.0);
    let p = img.get_pixel_mut(x as u32, y as u32);
    let mix = |dst: u8, src: u8| -> u8 { (dst as f32 * (1.0 - a) + src as f32 * a).round() as u8 };
    *p = Rgba([mix(p[0], c.0), mix(p[1], c.1), mix(p[2], c.2), 255]);
}

/// Fills the polygons (closed contours, in pixels; holes wound the other way) with `c`.
fn fill_polys(img: &mut RgbaImage, contours: &[Vec<(f32, f32)>], c: Rgb) {
    let pts = contours.iter().flatten();
    let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for &(x, y) in pts {
        x0 = x0.min(x);
        y0 = y0.min(y);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    if x0 > x1 {
        return;
    }
    // Clip the raster box to the image; points outside are shifted but the rasteriser clips.
    let bx0 = x0.floor().max(0.0);
    let by0 = y0.floor().max(0.0);
    let bx1 = x1.ceil().min(img.width() as f32);
    let by1 = y1.ceil().min(img.height() as f32);
    if bx1 <= bx0 || by1 <= by0 {
        return;
    }
    let (w, h) = ((bx1 - bx0) as usize, (by1 - by0) as usize);
    let mut r = Rasterizer::new(w, h);
    for contour in contours {
        for (i, &(ax, ay)) in contour.iter().enumerate() {
            let (bx, by) = contour[(i + 1) % contour.len()];
            r.draw_line(point(ax - bx0, ay - by0), point(bx - bx0, by - by0));
        }
    }
    r.for_each_pixel_2d(|x, y, a| {
        blend(img, bx0 as i64 + x as i64, by0 as i64 + y as i64, c, a);
    });
}

fn rect(x: f32, y: f32, w: f32, h: f32) -> Vec<(f32, f32)> {
    vec![(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
}

fn thick_line(img: &mut RgbaImage, a: (f32, f32), b: (f32, f32), width: f32, c: Rgb) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt();
    if len < 1e-6 {
        return;
    }
    // Never thinner than a pixel, so hairlines stay visible.
    let hw = width.max(1.0) / 2.0;
    let (nx, ny) = (-dy / len * hw, dx / len * hw);
    fill_polys(
        img,
        &[vec![
            (a.0 + nx, a.1 + ny),
            (b.0 + nx, b.1 + ny),
            (b.0 - nx, b.1 - ny),
            (a.0 - nx, a.1 - ny),
        ]],
        c,
    );
}

/// Draws `ops` (millimetres) onto `img` at `px_per_mm`.
pub(crate) fn render(img: &mut RgbaImage, ops: &[Op], px_per_mm: f32, fonts: &Fonts) {
    let k = px_per_mm;
    for op in ops {
        match op {
            Op::Text {
                x,
                y,
                size,
                bold,
                color,
                text,
            } => text_px(img, fonts, *bold, x * k, y * k, size * k, *color, text),
            Op::Line {
                x0,
                y0,
                x1,
                y1,
                width,
                color,
                dashed,
            } => {
                let (a, b) = ((x0 * k, y0 * k), (x1 * k, y1 * k));
                if *dashed {
                    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
                    let len = (dx * dx + dy * dy).sqrt();
                    let (on, period) = (1.5 * k, 2.5 * k);
                    let mut t = 0.0;
                    while t < len {
                        let e = (t + on).min(len);
                        let p = |s: f32| (a.0 + dx * s / len, a.1 + dy * s / len);
                        thick_line(img, p(t), p(e), width * k, *color);
                        t += period;
                    }
                } else {
                    thick_line(img, a, b, width * k, *color);
                }
            }
            Op::Rect {
                x,
                y,
                w,
                h,
                fill,
                stroke,
            } => {
                let (x, y, w, h) = (x * k, y * k, w * k, h * k);
                if let Some(c) = fill {
                    fill_polys(img, &[rect(x, y, w, h)], *c);
                }
                if let Some((sw, c)) = stroke {
                    let hw = (sw * k).max(1.0) / 2.0;
                    let outer = rect(x - hw, y - hw, w + 2.0 * hw, h + 2.0 * hw);
                    let mut inner = rect(x + hw, y + hw, w - 2.0 * hw, h - 2.0 * hw);
                    inner.reverse();
                    fill_polys(img, &[outer, inner], *c);
                }
            }
            Op::Circle { cx, cy, r, fill } => {
                let (cx, cy, r) = (cx * k, cy * k, r * k);
                let n = 48;
                let poly = (0..n)
                    .map(|i| {
                        let t = i as f32 / n as f32 * std::f32::consts::TAU;
                        (cx + r * t.cos(), cy + r * t.sin())
                    })
                    .collect();
                fill_polys(img, &[poly], *fill);
            }
        }
    }
}

/// Draws `text` with its baseline at (x, y) pixels, em size `em` pixels.
#[allow(clippy::too_many_arguments)]
fn text_px(
    img: &mut RgbaImage,
    fonts: &Fonts,
    bold: bool,
    x: f32,
    y: f32,
    em: f32,
    c: Rgb,
    text: &str,
) {
    let font = fonts.face(bold);
    let upem = font.units_per_em().unwrap_or(2048.0);
    // ab_glyph's scale is the ascent-to-descent height, not the em.
    let scale = PxScale::from(em * font.height_unscaled() / upem);
    let sf = font.as_scaled(scale);
    let mut pen = x;
    let mut prev = None;
    for ch in text.chars() {
        let id = sf.glyph_id(ch);
        if let Some(p) = prev {
            pen += sf.kern(p, id);
        }
        let glyph = id.with_scale_and_position(scale, point(pen, y));
        pen += sf.h_advance(id);
        prev = Some(id);
        if let Some(outlined) = font.outline_glyph(glyph) {
            let bb = outlined.px_bounds();
            outlined.draw(|gx, gy, a| {
                blend(
                    img,
                    bb.min.x as i64 + gx as i64,
                    bb.min.y as i64 + gy as i64,
                    c,
                    a,
                );
            });
        }
    }
}
