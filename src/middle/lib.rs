//! kepi-middle: what kepi does with whole games, between the core and the front ends.
//!
//! The language `kepi game apply` speaks ([`moves`]), exports of rosters, cards and battle reports
//! ([`export`]), the game hosted on the table's network ([`net`]) and a campaign on the board with
//! its battles on the table ([`campaign`]). It sits on `kepi-game` and beside the rule sets
//! (`kepi-sets`), which it never names: it asks each game's rule set through the registry. The
//! command line (`kepi-cli`) and the window (`kepi-window`) sit on it. See docs/ARCHITECTURE.md.

#![warn(missing_docs)]

pub mod campaign;
pub mod export;
pub mod moves;
pub mod net;

// This crate's unit tests are a program of their own, built with kepi's five rule sets: the move
// language, the seats' views and the campaign are tested on real rule sets (`played/`).
#[cfg(test)]
kepi_game::rule_sets!(&kepi_sets::BUILT_IN);

#[cfg(test)]
mod played;
