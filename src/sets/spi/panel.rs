//! The situation toggles of SPI combat in the window (SPI-C3, SPI-C5, SPI-F1, SPI-H1, SPI-S1,
//! SPI-H2: the attackers and defenders with their state, the result entered from the printed chart
//! when kepi does not know the cell, the owners' split of losses, SPI-R1), drawn with the form kit
//! ([`kepi_game::engine::play::kit`]) and the rows both board games share
//! ([`crate::board::panel`]).

use egui::{RichText, Ui};

use crate::board::panel::{engaged_ui, entered_ui};
use crate::spi::combat_form::{MapRead, SpiForm, SpiRole, spi_role};
use crate::spi::{Formation, SupplyState};
use kepi_game::engine::game::GameState;
use kepi_game::engine::play::kit::pick;

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
                kepi_game::engine::play::kit::number(
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

/// SPI-C5: one terrain box of the Terrain Effects Chart's combat column, with where its value
/// comes from: "(map)" when the game's map gave it (the hover says what the map read), "(set by
/// you)" when the umpire ticked it against the map; nothing where the map does not say (the
/// umpire ticks, as without a map).
fn c5_box(ui: &mut Ui, on: &mut bool, label: &str, read: Option<&MapRead>, hex: Option<&str>) {
    ui.checkbox(on, label);
    let Some(map_says) = read.and_then(|r| r.on) else {
        return;
    };
    let why = read.and_then(|r| r.why.as_deref());
    let said = format!(
        "the map ({}): {}{}",
        hex.unwrap_or("?"),
        if map_says { "yes" } else { "no" },
        why.map_or(String::new(), |w| format!(", {w}"))
    );
    // Both marks take the wider one's width, so ticking a box never moves the boxes after it
    // (the row wraps).
    let widest = egui::WidgetText::from(RichText::new("(set by you)").weak())
        .into_galley(
            ui,
            Some(egui::TextWrapMode::Extend),
            f32::INFINITY,
            egui::TextStyle::Body,
        )
        .size();
    let (mark, hover) = if map_says == *on {
        ("(map)", format!("read from {said} (SPI-C5)"))
    } else {
        (
            "(set by you)",
            format!("{said}; the umpire's tick wins (SPI-C5)"),
        )
    };
    ui.add_sized(
        [widest.x, widest.y.max(ui.spacing().interact_size.y)],
        egui::Label::new(RichText::new(mark).weak()),
    )
    .on_hover_text(hover);
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
            kepi_game::engine::play::kit::number(
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
        let map = f.map.as_ref();
        let hex = map.and_then(|m| m.hex.as_deref());
        // SPI-C5: the three terrain boxes, each with what the map read of it.
        for (on, label, read) in [
            (
                &mut f.input.defender_rough,
                "defender in rough",
                map.map(|m| &m.rough),
            ),
            (
                &mut f.input.all_through_ridge,
                "all through ridge",
                map.map(|m| &m.ridge),
            ),
            (
                &mut f.input.all_through_river,
                "all through river",
                map.map(|m| &m.river),
            ),
        ] {
            c5_box(ui, on, label, read, hex);
        }
        let mut fort = f.input.fortress.is_some();
        ui.checkbox(&mut fort, "fortification");
        if fort {
            let mut v = f.input.fortress.unwrap_or(2);
            kepi_game::engine::play::kit::number(
                ui,
                egui::DragValue::new(&mut v).range(0..=20).prefix("fort "),
                "fort",
            );
            f.input.fortress = Some(v);
        } else {
            f.input.fortress = None;
        }
    });
    if f.input.hasty {
        // SPI-H1 Case O: the allocation is the attacker's CP above (`--hasty --attack N` in play).
        ui.weak(
            "Hasty attack: its unit may allocate only part of its strength (SPI-H1 Case O): \
             lower the attacker's CP above to the points it allocates.",
        );
    }
    entered_ui(ui, &mut f.entered_result, "A1/D2");
    spi_losses_ui(ui, f, state);
}
