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

use crate::engine::game::Game;

use super::Form;

/// Everything odd about resolving `form` now: the phase warnings ([`crate::engine::flow::phase_warnings`])
/// and the breaches of the text ([`breaches`]). Shown before the roll and logged with it.
pub fn warnings(form: &Form, game: &Game) -> Vec<String> {
    let mut out = crate::engine::flow::phase_warnings(game.state(), form.name(), form.units().0);
    out.extend(breaches(form, game));
    out
}

/// What `form` breaks of its rule set's text, given what this combat phase has seen (the game's
/// resolutions in effect this turn and phase).
pub fn breaches(form: &Form, game: &Game) -> Vec<String> {
    form.breaches(game)
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
