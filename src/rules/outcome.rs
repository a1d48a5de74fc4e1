//! A logged resolution's outcome, typed.
//!
//! The log keeps each resolution's outcome in its JSON form (saves and hashes stay as they always
//! were). Code that acts on an outcome (the due checks a result sets off, the drift diagram) reads it
//! here, once, into the rule set's own outcome type, and matches on that type: no outcome is read by
//! a JSON path, and each rule set says which of its actions yields which type ([`crate::engine::rule_set::RuleSet::outcome`]).

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::{gsp, pk, pw};

/// The outcomes kepi acts on after they are applied.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// PK-F1..F7 fire (a general may fall: PK-L1).
    PkFire(pk::fire::FireOutcome),
    /// PK-A1..A4 artillery fire (a general may fall: PK-L1).
    PkArtillery(pk::artillery::ArtilleryOutcome),
    /// PK-X3 one move of melee, both sides (flag roll for the loser, PK-X4; generals, PK-L1).
    PkMelee(pk::melee::MeleeBothOutcome),
    /// PK-X5 the end-of-move fatigue check (a unit that falls back asks for the pursuit roll).
    PkFatigue(pk::melee::FatigueOutcome),
    /// PW-A1 / PW-R1 a fire roll (its hits, when not applied, ask for the owner's choice: PW-H1).
    PwFire(pw::FireOutcome),
    /// PW-X1 a melee roll (its hits likewise).
    PwMelee(pw::MeleeOutcome),
    /// GSP-C2 damage to a structure or equipment.
    GspStructure(gsp::damage::StructureOutcome),
    /// GSP-A1..A3 a battery's fire (its drift diagram).
    GspFire(Box<gsp::fire::FireOutcome>),
    /// SPI-C1..C4 a combat (the attackers may advance into a hex the defenders left, SPI-C4).
    SpiCombat(Box<super::spi::combat::SpiCombatOutcome>),
    /// FR-C1/C2 a combat (retreats; the victor may occupy the vacated cell).
    FrCombat(Box<super::fr1870::combat::FrCombatOutcome>),
}

/// A logged outcome read as the rule set's own type (None when it does not read as it).
pub(crate) fn typed<T: DeserializeOwned>(v: &Value) -> Option<T> {
    T::deserialize(v).ok()
}

impl Outcome {
    /// Hits a Portable Wargame roll scored (PW-H1), 0 for any other outcome.
    pub fn pw_hits(&self) -> u32 {
        match self {
            Outcome::PwFire(o) => o.hits,
            Outcome::PwMelee(o) => o.hits,
            _ => 0,
        }
    }
}
