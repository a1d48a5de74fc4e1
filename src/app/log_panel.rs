//! The log: filterable by turn, unit and rule; each entry with time, rule ids and dice; Verify checks
//! the hash chain; dice statistics compare the faces rolled with the exact expectation.

use egui::{RichText, Ui};

use super::state::View;
use kepi_game::dice::{Die, RollSource};
use kepi_game::engine::game::{LogEntry, entry_text, verify_chain};

/// The log panel: its filters and the last Verify's answer.
#[derive(Clone, Debug, Default)]
pub struct LogPanel {
    /// Text filter (unit, summary).
    pub filter: String,
    /// Rule id filter ("PK-F").
    pub rule: String,
    /// Only this turn.
    pub turn: Option<u32>,
    /// Result of the last Verify.
    pub verified: Option<Result<String, String>>,
}

fn keep(e: &LogEntry, v: &LogPanel, view: &View) -> bool {
    if v.turn.is_some_and(|t| t != e.turn) {
        return false;
    }
    if !v.rule.is_empty() {
        let r = v.rule.to_ascii_uppercase();
        if !e.rules.iter().any(|x| x.starts_with(&r)) {
            return false;
        }
    }
    if !v.filter.is_empty() {
        let want = v.filter.to_lowercase();
        let has = |t: &str| t.to_lowercase().contains(&want);
        // The line, or any unit the entry is about (a combat's defenders too), by id or name.
        let about = || {
            kepi_game::engine::game::participants(e)
                .into_iter()
                .any(|id| has(id) || view.state().unit(id).is_some_and(|u| has(&u.unit.name)))
        };
        if !has(&entry_text(e, view.state()).joined()) && !about() {
            return false;
        }
    }
    true
}

impl LogPanel {
    /// The entries the filters keep, by index, newest first: the rows the panel lists.
    pub fn rows(&self, view: &View) -> Vec<usize> {
        let log = view.game.log();
        (0..log.len())
            .rev()
            .filter(|&i| keep(&log[i], self, view))
            .collect()
    }

    /// Draws the log, newest first, filtered; Verify checks the chain. Reading only: it sends no
    /// command.
    pub fn ui(&mut self, ui: &mut Ui, view: &View) {
        ui.horizontal(|ui| {
            ui.heading("Log");
            if ui
                .button("Verify chain")
                .on_hover_text("Check the SHA-256 chain of every entry")
                .clicked()
            {
                // A player's seat while strengths are hidden holds some entries as their place in
                // the chain only: their links are checked, and the whole entries' hashes.
                let checked = if view.game.is_seat_view() {
                    kepi_middle::net::redact::verify_seat_log(view.game.log())
                } else {
                    verify_chain(view.game.log())
                        .map(|s| s.head)
                        .map_err(|b| b.index as u64)
                };
                self.verified = Some(match checked {
                    Ok(head) => Ok(format!(
                        "chain holds: {} entries, head {}",
                        view.game.log().len(),
                        short(&head)
                    )),
                    Err(i) => Err(format!("chain broken at entry {i}")),
                });
            }
        });
        // The answer's line is there before the first Verify too, so the filters under it never
        // move when it comes (issue 46).
        match &self.verified {
            Some(Ok(t)) => ui.colored_label(egui::Color32::from_rgb(80, 170, 90), t),
            Some(Err(t)) => ui.colored_label(ui.visuals().error_fg_color, t),
            None => ui.weak("chain not checked yet"),
        };
        ui.horizontal(|ui| {
            super::keys::field(
                ui,
                egui::TextEdit::singleline(&mut self.filter)
                    .hint_text("unit or text")
                    .desired_width(110.0),
                "log_filter",
            );
            super::keys::field(
                ui,
                egui::TextEdit::singleline(&mut self.rule)
                    .hint_text("rule id")
                    .desired_width(60.0),
                "log_rule",
            );
            let turn = view.game.state().turn;
            let mut this_turn = self.turn.is_some();
            if ui.checkbox(&mut this_turn, "this turn").changed() {
                self.turn = this_turn.then_some(turn);
            }
        });
        ui.separator();
        let log = view.game.log();
        let shown = self.rows(view);
        // Fixed-height rows (a header line and the summary in at most two lines, the whole on hover),
        // each clipped to its rect: the virtualised list stays even, and a long phase name or five
        // rule ids never widen the panel.
        let row_h = 50.0;
        egui::ScrollArea::vertical()
            .id_salt("log_rows")
            .max_height(ui.available_height() - 160.0)
            .auto_shrink([false, false])
            .show_rows(ui, row_h, shown.len(), |ui, range| {
                for &i in &shown[range] {
                    let e = &log[i];
                    let (rect, _) = ui.allocate_exact_size(
                        egui::vec2(ui.available_width(), row_h),
                        egui::Sense::hover(),
                    );
                    // Clear of the scroll bar, which is drawn over the rows' right edge.
                    let rect = rect.with_max_x(rect.max.x - ui.spacing().scroll.bar_width - 4.0);
                    // The header and the summary in children of their own: a header wider than the
                    // row (five rule ids) must not widen the summary's wrap.
                    let visible = rect.intersect(ui.clip_rect());
                    let (head, body) = rect.split_top_bottom_at_y(rect.min.y + 18.0);
                    let mut child = |r: egui::Rect, layout: egui::Layout| {
                        let mut c = ui.new_child(egui::UiBuilder::new().max_rect(r).layout(layout));
                        c.set_clip_rect(r.intersect(visible));
                        c
                    };
                    let across = egui::Layout::left_to_right(egui::Align::Min);
                    entry_head_ui(&mut child(head, across), e);
                    let down = egui::Layout::top_down(egui::Align::Min);
                    entry_body_ui(&mut child(body, down), e, view.state());
                }
            });
        egui::CollapsingHeader::new("Dice statistics")
            .id_salt("dice_stats")
            .show(ui, |ui| dice_stats_ui(ui, view.game.log()));
    }
}

fn short(h: &str) -> &str {
    h.get(..12).unwrap_or(h)
}

/// Observed faces of kepi's d6 and d10 rolls against the exact expectation.
pub fn dice_stats_ui(ui: &mut Ui, log: &[LogEntry]) {
    use egui_plot::{Bar, BarChart, Plot};
    for die in [Die::D6, Die::D10] {
        let n = die.faces() as usize;
        let mut counts = vec![0u64; n];
        for d in log
            .iter()
            .flat_map(|e| e.dice.iter())
            .filter(|d| d.die == die)
        {
            if let Some(c) = counts.get_mut(d.value as usize - 1) {
                *c += 1;
            }
        }
        let total: u64 = counts.iter().sum();
        ui.label(format!(
            "{die}: {total} rolls (expected {:.1} per face)",
            total as f64 / n as f64
        ));
        if total == 0 {
            continue;
        }
        let expected = total as f64 / n as f64;
        let observed: Vec<Bar> = counts
            .iter()
            .enumerate()
            .map(|(i, &c)| Bar::new(i as f64 + 1.0, c as f64).width(0.6))
            .collect();
        let exp: Vec<Bar> = (0..n)
            .map(|i| Bar::new(i as f64 + 1.0, expected).width(0.9))
            .collect();
        Plot::new(format!("dice_{die}"))
            .height(90.0)
            .allow_drag(false)
            .allow_zoom(false)
            .allow_scroll(false)
            .show(ui, |p| {
                p.bar_chart(BarChart::new("expected", exp).color(egui::Color32::from_gray(110)));
                p.bar_chart(BarChart::new("observed", observed));
            });
    }
}

/// A log entry's header: time, turn and phase, rule ids (clipped to its row).
fn entry_head_ui(ui: &mut Ui, e: &LogEntry) {
    {
        ui.label(
            RichText::new(
                e.time
                    .with_timezone(&chrono::Local)
                    .format("%H:%M:%S")
                    .to_string(),
            )
            .monospace()
            .weak(),
        );
        ui.label(
            RichText::new(format!("T{} {}", e.turn, e.phase))
                .small()
                .weak(),
        );
        for r in &e.rules {
            ui.label(
                RichText::new(r)
                    .monospace()
                    .small()
                    .color(ui.visuals().hyperlink_color),
            );
        }
    }
}

/// A log entry's summary (naming its unit), its notes and dice in at most two lines, the whole
/// on hover ([`entry_text`], the formatter every place showing an entry uses).
fn entry_body_ui(ui: &mut Ui, e: &LogEntry, state: &kepi_game::engine::game::GameState) {
    let said = entry_text(e, state).joined();
    let dice: Vec<String> = e
        .dice
        .iter()
        .map(|d| {
            let mark = if d.source == RollSource::Entered {
                "*"
            } else {
                ""
            };
            format!("{}={}{mark}", d.die, d.value)
        })
        .collect();
    let text = if dice.is_empty() {
        said
    } else {
        format!("{said}   [{}]", dice.join(" "))
    };
    let mut job = egui::text::LayoutJob::simple(
        text.clone(),
        egui::TextStyle::Small.resolve(ui.style()),
        ui.visuals().text_color(),
        ui.available_width(),
    );
    job.wrap.max_rows = 2;
    job.wrap.overflow_character = Some('…');
    // One tooltip: egui's own for an elided label (the text alone) stacked under kepi's (the
    // text, its entry and hash) on every row long enough to be cut (issue 46).
    ui.add(egui::Label::new(job).show_tooltip_when_elided(false))
        .on_hover_text(format!(
            "{text}\n\nentry {} · hash {}",
            e.index,
            short(&e.hash)
        ));
}
