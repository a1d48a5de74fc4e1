//! Graveyard St. Privat's markers on a unit beyond the engine's flags (issue 45): declared here,
//! kept by the engine ([`kepi_game::engine::game::UnitMarkerKind`]), read by its rules.

use kepi_game::engine::game::{MarkerLasts, Tone, UnitMarkerKind};

/// GSP-S1: the siege gun is "kept hidden until French units come adjacent or in" and "cannot fire
/// while hidden"; a siege gun's card puts it on at the start.
pub const HIDDEN: UnitMarkerKind = UnitMarkerKind {
    name: "hidden",
    label: "hidden",
    tag: "H",
    rule: "GSP-S1",
    what: "hidden (GSP-S1): cannot fire while hidden",
    tone: Tone::Info,
    lasts: MarkerLasts::UntilTakenOff,
    aliases: &[],
};

/// The Graveyard's unit markers.
pub const UNIT_MARKERS: &[UnitMarkerKind] = &[HIDDEN];
