//! The checks a Pickelhaube & Kepi result sets off ([`kepi_game::engine::rule_set::RuleSet::checks`]).

use crate::pk::outcome::PkOutcome;
use crate::pk::{Officer, Side as PkSide};
use kepi_game::engine::flow::{Event, Queue, army_strength, pairs, sides};
use kepi_game::engine::game::{Action, Level};
use kepi_game::roster::Arm;

/// The P&K outcome of the event's resolution, if it is one.
fn outcome<'e>(ev: &'e Event) -> Option<&'e PkOutcome> {
    ev.outcome().and_then(|o| o.get())
}

const GENERAL_DEATH: &str = "a general has fallen: his units within 18\" lose 3 or 4 on rally \
     rolls that move, and the unit he was with loses them for good";

/// PK-L1, PK-E1, PK-X4, PK-X5, PK-X6, PK-W1: what a result or a change by hand asks for next.
pub(crate) fn checks(ev: &Event, q: &mut Queue) {
    leader_rolls(ev, q);
    rally_and_fall_back(ev, q);
    fatigue_and_pursuit(ev, q);
    flag_roll(ev, q);
    army_morale(ev, q);
}

/// PK-L1: a casualty applied by hand asks for the leader roll; a general who fell (an officer loss
/// in a resolution, or his headquarters wiped out) asks for his death effect.
fn leader_rolls(ev: &Event, q: &mut Queue) {
    // PK-L1: a casualty applied by hand asks for the leader roll.
    if ev.by_hand() {
        for a in ev.changes() {
            if let Action::LoseStrength { unit, n } = a
                && *n > 0
            {
                q.push(
                    "PK-L1",
                    Some(unit),
                    None,
                    "leader roll for the casualty: d% 86+ a leader falls (or the attached \
                     officer instead)"
                        .into(),
                    None,
                );
            }
        }
    }
    // PK-L1: a general fell (an officer loss in a resolution, or his headquarters wiped out).
    let mut fallen: Vec<Option<&str>> = Vec::new();
    let general = |o: Option<Officer>| o == Some(Officer::General);
    match outcome(ev) {
        Some(PkOutcome::Fire(o)) if general(o.officer_lost) => fallen.push(ev.unit_at(1)),
        Some(PkOutcome::Artillery(o)) if general(o.officer_lost) => fallen.push(ev.unit_at(1)),
        Some(PkOutcome::Melee(m)) => {
            if general(m.a.officer_lost) {
                fallen.push(ev.unit_at(1));
            }
            if general(m.b.officer_lost) {
                fallen.push(ev.unit_at(0));
            }
        }
        _ => {}
    }
    for (b, a) in pairs(ev) {
        if b.unit.arm == Arm::Headquarters && !b.eliminated() && a.eliminated() {
            fallen.push(Some(a.id()));
        }
    }
    for u in fallen {
        q.push("PK-L1", u, None, GENERAL_DEATH.into(), None);
    }
}

/// PK-E1: a unit that dropped a level rallies at the end of the move; PK-X6: in melee it falls
/// back 6".
fn rally_and_fall_back(ev: &Event, q: &mut Queue) {
    // PK-E1 (and PK-X6 in melee): a unit that dropped a level.
    let in_melee = matches!(outcome(ev), Some(PkOutcome::Melee(_)));
    for (b, a) in pairs(ev) {
        if a.level > b.level && !a.eliminated() {
            if a.level != Level::Routed {
                q.push_once(
                    "PK-E1",
                    Some(a.id()),
                    None,
                    format!(
                        "rally roll at the end of the move (dropped from {} to {}): d10 + class + \
                         rally modifiers for lightly wounded figures back",
                        b.level, a.level
                    ),
                    Some("rally"),
                );
            }
            if in_melee {
                q.push_once(
                    "PK-X6",
                    Some(a.id()),
                    None,
                    "fell below a level in melee: falls back 6\"; a Steady opponent follows and the \
                     melee continues (both below a level: both fall back, melee over)"
                        .into(),
                    None,
                );
            }
        }
    }
}

/// PK-X5: the fatigue check at the end of each melee move, and the pursuit roll when a unit falls
/// back on it.
fn fatigue_and_pursuit(ev: &Event, q: &mut Queue) {
    // PK-X5: the fatigue check at the end of each melee move.
    for a in ev.changes() {
        if let Action::AddFatigue { unit, n } = a
            && *n > 0
        {
            let total = ev.after().unit(unit).map(|u| u.fatigue).unwrap_or(*n);
            q.push(
                "PK-X5",
                Some(unit),
                None,
                format!(
                    "fatigue check at the end of the melee move: d10 below its {total} fatigue \
                     points falls back 4\""
                ),
                Some("fatigue"),
            );
        }
    }
    // PK-X5: the pursuit roll when a unit falls back on its fatigue check.
    if let Some(PkOutcome::Fatigue(f)) = outcome(ev)
        && f.falls_back
    {
        q.push(
            "PK-X5",
            ev.unit_at(0),
            None,
            "fell back: pursuit roll by the unit that stood ((stander's figures - withdrawer's) + \
             class + d10; 20+ the victor advances and the melee continues; none: the melee is \
             over and fatigue resets)"
                .into(),
            None,
        );
    }
}

/// PK-X4: the loser of a melee move rolls for its flag.
fn flag_roll(ev: &Event, q: &mut Queue) {
    // PK-X4: the loser's flag.
    if let Some(PkOutcome::Melee(m)) = outcome(ev) {
        let loser = match m.loser {
            Some(PkSide::A) => ev.unit_at(0),
            Some(PkSide::B) => ev.unit_at(1),
            None => None,
        };
        if let Some(l) = loser
            && ev
                .after()
                .unit(l)
                .is_some_and(|u| !u.carries(&crate::pk::marks::FLAG_LOST))
        {
            q.push_once(
                "PK-X4",
                Some(l),
                None,
                "lost the melee move: flag roll d10 + class, 6 or less loses its flag".into(),
                Some("flag"),
            );
        }
    }
}

/// PK-W1: an army that has just fallen below 25% of its starting strength.
fn army_morale(ev: &Event, q: &mut Queue) {
    // PK-W1: an army that has just fallen below 25% of its starting strength.
    for side in sides(ev.before()) {
        let (was, total) = army_strength(ev.before(), side);
        let (now, _) = army_strength(ev.after(), side);
        if total > 0 && was * 4 >= total && now * 4 < total {
            q.push_once(
                "PK-W1",
                None,
                Some(side),
                format!(
                    "army below 25% ({now} of {total}): roll d10 on the Army Effectiveness Table \
                     to return broken units as Shaken (routed units never return)"
                ),
                None,
            );
        }
    }
}
