//! Pickelhaube & Kepi (seed 002): every PK-* mechanic as a pure resolution with exact odds.
//!
//! The hit arithmetic is shared: LF = (AV + class + d10 + additions) x factors, kept exact as a
//! [`Ratio`](kepi_game::dice::Ratio) (an LF may be a half), against DF = DV + cover; losses are
//! floor(LF / DF), never more than the figures present. Any casualty from fire or melee triggers the
//! PK-L1 leader roll (d% 86+), which is part of the resolution and of its odds. The modules hold the
//! mechanics: [`fire`], [`artillery`], [`melee`], [`morale`], [`turn`], [`movement`], [`visibility`]; the tables are
//! [`PkTables`] (`tables/pk.toml`).

pub mod artillery;
pub mod card;
mod checklist;
mod checks;
mod common;
pub mod fire;
pub mod form;
pub mod grammar;
pub mod marks;
pub mod melee;
pub mod morale;
pub mod movement;
pub mod outcome;
#[cfg(feature = "gui")]
pub mod panel;
pub mod set;
pub mod tables;
pub mod turn;
pub mod verbs;
pub mod visibility;
mod vocab;

pub use common::{Side, casualties, leader_roll_odds, split_casualties};
pub use tables::PkTables;
pub use vocab::*;

#[cfg(test)]
mod tests;

/// Pickelhaube & Kepi (d10, d%). Its id, what saves and cards carry as `system`.
pub const ID: kepi_game::rules::RuleSetId = kepi_game::rules::RuleSetId::new_registered("pk");
