//! PW's phase checklist (PW-T1 per half-turn: artillery fire (PW-A1), activation and movement
//! (PW-T2), rifle fire by active and inactive units (PW-R1), melee (PW-X1); the army's standing
//! (PW-V1)).

use super::set::{pw_defeated, pw_losses};
use kepi_game::engine::flow::checklist::{List, phase_side};
use kepi_game::engine::flow::sides;
use kepi_game::engine::game::UnitState;
use kepi_game::engine::game::clock::Step;
use kepi_game::roster::Arm;

/// The current phase's steps.
pub(super) fn steps(l: &mut List) {
    let s = l.state();
    let side = phase_side(s);
    let mine = |u: &UnitState| side.is_none_or(|x| x == u.unit.side);
    match s.phase_kind().map(|p| p.step) {
        Some(Step::ArtilleryFire) => {
            let guns = l.ids(|u| mine(u) && artillery(u) && !u.fired);
            l.add(
                "PW-A1",
                "artillery fire (line of sight; guns that fire cannot move this turn)",
                side,
                Some("artillery"),
                guns,
            );
        }
        Some(Step::Movement) => {
            l.arrivals("PW-T1", side);
            let idle = l.ids(|u| mine(u) && !u.activated);
            l.add(
                "PW-T2",
                "activation: d6 >= 2 for Prussians and Redshirts, >= 3 for all others (Elite +1, Poor -1)",
                side,
                Some("activate"),
                idle,
            );
            let go = l.ids(|u| mine(u) && u.activated && !u.moved && !(artillery(u) && u.fired));
            l.add("PW-G1", "move the activated units (hexes)", side, None, go);
        }
        Some(Step::RifleFire) => {
            let rifles = l.ids(|u| !artillery(u) && u.unit.arm != Arm::Cavalry && !u.fired);
            l.add(
                "PW-R1",
                "rifle fire, active and inactive units (-1 if the firer moved)",
                None,
                Some("fire"),
                rifles,
            );
        }
        _ => {
            l.add(
                "PW-X1",
                "melee: each unit that tried to enter an enemy-held hex; both roll",
                side,
                Some("melee"),
                Vec::new(),
            );
        }
    }
    for side in sides(s) {
        let x = pw_losses(s, side);
        let what = if pw_defeated(s, side) {
            format!(
                "DEFEATED: lost {} of {} SP, {} of {} units",
                x.sp_lost, x.sp_total, x.units_lost, x.units_total
            )
        } else {
            format!(
                "lost {} of {} SP, {} of {} units (defeated at more than half)",
                x.sp_lost, x.sp_total, x.units_lost, x.units_total
            )
        };
        l.add("PW-V1", what, Some(side), None, Vec::new());
    }
}

/// An artillery unit.
fn artillery(u: &UnitState) -> bool {
    u.unit.arm == Arm::Artillery
}
