//! Effects as data: what an applied action did to each unit, read from the states before and after
//! it (so the numbers are those of the state it was applied to, never recomputed later).
//!
//! The battle report, `kepi report --json` and its casualty counts print from these, and so does
//! every other place that shows what a result did; one source, so they cannot disagree.

use serde::{Deserialize, Serialize};

use super::{Action, GameState, UnitMarkerKind, UnitState};
use crate::roster::Side;

/// A value before or after an effect: a count, or a word (a level, a position).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum EffectValue {
    /// Figures, points, fatigue, leaders.
    Count(u32),
    /// A marker on or off.
    On(bool),
    /// A level, a position, a facing, a supply state.
    Text(String),
}

impl std::fmt::Display for EffectValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EffectValue::Count(n) => write!(f, "{n}"),
            EffectValue::On(true) => f.write_str("on"),
            EffectValue::On(false) => f.write_str("off"),
            EffectValue::Text(t) => f.write_str(t),
        }
    }
}

/// One change to one unit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Effect {
    /// The unit's id.
    pub unit: String,
    /// Its name, for people.
    pub name: String,
    /// Its side.
    pub side: Side,
    /// What changed: "strength", "fatigue", "level", "leaders", "disordered", "position"...
    pub what: String,
    /// The value before.
    pub before: EffectValue,
    /// The value after.
    pub after: EffectValue,
}

impl Effect {
    /// Figures or points lost by this effect (0 for anything but a fall in strength).
    pub fn lost(&self) -> u32 {
        match (self.what.as_str(), &self.before, &self.after) {
            ("strength", EffectValue::Count(b), EffectValue::Count(a)) => b.saturating_sub(*a),
            _ => 0,
        }
    }

    /// One line for people: "I/12th Grenadiers strength 22 -> 20".
    pub fn line(&self) -> String {
        format!(
            "{} {} {} -> {}",
            self.name, self.what, self.before, self.after
        )
    }
}

/// The units an action names (its own unit, or each effect's of a resolution, and the units a
/// resolution is logged with), in order, without repeats.
fn touched(action: &Action) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    let named: Vec<&str> = match action {
        Action::Resolved { effects, units, .. } => units
            .iter()
            .map(String::as_str)
            .chain(effects.iter().filter_map(Action::unit))
            .collect(),
        a => a.unit().into_iter().collect(),
    };
    for u in named {
        if !out.contains(&u) {
            out.push(u);
        }
    }
    out
}

/// What `action` did, from the states before and after it: one [`Effect`] per unit and field that
/// changed; losses first, then leaders and levels, then the rest, each kind in the order the action
/// names its units.
pub fn effects(before: &GameState, action: &Action, after: &GameState) -> Vec<Effect> {
    let mut out = Vec::new();
    for id in touched(action) {
        if let (Some(b), Some(a)) = (before.unit(id), after.unit(id)) {
            diff(b, a, after.system.unit_markers(), &mut out);
        }
    }
    // Losses first, then leaders and levels, then markers and moves: the order a result card (with
    // room for a few lines) and the report should read them in; stable within each kind.
    out.sort_by_key(|e| match e.what.as_str() {
        "strength" => 0,
        "leaders" => 1,
        "level" => 2,
        _ => 3,
    });
    out
}

fn diff(b: &UnitState, a: &UnitState, kinds: &[UnitMarkerKind], out: &mut Vec<Effect>) {
    let mut push = |what: &str, before: EffectValue, after: EffectValue| {
        if before != after {
            out.push(Effect {
                unit: a.unit.id.clone(),
                name: a.unit.name.clone(),
                side: a.unit.side,
                what: what.to_string(),
                before,
                after,
            });
        }
    };
    use EffectValue::{Count, On, Text};
    push("strength", Count(b.strength), Count(a.strength));
    push("fatigue", Count(b.fatigue), Count(a.fatigue));
    push("leaders", Count(b.leaders), Count(a.leaders));
    push("melees", Count(b.melees), Count(a.melees));
    push(
        "level",
        Text(b.level.to_string()),
        Text(a.level.to_string()),
    );
    for (what, x, y) in [
        ("disordered", b.disordered, a.disordered),
        ("limbered", b.limbered, a.limbered),
        (
            "extended",
            b.flag(crate::engine::game::Flag::Extended),
            a.flag(crate::engine::game::Flag::Extended),
        ),
        ("moved", b.moved, a.moved),
        ("fired", b.fired, a.fired),
        ("activated", b.activated, a.activated),
    ] {
        push(what, On(x), On(y));
    }
    // The rule set's own markers (issue 45), in its words and order; any other by name.
    for k in kinds {
        push(k.label, On(b.carries(k)), On(a.carries(k)));
    }
    let mut marks: Vec<&String> = b.marks.iter().chain(a.marks.iter()).collect();
    marks.sort();
    marks.dedup();
    for m in marks
        .into_iter()
        .filter(|m| !kinds.iter().any(|k| k.name == m.as_str()))
    {
        push(m, On(b.has_mark(m)), On(a.has_mark(m)));
    }
    push(
        "position",
        Text(b.position.to_string()),
        Text(a.position.to_string()),
    );
    let facing = |u: &UnitState| u.facing.map(|f| f.to_string()).unwrap_or_default();
    push("facing", Text(facing(b)), Text(facing(a)));
    push(
        "supply",
        Text(b.supply.to_string()),
        Text(a.supply.to_string()),
    );
}
