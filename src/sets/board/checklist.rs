//! The two board games' phase checklist (SPI and 1870 differ only in the rule ids and words a
//! [`Board`] gives).

use kepi_game::engine::flow::checklist::{List, phase_side};
use kepi_game::engine::game::UnitState;
use kepi_game::engine::game::clock::Step;
use kepi_game::roster::Arm;

/// What differs between the two board games' phases.
pub struct Board {
    /// SPI-S1 / FR-S1.
    pub supply_rule: &'static str,
    /// SPI-I1 / FR-T1.
    pub arrivals_rule: &'static str,
    /// SPI-C2 / FR-C1.
    pub combat_rule: &'static str,
    /// 1870 places arrivals at the start of movement (it has no reinforcement phase).
    pub arrivals_in_movement: bool,
    /// What being out of supply does.
    pub short_of_supply: &'static str,
}

/// The current phase's steps of a board game (SPI-T1 / FR-T1: reinforcements due this turn,
/// movement (supply judged at its start, SPI-S1 / FR-S1), combat, and at the end the calendar
/// and the blockade markers (FR-B1)).
pub fn steps(l: &mut List, b: &Board) {
    let (supply_rule, arrivals_rule) = (b.supply_rule, b.arrivals_rule);
    let s = l.state();
    let step = s.phase_kind().map(|p| p.step);
    let side = phase_side(s);
    let mine = |u: &UnitState| side.is_none_or(|x| x == u.unit.side);
    if step == Some(Step::Reinforcement) {
        let before = l.len();
        l.arrivals(arrivals_rule, side);
        if l.len() == before {
            l.add(
                arrivals_rule,
                "no reinforcements due this turn",
                side,
                None,
                Vec::new(),
            );
        }
    } else if step == Some(Step::Movement) {
        if b.arrivals_in_movement {
            l.arrivals(arrivals_rule, side);
        }
        let short = l.ids(|u| mine(u) && u.supply != kepi_game::engine::game::Supply::Supplied);
        let what = if short.is_empty() {
            "supply is judged at the start of movement: every unit is supplied".to_string()
        } else {
            format!(
                "supply is judged at the start of movement: {} unit(s) {}",
                short.len(),
                b.short_of_supply
            )
        };
        l.add(supply_rule, what, side, None, short);
        let to_move = l.ids(|u| mine(u) && !u.moved);
        l.add(
            kepi_game::engine::game::clock::turn_rule(s.system).as_str(),
            "movement",
            side,
            None,
            to_move,
        );
    } else if step == Some(Step::Combat) {
        let rule = b.combat_rule;
        let attackers = l.ids(|u| mine(u) && !u.fired && u.unit.arm != Arm::Fortress);
        l.add(
            rule,
            "combat: each unit attacks once, each enemy hex at most once; results apply at once",
            side,
            Some("combat"),
            attackers,
        );
    } else if step == Some(Step::AdvanceCalendars) {
        l.add(
            "FR-T1",
            "advance the turn calendar one cell",
            None,
            None,
            Vec::new(),
        );
        // FR-B1: each marker the game keeps (a siege laid with `siege`), where it stands; its
        // check due advances it.
        let kept: Vec<String> = s
            .sieges
            .iter()
            .filter(|g| g.capitulated.is_none())
            .filter_map(|g| {
                let c = g.calendar.as_ref()?;
                Some(format!(
                    "{}: blockade marker {} cell(s) from {}{}; SURRENDER {}",
                    g.place,
                    c.advanced,
                    c.start,
                    if c.flipped { ", turned over" } else { "" },
                    match c.steps {
                        Some(n) => format!("{n} cell(s) from {} (your printed calendar)", c.start),
                        None => "not known (the calendar is not in the seed)".to_string(),
                    }
                ))
            })
            .collect();
        if kept.is_empty() {
            l.add(
                "FR-B1",
                "advance every blockade marker one cell toward SURRENDER",
                None,
                None,
                Vec::new(),
            );
        }
        for k in kept {
            l.add("FR-B1", k, None, None, Vec::new());
        }
    }
}
