//! The checks an SPI Franco-Prussian War phase sets off ([`kepi_game::engine::rule_set::RuleSet::checks`]).

use kepi_game::engine::flow::{Event, Queue};
use kepi_game::engine::game::Action;
use kepi_game::engine::game::clock::{Phase, Step};
use kepi_game::map::supply::SupplyStatus;

/// SPI-S1, SPI-C4.
pub(crate) fn checks(ev: &Event, q: &mut Queue) {
    advance(ev, q);
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
    // SPI-S1 (Standard Game, Case O): "Isolated units lose one Combat Point ... at the end of each
    // Friendly Movement Phase that they are isolated": isolated as traced on the game's map where
    // it carries one (the umpire's typed state winning), else as typed; a check to answer, never
    // applied silently.
    let supply = kepi_game::engine::play::supply::game_supply(ev.before());
    for u in &ev.before().units {
        if u.unit.side != side || u.eliminated() {
            continue;
        }
        let (isolated, says) = match supply.get(u.id()) {
            Some(x) => (x.status == SupplyStatus::Isolated, x.says()),
            None => (
                u.supply == kepi_game::engine::game::Supply::Isolated,
                "isolated (the umpire's)".to_string(),
            ),
        };
        if isolated {
            q.push(
                "SPI-S1",
                Some(u.id()),
                None,
                format!("{says} at the end of its movement phase: loses 1 CP (Standard Game)"),
                None,
            );
        }
    }
}

/// SPI-C4: "Advance after combat into a vacated hex by attackers, immediately, no MP": the map
/// shows the hex; the attackers move into it (or the umpire marks the check done).
fn advance(ev: &Event, q: &mut Queue) {
    let Some(o) = ev
        .outcome()
        .and_then(|o| o.get::<super::SpiCombatOutcome>())
    else {
        return;
    };
    if !o.advance_after_combat {
        return;
    }
    if let Some((hex, held_by)) = kepi_game::engine::flow::vacated(ev) {
        q.push_at(
            "SPI-C4",
            Some(held_by.other()),
            hex,
            format!("hex {hex} is vacated: the attackers may advance into it now, no MP"),
        );
    }
}
