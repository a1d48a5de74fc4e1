//! The display list shared by the PDF and PNG back ends, the bundled fonts with text measurement, and
//! the drawing helpers (NATO-style symbols, tick boxes, text fitting) used by every layout.
//!
//! Coordinates are millimetres with the origin at the top left and y growing downwards; text sizes
//! are the em size in millimetres and text `y` is the baseline.

use std::sync::OnceLock;

use ab_glyph::{Font, FontRef};

use super::ExportError;
use super::model::Arm;

/// DejaVu Sans (Bitstream Vera licence, see assets/fonts/DejaVu-LICENSE.txt).
pub(crate) static REGULAR_TTF: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");
/// DejaVu Sans Bold.
pub(crate) static BOLD_TTF: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans-Bold.ttf");

/// Millimetres per typographic point.
pub(crate) const PT: f32 = 25.4 / 72.0;

/// An sRGB colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Rgb(pub u8, pub u8, pub u8);

pub(crate) const BLACK: Rgb = Rgb(0, 0, 0);
pub(crate) const INK: Rgb = Rgb(30, 30, 30);
pub(crate) const GREY: Rgb = Rgb(110, 110, 110);
pub(crate) const LIGHT: Rgb = Rgb(200, 200, 200);
pub(crate) const SHADE: Rgb = Rgb(150, 150, 150);
pub(crate) const RED: Rgb = Rgb(170, 20, 20);

/// The pale fill of the side named `side` (the `i`th of the document): its colour
/// ([`side_colour`]) a quarter strength on white, for bands and symbols under black text.
pub(crate) fn side_fill(side: &str, i: usize) -> Rgb {
    let Rgb(r, g, b) = side_colour(side, i);
    let pale = |c: u8| (255.0 - (255.0 - f32::from(c)) * 0.3).round() as u8;
    Rgb(pale(r), pale(g), pale(b))
}

/// The colour of the side named `side` (the `i`th of the document), for charts: the window's
/// ([`kepi_game::roster::Side::rgb`], one source: issue 46) for the war's two sides, else one of
/// two others by its place.
pub(crate) fn side_colour(side: &str, i: usize) -> Rgb {
    if let Ok(s) = side.trim().parse::<kepi_game::roster::Side>() {
        let [r, g, b] = s.rgb();
        return Rgb(r, g, b);
    }
    const OTHERS: [Rgb; 2] = [Rgb(60, 140, 60), Rgb(200, 150, 20)];
    OTHERS[i % OTHERS.len()]
}

/// One drawing instruction.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Op {
    /// Text on a baseline.
    Text {
        x: f32,
        y: f32,
        size: f32,
        bold: bool,
        color: Rgb,
        text: String,
    },
    /// A straight line.
    Line {
        x0: f32,
        y0: f32,
        x1: f32,
        y1: f32,
        width: f32,
        color: Rgb,
        dashed: bool,
    },
    /// An axis-aligned rectangle, filled and/or stroked.
    Rect {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        fill: Option<Rgb>,
        stroke: Option<(f32, Rgb)>,
    },
    /// A filled circle.
    Circle { cx: f32, cy: f32, r: f32, fill: Rgb },
}

impl Op {
    /// The same instruction moved by (dx, dy).
    pub(crate) fn translated(&self, dx: f32, dy: f32) -> Op {
        let mut op = self.clone();
        match &mut op {
            Op::Text { x, y, .. } | Op::Rect { x, y, .. } => {
                *x += dx;
                *y += dy;
            }
            Op::Line { x0, y0, x1, y1, .. } => {
                *x0 += dx;
                *x1 += dx;
                *y0 += dy;
                *y1 += dy;
            }
            Op::Circle { cx, cy, .. } => {
                *cx += dx;
                *cy += dy;
            }
        }
        op
    }
}

/// The bundled fonts, parsed once, for measuring and rasterising text.
pub(crate) struct Fonts {
    regular: FontRef<'static>,
    bold: FontRef<'static>,
}

/// The bundled fonts (parsed on first use).
pub(crate) fn fonts() -> Result<&'static Fonts, ExportError> {
    static FONTS: OnceLock<Result<Fonts, String>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let regular = FontRef::try_from_slice(REGULAR_TTF).map_err(|e| e.to_string())?;
            let bold = FontRef::try_from_slice(BOLD_TTF).map_err(|e| e.to_string())?;
            Ok(Fonts { regular, bold })
        })
        .as_ref()
        .map_err(|e| ExportError::Font(e.clone()))
}

impl Fonts {
    /// The face for a weight.
    pub(crate) fn face(&self, bold: bool) -> &FontRef<'static> {
        if bold { &self.bold } else { &self.regular }
    }

    /// The advance width of `text` in millimetres at em size `size` (kerning included).
    pub(crate) fn width(&self, bold: bool, size: f32, text: &str) -> f32 {
        let f = self.face(bold);
        let upem = f.units_per_em().unwrap_or(2048.0);
        let mut w = 0.0;
        let mut prev = None;
        for c in text.chars() {
            let id = f.glyph_id(c);
            if let Some(p) = prev {
                w += f.kern_unscaled(p, id);
            }
            w += f.h_advance_unscaled(id);
            prev = Some(id);
        }
        w * size / upem
    }

    /// `text` shortened with an ellipsis so it fits in `max` millimetres.
    pub(crate) fn fit(&self, bold: bool, size: f32, text: &str, max: f32) -> String {
        if self.width(bold, size, text) <= max {
            return text.to_string();
        }
        let chars: Vec<char> = text.chars().collect();
        let mut n = chars.len();
        while n > 0 {
            n -= 1;
            let s: String = chars
                .iter()
                .take(n)
                .collect::<String>()
                .trim_end()
                .to_string()
                + "…";
            if self.width(bold, size, &s) <= max {
                return s;
            }
        }
        String::new()
    }

    /// `text` broken into lines no wider than `max` (greedy, on spaces; long words are cut).
    pub(crate) fn wrap(&self, bold: bool, size: f32, text: &str, max: f32) -> Vec<String> {
        let mut lines = Vec::new();
        let mut cur = String::new();
        for word in text.split_whitespace() {
            let candidate = if cur.is_empty() {
                word.to_string()
            } else {
                format!("{cur} {word}")
            };
            if self.width(bold, size, &candidate) <= max {
                cur = candidate;
                continue;
            }
            if !cur.is_empty() {
                lines.push(std::mem::take(&mut cur));
            }
            // The word alone may still be too long: cut it by characters.
            let mut piece = String::new();
            for c in word.chars() {
                piece.push(c);
                if self.width(bold, size, &piece) > max && piece.chars().count() > 1 {
                    piece.pop();
                    lines.push(std::mem::take(&mut piece));
                    piece.push(c);
                }
            }
            cur = piece;
        }
        if !cur.is_empty() || lines.is_empty() {
            lines.push(cur);
        }
        lines
    }
}

/// A display list with measuring helpers.
pub(crate) struct Canvas<'f> {
    pub ops: Vec<Op>,
    pub fonts: &'f Fonts,
}

impl<'f> Canvas<'f> {
    pub(crate) fn new(fonts: &'f Fonts) -> Self {
        Canvas {
            ops: Vec::new(),
            fonts,
        }
    }

    /// Text at (x, baseline y); empty text draws nothing. Returns the advance width.
    pub(crate) fn text(
        &mut self,
        x: f32,
        y: f32,
        size: f32,
        bold: bool,
        color: Rgb,
        text: &str,
    ) -> f32 {
        if text.is_empty() {
            return 0.0;
        }
        let w = self.fonts.width(bold, size, text);
        self.ops.push(Op::Text {
            x,
            y,
            size,
            bold,
            color,
            text: text.to_string(),
        });
        w
    }

    /// Text fitted into `max` millimetres. Returns the advance width.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn text_fit(
        &mut self,
        x: f32,
        y: f32,
        size: f32,
        bold: bool,
        color: Rgb,
        text: &str,
        max: f32,
    ) -> f32 {
        let s = self.fonts.fit(bold, size, text, max);
        self.text(x, y, size, bold, color, &s)
    }

    /// Text fitted into `max` millimetres, first shrinking the size down to 80% before cutting it.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn text_shrink(
        &mut self,
        x: f32,
        y: f32,
        size: f32,
        bold: bool,
        color: Rgb,
        text: &str,
        max: f32,
    ) -> f32 {
        for k in [1.0, 0.92, 0.85, 0.8] {
            if self.fonts.width(bold, size * k, text) <= max {
                return self.text(x, y, size * k, bold, color, text);
            }
        }
        self.text_fit(x, y, size * 0.8, bold, color, text, max)
    }

    /// A name in at most two lines of `max` millimetres: on one line at `size` (shrunk to 80% if
    /// need be), else wrapped at `small` into two lines starting at `y_two` (`line_h` apart), the
    /// second cut with an ellipsis only if even that is too long. Returns the lines used. Club
    /// rosters lost the regiment of "1st Light Battery, Field Artillery Regiment ..." to a cut.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn text_two_lines(
        &mut self,
        x: f32,
        (y_one, y_two, line_h): (f32, f32, f32),
        (size, small): (f32, f32),
        bold: bool,
        color: Rgb,
        text: &str,
        max: f32,
    ) -> usize {
        if self.fonts.width(bold, size * 0.8, text) <= max {
            self.text_shrink(x, y_one, size, bold, color, text, max);
            return 1;
        }
        let mut lines = self.fonts.wrap(bold, small, text, max);
        if lines.len() > 2 {
            let rest = lines.split_off(1).join(" ");
            lines.push(self.fonts.fit(bold, small, &rest, max));
        }
        for (i, l) in lines.iter().enumerate() {
            self.text(x, y_two + i as f32 * line_h, small, bold, color, l);
        }
        lines.len()
    }

    /// Text ending at `right`.
    pub(crate) fn text_right(
        &mut self,
        right: f32,
        y: f32,
        size: f32,
        bold: bool,
        color: Rgb,
        text: &str,
    ) {
        let w = self.fonts.width(bold, size, text);
        self.text(right - w, y, size, bold, color, text);
    }

    /// Text centred on `cx`, fitted into `max`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn text_center(
        &mut self,
        cx: f32,
        y: f32,
        size: f32,
        bold: bool,
        color: Rgb,
        text: &str,
        max: f32,
    ) {
        let s = self.fonts.fit(bold, size, text, max);
        let w = self.fonts.width(bold, size, &s);
        self.text(cx - w / 2.0, y, size, bold, color, &s);
    }

    pub(crate) fn line(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, width: f32, color: Rgb) {
        self.ops.push(Op::Line {
            x0,
            y0,
            x1,
            y1,
            width,
            color,
            dashed: false,
        });
    }

    pub(crate) fn dashed(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, width: f32, color: Rgb) {
        self.ops.push(Op::Line {
            x0,
            y0,
            x1,
            y1,
            width,
            color,
            dashed: true,
        });
    }

    pub(crate) fn fill_rect(&mut self, x: f32, y: f32, w: f32, h: f32, color: Rgb) {
        self.ops.push(Op::Rect {
            x,
            y,
            w,
            h,
            fill: Some(color),
            stroke: None,
        });
    }

    pub(crate) fn stroke_rect(&mut self, x: f32, y: f32, w: f32, h: f32, width: f32, color: Rgb) {
        self.ops.push(Op::Rect {
            x,
            y,
            w,
            h,
            fill: None,
            stroke: Some((width, color)),
        });
    }

    /// The NATO-style unit symbol in a `w` x `h` frame at (x, y): infantry a saltire, cavalry one
    /// diagonal (lower left to upper right), artillery a filled dot, other an empty frame.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn symbol(&mut self, arm: Arm, x: f32, y: f32, w: f32, h: f32, fill: Rgb, lw: f32) {
        self.ops.push(Op::Rect {
            x,
            y,
            w,
            h,
            fill: Some(fill),
            stroke: None,
        });
        match arm {
            Arm::Infantry => {
                self.line(x, y, x + w, y + h, lw, BLACK);
                self.line(x, y + h, x + w, y, lw, BLACK);
            }
            Arm::Cavalry => self.line(x, y + h, x + w, y, lw, BLACK),
            Arm::Artillery => self.ops.push(Op::Circle {
                cx: x + w / 2.0,
                cy: y + h / 2.0,
                r: h * 0.2,
                fill: BLACK,
            }),
            Arm::Other => {}
        }
        self.stroke_rect(x, y, w, h, lw, BLACK);
    }

    /// A grid of `total` tick boxes, `per_row` to a row, in groups of five (an extra `gap` between
    /// groups, for counting at a glance), starting at (x, y). Boxes from index
    /// `crossed_from` on get an X (losses); the first `shaded` boxes are filled grey (fatigue).
    /// Returns the height used.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn boxes(
        &mut self,
        x: f32,
        y: f32,
        total: u32,
        per_row: u32,
        size: f32,
        gap: f32,
        crossed_from: u32,
        shaded: u32,
    ) -> f32 {
        let per_row = per_row.max(1);
        let lw = (size * 0.06).max(0.12);
        for i in 0..total {
            let col = i % per_row;
            let bx = x + col as f32 * (size + gap) + (col / 5) as f32 * gap;
            let by = y + (i / per_row) as f32 * (size + gap);
            if i < shaded {
                self.fill_rect(bx, by, size, size, SHADE);
            }
            self.stroke_rect(bx, by, size, size, lw, INK);
            if i >= crossed_from {
                let m = size * 0.12;
                let xw = lw * 1.6;
                self.line(bx + m, by + m, bx + size - m, by + size - m, xw, RED);
                self.line(bx + m, by + size - m, bx + size - m, by + m, xw, RED);
            }
        }
        if total == 0 {
            0.0
        } else {
            let rows = total.div_ceil(per_row);
            rows as f32 * size + (rows - 1) as f32 * gap
        }
    }

    /// A strength bar for strengths too large for boxes: outline, filled share, and the numbers.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn bar(&mut self, x: f32, y: f32, w: f32, h: f32, have: u32, max: u32) {
        let share = if max == 0 {
            0.0
        } else {
            (have as f32 / max as f32).clamp(0.0, 1.0)
        };
        self.fill_rect(x, y, w * share, h, SHADE);
        self.stroke_rect(x, y, w, h, 0.2, INK);
    }
}

/// The width of a row of `n` boxes as [`Canvas::boxes`] draws them.
pub(crate) fn boxes_width(n: u32, size: f32, gap: f32) -> f32 {
    if n == 0 {
        0.0
    } else {
        n as f32 * (size + gap) - gap + ((n - 1) / 5) as f32 * gap
    }
}

/// Pages of a flowing document: a cursor moving down, new pages when a block does not fit.
pub(crate) struct Flow<'f> {
    pub pages: Vec<Vec<Op>>,
    pub canvas: Canvas<'f>,
    pub y: f32,
    pub top: f32,
    pub bottom: f32,
}

impl<'f> Flow<'f> {
    pub(crate) fn new(fonts: &'f Fonts, top: f32, bottom: f32) -> Self {
        Flow {
            pages: Vec::new(),
            canvas: Canvas::new(fonts),
            y: top,
            top,
            bottom,
        }
    }

    /// Ends the current page (even if empty) and starts another.
    pub(crate) fn new_page(&mut self) {
        self.pages.push(std::mem::take(&mut self.canvas.ops));
        self.y = self.top;
    }

    /// Makes room for `h` mm: starts a new page if the current one has something on it and `h`
    /// does not fit. Returns whether a new page was started.
    pub(crate) fn ensure(&mut self, h: f32) -> bool {
        if self.y + h > self.bottom && self.y > self.top + 0.01 {
            self.new_page();
            true
        } else {
            false
        }
    }

    /// The finished pages (the current one included).
    pub(crate) fn finish(mut self) -> Vec<Vec<Op>> {
        if !self.canvas.ops.is_empty() || self.pages.is_empty() {
            self.new_page();
        }
        self.pages
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 46: one colour per side everywhere, the window's: a side is drawn in its colour
    /// whatever its place in the document or the word naming it.
    #[test]
    fn a_side_has_one_colour_wherever_it_is() {
        use kepi_game::roster::Side;
        let rgb = |s: Side| {
            let [r, g, b] = s.rgb();
            Rgb(r, g, b)
        };
        for i in 0..3 {
            assert_eq!(side_colour("French", i), rgb(Side::French));
            assert_eq!(side_colour("Prussian", i), rgb(Side::German));
            assert_eq!(side_colour("german", i), rgb(Side::German));
        }
        assert_ne!(side_fill("French", 0), side_fill("German", 1));
        assert_ne!(side_colour("Bavaria-Austria", 0), rgb(Side::French));
    }

    #[test]
    fn measuring_is_monotonic_and_fit_fits() {
        let f = fonts().unwrap();
        let a = f.width(false, 4.0, "Grenadier");
        let b = f.width(false, 4.0, "Grenadiers");
        assert!(b > a && a > 0.0);
        assert!(f.width(true, 4.0, "W") > f.width(false, 4.0, "i"));
        let long = "2nd Battalion, 12th Brandenburg Grenadier Regiment (Prinz Carl von Preussen)";
        let s = f.fit(false, 3.0, long, 30.0);
        assert!(s.ends_with('…'));
        assert!(f.width(false, 3.0, &s) <= 30.0);
        for line in f.wrap(false, 3.0, long, 30.0) {
            assert!(f.width(false, 3.0, &line) <= 30.0, "{line}");
        }
    }

    #[test]
    fn boxes_height_and_crossings() {
        let f = fonts().unwrap();
        let mut c = Canvas::new(f);
        let h = c.boxes(0.0, 0.0, 12, 10, 2.0, 0.5, 10, 0);
        assert!((h - 4.5).abs() < 1e-4);
        // 12 boxes + 2 crossed boxes with two lines each.
        assert_eq!(c.ops.len(), 12 + 4);
    }
}
