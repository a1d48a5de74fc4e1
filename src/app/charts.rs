//! Charts: strength per side per turn, derived from the actions applied (undone ones excluded).

use std::collections::BTreeMap;

use egui::Ui;

use crate::game::{Action, Counter, Game, LogEntry};
use crate::roster::Side;

/// Strength of each side at the end of each turn so far: `(turn, side, strength)` rows.
pub fn strength_by_turn(game: &Game) -> Vec<(u32, Side, u32)> {
    let Some(LogEntry {
        kind: crate::game::EntryKind::Start { initial },
        ..
    }) = game.log().first()
    else {
        return Vec::new();
    };
    let mut strength: BTreeMap<String, (Side, u32)> = initial
        .units
        .iter()
        .map(|u| (u.unit.id.clone(), (u.unit.side, u.strength)))
        .collect();
    let phases = initial.phases.len().max(1);
    let (mut turn, mut phase) = (initial.turn, initial.phase);
    let mut out = Vec::new();
    let snapshot =
        |turn: u32, strength: &BTreeMap<String, (Side, u32)>, out: &mut Vec<(u32, Side, u32)>| {
            let mut per: BTreeMap<Side, u32> = BTreeMap::new();
            for (side, s) in strength.values() {
                *per.entry(*side).or_default() += s;
            }
            out.retain(|(t, _, _)| *t != turn);
            out.extend(per.into_iter().map(|(side, s)| (turn, side, s)));
        };
    snapshot(turn, &strength, &mut out);
    fn walk(a: &Action, strength: &mut BTreeMap<String, (Side, u32)>) {
        match a {
            Action::LoseStrength { unit, n } => {
                if let Some((_, s)) = strength.get_mut(unit) {
                    *s = s.saturating_sub(*n);
                }
            }
            Action::GainStrength { unit, n } => {
                if let Some((_, s)) = strength.get_mut(unit) {
                    *s += n;
                }
            }
            Action::SetCount {
                unit,
                counter: Counter::Strength,
                value,
            } => {
                if let Some((_, s)) = strength.get_mut(unit) {
                    *s = *value;
                }
            }
            Action::Resolved { effects, .. } => effects.iter().for_each(|e| walk(e, strength)),
            _ => {}
        }
    }
    for a in game.applied() {
        walk(a, &mut strength);
        if matches!(a, Action::NextPhase) {
            phase += 1;
            if phase >= phases {
                phase = 0;
                turn += 1;
            }
        }
        snapshot(turn, &strength, &mut out);
    }
    out
}

/// The strength chart.
pub fn charts_ui(ui: &mut Ui, game: &Game) {
    use egui_plot::{Legend, Line, Plot, PlotPoints};
    let rows = strength_by_turn(game);
    let mut sides: BTreeMap<Side, Vec<[f64; 2]>> = BTreeMap::new();
    for (turn, side, s) in rows {
        sides.entry(side).or_default().push([turn as f64, s as f64]);
    }
    ui.label("Strength per side per turn (figures, guns or SP)");
    Plot::new("strength_chart")
        .legend(Legend::default())
        .height(ui.available_height().max(120.0))
        .x_axis_label("turn")
        .show(ui, |p| {
            for (side, pts) in sides {
                p.line(Line::new(side.to_string(), PlotPoints::from(pts)).width(2.0));
            }
        });
}
