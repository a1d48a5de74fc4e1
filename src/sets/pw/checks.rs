//! The checks a Portable Wargame result sets off ([`kepi_game::engine::rule_set::RuleSet::checks`]).

use super::outcome::PwOutcome;
use super::set::{pw_defeated, pw_losses};
use kepi_game::engine::flow::{Event, Queue, army_strength, sides};
use kepi_game::engine::game::Action;
use kepi_game::roster::Arm;

/// PW-V1, PW-H1.
pub(crate) fn checks(ev: &Event, q: &mut Queue) {
    for side in sides(ev.before()) {
        let (was, _) = army_strength(ev.before(), side);
        let (now, _) = army_strength(ev.after(), side);
        if now < was && !pw_defeated(ev.before(), side) && pw_defeated(ev.after(), side) {
            let l = pw_losses(ev.after(), side);
            q.push_once(
                "PW-V1",
                None,
                Some(side),
                format!(
                    "army defeated: lost {} of {} SP and {} of {} units",
                    l.sp_lost, l.sp_total, l.units_lost, l.units_total
                ),
                None,
            );
        }
    }
    let hits = ev
        .outcome()
        .and_then(|o| o.get::<PwOutcome>())
        .map_or(0, PwOutcome::hits)
        .min(8);
    let applied = ev
        .changes()
        .iter()
        .any(|a| matches!(a, Action::LoseStrength { .. }));
    if hits > 0 && !applied {
        let target = ev.unit_at(1).or(ev.unit_at(0));
        let guns = target
            .and_then(|t| ev.after().unit(t))
            .is_some_and(|u| u.unit.arm == Arm::Artillery);
        let what = if guns {
            "hit on artillery: the owner chooses: lose 1 SP, or cannot fire or move next turn"
        } else {
            "hit: the owner chooses: lose 1 SP, or withdraw one hex"
        };
        for _ in 0..hits {
            q.push("PW-H1", target, None, what.into(), None);
        }
    }
}
