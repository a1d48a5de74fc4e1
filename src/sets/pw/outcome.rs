//! The Portable Wargame outcomes kepi acts on once applied ([`kepi_game::rules::Outcome`] holds one).

use super::{FireOutcome, MeleeOutcome};

/// A logged PW outcome, by the mechanic that gave it.
#[derive(Clone, Debug, PartialEq)]
pub enum PwOutcome {
    /// PW-A1 / PW-R1 a fire roll (its hits, when not applied, ask for the owner's choice: PW-H1).
    Fire(FireOutcome),
    /// PW-X1 a melee roll (its hits likewise).
    Melee(MeleeOutcome),
}

impl PwOutcome {
    /// Hits the roll scored (PW-H1).
    pub fn hits(&self) -> u32 {
        match self {
            PwOutcome::Fire(o) => o.hits,
            PwOutcome::Melee(o) => o.hits,
        }
    }
}
