//! kepi-game: kepi below its front ends, everything that does not need a window or a command line.
//!
//! Dice with exact odds ([`dice`]), rule tables with provenance ([`tables`]), the five rule sets
//! ([`rules`]) and their registry ([`registry`]), the roster ([`roster`]), the engine ([`engine`]:
//! the game, the umpire's flow, play), the save and its journal ([`store`]), the `game apply`
//! language ([`moves`]), exports ([`export`]), the campaign ([`campaign`]) and the game hosted on
//! the table's network ([`net`]). The command line (`kepi-cli`) and the window (`kepi-window`)
//! drive the same functions; this crate links neither (feature `gui` adds egui, not eframe, for the
//! rule sets' forms). See docs/ARCHITECTURE.md.

#![warn(missing_docs)]

pub mod campaign;
pub mod dice;
pub mod engine;
pub mod export;
pub mod fsio;
pub mod hex;
pub mod map;
pub mod moves;
pub mod net;
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
