//! The moves after a combat on the boards of SPI and 1870, read against the texts: what a retreat
//! or an advance breaks (said before `game apply` moves, while the map drags, and logged with the
//! move: the umpire goes ahead), worded by each set's [`MoveTexts`] (in its `combat_form.rs`).

use kepi_game::engine::game::{Action, Game, GameState, UnitState};
use kepi_game::engine::play::board::hex_in;
use kepi_game::roster::{Arm, Position};

/// How a rule set words the moves after a combat.
pub(crate) struct MoveTexts {
    /// The rule id of the advance check (the due it queues at the vacated hex).
    pub advance_rule: &'static str,
    /// Who may advance, as the text says.
    pub advance: &'static str,
    /// The retreat's rule, when the rule set has one the engine tracks (1870's must-retreat mark).
    pub retreat: Option<RetreatTexts>,
}

/// How a rule set words a retreat.
pub(crate) struct RetreatTexts {
    /// "a retreat is one cell".
    pub one_cell: &'static str,
    /// "never onto a cell the enemy controls that holds no friendly unit".
    pub not_controlled: &'static str,
}

/// What an advance into a cell the loser still holds says (issue 42's audit): the words `kepi log
/// verify` knows it by (each set's `noted_since_issue_42`).
pub(crate) const STILL_HELD: &str = "which the loser still holds";

/// A unit that fights on the board (not a fortress, an EB unit or a dummy).
pub(crate) fn fights(u: &UnitState) -> bool {
    !u.eliminated() && !matches!(u.unit.arm, Arm::Fortress | Arm::Railway | Arm::Dummy)
}

/// FR-C2 (E13): "It is forbidden to retreat onto a cell controlled by the enemy if that cell does
/// not contain a friendly unit": `to` is next to (or under) a fighting enemy unit (E D1: "the 6
/// cells surrounding the cell occupied by a unit are controlled cells of that unit") and holds no
/// other unit of `u`'s side.
fn controlled_and_empty(s: &GameState, u: &UnitState, to: Position) -> bool {
    let layout = s.system.hex_layout();
    let Some(dest) = hex_in(to, layout) else {
        return false;
    };
    let friend_there = s.units.iter().any(|o| {
        o.unit.id != u.unit.id && !o.eliminated() && o.unit.side == u.unit.side && o.position == to
    });
    let enemy_next = s
        .units
        .iter()
        .filter(|o| fights(o) && o.unit.side != u.unit.side)
        .filter_map(|o| hex_in(o.position, layout))
        .any(|h| h.distance(dest) <= 1);
    enemy_next && !friend_there
}

/// FR-C2 (E11, E13): the cells `u` may retreat to, one cell away: each of the six around it that
/// no enemy unit holds and that the enemy does not control unless a friendly unit stands in it
/// ([`controlled_and_empty`]). Off the printed map is the caller's to leave out (the window's
/// board); an empty list is a blocked retreat, which eliminates. The one answer the map's
/// outlined cells, the retreat check's line and `game apply`'s warning give.
pub fn retreat_cells(s: &GameState, u: &UnitState) -> Vec<Position> {
    let layout = s.system.hex_layout();
    let Some(from) = hex_in(u.position, layout) else {
        return Vec::new();
    };
    let enemy_held = |p: Position| {
        s.units
            .iter()
            .any(|o| o.unit.side != u.unit.side && !o.eliminated() && o.position == p)
    };
    from.neighbours()
        .into_iter()
        .filter_map(|h| kepi_game::engine::play::board::position_in(h, layout))
        .filter(|p| !enemy_held(*p) && !controlled_and_empty(s, u, *p))
        .collect()
}

/// What the text says against moving `u` to `to` now: a retreat of more than one cell or onto a
/// cell only the enemy controls (1870), an advance into a vacated hex by a unit that did not take
/// part in the combat for it.
pub(crate) fn move_breaches(
    game: &Game,
    u: &UnitState,
    to: Position,
    t: &MoveTexts,
) -> Vec<String> {
    let s = game.state();
    let layout = s.system.hex_layout();
    let mut out = Vec::new();
    let Some(dest) = hex_in(to, layout) else {
        return out;
    };
    let name = &u.unit.name;
    if let (Some(r), true) = (&t.retreat, s.awaits_move(u)) {
        if let Some(from) = hex_in(u.position, layout)
            && from.distance(dest) != 1
        {
            out.push(format!(
                "{name} retreats {} cells, from {} to {to} ({})",
                from.distance(dest),
                u.position,
                r.one_cell
            ));
        }
        if controlled_and_empty(s, u, to) {
            out.push(format!(
                "{name} retreats into {to}, next to the enemy and holding no friendly unit ({})",
                r.not_controlled
            ));
        }
    }
    let advance_open = s.due.iter().any(|d| {
        d.rule.as_str() == t.advance_rule
            && d.at == Some(to)
            && d.unit.is_none()
            && d.side.is_none_or(|side| side == u.unit.side)
    });
    if advance_open && !s.awaits_move(u) && !took_part_in_last_combat(game, &u.unit.id) {
        out.push(format!(
            "{name} did not take part in the combat that vacated {to} ({})",
            t.advance
        ));
    }
    // Issue 42: the advance is into the cell the loser left (FR-C2, E15 "Any cell evacuated by
    // the loser"; SPI-C4 "into a vacated hex"), not one its units still stand in.
    if advance_open
        && !s.awaits_move(u)
        && let Some(e) = s
            .units
            .iter()
            .find(|o| o.unit.side != u.unit.side && !o.eliminated() && o.position == to)
    {
        out.push(format!(
            "{name} advances into {to}, {STILL_HELD} ({} is there; {})",
            e.unit.name, t.advance
        ));
    }
    out
}

/// True when `id` attacked or defended in the last combat of this phase (the one an advance
/// follows: "he must do so immediately, before any other combat").
fn took_part_in_last_combat(game: &Game, id: &str) -> bool {
    let s = game.state();
    let named = |v: &serde_json::Value, key: &str| {
        v.get(key)
            .and_then(|a| a.as_array())
            .is_some_and(|a| a.iter().any(|x| x.as_str() == Some(id)))
    };
    game.in_effect()
        .rev()
        .take_while(|e| e.entry.turn == s.turn && e.entry.phase == s.phase_name())
        .find_map(|e| match e.action {
            Action::Resolved {
                resolution,
                input: Some(input),
                ..
            } if resolution.action == "combat" => {
                Some(named(input, "attacker_ids") || named(input, "defender_ids"))
            }
            _ => None,
        })
        .unwrap_or(true)
}
