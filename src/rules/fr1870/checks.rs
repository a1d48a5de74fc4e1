//! The checks an 1870 phase or result sets off ([`crate::ruleset::RuleSet::checks`]).

use crate::flow::{Event, Queue};
use crate::game::clock::Step;
use crate::game::{Action, Flag, GameState};

/// FR-B1, FR-C2.
pub(crate) fn checks(ev: &Event, q: &mut Queue) {
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
