//! kepi: a desktop assistant for Franco-Prussian War wargames played on hexes or with a tape measure.
//!
//! This crate is the binary, the composition root and a facade over the workspace's crates, so one
//! path names a thing wherever it lives: `kepi::dice`, `kepi::engine`, `kepi::registry` ... are
//! `kepi-game`'s (dice with exact odds, rule tables with provenance, the engine, the store);
//! `kepi::moves`, `kepi::export`, `kepi::net` and `kepi::campaign` are `kepi-middle`'s;
//! `kepi::rules` is `kepi-game`'s rules vocabulary with the five rule sets'
//! folders of `kepi-sets` beside it (`kepi::rules::pk` ...); [`cli`] is `kepi-cli` (the command
//! line); `app` is `kepi-window` (the window, feature `gui`). The crate graph is the layer drawing
//! of docs/ARCHITECTURE.md.

#![warn(missing_docs)]

pub use kepi_game::*;

/// The rules: the vocabulary every rule set resolves into (`kepi-game`'s `rules`) and the five
/// rule sets kepi ships (crate `kepi-sets`), one folder each.
pub mod rules {
    pub use kepi_game::rules::*;
    pub use kepi_sets::{board, fr1870, gsp, pk, pw, spi};
}

/// The rule-set registry (`kepi-game`'s), with the five rule sets kepi is built with
/// (`kepi-sets`' [`BUILT_IN`](kepi_sets::BUILT_IN) and [`ALL`](kepi_sets::ALL)).
pub mod registry {
    pub use kepi_game::registry::*;
    pub use kepi_sets::{ALL, BUILT_IN};
}

/// The middle (crate `kepi-middle`): the `game apply` language, exports, the table on the
/// network and the campaign.
pub use kepi_middle::{campaign, export, moves, net};

/// The command line (crate `kepi-cli`).
pub use kepi_cli as cli;

/// The window (crate `kepi-window`, feature `gui`).
#[cfg(feature = "gui")]
pub use kepi_window as app;

// The composition root: the rule sets kepi is built with, in menu order (issue 45). A sixth is one
// more entry in that list (or, played beside kepi's, one `registry::register` call).
kepi_game::rule_sets!(&kepi_sets::BUILT_IN);
