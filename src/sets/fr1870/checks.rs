//! The checks an 1870 phase or result sets off ([`kepi_game::engine::rule_set::RuleSet::checks`]).

use crate::fr1870::marks::{DISORGANISED, MUST_RETREAT};
use kepi_game::engine::flow::{Event, Queue};
use kepi_game::engine::game::clock::Step;
use kepi_game::engine::game::{Action, FlagName, GameState};

/// FR-B1, FR-C2, FR-R1.
pub(crate) fn checks(ev: &Event, q: &mut Queue) {
    after_combat(ev, q);
    stacking_due(ev, q);
    let calendars = |s: &GameState| s.phase_kind().map(|p| p.step) == Some(Step::AdvanceCalendars);
    if matches!(ev.action(), Action::NextPhase) && calendars(ev.after()) && !calendars(ev.before())
    {
        calendar_due(ev.after(), q);
    }
    capitulation_due(ev, q);
    paris_taken_due(ev, q);
    for a in ev.changes() {
        if let Action::SetFlag {
            unit,
            flag: FlagName::Mark(m),
            on: true,
        } = a
            && m == DISORGANISED.name
            && ev
                .before()
                .unit(unit)
                .is_some_and(|u| u.carries(&DISORGANISED))
        {
            q.push(
                "FR-C2",
                Some(unit),
                None,
                "disorganised again: the unit is eliminated".into(),
                None,
            );
        }
    }
}

/// FR-R1: "stacking limit 4 units per cell"; units over it at the end of a movement phase are
/// eliminated ([`super::mechanics::stacking_excess`]). When a side's movement phase ends with
/// more of its units in one cell than the limit, the excess is a check due about that cell (the
/// map shows it; eliminating the units by hand and marking it done answers it). The limit is the
/// built-in table's (`tables/fr1870.toml` `stacking.limit`): a check is queued without the
/// club's tables at hand.
fn stacking_due(ev: &Event, q: &mut Queue) {
    if !matches!(ev.action(), Action::NextPhase) {
        return;
    }
    let Some(phase) = ev.before().phase_kind() else {
        return;
    };
    if phase.step != Step::Movement {
        return;
    }
    let t = kepi_game::tables::builtin::<super::Fr1870Tables>();
    let mut cells: std::collections::BTreeMap<String, (kepi_game::roster::Position, Vec<&str>)> =
        std::collections::BTreeMap::new();
    for u in &ev.before().units {
        if u.eliminated() || phase.side.is_some_and(|s| s != u.unit.side) {
            continue;
        }
        if u.position.hex().is_some() {
            cells
                .entry(u.position.to_string())
                .or_insert_with(|| (u.position, Vec::new()))
                .1
                .push(&u.unit.id);
        }
    }
    for (hex, (at, ids)) in cells {
        let n = u32::try_from(ids.len()).unwrap_or(u32::MAX);
        let excess = super::mechanics::stacking_excess(n, t);
        if excess > 0 {
            q.push_at(
                "FR-R1",
                phase.side,
                at,
                format!(
                    "{n} units end movement in cell {hex} ({}): over the stacking limit of {}; \
                     eliminate {excess} of them",
                    ids.join(", "),
                    t.stacking.limit.v()
                ),
            );
        }
    }
}

/// FR-C2's retreat check as the game keeps it (the words a previous kepi's save holds too: which
/// cells are open is said as things stand, [`retreat_now`]).
const RETREAT: &str = "retreat one cell (blocked or off the map: eliminated; not into an empty enemy-controlled cell)";

/// FR-C2 (E11, E13): the retreat check `d` as things stand now, with the cells its unit may
/// retreat to, as the map outlines them ([`crate::board::moves::retreat_cells`]): "...: to
/// 2237 or 2238", or that none is open. Derived each time it is shown, so it follows the units;
/// None for any other check.
pub(crate) fn retreat_now(
    s: &kepi_game::engine::game::GameState,
    d: &kepi_game::engine::flow::Due,
) -> Option<String> {
    let unit = d
        .unit
        .as_deref()
        .filter(|_| d.rule.as_str() == "FR-C2" && d.by_move)?;
    Some(format!("{}: {}", d.what, retreat_cells_line(s, unit)))
}

/// The cells `unit` may retreat to now: "to 2237 or 2238", or that none is open.
fn retreat_cells_line(s: &kepi_game::engine::game::GameState, unit: &str) -> String {
    let cells: Vec<String> = s
        .unit(unit)
        .map(|u| crate::board::moves::retreat_cells(s, u))
        .unwrap_or_default()
        .iter()
        .map(|p| p.to_string())
        .collect();
    match cells.as_slice() {
        [] => "no cell open around it".to_string(),
        [one] => format!("to {one}"),
        [rest @ .., last] => format!("to {} or {last}", rest.join(", ")),
    }
}

/// FR-C2 after a combat: each unit the result sends back retreats one cell (moving it answers the
/// check; "blocked retreat or off-map retreat eliminates; no retreat into an empty
/// enemy-controlled cell"), and "the victor may occupy the vacated cell" (the map shows it).
fn after_combat(ev: &Event, q: &mut Queue) {
    for a in ev.changes() {
        if let Action::SetFlag {
            unit,
            flag: FlagName::Mark(m),
            on: true,
        } = a
            && m == MUST_RETREAT.name
        {
            q.push_move("FR-C2", unit, RETREAT.into());
        }
    }
    let Some(o) = ev
        .outcome()
        .and_then(|o| o.get::<super::combat::FrCombatOutcome>())
    else {
        return;
    };
    exchange_due(ev, o.effects.as_ref().and_then(|e| e.attacker_must_lose), q);
    if o.effects.as_ref().is_some_and(|e| e.may_advance)
        && let Some((hex, held_by)) = kepi_game::engine::flow::vacated(ev)
    {
        q.push_at(
            "FR-C2",
            Some(held_by.other()),
            hex,
            format!(
                "cell {hex} is vacated: the victor may occupy it with engaged units (stacking 4)"
            ),
        );
    }
}

/// FR-C2 (E): "The Attacker must then eliminate, from among his units that took part in the
/// combat, a total of combat points at least equal to the total (taking the printed combat
/// potential) lost by the Defender." When the resolution did not eliminate that much of the
/// attacker's side (no losses chosen), the choice is a check due for the acting unit's side;
/// eliminating the units by hand (`lose`) and marking it done answers it.
fn exchange_due(ev: &Event, must_lose: Option<u32>, q: &mut Queue) {
    let Some(n) = must_lose.filter(|n| *n > 0) else {
        return;
    };
    let Some(side) = ev
        .unit_at(0)
        .and_then(|id| ev.before().unit(id))
        .map(|u| u.unit.side)
    else {
        return;
    };
    let lost: u32 = kepi_game::engine::flow::pairs(ev)
        .filter(|(b, a)| b.unit.side == side && a.eliminated() && !b.eliminated())
        .map(|(b, _)| b.strength)
        .sum();
    if lost < n {
        q.push(
            "FR-C2",
            ev.unit_at(0),
            Some(side),
            format!(
                "exchange (E): eliminate engaged attacking units of at least {n} printed \
                 potential, at the attacker's choice"
            ),
            None,
        );
    }
}

/// FR-B1 when the calendars advance: each marker the game keeps (a siege laid with `siege`) is a
/// check about its place; doing it advances the marker one cell (the siege held), a broken or
/// lifted one is `blockade --place P --end broken|lifted` instead. With no marker kept, one check
/// for the markers on the table.
fn calendar_due(s: &GameState, q: &mut Queue) {
    let kept: Vec<_> = s
        .sieges
        .iter()
        .filter(|g| g.calendar.is_some() && g.capitulated.is_none())
        .collect();
    if kept.is_empty() {
        q.push(
            "FR-B1",
            None,
            None,
            "advance every blockade marker one cell toward SURRENDER (a broken blockade flips its \
             marker; broken a second turn, it moves back one cell)"
                .into(),
            None,
        );
        return;
    }
    for g in kept {
        let c = g.calendar.as_ref();
        let now = format!(
            "now {} cell(s) from {}{}",
            c.map(|c| c.advanced).unwrap_or(0),
            c.map(|c| c.start.as_str()).unwrap_or("?"),
            if c.is_some_and(|c| c.flipped) {
                ", turned over"
            } else {
                ""
            }
        );
        let what = match open_cells(s, g) {
            Some(open) if !open.is_empty() => format!(
                "{}: the blockade is broken: {} neither occupied nor controlled by the besieger \
                 (I2, I5); doing this turns its marker over, or moves it back one cell if it was \
                 already ({now})",
                g.place,
                cells_text(&open)
            ),
            Some(_) => format!(
                "{}: encircled by the besieger's units and the cells they control (I2); doing this \
                 advances its blockade marker one cell toward SURRENDER ({now})",
                g.place
            ),
            None => format!(
                "{}: the siege held? doing this advances its blockade marker one cell toward \
                 SURRENDER ({now}); if the siege was lifted, waive it and apply `blockade --place \
                 {} --end lifted`",
                g.place, g.place
            ),
        };
        q.push_at("FR-B1", Some(g.besieger), g.hex, what);
    }
}

/// "Cell 2117, 2216" / "cell 2117".
fn cells_text(cells: &[kepi_game::roster::Position]) -> String {
    let list: Vec<String> = cells.iter().map(|p| p.to_string()).collect();
    format!(
        "{} {}",
        if list.len() == 1 { "cell" } else { "cells" },
        list.join(", ")
    )
}

/// FR-B1 (I2, I5): the cells around a fortified camp (Metz, Paris: its marker's kind) that are neither
/// occupied nor controlled by the besieger, in order; None for a fortress, whose siege is laid
/// with one unit (H7) and never broken, only lifted. "The besieger must encircle them completely
/// with his units or with cells controlled by them"; "if at the end of a turn the blockade is
/// broken (there is around the fortified camp at least 1 cell that is neither occupied nor
/// controlled by the besieger)". A unit controls the 6 cells around it (Title D); fortresses,
/// railway units and dummies control nothing.
pub(crate) fn open_cells(
    s: &GameState,
    g: &kepi_game::engine::game::Siege,
) -> Option<Vec<kepi_game::roster::Position>> {
    use kepi_game::engine::play::board::{hex_in, position_in};
    let kind = g.calendar.as_ref().map(|c| c.kind.as_str())?;
    if !matches!(kind, "metz" | "paris") {
        return None;
    }
    let layout = s.system.hex_layout();
    let camp: Vec<_> = std::iter::once(g.hex)
        .chain(g.more.iter().copied())
        .filter_map(|p| hex_in(p, layout))
        .collect();
    let besiegers: Vec<_> = s
        .units
        .iter()
        .filter(|u| {
            u.unit.side == g.besieger
                && !u.eliminated()
                && !matches!(
                    u.unit.arm,
                    kepi_game::roster::Arm::Fortress
                        | kepi_game::roster::Arm::Railway
                        | kepi_game::roster::Arm::Dummy
                )
        })
        .filter_map(|u| hex_in(u.position, layout))
        .collect();
    let mut ring: Vec<_> = camp
        .iter()
        .flat_map(|h| h.neighbours())
        .filter(|h| !camp.contains(h))
        .collect();
    ring.sort_by_key(|h| position_in(*h, layout).map(|p| p.to_string()));
    ring.dedup();
    Some(
        ring.into_iter()
            .filter(|h| !besiegers.iter().any(|b| b.distance(*h) <= 1))
            .filter_map(|h| position_in(h, layout))
            .collect(),
    )
}

/// FR-B1 (I6, I8): a place whose marker reached SURRENDER capitulates. Metz: "the units of the
/// besieged player are eliminated; the units of the besieger occupy the fortified camp and may
/// leave it only after having stayed there for one complete turn (example: if Metz capitulates in
/// turn 8, the besiegers may leave it only in turn 10)"; Paris: "immediately ends the game with
/// victory for the German player". Doing the check eliminates the besieged units in the cell.
fn capitulation_due(ev: &Event, q: &mut Queue) {
    for g in &ev.after().sieges {
        let Some(turn) = g.capitulated else {
            continue;
        };
        let was = ev
            .before()
            .sieges
            .iter()
            .find(|b| b.place == g.place)
            .and_then(|b| b.capitulated);
        if was.is_some() {
            continue;
        }
        let kind = g.calendar.as_ref().map(|c| c.kind.as_str()).unwrap_or("");
        let then = match kind {
            "metz" => format!(
                "; the besiegers occupy the fortified camp and may leave it only in turn {}",
                super::blockade::metz_besiegers_may_leave(turn)
            ),
            "paris" => "; the game ends with victory for the German player".to_string(),
            _ => String::new(),
        };
        if kind == "paris" {
            q.push_at(
                "FR-B1",
                Some(g.besieger),
                g.hex,
                format!(
                    "{} {} (turn {turn}){then}",
                    g.place,
                    crate::fr1870::set::CAPITULATES
                ),
            );
            continue;
        }
        q.push_at(
            "FR-B1",
            Some(g.besieger),
            g.hex,
            format!(
                "{} {} (turn {turn}): doing this eliminates the besieged units in {}{then}",
                g.place,
                crate::fr1870::set::CAPITULATES,
                std::iter::once(&g.hex)
                    .chain(g.more.iter())
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
    }
}

/// FR-B1 (I8): "The capitulation (or storming) of Paris immediately ends the game with victory for
/// the German player. Paris extends over 3 cells, but it is sufficient for a single German unit to
/// occupy just one of these cells for Paris to be considered taken." A German unit moving into a
/// cell of besieged Paris (a siege the game keeps) makes it a check due about that cell.
fn paris_taken_due(ev: &Event, q: &mut Queue) {
    for a in ev.changes() {
        let Action::Move { unit, to, .. } = a else {
            continue;
        };
        let Some(u) = ev.after().unit(unit) else {
            continue;
        };
        let taken = ev.before().sieges.iter().find(|g| {
            g.capitulated.is_none()
                && g.calendar.as_ref().is_some_and(|c| c.kind == "paris")
                && g.covers(*to)
                && !g.covers(ev.before().unit(unit).map(|b| b.position).unwrap_or(*to))
        });
        if let Some(g) = taken
            && u.unit.side == kepi_game::roster::Side::German
            && u.unit.side == g.besieger
        {
            q.push_at(
                "FR-B1",
                Some(u.unit.side),
                *to,
                format!(
                    "{} occupies cell {to} of {}: Paris is taken, the game ends with victory for \
                     the German player",
                    u.unit.name, g.place
                ),
            );
        }
    }
}
