//! The Graveyard St. Privat situation toggles of the resolver: the gun and its load, the range sector or
//! a measured range, cover and line of sight, what the battery did this turn, and which unit stands
//! over, short, left or right of the target (where drifting shells fall, GSP-A3); and the window's
//! Drift tab: the 3x3 accuracy-of-aim diagram (GSP-A3) with each sector's 2d6 totals and exact
//! chance, and, once a fire has been applied, the sectors where its shells landed lit with their
//! count. The tab reads the last applied resolution (undo puts it out).

use egui::{Color32, RichText, Sense, Stroke, StrokeKind, Ui, vec2};

use super::outcome::GspOutcome;
use crate::gsp::form::{GspForm, Neighbour};
use crate::gsp::{Cell, Cover, DriftModel, Length, LengthUnit, Load, Piece, drift_model};
use kepi_game::dice::{Prob, Ratio};
use kepi_game::engine::game::{Action, Game, GameState};
use kepi_game::engine::play::Form;
use kepi_game::engine::play::kit::{distance_field, pick, provenance_badge, ratio_field};
use kepi_game::rules::Tables;

/// The sectors around the target, in the order they are listed: the four sides, then the corners.
const AROUND: [Cell; 8] = [
    Cell::Over,
    Cell::Short,
    Cell::Left,
    Cell::Right,
    Cell::OverLeft,
    Cell::OverRight,
    Cell::ShortLeft,
    Cell::ShortRight,
];

fn piece_ui(ui: &mut Ui, piece: &mut Option<Piece>) {
    let shown = piece.map(|p| p.to_string()).unwrap_or_else(|| "—".into());
    kepi_game::engine::play::kit::combo(ui, "gun", shown, |ui| {
        for p in Piece::ALL {
            ui.selectable_value(piece, Some(*p), p.to_string());
        }
    });
}

fn unit_label(state: &GameState, id: &str) -> String {
    state
        .unit(id)
        .map(|u| format!("{} ({})", u.unit.name, u.strength))
        .unwrap_or_else(|| id.to_string())
}

/// One sector around the target: who stands there (nobody by default) and their cover.
fn neighbour_ui(ui: &mut Ui, state: &GameState, f: &mut GspForm, cell: Cell) {
    let current = f.around.get(&cell).map(|n| n.unit.clone());
    let mut chosen = current.clone();
    ui.label(cell.to_string());
    egui::ComboBox::from_id_salt(("gsp_around", cell.as_str()))
        .width(220.0)
        .selected_text(
            chosen
                .as_deref()
                .map(|id| unit_label(state, id))
                .unwrap_or_else(|| "nobody named (hits reported only)".into()),
        )
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut chosen, None, "nobody named");
            for u in state
                .units
                .iter()
                .filter(|u| !u.eliminated() && Some(u.unit.id.as_str()) != f.target.as_deref())
            {
                ui.selectable_value(
                    &mut chosen,
                    Some(u.unit.id.clone()),
                    format!("{} ({})", u.unit.name, u.strength),
                );
            }
        });
    if chosen != current {
        match chosen {
            Some(unit) => {
                let cover = f.around.get(&cell).map(|n| n.cover).unwrap_or_default();
                f.around.insert(cell, Neighbour { unit, cover });
            }
            None => {
                f.around.remove(&cell);
            }
        }
    }
    match f.around.get_mut(&cell) {
        Some(n) => {
            ui.push_id(("gsp_around_cover", cell.as_str()), |ui| {
                pick(ui, "cover", &mut n.cover, Cover::ALL);
            });
        }
        None => {
            ui.label("");
        }
    }
    ui.end_row();
}

/// The toggles of the artillery form; the gun, guns and eligibility are pre-set from the battery.
pub fn situation_ui(ui: &mut Ui, f: &mut GspForm, state: &GameState) {
    ui.horizontal_wrapped(|ui| {
        piece_ui(ui, &mut f.piece);
        let chooses = f.piece.is_some_and(Piece::chooses_load);
        ui.add_enabled_ui(chooses, |ui| {
            pick(ui, "load (GSP-A4)", &mut f.load, Load::ALL)
        })
        .response
        .on_disabled_hover_text("only the 4/6 pounders choose a load");
        kepi_game::engine::play::kit::number(
            ui,
            egui::DragValue::new(&mut f.guns)
                .range(1..=12)
                .prefix("guns "),
            "f.guns",
        );
    });
    // The choice on one row, the range (or sector) it asks for on its own row under it: in one
    // wrapping row the field was drawn over the radio buttons (issue 46).
    let mut measured = f.range.is_some();
    ui.horizontal_wrapped(|ui| {
        ui.radio_value(&mut measured, false, "range sector");
        ui.radio_value(&mut measured, true, "measured range");
    });
    ui.horizontal(|ui| {
        if measured {
            let mut len = f.range.unwrap_or(Length::inches(Ratio::int(24)));
            if state.scale.is_text() {
                // The text's own inches, or centimetres as measured: the unit chosen beside it.
                ratio_field(ui, "range", &mut len.amount, "gsp_range");
                ui.selectable_value(&mut len.unit, LengthUnit::In, "in");
                ui.selectable_value(&mut len.unit, LengthUnit::Cm, "cm");
            } else {
                // Issue 28: measured at the game's scale ("range (cm)"), held in the text's inches.
                let mut text_inches = match len.unit {
                    LengthUnit::In => len.amount,
                    LengthUnit::Cm => len.amount / kepi_game::rules::scale::cm_per_inch(),
                };
                distance_field(ui, "range", &state.scale, &mut text_inches, "gsp_range");
                len = Length::inches(text_inches);
            }
            f.range = Some(len);
        } else {
            f.range = None;
            kepi_game::engine::play::kit::number(
                ui,
                egui::DragValue::new(&mut f.sector)
                    .range(1..=8)
                    .prefix("sector "),
                "f.sector",
            );
        }
    });
    ui.horizontal_wrapped(|ui| {
        pick(ui, "target cover", &mut f.cover, Cover::ALL);
        ui.checkbox(&mut f.line_of_sight, "line of sight")
            .on_hover_text(
                "GSP-A2: AP shot and the mitrailleuse need it; shell fires over everything",
            );
    });
    ui.horizontal_wrapped(|ui| {
        ui.checkbox(&mut f.status.moved_this_turn, "moved this turn");
        ui.checkbox(&mut f.status.unlimbered_this_turn, "unlimbered this turn");
        ui.checkbox(&mut f.limbered, "limbered");
        ui.checkbox(&mut f.status.pointed_at_target, "pointed at target");
        kepi_game::engine::play::kit::number(
            ui,
            egui::DragValue::new(&mut f.status.turned_degrees)
                .range(0..=180)
                .prefix("turned ")
                .suffix("°"),
            "f.status.turned_degrees",
        );
        if f.piece == Some(Piece::PrussianSiege) {
            ui.checkbox(&mut f.status.hidden, "hidden (GSP-S1)");
        }
    });
    egui::CollapsingHeader::new("What stands around the target (where drifting shells fall)")
        .id_salt("gsp_around")
        .default_open(!f.around.is_empty())
        .show(ui, |ui| {
            ui.label(
                RichText::new("Over is beyond the target, short towards the gun; left and right as seen from the gun. Hits in a sector with nobody named are reported, not applied.")
                    .small()
                    .weak(),
            );
            egui::Grid::new("gsp_around_grid")
                .num_columns(3)
                .show(ui, |ui| {
                    for cell in AROUND {
                        neighbour_ui(ui, state, f, cell);
                    }
                });
        });
}

/// The orientation of the grid, as the table file reads the printed chart (GSP-A3).
pub const ORIENTATION: &str = "Top row over: beyond the target, as seen from the gun; bottom row short: between the gun and the target; left and right as seen from the gun.";

/// The last applied (not undone) Graveyard St. Privat fire that drifted: its summary and diagram.
pub fn last_drift(game: &Game) -> Option<(String, DriftModel)> {
    game.applied().rev().find_map(|a| match a {
        Action::Resolved { resolution, .. } => {
            match game.state().system.outcome_of(resolution)?.get()? {
                GspOutcome::Fire(o) => o.drift.clone().map(|d| (resolution.summary.clone(), d)),
                _ => None,
            }
        }
        _ => None,
    })
}

/// The diagram's cells in drawing order (over row first, left to right as seen from the gun).
pub fn cell_views(model: &DriftModel) -> Vec<DriftCellView> {
    (0..3)
        .flat_map(|r| (0..3).map(move |c| (r, c)))
        .filter_map(|(r, c)| model.at(r, c))
        .map(|c| DriftCellView {
            label: c.label.clone(),
            totals: c
                .totals
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            p: c.p,
            landed: c.shells,
        })
        .collect()
}

/// The Drift tab ([`kepi_game::engine::rule_set::RuleSet::drift_ui`]): the diagram of `game`'s last
/// fire, or each sector's chance per hit before one, and a note when the `form` shown fires direct.
pub fn drift_ui(ui: &mut Ui, game: &Game, form: Option<&Form>, tables: &Tables) {
    let tables = tables.get::<crate::gsp::GspTables>();
    let last = last_drift(game);
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new("Accuracy of aim (GSP-A3)").strong());
        ui.label(RichText::new("2d6 per hit of shell or siege fire").weak());
        provenance_badge(ui, tables.aoa_provenance());
    });
    if let Some(f) = form.and_then(|f| f.get::<GspForm>())
        && f.gun().is_ok_and(|g| !g.drifts())
    {
        ui.label(
            RichText::new(
                "The current load fires direct (AP, mitrailleuse): no A.O.A., hits strike the target sector (GSP-A2).",
            )
            .small()
            .weak(),
        );
    }
    let (caption, model) = match last {
        Some((summary, model)) => (
            format!(
                "Last fire: {} shell{} landed. {summary}",
                model.shells,
                if model.shells == 1 { "" } else { "s" }
            ),
            model,
        ),
        None => (
            "No shell fired yet: the chance of each sector per hit.".to_string(),
            drift_model(tables, &[]),
        ),
    };
    ui.label(caption);
    ui.horizontal_top(|ui| {
        drift_grid_ui(ui, &cell_views(&model), ORIENTATION);
        ui.vertical(|ui| {
            ui.label(RichText::new("top: over (beyond the target)").weak());
            ui.label(RichText::new("bottom: short (towards the gun)").weak());
            ui.label(
                RichText::new(format!("table file: {}", model.orientation))
                    .small()
                    .weak(),
            );
        });
    });
}

/// One cell of the accuracy-of-aim diagram.
#[derive(Clone, Debug, PartialEq)]
pub struct DriftCellView {
    /// "over-left", "on target", ...
    pub label: String,
    /// The 2d6 totals that land here ("6, 7, 8").
    pub totals: String,
    /// Exact probability of landing here.
    pub p: Prob,
    /// Shells that landed here in the last roll.
    pub landed: u32,
}

/// The 3x3 drift diagram, top row "over" (beyond the target), bottom row "short", as seen from the gun.
///
/// Laid out as its own column (the grid, then the note wrapped to the grid's width), so it behaves
/// the same inside a horizontal row: the long note once ran on beside the grid and squeezed the
/// column after it to nothing, its words stacked 1,600 points high, and the bottom panel grew over
/// the resolver.
pub fn drift_grid_ui(ui: &mut Ui, cells: &[DriftCellView], orientation_note: &str) {
    let size = 92.0;
    ui.vertical(|ui| {
        ui.set_max_width(size * 3.0);
        drift_cells_ui(ui, cells, size);
        ui.label(RichText::new(orientation_note).small().weak());
    });
}

fn drift_cells_ui(ui: &mut Ui, cells: &[DriftCellView], size: f32) {
    let (rect, _) = ui.allocate_exact_size(vec2(size * 3.0, size * 3.0), Sense::hover());
    let painter = ui.painter_at(rect);
    let visuals = ui.visuals().clone();
    for (i, cell) in cells.iter().take(9).enumerate() {
        let (row, col) = ((i / 3) as f32, (i % 3) as f32);
        let r =
            egui::Rect::from_min_size(rect.min + vec2(col * size, row * size), vec2(size, size))
                .shrink(2.0);
        let heat = cell.p.0.to_f64() as f32;
        let fill = if cell.landed > 0 {
            Color32::from_rgb(220, 120, 40)
        } else {
            visuals.selection.bg_fill.gamma_multiply(0.25 + 1.5 * heat)
        };
        painter.rect_filled(r, 4.0, fill);
        painter.rect_stroke(
            r,
            4.0,
            Stroke::new(1.0, visuals.weak_text_color()),
            StrokeKind::Inside,
        );
        // On the orange of a cell that was hit, dark text; elsewhere the theme's. The count of
        // shells that landed has a line of its own (it once ran into the label: "on targetx3").
        let (text, weak) = if cell.landed > 0 {
            (Color32::from_rgb(20, 20, 20), Color32::from_rgb(45, 35, 25))
        } else {
            (visuals.strong_text_color(), visuals.weak_text_color())
        };
        painter.text(
            r.center_top() + vec2(0.0, 5.0),
            egui::Align2::CENTER_TOP,
            &cell.label,
            egui::FontId::proportional(12.0),
            text,
        );
        if cell.landed > 0 {
            painter.text(
                r.center_top() + vec2(0.0, 20.0),
                egui::Align2::CENTER_TOP,
                format!("{} landed", cell.landed),
                egui::FontId::proportional(11.0),
                text,
            );
        }
        painter.text(
            r.center() + vec2(0.0, 6.0),
            egui::Align2::CENTER_CENTER,
            format!("{}\n{}", cell.p, cell.p.0.percent()),
            egui::FontId::monospace(12.0),
            text,
        );
        painter.text(
            r.center_bottom() - vec2(0.0, 5.0),
            egui::Align2::CENTER_BOTTOM,
            format!("2d6: {}", cell.totals),
            egui::FontId::proportional(10.0),
            weak,
        );
        // The painted cell as a widget too, so screen readers and the GUI tests can read it.
        let text = drift_cell_text(cell);
        ui.interact(r, ui.scope_id().with(("drift_cell", i)), Sense::hover())
            .on_hover_text(&text)
            .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, &text));
    }
}

/// One drift cell in words: "over: 1/12 (8.3%), 2d6 5; 2 shells landed".
pub fn drift_cell_text(cell: &DriftCellView) -> String {
    let mut s = format!(
        "{}: {} ({}), 2d6 {}",
        cell.label,
        cell.p,
        cell.p.0.percent(),
        cell.totals
    );
    match cell.landed {
        0 => {}
        1 => s.push_str("; 1 shell landed"),
        n => s.push_str(&format!("; {n} shells landed")),
    }
    s
}
