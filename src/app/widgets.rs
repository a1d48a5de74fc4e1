//! Small reusable pieces of the window: status chips and provenance badges (the form kit's,
//! [`kepi_game::engine::play::kit`]), the modifier breakdown and the odds bar chart. Each reads plain
//! data and draws it.

use egui::{Color32, RichText, Sense, Stroke, StrokeKind, Ui, vec2};

use kepi_game::dice::Prob;
pub use kepi_game::engine::play::kit::{
    chip, fit_or_wrap, provenance_badge, provenance_color, text_width,
};
use kepi_game::rules::{ModifierLine, OddsLine};
use kepi_game::tables::Provenance;

/// Lays out `add` no wider than `width` (nor than the room there is): what one section lets run
/// past the column's edge does not widen the sections after it (egui grows a region to what it
/// holds).
pub fn bounded<R>(ui: &mut Ui, width: f32, add: impl FnOnce(&mut Ui) -> R) -> R {
    ui.scope(|ui| {
        ui.set_max_width(width.min(ui.available_width()));
        add(ui)
    })
    .inner
}

/// The modifier breakdown: label, value, rule id, provenance, one line each.
pub fn modifier_table_ui(ui: &mut Ui, id: &str, lines: &[ModifierLine]) {
    // The label column takes what the value, rule id and badge leave of the column: a long line
    // ("defender 1 (Cavalry 4): 2 cavalry halved (disorganised)") wraps in it, whole, and never
    // widens the resolver's panel (which moved Roll under the mouse).
    // The other columns measured as they will be drawn: a guess too small made the grid wider
    // than the column, which widened everything under it (egui grows a region to what it holds)
    // and the next frame's guess with it, until badges and the result card ran past the edge.
    let gap = 12.0;
    let widest = |f: &dyn Fn(&ModifierLine) -> f32| lines.iter().map(f).fold(0.0_f32, f32::max);
    let value_w = widest(&|m| text_width(ui, &m.value, egui::TextStyle::Monospace));
    let rule_w = widest(&|m| text_width(ui, m.rule.as_str(), egui::TextStyle::Monospace));
    let badge_w =
        widest(&|m| text_width(ui, m.provenance.as_str(), egui::TextStyle::Small) + CHIP_FRAME_W);
    let rest = (value_w + rule_w + badge_w + 3.0 * gap + MODIFIER_SLACK_W).max(MODIFIER_REST_W);
    let label_w = (ui.available_width() - rest).max(120.0);
    egui::Grid::new(id)
        .striped(true)
        .num_columns(4)
        .spacing([gap, 3.0])
        .show(ui, |ui| {
            for m in lines {
                wrapped_label(ui, RichText::new(&m.label), label_w);
                ui.label(RichText::new(&m.value).monospace().strong());
                ui.label(RichText::new(m.rule.as_str()).monospace().weak());
                provenance_badge(ui, m.provenance);
                ui.end_row();
            }
        });
    if lines.iter().any(|m| m.provenance == Provenance::House) {
        ui.label(
            RichText::new("house value: check your printed card")
                .small()
                .color(provenance_color(Provenance::House)),
        );
    }
}

/// Room kept beside a modifier table's measured columns (the stripes' rounding, a scroll bar).
const MODIFIER_SLACK_W: f32 = 24.0;

/// The least a modifier table keeps beside its labels, whatever it measures: a table that fits
/// its column exactly would move it with every pixel of rounding.
const MODIFIER_REST_W: f32 = 200.0;

/// What a [`chip`]'s frame adds to its text's width: the inner margin and the stroke, both sides.
const CHIP_FRAME_W: f32 = 12.0;

/// A label in a column `width` wide, wrapped onto as many lines as it needs (issue 46: elided at
/// 1366x768, P&K's melee outcomes all read "B loses 2 casualties, lea..." and could not be told
/// apart). The column keeps its width whatever the text, so it never widens its panel, and
/// nothing an umpire reads (a number, an outcome) is cut.
pub fn wrapped_label(ui: &mut Ui, text: RichText, width: f32) -> egui::Response {
    ui.scope(|ui| {
        ui.set_min_width(width);
        ui.set_max_width(width);
        ui.add(egui::Label::new(text).wrap_mode(egui::TextWrapMode::Wrap))
    })
    .inner
}

/// Width of an odds bar, in points.
pub const ODDS_BAR_W: f32 = 110.0;

/// The longest exact fraction the odds column prints as such ("2630550167/24794911296" is not).
pub const MAX_FRACTION_CHARS: usize = 11;

/// The width of the outcome's column in the odds chart (a longer outcome wraps in it).
const ODDS_LABEL_W: f32 = 150.0;

/// The exact odds as a bar chart: outcome, bar, fraction, percent. `highlight` marks the line rolled
/// (its index in `odds`, as the resolution recorded it).
pub fn odds_bars_ui(ui: &mut Ui, odds: &[OddsLine], highlight: Option<usize>) {
    let max = odds
        .iter()
        .map(|o| o.p)
        .max()
        .unwrap_or(Prob::ONE)
        .0
        .to_f64()
        .max(1e-9);
    // A bar short enough for a resolver beside the map (a 160-point bar made the chart wider than
    // its column, which then grew); fixed, so the chart never takes frames to settle.
    let bar_w = ODDS_BAR_W;
    egui::Grid::new(ui.next_auto_id())
        .num_columns(4)
        .spacing([8.0, 2.0])
        .show(ui, |ui| {
            for (i, o) in odds.iter().enumerate() {
                let hit = highlight == Some(i);
                let text = if hit {
                    RichText::new(format!("> {}", o.outcome)).strong()
                } else {
                    RichText::new(&o.outcome)
                };
                // The outcome's column has a fixed width and wraps: a long outcome ("unknown:
                // enter from your printed chart") never widens the chart, and with it the
                // resolver's panel, under the mouse, and is never cut.
                wrapped_label(ui, text, ODDS_LABEL_W);
                let (rect, _) = ui.allocate_exact_size(vec2(bar_w, 14.0), Sense::hover());
                let frac = (o.p.0.to_f64() / max) as f32;
                let mut bar = rect;
                bar.set_width(rect.width() * frac.clamp(0.0, 1.0));
                let color = if hit {
                    Color32::from_rgb(220, 160, 40)
                } else {
                    ui.visuals().selection.bg_fill
                };
                ui.painter().rect_filled(bar, 2.0, color);
                ui.painter().rect_stroke(
                    rect,
                    2.0,
                    Stroke::new(1.0, ui.visuals().weak_text_color()),
                    StrokeKind::Inside,
                );
                // A fraction too long for its column (GSP sums reach ten digits a side) shows as
                // a percentage, the exact fraction on hover: the column never clips.
                let exact = o.p.to_string();
                if exact.len() <= MAX_FRACTION_CHARS {
                    ui.label(RichText::new(&exact).monospace());
                    ui.label(RichText::new(o.p.0.percent()).monospace().weak());
                } else {
                    ui.label(RichText::new(o.p.0.percent()).monospace())
                        .on_hover_text(format!("exactly {exact}"));
                    ui.label(RichText::new("exact: hover").small().weak())
                        .on_hover_text(format!("exactly {exact}"));
                }
                ui.end_row();
            }
        });
}

/// Text wrapped to at most `rows` lines in a slot of exactly that height and the width there is
/// (issue 46: nothing an umpire reads is cut at 1366x768). The slot's height never changes with
/// the text, so nothing under it moves as the text comes and goes; only a text longer than `rows`
/// lines is elided at its end, and then it is whole on hover.
pub fn lines_label(ui: &mut Ui, text: impl Into<egui::WidgetText>, rows: usize) -> egui::Response {
    let rows = rows.max(1);
    let mut job = std::sync::Arc::unwrap_or_clone(text.into().into_layout_job(
        ui.style(),
        egui::FontSelection::Default,
        egui::Align::Center,
    ));
    job.wrap.max_rows = rows;
    job.wrap.break_anywhere = false;
    let height = lines_height(ui, rows);
    let size = vec2(ui.available_width().max(0.0), height);
    ui.allocate_ui_with_layout(size, egui::Layout::top_down(egui::Align::Min), |ui| {
        ui.set_min_size(size);
        ui.add(egui::Label::new(job).wrap())
    })
    .inner
}

/// The height of a [`lines_label`] of `rows` lines: at least one control's height, so a slot of
/// one line is as tall as the buttons beside it.
pub fn lines_height(ui: &Ui, rows: usize) -> f32 {
    let line = ui.text_style_height(&egui::TextStyle::Body);
    (line * rows.max(1) as f32).max(ui.spacing().interact_size.y)
}
