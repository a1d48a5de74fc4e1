//! The Pickelhaube & Kepi outcomes kepi acts on once applied ([`kepi_game::rules::Outcome`] holds one).

use super::{artillery, fire, melee};

/// A logged P&K outcome, by the mechanic that gave it.
#[derive(Clone, Debug, PartialEq)]
pub enum PkOutcome {
    /// PK-F1..F7 fire (a general may fall: PK-L1).
    Fire(fire::FireOutcome),
    /// PK-A1..A4 artillery fire (a general may fall: PK-L1).
    Artillery(artillery::ArtilleryOutcome),
    /// PK-X3 one move of melee, both sides (flag roll for the loser, PK-X4; generals, PK-L1).
    Melee(melee::MeleeBothOutcome),
    /// PK-X5 the end-of-move fatigue check (a unit that falls back asks for the pursuit roll).
    Fatigue(melee::FatigueOutcome),
}
