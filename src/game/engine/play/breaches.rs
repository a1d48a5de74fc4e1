//! What a resolution breaks of its rule set's text, said before the roll and logged with it (issue
//! 28): the umpire decides, so these are warnings, never refusals (the impossible is refused by
//! [`super::refuse`]).
//!
//! - SPI-C2 (Combat, cases A and C) and FR-C1 (E1, E3, E8): attackers not next to the defending hex
//!   or not on the map; a unit attacking twice in one combat phase, a unit attacked twice in one
//!   combat phase (1870: a unit fights "offensively or defensively, only once", so a unit that
//!   defended does not attack either).
//! - PW-X1: a melee is a unit entering the enemy's hex: the two must be neighbours.
//! - PK-X1: "Only a Steady unit can initiate melee. Only a Steady or Shaken unit will accept melee."

use crate::engine::game::{Counter, Game, GameState, UnitState};
use crate::roster::Position;
use crate::tables::Tables;

use super::Form;

/// Everything odd about resolving `form` now: the phase warnings ([`crate::engine::flow::phase_warnings`])
/// and the breaches of the text ([`breaches`]). Shown before the roll and logged with it.
pub fn warnings(form: &Form, game: &Game, tables: &Tables) -> Vec<String> {
    let mut out = crate::engine::flow::phase_warnings(game.state(), form.name(), form.units().0);
    out.extend(breaches(form, game, tables));
    out
}

/// What `form` breaks of its rule set's text, given what this combat phase has seen (the game's
/// resolutions in effect this turn and phase) and the game's tables.
pub fn breaches(form: &Form, game: &Game, tables: &Tables) -> Vec<String> {
    form.breaches(game, tables)
}

/// What a move in a phase that is not a movement phase says, between the phase and the turn's rule
/// ([`moved_out_of_phase`]): how `kepi log verify` knows the note (see [`noted_since_issue_42`]).
const NOT_A_MOVEMENT_PHASE: &str = "which is not a movement phase";

/// What bringing an eliminated unit back says ([`revived`]).
const BROUGHT_BACK: &str = "was eliminated: no rule brings an eliminated unit back";

/// Issue 42, every set: a move in a phase that is not one its rule set moves units in
/// ([`crate::engine::rule_set::RuleSet::moves_in`], as its turn's rule says: PK-T1, PW-T1, GSP's
/// sequence, SPI-T1 and SPI-M1 "only in the friendly movement phase", FR-T1 and FR-M1 "only in the
/// movement phase"). A move an open due check asks for is none: a retreat or a withdrawal (its
/// unit's check, FR-C2, PW-H1, PK-X5, PK-X6, SPI-E1), an advance after combat into the hex a
/// check names (SPI-C4, FR-C2). None where the turn has no phase known.
pub fn moved_out_of_phase(s: &GameState, u: &UnitState, to: Position) -> Option<String> {
    if to == u.position {
        return None;
    }
    let phase = s.phase_kind()?;
    let arriving = u.position == Position::Off;
    if s.system.moves_in(phase.step, arriving) || s.awaits_move(u) {
        return None;
    }
    // The unit's own check that a move answers, or the advance into the hex a combat vacated (a
    // check of no unit, for the victors' side): not a check that merely names the unit or the hex
    // (a pending battle, a siege).
    let asked = s.due.iter().any(|d| {
        (d.unit.as_deref() == Some(u.unit.id.as_str()) && s.system.due_asks_move(d))
            || (d.at == Some(to) && d.unit.is_none() && d.side.is_none_or(|x| x == u.unit.side))
    });
    if asked {
        return None;
    }
    Some(format!(
        "{} moves in the {} phase, {NOT_A_MOVEMENT_PHASE} ({}: the turn's sequence)",
        u.unit.name,
        s.phase_name(),
        s.system.turn_rule()
    ))
}

/// Issue 42, every set: `set UNIT strength N` (N above 0) on an eliminated unit brings it back into
/// play, which no text allows (PK-W1 "routed units never return", PW-V1, GSP-C3, SPI-R1, FR-C2:
/// eliminated). Noted and logged with the change; the umpire decides (`gain` is refused, see
/// [`super::refuse::action_refusal`]: a correction is typed as a count).
pub fn revived(s: &GameState, unit: &str, counter: Counter, value: u32) -> Option<String> {
    let u = s.unit(unit)?;
    (counter == Counter::Strength && u.eliminated() && value > 0).then(|| {
        format!(
            "{} {BROUGHT_BACK} (strength set to {value}; undo the loss if it was a mistake)",
            u.unit.name
        )
    })
}

/// True when `breach` is one kepi notes since issue 42's audit and earlier kepis did not, of
/// every set's ([`moved_out_of_phase`], [`revived`]) or of the game's rule set
/// ([`crate::engine::rule_set::RuleSet::noted_since_issue_42`]): `kepi log verify` takes an entry
/// logged without it (a save written before reads back and verifies).
pub fn noted_since_issue_42(s: &GameState, breach: &str) -> bool {
    breach.contains(NOT_A_MOVEMENT_PHASE)
        || breach.contains(BROUGHT_BACK)
        || s.system
            .noted_since_issue_42()
            .iter()
            .any(|m| breach.contains(m))
}

/// The log revision ([`crate::engine::game::LOG_REVISION`]) since which kepi notes the breaches
/// of issue 42's audit ([`noted_since_issue_42`]).
pub const NOTED_SINCE_REV: u32 = 1;

/// True when `logged` notes are `again` (what kepi notes now, each through `note`), or, in an
/// entry of a revision before [`NOTED_SINCE_REV`] (`rev`: an entry an earlier kepi wrote), `again`
/// less some breaches noted since issue 42 ([`noted_since_issue_42`]) in the same order, or
/// less the rule set's notes of a later revision than the entry's
/// ([`crate::engine::rule_set::RuleSet::noted_since`]); the notes the rule set judges anew since
/// a later revision than the entry's
/// ([`crate::engine::rule_set::RuleSet::judged_anew_since`]) are left out of both. `same`
/// compares one logged note with one noted now.
pub fn same_but_newer<F>(
    (s, rev): (&GameState, u32),
    logged: &[String],
    again: &[String],
    same: F,
) -> bool
where
    F: Fn(&str, &str) -> bool,
{
    let older = rev < NOTED_SINCE_REV;
    // A note judged anew since a later revision than the entry's is compared in neither list.
    let anew = |n: &&String| {
        breach_of(n).is_some_and(|b| {
            s.system
                .judged_anew_since()
                .iter()
                .any(|(since, words)| rev < *since && b.contains(words))
        })
    };
    let mut l = logged.iter().filter(|n| !anew(n)).peekable();
    for a in again.iter().filter(|n| !anew(n)) {
        match l.peek() {
            Some(x) if same(x, a) => {
                l.next();
            }
            _ if older && breach_of(a).is_some_and(|b| noted_since_issue_42(s, b)) => {}
            _ if breach_of(a).is_some_and(|b| {
                s.system
                    .noted_since()
                    .iter()
                    .any(|(since, words)| rev < *since && b.contains(words))
            }) => {}
            _ => return false,
        }
    }
    l.next().is_none()
}

/// Who went ahead with what the rules say against an action (issue 46): said at the start of each
/// note that logs a breach, so the log says who acted and whether the umpire overrode anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WentAhead {
    /// The umpire (`kepi game apply`, the window alone, the umpire's seat at a table).
    Umpire,
    /// A player's seat on its own: the umpire was not asked and overrode nothing.
    Seat(&'static str),
    /// A player's seat's request the umpire approved: the umpire overrode the breach.
    Approved(&'static str),
}

/// What a player's own note says between its seat and the breach.
const SEAT_AHEAD: &str = " went ahead (the umpire was not asked): ";
/// What an approved request's note says between its seat and the breach.
const APPROVED_AHEAD: &str = "'s request, overriding: ";

impl WentAhead {
    /// The note logging `warning` ("umpire went ahead: ...", "german went ahead (the umpire was
    /// not asked): ...", "umpire approved german's request, overriding: ...").
    pub fn note(self, warning: &str) -> String {
        match self {
            WentAhead::Umpire => format!("umpire went ahead: {warning}"),
            WentAhead::Seat(seat) => format!("{seat}{SEAT_AHEAD}{warning}"),
            WentAhead::Approved(seat) => format!("umpire approved {seat}{APPROVED_AHEAD}{warning}"),
        }
    }
}

/// The breach a note logs, whoever went ahead with it ([`WentAhead::note`]); `None` for another
/// note. A log verifies the same whichever seat acted.
pub fn breach_of(note: &str) -> Option<&str> {
    if let Some(w) = note.strip_prefix("umpire went ahead: ") {
        return Some(w);
    }
    if let Some(rest) = note.strip_prefix("umpire approved ")
        && let Some((seat, w)) = rest.split_once(APPROVED_AHEAD)
        && !seat.contains(' ')
    {
        return Some(w);
    }
    note.split_once(SEAT_AHEAD)
        .filter(|(seat, _)| !seat.is_empty() && !seat.contains(' '))
        .map(|(_, w)| w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_breach_note_says_who_went_ahead_and_gives_its_breach_back() {
        let w = "2RC is not next to 2138 (not adjacent)";
        for (who, starts) in [
            (WentAhead::Umpire, "umpire went ahead: "),
            (
                WentAhead::Seat("german"),
                "german went ahead (the umpire was not asked): ",
            ),
            (
                WentAhead::Approved("german"),
                "umpire approved german's request, overriding: ",
            ),
        ] {
            let note = who.note(w);
            assert!(note.starts_with(starts), "{note}");
            assert_eq!(breach_of(&note), Some(w), "{note}");
        }
        assert_eq!(breach_of("chances: 1 in 6"), None);
        assert_eq!(
            breach_of("umpire approved german's request 3: fire a b"),
            None
        );
    }
}
