//! 1870's phase checklist: the board games' steps with 1870's rule ids.

use crate::board::checklist as board;
use kepi_game::engine::flow::checklist::{List, phase_side};
use kepi_game::engine::game::clock::Step;

/// The current phase's steps (FR-T1), and in a movement phase the units at sea (FR-K1).
pub(crate) fn steps(l: &mut List) {
    board::steps(
        l,
        &board::Board {
            supply_rule: "FR-S1",
            arrivals_rule: "FR-T1",
            combat_rule: "FR-C1",
            arrivals_in_movement: true,
            short_of_supply: "unsupplied (combat potential halved)",
        },
    );
    at_sea(l);
}

/// FR-K1: in a movement phase, the side's units at sea ("in transit"), each to land at a port or
/// to go on by the edge with `sea`; at most four in transit at once.
fn at_sea(l: &mut List) {
    let s = l.state();
    if s.phase_kind().map(|p| p.step) != Some(Step::Movement) {
        return;
    }
    let side = phase_side(s);
    let units = l.ids(|u| {
        u.carries(&crate::fr1870::marks::AT_SEA)
            && !u.eliminated()
            && side.is_none_or(|x| x == u.unit.side)
    });
    if units.is_empty() {
        return;
    }
    l.add(
        "FR-K1",
        format!(
            "{} unit(s) at sea: each lands at a port or by the western or southern edge, or \
             stays in transit (at most four at once)",
            units.len()
        ),
        side,
        Some("sea"),
        units,
    );
}
