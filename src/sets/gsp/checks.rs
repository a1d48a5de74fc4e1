//! The checks a Graveyard St. Privat result sets off ([`kepi_game::engine::rule_set::RuleSet::checks`]).

use super::outcome::GspOutcome;
use kepi_game::engine::flow::{Event, Queue};

/// GSP-C2.
pub(crate) fn checks(ev: &Event, q: &mut Queue) {
    let Some(GspOutcome::Structure(o)) = ev.outcome().and_then(|o| o.get()) else {
        return;
    };
    for r in std::iter::once(&o.structure).chain(o.equipment.as_ref()) {
        if r.destroyed && r.before < r.threshold {
            q.push(
                "GSP-C2",
                ev.unit_at(1).or(ev.unit_at(0)),
                None,
                format!(
                    "{} destroyed ({} of {} pips): remove it; destroyed cover stops protecting \
                     this turn",
                    r.kind, r.total, r.threshold
                ),
                None,
            );
        }
    }
}
