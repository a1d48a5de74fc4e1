//! Text laid out once and kept across frames, for the boards' many small labels (issue 41: a frame
//! of a 2,400-cell map is 4 ms at most). egui keeps a layout only from one frame to the next, so a
//! zoom, which changes every label's size, laid out (shaped) every label on screen again each
//! frame: most of a frame's time. Here a label is laid out once per text and font size, and the
//! sizes are whole points, so a zoom reuses what it laid out before.
//!
//! A galley points into egui's font atlas. Whenever egui drops its own layouts (its atlas filled
//! up and was cleared, the text options, the fonts or the scale changed), every kept galley is
//! dropped too, so nothing is drawn from stale glyphs: a one-character sentinel is laid out
//! through egui each frame, and egui's cache hands back the same layout until it is cleared.

use std::collections::HashMap;
use std::sync::Arc;

use egui::{Align2, Color32, FontFamily, FontId, Galley, Painter, Pos2, Rect};

/// At most this many layouts are kept; past it, those not drawn in the last [`KEEP_FRAMES`]
/// frames go (all of them if that is not enough).
const MAX_KEPT: usize = 12_000;
/// How many frames an unused layout stays once the cache is full.
const KEEP_FRAMES: u64 = 120;

/// One font's layouts: each text's, and the frame it was last drawn in.
type Texts = HashMap<String, (Arc<Galley>, u64)>;

/// The layouts one board keeps (the map panel has one, the map editor another).
#[derive(Default)]
pub struct TextCache {
    /// Per font (whole points, monospace), each text's layout and the frame it was last drawn.
    galleys: HashMap<(u32, bool), Texts>,
    frame: u64,
    /// The sentinel's layout last frame, as egui's own cache gave it.
    sentinel: Option<Arc<Galley>>,
}

impl std::fmt::Debug for TextCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TextCache")
            .field("kept", &self.len())
            .field("frame", &self.frame)
            .finish()
    }
}

impl TextCache {
    /// Call once a frame before drawing: drops every layout if egui dropped its own since the last
    /// frame (a new sentinel layout), and trims the cache when it is full.
    pub fn begin_frame(&mut self, ctx: &egui::Context) {
        let sentinel = ctx.fonts_mut(|f| {
            f.layout_no_wrap("0".into(), FontId::proportional(9.0), Color32::PLACEHOLDER)
        });
        if !self
            .sentinel
            .as_ref()
            .is_some_and(|s| Arc::ptr_eq(s, &sentinel))
        {
            self.galleys.clear();
        }
        self.sentinel = Some(sentinel);
        self.frame += 1;
        if self.len() > MAX_KEPT {
            let now = self.frame;
            for texts in self.galleys.values_mut() {
                texts.retain(|_, (_, used)| now.saturating_sub(*used) <= KEEP_FRAMES);
            }
            self.galleys.retain(|_, texts| !texts.is_empty());
            if self.len() > MAX_KEPT {
                self.galleys.clear();
            }
        }
    }

    /// How many layouts are kept (for the tests).
    pub fn len(&self) -> usize {
        self.galleys.values().map(HashMap::len).sum()
    }

    /// Whether nothing is kept.
    pub fn is_empty(&self) -> bool {
        self.galleys.is_empty()
    }

    /// `text` laid out in `points` (rounded to a whole point, at least 6), proportional or
    /// monospace, in the colour it is painted with (a placeholder until then).
    pub fn layout(
        &mut self,
        painter: &Painter,
        text: &str,
        points: f32,
        monospace: bool,
    ) -> Arc<Galley> {
        let points = points.round().max(6.0) as u32;
        let frame = self.frame;
        let texts = self.galleys.entry((points, monospace)).or_default();
        if let Some((g, used)) = texts.get_mut(text) {
            *used = frame;
            return g.clone();
        }
        let family = if monospace {
            FontFamily::Monospace
        } else {
            FontFamily::Proportional
        };
        let galley = painter.layout_no_wrap(
            text.to_string(),
            FontId::new(points as f32, family),
            Color32::PLACEHOLDER,
        );
        texts.insert(text.to_string(), (galley.clone(), frame));
        galley
    }

    /// Paints `text` anchored at `pos` like [`Painter::text`], from the kept layout; returns the
    /// rectangle it covers.
    pub fn paint(
        &mut self,
        painter: &Painter,
        (pos, anchor): (Pos2, Align2),
        text: &str,
        (points, monospace): (f32, bool),
        colour: Color32,
    ) -> Rect {
        let galley = self.layout(painter, text, points, monospace);
        let rect = anchor.anchor_size(pos, galley.size());
        painter.galley(rect.min, galley, colour);
        rect
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(ctx: &egui::Context, cache: &mut TextCache, labels: &[&str], points: f32) {
        let mut out = ctx.run_ui(egui::RawInput::default(), |ui| {
            cache.begin_frame(ui.ctx());
            let painter = ui.painter();
            for l in labels {
                cache.paint(
                    painter,
                    (Pos2::new(10.0, 10.0), Align2::CENTER_CENTER),
                    l,
                    (points, false),
                    Color32::WHITE,
                );
            }
        });
        // No GPU here: the font atlas's uploads are dropped.
        out.textures_delta.clear();
    }

    #[test]
    fn a_label_is_laid_out_once_per_whole_point_size_and_kept_across_frames() {
        let ctx = egui::Context::default();
        let mut cache = TextCache::default();
        frame(&ctx, &mut cache, &["0101", "0102"], 9.2);
        assert_eq!(cache.len(), 2);
        // 8.8 and 9.2 both draw at 9 points: nothing new is laid out.
        frame(&ctx, &mut cache, &["0101", "0102"], 8.8);
        assert_eq!(cache.len(), 2);
        frame(&ctx, &mut cache, &["0101"], 11.0);
        assert_eq!(cache.len(), 3);
        // Kept while other sizes are drawn, for the zoom to come back to.
        frame(&ctx, &mut cache, &["0102"], 9.0);
        assert_eq!(cache.len(), 3);
    }

    #[test]
    fn a_new_scale_drops_every_layout() {
        let ctx = egui::Context::default();
        let mut cache = TextCache::default();
        frame(&ctx, &mut cache, &["0101", "0102"], 9.0);
        assert_eq!(cache.len(), 2);
        ctx.set_pixels_per_point(2.0);
        frame(&ctx, &mut cache, &["0101"], 9.0);
        assert_eq!(cache.len(), 1);
    }
}
