//! The situation toggles of SPI and 1870 combat in the window (the attackers and defenders with
//! their state, the result entered from the printed chart when kepi does not know the cell, the
//! owner's choice of losses), drawn with the form kit ([`crate::engine::play::kit`]).

use egui::{RichText, Ui};

use crate::engine::game::GameState;
use crate::engine::play::kit::pick;
use crate::roster::Arm;
use crate::rules::board::form::{FrForm, SpiForm, SpiRole, spi_role};
use crate::rules::spi::{Formation, SupplyState};

fn entered_ui(ui: &mut Ui, v: &mut Option<String>, hint: &str) {
    ui.horizontal(|ui| {
        let l = ui.label("result from your printed chart:");
        let mut text = v.clone().unwrap_or_default();
        crate::engine::play::kit::field(
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

/// SPI-R1 (A): the owners' split of combat point losses, "in any fashion he wishes, as long as the
/// separate losses are equivalent to the total" (a fortification may take them). Zero everywhere
/// on a side: kepi's order. The split is checked against the result when it is rolled.
fn spi_losses_ui(ui: &mut Ui, f: &mut SpiForm, state: &GameState) {
    let ids: Vec<String> = f
        .attacker_ids
        .iter()
        .chain(&f.defender_ids)
        .filter(|id| {
            state
                .unit(id)
                .is_some_and(|u| matches!(spi_role(u), SpiRole::Combat | SpiRole::Fortification))
        })
        .cloned()
        .collect();
    if ids.is_empty() {
        return;
    }
    ui.collapsing("Losses: owner's choice (SPI-R1)", |ui| {
        ui.label(
            RichText::new(
                "CP each unit loses if the result takes CP; 0 on a whole side: kepi's order. \
                 A side's numbers must add up to its loss.",
            )
            .small()
            .weak(),
        );
        for id in ids {
            let Some(u) = state.unit(&id) else { continue };
            let mut n = f
                .losses
                .iter()
                .find(|(i, _)| *i == id)
                .map_or(0, |(_, n)| *n);
            ui.horizontal(|ui| {
                ui.label(&u.unit.name);
                crate::engine::play::kit::number(
                    ui,
                    egui::DragValue::new(&mut n)
                        .range(0..=u.strength)
                        .suffix(" CP lost"),
                    ("spi_loss", &id),
                );
            });
            f.losses.retain(|(i, _)| *i != id);
            if n > 0 {
                f.losses.push((id, n));
            }
        }
    });
}

/// The engaged units of a hex combat, attackers then defenders, one wrapping row each drawn by
/// `row` under an id of its own (SPI-C2, FR-C1: Ctrl-click adds or removes an attacker; `rule`
/// is the set's id for it).
fn engaged_ui<U>(
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

/// The SPI combat toggles (SPI-C3, SPI-C5, SPI-F1, SPI-H1, SPI-S1, SPI-H2).
pub fn spi_situation_ui(ui: &mut Ui, f: &mut SpiForm, state: &GameState) {
    engaged_ui(
        ui,
        "SPI-C2",
        [
            ("Attackers", &mut f.input.attackers),
            ("Defenders", &mut f.input.defenders),
        ],
        |ui, u| {
            if let Some(n) = &u.name {
                ui.label(n);
            }
            crate::engine::play::kit::number(
                ui,
                egui::DragValue::new(&mut u.strength)
                    .range(0..=99)
                    .prefix("CP "),
                "u.strength",
            );
            pick(ui, "supply", &mut u.supply, SupplyState::ALL);
            pick(ui, "formation", &mut u.formation, Formation::ALL);
            ui.checkbox(&mut u.entrained, "entrained");
        },
    );
    ui.horizontal_wrapped(|ui| {
        ui.checkbox(&mut f.input.flank, "flanking attack");
        ui.checkbox(&mut f.input.hasty, "hasty attack");
        ui.checkbox(&mut f.input.dummies_only, "dummies only");
        ui.checkbox(&mut f.input.defender_rough, "defender in rough");
        ui.checkbox(&mut f.input.all_through_ridge, "all through ridge");
        ui.checkbox(&mut f.input.all_through_river, "all through river");
        let mut fort = f.input.fortress.is_some();
        ui.checkbox(&mut fort, "fortification");
        if fort {
            let mut v = f.input.fortress.unwrap_or(2);
            crate::engine::play::kit::number(
                ui,
                egui::DragValue::new(&mut v).range(0..=20).prefix("fort "),
                "fort",
            );
            f.input.fortress = Some(v);
        } else {
            f.input.fortress = None;
        }
    });
    entered_ui(ui, &mut f.entered_result, "A1/D2");
    spi_losses_ui(ui, f, state);
}

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
            crate::engine::play::kit::number(
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
        crate::engine::play::kit::number(
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
    fr_losses_ui(ui, f, state);
}
