//! The battle's history derived from the log: strength of each side turn by turn, from the actions
//! applied (undone ones excluded). Used by the window's chart; the battle report counts casualties
//! from each action's effects ([`super::InEffect::effects`]).

use std::collections::{BTreeMap, HashMap};

use super::{Action, Counter, EntryKind, Game, LogEntry};
use crate::roster::Side;

/// Strength of each side at the end of each turn so far: `(turn, side, strength)` rows.
///
/// One pass over the applied actions keeping each side's total up to date (O(actions x sides), not
/// O(actions x units): the window redraws it every frame of a 2,000-unit game).
pub fn strength_by_turn(game: &Game) -> Vec<(u32, Side, u32)> {
    let Some(LogEntry {
        kind: EntryKind::Start { initial },
        ..
    }) = game.log().first()
    else {
        return Vec::new();
    };
    let mut strength: HashMap<&str, (Side, u32)> = initial
        .units
        .iter()
        .map(|u| (u.unit.id.as_str(), (u.unit.side, u.strength)))
        .collect();
    let mut per: BTreeMap<Side, u32> = BTreeMap::new();
    for (side, s) in strength.values() {
        *per.entry(*side).or_default() += s;
    }
    let phases = initial.phases.len().max(1);
    let (mut turn, mut phase) = (initial.turn, initial.phase);
    let mut out: Vec<(u32, Side, u32)> = Vec::new();
    // The last rows are the current turn's: overwritten until the turn changes.
    let snapshot = |turn: u32, per: &BTreeMap<Side, u32>, out: &mut Vec<(u32, Side, u32)>| {
        while out.last().is_some_and(|(t, _, _)| *t == turn) {
            out.pop();
        }
        out.extend(per.iter().map(|(side, s)| (turn, *side, *s)));
    };
    snapshot(turn, &per, &mut out);
    fn set(
        strength: &mut HashMap<&str, (Side, u32)>,
        per: &mut BTreeMap<Side, u32>,
        unit: &str,
        f: impl FnOnce(u32) -> u32,
    ) {
        if let Some((side, s)) = strength.get_mut(unit) {
            let new = f(*s);
            let total = per.entry(*side).or_default();
            *total = total.saturating_sub(*s).saturating_add(new);
            *s = new;
        }
    }
    fn walk(a: &Action, strength: &mut HashMap<&str, (Side, u32)>, per: &mut BTreeMap<Side, u32>) {
        match a {
            Action::LoseStrength { unit, n } => set(strength, per, unit, |s| s.saturating_sub(*n)),
            Action::GainStrength { unit, n } => set(strength, per, unit, |s| s.saturating_add(*n)),
            Action::SetCount {
                unit,
                counter: Counter::Strength,
                value,
                ..
            } => set(strength, per, unit, |_| *value),
            Action::Resolved { effects, .. } => effects.iter().for_each(|e| walk(e, strength, per)),
            _ => {}
        }
    }
    for a in game.applied() {
        walk(a, &mut strength, &mut per);
        if matches!(a, Action::NextPhase) {
            phase += 1;
            if phase >= phases {
                phase = 0;
                turn += 1;
            }
        }
        snapshot(turn, &per, &mut out);
    }
    out
}
