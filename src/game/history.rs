//! The battle's history derived from the log: strength and losses of each side turn by turn, from
//! the actions applied (undone ones excluded). Used by the window's chart and the battle report.

use std::collections::BTreeMap;

use super::{Action, Counter, EntryKind, Game, LogEntry};
use crate::roster::Side;

/// Strength of each side at the end of each turn so far: `(turn, side, strength)` rows.
pub fn strength_by_turn(game: &Game) -> Vec<(u32, Side, u32)> {
    let Some(LogEntry {
        kind: EntryKind::Start { initial },
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

/// Losses of each side in each turn (strength at the end of the previous turn minus at its end).
pub fn losses_by_turn(game: &Game) -> Vec<(u32, Vec<(Side, u32)>)> {
    let rows = strength_by_turn(game);
    let mut per: BTreeMap<u32, BTreeMap<Side, u32>> = BTreeMap::new();
    for (turn, side, s) in &rows {
        per.entry(*turn).or_default().insert(*side, *s);
    }
    let mut out = Vec::new();
    let mut prev: Option<BTreeMap<Side, u32>> = None;
    for (turn, now) in per {
        let lost = now
            .iter()
            .map(|(side, s)| {
                let before = prev
                    .as_ref()
                    .and_then(|p| p.get(side))
                    .copied()
                    .unwrap_or(*s);
                (*side, before.saturating_sub(*s))
            })
            .collect();
        out.push((turn, lost));
        prev = Some(now);
    }
    out
}
