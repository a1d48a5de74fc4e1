//! P&K's phase checklist (PK-T1 part 1: d% initiative, the first player moves, artillery fires
//! first, then units (PK-M1, PK-A1, PK-F1); part 2 melees (PK-X1, PK-X7, PK-X5); part 3 a rally
//! roll for every unit that dropped a level (PK-E1); part 4 army morale (PK-W1)).

use kepi_game::engine::flow::checklist::List;
use kepi_game::engine::flow::{army_strength, sides};
use kepi_game::engine::game::clock::Step;
use kepi_game::engine::game::{Level, MAX_MELEES, UnitState};
use kepi_game::roster::Arm;

/// The current phase's steps.
pub(super) fn steps(l: &mut List) {
    let s = l.state();
    match s.phase_kind().map(|p| p.step) {
        Some(Step::MovementAndFire) => {
            l.add(
                "PK-T1",
                "each side rolls d%: the high scorer must move first",
                None,
                None,
                Vec::new(),
            );
            l.arrivals("PK-T1", None);
            let to_move = l.ids(|u| !u.moved && u.level != Level::Routed);
            l.add(
                "PK-M1",
                "the first player moves, then the second",
                None,
                None,
                to_move,
            );
            let guns = l.ids(|u| artillery(u) && !u.limbered && !u.fired);
            l.add(
                "PK-A1",
                "artillery fires first: unlimbered batteries that have not fired",
                None,
                Some("artillery"),
                guns,
            );
            let rifles = l.ids(|u| {
                !artillery(u)
                    && !u.fired
                    && !u.carries(&crate::pk::marks::MUDDLED)
                    && u.unit.arm != Arm::Headquarters
            });
            l.add(
                "PK-F1",
                "then units fire (muddled units cannot fire, PK-X7)",
                None,
                Some("fire"),
                rifles,
            );
        }
        Some(Step::Melee) => {
            let can = l.ids(|u| {
                u.level == Level::Steady && u.melees < MAX_MELEES && u.unit.arm != Arm::Headquarters
            });
            l.add(
                "PK-X1",
                "melees: only a Steady unit initiates; only Steady or Shaken units accept",
                None,
                Some("melee"),
                can,
            );
            let spent = l.ids(|u| u.melees >= MAX_MELEES);
            if !spent.is_empty() {
                l.add(
                    "PK-X7",
                    format!(
                        "{} unit(s) have fought 3 melees this turn: no more",
                        spent.len()
                    ),
                    None,
                    None,
                    spent,
                );
            }
            let tired = l.ids(|u| u.fatigue > 0);
            l.add(
                "PK-X5",
                "fatigue check at the end of each melee move; pursuit when the opponent stood",
                None,
                Some("fatigue"),
                tired,
            );
        }
        Some(Step::UnitMorale) => {
            let mut dropped: Vec<String> = Vec::new();
            for d in s.due.iter() {
                if d.rule.as_str() == "PK-E1"
                    && let Some(u) = &d.unit
                    && !dropped.contains(u)
                {
                    dropped.push(u.clone());
                }
            }
            let what = if dropped.is_empty() {
                "unit morale: no unit waits for a rally roll".to_string()
            } else {
                format!(
                    "unit morale: a rally roll for each of the {} unit(s) that dropped a level",
                    dropped.len()
                )
            };
            l.add("PK-E1", what, None, Some("rally"), dropped);
        }
        _ => {
            for side in sides(s) {
                let (now, total) = army_strength(s, side);
                let pct = (now * 100).checked_div(total).unwrap_or(0);
                let what = if now * 4 < total {
                    format!(
                        "army morale: {now} of {total} ({pct}%), below 25%: roll d10 to return broken units as Shaken"
                    )
                } else {
                    format!("army morale: {now} of {total} ({pct}%), above 25%: no roll")
                };
                let broken = l.ids(|u| u.unit.side == side && u.level == Level::Broken);
                l.add("PK-W1", what, Some(side), None, broken);
            }
        }
    }
}

/// An artillery unit.
fn artillery(u: &UnitState) -> bool {
    u.unit.arm == Arm::Artillery
}
