//! The Pickelhaube & Kepi situation toggles of the resolver (the window's panel of [`PkForm`],
//! drawn with the form kit, [`kepi_game::engine::play::kit`]).

use egui::Ui;

use crate::pk::form::{PkAction, PkForm};
use crate::pk::visibility::{Obstacle, Sight};
use crate::pk::{
    Activity, Class, Cover, Facing, Formation, Gun, Officer, Position, Terrain, Weapon,
};
use kepi_game::engine::play::kit::{combo, distance_field, number, pick};

fn officer_ui(ui: &mut Ui, label: &str, v: &mut Option<Officer>) {
    let shown = v.map(|o| o.to_string()).unwrap_or_else(|| "none".into());
    kepi_game::engine::play::kit::combo(ui, label, shown, |ui| {
        ui.selectable_value(v, None, "none");
        for o in Officer::ALL {
            ui.selectable_value(v, Some(*o), o.to_string());
        }
    });
}

/// PK-V1: the sight of a fire or a battery's fire, one row after the form's own: "sight (PK-V1)"
/// ticked gives the observer's contours and ground, the target's ground (with its depth when in
/// woods) and what stands between (with the target's distance behind it). The fields past the box
/// show only while it is ticked, at the row's end, so nothing above or before them moves.
fn sight_ui(ui: &mut Ui, sight: &mut Option<Sight>, scale: &kepi_game::rules::Scale) {
    ui.push_id("pk_sight", |ui| {
        ui.horizontal_wrapped(|ui| {
            let mut on = sight.is_some();
            ui.checkbox(&mut on, "sight (PK-V1)");
            if !on {
                *sight = None;
                return;
            }
            let s = sight.get_or_insert_with(Sight::default);
            number(
                ui,
                egui::DragValue::new(&mut s.observer_contours)
                    .range(0..=100)
                    .prefix("observer contours "),
                "sight.observer_contours",
            );
            pick(ui, "observer in", &mut s.observer_in, Terrain::ALL);
            pick(ui, "target in", &mut s.target_in, Terrain::ALL);
            if s.target_in != Terrain::Open {
                distance_field(ui, "depth", scale, &mut s.target_depth, "pk_sight_depth");
            }
            obstacle_ui(ui, &mut s.obstacle);
            if let Some(Obstacle::Building { storeys: n } | Obstacle::Hill { contours: n }) =
                &mut s.obstacle
            {
                number(
                    ui,
                    egui::DragValue::new(n).range(1..=100).prefix("contours "),
                    "sight.obstacle_contours",
                );
            }
            if s.obstacle.is_some() {
                distance_field(ui, "behind it", scale, &mut s.behind, "pk_sight_behind");
            }
        });
    });
}

/// PK-V1: what stands between, by kind (a building's storeys and a hill's contours are set
/// beside it).
fn obstacle_ui(ui: &mut Ui, v: &mut Option<Obstacle>) {
    let shown = match v {
        None => "none".to_string(),
        Some(Obstacle::Building { .. }) => "building".to_string(),
        Some(Obstacle::Hill { .. }) => "hill".to_string(),
        Some(o) => o.to_string(),
    };
    let kinds = [
        ("none", None),
        ("crops", Some(Obstacle::Crops)),
        ("light-woods", Some(Obstacle::LightWoods)),
        ("heavy-woods", Some(Obstacle::HeavyWoods)),
        ("building", Some(Obstacle::Building { storeys: 1 })),
        ("hill", Some(Obstacle::Hill { contours: 1 })),
    ];
    combo(ui, "obstacle", shown.clone(), |ui| {
        for (name, o) in kinds {
            if ui.selectable_label(shown == name, name).clicked() && shown != name {
                *v = o;
            }
        }
    });
}

/// The toggles of one P&K form; every value is pre-set from the units and can be changed.
pub fn situation_ui(ui: &mut Ui, f: &mut PkForm, scale: &kepi_game::rules::Scale) {
    match &mut f.action {
        PkAction::Fire(i) => {
            ui.horizontal_wrapped(|ui| {
                kepi_game::engine::play::kit::number(
                    ui,
                    egui::DragValue::new(&mut i.figures)
                        .range(0..=200)
                        .prefix("figures "),
                    "i.figures",
                );
                pick(ui, "class", &mut i.class, Class::ALL);
                pick(ui, "weapon", &mut i.weapon, Weapon::ALL);
                pick(ui, "target cover", &mut i.cover, Cover::ALL);
            });
            ui.horizontal_wrapped(|ui| {
                ui.checkbox(&mut i.skirmish, "skirmish order");
                ui.checkbox(&mut i.mounted, "mounted");
                ui.checkbox(&mut i.enfilade, "enfilade (flank/rear)");
                ui.checkbox(&mut i.vs_cavalry, "vs advancing cavalry");
                ui.checkbox(&mut i.disordered, "firer disordered");
                ui.checkbox(&mut i.target_disordered, "target disordered");
                ui.checkbox(&mut i.target_skirmish, "target in skirmish order");
                ui.checkbox(&mut i.supporting, "supporting fire");
            });
            ui.horizontal(|ui| {
                let mut measured = i.range.is_some();
                ui.checkbox(&mut measured, "range measured");
                if measured {
                    let mut r = i.range.unwrap_or(kepi_game::dice::Ratio::int(10));
                    distance_field(ui, "", scale, &mut r, "pk_fire_range");
                    i.range = Some(r);
                } else {
                    i.range = None;
                }
                officer_ui(ui, "officer with target", &mut i.target_officer);
            });
            sight_ui(ui, &mut i.sight, scale);
        }
        PkAction::Artillery(i) => {
            ui.horizontal_wrapped(|ui| {
                pick(ui, "gun", &mut i.gun, Gun::ALL);
                kepi_game::engine::play::kit::number(
                    ui,
                    egui::DragValue::new(&mut i.points)
                        .range(0..=60)
                        .prefix("points "),
                    "i.points",
                );
                pick(ui, "class", &mut i.class, Class::ALL);
                distance_field(ui, "range", scale, &mut i.range, "pk_art_range");
                pick(ui, "target cover", &mut i.cover, Cover::ALL);
            });
            ui.horizontal_wrapped(|ui| {
                ui.checkbox(&mut i.canister, "canister");
                ui.checkbox(&mut i.downhill, "on a hill, firing down");
                ui.checkbox(&mut i.uphill, "firing uphill");
                ui.checkbox(&mut i.counter_battery, "counter-battery");
                ui.checkbox(&mut i.enfilade, "enfilade");
                ui.checkbox(&mut i.limbered, "limbered");
                ui.checkbox(&mut i.over_friends, "over friends");
                ui.checkbox(&mut i.target_disordered, "target disordered");
                ui.checkbox(&mut i.target_skirmish, "target in skirmish order");
            });
            sight_ui(ui, &mut i.sight, scale);
        }
        PkAction::Melee { a, b } => {
            for (label, s) in [("Attacker", a), ("Defender", b)] {
                ui.label(egui::RichText::new(label).strong());
                ui.push_id(label, |ui| {
                    ui.horizontal_wrapped(|ui| {
                        kepi_game::engine::play::kit::number(
                            ui,
                            egui::DragValue::new(&mut s.figures)
                                .range(0..=200)
                                .prefix("1st rank "),
                            "s.figures",
                        );
                        kepi_game::engine::play::kit::number(
                            ui,
                            egui::DragValue::new(&mut s.second_rank)
                                .range(0..=200)
                                .prefix("2nd rank "),
                            "s.second_rank",
                        );
                        pick(ui, "class", &mut s.class, Class::ALL);
                        pick(ui, "formation", &mut s.formation, Formation::ALL);
                        pick(ui, "strikes the enemy's", &mut s.facing, Facing::ALL);
                        pick(ui, "position", &mut s.position, Position::ALL);
                    });
                    ui.horizontal_wrapped(|ui| {
                        ui.checkbox(&mut s.charge, "charged");
                        ui.checkbox(&mut s.joined, "joined in progress");
                        ui.checkbox(&mut s.disordered, "disordered");
                        kepi_game::engine::play::kit::number(
                            ui,
                            egui::DragValue::new(&mut s.melee_move)
                                .range(1..=20)
                                .prefix("melee move "),
                            "s.melee_move",
                        );
                    });
                });
            }
        }
        PkAction::Rally(i) => {
            ui.horizontal_wrapped(|ui| {
                pick(ui, "class", &mut i.class, Class::ALL);
                kepi_game::engine::play::kit::number(
                    ui,
                    egui::DragValue::new(&mut i.leaders_lost)
                        .range(0..=6)
                        .prefix("leaders lost "),
                    "i.leaders_lost",
                );
                ui.checkbox(&mut i.brigaded, "brigaded");
                officer_ui(ui, "officer touching", &mut i.officer);
            });
        }
        PkAction::Flag { class } => {
            pick(ui, "class", class, Class::ALL);
        }
        PkAction::Fatigue { fatigue } => {
            kepi_game::engine::play::kit::number(
                ui,
                egui::DragValue::new(fatigue)
                    .range(0..=99)
                    .prefix("fatigue points "),
                "fatigue",
            );
        }
        PkAction::Urt {
            class,
            activity,
            amount,
        } => {
            pick(ui, "class", class, Class::ALL);
            pick(ui, "activity", activity, Activity::ALL);
            let pivot = matches!(activity, Activity::PivotBattalion | Activity::PivotBrigade);
            kepi_game::engine::play::kit::number(
                ui,
                egui::DragValue::new(amount)
                    .range(if pivot { 0..=360 } else { 1..=20 })
                    .prefix(if pivot { "degrees " } else { "times " }),
                "urt.amount",
            );
        }
    }
}
