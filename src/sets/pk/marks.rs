//! P&K's markers on a unit beyond the engine's flags (issue 45): declared here, kept by the engine
//! ([`kepi_game::engine::game::UnitMarkerKind`]), read by P&K's rules.

use kepi_game::engine::game::{MarkerLasts, Tone, UnitMarkerKind};

/// PK-D1: muddled (a unit that "muddles" acts at a disadvantage until it rallies; PK-X7's melee
/// reads it).
pub const MUDDLED: UnitMarkerKind = UnitMarkerKind {
    name: "muddled",
    label: "muddled",
    tag: "Mud",
    rule: "PK-D1",
    what: "muddled (PK-D1, PK-X7)",
    tone: Tone::Warn,
    lasts: MarkerLasts::UntilTakenOff,
    aliases: &[],
};

/// PK-X4: the loser of a melee who rolls 6 or less loses its flag.
pub const FLAG_LOST: UnitMarkerKind = UnitMarkerKind {
    name: "flag-lost",
    label: "flag lost",
    tag: "flag",
    rule: "PK-X4",
    what: "lost its flag (PK-X4)",
    tone: Tone::Alarm,
    lasts: MarkerLasts::UntilTakenOff,
    aliases: &[],
};

/// P&K's unit markers, in the order the unit editor lists them.
pub const UNIT_MARKERS: &[UnitMarkerKind] = &[MUDDLED, FLAG_LOST];
