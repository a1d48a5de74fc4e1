//! The bottom "Drift" tab for Graveyard St. Privat: the 3x3 accuracy-of-aim diagram (GSP-A3) with each
//! sector's 2d6 totals and exact chance, and, once a fire has been applied, the sectors where its
//! shells landed lit with their count. It reads the last applied resolution (undo puts it out).

use egui::{RichText, Ui};

use super::state::AppState;
use super::widgets::{DriftCellView, drift_grid_ui, provenance_badge};
use crate::engine::game::{Action, Game};
use crate::rules::Outcome;
use crate::rules::gsp::form::GspForm;
use crate::rules::gsp::{DriftModel, drift_model};

/// The orientation of the grid, as the table file reads the printed chart (GSP-A3).
pub const ORIENTATION: &str = "Top row over: beyond the target, as seen from the gun; bottom row short: between the gun and the target; left and right as seen from the gun.";

/// The last applied (not undone) Graveyard St. Privat fire that drifted: its summary and diagram.
pub fn last_drift(game: &Game) -> Option<(String, DriftModel)> {
    game.applied().rev().find_map(|a| match a {
        Action::Resolved { resolution, .. } => match game.state().system.outcome_of(resolution)? {
            Outcome::GspFire(o) => o.drift.map(|d| (resolution.summary.clone(), d)),
            _ => None,
        },
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

/// The Drift tab.
pub fn drift_ui(ui: &mut Ui, app: &AppState) {
    let tables = &app.tables.gsp;
    let last = last_drift(&app.game);
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new("Accuracy of aim (GSP-A3)").strong());
        ui.label(RichText::new("2d6 per hit of shell or siege fire").weak());
        provenance_badge(ui, tables.aoa_provenance());
    });
    if let Some(f) = app.resolver.form().and_then(|f| f.get::<GspForm>())
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
