//! 1870's phase checklist: the board games' steps with 1870's rule ids.

use crate::engine::flow::checklist::List;
use crate::rules::board::checklist as board;

/// The current phase's steps (FR-T1).
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
}
