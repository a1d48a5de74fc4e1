//! kepi-game: kepi's core, below the rule sets, the middle and the front ends.
//!
//! Dice with exact odds ([`dice`]), rule tables with provenance ([`tables`]), the rules'
//! vocabulary ([`rules`]) and the rule-set registry ([`registry`], a table naming no rule set),
//! the board as data ([`map`]), the roster ([`roster`]), the engine ([`engine`]: the game, the
//! umpire's flow, play) and the save and its journal ([`store`]). The rule sets (`kepi-sets`) and
//! the middle (`kepi-middle`: the `game apply` language, exports, the campaign, the table on the
//! network) sit on it; the command line (`kepi-cli`) and the window (`kepi-window`) drive the same
//! functions. This crate links no window (feature `gui` adds egui, not eframe, for the rule sets'
//! forms). See docs/ARCHITECTURE.md.

#![warn(missing_docs)]

pub mod dice;
pub mod engine;
pub mod fsio;
pub mod hex;
pub mod map;
pub mod registry;
pub mod roster;
pub mod rules;
pub mod store;
pub mod tables;

// The engine's three parts keep their short paths for the library's users (`kepi::game::Game`);
// inside the crate they are named `crate::engine::...` so the layering reads from the paths.
pub use engine::{flow, game, play};

// This crate's unit tests are a program of their own, built with no rule set: the rule sets sit
// above this crate (`kepi-sets`), and what needs them is tested there or in tests/.
#[cfg(test)]
rule_sets!(&[]);
