//! kepi: a desktop assistant for Franco-Prussian War wargames played on hexes or with a tape measure.
//!
//! This crate is the binary and a facade over the workspace's crates, so one path names a thing
//! wherever it lives: `kepi::dice`, `kepi::engine`, `kepi::rules` ... are `kepi-game`'s (dice with
//! exact odds, rule tables with provenance, the five rule sets, the engine, the store, the table on
//! the network); [`cli`] is `kepi-cli` (the command line); `app` is `kepi-window` (the window,
//! feature `gui`). The crate graph is the layer drawing of docs/ARCHITECTURE.md.

#![warn(missing_docs)]

pub use kepi_game::*;

/// The command line (crate `kepi-cli`).
pub use kepi_cli as cli;

/// The window (crate `kepi-window`, feature `gui`).
#[cfg(feature = "gui")]
pub use kepi_window as app;

// The composition root: the rule sets kepi is built with, in menu order (issue 45). A sixth is one
// more entry in that list.
kepi_game::rule_sets!(&kepi_game::registry::BUILT_IN);
