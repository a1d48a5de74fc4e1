//! 1870's movement rules read against a move (Title B, FR-M1; issue 42's audit): what the text
//! says against it is noted while dragging, before `game apply` moves and in the move's log entry;
//! the umpire decides.

use crate::fr1870::marks::{MUST_RETREAT, STORMED};
use kepi_game::engine::game::clock::Step;
use kepi_game::engine::game::{Action, Game, UnitState};
use kepi_game::roster::Position;

/// B8 as printed.
const B8: &str = "\"A unit may never enter a cell occupied by an enemy unit\"";
/// B9 as printed.
const B9: &str = "\"A unit may be moved only once per Movement Phase\"";

/// The notes of [`move_breaches`] (and of the advance into a held cell,
/// [`crate::board::moves::STILL_HELD`]), which earlier kepis did not give: `kepi log
/// verify` takes a move or a roll of an entry they wrote (log revision 0) without them. Storming's
/// notes (FR-F1 H5) are not here: no earlier kepi played a storm on a unit, so no older entry can
/// lack them, and an excuse would only let a forger cut them.
pub(crate) const NOTED_SINCE_ISSUE_42: &[&str] = &[B8, B9, crate::board::moves::STILL_HELD];

/// FR-M1 (B8, B9), FR-F1 (H5): a move by a unit that stormed a fortress this phase; a move into a
/// cell an enemy unit occupies (unless it is the advance after
/// combat into the cell the loser left, which [`crate::board::moves::move_breaches`] reads),
/// and a second move of the unit in the same Movement Phase. Retreats and advances after combat
/// are "totally independent of those made during the Movement Phases" (E11): not counted.
pub(crate) fn move_breaches(game: &Game, u: &UnitState, to: Position) -> Vec<String> {
    let s = game.state();
    let mut out = Vec::new();
    if to == u.position || to == Position::Off || u.position == Position::Off {
        return out;
    }
    let name = &u.unit.name;
    let advance = s
        .due
        .iter()
        .any(|d| d.rule.as_str() == "FR-C2" && d.at == Some(to));
    if !advance
        && let Some(e) = s
            .units
            .iter()
            .find(|o| o.unit.side != u.unit.side && !o.eliminated() && o.position == to)
    {
        out.push(format!(
            "{name} enters {to}, occupied by {} (FR-M1, B8: {B8})",
            e.unit.name
        ));
    }
    // FR-F1 (H5): "the unit interrupts its movement; it may go no further during this phase".
    if u.carries(&STORMED)
        && !u.carries(&MUST_RETREAT)
        && !advance
        && s.phase_kind()
            .is_some_and(|p| p.step == Step::Movement && p.side.is_none_or(|x| x == u.unit.side))
    {
        out.push(format!(
            "{name} stormed a fortress this phase and moves on (FR-F1, H5: {})",
            super::form::H5_STOPS
        ));
    }
    if s.phase_kind().is_some_and(|p| p.step == Step::Movement)
        && !u.carries(&MUST_RETREAT)
        && !advance
    {
        let earlier = moves_this_phase(game, &u.unit.id);
        if earlier > 0 {
            out.push(format!(
                "{name} moved already this Movement Phase (FR-M1, B9: {B9})"
            ));
        }
    }
    out
}

/// How many times `id` moved in this turn's current phase (the log's moves in effect).
fn moves_this_phase(game: &Game, id: &str) -> usize {
    let s = game.state();
    game.in_effect()
        .rev()
        .take_while(|e| e.entry.turn == s.turn && e.entry.phase == s.phase_name())
        .filter(|e| matches!(e.action, Action::Move { unit, .. } if unit == id))
        .count()
}
