//! SPI's phase checklist: the board games' steps with SPI's rule ids.

use crate::engine::flow::checklist::List;
use crate::rules::board::checklist as board;

/// The current phase's steps (SPI-T1).
pub(crate) fn steps(l: &mut List) {
    board::steps(
        l,
        &board::Board {
            supply_rule: "SPI-S1",
            arrivals_rule: "SPI-I1",
            combat_rule: "SPI-C2",
            arrivals_in_movement: false,
            short_of_supply: "out of supply (halved; isolated: cannot attack, lose 1 CP at the end of the phase)",
        },
    );
}
