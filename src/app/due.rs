//! The umpire's flow in the window: the checks due (with Roll / Open / Mark done / Waive) and the current phase's
//! checklist, each step linking to the resolver pre-filled for it ([`kepi_game::engine::flow`]).

use egui::{RichText, Ui};

use super::state::{Command, View};
use std::sync::Arc;

use kepi_game::engine::flow::Due;
use kepi_game::engine::game::Action;

/// Due checks on one page of the list (the rest a click away: no scroll box inside the resolver's
/// column, issue 26).
const DUE_ROWS: usize = 4;

/// Lines a due check's words may take before they are elided (whole on hover).
const DUE_TEXT_LINES: usize = 2;

/// The "Due" section's own state: what is typed in it and the rows held under the pointer.
#[derive(Debug, Default)]
pub struct DuePanel {
    /// The reason a waived check is logged with.
    waive_reason: String,
    /// The reason a rejected request is logged and told with (the umpire's seat on the network).
    reject_reason: String,
    /// The rows as they stood when the pointer came over the list: a check done from it stays in
    /// its place, marked done with its buttons off, so the next row's button never slides under
    /// the pointer; new checks come in below. Once the pointer leaves, the list is the game's.
    held: Option<Vec<Arc<Due>>>,
    /// The first check on the page shown.
    first: usize,
}

impl DuePanel {
    /// The reason being typed for a waiver.
    pub fn waive_reason(&self) -> &str {
        &self.waive_reason
    }

    /// Draws the players' requests waiting for approval, the open checks, then the phase
    /// checklist and who is still to act.
    pub fn ui(&mut self, ui: &mut Ui, view: &View) -> Vec<Command> {
        let mut out = Vec::new();
        self.approvals_ui(ui, view, &mut out);
        self.checks_ui(ui, view, &mut out);
        checklist_ui(ui, view, &mut out);
        out
    }

    /// The open checks: two lines each, Roll / Open / Mark done / Waive.
    fn checks_ui(&mut self, ui: &mut Ui, view: &View, out: &mut Vec<Command>) {
        let s = view.state();
        let title = if s.due.is_empty() {
            RichText::new("Due: nothing").strong()
        } else {
            // Open checks say so in the header whether or not the list is open.
            RichText::new(format!(
                "Due: {}",
                kepi_game::rules::count(s.due.len(), "check", "checks")
            ))
            .strong()
            .color(ui.visuals().warn_fg_color)
        };
        // One line each until opened, so the resolver below has the column's height on a laptop.
        egui::CollapsingHeader::new(title)
            .id_salt("due_checks")
            .default_open(false)
            .show(ui, |ui| self.check_list_ui(ui, view, out));
    }

    /// The list of checks opened: a page of them, the pager, and the waive reason's field.
    fn check_list_ui(&mut self, ui: &mut Ui, view: &View, out: &mut Vec<Command>) {
        let s = view.state();
        let reason_id = ui.scope_id().with("waive_reason");
        // A page of checks, laid out only for the rows on it: an umpire who leaves
        // thousands open still gets a 60 fps window (the full line shows on hover).
        // Each check: what to do first, wrapped on two lines of the column's width (on
        // hover past them), then its buttons, so the words are never pushed off by them.
        let gap = ui.spacing().item_spacing.y;
        let text_h = super::widgets::lines_height(ui, DUE_TEXT_LINES);
        let row = text_h + ui.spacing().interact_size.y + gap;
        let shown = self.shown(s);
        let last_page = shown.len().saturating_sub(1) / DUE_ROWS * DUE_ROWS;
        self.first = self.first.min(last_page);
        let first = self.first;
        let paged = shown.len() > DUE_ROWS;
        let list = ui.scope(|ui| {
            let on_page = shown.iter().skip(first).take(DUE_ROWS);
            let n = on_page.len();
            for d in on_page {
                check_ui(ui, view, d, text_h, &self.waive_reason, out);
            }
            // The last page keeps the list's height: the pager stays under the
            // pointer from page to page.
            if paged && n < DUE_ROWS {
                ui.add_space((DUE_ROWS - n) as f32 * (row + gap));
            }
        });
        let mut over = ui.rect_contains_pointer(list.response.rect);
        if paged {
            let pager = self.pager_ui(ui, first, shown.len());
            over |= ui.rect_contains_pointer(pager);
        }
        if over {
            self.held = Some(shown);
        }
        if !s.due.is_empty() {
            ui.horizontal(|ui| {
                let l = ui.label("Waive reason:");
                super::keys::field(
                    ui,
                    egui::TextEdit::singleline(&mut self.waive_reason).desired_width(240.0),
                    reason_id,
                )
                .labelled_by(l.id);
            });
        }
    }

    /// The checks listed: the game's open ones, but while the pointer is over the list the rows
    /// stay where they are (`held`, with any new check after them).
    fn shown(&mut self, s: &kepi_game::engine::game::GameState) -> Vec<Arc<Due>> {
        match self.held.take() {
            Some(mut held) => {
                for d in s.due.iter() {
                    if !held.iter().any(|h| h.id == d.id) {
                        held.push(d.clone());
                    }
                }
                held
            }
            None => s.due.iter().cloned().collect(),
        }
    }

    /// "< earlier", which rows of `len` show from `first`, "later >"; returns the pager's rect.
    fn pager_ui(&mut self, ui: &mut Ui, first: usize, len: usize) -> egui::Rect {
        let pager = ui.horizontal(|ui| {
            if ui
                .add_enabled(first > 0, egui::Button::new("< earlier"))
                .clicked()
            {
                self.first = first.saturating_sub(DUE_ROWS);
            }
            ui.label(format!(
                "{}-{} of {}",
                first + 1,
                (first + DUE_ROWS).min(len),
                len
            ));
            if ui
                .add_enabled(first + DUE_ROWS < len, egui::Button::new("later >"))
                .clicked()
            {
                self.first = first + DUE_ROWS;
            }
        });
        pager.response.rect
    }
}

/// One check: its number and what to do (or "done: ..." once it is), wrapped on two lines of
/// `text_h`, then its buttons, disabled once it is done.
fn check_ui(
    ui: &mut Ui,
    view: &View,
    d: &Due,
    text_h: f32,
    waive_reason: &str,
    out: &mut Vec<Command>,
) {
    let s = view.state();
    let open = s.due.iter().any(|x| x.id == d.id);
    let what = s.scale.localize(&d.describe_now(s));
    ui.horizontal(|ui| {
        ui.set_min_height(text_h);
        ui.label(RichText::new(format!("#{}", d.id)).weak());
        let text = if open {
            RichText::new(what).strong()
        } else {
            RichText::new(format!("done: {what}")).weak()
        };
        // Wrapped on two lines of the row's own height: the check's
        // cells and numbers are read whole (issue 46), and the rows
        // under it never move.
        super::widgets::lines_label(ui, text, DUE_TEXT_LINES);
    });
    ui.horizontal(|ui| {
        ui.add_space(ui.spacing().indent);
        if !open {
            ui.disable();
        }
        check_buttons_ui(ui, view, d, waive_reason, out);
    });
}

/// A check's buttons: Roll and Open its form (when it has one), Mark done, Waive (with the reason
/// typed below the list).
fn check_buttons_ui(ui: &mut Ui, view: &View, d: &Due, waive_reason: &str, out: &mut Vec<Command>) {
    if let (Some(form), Some(unit)) = (&d.form, &d.unit) {
        let roll_hint = if view.own_dice {
            "opens the form for this unit: type your dice at its foot"
        } else {
            "opens the form for this unit and rolls it with kepi's dice \
             (logged, answers this check only)"
        };
        if ui
            .button(format!("Roll {form}"))
            .on_hover_text(roll_hint)
            .clicked()
        {
            out.push(Command::RollDue(d.id));
        }
        if ui
            .button(format!("Open {form}"))
            .on_hover_text("open the form to tick the situation first")
            .clicked()
        {
            out.push(Command::OpenForm {
                form: form.clone(),
                actor: Some(unit.clone()),
                target: None,
            });
        }
    }
    if ui
        .button("Mark done")
        .on_hover_text(
            "made at the table without kepi's dice: remove it from the \
             list (logged as done, no dice)",
        )
        .clicked()
    {
        out.push(Command::Act(kepi_game::engine::flow::resolve_due(
            view.state(),
            d.id,
            view.tables,
        )));
    }
    if ui
        .button("Waive")
        .on_hover_text("not made: logged with the reason typed below")
        .clicked()
    {
        out.push(Command::Act(Action::WaiveDue {
            id: d.id,
            reason: waive_reason.trim().to_string(),
        }));
    }
}

/// The current phase's checklist (each step opening its form) and who is still to act.
fn checklist_ui(ui: &mut Ui, view: &View, out: &mut Vec<Command>) {
    let s = view.state();
    let items = kepi_game::engine::flow::checklist(s);
    // Short, so a narrow column does not grow to fit it (the phase is in the top bar).
    egui::CollapsingHeader::new(format!(
        "Checklist: {} this phase",
        kepi_game::rules::count(items.len(), "step", "steps")
    ))
    .id_salt("phase_checklist")
    .default_open(false)
    .show(ui, |ui| {
        for item in items {
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new(item.rule.as_str()).monospace().weak());
                let side = item
                    .side
                    .map(|x| format!("{}: ", x.title()))
                    .unwrap_or_default();
                ui.label(format!("{side}{}", s.scale.localize(&item.what)));
                if !item.units.is_empty() {
                    // The names only when someone hovers: with 2,000 units, joining them
                    // every frame cost more than drawing the window.
                    ui.label(RichText::new(format!("({} units)", item.units.len())).weak())
                        .on_hover_ui(|ui| {
                            let names: Vec<&str> = item
                                .units
                                .iter()
                                .filter_map(|id| s.unit(id).map(|u| u.unit.name.as_str()))
                                .collect();
                            ui.label(names.join("\n"));
                        });
                }
                if let Some(form) = &item.form
                    && ui.button(format!("Open {form}")).clicked()
                {
                    out.push(Command::OpenForm {
                        form: form.clone(),
                        actor: view
                            .selected
                            .map(str::to_string)
                            .or_else(|| item.units.first().cloned()),
                        target: view.target.map(str::to_string),
                    });
                }
            });
        }
        let a = kepi_game::engine::flow::activity(s);
        let (m, f, act, x) = a.counts();
        ui.horizontal_wrapped(|ui| {
            ui.label(
                RichText::new(format!(
                    "This turn: {m} moved, {f} fired, {act} activated, {x} in melee;"
                ))
                .weak(),
            );
            // The units the phase still waits for, listed in the roster on a click.
            if ui
                .link(format!("{} still to act this phase", a.to_act().len()))
                .on_hover_text("show only them in the roster")
                .clicked()
            {
                out.push(Command::ShowStillToAct);
            }
        });
    });
}

/// Issue 19: players' resolutions waiting for the umpire's approval (the umpire's window while it
/// hosts with approval on): each with Approve and Reject (the reason typed is logged and told to
/// the player). Nothing is shown when none waits.
impl DuePanel {
    fn approvals_ui(&mut self, ui: &mut Ui, view: &View, out: &mut Vec<Command>) {
        let Some(remote) = view.mode.remote() else {
            return;
        };
        if remote.pending.is_empty() || remote.seat != Some(kepi_middle::net::Seat::Umpire) {
            return;
        }
        let title = RichText::new(format!(
            "Waiting for your approval: {}",
            remote.pending.len()
        ))
        .strong()
        .color(ui.visuals().warn_fg_color);
        egui::CollapsingHeader::new(title)
        .id_salt("due_approvals")
        .default_open(true)
        .show(ui, |ui| {
            let reason_id = ui.scope_id().with("reject_reason");
            for r in &remote.pending {
                ui.horizontal_wrapped(|ui| {
                    ui.label(RichText::new(format!("{} · {}", r.request, r.seat)).weak());
                    ui.label(r.text());
                });
                // What the rules say against it, read before deciding (issue 46).
                for n in &r.notes {
                    ui.colored_label(ui.visuals().warn_fg_color, format!("note: {n}"));
                }
                ui.horizontal(|ui| {
                    if ui
                        .button(format!("Approve {}", r.request))
                        .on_hover_text("the host applies it now (with the player's dice if they entered them), and logs the approval")
                        .clicked()
                    {
                        out.push(Command::Decide {
                            request: r.request,
                            approve: true,
                            reason: None,
                        });
                    }
                    if ui
                        .button(format!("Reject {}", r.request))
                        .on_hover_text("nothing is applied; the rejection and the reason below are logged and told to the player")
                        .clicked()
                    {
                        let why = self.reject_reason.trim().to_string();
                        out.push(Command::Decide {
                            request: r.request,
                            approve: false,
                            reason: (!why.is_empty()).then_some(why),
                        });
                        self.reject_reason.clear();
                    }
                });
            }
            ui.horizontal(|ui| {
                let l = ui.label("Reason for a rejection:");
                super::keys::field(ui, egui::TextEdit::singleline(&mut self.reject_reason).desired_width(160.0), reason_id)
                    .labelled_by(l.id);
            });
        });
    }
}
