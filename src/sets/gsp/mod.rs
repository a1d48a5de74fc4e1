//! Graveyard St. Privat, Part III: artillery with accuracy-of-aim drift (GSP-A1..A4, C1..C3, S1).
//!
//! One d6 per gun against the hit chart by gun and range sector; shell and siege fire drift on the
//! 3x3 A.O.A. grid (2d6 per hit) and their casualties fall where they land; cover deducts pips; shell
//! pips pile up on structures and equipment until they fall; crews lose horses and cannoneers by the
//! hit die's parity; the siege gun is placed hidden. Every function is pure over plain data, and every
//! resolution carries exact odds computed through the same function that settles a roll.
//!
//! - [`tables`]: `tables/gsp.toml` as [`GspTables`], with the grid's orientation.
//! - [`types`]: the vocabularies (guns, cover, the nine landing sectors, structures).
//! - [`range`]: measured range (inches or centimetres) to range sector.
//! - [`drift`]: the A.O.A. drift model the window draws.
//! - [`fire`]: a gun or a battery, with sectors, casualties, structures and odds.
//! - [`damage`]: structures, equipment, the mixed-sector rule and crews.
//! - [`procedure`]: GSP-A4 eligibility and loads; GSP-S1 the siege gun.

pub mod card;
mod checklist;
mod checks;
pub mod damage;
pub mod drift;
pub mod fire;
pub mod form;
pub mod grammar;
pub mod marks;
pub mod outcome;
#[cfg(feature = "gui")]
pub mod panel;
pub mod procedure;
pub mod range;
pub mod set;
pub mod tables;
pub mod types;
pub mod verbs;

pub use damage::{
    Casualties, CrewInput, CrewOutcome, DamageResult, DamageState, Occupants, StructureInput,
    StructureOutcome, crew, structure,
};
pub use drift::{AoaOutcome, DriftCell, DriftModel, aoa, drift_model};
pub use fire::{
    CellOdds, CellResult, Chance, FireInput, FireOdds, FireOutcome, SectorContents, ShotOutcome,
    Target, fire, fire_odds, fire_phase, settle, settle_cell,
};
pub use procedure::{
    GunStatus, SiegeGun, SiegePlacement, check_can_fire, gun_type, siege_position,
};
pub use range::{Length, LengthUnit, SectorFromRange, sector_for_range};
pub use tables::GspTables;
pub use types::{
    Arm, Cell, Col, Cover, CrewMember, GunType, Load, Piece, Row, Side, StructureKind, Terrain,
};

/// Graveyard St. Privat, artillery (d6, 2d6 drift). Its id, what saves and cards carry as `system`.
pub const ID: kepi_game::rules::RuleSetId = kepi_game::rules::RuleSetId::new_registered("gsp");
