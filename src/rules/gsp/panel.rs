//! The Graveyard St. Privat situation toggles of the resolver: the gun and its load, the range sector or
//! a measured range, cover and line of sight, what the battery did this turn, and which unit stands
//! over, short, left or right of the target (where drifting shells fall, GSP-A3).

use egui::{RichText, Ui};

use crate::dice::Ratio;
use crate::engine::game::GameState;
use crate::engine::play::kit::{distance_field, pick, ratio_field};
use crate::rules::gsp::form::{GspForm, Neighbour};
use crate::rules::gsp::{Cell, Cover, Length, LengthUnit, Load, Piece};

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
    egui::ComboBox::from_label("gun")
        .selected_text(piece.map(|p| p.to_string()).unwrap_or_else(|| "—".into()))
        .show_ui(ui, |ui| {
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
        crate::engine::play::kit::number(
            ui,
            egui::DragValue::new(&mut f.guns)
                .range(1..=12)
                .prefix("guns "),
            "f.guns",
        );
    });
    ui.horizontal_wrapped(|ui| {
        let mut measured = f.range.is_some();
        ui.radio_value(&mut measured, false, "range sector");
        ui.radio_value(&mut measured, true, "measured range");
        if measured {
            let mut len = f.range.unwrap_or(Length::inches(Ratio::int(24)));
            if state.scale.is_text() {
                ratio_field(ui, "", &mut len.amount, "gsp_range");
                ui.selectable_value(&mut len.unit, LengthUnit::In, "in");
                ui.selectable_value(&mut len.unit, LengthUnit::Cm, "cm");
            } else {
                // Issue 28: measured at the game's scale, held in the text's inches.
                let mut text_inches = match len.unit {
                    LengthUnit::In => len.amount,
                    LengthUnit::Cm => len.amount / crate::rules::scale::cm_per_inch(),
                };
                distance_field(ui, "", &state.scale, &mut text_inches, "gsp_range");
                len = Length::inches(text_inches);
            }
            f.range = Some(len);
        } else {
            f.range = None;
            crate::engine::play::kit::number(
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
        crate::engine::play::kit::number(
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
