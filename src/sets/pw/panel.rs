//! The Portable Wargame's situation toggles in the window: activation, fire and melee (with the
//! owner's PW-H1 choice for hits), drawn with the form kit ([`kepi_game::engine::play::kit`]).

use egui::{RichText, Ui};

use crate::pw::form::{PwAction, PwForm};
use crate::pw::{Army, Gunnery, HitCause, HitChoice, Quality, UnitKind, hit_choices};
use kepi_game::engine::play::kit::pick;

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
        kepi_game::engine::play::kit::number(
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
                kepi_game::engine::play::kit::number(
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
                kepi_game::engine::play::kit::number(
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
                        kepi_game::engine::play::kit::number(
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
