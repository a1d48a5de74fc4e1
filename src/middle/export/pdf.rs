//! The PDF back end: renders pages of [`Op`]s with krilla. Text is drawn with the bundled DejaVu
//! Sans, which krilla subsets and embeds with a ToUnicode map, so the text is selectable and
//! searchable.

use krilla::Document;
use krilla::color::rgb;
use krilla::geom::{PathBuilder, Point, Transform};
use krilla::metadata::Metadata;
use krilla::num::NormalizedF32;
use krilla::page::PageSettings;
use krilla::paint::{Fill, Stroke, StrokeDash};
use krilla::surface::Surface;
use krilla::text::{Font, TextDirection};

use super::draw::{BOLD_TTF, Op, REGULAR_TTF, Rgb};
use super::{ExportError, Progress};

/// Points per millimetre.
const PT_PER_MM: f32 = 72.0 / 25.4;

fn colour(c: Rgb) -> rgb::Color {
    rgb::Color::new(c.0, c.1, c.2)
}

fn fill(c: Rgb) -> Fill {
    Fill {
        paint: colour(c).into(),
        opacity: NormalizedF32::ONE,
        rule: Default::default(),
    }
}

/// Renders `pages` (millimetre display lists) on paper of `size_mm` into PDF bytes.
pub(crate) fn render(
    pages: &[Vec<Op>],
    size_mm: (f32, f32),
    title: &str,
    progress: Progress,
) -> Result<Vec<u8>, ExportError> {
    let regular = Font::new(REGULAR_TTF.into(), 0)
        .ok_or_else(|| ExportError::Font("DejaVuSans.ttf".into()))?;
    let bold = Font::new(BOLD_TTF.into(), 0)
        .ok_or_else(|| ExportError::Font("DejaVuSans-Bold.ttf".into()))?;
    let mut doc = Document::new();
    doc.set_metadata(
        Metadata::new()
            .title(title.to_string())
            .creator("kepi".to_string())
            .producer(format!("kepi {}", env!("CARGO_PKG_VERSION"))),
    );
    let (w, h) = size_mm;
    let total = pages.len();
    for (i, ops) in pages.iter().enumerate() {
        let settings = PageSettings::from_wh(w * PT_PER_MM, h * PT_PER_MM)
            .ok_or_else(|| ExportError::Invalid(format!("bad page size {w} x {h} mm")))?;
        let mut page = doc.start_page_with(settings);
        let mut surface = page.surface();
        surface.push_transform(&Transform::from_scale(PT_PER_MM, PT_PER_MM));
        for op in ops {
            draw(&mut surface, op, &regular, &bold);
        }
        surface.pop();
        surface.finish();
        page.finish();
        progress(i + 1, total);
    }
    doc.finish().map_err(|e| ExportError::Pdf(format!("{e:?}")))
}

fn draw(s: &mut Surface, op: &Op, regular: &Font, bold: &Font) {
    match op {
        Op::Text {
            x,
            y,
            size,
            bold: b,
            color,
            text,
        } => {
            s.set_stroke(None);
            s.set_fill(Some(fill(*color)));
            let font = if *b { bold } else { regular };
            s.draw_text(
                Point::from_xy(*x, *y),
                font.clone(),
                *size,
                text,
                false,
                TextDirection::Auto,
            );
        }
        Op::Line {
            x0,
            y0,
            x1,
            y1,
            width,
            color,
            dashed,
        } => {
            let mut pb = PathBuilder::new();
            pb.move_to(*x0, *y0);
            pb.line_to(*x1, *y1);
            if let Some(path) = pb.finish() {
                s.set_fill(None);
                s.set_stroke(Some(Stroke {
                    paint: colour(*color).into(),
                    width: *width,
                    dash: dashed.then(|| StrokeDash {
                        array: vec![1.5, 1.0],
                        offset: 0.0,
                    }),
                    ..Default::default()
                }));
                s.draw_path(&path);
            }
        }
        Op::Rect {
            x,
            y,
            w,
            h,
            fill: f,
            stroke,
        } => {
            if *w <= 0.0 || *h <= 0.0 {
                return;
            }
            let mut pb = PathBuilder::new();
            pb.move_to(*x, *y);
            pb.line_to(x + w, *y);
            pb.line_to(x + w, y + h);
            pb.line_to(*x, y + h);
            pb.close();
            if let Some(path) = pb.finish() {
                s.set_fill(f.map(fill));
                s.set_stroke(stroke.map(|(width, c)| Stroke {
                    paint: colour(c).into(),
                    width,
                    ..Default::default()
                }));
                if f.is_some() || stroke.is_some() {
                    s.draw_path(&path);
                }
            }
        }
        Op::Circle { cx, cy, r, fill: f } => {
            // Four cubic Béziers approximate the circle.
            const K: f32 = 0.552_284_8;
            let (cx, cy, r) = (*cx, *cy, *r);
            let k = K * r;
            let mut pb = PathBuilder::new();
            pb.move_to(cx + r, cy);
            pb.cubic_to(cx + r, cy + k, cx + k, cy + r, cx, cy + r);
            pb.cubic_to(cx - k, cy + r, cx - r, cy + k, cx - r, cy);
            pb.cubic_to(cx - r, cy - k, cx - k, cy - r, cx, cy - r);
            pb.cubic_to(cx + k, cy - r, cx + r, cy - k, cx + r, cy);
            pb.close();
            if let Some(path) = pb.finish() {
                s.set_stroke(None);
                s.set_fill(Some(fill(*f)));
                s.draw_path(&path);
            }
        }
    }
}
