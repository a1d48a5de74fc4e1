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
pub(crate) fn name(u: &UnitState) -> &str {
    &u.unit.name
}

/// The two units of a form that has both: not the same unit, not the same side, the actor not
/// eliminated. `verb` says what the actor does ("fire at", "melee").
pub(crate) fn opposed(
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
pub(crate) fn over(u: Option<&UnitState>, wanted: u32, what: &str) -> Option<String> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::game::{Action, Game, Level, SeedSecret};
    use crate::registry::builtin_scenario;
    use crate::rules::System;
    use crate::rules::Tables;
    use crate::rules::pk::form::{PkAction, PkForm};
    use chrono::{TimeZone, Utc};

    fn game(scenario: &str, system: System) -> Game {
        Game::new(
            &builtin_scenario(scenario).unwrap(),
            system,
            SeedSecret {
                seed: 7,
                salt: "t".into(),
            },
            Utc.timestamp_opt(1_000_000, 0).single().unwrap(),
        )
    }

    fn form(g: &Game, name: &str, a: &str, b: Option<&str>) -> Form {
        let mut f = Form::all_for(g.state().system)
            .into_iter()
            .find(|f| f.name() == name)
            .unwrap();
        f.prefill(g.state(), Some(a), b, Tables::builtin().unwrap());
        f
    }

    fn why(g: &Game, name: &str, a: &str, b: Option<&str>) -> Option<String> {
        form(g, name, a, b).refusal(g.state())
    }

    #[test]
    fn pk_self_friend_arm_and_figures() {
        let g = game("mars-la-tour", System::Pk);
        let s = "12th-grenadiers-1";
        assert!(why(&g, "fire", s, Some(s)).unwrap().contains("itself"));
        assert!(why(&g, "melee", s, Some(s)).unwrap().contains("itself"));
        assert!(
            why(&g, "fire", s, Some("52nd-infantry-1"))
                .unwrap()
                .contains("friendly")
        );
        assert_eq!(why(&g, "fire", s, Some("55e-ligne-1")), None);
        assert_eq!(why(&g, "melee", s, Some("55e-ligne-1")), None);
        assert!(
            why(&g, "artillery", "7th-cuirassiers", Some("55e-ligne-1"))
                .unwrap()
                .contains("only artillery")
        );
        assert_eq!(
            why(&g, "artillery", "far3-light-1", Some("55e-ligne-1")),
            None
        );
        let mut f = form(&g, "fire", s, Some("55e-ligne-1"));
        if let Some(PkForm {
            action: PkAction::Fire(i),
            ..
        }) = f.get_mut::<PkForm>()
        {
            i.figures = 21;
        }
        let r = f.refusal(g.state()).unwrap();
        assert!(
            r.contains("21 figures firing") && r.contains("has 20"),
            "{r}"
        );
        // The same refusal stops the resolution itself (window preview and `game apply`).
        assert!(
            f.resolve(g.state(), Tables::builtin().unwrap(), None)
                .is_err()
        );
    }

    #[test]
    fn pk_routed_or_eliminated_do_not_rally() {
        let mut g = game("mars-la-tour", System::Pk);
        let now = Utc.timestamp_opt(1_000_100, 0).single().unwrap();
        assert_eq!(why(&g, "rally", "55e-ligne-1", None), None);
        g.act(
            Action::SetLevel {
                unit: "55e-ligne-1".into(),
                level: Level::Routed,
            },
            now,
        )
        .unwrap();
        assert!(
            why(&g, "rally", "55e-ligne-1", None)
                .unwrap()
                .contains("routed")
        );
        g.act(
            Action::LoseStrength {
                unit: "8e-ligne-1".into(),
                n: 22,
            },
            now,
        )
        .unwrap();
        assert!(
            why(&g, "rally", "8e-ligne-1", None)
                .unwrap()
                .contains("eliminated")
        );
    }

    #[test]
    fn pw_and_crt_refuse_friends_and_wrong_arms() {
        let g = game("pw-skirmish", System::Pw);
        assert!(
            why(&g, "melee", "de-inf-1", Some("de-inf-2"))
                .unwrap()
                .contains("friendly")
        );
        assert!(
            why(&g, "artillery", "de-cav", Some("fr-inf-1"))
                .unwrap()
                .contains("for artillery")
        );
        let s = game("spi-1870", System::Spi);
        assert!(
            why(&s, "combat", "de-1-5-1", Some("de-1-6-1"))
                .unwrap()
                .contains("friendly")
        );
    }

    #[test]
    fn dice_a_form_does_not_roll_are_named() {
        let g = game("mars-la-tour", System::Pk);
        let f = form(&g, "fire", "12th-grenadiers-1", Some("55e-ligne-1"));
        assert_eq!(unused_die(&f, &[(Die::D10, 5), (Die::Pct, 40)]), None);
        let r = unused_die(&f, &[(Die::with_sides(7), 3)]).unwrap();
        assert!(r.contains("does not roll") && r.contains("d10"), "{r}");
        assert!(unused_die(&f, &[(Die::D6, 3)]).is_some());
        let rally = form(&g, "rally", "55e-ligne-1", None);
        assert!(unused_die(&rally, &[(Die::Pct, 3)]).is_some());
    }
}
