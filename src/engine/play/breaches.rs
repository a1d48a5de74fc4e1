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
