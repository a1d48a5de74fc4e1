//! The form kit: the few widgets a rule set's situation panel is drawn with
//! ([`crate::engine::play::SetForm::situation_ui`]), below the rule-set adapters so a set's panel
//! lives in its own folder (issue 27) and the window draws every set's panel the same way.
//!
//! Every text field gets an id that depends only on its name and the scope it is drawn in, never
//! on what is laid out above it, so it keeps its focus while a line appears above it (issue 26);
//! no key typed beside a field changes the game, since the window's playing shortcuts take Ctrl
//! (issue 46). In a wrapping row a group (a combo box with its label, a number field
//! in its scope) asks for its room first ([`fit_or_wrap`]).

use std::fmt::Display;
use std::hash::Hash;

use egui::{Color32, Id, Response, Ui};

use crate::dice::Ratio;

/// The id of the field `name` in `ui`'s scope: the same every frame, whatever is drawn above it.
pub fn stable_id(ui: &Ui, name: impl Hash + std::fmt::Debug) -> Id {
    ui.scope_id().with(("kepi_field", name))
}

/// Adds a text field under a stable id (see the module's note).
pub fn field(ui: &mut Ui, edit: egui::TextEdit<'_>, name: impl Hash + std::fmt::Debug) -> Response {
    let id = stable_id(ui, name);
    ui.add(edit.id(id))
}

/// Draws `add` (a number field) in a scope of its own with a stable id, so the field's id, and
/// with it the focus while a value is typed, never depends on what is laid out above it.
pub fn stable<R>(
    ui: &mut Ui,
    name: impl Hash + std::fmt::Debug,
    add: impl FnOnce(&mut Ui) -> R,
) -> R {
    let id = stable_id(ui, name);
    // A scope is a group egui cannot wrap by itself: room for a number field is asked first.
    fit_or_wrap(ui, NUMBER_W);
    ui.scope_builder(egui::UiBuilder::new().scope_id(id), add)
        .inner
}

/// About the widest a number field with its prefix and suffix is ("turned 180°", "figures 200").
const NUMBER_W: f32 = 100.0;

/// Adds a number field under a stable id (see [`stable`]).
pub fn number(
    ui: &mut Ui,
    drag: egui::DragValue<'_>,
    name: impl Hash + std::fmt::Debug,
) -> Response {
    stable(ui, name, |ui| ui.add(drag))
}

/// In a wrapping row (`horizontal_wrapped`), starts a new row when a group about `width` wide
/// does not fit in what is left of this one. egui wraps a plain widget by itself, but not a group
/// (a combo box with its label, a field in a scope of its own): one that runs past the column's
/// edge widens the column for everything under it.
pub fn fit_or_wrap(ui: &mut Ui, width: f32) {
    if !ui.layout().main_wrap() {
        return;
    }
    let left = ui.available_size_before_wrap().x;
    let row_started = left < ui.max_rect().width() - 1.0;
    if row_started && left < width {
        ui.end_row();
    }
}

/// The width of `text` in `style`, laid out on one line as a label draws it.
pub fn text_width(ui: &Ui, text: &str, style: egui::TextStyle) -> f32 {
    let font = style.resolve(ui.style());
    ui.painter()
        .layout_no_wrap(text.to_string(), font, Color32::WHITE)
        .size()
        .x
}

/// A combo box over a closed vocabulary.
pub fn pick<T: Copy + PartialEq + Display>(
    ui: &mut Ui,
    label: &str,
    value: &mut T,
    all: &[T],
) -> bool {
    let mut changed = false;
    let width = ui.spacing().combo_width
        + ui.spacing().item_spacing.x
        + text_width(ui, label, egui::TextStyle::Body);
    fit_or_wrap(ui, width);
    combo(ui, label, value.to_string(), |ui| {
        for v in all {
            changed |= ui.selectable_value(value, *v, v.to_string()).changed();
        }
    });
    changed
}

/// A combo box with its label before it ("class [veteran]"), as a reader takes them: egui's own
/// puts the label after, where it read as the next box's (issue 46: P&K's "range measured" box
/// read as "officer with target"). The label names the box for a screen reader and the tests,
/// and the two stay on one row.
pub fn combo(ui: &mut Ui, label: &str, selected: String, add: impl FnOnce(&mut Ui)) {
    ui.horizontal(|ui| {
        let l = ui.add(egui::Label::new(label).wrap_mode(egui::TextWrapMode::Extend));
        egui::ComboBox::from_id_salt(label)
            .selected_text(selected)
            .show_ui(ui, add)
            .response
            .labelled_by(l.id);
    });
}

/// The number fields whose text does not read as a number, by label, as the window last drew
/// them (issue 46: "1n2" typed into P&K's inches silently rolled with 1).
#[derive(Clone, Default)]
struct Unparsed {
    /// The pass `now` was noted in.
    pass: u64,
    /// The labels noted in that pass.
    now: Vec<String>,
}

fn unparsed_key() -> Id {
    Id::unique("kepi_unparsed_number_fields")
}

/// Notes that the field `label`'s text does not read as a number this pass.
fn note_unparsed(ctx: &egui::Context, label: &str) {
    let pass = ctx.cumulative_pass_nr();
    ctx.data_mut(|d| {
        let u = d.get_temp_mut_or_default::<Unparsed>(unparsed_key());
        if u.pass != pass {
            *u = Unparsed {
                pass,
                now: Vec::new(),
            };
        }
        if !u.now.iter().any(|l| l == label) {
            u.now.push(label.to_string());
        }
    });
}

/// The number fields whose text does not read as a number (their labels): nothing may be rolled
/// while one remains, since the value the form holds is not what the field shows. Those noted in
/// this pass, or in the last one when the asker is drawn before the fields.
pub fn unparsed(ctx: &egui::Context) -> Vec<String> {
    let pass = ctx.cumulative_pass_nr();
    ctx.data(|d| d.get_temp::<Unparsed>(unparsed_key()))
        .filter(|u| u.pass + 1 >= pass)
        .map(|u| u.now)
        .unwrap_or_default()
}

/// A number field's text: kept as typed while it does not read (marked in the error colour and
/// noted, [`unparsed`]), else shown as the value once the field lets go of the keyboard.
fn number_text(
    ui: &Ui,
    r: &Response,
    label: &str,
    reads: bool,
    text: &mut String,
    shown: impl FnOnce() -> String,
) {
    if !reads {
        note_unparsed(ui.ctx(), label);
    } else if !r.has_focus() {
        *text = shown();
    }
}

/// A text field for a number: in the error colour while its text does not read.
fn number_edit<'t>(ui: &Ui, text: &'t mut String, reads: bool) -> egui::TextEdit<'t> {
    let edit = egui::TextEdit::singleline(text).desired_width(60.0);
    if reads {
        edit
    } else {
        edit.text_color(ui.visuals().error_fg_color)
    }
}

/// An exact number field (inches, fatigue): typed as 12, 7.5 or 15/2. Text that does not read
/// stays as typed, marked, and stops the roll ([`unparsed`]).
pub fn ratio_field(ui: &mut Ui, label: &str, value: &mut Ratio, id: &str) {
    let l = ui.label(label);
    let key = ui.scope_id().with(("ratio_field", id));
    let mut text = ui
        .data_mut(|d| d.get_temp::<String>(key))
        .unwrap_or_else(|| value.to_plain());
    let read = |t: &str| t.trim().parse::<Ratio>().ok();
    let before = read(&text).is_some();
    let r = field(ui, number_edit(ui, &mut text, before), ("ratio_field", id)).labelled_by(l.id);
    let now = read(&text);
    if r.changed()
        && let Some(v) = now
    {
        *value = v;
    }
    number_text(ui, &r, label, now.is_some(), &mut text, || value.to_plain());
    ui.data_mut(|d| d.insert_temp(key, text));
}

/// A distance field at the game's scale (issue 28): shows `text_inches` (the rules' own inches)
/// in the scale's unit and factor ("range (cm)" 30.48), and reads what is typed back, exactly,
/// as a distance at that scale (a bare number in its unit; `12in` or `30cm` as written). Under a
/// stable id like [`ratio_field`], and like it kept as typed and marked while it does not read.
pub fn distance_field(
    ui: &mut Ui,
    label: &str,
    scale: &crate::rules::Scale,
    text_inches: &mut Ratio,
    id: &str,
) {
    let shown = |v: Ratio| scale.number(v).trim_start_matches('~').to_string();
    let label = if label.is_empty() {
        scale.unit.word().to_string()
    } else {
        format!("{label} ({})", scale.unit.word())
    };
    let l = ui.label(&label);
    let key = ui.scope_id().with(("distance_field", id));
    let mut text = ui
        .data_mut(|d| d.get_temp::<String>(key))
        .unwrap_or_else(|| shown(*text_inches));
    let read = |t: &str| {
        t.trim()
            .parse::<crate::rules::Distance>()
            .ok()
            .and_then(|d| scale.text_inches(d).ok())
    };
    let before = read(&text).is_some();
    let r = field(
        ui,
        number_edit(ui, &mut text, before),
        ("distance_field", id),
    )
    .labelled_by(l.id);
    let now = read(&text);
    if r.changed()
        && let Some(v) = now
    {
        *text_inches = v;
    }
    number_text(ui, &r, &label, now.is_some(), &mut text, || {
        shown(*text_inches)
    });
    ui.data_mut(|d| d.insert_temp(key, text));
}

/// A small coloured label ("Shaken", "disordered", "house").
pub fn chip(ui: &mut Ui, text: &str, color: Color32) -> Response {
    egui::Frame::new()
        .fill(color.gamma_multiply(0.25))
        .stroke(egui::Stroke::new(1.0, color))
        .corner_radius(6)
        .inner_margin(egui::Margin::symmetric(5, 1))
        .show(ui, |ui| {
            ui.label(
                egui::RichText::new(text)
                    .small()
                    .color(ui.visuals().strong_text_color()),
            )
        })
        .response
}

/// The colour of a provenance badge.
pub fn provenance_color(p: crate::tables::Provenance) -> Color32 {
    match p {
        crate::tables::Provenance::Seed => Color32::from_rgb(70, 150, 90),
        crate::tables::Provenance::Derived => Color32::from_rgb(80, 130, 190),
        crate::tables::Provenance::House => Color32::from_rgb(210, 150, 40),
        crate::tables::Provenance::Unknown => Color32::from_rgb(200, 70, 70),
    }
}

/// A provenance badge; house and unknown values say what to do on hover.
pub fn provenance_badge(ui: &mut Ui, p: crate::tables::Provenance) {
    let r = chip(ui, p.as_str(), provenance_color(p));
    if !p.badge().is_empty() {
        r.on_hover_text(p.badge());
    }
}
