//! The checks an SPI Franco-Prussian War phase sets off ([`crate::ruleset::RuleSet::checks`]).

use crate::flow::{Event, Queue};
use crate::game::Action;
use crate::game::clock::{Phase, Step};

/// SPI-S1.
pub(crate) fn checks(ev: &Event, q: &mut Queue) {
    if !matches!(ev.action(), Action::NextPhase) {
        return;
    }
    let Some(Phase {
        side: Some(side),
        step: Step::Movement,
        ..
    }) = ev.before().phase_kind()
    else {
        return;
    };
    for u in &ev.before().units {
        if u.unit.side == side && u.supply == crate::game::Supply::Isolated && !u.eliminated() {
            q.push(
                "SPI-S1",
                Some(u.id()),
                None,
                "isolated at the end of its movement phase: loses 1 CP (Standard Game)".into(),
                None,
            );
        }
    }
}
