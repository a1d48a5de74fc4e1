//! The situation toggles of 1870 combat in the window (FR-S1, FR-C1, FR-C2, FR-C3, FR-F1: the
//! attackers and defenders with their state, the terrain, the sieges, the cavalry's refusal, the
//! result entered from the printed chart when kepi does not know the cell, the defender's choice
//! of the units an occupied fortress multiplies, the attacker's choice of an exchange's losses),
//! drawn with the form kit ([`kepi_game::engine::play::kit`]) and the rows
//! both board games share ([`crate::board::panel`]).

use egui::{RichText, Ui};

use crate::board::panel::{engaged_ui, entered_ui};
use crate::fr1870::combat_form::FrForm;
use kepi_game::engine::game::GameState;
use kepi_game::roster::Arm;

/// FR-C2 (E): the attacker's choice of the units an exchange eliminates: "from among his units
/// that took part in the combat, a total of combat points at least equal to the total (taking the
/// printed combat potential) lost by the Defender". A unit goes whole (its printed potential);
/// none ticked: kepi eliminates none and notes what is owed. Checked when the result is rolled.
fn fr_losses_ui(ui: &mut Ui, f: &mut FrForm, state: &GameState) {
    let ids: Vec<String> = f
        .attacker_ids
        .iter()
        .filter(|id| {
            state
                .unit(id)
                .is_some_and(|u| !matches!(u.unit.arm, Arm::Fortress | Arm::Railway | Arm::Dummy))
        })
        .cloned()
        .collect();
    if ids.is_empty() {
        return;
    }
    ui.collapsing("Losses: owner's choice (FR-C2 exchange)", |ui| {
        ui.label(
            RichText::new(
                "On an E result the attacker eliminates units of at least the printed potential \
                 the defender lost. None ticked: kepi eliminates none and notes what is owed.",
            )
            .small()
            .weak(),
        );
        for id in ids {
            let Some(u) = state.unit(&id) else { continue };
            let mut on = f.losses.iter().any(|(i, n)| *i == id && *n > 0);
            ui.checkbox(
                &mut on,
                format!("{}: eliminated ({} potential)", u.unit.name, u.strength),
            );
            f.losses.retain(|(i, _)| *i != id);
            if on {
                f.losses.push((id, u.strength));
            }
        }
    });
}

/// FR-F1 (H11): the units an occupied fortress multiplies in defence and supplies, "at the
/// player's choice": kepi ticks the defender's best ([`crate::fr1870::garrison`]); ticking
/// others makes them the defender's choice (`--multiplied` in `kepi game apply`), at most the
/// fortress's value; "Defender's best" gives the choice back to kepi.
fn fr_garrison_ui(ui: &mut Ui, f: &mut FrForm, state: &GameState) {
    let Some(fort) = f
        .input
        .fortress
        .filter(|x| x.role == crate::fr1870::FortressRole::DefendsOccupied)
    else {
        return;
    };
    let fighting: Vec<String> = f
        .defender_ids
        .iter()
        .filter(|id| {
            state
                .unit(id)
                .is_some_and(|u| !matches!(u.unit.arm, Arm::Fortress | Arm::Railway | Arm::Dummy))
        })
        .cloned()
        .collect();
    let title = format!(
        "Fortress of value {}: units multiplied and supplied (FR-F1, H11)",
        fort.coefficient
    );
    ui.collapsing(title, |ui| {
        ui.label(
            RichText::new(
                "At the player's choice: kepi ticks the defender's best; the others are \
                 unsupplied and halved.",
            )
            .small()
            .weak(),
        );
        let mut chosen: Vec<String> = match &f.multiplied {
            Some(ids) => ids.clone(),
            None => fighting
                .iter()
                .zip(&f.input.defenders)
                .filter(|(_, u)| u.fortress_multiplied)
                .map(|(id, _)| id.clone())
                .collect(),
        };
        let mut changed = false;
        for id in &fighting {
            let Some(u) = state.unit(id) else { continue };
            let mut on = chosen.contains(id);
            if ui
                .checkbox(
                    &mut on,
                    format!("{} ({} potential)", u.unit.name, u.strength),
                )
                .changed()
            {
                changed = true;
                chosen.retain(|c| c != id);
                if on {
                    chosen.push(id.clone());
                }
            }
        }
        if changed {
            f.multiplied = Some(chosen);
        }
        if f.multiplied.is_some() && ui.button("Defender's best").clicked() {
            f.multiplied = None;
        }
    });
}

/// The 1870 combat toggles (FR-S1, FR-C1, FR-C2, FR-C3, FR-F1).
pub fn fr_situation_ui(ui: &mut Ui, f: &mut FrForm, state: &GameState) {
    engaged_ui(
        ui,
        "FR-C1",
        [
            ("Attackers", &mut f.input.attackers),
            ("Defenders", &mut f.input.defenders),
        ],
        |ui, u| {
            if let Some(n) = &u.name {
                ui.label(n);
            }
            kepi_game::engine::play::kit::number(
                ui,
                egui::DragValue::new(&mut u.potential)
                    .range(0..=99)
                    .prefix("potential "),
                "u.potential",
            );
            ui.checkbox(&mut u.supplied, "supplied");
            ui.checkbox(&mut u.disorganised, "disorganised");
            ui.checkbox(&mut u.can_retreat, "can retreat");
        },
    );
    ui.horizontal_wrapped(|ui| {
        kepi_game::engine::play::kit::number(
            ui,
            egui::DragValue::new(&mut f.input.die_mod)
                .range(-3..=3)
                .prefix("terrain die "),
            "f.input.die_mod",
        );
        ui.checkbox(&mut f.input.besieger_defending, "besieger defending");
        ui.checkbox(&mut f.input.siege_combat, "siege combat");
        ui.checkbox(&mut f.input.assault, "assault on the fortress");
    });
    ui.checkbox(
        &mut f.cavalry_refuses,
        "cavalry refuses combat and retreats (FR-C3)",
    )
    .on_hover_text(
        "Cavalry alone attacked by infantry alone may refuse the combat and retreat one cell: no \
         die is rolled.",
    );
    entered_ui(ui, &mut f.entered_result, "AD,DR");
    fr_garrison_ui(ui, f, state);
    fr_losses_ui(ui, f, state);
}
