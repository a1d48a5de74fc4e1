//! 1870's markers on a unit beyond the engine's flags (issue 45): declared here, kept by the
//! engine ([`kepi_game::engine::game::UnitMarkerKind`]), read by 1870's rules.

use kepi_game::engine::game::{MarkerLasts, Tone, UnitMarkerKind};

/// FR-C2: disorganised by a combat result; disorganised again, eliminated.
pub const DISORGANISED: UnitMarkerKind = UnitMarkerKind {
    name: "disorganised",
    label: "disorganised",
    tag: "Dz",
    rule: "FR-C2",
    what: "disorganised (FR-C2)",
    tone: Tone::Warn,
    lasts: MarkerLasts::UntilTakenOff,
    aliases: &["disorganized"],
};

/// FR-C2: must retreat one cell, set by a combat result; its next move is the retreat.
pub const MUST_RETREAT: UnitMarkerKind = UnitMarkerKind {
    name: "must-retreat",
    label: "must retreat",
    tag: "R!",
    rule: "FR-C2",
    what: "must retreat one cell (FR-C2): drag it on the map",
    tone: Tone::Warn,
    lasts: MarkerLasts::UntilMoved,
    aliases: &[],
};

/// FR-K1: at sea on a transport counter, set by a passage, taken off by a landing.
pub const AT_SEA: UnitMarkerKind = UnitMarkerKind {
    name: "at-sea",
    label: "at sea",
    tag: "sea",
    rule: "FR-K1",
    what: "at sea, in transit (FR-K1)",
    tone: Tone::Info,
    lasts: MarkerLasts::UntilTakenOff,
    aliases: &[],
};

/// FR-F1, H5: stormed a fortress this turn: "it may go no further during this phase" and "may not
/// fight in the following Combat Phase".
pub const STORMED: UnitMarkerKind = UnitMarkerKind {
    name: "stormed",
    label: "stormed",
    tag: "St",
    rule: "FR-F1",
    what: "stormed a fortress this turn: no further this phase, no combat in the following \
           Combat Phase (FR-F1, H5)",
    tone: Tone::Warn,
    lasts: MarkerLasts::Turn,
    aliases: &[],
};

/// 1870's unit markers, in the order the unit editor lists them.
pub const UNIT_MARKERS: &[UnitMarkerKind] = &[DISORGANISED, MUST_RETREAT, AT_SEA, STORMED];
