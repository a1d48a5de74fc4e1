//! kepi: a desktop assistant for Franco-Prussian War wargames played on hexes or with a tape measure.
//!
//! The library is the rules engine and everything around it that does not need a window: dice with
//! exact odds ([`dice`]), rule tables with provenance ([`tables`]), the five rule sets ([`rules`]) and
//! the command line ([`cli`]); the umpire's flow ([`flow`]): phase checklists and the checks each
//! outcome sets off; the game hosted on the table's network ([`net`]). The window ([`app`],
//! feature `gui`) drives the same functions.

#![warn(missing_docs)]

#[cfg(feature = "gui")]
pub mod app;
pub mod campaign;
pub mod cli;
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
