//! The top bar: rule set, turn and phase with the date, next phase, undo/redo, saved state, dice mode.

use egui::{RichText, Ui};

use super::keys::{self, Does};
use super::state::{Command, View};

/// Width of the rule set's slot in the top bar (its name elided, the whole on hover).
const TITLE_W: f32 = 130.0;
/// The most the turn and phase slot takes: a game's slot is as wide as "Turn 99 - " and its
/// longest phase (so Next phase and Undo never move when the phase changes), up to this; a
/// fixed 350 points with the date's own slot pushed the dice mode's "mine" off a 1366-point
/// screen (issue 46).
const PHASE_W: f32 = 350.0;

/// The widest date the bar shows, measured for the date's slot: the date is never cut (issue 46:
/// "16 Aug 1..." at 1366x768, when it shared the phase's slot).
const WIDEST_DATE: &str = "30 Sep 1870";

/// The size of the turn, phase and date.
const PHASE_SIZE: f32 = 15.0;

/// A label in a slot of fixed width, elided with the whole text on hover: the top bar's buttons keep
/// their place whatever the texts before them say.
fn slot(ui: &mut Ui, width: f32, text: RichText, hover: &str) {
    let h = ui.spacing().interact_size.y;
    let (rect, _) = ui.allocate_exact_size(egui::vec2(width, h), egui::Sense::hover());
    // A child in the rect already allocated: it never moves the bar's cursor, whatever the text.
    let mut child = ui.new_child(
        egui::UiBuilder::new()
            .max_rect(rect)
            .layout(egui::Layout::left_to_right(egui::Align::Center)),
    );
    child
        .add(
            egui::Label::new(text)
                .truncate()
                .show_tooltip_when_elided(false),
        )
        .on_hover_text(hover);
}

/// The turn and phase slot's width for a game whose phases are `phases`: its longest phase after
/// the widest turn number, in the bar's font, at most [`PHASE_W`].
fn phase_width(ui: &Ui, phases: &[String]) -> f32 {
    phases
        .iter()
        .map(|p| date_width(ui, &format!("Turn 99 - {p}")))
        .fold(0.0_f32, f32::max)
        .min(PHASE_W)
        + 2.0
}

/// The width `date` takes in the bar's font (a date past [`WIDEST_DATE`], in a scenario of
/// another war, still shows whole).
fn date_width(ui: &Ui, date: &str) -> f32 {
    ui.painter()
        .layout_no_wrap(
            date.to_string(),
            egui::FontId::proportional(PHASE_SIZE),
            egui::Color32::WHITE,
        )
        .size()
        .x
}

/// The top bar: the File, View and Help menus, the rule set, turn and phase with the date, Next
/// phase, Undo and Redo, and the dice mode. It owns the Help window its menu opens; everything else
/// it reads from the [`View`] and asks for with [`Command`]s.
#[derive(Debug, Default)]
pub struct TopBar {
    /// The Help menu's window (its page and the glossary's filter).
    pub help: super::help::HelpPanel,
}

impl TopBar {
    /// Draws the bar on one line at any width (the texts that change, rule set, phase and date,
    /// sit in fixed-width slots); returns the commands clicked.
    pub fn ui(&mut self, ui: &mut Ui, view: &View) -> Vec<Command> {
        let mut out = Vec::new();
        ui.horizontal(|ui| {
            super::files::file_menu_ui(ui, view, &mut out);
            self.help.menu_ui(ui);
            ui.separator();
            let state = view.state();
            ui.label(RichText::new("kepi").strong().size(20.0));
            slot(
                ui,
                TITLE_W,
                RichText::new(state.system.title()).strong(),
                &format!("{}\n{}", state.system.title(), state.title),
            );
            ui.separator();
            let date = state
                .date
                .map(|d| d.format("%-d %b %Y").to_string())
                .unwrap_or_default();
            let phase = format!("Turn {} - {}", state.turn, state.phase_name());
            let hover = if date.is_empty() {
                phase.clone()
            } else {
                format!("{phase}\n{date}")
            };
            let phase_w = phase_width(ui, &state.phases);
            slot(ui, phase_w, RichText::new(phase).size(PHASE_SIZE), &hover);
            // The date in a slot of its own, as wide as the widest date: whole, and Next phase
            // stays where it is from one day to the next.
            if state.date.is_some() {
                let w = date_width(ui, WIDEST_DATE).max(date_width(ui, &date)) + 2.0;
                slot(ui, w, RichText::new(&date).size(PHASE_SIZE), &hover);
            }
            // A player's seat: the umpire's controls stay in place, disabled, saying why on hover.
            let next_why = view.not_yours("the next phase");
            if umpire_button(ui, "Next phase >", next_why, Does::NextPhase, "next phase") {
                out.push(Command::NextPhase);
            }
            ui.separator();
            let undo_why = view
                .not_yours("undo")
                .or_else(|| (!view.game.can_undo()).then(|| "nothing to undo".to_string()));
            if umpire_button(ui, "Undo", undo_why, Does::Undo, "undo the last action") {
                out.push(Command::Undo);
            }
            let redo_why = view
                .not_yours("redo")
                .or_else(|| (!view.game.can_redo()).then(|| "nothing to redo".to_string()));
            if umpire_button(ui, "Redo", redo_why, Does::Redo, "redo") {
                out.push(Command::Redo);
            }
            ui.separator();
            ui.label("Dice:");
            let mut own = view.own_dice;
            ui.radio_value(&mut own, false, "kepi")
                .on_hover_text("kepi rolls from the game's committed seed (logged)");
            ui.radio_value(&mut own, true, "mine")
                .on_hover_text("you roll your own dice and type them in at the resolver's foot");
            if own != view.own_dice {
                out.push(Command::SetOwnDice(own));
            }
        });
        out
    }
}

/// Issue 28: the scale the table measures at (unit and distance factor), for the tape-measure
/// rule sets, in the status line's right corner. The umpire sets it here; it is logged (an [`Action::Scale`], undone like any
/// other), and every distance the window shows or reads follows it.
///
/// [`Action::Scale`]: kepi_game::engine::game::Action::Scale
pub fn scale_menu_ui(ui: &mut Ui, view: &View, out: &mut Vec<Command>) {
    use kepi_game::rules::scale::{Scale, Unit};
    let now = view.state().scale;
    // Stays open while the unit and the factor are chosen; closes on Set or a click outside.
    let config = egui::containers::menu::MenuConfig::new()
        .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
    egui::containers::menu::MenuButton::new(format!("Scale: {now}"))
        .config(config)
        .ui(ui, |ui| {
            ui.label(RichText::new("Measured play at the club's scale").strong());
            ui.label(
                RichText::new(
                    "Distances are read and printed in this unit, scaled by the factor \
                 (1/2 for 6 mm figures); the rules keep the text's inches.",
                )
                .small()
                .weak(),
            );
            let key = super::keys::stable_id(ui, "scale_draft");
            let (mut unit, mut factor) = ui
                .data_mut(|d| d.get_temp::<(Unit, String)>(key))
                .unwrap_or((now.unit, now.factor.to_string()));
            ui.horizontal(|ui| {
                ui.label("unit");
                for u in Unit::ALL {
                    ui.radio_value(&mut unit, u, u.word());
                }
            });
            ui.horizontal(|ui| {
                let l = ui.label("factor");
                super::keys::field(
                    ui,
                    egui::TextEdit::singleline(&mut factor).desired_width(60.0),
                    "scale_factor",
                )
                .labelled_by(l.id);
            });
            let parsed = format!("{unit} {factor}").parse::<Scale>();
            match &parsed {
                Ok(s) => {
                    ui.label(
                        RichText::new(format!(
                            "12 inches of the text = {} on the table",
                            s.show(kepi_game::dice::Ratio::int(12))
                        ))
                        .small(),
                    );
                }
                Err(e) => {
                    ui.colored_label(ui.visuals().warn_fg_color, e);
                }
            }
            let changed = parsed.as_ref().is_ok_and(|s| *s != now);
            if ui
                .add_enabled(changed, egui::Button::new("Set scale (logged)"))
                .clicked()
                && let Ok(scale) = parsed
            {
                out.push(Command::Act(kepi_game::engine::game::Action::Scale {
                    scale,
                }));
                ui.data_mut(|d| d.remove::<(Unit, String)>(key));
                ui.close();
                return;
            }
            ui.data_mut(|d| d.insert_temp(key, (unit, factor)));
        });
}

/// Where the game is kept ("saved: NAME", "kept by kepi", "NOT on disk"), with the path on hover:
/// drawn at the right of the status line, so the top bar keeps to one line on a laptop.
pub fn saved_state_ui(ui: &mut Ui, view: &View) {
    // A box of one width whatever it says ("no actions yet", "kept by kepi", a file's name), so
    // the scale menu beside it never moves under the pointer (issue 46); a long name is elided in
    // it, whole on hover.
    let size = egui::vec2(SAVED_STATE_W, ui.spacing().interact_size.y);
    let fixed = |ui: &mut Ui, text: RichText, hover: String| {
        // One tooltip, kepi's (egui's own for the elided text stacked under it).
        ui.add_sized(
            size,
            egui::Label::new(text)
                .truncate()
                .show_tooltip_when_elided(false),
        )
        .on_hover_text(hover);
    };
    // On the network the host keeps the game: say whose seat this window holds.
    if let Some(r) = view.mode.remote() {
        let seat = r.seat.map_or("a", |s| s.name());
        fixed(
            ui,
            RichText::new(format!("on the network: the {seat} seat")).weak(),
            "The host keeps the game and its save; what this window does is sent to it".into(),
        );
        return;
    }
    let saved = match (view.save_path, view.unsaved) {
        (None, false) => RichText::new("no actions yet").weak(),
        (_, true) => RichText::new("NOT on disk").color(ui.visuals().error_fg_color),
        (Some(_), false) if view.autosaved => RichText::new("kept by kepi").weak(),
        (Some(path), false) => RichText::new(format!(
            "saved: {}",
            path.file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_default()
        ))
        .weak(),
    };
    let hover = match (view.save_path, view.unsaved) {
        (_, true) => "Some actions could not be written: File > Save As to keep them".to_string(),
        (Some(path), false) if view.autosaved => format!(
            "Every action is in {} (kepi's folder). File > Save As moves the game where you choose.",
            path.display()
        ),
        (Some(path), false) => format!("Every action is journalled in {}", path.display()),
        (None, false) => "The game gets its file at its first action".to_string(),
    };
    fixed(ui, saved, hover);
}

/// The width of [`saved_state_ui`]'s box: "on the network: the german seat" at the body size.
const SAVED_STATE_W: f32 = 210.0;

/// A button of the umpire's: enabled unless `why_not` says why (shown on hover), its shortcut in
/// its tooltip. True when clicked.
fn umpire_button(
    ui: &mut Ui,
    label: &str,
    why_not: Option<String>,
    does: Does,
    what: &str,
) -> bool {
    ui.add_enabled(why_not.is_none(), egui::Button::new(label))
        .on_hover_text(keys::tip(does, what))
        .on_disabled_hover_text(why_not.unwrap_or_default())
        .clicked()
}
