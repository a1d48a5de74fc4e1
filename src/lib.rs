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
pub mod export;
pub mod flow;
pub mod fsio;
pub mod game;
pub mod hex;
pub mod net;
pub mod play;
pub mod roster;
pub mod rules;
pub mod ruleset;
pub mod store;
pub mod tables;
