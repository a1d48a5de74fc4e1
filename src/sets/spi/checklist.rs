//! SPI's phase checklist: the board games' steps with SPI's rule ids, and in a movement phase
//! SPI's own: the allowance and what costs points (SPI-T1, SPI-S1, SPI-H2), rail movement and
//! the EB units (SPI-E1).

use crate::board::checklist as board;
use kepi_game::engine::flow::checklist::{List, phase_side};
use kepi_game::engine::game::clock::Step;
use kepi_game::roster::{Arm, Position};

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
    let s = l.state();
    if s.phase_kind().map(|p| p.step) != Some(Step::Movement) {
        return;
    }
    let side = phase_side(s);
    let mine = |u: &kepi_game::engine::game::UnitState| side.is_none_or(|x| x == u.unit.side);
    // SPI-T1 (Movement A, D, K, M), SPI-S1, SPI-H2: what the notes of each move count.
    l.add(
        "SPI-T1",
        "movement points: German 8, French 6 (halved unsupplied or isolated, SPI-S1); 1 a hex \
         (the map's terrain: move --mp N), +2 onto and +2 off a friendly unit; formation change \
         4 (SPI-H2)",
        side,
        Some("formation"),
        Vec::new(),
    );
    // SPI-T1, Rail Movement: the entrained units of the phasing side.
    let entrained = l
        .ids(|u| mine(u) && u.carries(&crate::spi::marks::ENTRAINED) && u.unit.arm != Arm::Railway);
    l.add(
        "SPI-T1",
        "rail movement: entrain 3 MP, 18 hexes a point, detrain 2 MP; French one, German two \
         entrained units a phase; not next to the enemy",
        side,
        Some("entrain"),
        entrained,
    );
    // SPI-E1: the phasing side's EB units on the map.
    let ebs = l.ids(|u| mine(u) && u.unit.arm == Arm::Railway && u.position != Position::Off);
    if !ebs.is_empty() {
        l.add(
            "SPI-E1",
            "EB units: four hexes along a rail line; crossing a river hexside into the enemy's \
             country, roll: 1-3 continue, 4-6 stop for the phase",
            side,
            Some("eb"),
            ebs,
        );
    }
}
