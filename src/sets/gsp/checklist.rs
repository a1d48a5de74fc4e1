//! GSP's phase checklist (GSP-A4: artillery fires after rifle fire, both sides at once, only guns
//! that did not move or unlimber this turn; GSP-A3, GSP-S1, GSP-C3).

use kepi_game::engine::flow::checklist::List;
use kepi_game::engine::game::UnitState;
use kepi_game::engine::game::clock::Step;
use kepi_game::roster::{Arm, Side};

/// The current phase's steps.
pub(super) fn steps(l: &mut List) {
    let s = l.state();
    match s.phase_kind().map(|p| p.step) {
        Some(Step::Movement) => {
            let to_move = l.ids(|u| !u.moved);
            l.add(
                "GSP-A4",
                "movement: guns that move or unlimber this turn may not fire (mark them moved)",
                None,
                None,
                to_move,
            );
            let hidden = l.ids(|u| u.carries(&crate::gsp::marks::HIDDEN));
            if !hidden.is_empty() {
                l.add(
                    "GSP-S1",
                    "the hidden siege gun is revealed when French units come adjacent or in; it may be brought on at the start of a Prussian turn",
                    Some(Side::German),
                    None,
                    hidden,
                );
            }
        }
        Some(Step::RifleFire) => l.add(
            "GSP-A4",
            "rifle fire and its casualties come before the artillery",
            None,
            None,
            Vec::new(),
        ),
        Some(Step::ArtilleryFire) => {
            let guns = l.ids(|u| {
                artillery(u)
                    && !u.moved
                    && !u.limbered
                    && !u.fired
                    && !u.carries(&crate::gsp::marks::HIDDEN)
            });
            l.add(
                "GSP-A4",
                "artillery fire, both sides at once: only guns that did not move or unlimber; choose load and target sector, one d6 per gun",
                None,
                Some("artillery"),
                guns,
            );
            l.add(
                "GSP-A3",
                "shell and the siege gun roll 2d6 for accuracy of aim per hit",
                None,
                None,
                Vec::new(),
            );
        }
        _ => l.add(
            "GSP-C3",
            "close combat: gun crews and limber teams cannot attack; they defend at 3 CV",
            None,
            None,
            Vec::new(),
        ),
    }
}

/// An artillery unit.
fn artillery(u: &UnitState) -> bool {
    u.unit.arm == Arm::Artillery
}
