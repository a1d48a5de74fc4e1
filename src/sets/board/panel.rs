//! What SPI's and 1870's combat panels in the window share, drawn with the form kit
//! ([`kepi_game::engine::play::kit`]): the engaged units, one row each, and the result entered from
//! the printed chart when kepi does not know the cell. Each set's own toggles and its owners'
//! choice of losses are its folder's `panel.rs`.

use egui::{RichText, Ui};

/// SPI-C1, FR-C1: the result typed from the printed chart for a cell kepi does not know
/// (`hint`: an example of the set's results).
pub(crate) fn entered_ui(ui: &mut Ui, v: &mut Option<String>, hint: &str) {
    ui.horizontal(|ui| {
        let l = ui.label("result from your printed chart:");
        let mut text = v.clone().unwrap_or_default();
        kepi_game::engine::play::kit::field(
            ui,
            egui::TextEdit::singleline(&mut text)
                .desired_width(90.0)
                .hint_text(hint),
            "chart_result",
        )
        .labelled_by(l.id);
        *v = (!text.trim().is_empty()).then_some(text);
    })
    .response
    .on_hover_text("Only for a CRT cell kepi does not know: type what your printed chart says for the die rolled. A known cell must agree.");
}

/// The engaged units of a hex combat, attackers then defenders, one wrapping row each drawn by
/// `row` under an id of its own (SPI-C2, FR-C1: Ctrl-click adds or removes an attacker; `rule`
/// is the set's id for it).
pub(crate) fn engaged_ui<U>(
    ui: &mut Ui,
    rule: &str,
    sides: [(&str, &mut Vec<U>); 2],
    mut row: impl FnMut(&mut Ui, &mut U),
) {
    ui.label(
        RichText::new(format!(
            "Ctrl-click units in the roster or on the map to add or remove attackers ({rule})"
        ))
        .small()
        .weak(),
    );
    for (label, units) in sides {
        ui.label(RichText::new(label).strong());
        ui.push_id(label, |ui| {
            for (i, u) in units.iter_mut().enumerate() {
                ui.push_id(i, |ui| ui.horizontal_wrapped(|ui| row(ui, u)));
            }
        });
    }
}
