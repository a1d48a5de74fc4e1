//! The checks an 1870 phase or result sets off ([`crate::engine::rule_set::RuleSet::checks`]).

use crate::engine::flow::{Event, Queue};
use crate::engine::game::clock::Step;
use crate::engine::game::{Action, Flag, GameState};

/// FR-B1, FR-C2, FR-R1.
pub(crate) fn checks(ev: &Event, q: &mut Queue) {
    after_combat(ev, q);
    stacking_due(ev, q);
    let calendars = |s: &GameState| s.phase_kind().map(|p| p.step) == Some(Step::AdvanceCalendars);
    if matches!(ev.action(), Action::NextPhase) && calendars(ev.after()) && !calendars(ev.before())
    {
        q.push(
            "FR-B1",
            None,
            None,
            "advance every blockade marker one cell toward SURRENDER (a broken blockade flips its \
             marker; broken a second turn, it moves back one cell)"
                .into(),
            None,
        );
    }
    for a in ev.changes() {
        if let Action::SetFlag {
            unit,
            flag: Flag::Disorganised,
            on: true,
        } = a
            && ev.before().unit(unit).is_some_and(|u| u.disorganised)
        {
            q.push(
                "FR-C2",
                Some(unit),
                None,
                "disorganised again: the unit is eliminated".into(),
                None,
            );
        }
    }
}

/// FR-R1: "stacking limit 4 units per cell"; units over it at the end of a movement phase are
/// eliminated ([`super::mechanics::stacking_excess`]). When a side's movement phase ends with
/// more of its units in one cell than the limit, the excess is a check due about that cell (the
/// map shows it; eliminating the units by hand and marking it done answers it). The limit is the
/// built-in table's (`tables/fr1870.toml` `stacking.limit`): a check is queued without the
/// club's tables at hand.
fn stacking_due(ev: &Event, q: &mut Queue) {
    if !matches!(ev.action(), Action::NextPhase) {
        return;
    }
    let Some(phase) = ev.before().phase_kind() else {
        return;
    };
    if phase.step != Step::Movement {
        return;
    }
    let Some(t) = crate::rules::Tables::builtin().ok().map(|t| &t.fr1870) else {
        return;
    };
    let mut cells: std::collections::BTreeMap<String, (crate::roster::Position, Vec<&str>)> =
        std::collections::BTreeMap::new();
    for u in &ev.before().units {
        if u.eliminated() || phase.side.is_some_and(|s| s != u.unit.side) {
            continue;
        }
        if u.position.hex().is_some() {
            cells
                .entry(u.position.to_string())
                .or_insert_with(|| (u.position, Vec::new()))
                .1
                .push(&u.unit.id);
        }
    }
    for (hex, (at, ids)) in cells {
        let n = u32::try_from(ids.len()).unwrap_or(u32::MAX);
        let excess = super::mechanics::stacking_excess(n, t);
        if excess > 0 {
            q.push_at(
                "FR-R1",
                phase.side,
                at,
                format!(
                    "{n} units end movement in cell {hex} ({}): over the stacking limit of {}; \
                     eliminate {excess} of them",
                    ids.join(", "),
                    t.stacking.limit.v()
                ),
            );
        }
    }
}

/// FR-C2 after a combat: each unit the result sends back retreats one cell (moving it answers the
/// check; "blocked retreat or off-map retreat eliminates; no retreat into an empty
/// enemy-controlled cell"), and "the victor may occupy the vacated cell" (the map shows it).
fn after_combat(ev: &Event, q: &mut Queue) {
    for a in ev.changes() {
        if let Action::SetFlag {
            unit,
            flag: Flag::MustRetreat,
            on: true,
        } = a
        {
            q.push_move(
                "FR-C2",
                unit,
                "retreat one cell (blocked or off the map: eliminated; not into an empty \
                 enemy-controlled cell)"
                    .into(),
            );
        }
    }
    let Some(crate::rules::Outcome::FrCombat(o)) = ev.outcome() else {
        return;
    };
    exchange_due(ev, o.effects.as_ref().and_then(|e| e.attacker_must_lose), q);
    if o.effects.as_ref().is_some_and(|e| e.may_advance)
        && let Some((hex, held_by)) = crate::engine::flow::vacated(ev)
    {
        q.push_at(
            "FR-C2",
            Some(held_by.other()),
            hex,
            format!(
                "cell {hex} is vacated: the victor may occupy it with engaged units (stacking 4)"
            ),
        );
    }
}

/// FR-C2 (E): "The Attacker must then eliminate, from among his units that took part in the
/// combat, a total of combat points at least equal to the total (taking the printed combat
/// potential) lost by the Defender." When the resolution did not eliminate that much of the
/// attacker's side (no losses chosen), the choice is a check due for the acting unit's side;
/// eliminating the units by hand (`lose`) and marking it done answers it.
fn exchange_due(ev: &Event, must_lose: Option<u32>, q: &mut Queue) {
    let Some(n) = must_lose.filter(|n| *n > 0) else {
        return;
    };
    let Some(side) = ev
        .unit_at(0)
        .and_then(|id| ev.before().unit(id))
        .map(|u| u.unit.side)
    else {
        return;
    };
    let lost: u32 = crate::engine::flow::pairs(ev)
        .filter(|(b, a)| b.unit.side == side && a.eliminated() && !b.eliminated())
        .map(|(b, _)| b.strength)
        .sum();
    if lost < n {
        q.push(
            "FR-C2",
            ev.unit_at(0),
            Some(side),
            format!(
                "exchange (E): eliminate engaged attacking units of at least {n} printed \
                 potential, at the attacker's choice"
            ),
            None,
        );
    }
}
