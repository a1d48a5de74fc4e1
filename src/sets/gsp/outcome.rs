//! The Graveyard St. Privat outcomes kepi acts on once applied ([`kepi_game::rules::Outcome`] holds one).

use super::{damage, fire};

/// A logged GSP outcome, by the mechanic that gave it.
#[derive(Clone, Debug, PartialEq)]
pub enum GspOutcome {
    /// GSP-C2 damage to a structure or equipment.
    Structure(damage::StructureOutcome),
    /// GSP-A1..A3 a battery's fire (its drift diagram).
    Fire(Box<fire::FireOutcome>),
}
