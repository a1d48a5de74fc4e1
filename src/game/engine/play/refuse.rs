//! Impossible actions (issue 17): one pure check per rule set and form, which `Form::resolve` runs
//! first, so the window (its Roll button disabled, the reason shown), `kepi game apply` (exit 2 with
//! the reason) and the tests refuse the same things for the same reason.
//!
//! Refused: a unit firing at or fighting itself or a unit of its own side; more figures, guns or
//! points than the unit has; an eliminated unit acting; an eliminated or routed unit rallying; a form
//! the unit's arm cannot use (cavalry or infantry as artillery, guns with rifle fire); a unit firing
//! a weapon its card does not carry (P&K horsemen with sabre or lance, a GSP battery firing another
//! piece than its own); a die the resolution does not roll; `gain` on an eliminated unit
//! ([`action_refusal`]).

use super::Form;
use crate::dice::Die;
use crate::engine::game::{Action, GameState, UnitState};

/// Refuses entered dice of a kind `form` never rolls, naming the die and the ones it does roll.
pub fn unused_die(form: &Form, entered: &[(Die, u32)]) -> Option<String> {
    let used = form.dice_used();
    let (die, value) = entered.iter().find(|(d, _)| !used.contains(d))?;
    let names: Vec<String> = used.iter().map(ToString::to_string).collect();
    Some(format!(
        "{} does not roll a {die} (entered {die}={value}); it rolls {}",
        form.name(),
        names.join(" and ")
    ))
}

/// A unit's name for a reason.
pub fn name(u: &UnitState) -> &str {
    &u.unit.name
}

/// The two units of a form that has both: not the same unit, not the same side, the actor not
/// eliminated. `verb` says what the actor does ("fire at", "melee").
pub fn opposed(
    state: &GameState,
    actor: Option<&str>,
    target: Option<&str>,
    verb: &str,
) -> Option<String> {
    let a = state.unit(actor?)?;
    if a.strength == 0 {
        return Some(format!("{} is eliminated and cannot {verb}", name(a)));
    }
    let t = state.unit(target?)?;
    if a.unit.id == t.unit.id {
        return Some(format!("{} cannot {verb} itself", name(a)));
    }
    if a.unit.side == t.unit.side {
        return Some(format!(
            "{} and {} are both {}: a unit cannot {verb} a friendly unit",
            name(a),
            name(t),
            a.unit.side
        ));
    }
    None
}

/// More than the unit has.
pub fn over(u: Option<&UnitState>, wanted: u32, what: &str) -> Option<String> {
    let u = u?;
    (wanted > u.strength)
        .then(|| format!("{wanted} {what} from {}, which has {}", name(u), u.strength))
}

/// Why an action by hand is impossible in `state`, or None: `gain` on an eliminated unit (it is
/// out of the game; an eliminated unit brought back would stand in its old hex, with whatever
/// enemy has moved in since).
pub fn action_refusal(action: &Action, state: &GameState) -> Option<String> {
    match action {
        Action::GainStrength { unit, n } => {
            let u = state.unit(unit)?;
            u.eliminated().then(|| {
                format!(
                    "{} is eliminated: gaining {n} would bring it back into play; an eliminated \
                     unit stays out (undo the loss if it was a mistake)",
                    name(u)
                )
            })
        }
        _ => None,
    }
}
