//! Rolls without a unit (issue 28): a rule set's `kepi resolve` actions that no form covers (P&K
//! initiative and army morale, the Portable Wargame's first side, SPI's victory tally and EB river
//! rolls, 1870's storming of a fortress...), played in the game with the very words
//! `kepi game apply` takes ([`kepi_middle::moves::apply_in_memory`]), seeded and logged like a form's
//! roll. The options typed belong to one roll: they are cleared once it is asked for.

use egui::{RichText, Ui};

use super::state::{Command, View};

/// The section's own state: the verb picked and the options typed for its next roll.
#[derive(Debug, Default)]
pub struct OtherRollsPanel {
    /// The verb picked (None: the rule set's first).
    verb: Option<String>,
    /// The options typed, for one roll: cleared once it is asked for.
    text: String,
}

impl OtherRollsPanel {
    /// The section, closed until asked for; nothing when the rule set has no such roll.
    pub fn ui(&mut self, ui: &mut Ui, view: &View) -> Vec<Command> {
        let mut out = Vec::new();
        let system = view.state().system.system();
        let verbs = kepi_middle::moves::play::plain_verbs(system);
        let Some(first) = verbs.first().cloned() else {
            return out;
        };
        // The header is short (a header does not wrap); the verbs are named on hover and inside.
        egui::CollapsingHeader::new(format!("Rolls without a unit ({})", verbs.len()))
            .id_salt("other_rolls")
            .default_open(false)
            .show(ui, |ui| {
                // A verb of another rule set (the game changed) is not offered.
                let mut verb = self
                    .verb
                    .take()
                    .filter(|v| verbs.contains(v))
                    .unwrap_or(first);
                let text = &mut self.text;
                // The whole `--help` is laid out only while hovered, not every frame.
                let help = |ui: &mut Ui, verb: &str| {
                    ui.label(kepi_middle::moves::play::plain_verb_help(system, verb));
                };
                ui.horizontal_wrapped(|ui| {
                    egui::ComboBox::new("other_rolls_pick", "roll")
                        .selected_text(&verb)
                        .show_ui(ui, |ui| {
                            for v in &verbs {
                                ui.selectable_value(&mut verb, v.clone(), v);
                            }
                        });
                    let l = ui.label("options:");
                    kepi_game::engine::play::kit::field(
                        ui,
                        egui::TextEdit::singleline(text)
                            .desired_width(200.0)
                            .hint_text("as after the verb in kepi game apply"),
                        "other_rolls_options",
                    )
                    .labelled_by(l.id)
                    .on_hover_ui(|ui| help(ui, &verb));
                    if ui
                        .button(format!("Roll {verb}"))
                        .on_hover_text(
                            "as `kepi game apply SAVE VERB OPTIONS`: kepi's seeded dice (or the \
                         dice typed with --dice), logged; the options are for this roll only",
                        )
                        .clicked()
                    {
                        let mut words = vec![verb.clone()];
                        words.extend(text.split_whitespace().map(str::to_string));
                        out.push(Command::Words(words));
                        text.clear();
                    }
                });
                let about = kepi_middle::moves::play::plain_verb_about(system, &verb);
                ui.label(RichText::new(about).small().weak())
                    .on_hover_ui(|ui| help(ui, &verb));
                self.verb = Some(verb);
            })
            .header_response
            .on_hover_text(verbs.join(", "));
        out
    }
}
