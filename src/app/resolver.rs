//! The resolver: pick the acting and target units in the roster, tick the situation (pre-set from
//! their state), see every modifier with its rule id and provenance and the exact odds of every
//! outcome, then let kepi roll or type your own dice; the outcome is applied to the units as one
//! undoable action.

use egui::{RichText, Ui};

use super::state::{Command, Memo, View};
use super::widgets::{modifier_table_ui, odds_bars_ui};
use kepi_game::dice::{DiceGroup, DiceSource, Die};
use kepi_game::engine::game::{Action, EntryKind, GameState};
use kepi_game::engine::play::{Form, Resolved};
use kepi_game::rules::Tables;
use kepi_game::rules::{Resolution, RuleError, RuleSetId};

/// The resolver's forms and what the user typed.
#[derive(Clone, Debug)]
pub struct ResolverState {
    /// The rule set.
    pub system: RuleSetId,
    /// One form per action, as the user sees and edits it.
    pub forms: Vec<Form>,
    /// Per form, what kepi derived from the units' state (the user's changes are the differences
    /// between this and `forms`: see [`kepi_game::engine::play::overrides`]).
    pub base: Vec<Form>,
    /// The form shown.
    pub current: usize,
    /// Entered dice text per group of the current form's dice ([`Form::dice_groups`], in the
    /// order the form rolls them): the group's die and what was typed ("7" or "3 5").
    pub entered: Vec<(Die, String)>,
    /// The label of each group of `entered` (the fields follow the form shown: another form, or
    /// another number of guns, asks for other dice).
    entered_for: Vec<String>,
    /// Log index of the last resolution applied from here.
    pub last_rolled: Option<u64>,
    /// The form it was rolled from: its result card shows on that form's tab only (another tab
    /// showed the previous form's result as if it were its own).
    pub last_form: Option<usize>,
    /// SPI-C2, FR-C1: units attacking with the selected one in a hex combat (Ctrl-click), by id.
    pub extra_attackers: Vec<String>,
    /// The status line's text when it says why this form did not roll: cleared once the units
    /// are picked again, so "target: no unit chosen" never outlives the choice.
    pub form_error: Option<String>,
    /// What the form resolved to when last drawn, for the foot drawn under it.
    preview: Preview,
    /// What the phase and the text say against the form shown, worked out with its preview each
    /// frame ([`kepi_game::engine::play::breaches::warnings`], memoised in `warned`), shown by Roll.
    notes: Vec<String>,
    /// What [`ResolverState::derive`] last derived the forms for: the game as it stood, each
    /// form's units and the extra attackers. The forms follow the game every frame, but are
    /// derived again only when one of these changed (an SPI form on a map traces supply).
    derived_for: Option<DeriveKey>,
    /// The shown form's notes, for the game as it stands and the form as it is.
    warned: Memo<(GameKey, Form), Vec<String>>,
    /// The shown form's resolution (odds, modifiers), for the game and the form as they are.
    resolved: Memo<(GameKey, Form), Preview>,
}

/// What identifies the game's state ([`super::state::game_key`]).
type GameKey = (usize, String);

/// What the forms are derived from besides the game: each form's units and the extra attackers.
type DeriveKey = (GameKey, Vec<(Option<String>, Option<String>)>, Vec<String>);

impl ResolverState {
    /// SPI-C2, FR-C1: adds `id` to the hex combat's attackers, or takes it out.
    pub fn toggle_attacker(&mut self, id: &str) {
        if let Some(i) = self.extra_attackers.iter().position(|a| a == id) {
            self.extra_attackers.remove(i);
        } else {
            self.extra_attackers.push(id.to_string());
        }
    }

    /// Forms for a rule set.
    pub fn new(system: RuleSetId) -> Self {
        let forms = Form::all_for(system);
        ResolverState {
            system,
            base: forms.clone(),
            forms,
            current: 0,
            entered: Vec::new(),
            entered_for: Vec::new(),
            last_rolled: None,
            last_form: None,
            extra_attackers: Vec::new(),
            form_error: None,
            preview: None,
            notes: Vec::new(),
            derived_for: None,
            warned: Memo::default(),
            resolved: Memo::default(),
        }
    }

    /// The form shown.
    pub fn form(&self) -> Option<&Form> {
        self.forms.get(self.current)
    }

    /// Pre-sets every form from newly picked units: what the user changed about the units picked
    /// before is dropped (their situation choices, such as a range, stay).
    pub fn prefill(
        &mut self,
        state: &GameState,
        actor: Option<&str>,
        target: Option<&str>,
        tables: &Tables,
    ) {
        for f in &mut self.forms {
            f.prefill(state, actor, target, tables);
            f.with_attackers(state, &self.extra_attackers);
        }
        self.base = self.forms.clone();
        // Other units, another roll: the dice typed for the units picked before are dropped.
        self.clear_dice();
    }

    /// One roll, one set of typed values (issue 26): after a roll the chart result, the owners'
    /// loss split and the dice typed for it are dropped from every form, so the next roll asks
    /// for its own and never reuses them.
    pub fn clear_typed(&mut self) {
        for f in self.forms.iter_mut().chain(self.base.iter_mut()) {
            f.clear_typed();
        }
        self.clear_dice();
    }

    /// Empties the "My dice" fields.
    pub fn clear_dice(&mut self) {
        for (_, t) in &mut self.entered {
            t.clear();
        }
    }

    /// Derives every form from the units' state now, keeping the user's changes (called each frame
    /// and before a roll): after a fire, an undo or an edit in the roster the form follows the
    /// units, so a roll never uses a stale figure.
    pub fn derive(&mut self, state: &GameState, tables: &Tables) {
        if self.base.len() != self.forms.len() {
            self.base = self.forms.clone();
        }
        for (form, base) in self.forms.iter_mut().zip(self.base.iter_mut()) {
            let (actor, target) = form.units();
            let (actor, target) = (actor.map(str::to_string), target.map(str::to_string));
            let mut fresh = base.clone();
            fresh.prefill(state, actor.as_deref(), target.as_deref(), tables);
            fresh.with_attackers(state, &self.extra_attackers);
            if fresh != *base {
                *form = kepi_game::engine::play::overrides::rebase(base, form, &fresh);
                *base = fresh;
            }
        }
    }

    /// [`ResolverState::derive`] for a frame: only when the game, a form's units or the extra
    /// attackers changed since the last time (what derive reads besides the rule tables, which a
    /// game keeps). A user's change to a form is kept either way.
    pub fn derive_for_frame(&mut self, game: &kepi_game::engine::game::Game, tables: &Tables) {
        let key: DeriveKey = (
            super::state::game_key(game),
            self.forms
                .iter()
                .map(|f| {
                    let (a, t) = f.units();
                    (a.map(str::to_string), t.map(str::to_string))
                })
                .collect(),
            self.extra_attackers.clone(),
        );
        if self.derived_for.as_ref() != Some(&key) || self.base.len() != self.forms.len() {
            self.derive(game.state(), tables);
            self.derived_for = Some(key);
        }
    }

    /// What the user changed in the current form, against what kepi derived.
    pub fn overrides(&self) -> Vec<kepi_game::engine::play::overrides::Override> {
        match (self.base.get(self.current), self.forms.get(self.current)) {
            (Some(b), Some(f)) => kepi_game::engine::play::overrides::overrides(b, f),
            _ => Vec::new(),
        }
    }

    /// What the user changed in the current form, as (path, value): what a window on the network
    /// sends its host with the form's units.
    pub fn changes(&self) -> Vec<(Vec<String>, serde_json::Value)> {
        match (self.base.get(self.current), self.forms.get(self.current)) {
            (Some(b), Some(f)) => kepi_game::engine::play::overrides::changes(b, f),
            _ => Vec::new(),
        }
    }

    /// Puts one field of the current form (or all, with `None`) back to what kepi derived.
    pub fn reset(&mut self, path: Option<&[String]>) {
        let (Some(b), Some(f)) = (
            self.base.get(self.current),
            self.forms.get_mut(self.current),
        ) else {
            return;
        };
        *f = match path {
            Some(p) => kepi_game::engine::play::overrides::reset(b, f, p),
            None => b.clone(),
        };
    }

    /// Resolves the current form with dice and returns the effects on the units.
    pub fn resolve_with_effects(
        &self,
        state: &GameState,
        tables: &Tables,
        dice: &mut DiceSource,
    ) -> Result<Resolved, RuleError> {
        let form = self.form().ok_or_else(|| {
            RuleError::input("resolver", "this rule set has no resolver actions", "-")
        })?;
        let done = form.resolve(state, tables, Some(&mut *dice))?;
        // What was typed and not rolled is refused, as `kepi game apply --dice` refuses it.
        kepi_game::engine::play::all_dice_used(dice, "My dice")?;
        Ok(done)
    }

    /// The dice groups of the form shown, each with what was typed for it.
    fn dice_typed(&self) -> Vec<(DiceGroup, &str)> {
        let groups = self.form().map(|f| f.dice_groups()).unwrap_or_default();
        groups
            .into_iter()
            .map(|g| {
                let text = self
                    .entered_for
                    .iter()
                    .position(|l| *l == g.label)
                    .and_then(|i| self.entered.get(i))
                    .filter(|(d, _)| *d == g.die)
                    .map_or("", |(_, t)| t.as_str());
                (g, text)
            })
            .collect()
    }

    /// Types `text` into the field of the dice group labelled `label` ("attacker d6"); false when
    /// the form shown has no such group.
    pub fn type_dice(&mut self, label: &str, text: &str) -> bool {
        self.follow_groups();
        match self.entered_for.iter().position(|l| l == label) {
            Some(i) => {
                if let Some((_, t)) = self.entered.get_mut(i) {
                    *t = text.to_string();
                }
                true
            }
            None => false,
        }
    }

    /// The fields follow the form shown: one per dice group, keeping what was typed for a group
    /// of the same label.
    fn follow_groups(&mut self) {
        let groups = self.form().map(|f| f.dice_groups()).unwrap_or_default();
        if groups.iter().map(|g| &g.label).eq(self.entered_for.iter())
            && groups
                .iter()
                .zip(&self.entered)
                .all(|(g, (d, _))| g.die == *d)
        {
            return;
        }
        let typed: Vec<(DiceGroup, String)> = self
            .dice_typed()
            .into_iter()
            .map(|(g, t)| (g, t.to_string()))
            .collect();
        self.entered_for = typed.iter().map(|(g, _)| g.label.clone()).collect();
        self.entered = typed.into_iter().map(|(g, t)| (g.die, t)).collect();
    }

    /// The entered dice, parsed and checked ("d10 takes 1-10, got 11"), in the order the form
    /// rolls them: every group of a known number typed in full ("hit dice (d6 x 6): 6 values,
    /// got 3"); a group the roll needs only on some results may be left empty, and kepi rolls
    /// those (the card says so). Nothing typed at all is `Ok` and empty (nothing to apply).
    pub fn entered_dice(&self) -> Result<Vec<(Die, u32)>, String> {
        let typed = self.dice_typed();
        let mut out = Vec::new();
        let mut counts = Vec::with_capacity(typed.len());
        for (g, text) in &typed {
            let mut n = 0u32;
            for tok in text
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|s| !s.is_empty())
            {
                let v: u32 = tok
                    .parse()
                    .map_err(|_| format!("{}: `{tok}` is not a number", g.label))?;
                g.die.check(v).map_err(|e| format!("{}: {e}", g.label))?;
                out.push((g.die, v));
                n += 1;
            }
            counts.push(n);
        }
        if out.is_empty() {
            return Ok(out);
        }
        for (i, ((g, _), n)) in typed.iter().zip(&counts).enumerate() {
            match g.count {
                Some(want) if *n != want && !(g.optional && *n == 0) => {
                    return Err(format!(
                        "{}: {want} value{} to type, got {n}",
                        g.label,
                        if want == 1 { "" } else { "s" }
                    ));
                }
                None if *n == 0 && !g.optional => {
                    return Err(format!("{}: not typed", g.label));
                }
                _ => {}
            }
            // The dice are taken in the order the form rolls them, per die: a group left empty
            // (kepi's to roll) before a typed group of the same die would hand that group's
            // values to the empty one.
            if *n == 0
                && let Some(later) = typed
                    .iter()
                    .zip(&counts)
                    .skip(i + 1)
                    .find(|((l, _), m)| l.die == g.die && **m > 0)
                    .map(|((l, _), _)| l)
            {
                return Err(format!(
                    "{}: left empty, so kepi would roll it, but {} is typed; type both or leave {} empty too",
                    g.label, later.label, later.label
                ));
            }
        }
        Ok(out)
    }
}

pub use kepi_game::engine::play::kit::{distance_field, pick, ratio_field};

fn unit_name(state: &GameState, id: Option<&str>) -> String {
    id.and_then(|id| state.unit(id))
        .map(|u| {
            let n = if u.strength_hidden {
                "?".to_string()
            } else {
                u.strength.to_string()
            };
            format!("{} ({n} {})", u.unit.name, u.unit.arm)
        })
        .unwrap_or_else(|| "—".to_string())
}

/// The heading of the chart of the odds the last roll was made with, shown (its rolled line marked)
/// once the units it changed give the next roll other odds.
pub const ODDS_ROLLED_WITH: &str = "Odds this roll was made with";
/// The heading of the chart of the next roll's odds.
pub const ODDS_BEFORE_ROLLING: &str = "Exact odds, before rolling";

/// Said beside Roll, greyed, while no acting unit is picked.
pub const PICK_THE_ACTOR: &str = "pick the acting unit (click it in the roster)";
/// Said beside Roll, greyed, while the form's target is not picked.
pub const PICK_A_TARGET: &str = "pick a target (right-click it in the roster)";

/// Roll's row: `button` (Roll, Apply or Apply my dice) at its left, top-aligned, and `reasons`
/// it is greyed for after it, wrapped in what is left of the row: a reason that comes and goes
/// (or wraps onto a second line) never moves the button under the pointer (issue 46).
fn roll_row(ui: &mut Ui, reasons: &[String], button: impl FnOnce(&mut Ui)) {
    ui.horizontal_top(|ui| {
        button(ui);
        ui.vertical(|ui| {
            for r in reasons {
                ui.add(
                    egui::Label::new(RichText::new(r).color(ui.visuals().warn_fg_color))
                        .wrap_mode(egui::TextWrapMode::Wrap),
                );
            }
        });
    });
}

/// Said at the resolver's foot until a unit is picked, in place of the empty form's complaint.
pub const PICK_A_UNIT: &str = "Pick the acting unit in the roster to see the odds.";
/// A refusal with its distances at the game's scale (issue 28).
fn localized_error(e: RuleError, scale: &kepi_game::rules::Scale) -> RuleError {
    match e {
        RuleError::Input {
            field,
            message,
            accepted,
        } => RuleError::Input {
            field,
            message: scale.localize(&message),
            accepted: scale.localize(&accepted),
        },
        other => other,
    }
}

/// What the resolver's form resolves to right now (its odds, modifiers and notes), or why it
/// cannot be rolled; `None` when the rule set has no forms in the window.
pub type Preview = Option<Result<Resolution<serde_json::Value>, RuleError>>;

/// The resolver is a panel (egui_demo_lib's habit): it owns its forms, the dice typed and the last
/// roll's card, reads the game from a [`View`], and asks for a roll with [`Command`]s. It is drawn
/// in two parts, [`ResolverState::ui`] (the form, scrolled) and [`ResolverState::foot_ui`] (Roll
/// and the odds, pinned below), the second showing the preview the first computed this frame.
impl ResolverState {
    /// The resolver's upper part: the form tabs, the units, the situation and the modifier lines.
    /// Keeps the preview it computed from the situation as edited this frame for
    /// [`ResolverState::foot_ui`] (computed once a frame).
    pub fn ui(&mut self, ui: &mut Ui, view: &View) -> Vec<Command> {
        self.preview = self.upper_ui(ui, view);
        Vec::new()
    }

    /// The resolver's foot, pinned under the situation so it never scrolls away: Roll (or the dice
    /// entered), then the last result with its undo, then the exact odds (the rolled line marked).
    pub fn foot_ui(&mut self, ui: &mut Ui, view: &View) -> Vec<Command> {
        let mut out = Vec::new();
        let preview = self.preview.take();
        self.foot(ui, view, &preview, &mut out);
        self.preview = preview;
        out
    }

    /// The resolver's form names a unit whose strength is hidden from this seat (a player's window
    /// while strengths are hidden): its figures in the form are placeholders.
    fn hides_strength(&self, state: &GameState) -> bool {
        self.form().is_some_and(|f| {
            let (a, t) = f.units();
            [a, t]
                .into_iter()
                .flatten()
                .any(|id| state.unit(id).is_some_and(|u| u.strength_hidden))
        })
    }

    /// The resolver's upper part: the form tabs, the units, the situation and the modifier lines.
    /// Returns the preview it computed from the situation as edited this frame, for
    /// [`ResolverState::foot_ui`], which shows the odds and Roll pinned below (computed once a frame).
    fn upper_ui(&mut self, ui: &mut Ui, view: &View) -> Preview {
        let width = ui.available_width();
        if self.forms.is_empty() {
            ui.label(
                "This rule set's actions are resolved from the command line for now (`kepi resolve`).",
            );
            return None;
        }
        ui.horizontal_wrapped(|ui| {
            for i in 0..self.forms.len() {
                let name = self.forms[i].name();
                if ui
                    .selectable_label(self.current == i, RichText::new(name).size(16.0))
                    .clicked()
                {
                    self.current = i;
                }
            }
        });
        ui.separator();
        // Derive, don't copy: the form follows the units' state every frame (derived again when
        // the game or the units picked changed).
        self.derive_for_frame(view.game, view.tables);
        let game_key = super::state::game_key(view.game);
        let hidden = self.hides_strength(view.state());
        let state = view.game.state();
        let tables = view.tables;
        let current = self.current;
        let form = self.forms.get_mut(current)?;
        let (actor, target) = form.units();
        egui::Grid::new("resolver_units")
            .num_columns(2)
            .show(ui, |ui| {
                ui.label("Acting unit:");
                ui.label(RichText::new(unit_name(state, actor)).strong());
                ui.end_row();
                if form.needs_target() {
                    ui.label("Target:");
                    ui.label(RichText::new(unit_name(state, target)).strong());
                    ui.end_row();
                }
            });
        ui.label(RichText::new("Pick units in the roster (click: acting, right-click: target); the situation below is pre-set from their state.").small().weak());
        // Shown under Roll by the foot ([`ResolverState::foot_ui`]).
        self.notes = self
            .warned
            .get((game_key.clone(), form.clone()), || {
                kepi_game::engine::play::breaches::warnings(form, view.game, view.tables)
            })
            .clone();
        // A player's seat while strengths are hidden: the other side's figures here are
        // placeholders; only what the player changes is sent, and the host fills in the rest.
        if hidden {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                "The other side's strengths are hidden from your seat: the host rolls with the real figures, so no odds are shown.",
            );
        }
        ui.separator();
        ui.label(RichText::new("Situation").strong());
        // Held to the column: a row that runs past its edge does not widen the modifiers below.
        super::widgets::bounded(ui, width, |ui| form.inner_mut().situation_ui(ui, state));
        let preview: Result<Resolution<serde_json::Value>, RuleError> = self
            .resolved
            .get((game_key, form.clone()), || {
                Some(
                    form.resolve(state, tables, None)
                        .map(|(r, _)| r.in_scale(&state.scale))
                        .map_err(|e| localized_error(e, &state.scale)),
                )
            })
            .clone()?;
        // Under the situation, never above it: the box appears with the first key typed into a
        // field, and a box above the field moved it from under the pointer mid-word (issue 26).
        self.overrides_ui(ui);
        ui.separator();
        if let Ok(res) = &preview {
            ui.label(RichText::new("Modifiers").strong());
            super::widgets::bounded(ui, width, |ui| {
                modifier_table_ui(ui, "modifiers", &res.modifiers);
            });
        }
        Some(preview)
    }

    /// The fields the user changed from what kepi read off the units, each resettable.
    fn overrides_ui(&mut self, ui: &mut Ui) {
        let changed = self.overrides();
        if changed.is_empty() {
            return;
        }
        let mut reset: Option<Option<Vec<String>>> = None;
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new("Set by you").strong())
                    .on_hover_text("kepi keeps these as the units change; everything else follows the units' state");
                if ui.small_button("Reset all").clicked() {
                    reset = Some(None);
                }
            });
            for o in &changed {
                // Wrapped: one line per change in a row of its own width (seen at 1366x768: an
                // SPI attacker's CP typed as 2 gave a line wider than the screen, which pushed the
                // resolver's column off the window).
                ui.horizontal_wrapped(|ui| {
                    ui.add(
                        egui::Label::new(format!(
                            "{}: {} (from the units: {})",
                            o.label, o.value, o.derived
                        ))
                        .wrap(),
                    );
                    if ui
                        .small_button("Reset")
                        .on_hover_text(format!("back to {}", o.derived))
                        .clicked()
                    {
                        reset = Some(Some(o.path.clone()));
                    }
                });
            }
        });
        if let Some(which) = reset {
            self.reset(which.as_deref());
        }
    }

    /// The resolver's foot, pinned under the situation so it never scrolls away: Roll (or the dice
    /// entered), then the last result with its undo, then the exact odds (the rolled line marked).
    fn foot(&mut self, ui: &mut Ui, view: &View, preview: &Preview, out: &mut Vec<Command>) {
        let Some(preview) = preview else {
            return;
        };
        // On the network: a roll asked of the host waits for its answer before the next (the status
        // line says what was asked; no line is added here, so the odds below never move).
        let waiting = view.mode.remote().is_some_and(|r| r.waiting > 0);
        // Once a frame: the number fields that do not read (they stop Roll and the odds) and the
        // last roll's own odds (the card above the chart, and the line marked on it).
        let unparsed = kepi_game::engine::play::kit::unparsed(ui.ctx());
        let rolled_with = self.rolled_with(view);
        self.dice_ui(ui, view, preview.is_ok() && !waiting, &unparsed, out);
        // The umpire decides: what the phase or the text says against this roll is said here, by
        // Roll (and logged with the roll), never refused. Not above the situation: a value typed
        // there can bring a note (P&K's range past the sight, PK-V1), and a note above the field
        // moved it from under the pointer while typing (seen at 1366x768); not at the foot of the
        // situation either, which scrolls, so the note could sit out of sight when Roll is clicked.
        for w in &self.notes {
            ui.colored_label(ui.visuals().warn_fg_color, format!("Note: {w}"))
                .on_hover_text("kepi will roll if you go ahead; the log records this note with it");
        }
        ui.separator();
        // The last result right under Roll, where the eye is after rolling (at 1366x768 a card under
        // the chart fell below the fold); the chart follows with the rolled line marked.
        let next_odds = preview.as_ref().ok().map(|r| r.odds.as_slice());
        self.last_result_ui(ui, view, next_odds, out);
        // Issue 46: once the roll changed the units its odds read (a 1870 combat's disorganised
        // or eliminated units, a melee's losses), the next roll's odds differ from the roll's, or
        // there is no next roll: the roll's odds stay shown, their rolled line marked, under
        // their own heading (the chart below is the next roll's and marks nothing).
        let hidden = self.hides_strength(view.state());
        if let Some((odds, rolled)) = &rolled_with
            && (hidden || next_odds != Some(odds.as_slice()))
        {
            ui.label(RichText::new(ODDS_ROLLED_WITH).strong());
            odds_bars_ui(ui, odds, *rolled);
            ui.add_space(4.0);
        }
        match preview {
            // Odds computed with a placeholder strength would be wrong, not exact: not shown.
            Ok(_) if hidden => {
                ui.label(RichText::new("Odds").strong());
                ui.label(
                    RichText::new(
                        "not shown: they depend on a strength hidden from your seat; the host rolls with the real one",
                    )
                    .weak(),
                );
            }
            // A number field that does not read: the form holds another value than it shows,
            // so the odds of that value would mislead.
            Ok(_) if !unparsed.is_empty() => {
                ui.label(RichText::new("Odds").strong());
                ui.label(
                    RichText::new("not shown until every number field reads as a number").weak(),
                );
            }
            Ok(res) => {
                ui.label(RichText::new(ODDS_BEFORE_ROLLING).strong());
                // Marked only on the very odds it was rolled with: a chart recomputed for the
                // units as the roll left them is the next roll's, and its fractions are not this
                // roll's (those are drawn above it under ODDS_ROLLED_WITH).
                let mark = rolled_with
                    .as_ref()
                    .filter(|(odds, _)| *odds == res.odds)
                    .and_then(|(_, i)| *i);
                odds_bars_ui(ui, &res.odds, mark);
                for n in &res.notes {
                    ui.label(RichText::new(format!("note: {n}")).small().weak());
                }
            }
            // No unit picked yet (the first start): the form's empty numbers are not an error of
            // the user's, only the choice still to make.
            Err(_) if self.form().is_some_and(|f| f.units().0.is_none()) => {
                ui.label(RichText::new(PICK_A_UNIT).weak());
            }
            Err(e) => {
                let said = super::state::in_window_words(&e.to_string());
                ui.colored_label(ui.visuals().warn_fg_color, said);
            }
        }
    }

    /// The log entry of the last resolution applied from this form, while the game is still in
    /// the turn and phase it was rolled in: its card and its odds are about this phase only
    /// (issue 46: an old card stayed across phases, read as the new phase's result). A window
    /// joined to a host reads its replica's clock alike.
    fn last_entry<'v>(&self, view: &'v View) -> Option<&'v kepi_game::engine::game::LogEntry> {
        if self.last_form != Some(self.current) {
            return None;
        }
        let e = view
            .game
            .log()
            .get(usize::try_from(self.last_rolled?).ok()?)?;
        let now = view.game.state();
        (e.turn == now.turn && e.phase == now.phase_name()).then_some(e)
    }

    /// The odds the last resolution applied from this form was made with, at the game's scale as
    /// the chart is drawn (a chart in centimetres never equals odds logged in inches), and the
    /// line it rolled; nothing on another form's tab.
    fn rolled_with(&self, view: &View) -> Option<(Vec<kepi_game::rules::OddsLine>, Option<usize>)> {
        let e = self.last_entry(view)?;
        match &e.kind {
            EntryKind::Act {
                action: Action::Resolved { resolution, .. },
            } => {
                let r = resolution.in_scale(&view.game.state().scale);
                Some((r.odds, r.rolled))
            }
            _ => None,
        }
    }

    fn dice_ui(
        &mut self,
        ui: &mut Ui,
        view: &View,
        ready: bool,
        unparsed: &[String],
        out: &mut Vec<Command>,
    ) {
        // What stops the roll, said in Roll's own row (issue 46: only the status line said it):
        // a unit still to pick, a chart result that does not read, a number field whose text does
        // not read (the form holds another value than the field shows).
        let mut reasons: Vec<String> = self.why_not_roll().into_iter().collect();
        reasons.extend(
            unparsed
                .iter()
                .map(|label| format!("{label}: not a number; fix it to roll")),
        );
        let ready = ready && reasons.is_empty();
        // Issue 30: the same combat fought with miniatures instead (SPI and 1870 only), on a row
        // of its own above Roll: beside Roll it moved whenever the dice mode changed the buttons
        // before it (issue 46).
        super::campaign::fight_button_ui(ui, self.form(), view, out);
        // Only the dice this form rolls are asked for; a form that rolls none (P&K's URT, SPI's
        // raise at Chalons) is applied, not rolled, whichever dice mode is on.
        let used: &'static [Die] = self.form().map_or(&[], |f| f.dice_used());
        if used.is_empty() {
            roll_row(ui, &reasons, |ui| {
                if ui
                    .add_enabled(ready, egui::Button::new(RichText::new("Apply").size(18.0)))
                    .on_hover_text(super::keys::tip(
                        super::keys::Does::Roll,
                        "no dice for this one: its outcome and effects are one undoable action",
                    ))
                    .clicked()
                {
                    out.push(Command::ResolveAndApply {
                        entered: Vec::new(),
                    });
                }
            });
            return;
        }
        if view.own_dice {
            // Every die the form rolls, grouped and labelled as the rule set names them (issue
            // 46), in the order it rolls them; a group the roll needs only on some results may be
            // left empty, and then kepi rolls it and the card says so.
            self.follow_groups();
            let groups = self.form().map(|f| f.dice_groups()).unwrap_or_default();
            ui.label(RichText::new("My dice:").strong());
            ui.horizontal_wrapped(|ui| {
                for (g, (_, text)) in groups.iter().zip(self.entered.iter_mut()) {
                    let l = ui.label(&g.label);
                    if g.optional {
                        l.clone().on_hover_text(
                            "needed only on some results; left empty, kepi rolls these and the card says so",
                        );
                    }
                    let width = match g.count {
                        Some(n) if n > 2 => 22.0 * n as f32,
                        _ => 44.0,
                    };
                    super::keys::field(
                        ui,
                        egui::TextEdit::singleline(text)
                            .desired_width(width.min(160.0))
                            .hint_text(if g.optional { "kepi" } else { "-" }),
                        ("my_dice", g.label.clone()),
                    )
                    .labelled_by(l.id);
                }
            });
            let entered = self.entered_dice();
            // Why Apply is greyed, beside it (issue 46: said nowhere while no die was typed; a
            // die that does not read was said above the button, which it pushed down).
            let mut reasons = reasons;
            match &entered {
                Err(e) => reasons.push(e.clone()),
                Ok(d) if d.is_empty() => {
                    let needed: Vec<&str> = groups
                        .iter()
                        .filter(|g| !g.optional)
                        .map(|g| g.label.as_str())
                        .collect();
                    reasons.push(if needed.is_empty() {
                        "type the dice you rolled".to_string()
                    } else {
                        format!("type the dice you rolled: {}", needed.join(", "))
                    });
                }
                Ok(_) => {}
            }
            // The dice typed belong to one roll: none typed, nothing to apply (kepi's dice would
            // stand in for them). They are cleared once the roll is applied.
            let ok = ready && entered.as_ref().is_ok_and(|d| !d.is_empty());
            roll_row(ui, &reasons, |ui| {
                if ui
                    .add_enabled(
                        ok,
                        egui::Button::new(RichText::new("Apply my dice").size(18.0)),
                    )
                    .on_hover_text(super::keys::tip(
                        super::keys::Does::Roll,
                        "the dice you typed, for this roll only",
                    ))
                    .clicked()
                    && let Ok(d) = entered
                {
                    out.push(Command::ResolveAndApply { entered: d });
                }
            });
        } else {
            roll_row(ui, &reasons, |ui| {
                if ui
                    .add_enabled(ready, egui::Button::new(RichText::new("Roll and apply").size(18.0)))
                    .on_hover_text(super::keys::tip(
                        super::keys::Does::Roll,
                        "kepi rolls from the game's committed seed; the roll and its effects are one undoable action",
                    ))
                    .clicked()
                {
                    out.push(Command::ResolveAndApply { entered: Vec::new() });
                }
            });
        }
    }

    /// What must be done before the form shown can be rolled, in words for Roll's row: the acting
    /// unit or the target still to pick, a chart result typed that does not read (saying what to
    /// type, as `kepi resolve ... --result` does). None when nothing of the kind stops it.
    pub fn why_not_roll(&self) -> Option<String> {
        let form = self.form()?;
        let (actor, target) = form.units();
        if actor.is_none() {
            return Some(PICK_THE_ACTOR.to_string());
        }
        if form.needs_target() && target.is_none() {
            return Some(PICK_A_TARGET.to_string());
        }
        form.unreadable()
    }

    /// The last result's card: what was rolled, with the odds kept with the roll (never recomputed);
    /// `next_odds` is the chart shown above it, for the next roll.
    fn last_result_ui(
        &self,
        ui: &mut Ui,
        view: &View,
        next_odds: Option<&[kepi_game::rules::OddsLine]>,
        out: &mut Vec<Command>,
    ) {
        let Some(e) = self.last_entry(view) else {
            return;
        };
        let idx = e.index;
        let EntryKind::Act {
            action: Action::Resolved { resolution, .. },
        } = &e.kind
        else {
            // A player's seat while strengths are hidden: a roll against the other side's unit is
            // logged for this seat as its place in the chain only (its casualties would tell the
            // strength left).
            if view.game.is_seat_view() {
                egui::Frame::group(ui.style()).show(ui, |ui| {
                    ui.label(RichText::new(format!("Result: {}", e.summary)).strong());
                    ui.label(
                        RichText::new("the host rolled it; its result is the umpire's to tell")
                            .weak(),
                    );
                });
            }
            return;
        };
        // What it did, read from the states before and after it (`game::effects`, which the battle
        // report prints too); None once the roll is undone. Searched from the newest action: the
        // card's is nearly always the last.
        let effects = view
            .game
            .in_effect()
            .rev()
            .find(|x| x.entry.index == idx)
            .map(|x| x.effects());
        // Issue 28: printed at the game's scale, as the odds under it are.
        let resolution = &resolution.in_scale(&view.game.state().scale);
        egui::Frame::group(ui.style()).show(ui, |ui| {
            let said = kepi_game::engine::game::entry_text(e, view.game.state());
            ui.label(
                RichText::new(format!("Result: {}", said.line))
                    .strong()
                    .size(16.0),
            );
            // What someone went ahead with stands out; the rest of the notes (the chances behind
            // the result, what to do next) read as the card's small print.
            for n in &said.notes {
                if kepi_game::engine::play::breaches::breach_of(n).is_some() {
                    ui.colored_label(ui.visuals().warn_fg_color, format!("note: {n}"));
                } else {
                    ui.label(RichText::new(format!("note: {n}")).small());
                }
            }
            let dice: Vec<String> = resolution
                .dice
                .iter()
                .map(|d| format!("{} {} = {}", d.label, d.die, d.value))
                .collect();
            ui.label(format!("dice: {}", dice.join(", ")));
            // Issue 46: dice kepi rolled although the player entered some (a group left empty)
            // are said plainly, never passed off as the player's.
            if let Some(said) = kepi_game::dice::kepi_rolled(&resolution.dice) {
                ui.colored_label(ui.visuals().warn_fg_color, said);
            }
            if let Some(line) = resolution.rolled.and_then(|i| resolution.odds.get(i)) {
                ui.label(
                    RichText::new(format!(
                        "rolled: {} ({} before rolling)",
                        line.outcome, line.p
                    ))
                    .weak(),
                );
                if next_odds.is_some_and(|o| o != resolution.odds.as_slice()) {
                    ui.label(
                        RichText::new(format!(
                            "the units changed: \"{ODDS_ROLLED_WITH}\" below are the roll's, \"{ODDS_BEFORE_ROLLING}\" the next roll's"
                        ))
                        .small()
                        .weak(),
                    );
                }
            }
            match &effects {
                // A seat's view has no history to read effects from: the entry's summary says it.
                None if view.game.is_seat_view() => {}
                None => {
                    ui.label(RichText::new("undone").weak());
                }
                Some(fx) if fx.is_empty() => {
                    ui.label(RichText::new("no change to the units").weak());
                }
                Some(fx) => {
                    for x in fx {
                        ui.label(format!("- {}", x.line()));
                    }
                }
            }
            // Undo takes back the last action in effect: offered only while that is this roll (not
            // once it is undone, nor after another action came on top of it).
            let last_in_effect = view.game.in_effect().next_back().map(|x| x.entry.index);
            if effects.is_some()
                && last_in_effect == Some(idx)
                && view.game.can_undo()
                && ui.button("Undo this").clicked()
            {
                out.push(Command::Undo);
            }
        });
    }
}
