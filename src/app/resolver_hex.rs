//! The situation toggles of the hex rule sets' resolver forms: Portable Wargame activation, fire and
//! melee (with the owner's PW-H1 choice for hits), SPI and 1870 combat (with the result entered from
//! the printed chart when kepi does not know the cell).

use egui::{RichText, Ui};

use super::resolver::pick;
use crate::engine::game::GameState;
use crate::roster::Arm;
use crate::rules::board::form::{FrForm, SpiForm, SpiRole, spi_role};
use crate::rules::pw::form::{PwAction, PwForm};
use crate::rules::pw::{Army, Gunnery, HitCause, HitChoice, Quality, UnitKind, hit_choices};
use crate::rules::spi::{Formation, SupplyState};

/// PW-H1: the owner's choice for hits, among those the unit's arm allows.
fn hit_ui(ui: &mut Ui, label: &str, v: &mut HitChoice, kind: UnitKind, cause: HitCause) {
    let allowed = hit_choices(kind, cause);
    if !allowed.contains(v) {
        *v = HitChoice::LoseSp;
    }
    pick(ui, label, v, &allowed);
}

/// PW-H1 for fire: the target's arm decides (silenced is for artillery only; anything else that
/// picks it loses 1 SP).
fn fire_hit_ui(ui: &mut Ui, v: &mut HitChoice) {
    pick(ui, "a hit: owner's choice (PW-H1)", v, HitChoice::ALL);
}

fn range_ui(ui: &mut Ui, range: &mut Option<u32>) {
    let mut known = range.is_some();
    ui.checkbox(&mut known, "range known");
    if known {
        let mut r = range.unwrap_or(1);
        super::keys::number(
            ui,
            egui::DragValue::new(&mut r).range(1..=50).suffix(" hexes"),
            "range",
        );
        *range = Some(r);
    } else {
        *range = None;
    }
}

/// The toggles of one Portable Wargame form; every value is pre-set from the units and their
/// hexes and can be changed.
pub fn pw_situation_ui(ui: &mut Ui, f: &mut PwForm) {
    match &mut f.action {
        PwAction::Activate(i) => {
            ui.horizontal_wrapped(|ui| {
                pick(ui, "army", &mut i.army, Army::ALL);
                pick(ui, "quality", &mut i.quality, Quality::ALL);
            });
        }
        PwAction::Artillery { input, hit } => {
            ui.horizontal_wrapped(|ui| {
                pick(ui, "guns", &mut input.army, Gunnery::ALL);
                super::keys::number(
                    ui,
                    egui::DragValue::new(&mut input.sp)
                        .range(1..=20)
                        .prefix("SP "),
                    "input.sp",
                );
                ui.checkbox(&mut input.target_cover, "target in cover");
                range_ui(ui, &mut input.range);
            });
            ui.horizontal(|ui| {
                fire_hit_ui(ui, hit);
            });
        }
        PwAction::Rifle { input, hit } => {
            ui.horizontal_wrapped(|ui| {
                super::keys::number(
                    ui,
                    egui::DragValue::new(&mut input.sp)
                        .range(1..=20)
                        .prefix("SP "),
                    "input.sp",
                );
                ui.checkbox(&mut input.moved, "firers moved this turn");
                ui.checkbox(&mut input.target_cover, "target in cover");
                range_ui(ui, &mut input.range);
            });
            ui.horizontal(|ui| {
                fire_hit_ui(ui, hit);
            });
        }
        PwAction::Melee { a, b, a_hit, b_hit } => {
            for (label, s, h) in [("Attacker", a, a_hit), ("Defender", b, b_hit)] {
                ui.label(RichText::new(label).strong());
                ui.push_id(label, |ui| {
                    ui.horizontal_wrapped(|ui| {
                        pick(ui, "arm", &mut s.unit, UnitKind::ALL);
                        super::keys::number(
                            ui,
                            egui::DragValue::new(&mut s.sp).range(1..=20).prefix("SP "),
                            "s.sp",
                        );
                        pick(ui, "fights", &mut s.enemy, UnitKind::ALL);
                    });
                    ui.horizontal_wrapped(|ui| {
                        ui.checkbox(&mut s.attacking_flank, "attacking flank/rear");
                        ui.checkbox(&mut s.attacked_flank, "attacked in flank/rear");
                        ui.checkbox(&mut s.enemy_uphill, "enemy uphill");
                        ui.checkbox(&mut s.enemy_cover, "enemy in cover");
                    });
                    let kind = s.unit;
                    hit_ui(
                        ui,
                        "hits taken: owner's choice (PW-H1)",
                        h,
                        kind,
                        HitCause::Melee,
                    );
                });
            }
        }
    }
}

fn entered_ui(ui: &mut Ui, v: &mut Option<String>, hint: &str) {
    ui.horizontal(|ui| {
        let l = ui.label("result from your printed chart:");
        let mut text = v.clone().unwrap_or_default();
        super::keys::field(
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
                super::keys::number(
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

/// The SPI combat toggles (SPI-C3, SPI-C5, SPI-F1, SPI-H1, SPI-S1, SPI-H2).
pub fn spi_situation_ui(ui: &mut Ui, f: &mut SpiForm, state: &GameState) {
    ui.label(
        RichText::new(
            "Ctrl-click units in the roster or on the map to add or remove attackers (SPI-C2)",
        )
        .small()
        .weak(),
    );
    for (label, us) in [
        ("Attackers", &mut f.input.attackers),
        ("Defenders", &mut f.input.defenders),
    ] {
        ui.label(RichText::new(label).strong());
        ui.push_id(label, |ui| {
            for (i, u) in us.iter_mut().enumerate() {
                ui.push_id(i, |ui| {
                    ui.horizontal_wrapped(|ui| {
                        if let Some(n) = &u.name {
                            ui.label(n);
                        }
                        super::keys::number(
                            ui,
                            egui::DragValue::new(&mut u.strength)
                                .range(0..=99)
                                .prefix("CP "),
                            "u.strength",
                        );
                        pick(ui, "supply", &mut u.supply, SupplyState::ALL);
                        pick(ui, "formation", &mut u.formation, Formation::ALL);
                        ui.checkbox(&mut u.entrained, "entrained");
                    });
                });
            }
        });
    }
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
            super::keys::number(
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
    ui.label(
        RichText::new(
            "Ctrl-click units in the roster or on the map to add or remove attackers (FR-C1)",
        )
        .small()
        .weak(),
    );
    for (label, us) in [
        ("Attackers", &mut f.input.attackers),
        ("Defenders", &mut f.input.defenders),
    ] {
        ui.label(RichText::new(label).strong());
        ui.push_id(label, |ui| {
            for (i, u) in us.iter_mut().enumerate() {
                ui.push_id(i, |ui| {
                    ui.horizontal_wrapped(|ui| {
                        if let Some(n) = &u.name {
                            ui.label(n);
                        }
                        super::keys::number(
                            ui,
                            egui::DragValue::new(&mut u.potential)
                                .range(0..=99)
                                .prefix("potential "),
                            "u.potential",
                        );
                        ui.checkbox(&mut u.supplied, "supplied");
                        ui.checkbox(&mut u.disorganised, "disorganised");
                        ui.checkbox(&mut u.can_retreat, "can retreat");
                    });
                });
            }
        });
    }
    ui.horizontal_wrapped(|ui| {
        super::keys::number(
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
